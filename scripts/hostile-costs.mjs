#!/usr/bin/env node
// What each hostile file costs the CLI, on each engine (issue 73's closing list): every hostile
// file the tests hold or build (the Parquet and Arrow IPC bombs of tests/fixtures/rows/, the
// readers' fuzzer's finds in tests/fixtures/fuzz/, the files tests/js/hostile-files.mjs builds
// for the CLI's tests, the designs of tests/js/hostile-cases.mjs, /dev/zero, a FIFO, a folder,
// endless stdin) run through the doors the tests run it through, as a user runs the CLI (a child
// process), under GNU time (`/usr/bin/time -v`: wall time, peak resident memory), once with
// ROWKEY_LAB_ENGINE=wasm and once with =native. The table (file, door, the limit it meets, what
// the CLI printed, seconds and peak MiB per engine) is written into docs/limits.md between the
// markers below, under a heading this script owns: run it again, never edit the figures.
//   node scripts/hostile-costs.mjs            run every case, rewrite the table
//   node scripts/hostile-costs.mjs --print    run them, print the table, write nothing
// Needs pkg/ (bash scripts/build-npm.sh), the native engine (bash scripts/build-native.sh) and
// GNU time (Debian's `time`). The builds' profiles are said with the figures: the tests' builds
// (ROWKEY_LAB_TEST_BUILDS=1) are slower than the shipped ones.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostileDesigns } from '../tests/js/hostile-cases.mjs';
import {
  badUtf8Array,
  badUtf8Lines,
  ENDLESS,
  fifo,
  gzSplits,
  hugeDesign,
  latin1Design,
  longLine,
  partsFolder,
  rowsFile,
  utf16Splits,
} from '../tests/js/hostile-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const DOC = path.join(ROOT, 'docs/limits.md');
const HEADING = '## What each hostile file costs';
const START = '<!-- hostile-costs: written by `node scripts/hostile-costs.mjs`; do not edit by hand -->';
const END = '<!-- /hostile-costs -->';
const ENGINES = ['wasm', 'native'];
const TIME = '/usr/bin/time';
/** A run past this is stopped and said (none should come near it). */
const TIMEOUT_MS = 180_000;

const rows = name => path.join(ROOT, 'tests/fixtures/rows', name);
const fuzz = name => path.join(ROOT, 'tests/fixtures/fuzz', name);

/** Every case: the file, the door it goes through, the limit it meets, and how to run it. */
function cases(dir) {
  const json = (name, v) => {
    writeFileSync(path.join(dir, name), typeof v === 'string' ? v : JSON.stringify(v));
    return name;
  };
  const n = json('n.json', { v: 1, fields: [{ name: 'n', type: 'long' }], key: 'str(n)' });
  const flights = rows('flights-design.json');
  const keyed = json('keyed.json', { v: 1, key: 'carrier + "_" + tailnum' });
  const telecom = 'seed000-telecom';
  const pageCap = '`limits::MAX_PARQUET_PAGE_BYTES` (64 MiB a page)';
  const blocks = 'Arrow IPC blocks within the bytes present (`check_ipc_blocks`)';
  const bodies = 'Arrow IPC message body ≤ 1 GiB (`MAX_WHOLE_FILE_BYTES`, `check_message`)';
  const pages = 'Parquet pages checked before the crate (`parquet_pages.rs`)';
  const buffers = 'Arrow IPC buffers checked before the crate (`check_message`)';
  const out = [];
  const add = (file, door, limit, args, stdin) => out.push({ file, door, limit, args, stdin });
  add('bomb-page.parquet', 'analyze --records', pageCap, ['analyze', n, '--records', rows('bomb-page.parquet')]);
  add('body-2e40.arrow', 'analyze --records', blocks, ['analyze', n, '--records', rows('body-2e40.arrow')]);
  add('body-negative.arrow', 'analyze --records', blocks, ['analyze', n, '--records', rows('body-negative.arrow')]);
  add('body-2e40.arrows', 'analyze --records', bodies, ['analyze', n, '--records', rows('body-2e40.arrows')]);
  const g4 = rows('body-4g.arrows');
  add('body-4g.arrows', 'analyze --records', bodies, ['analyze', n, '--records', g4]);
  add('body-4g.arrows', 'life --records', bodies, ['life', n, '--records', g4, '--months', '1']);
  add('body-4g.arrows', 'rekey --records', bodies, ['rekey', n, n, '--records', g4]);
  add('body-4g.arrows', 'verify --old-rows', bodies, ['verify', n, n, '--old-rows', g4, '--new-rows', g4]);
  for (const [f, limit] of [
    ['found-dictionary-empty.parquet', pages],
    ['found-index-vlq-first.parquet', pages],
    ['found-index-vlq.parquet', pages],
    ['found-levels-short.parquet', pages],
    ['found-no-dictionary.parquet', pages],
    ['found-offsets-odd.arrow', buffers],
    ['found-offsets-odd.arrows', buffers],
    ['found-split-levels.parquet', pages],
    ['found-split-short.parquet', pages],
  ])
    add(f, 'analyze --records', limit, ['analyze', flights, '--records', fuzz(f), '--nulls', 'skip']);
  const utf8 = 'UTF-8, refused at the byte';
  add('bad.jsonl', 'analyze --records', utf8, ['analyze', telecom, '--records', badUtf8Lines(dir).file]);
  add('bad.json', 'encode --records', utf8, ['encode', telecom, '--records', badUtf8Array(dir).file]);
  const rowCap = '`limits::MAX_ROW_TEXT` (1 MiB a row)';
  add('long-line.jsonl (2 MiB line)', 'analyze --records', rowCap, [
    'analyze',
    telecom,
    '--records',
    longLine(dir).file,
  ]);
  add('stdin: one endless line', 'analyze --records -', rowCap, ['analyze', telecom, '--records', '-'], ENDLESS.line);
  add(
    'stdin: `yes`',
    'regions -',
    '64 MiB of region text (`MAX_REGION_TEXT_BYTES`, CLI cap)',
    ['regions', '-'],
    ENDLESS.lines,
  );
  const kept = 'none: read as a stream (`--keep-mib 4`: `MAX_REPLAY_BYTES` at 4 MiB)';
  const lines = `rows.jsonl (40 MiB, ${rowsFile(dir, 'rows.jsonl', 40, 'lines')} rows)`;
  add(lines, 'analyze --records', kept, ['analyze', telecom, '--records', 'rows.jsonl', '--keep-mib', '4', '--json']);
  const array = `rows.json (24 MiB array, ${rowsFile(dir, 'rows.json', 24, 'array')} rows)`;
  add(array, 'analyze --records', kept, ['analyze', telecom, '--records', 'rows.json', '--keep-mib', '4', '--json']);
  const designCap = '16 MiB a design (`MAX_DOCUMENT_BYTES`, CLI cap)';
  add('huge.json (17 MiB design)', 'lint', designCap, ['lint', hugeDesign(dir).file]);
  add('latin1.json', 'lint', utf8, ['lint', latin1Design(dir).file]);
  add('splits-utf16.txt', 'regions', 'binary data: a NUL byte', ['regions', utf16Splits(dir).file]);
  add('splits.gz', 'regions', utf8, ['regions', gzSplits(dir).file]);
  if (existsSync('/dev/zero')) {
    const nul = 'binary data: a NUL byte';
    add('/dev/zero', 'analyze --records', nul, ['analyze', telecom, '--records', '/dev/zero']);
    add('/dev/zero', 'lint', nul, ['lint', '/dev/zero']);
    add('/dev/zero', 'regions', nul, ['regions', '/dev/zero']);
  }
  // verify of the flights against themselves, the new export's rows from `file`
  const verifyNew = file => ['verify', flights, flights, '--old-rows', rows('flights.csv'), '--new-rows', file];
  const pipe = fifo(dir);
  if (pipe) add('a FIFO, no writer', 'verify --new-rows', 'a regular file (read twice)', verifyNew(pipe));
  const folder = partsFolder(dir, readFileSync(rows('flights.csv')));
  const notFolder = 'a file, not a folder of part files';
  add('a folder of part files', 'analyze --records', notFolder, ['analyze', flights, '--records', folder]);
  add('a folder of part files', 'rekey --records', notFolder, ['rekey', flights, keyed, '--records', folder]);
  add('a folder of part files', 'verify --new-rows', notFolder, verifyNew(folder));
  const uid = json('uid.json', hostileDesigns.longUidNames);
  add('uid.json (uid() over 4 KiB names)', 'analyze', '`MAX_UID_NAME_BYTES` (64 MiB of names)', ['analyze', uid]);
  const long = json('long-field.json', hostileDesigns.longFieldName());
  add('long-field.json (a 10 MiB field name)', 'lint', 'names cut at 64 characters (`support::json::clip`)', [
    'lint',
    long,
  ]);
  return out;
}

/** `args` through the CLI on `engine` in `dir` under GNU time: exit, wall s, peak MiB, what it printed. */
function measure(dir, { args, stdin }, engine) {
  const report = path.join(dir, 'time.txt');
  return new Promise(resolve => {
    const child = spawn(TIME, ['-v', '-o', report, process.execPath, BIN, ...args], {
      cwd: dir,
      env: { ...process.env, ROWKEY_LAB_ENGINE: engine },
      stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', d => {
      if (stderr.length < 1 << 16) stderr += d;
    });
    if (stdin) {
      // fed for as long as the CLI reads: an endless stdin
      child.stdin.on('error', () => {});
      const feed = () => {
        while (child.stdin.writable && child.stdin.write(stdin)) {}
      };
      child.stdin.on('drain', feed);
      feed();
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', () => {
      clearTimeout(timer);
      const t = existsSync(report) ? readFileSync(report, 'utf8') : '';
      rmSync(report, { force: true });
      const field = re => re.exec(t)?.[1];
      const clock = field(/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/) ?? '0';
      const seconds = clock.split(':').reduce((acc, x) => acc * 60 + Number(x), 0);
      const peak = Number(field(/Maximum resident set size \(kbytes\): (\d+)/) ?? 0) / 1024;
      const exit = timedOut ? 'timeout' : Number(field(/Exit status: (\d+)/) ?? NaN);
      const said = stderr
        .split('\n')
        .find(l => l.startsWith('rowkey-lab: '))
        ?.slice('rowkey-lab: '.length)
        .replaceAll(`${dir}/`, '')
        .replaceAll(`${ROOT}/`, '');
      resolve({ exit, seconds, peak, said: said ?? '' });
    });
  });
}

/** Text for a table cell: at most `n` characters, no pipe or line break. */
const cell = (s, n = 140) => {
  const t = String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

const git = args => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const profile = f => (existsSync(path.join(ROOT, f)) ? readFileSync(path.join(ROOT, f), 'utf8').trim() : 'unknown');

async function main() {
  const { print } = parseArgs({ options: { print: { type: 'boolean', default: false } } }).values;
  if (spawnSync(TIME, ['-v', 'true']).status !== 0) throw new Error(`${TIME} -v does not run: install GNU time`);
  for (const engine of ENGINES) {
    const v = spawnSync(process.execPath, [BIN, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, ROWKEY_LAB_ENGINE: engine },
    });
    if (v.status !== 0 || !v.stdout.includes(`(engine: ${engine})`))
      throw new Error(
        `the CLI does not run on ${engine}: ${v.stderr.trim() || v.stdout.trim()} (bash scripts/build-npm.sh, bash scripts/build-native.sh)`,
      );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rowkey-hostile-costs-'));
  const load = loadavg()[0];
  try {
    const rowsOut = [];
    for (const c of cases(dir)) {
      const by = {};
      for (const engine of ENGINES) by[engine] = await measure(dir, c, engine);
      const { wasm, native } = by;
      process.stderr.write(
        `${c.file} · ${c.door}: wasm ${wasm.exit} ${wasm.seconds.toFixed(2)} s ${wasm.peak.toFixed(0)} MiB, native ${native.exit} ${native.seconds.toFixed(2)} s ${native.peak.toFixed(0)} MiB\n`,
      );
      const printed = (r, e) => `${e === undefined ? '' : `${e}: `}exit ${r.exit}${r.said ? `, ${cell(r.said)}` : ''}`;
      const said =
        wasm.said === native.said && wasm.exit === native.exit
          ? printed(wasm)
          : `${printed(wasm, 'wasm')}; ${printed(native, 'native')}`;
      rowsOut.push(
        `| ${cell(c.file, 60)} | \`${c.door}\` | ${c.limit} | ${said} | ${wasm.seconds.toFixed(2)} | ${wasm.peak.toFixed(0)} | ${native.seconds.toFixed(2)} | ${native.peak.toFixed(0)} |`,
      );
    }
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) ? ' (with changes not committed)' : '';
    const table = [
      START,
      '',
      `Measured on ${new Date().toISOString().slice(0, 10)} at ${git(['rev-parse', '--short', 'HEAD'])}${dirty}, ` +
        `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? 'unknown'}), load average ${load.toFixed(1)} at the start, ` +
        `Node ${process.version}; the wasm build of profile \`${profile('pkg/node-profile')}\`, ` +
        `the native engine of profile \`${profile('pkg/native/.profile')}\` (a \`-test\` or \`native-tests\` ` +
        "profile is the tests' build, slower than the shipped one). Each run is the CLI in a process of its own " +
        '(`/usr/bin/time -v`): the seconds are wall time, start to exit, and MiB the peak resident set. Exit 3 is ' +
        'an input error, 0 a run to its end.',
      '',
      '| file | door | limit it meets | printed | wasm s | wasm MiB | native s | native MiB |',
      '| --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
      ...rowsOut,
      '',
      END,
    ].join('\n');
    if (print) {
      console.log(table);
      return;
    }
    const doc = readFileSync(DOC, 'utf8');
    let next;
    if (doc.includes(START) && doc.includes(END)) {
      next = doc.slice(0, doc.indexOf(START)) + table + doc.slice(doc.indexOf(END) + END.length);
    } else {
      // first run: the heading and the table before the page's limits
      const at = doc.indexOf('\n## The page');
      const intro = `${HEADING}\n\nWhat each hostile file of the tests costs the CLI on each engine, from \`node scripts/hostile-costs.mjs\`, which writes this section.\n\n`;
      next = at < 0 ? `${doc}\n${intro}${table}\n` : `${doc.slice(0, at + 1)}${intro}${table}\n\n${doc.slice(at + 1)}`;
    }
    writeFileSync(DOC, next);
    console.log(`docs/limits.md: ${rowsOut.length} rows written`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
