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
    // chunkFrom 1: a file this small would be cut into chunks, were it not for the indexes
    const spread = await api.analyzeRowsParallel(design, file, { ...opts, threads: 2, chunkFrom: 1 });
    for (const run of [one, spread]) {
      try {
        assert.deepEqual(figures(run.session.finish().indexes), figures(cli.indexes));
      } finally {
        run.session.free();
      }
    }
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
