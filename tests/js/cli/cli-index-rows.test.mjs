// A Phoenix table's indexes over your own rows (issue 69): `analyze orders.sql --records FILE`
// counts each global index's table from the rows it reads for the data table, over the index's
// own regions. The rows are tests/fixtures/phoenix-orders (make.py): 500 orders, 50 in each
// 10-second window, BY_TIME split at every 10 s (orders.sql says how each split point is
// derived), so every window's 50 index rows land on the one region holding that stretch, 50 on
// each of its 10 regions, while the data table spreads over its 8 salt buckets
// (tests/engine/phoenix_index_rows.rs derives the data table's shares by hand). The library's
// analyzeRows and analyzeRowsParallel give the CLI's indexes; a column an index needs and the
// file lacks is refused naming the index.

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
const FIX = path.join(ROOT, 'tests/fixtures/phoenix-orders');
const ARGS = ['--time', 'CREATED_AT', '--windows', '10'];

const run = args => spawnSync(process.execPath, [BIN, ...args], { cwd: FIX, encoding: 'utf8', maxBuffer: 1 << 28 });
const json = r => {
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
/** The indexes as plain data without their reports' key samples (the CLI writes them as rows,
 * the library hands them, and the matrices' cells, over as typed arrays): the figures to compare. */
const figures = indexes =>
  JSON.parse(
    JSON.stringify(
      indexes.map(x => (x.report ? { ...x, report: { ...x.report, sample: undefined } } : x)),
      (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v),
    ),
  );

describe('Phoenix indexes over --records', { skip: NOT_BUILT }, () => {
  let api;
  let dir;
  before(async () => {
    api = await import(pathToFileURL(path.join(ROOT, 'pkg/node/index.js')).href);
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-index-rows-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--json: BY_TIME takes every window on one of its 10 regions, the table and BY_CUSTOMER spread', () => {
    const [csv, parquet] = ['orders.csv', 'orders.parquet'].map(f =>
      json(run(['analyze', 'orders.sql', '--records', f, ...ARGS, '--json'])),
    );
    for (const r of [csv, parquet]) {
      assert.equal(r.rows.used, 500);
      assert.deepEqual(
        r.indexes.map(x => [x.name, x.kind, x.regionsOfItsOwn]),
        [
          ['BY_TIME', 'global', 10],
          ['BY_CUSTOMER', 'global', 8],
          ['BY_TIME_LOCAL', 'local', 0],
        ],
      );
      const [time, customer, local] = r.indexes;
      assert.deepEqual(
        time.report.regions.map(g => g.writes),
        Array(10).fill(50),
      );
      assert.deepEqual(
        time.report.metrics.perWindow.map(w => w.busiestShare),
        Array(10).fill(1),
      );
      assert.equal(time.hotspotFactor, 10);
      // the salted table and the index that takes its buckets: no window's busiest region
      // holds more than a third of it (a hand-derived bound: 50 orders over 8 buckets)
      assert.ok(r.metrics.maxBusiestShare < 0.34, `data table ${r.metrics.maxBusiestShare}`);
      assert.ok(customer.maxBusiestShare < 0.34, `BY_CUSTOMER ${customer.maxBusiestShare}`);
      assert.equal(local.report, null);
      assert.equal(local.busiestShare, r.metrics.meanBusiestShare);
    }
    assert.deepEqual(figures(parquet.indexes), figures(csv.indexes));
  });

  test('the human report sets each index beside the data table', () => {
    const r = run(['analyze', 'orders.sql', '--records', 'orders.csv', ...ARGS]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Phoenix indexes over these rows/);
    assert.match(r.stdout, /\nBY_TIME +global +10 +100\.0 +100\.0 +10\.00 +2\/4\/2 /);
    assert.match(r.stdout, /\nBY_TIME_LOCAL +local +its table's /);
    assert.match(r.stdout, /\* BY_TIME: one region takes all the writes in every time window/);
    assert.doesNotMatch(r.stdout, /not analyzed/);
  });

  test('the library gives the CLI its indexes: analyzeRows, analyzeRowsParallel', async () => {
    const cli = json(run(['analyze', 'orders.sql', '--records', 'orders.csv', ...ARGS, '--json']));
    const design = api.parseCreateTable(readFileSync(path.join(FIX, 'orders.sql'), 'utf8'));
    const opts = { options: { windows: 10 }, rows: { time: 'CREATED_AT', name: 'orders.csv' } };
    const file = path.join(FIX, 'orders.csv');
    const one = await api.analyzeRows(design, new Blob([readFileSync(file)]), opts);
    // chunkFrom 1: a file this small is cut into chunks, each carrying its rows' index keys
    const spread = await api.analyzeRowsParallel(design, file, { ...opts, threads: 2, chunkFrom: 1 });
    for (const run of [one, spread]) {
      try {
        assert.deepEqual(figures(run.session.finish().indexes), figures(cli.indexes));
      } finally {
        run.session.free();
      }
    }
  });

  test('rekey over the rows says each index before and after: unsalting the table unsalts BY_CUSTOMER', () => {
    // the new design: the same table without SALT_BUCKETS (an index takes its table's salt)
    const sql = readFileSync(path.join(FIX, 'orders.sql'), 'utf8');
    const unsalted = sql.replace(') SALT_BUCKETS = 8;', ');');
    assert.notEqual(unsalted, sql);
    const f = path.join(dir, 'unsalted.sql');
    writeFileSync(f, unsalted);
    const args = ['rekey', 'orders.sql', f, '--records', 'orders.csv', '--time', 'CREATED_AT'];
    const r = run(args);
    assert.equal(r.status, 0, r.stderr);
    const line = name => r.stdout.split('\n').find(l => l.startsWith(`  index ${name}:`));
    // BY_TIME has its own layout (SALT_BUCKETS = 0, split every 10 s) and a key without the
    // data table's salt: the same before and after
    const [before, after] = line('BY_TIME').slice('  index BY_TIME: '.length).split(' -> ');
    assert.match(before, /^10 regions, the busiest [\d.]+ % of a window's writes$/);
    assert.equal(after, before);
    // BY_CUSTOMER: the table's 8 buckets before, one region taking every write after
    assert.match(line('BY_CUSTOMER'), /: 8 regions, .* -> 1 region, the busiest 100.0 % of a window's writes$/);
    assert.equal(
      line('BY_TIME_LOCAL'),
      "  index BY_TIME_LOCAL: in the data table's regions -> in the data table's regions",
    );
    const plan = json(run([...args, '--json']));
    const figures = side => plan[side].indexes.map(x => [x.name, x.regions]);
    assert.deepEqual(figures('old'), [
      ['BY_TIME', 10],
      ['BY_CUSTOMER', 8],
      ['BY_TIME_LOCAL', 0],
    ]);
    assert.deepEqual(figures('new'), [
      ['BY_TIME', 10],
      ['BY_CUSTOMER', 1],
      ['BY_TIME_LOCAL', 0],
    ]);
    assert.equal(plan.new.indexes[1].busiestShare, 1);
    assert.equal(plan.new.indexes[0].busiestShare, plan.old.indexes[0].busiestShare);
  });

  test('a column an index reads and the file lacks is refused, the index named', () => {
    const csv = readFileSync(path.join(FIX, 'orders.csv'), 'utf8')
      .split('\n')
      .map(l =>
        l
          .split(',')
          .filter((_, i) => i !== 2)
          .join(','),
      )
      .join('\n');
    const f = path.join(dir, 'no-time.csv');
    writeFileSync(f, csv);
    const r = run(['analyze', 'orders.sql', '--records', f, '--windows', '10']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /index BY_TIME reads field `CREATED_AT`, but the file has no column `CREATED_AT`/);
  });
});
