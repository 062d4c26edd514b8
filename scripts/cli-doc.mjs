// Writes docs/cli.md, the CLI reference, from the CLI's own help: `rowkey-lab --help` and
// `rowkey-lab <command> --help` for every command, run as a user runs them. The help texts live in
// bin/lib/help.mjs; edit them there, then run this.
// Usage: node scripts/cli-doc.mjs [--check]   (--check: exit 1 when docs/cli.md is not what this
// would write; nothing is written)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS } from '../bin/lib/args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = path.join(ROOT, 'docs/cli.md');
const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');

const help = (...args) => execFileSync(process.execPath, [BIN, ...args, '--help'], { encoding: 'utf8' }).trimEnd();
const block = text => ['```text', text, '```'].join('\n');

/** The reference as markdown: the overview, then one section per command in the overview's order. */
export function cliDoc() {
  return [
    '# rowkey-lab CLI reference',
    '',
    "<!-- Written by scripts/cli-doc.mjs from the CLI's --help texts (bin/lib/help.mjs): edit those, then run `node scripts/cli-doc.mjs`. -->",
    '',
    'The npm package installs the `rowkey-lab` command (`npx rowkey-lab <command>`). Each section below is what `--help` prints.',
    '',
    COMMANDS.map(c => `[${c}](#${c})`).join(' · '),
    '',
    block(help()),
    ...COMMANDS.flatMap(c => ['', `## ${c}`, '', block(help(c))]),
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const want = cliDoc();
  if (parseArgs({ options: { check: { type: 'boolean', default: false } } }).values.check) {
    const have = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    if (have !== want) {
      console.error("docs/cli.md is not what the CLI's --help says: run node scripts/cli-doc.mjs");
      process.exitCode = 1;
    }
  } else {
    writeFileSync(DOC, want);
    console.log(`wrote ${path.relative(ROOT, DOC)}`);
  }
}
