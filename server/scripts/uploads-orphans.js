#!/usr/bin/env node
'use strict';
/**
 * npm run uploads:orphans [-- --dry-run] [-- --grace-minutes=N]
 *
 * Finds orphaned uploads (src/uploads/orphans.ts, docs/uploads.md), prints the
 * report, then removes them unless --dry-run. Loads the app the way `strapi console` does
 * (compileStrapi, then createStrapi().load(): same configuration, database and upload provider as
 * the server, from server/.env and the environment), without listening and without the cron tasks.
 * Exit code 0 when everything reported was removed (or --dry-run), 1 otherwise, 2 on bad arguments.
 */
const { runCli, withMaintenanceApp } = require('./cli');

const USAGE = 'Usage: npm run uploads:orphans -- [--dry-run] [--grace-minutes=N]';

function parseArgs(argv) {
  const options = { dryRun: false, graceMinutes: undefined };
  for (const arg of argv) {
    if (arg === '--dry-run') options.dryRun = true;
    else if (/^--grace-minutes=\d+(\.\d+)?$/.test(arg)) options.graceMinutes = Number(arg.split('=')[1]);
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`Unknown argument "${arg}".\n${USAGE}`);
  }
  return options;
}

async function main(options) {
  return withMaintenanceApp(async (app, requireBuilt) => {
    const orphans = requireBuilt('src/uploads/orphans.js');
    const report = await orphans.findOrphanUploads(app, { graceMinutes: options.graceMinutes });
    console.log(orphans.formatReport(report, options.dryRun));
    if (options.dryRun) return 0;
    const result = await orphans.removeOrphanUploads(app, report);
    console.log(orphans.formatResult(result));
    return result.failed.length === 0 ? 0 : 1;
  });
}

runCli({ parseArgs, usage: USAGE, run: main });
