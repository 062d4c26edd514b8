// The CLI on a Phoenix table with indexes, from the installed tarball: analyze reports each
// index as the table it is (its regions, the busiest region's share beside the data table's,
// its writes and bytes), splits --create and create-table print each CREATE INDEX.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { installed, NOT_BUILT } from '../npm-helpers.mjs';
import { ORDERS_SQL as SQL } from '../orders-indexes.mjs';

describe('rowkey-lab CLI on Phoenix indexes', { skip: NOT_BUILT }, () => {
  let bin;
  let dir;
  let entry;
  before(async () => {
    ({ dir, entry } = await installed());
    bin = path.join(dir, 'node_modules/.bin/rowkey-lab');
    writeFileSync(path.join(dir, 'orders.sql'), SQL);
  });
  const run = (...args) => spawnSync(bin, args, { cwd: dir, encoding: 'utf8' });

  test('analyze --json: the time index takes each window on one region while the table spreads', () => {
    const r = run('analyze', 'orders.sql', '--windows', '10', '--json');
    assert.equal(r.status, 0, r.stderr);
    const a = JSON.parse(r.stdout);
    assert.equal(a.regions.length, 8);
    const [time, customer] = a.indexes;
    assert.deepEqual(
      a.indexes.map(x => [x.name, x.kind]),
      [
        ['BY_TIME', 'global'],
        ['BY_CUSTOMER', 'global'],
      ],
    );
    // 9 split points: 10 regions of its own, each 10-s window on one of them (a window's
    // edge and a split point a few ms apart share a window's writes at most).
    assert.equal(time.regionsOfItsOwn, 10);
    assert.equal(time.report.regions.length, 10);
    assert.ok(time.busiestShare > 0.9, `index busiest share ${time.busiestShare}`);
    // The data table's 8 salt buckets take about an eighth each.
    assert.ok(a.metrics.meanBusiestShare < 0.25, `table busiest share ${a.metrics.meanBusiestShare}`);
    // The covered index is salted like its table: it spreads too.
    assert.equal(customer.regionsOfItsOwn, 8);
    assert.ok(customer.busiestShare < 0.25, `covered index busiest share ${customer.busiestShare}`);
    // Every write is a new row: one index row each; a covered global index writes it twice
    // (unverified, then verified), 4 when an indexed value changes, 2 per delete.
    assert.equal(time.report.writes, a.writes);
    assert.deepEqual(customer.writes, { put: 2, updateIndexed: 4, delete: 2, consistencyExtra: 1 });
    // Covered: no data-table lookup, and its INCLUDE bytes are labelled an estimate.
    assert.equal(customer.dataLookupsPerRow, 0);
    assert.equal(customer.bytesEstimated, true);
    assert.equal(time.bytesEstimated, false);
    assert.ok(Array.isArray(time.report.sample) && typeof time.report.sample[0].keyHex === 'string');
    // The design's one read (a .sql design's: a row by its primary key) is a point lookup on
    // the data table, which no index beats.
    assert.deepEqual(
      a.indexReads.map(p => [p.chosen.index, p.chosen.access, p.withoutIndex.access]),
      [[null, 'pointLookup', 'pointLookup']],
    );
  });

  test("analyze --json: the reads beside the report are the library's readsBeside, whole (issue 71)", async () => {
    // one answer, the engine's: the CLI composes no plans of its own over the report's regions
    const r = run('analyze', 'orders.sql', '--windows', '10', '--json');
    assert.equal(r.status, 0, r.stderr);
    const { reads, readsError, indexReads, indexReadsError } = JSON.parse(r.stdout);
    const m = await import(entry);
    const doc = m.parseCreateTable(SQL);
    const beside = m.readsBeside(doc, m.analyzeDesign(doc, { windows: 10 }));
    assert.deepEqual({ reads, readsError, indexReads, indexReadsError }, beside);
    assert.equal(beside.indexReads.length, 1);
  });

  test('analyze: each index in the human report, estimates labelled', () => {
    const r = run('analyze', 'orders.sql', '--windows', '10');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Phoenix indexes/);
    assert.match(r.stdout, /^BY_TIME +global +10 /m);
    assert.match(r.stdout, /^BY_CUSTOMER +global +8 .* 2\/4\/2 +≈/m);
    assert.match(r.stdout, /≈ BY_CUSTOMER: the INCLUDE columns' bytes are estimated/);
  });

  test('advise names the index that takes each window on one region and its checked fixes', () => {
    const j = run('advise', 'orders.sql', '--records', '8000', '--windows', '8', '--json');
    assert.equal(j.status, 0, j.stderr);
    const a = JSON.parse(j.stdout);
    // BY_TIME is unsalted and split at times of the 100-s run the advisor's 8,000 records (8 s
    // at 1,000 a second) fall before the first of: one region takes every write. BY_CUSTOMER
    // takes the table's 8 buckets and spreads: no finding.
    assert.deepEqual(
      a.indexFindings.map(f => [f.index, f.busiestShare]),
      [['BY_TIME', 1]],
    );
    const [f] = a.indexFindings;
    const salt = f.fixes.find(x => x.fix === 'salt');
    assert.equal(salt.statement, 'CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=8;');
    assert.equal(salt.regions, 8);
    assert.ok(salt.spreads && salt.busiestShare < 0.25, `salted index busiest share ${salt.busiestShare}`);
    const local = f.fixes.find(x => x.fix === 'local');
    assert.equal(local.regions, 0);
    // Each candidate carries its two indexes' figures.
    for (const c of a.candidates) if (c.metrics) assert.equal(c.metrics.indexes.length, 2, c.label);
    // The human output prints the finding and each fix's statement as the engine gives them.
    const r = run('advise', 'orders.sql', '--records', '8000', '--windows', '8');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^index BY_TIME: the index BY_TIME concentrates its writes/m);
    assert.match(r.stdout, /salt +8 +.* yes +CREATE INDEX BY_TIME ON ORDERS \(CREATED_AT\) SALT_BUCKETS=8;$/m);
    assert.match(r.stdout, /local +0 +.* CREATE LOCAL INDEX BY_TIME ON ORDERS \(CREATED_AT\);$/m);
  });

  test('advise --records FILE names the index hot over the rows, its fixes checked over them', () => {
    // tests/fixtures/phoenix-orders: 500 orders, ORDER_ID rising with CREATED_AT, BY_TIME split
    // every 10 s (tests/engine/advise/rows_index_findings.rs derives the figures by hand).
    const fx = path.resolve(import.meta.dirname, '../../fixtures/phoenix-orders');
    const args = ['advise', path.join(fx, 'orders.sql'), '--records', path.join(fx, 'orders.csv')];
    const opts = ['--time', 'CREATED_AT', '--windows', '10'];
    const j = run(...args, ...opts, '--json');
    assert.equal(j.status, 0, j.stderr);
    const a = JSON.parse(j.stdout);
    assert.deepEqual(
      a.indexFindings.map(f => [f.index, f.regions, f.busiestShare]),
      [['BY_TIME', 10, 1]],
    );
    const [f] = a.indexFindings;
    const fix = kind => f.fixes.find(x => x.fix === kind);
    assert.equal(fix('salt').statement, 'CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=8;');
    assert.ok(fix('salt').spreads && fix('local').spreads, JSON.stringify(f.fixes));
    // led by ORDER_ID, which rises with the time over these rows: each window on one or two
    // of its regions, so the check over the rows says it does not spread
    assert.ok(!fix('lead').spreads && fix('lead').busiestShare >= 0.5, JSON.stringify(fix('lead')));
    const r = run(...args, ...opts);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^index BY_TIME: the index BY_TIME concentrates its writes/m);
  });

  test('splits --create and create-table print each CREATE INDEX', () => {
    const s = run('splits', 'orders.sql', '--create', 'ORDERS');
    assert.equal(s.status, 0, s.stderr);
    assert.match(
      s.stdout,
      /^# Phoenix global index BY_TIME, 10 region\(s\): CREATE INDEX BY_TIME ON ORDERS \(CREATED_AT\)/m,
    );
    assert.match(
      s.stdout,
      /^# Phoenix global index BY_CUSTOMER, 8 region\(s\): CREATE INDEX BY_CUSTOMER ON ORDERS \(CUSTOMER_ID\) INCLUDE \(TOTAL\);$/m,
    );
    const j = JSON.parse(run('splits', 'orders.sql', '--create', 'ORDERS', '--json').stdout);
    assert.deepEqual(
      j.indexes.map(x => x.splitKeysHex.length),
      [9, 7],
    );
    const plain = run('splits', 'orders.sql');
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stderr, /2 Phoenix index\(es\)/);
    const c = run('create-table', 'orders.sql');
    assert.equal(c.status, 0, c.stderr);
    assert.match(c.stdout, /^CREATE INDEX BY_CUSTOMER ON ORDERS \(CUSTOMER_ID\) INCLUDE \(TOTAL\);$/m);
  });

  test("life --index: the time index's own table over months, one server taking every write", () => {
    const months = (...args) => {
      const r = run('life', 'orders.sql', '--months', '1', '--servers', '4', '--json', ...args);
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    // the data table's 8 salt buckets over 4 servers: about a quarter each; the index on the
    // time column is led by it: every hour's writes on the region holding the newest time
    const data = months();
    const index = months('--index', 'BY_TIME');
    assert.ok(data.months[0].hottestServerWriteShare < 0.5, JSON.stringify(data.months[0].hottestServerWriteShare));
    assert.ok(index.months[0].hottestServerWriteShare > 0.99, JSON.stringify(index.months[0].hottestServerWriteShare));
    assert.ok(
      index.notes.some(n => n.startsWith('the table: the Phoenix index BY_TIME')),
      index.notes.join('\n'),
    );
    const human = run('life', 'orders.sql', '--months', '1', '--index', 'BY_TIME');
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /^note: the table: the Phoenix index BY_TIME/m);
    // a name the design does not declare: the engine's error, at its option
    const bad = run('life', 'orders.sql', '--months', '1', '--index', 'NOPE');
    assert.equal(bad.status, 3, bad.stderr);
    assert.match(bad.stderr, /no index "NOPE": its indexes are BY_TIME, BY_CUSTOMER/);
  });
});
