// `rowkey-lab observe` on the snapshot fixtures (tests/fixtures/observe/, written by
// scripts/observe-fixtures.py from HBase 2.x's formats), run as a user runs it. The rates are
// worked out here from the counters the fixture script wrote (tests/engine/observe/scenario.rs has
// the table), not taken from the engine.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const FIXTURES = path.join(ROOT, 'tests/fixtures/observe');
const near = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: got ${got}, want ${want}`);

describe('rowkey-lab observe', { skip: NOT_BUILT }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-observe-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args) =>
    spawnSync(process.execPath, [BIN, 'observe', ...args], { cwd: dir, encoding: 'utf8', timeout: 60000 });

  test('a folder of /jmx dumps: rates per interval, the split, the move, the reset, the gap', () => {
    const r = run(path.join(FIXTURES, 'scenario'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.table, 'events');
    assert.equal(s.snapshots.length, 5);
    const [first, second] = s.intervals;
    // A on rs1 over the first minute: 1000 → 1600 reads, 5000 → 8000 writes.
    const a = first.regions[0];
    assert.deepEqual([a.startKey, a.endKey, a.counted], ['', 'm', 'difference']);
    near(a.readsPerSec, 600 / 60, 'A reads');
    near(a.writesPerSec, 3000 / 60, 'A writes');
    // B split at t: the daughters count since they opened.
    assert.deepEqual(
      first.regions.map(x => [x.startKey, x.counted]),
      [
        ['', 'difference'],
        ['m', 'split'],
        ['t', 'split'],
      ],
    );
    near(first.regions[2].writesPerSec, 240 / 60, 'B2 writes');
    // A moved to rs2 (300 reads since), B2's counters went down (60 → 20 reads).
    near(second.regions[0].readsPerSec, 300 / 60, 'A since the move');
    assert.equal(second.regions[2].counted, 'reopened');
    near(second.regions[2].readsPerSec, 20 / 60, 'B2 since the reopen');
    assert.deepEqual(
      s.events.map(e => e.kind),
      ['split', 'move', 'reopen', 'gap', 'gap', 'gap'],
    );
    assert.deepEqual(s.snapshots[3].missingServers, ['rs2.example.internal']);
  });

  test('the text tables say the same', () => {
    const r = run(path.join(FIXTURES, 'scenario'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^table events: 5 snapshots from 2026-11-26T05:00:00Z to 2026-11-26T05:04:00Z/);
    assert.match(r.stdout, /2026-11-26T05:01:00Z split: m into m, t/);
    assert.match(r.stdout, /move: \(first\) from rs1\.example\.internal,16020,1700000000123 to rs2/);
    assert.match(r.stdout, /no dump of rs2\.example\.internal/);
    // A's first-minute row: reads/s, writes/s, requests/s.
    assert.match(r.stdout, /\n\(first\) +m +rs1\.example\.internal,16020,1700000000123 +10\.00 +50\.00 +60\.00/);
    assert.match(r.stdout, /gap: m not read \(no dump of rs2\.example\.internal: kept where it was\)/);
  });

  test('files named one by one, list_regions and status output', () => {
    const files = ['list_regions-1795669200000.txt', 'list_regions-1795669260000.txt'].map(f =>
      path.join(FIXTURES, 'list_regions', f),
    );
    const r = run(...files, '--json');
    assert.equal(r.status, 0, r.stderr);
    near(JSON.parse(r.stdout).intervals[0].regions[0].requestsPerSec, 3600 / 60, 'A requests');
    const st = run(path.join(FIXTURES, 'status'), '--json');
    assert.equal(st.status, 0, st.stderr);
    assert.deepEqual(
      JSON.parse(st.stdout).regions.map(x => x.startKey),
      ['', '\\x80', 'q"#{x'],
    );
  });

  test('with a design: start keys through its key, its share of writes beside the measured share', () => {
    const design = path.join(FIXTURES, 'design.json');
    const r = run(path.join(FIXTURES, 'scenario'), design, '--windows', '4', '--json');
    assert.equal(r.status, 0, r.stderr);
    const { observed } = JSON.parse(r.stdout);
    // The design's key is host + "|" + long(ts): the boundaries m and t are hosts' starts.
    assert.deepEqual(
      observed.starts.map(b => b.label),
      ['(first)', 'host=m…', 'host=m…', 'host=t…'],
    );
    const vs = observed.against.regions;
    // Polls 3 and 4 have no rates (rs2's dump is missing at 3): the last interval with rates
    // is 05:01 → 05:02, whose writes are A 900 (since its move), B1 480 - 120, B2 60 (since
    // its reopen).
    assert.equal(observed.against.interval, 1);
    assert.deepEqual(
      vs.map(x => x.startKey),
      ['', 'm', 't'],
    );
    const writes = [900, 360, 60];
    const total = writes.reduce((a, b) => a + b);
    for (const [i, x] of vs.entries()) near(x.measuredShare, writes[i] / total, `measured share ${i}`);
    // The design's hosts alpha | mike | tango, zulu fall in ["", m) | [m, t) | [t, ""): a
    // quarter, a quarter, a half of its writes, give or take its generator's draw.
    for (const [i, want] of [0.25, 0.25, 0.5].entries())
      assert.ok(Math.abs(vs[i].predictedShare - want) < 0.05, `design share ${i}: ${vs[i].predictedShare}`);
    for (const x of vs) near(x.ratio, x.measuredShare / x.predictedShare, 'ratio');
    // The rows of the heatmap: "", m (the parent), m (its daughter), t.
    assert.deepEqual(
      observed.rows.map(i => JSON.parse(r.stdout).regions[i].startKey),
      ['', 'm', 'm', 't'],
    );
    const text = run(path.join(FIXTURES, 'scenario'), design, '--windows', '4');
    assert.match(text.stdout, /the last interval with rates\) against the design/);
    assert.match(text.stdout, /\nm +host=m… +rs2\.example\.internal/);
  });

  test('a salted table: the hot bucket, its input and the server said, figures and all', () => {
    const r = run(path.join(FIXTURES, 'salted'), path.join(FIXTURES, 'salted-design.json'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const { observed } = JSON.parse(r.stdout);
    // The fixture script's per-bucket writes/s (12 hosts at 10, web07 at 60; buckets by Java's
    // String.hashCode % 8): 10 10 10 70 20 30 10 10, of 170.
    const w = [10, 10, 10, 70, 20, 30, 10, 10];
    for (const [b, x] of observed.against.regions.entries()) {
      near(x.measuredShare, w[b] / 170, `bucket ${b}`);
      assert.equal(x.decoded, b === 0 ? '(first)' : `salt 0${b}`);
    }
    assert.match(
      observed.diagnosis[0],
      /^salted, but bucket 03 takes 3\.3× the mean \(41 % of writes over 8 regions\): its input `host` has 12 values/,
    );
    assert.match(
      observed.diagnosis[1],
      /^one server takes 47 % of writes while holding 25 % of the regions \(2 of 8\): rs2/,
    );
    const text = run(path.join(FIXTURES, 'salted'), path.join(FIXTURES, 'salted-design.json'));
    assert.match(text.stdout, /\ndiagnosis:\n- salted, but bucket 03/);
  });

  test('--html: a self-contained report with the heatmaps, the comparison and the diagnosis', () => {
    const file = path.join(dir, 'report.html');
    const r = run(path.join(FIXTURES, 'salted'), path.join(FIXTURES, 'salted-design.json'), '--html', file, '--json');
    assert.equal(r.status, 0, r.stderr);
    const { observed, intervals } = JSON.parse(r.stdout);
    const html = readFileSync(file, 'utf8');
    // Nothing fetched: no script, no link, no src, no url() of anything.
    assert.doesNotMatch(html, /<script|<link|\bsrc=|url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    // Three heatmaps (writes/s, reads/s, size), each a rect per region and interval: 8 × 3.
    const svgs = [...html.matchAll(/<svg[^>]*data-measure="(\w+)"[^>]*>(.*?)<\/svg>/gs)];
    assert.deepEqual(
      svgs.map(m => m[1]),
      ['writes', 'reads', 'size'],
    );
    for (const [, , body] of svgs) assert.equal([...body.matchAll(/<rect /g)].length, 8 * intervals.length);
    // Bucket 03 in the last interval: 70 writes/s, the darkest cell's tooltip says so.
    assert.match(svgs[0][2], /<title>salt 03, 06:02:00–06:03:00: 70\.00 writes\/s<\/title>/);
    // The comparison table: one row per region with its measured share (to 0.1 %).
    const against = html.match(/<table class="against">(.*?)<\/table>/s)[1];
    const rows = [...against.matchAll(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><td>.*?<\/td><td>(.*?)<\/td>/g)];
    assert.equal(rows.length, 8);
    assert.deepEqual(
      rows.map(m => m[3]),
      observed.against.regions.map(x => `${(x.measuredShare * 100).toFixed(1)} %`),
    );
    assert.equal(rows[3][2], 'salt 03');
    // The diagnosis, escaped (backticks and × kept, no markup).
    const items = [...html.matchAll(/<ul class="diagnosis">(.*?)<\/ul>/gs)][0][1];
    assert.equal(
      [...items.matchAll(/<li>(.*?)<\/li>/g)].map(m => m[1]).join('\n'),
      observed.diagnosis.map(d => d.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')).join('\n'),
    );
  });

  test("a series too large is refused by its files' sizes, before any is read (issue 56, item 4)", () => {
    // sparse files: their sizes are the dumps', no disk and no reading
    const sized = (folder, n, bytes) => {
      mkdirSync(folder, { recursive: true });
      for (let i = 0; i < n; i++) {
        const fd = openSync(path.join(folder, `2026112${i % 10}T0500${String(i).padStart(2, '0')}Z-rs${i}.json`), 'w');
        ftruncateSync(fd, bytes);
        closeSync(fd);
      }
      return folder;
    };
    const many = sized(path.join(dir, 'many'), 18, 63 * 2 ** 20);
    const started = Date.now();
    const r = run(many);
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /1134 MiB of text in 18 files is over the limit of 1024 MiB/);
    assert.ok(Date.now() - started < 10_000, 'refused before reading');
    const big = sized(path.join(dir, 'big'), 1, 65 * 2 ** 20);
    const b = run(big);
    assert.equal(b.status, 3, b.stderr);
    assert.match(b.stderr, /rs0\.json: a snapshot file of 68157440 bytes is over the limit of 64 MiB/);
  });

  test('bad input: exit 3 and the file it is in', () => {
    const scenario = path.join(dir, 'scenario');
    cpSync(path.join(FIXTURES, 'scenario'), scenario, { recursive: true });
    const cut = path.join(scenario, '20261126T050100Z-rs2.json');
    const text = readFileSync(cut, 'utf8');
    writeFileSync(cut, text.slice(0, text.length / 2));
    const r = run(scenario);
    assert.equal(r.status, 3);
    assert.match(r.stderr, /20261126T050100Z-rs2\.json: .*\(line \d+, column \d+\)/);
    const t = run(path.join(FIXTURES, 'scenario'), '--table', 'orders');
    assert.equal(t.status, 3);
    assert.match(t.stderr, /no region of table `orders`.*\(--table T\)/);
    assert.equal(run().status, 2);
  });
});
