// The CLI against large and hostile inputs, run as a user runs it (a child process): endless
// streams (/dev/zero, an endless stdin) end with exit 3 and a message; binary data and text that
// is not UTF-8 are refused at their byte offset; inputs beyond their cap are refused; --records
// is read as a stream, its peak memory measured in the child (VmHWM at exit) under a heap
// ceiling, for JSON Lines and for one JSON array. The caps: docs/limits.md, "CLI inputs".
// The cases whose rows are a regular file `analyze` reads (the native engine's own file driver
// when it runs, else the wasm build's chunks) run on both engines (ROWKEY_LAB_ENGINE, each its
// own child process); the others are refused by the CLI's reading of its input (bin/lib/input.mjs)
// before any engine call, or read by the wasm build on both (stdin, `regions`, `encode`): once,
// on the engine the package picks.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ENGINES, onEngine } from '../engines.mjs';
import { ROOT } from '../helpers.mjs';
import {
  badUtf8Array,
  badUtf8Lines,
  cutCharacter,
  ENDLESS,
  gzSplits,
  highBytes,
  hugeDesign,
  latin1Design,
  MiB,
  rowsFile as rowsFileIn,
  utf16Splits,
} from '../hostile-files.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const LINUX = existsSync('/dev/zero') && existsSync('/proc/self/status');

/** Why each engine cannot run here (false: it can). */
const SKIP = Object.fromEntries(await Promise.all(ENGINES.map(async e => [e, (await onEngine(e)).skip ?? false])));

describe('rowkey-lab CLI on large and hostile inputs', { skip: NOT_BUILT }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-inputs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The CLI on `args` in `dir`, stopped after 60 s so that a run that never ends fails; on
   * `engine` when given, else the one the package picks.
   */
  const run = (args, node = [], engine = undefined) =>
    spawnSync(process.execPath, [...node, BIN, ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60000,
      env: engine ? { ...process.env, ROWKEY_LAB_ENGINE: engine } : process.env,
    });

  /** The CLI on `args` with `chunk` written to its stdin again and again, never ending. */
  const fedForever = (args, chunk, head = '') =>
    new Promise(resolve => {
      const started = Date.now();
      const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
      const input = Readable.from(
        (function* () {
          if (head) yield head;
          for (;;) yield chunk;
        })(),
      );
      input.pipe(child.stdin);
      child.stdin.on('error', () => {}); // EPIPE: the CLI stopped reading, as it should
      let stderr = '';
      child.stderr.on('data', d => {
        stderr += d;
      });
      const timer = setTimeout(() => child.kill(), 60000);
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        input.destroy();
        resolve({ status, signal, stderr, ms: Date.now() - started });
      });
    });

  /** The temporary copies of stdin (--records -) left in the temporary folder. */
  const spools = () => readdirSync(tmpdir()).filter(f => f.startsWith('rowkey-lab-records-'));

  test('/dev/zero as --records, as region text and as a design: exit 3 at its first byte', { skip: !LINUX }, () => {
    for (const args of [
      ['analyze', 'seed000-telecom', '--records', '/dev/zero'],
      ['encode', 'seed000-telecom', '--records', '/dev/zero'],
      ['regions', '/dev/zero'],
      ['lint', '/dev/zero'],
    ]) {
      const r = run(args);
      assert.equal(r.status, 3, `${args.join(' ')}: ${r.signal ?? ''} ${r.stderr}`);
      // as rows, the message says what files of rows are
      const rows = args.includes('--records')
        ? '\\. Files of rows are CSV or JSON Lines \\(UTF-8 text\\), Parquet or Arrow IPC; a design is JSON'
        : '';
      assert.match(
        r.stderr,
        new RegExp(`^rowkey-lab: /dev/zero: binary data, not text: a NUL byte at byte 0${rows}$`, 'm'),
        args.join(' '),
      );
    }
  });

  test('an endless stdin of region text (`yes | rowkey-lab regions -`) ends with exit 3 at its cap', async () => {
    const r = await fedForever(['regions', '-'], ENDLESS.lines);
    assert.equal(r.status, 3, `${r.signal ?? ''} ${r.stderr}`);
    assert.match(r.stderr, /^rowkey-lab: stdin: more than 64 MiB, larger than a table's region text may be/m);
    assert.ok(r.ms < 30000, `${r.ms} ms`);
  });

  test('an endless stdin as --records ends with exit 3 at its first line that is not a record', async () => {
    const before = spools();
    const cases = [
      // `yes | ... --records -`: read as CSV (its first character is no JSON), whose header `y`
      // has no column the key reads: refused before any analysis
      [
        ['analyze', 'seed000-telecom', '--records', '-'],
        ENDLESS.lines,
        /^rowkey-lab: the key reads field `phone`, but the file has no column `phone` \(it has `y`\)/m,
      ],
      // one endless line: refused at the cap of one record
      [
        ['analyze', 'seed000-telecom', '--records', '-'],
        ENDLESS.line,
        /^rowkey-lab: stdin: line 1: a row of more than 1 MiB/m,
      ],
      [
        ['encode', 'seed000-telecom', '--records', '-'],
        ENDLESS.line,
        /^rowkey-lab: stdin: line 1: a row of more than 1 MiB/m,
      ],
      // one endless string inside a JSON array: refused at the cap of one record
      [
        ['check', 'seed000-telecom', '--records', '-'],
        ENDLESS.line,
        /^rowkey-lab: stdin: records\[0\]: more than 1 MiB/m,
        '[{"phone": "',
      ],
    ];
    for (const [args, chunk, message, head] of cases) {
      const r = await fedForever(args, chunk, head);
      assert.equal(r.status, 3, `${args.join(' ')}: ${r.signal ?? ''} ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.ok(r.ms < 30000, `${args.join(' ')} took ${r.ms} ms`);
    }
    assert.deepEqual(spools(), before, 'the copy of stdin is removed');
  });

  test('binary files are refused at their first NUL byte or the first byte that is not UTF-8', () => {
    // A SPLITS_FILE saved as UTF-16 ("30 00 31 00 0a 00"): NUL at byte 1.
    utf16Splits(dir);
    const utf16 = run(['regions', 'splits-utf16.txt']);
    assert.equal(utf16.status, 3, utf16.stdout);
    assert.match(utf16.stderr, /^rowkey-lab: splits-utf16\.txt: binary data, not text: a NUL byte at byte 1$/m);
    // A gzipped one (1f 8b 08 00 ...): 0x8b is no UTF-8 byte, and comes before the NUL at byte 3.
    gzSplits(dir);
    const gz = run(['regions', 'splits.gz']);
    assert.equal(gz.status, 3, gz.stdout);
    assert.match(gz.stderr, /^rowkey-lab: splits\.gz: invalid UTF-8 at byte 1 \(0x8b\)/m);
    // Binary without a NUL byte: every byte 0x80..0xff after a line of text.
    highBytes(dir);
    const high = run(['regions', 'high.bin']);
    assert.equal(high.status, 3, high.stdout);
    assert.match(high.stderr, /^rowkey-lab: high\.bin: invalid UTF-8 at byte 4 \(0x80\)/m);
    assert.equal(high.stdout, '', 'nothing read as regions');
  });

  test('text that is not UTF-8 is refused at its byte offset, never read as U+FFFD', () => {
    // A design saved as Latin-1: "café" with é as the one byte 0xe9.
    const { at } = latin1Design(dir);
    const latin1 = run(['lint', 'latin1.json']);
    assert.equal(latin1.status, 3, latin1.stdout);
    assert.match(latin1.stderr, new RegExp(`^rowkey-lab: latin1\\.json: invalid UTF-8 at byte ${at} \\(0xe9\\)`, 'm'));
    // Records in an array (`encode`: the wasm build's reader), the bad byte past the first 64 KiB read.
    const badInArray = badUtf8Array(dir).at;
    const json = run(['encode', 'seed000-telecom', '--records', 'bad.json']);
    assert.equal(json.status, 3);
    assert.match(
      json.stderr,
      new RegExp(`^rowkey-lab: bad\\.json: invalid UTF-8 at byte ${badInArray} \\(0xc0\\)`, 'm'),
    );
    // A file that ends inside a character.
    cutCharacter(dir);
    const cut = run(['regions', 'cut.txt']);
    assert.equal(cut.status, 3);
    assert.match(cut.stderr, /^rowkey-lab: cut\.txt: invalid UTF-8 at byte 3: the input ends inside a character/m);
  });

  for (const engine of ENGINES)
    test(`records not UTF-8 are refused at their byte offset, the file read by the engine (${engine})`, {
      skip: SKIP[engine],
    }, () => {
      // the bad byte past the first 64 KiB read, in a JSON Lines file `analyze` reads by path
      const bad = badUtf8Lines(dir).at;
      const jsonl = run(['analyze', 'seed000-telecom', '--records', 'bad.jsonl'], [], engine);
      assert.equal(jsonl.status, 3, jsonl.stdout);
      assert.match(jsonl.stderr, new RegExp(`^rowkey-lab: bad\\.jsonl: invalid UTF-8 at byte ${bad} \\(0xff\\)`, 'm'));
    });

  test('a character cut by the end of a read is read whole, not refused', () => {
    // One key per line in key order, a "€" (e2 82 ac) starting 1 or 2 bytes before each of the
    // first 64 KiB boundaries (a read of a file ends there).
    const keys = [];
    let size = 0;
    let cut = 0;
    for (let i = 0; size < 4 * 65536; i++) {
      const gap = 65536 - (size % 65536);
      const back = gap > 12 ? 1 + (cut % 2) : 0;
      const key =
        gap > 12 && gap < 40
          ? `k${String(i).padStart(8, '0')}${'x'.repeat(gap - 9 - back)}€`
          : `k${String(i).padStart(8, '0')}`;
      if (key.endsWith('€')) cut++;
      keys.push(key);
      size += Buffer.byteLength(key) + 1;
    }
    assert.equal(cut, 4);
    writeFileSync(path.join(dir, 'euro.txt'), `${keys.join('\n')}\n`);
    const r = run(['regions', 'euro.txt', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const list = JSON.parse(r.stdout);
    assert.equal(list.regions, keys.length + 1);
    // The engine reads a key as the HBase shell does (Bytes.toBytesBinary keeps a character's
    // low byte): U+20AC is \xAC, where U+FFFD (a character refused and replaced) would be \xFD.
    const euros = list.presplit.keys.filter(k => k.includes('\\x'));
    assert.equal(euros.length, 4, JSON.stringify(euros));
    for (const k of euros) assert.match(k, /^k\d{8}x*\\xAC$/);
  });

  test('a design beyond 16 MiB is refused before more of it is read', () => {
    hugeDesign(dir);
    const r = run(['lint', 'huge.json']);
    assert.equal(r.status, 3, r.stdout);
    assert.match(r.stderr, /^rowkey-lab: huge\.json: more than 16 MiB, larger than a design document may be/m);
  });

  for (const engine of ENGINES)
    test(`a sampleQuantiles pre-split without a sample is cut at every one of the rows (${engine})`, {
      skip: SKIP[engine],
    }, async () => {
      // 25,003 rows: the engine's first pass keeps every row's key (up to a million rows) and the
      // pre-split is the one whose inline sample is all of them, fed the same rows.
      const api = await import(pathToFileURL(path.join(ROOT, 'pkg/node/index.js')).href);
      const design = {
        v: 1,
        fields: [{ name: 'id', type: 'string', generator: { kind: 'sequence', start: 100000 } }],
        key: 'id',
        regions: { presplit: { kind: 'sampleQuantiles', regions: 7 } },
      };
      const rows = Array.from({ length: 25003 }, (_, i) => ({ id: String((i * 7919) % 1000003).padStart(7, '0') }));
      writeFileSync(path.join(dir, 'quantiles.json'), JSON.stringify(design));
      writeFileSync(path.join(dir, 'ids.json'), JSON.stringify(rows));
      const r = run(['analyze', 'quantiles.json', '--records', 'ids.json', '--json'], [], engine);
      assert.equal(r.status, 0, r.stderr);
      const all = {
        ...design,
        regions: { presplit: { kind: 'sampleQuantiles', regions: 7, sample: rows.map(r => r.id) } },
      };
      const s = new api.AnalysisSession({ ...all, workload: { records: rows.length } });
      s.feed(rows);
      const want = s.finish();
      s.free();
      const regions = report => report.regions.map(g => [g.startKey, g.writes]);
      assert.deepEqual(regions(JSON.parse(r.stdout)), regions(want));
    });

  /**
   * Peak memory (VmHWM, KiB) of `analyze seed000-telecom --records FILE` in a child under a
   * 32 MiB heap: a preload writes it at exit. Checks the analysis counted every row.
   */
  const peakOf = (file, rows, engine) => {
    const peak = path.join(dir, 'peak.mjs');
    const out = path.join(dir, `${path.basename(file)}.peak`);
    writeFileSync(
      peak,
      `import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(out)}, /VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]));\n`,
    );
    // A small young generation: the heap settles within the first rows, so what is left to
    // grow is what the rows would add. V8's baseline wasm compiler only: its optimising one
    // compiles the engine's hot functions during the longer run and not the shorter, and its
    // working memory (the speed build's large inlined functions) grew the peak by as much as
    // what is asserted here, whatever the rows did.
    const heap = [
      '--max-old-space-size=32',
      '--max-semi-space-size=1',
      '--liftoff-only',
      '--import',
      pathToFileURL(peak).href,
    ];
    // One thread, and 4 MiB for the rows kept between the passes (the default is 256 MiB):
    // the small file's rows fit and are read once, the large file's pass it and are read
    // twice, so what is measured is what reading adds, bounded whatever the file's size.
    const r = run(
      ['analyze', 'seed000-telecom', '--records', file, '--threads', '1', '--keep-mib', '4', '--json'],
      heap,
      engine,
    );
    assert.equal(r.status, 0, `${file}: ${r.signal ?? ''} ${r.stderr}`);
    assert.equal(JSON.parse(r.stdout).writes, rows, file);
    return Number(readFileSync(out, 'utf8')) * 1024;
  };

  /** `mib` MiB of rows in `dir` (../hostile-files.mjs): the row count. */
  const rowsFile = (file, mib, form) => rowsFileIn(dir, file, mib, form);

  for (const [form, file, mib] of [
    ['lines', 'rows.jsonl', 40],
    ['array', 'rows.json', 24],
  ])
    for (const engine of ENGINES) {
      test(`--records ${file}: ${mib} MiB of rows as ${form === 'array' ? 'one JSON array' : 'JSON Lines'} in memory that does not grow with the file (${engine})`, {
        skip: !LINUX || SKIP[engine],
      }, t => {
        // The same analysis on 4 MiB of rows, then on the whole: holding the file whole would
        // add at least its text (one byte a character) to the peak, and 32 MiB of heap could not.
        const small = peakOf(`small-${file}`, rowsFile(`small-${file}`, 4, form), engine);
        const big = rowsFile(file, mib, form);
        const peak = peakOf(file, big, engine);
        rmSync(path.join(dir, file));
        const grown = peak - small;
        t.diagnostic(
          `peak RSS ${(small / MiB).toFixed(1)} MiB on 4 MiB of rows, ${(peak / MiB).toFixed(1)} MiB on ${mib} MiB`,
        );
        assert.ok(
          grown < ((mib - 4) * MiB) / 2,
          `peak ${(peak / MiB).toFixed(1)} MiB on ${mib} MiB of rows, ${(small / MiB).toFixed(1)} MiB on 4 MiB`,
        );
      });
    }
});
