#!/usr/bin/env node
'use strict';
/**
 * npm run mail:queue [-- --status=queued|sending|sent|failed] [-- --limit=N]
 * npm run mail:retry -- <id>
 *
 * The mail queue for operators (docs/operations.md#mail-queue): each message's status, attempts, last
 * error and recipient domain, never a body or a whole address; and a failed message queued again as
 * it was written (src/operations/mail-queue-view.ts). Loads the app the way `strapi console` does,
 * without listening, the cron tasks or a mail worker (the instances deliver). Exit code 0 on success,
 * 1 when a retry is refused, 2 on bad arguments.
 */
const { runCli, withMaintenanceApp } = require('./cli');

const USAGE = ['Usage: npm run mail:queue -- [--status=queued|sending|sent|failed] [--limit=N]', '       npm run mail:retry -- <id>'].join(
  '\n',
);

function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h') || command === '--help') return { help: true };
  if (command === 'list') {
    const options = { command, status: undefined, limit: 50 };
    for (const arg of rest) {
      if (/^--status=(queued|sending|sent|failed)$/.test(arg)) options.status = arg.split('=')[1];
      else if (/^--limit=[1-9]\d{0,4}$/.test(arg)) options.limit = Number(arg.split('=')[1]);
      else throw new Error(`Unknown argument "${arg}".\n${USAGE}`);
    }
    return options;
  }
  if (command === 'retry') {
    if (rest.length !== 1 || !/^[1-9]\d{0,9}$/.test(rest[0])) throw new Error(`Name one message by its number.\n${USAGE}`);
    return { command, id: Number(rest[0]) };
  }
  throw new Error(USAGE);
}

async function main(options) {
  return withMaintenanceApp(async (app, requireBuilt) => {
    const view = requireBuilt('src/operations/mail-queue-view.js');
    if (options.command === 'list') {
      console.log(view.formatQueue(await view.listQueue(app, { status: options.status, limit: options.limit })));
      return 0;
    }
    try {
      await view.retryMessage(app, options.id);
    } catch (error) {
      if (!(error instanceof view.RetryRefused)) throw error;
      console.error(error.message);
      return 1;
    }
    console.log(`Message #${options.id} is queued again; the instances send it.`);
    return 0;
  });
}

runCli({ parseArgs, usage: USAGE, run: main });
