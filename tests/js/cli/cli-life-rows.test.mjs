// life --records (issue 58, item 2: "the generated workload or the user's rows"): the months
// with the table's writes from a file of rows, their keys in write order. A time-led key's rows
// written one a second, listed in a shuffled order: by their time column they are one lane in
// time order, so every hour's writes go to one region on one server (the hottest server takes
// all of them); in file order the same keys look spread, and the servers share the writes.
// Both facts follow from the rows' construction, not from the engine.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const run = args => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** A time-led key writing about 1 GiB an hour on 4 servers. */
const TIME_LED = {
  v: 1,
  fields: [
    { name: 'id', type: 'long' },
    { name: 't', type: 'timestamp' },
  ],
  key: 'time(t, "yyMMddHHmmss") + ":" + str(id)',
  workload: { records: 20000, writeRate: 300, valueSize: 1000 },
  regions: { regionServers: 4 },
};
const ROWS = 20000;

/** A seeded shuffle (xorshift), so the file's order is far from the time order. */
function shuffled(n) {
  const a = [...Array(n).keys()];
  let x = 2463534242;
  for (let i = n - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

describe('life --records', { skip: NOT_BUILT }, () => {
  let dir, design, rows;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-life-rows-'));
    design = path.join(dir, 'time-led.json');
    writeFileSync(design, JSON.stringify(TIME_LED));
    rows = path.join(dir, 'rows.csv');
    const t0 = Date.UTC(2026, 0, 1);
    const lines = shuffled(ROWS).map(i => `${i},${new Date(t0 + i * 1000).toISOString()}`);
    writeFileSync(rows, `id,t\n${lines.join('\n')}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const life = (...args) => {
    const r = run(['life', design, '--records', rows, '--months', '2', ...args, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  test('by the time column, a time-led key writes one region at a time', () => {
    const j = life('--time', 't');
    assert.equal(j.months.length, 2);
    // (The balancer, looking every 5 minutes, moves the written tail now and then as it evens the
    // counts: the hour of a move is shared by two servers, so the month's mean is a little under 1.)
    assert.ok(
      j.months.every(m => m.hottestServerWriteShare > 0.95),
      JSON.stringify(j.months.map(m => m.hottestServerWriteShare)),
    );
    const note = j.notes.find(n => n.startsWith("the user's rows"));
    assert.match(note, new RegExp(`all ${ROWS} rows, in the order of their time column`));
    assert.match(note, /0\.2 days: 1\.0 rows\/s/);
    assert.ok(
      j.notes.some(n => /1 lane\(s\) of the key space, each written in ascending time order/.test(n)),
      j.notes.join('\n'),
    );
  });

  test('in file order the shuffled rows spread, and the servers share the writes', () => {
    const j = life();
    assert.ok(
      j.notes.some(n => n.includes('in file order (no time column)')),
      j.notes.join('\n'),
    );
    assert.ok(
      j.notes.some(n => /spread over each lane/.test(n)),
      j.notes.join('\n'),
    );
    assert.ok(j.months[1].hottestServerWriteShare < 0.5, String(j.months[1].hottestServerWriteShare));
  });

  test('check --records gates on the months of those rows, as life --records simulates them', () => {
    const months = life('--time', 't').months;
    const worst = Math.max(...months.map(m => Math.max(...m.servers.map(s => s.regions))));
    const limit = worst - 1;
    const first = months.find(m => Math.max(...m.servers.map(s => s.regions)) > limit).month;
    const args = ['check', design, '--records', rows, '--time', 't', '--months', '2', '--lint', 'off'];
    const r = run([...args, '--max-hotspot', '1000', '--max-regions-per-server', String(limit), '--json']);
    assert.equal(r.status, 1, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(
      [j.life.ok, j.life.regionsPerServer.worst, j.life.regionsPerServer.firstMonthOver],
      [false, worst, first],
    );
  });

  test('the rows flags go with --records, and a bad row is named', () => {
    const r = run(['life', design, '--time', 't']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--time goes with --records FILE/);
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'id,t\n1,2026-01-01T00:00:00Z\nx,2026-01-01T00:00:01Z\n');
    const b = run(['life', design, '--records', bad, '--time', 't']);
    assert.notEqual(b.status, 0);
    assert.match(b.stderr, /line 3.*`id`/);
  });
});
