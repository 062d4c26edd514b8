#!/usr/bin/env node
// rowkey-lab CLI: the engine under Node (the native addon when its binary loads, else the wasm
// build: pkg/node/engine.js). `rowkey-lab --help` lists commands and exit codes.
// This entry only dispatches: arguments in lib/args.mjs, help in lib/help.mjs, the commands in
// commands/. The commands (and with them the engine) load only once a command is to run, so
// --help answers without the wasm.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { COMMANDS, readArgs } from './lib/args.mjs';
import { CliError, EXIT } from './lib/errors.mjs';
import { terminalText } from './lib/format.mjs';
import { HELP } from './lib/help.mjs';
import { didYouMean } from './lib/suggest.mjs';

async function main(argv) {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(HELP.main);
    return cmd ? EXIT.OK : EXIT.USAGE;
  }
  if (cmd === '--version' || cmd === '-V') {
    // which engine runs (the package's choice: the native addon when its binary loads, else
    // wasm; ROWKEY_LAB_ENGINE=wasm|native chooses), without loading the wasm
    const { engineName } = await import('../pkg/node/engine.js');
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    console.log(`rowkey-lab ${version} (engine: ${engineName})`);
    return EXIT.OK;
  }
  if (!COMMANDS.includes(cmd)) {
    throw new CliError(EXIT.USAGE, `unknown command ${cmd}${didYouMean(cmd, COMMANDS)} (see rowkey-lab --help)`);
  }
  const { pos, opt } = readArgs(cmd, rest);
  if (opt.help) {
    console.log(HELP[cmd]);
    return EXIT.OK;
  }
  // V8 compiles a wasm function with its optimizing tier once it has run its budget of code
  // (1.8 MB by default). A command runs once: at the default, functions that run a few times
  // (a Parquet footer's parse in every reader, the key's compilation in every session) were
  // compiled for 1.2 s of CPU on a 1.2 s run (two of them 160-190 ms each), on the cores the
  // rows wait for; at 100 MB only the per-row loops reach it, within their first rows. Process
  // wide, so set by the CLI, never by the library; before the engine loads, so its compiled
  // module and its worker threads have it. (docs/bench-rows.md)
  setFlagsFromString('--wasm-tiering-budget=100000000');
  // V8 compiles a wasm function when it is first called (lazy compilation, on by default) but
  // validates every function of the module up front: the 14 MB Node build's, for the few
  // hundred a command calls. Validated when compiled instead, a command's CPU fell from 0.24 s
  // to 0.18 s (`rowkey-lab lint`, 10 runs each way, side by side); the module is the one the
  // package was built and checked with (an invalid function would fail at its first call).
  setFlagsFromString('--wasm-lazy-validation');
  const commands = await import('./commands/index.mjs');
  return (await commands[cmd](pos, opt)) ?? EXIT.OK;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof CliError) {
    // An error quotes what it read (a file name, a value, a server's answer): never as controls.
    console.error(terminalText(`rowkey-lab: ${e.message}`));
    process.exitCode = e.code;
  } else {
    console.error(terminalText(`rowkey-lab: ${e.stack ?? e}`));
    process.exitCode = EXIT.INPUT;
  }
}
