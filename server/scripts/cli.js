'use strict';

/**
 * The frame of the server's commands (npm run backup, restore, uploads:orphans, mail:queue, mail:retry): the arguments parsed
 * (a bad one is printed, exit 2), `--help` (the usage, exit 0), then `run(options)`, whose result is
 * the exit code; a thrown error is printed through `describe` and exits 1.
 */
function runCli({ parseArgs, usage, run, describe = (error) => error }) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  if (options.help) {
    console.log(usage);
    process.exit(0);
  }
  run(options).then(
    (code) => process.exit(code),
    (error) => {
      console.error(describe(error));
      process.exit(1);
    },
  );
}

/**
 * Boots the app for a maintenance run (same configuration, database and upload provider as `npm start`,
 * without serving), runs `work(app, requireBuilt)` and shuts it down; `requireBuilt('src/x.js')` loads a
 * module of the compiled server. Not an instance: no scheduled jobs (goal reminders), no start-up sweep of
 * interrupted uploads (a dry run deletes nothing; the grace period is the command's), and no mail worker
 * (the instances deliver the queue; a short run must not hold claims it may drop).
 */
async function withMaintenanceApp(work) {
  const path = require('node:path');
  const appDir = path.resolve(__dirname, '..');
  process.chdir(appDir);
  const { compileStrapi, createStrapi } = require('@strapi/strapi');
  // Compiling rewrites server/dist: a test run, whose instances start from dist meanwhile, says it is current.
  const context =
    process.env.CARNIVO_SERVER_DIST_CURRENT === '1' ? { appDir, distDir: path.join(appDir, 'dist') } : await compileStrapi({ appDir });
  const app = createStrapi(context);
  app.log.level = process.env.STRAPI_LOG_LEVEL || 'error';
  app.config.set('server.cron.enabled', false);
  app.config.set('server.sweepInterruptedUploads', false);
  process.env.EMAIL_WORKER = 'off';
  await app.load();
  try {
    return await work(app, (file) => require(path.join(context.distDir, file)));
  } finally {
    await app.destroy();
  }
}

module.exports = { runCli, withMaintenanceApp };
