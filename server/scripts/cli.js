'use strict';

/**
 * The frame of the server's commands (npm run backup, restore, uploads:orphans): the arguments parsed
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

module.exports = { runCli };
