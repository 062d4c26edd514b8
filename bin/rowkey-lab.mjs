#!/usr/bin/env node
// rowkey-lab CLI: the wasm build under Node. `rowkey-lab --help` lists commands and exit codes.
// This entry only dispatches: arguments in lib/args.mjs, help in lib/help.mjs, the commands in
// commands/. The commands (and with them the engine) load only once a command is to run, so
// --help answers without the wasm.
import { COMMANDS, readArgs } from './lib/args.mjs';
import { CliError, EXIT } from './lib/errors.mjs';
import { HELP } from './lib/help.mjs';
import { didYouMean } from './lib/suggest.mjs';

async function main(argv) {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(HELP.main);
    return cmd ? EXIT.OK : EXIT.USAGE;
  }
  if (!COMMANDS.includes(cmd)) {
    throw new CliError(EXIT.USAGE, `unknown command ${cmd}${didYouMean(cmd, COMMANDS)} (see rowkey-lab --help)`);
  }
  const { pos, opt } = readArgs(cmd, rest);
  if (opt.help) {
    console.log(HELP[cmd]);
    return EXIT.OK;
  }
  const commands = await import('./commands/index.mjs');
  return (await commands[cmd](pos, opt)) ?? EXIT.OK;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof CliError) {
    console.error(`rowkey-lab: ${e.message}`);
    process.exitCode = e.code;
  } else {
    console.error(`rowkey-lab: ${e.stack ?? e}`);
    process.exitCode = EXIT.INPUT;
  }
}
