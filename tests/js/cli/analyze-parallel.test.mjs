// The analysis on worker threads, from the installed tarball: analyzeDesignParallel gives
// analyzeDesign's report byte for byte on 1, 2 and 3 threads; the session it gives checks budgets
// as a one-thread session does; sessions of runs of blocks by hand, their partial counts combined
// in any order, the same again; what cannot be added up is refused with a reason; the CLI's
// `analyze --threads` prints the same whatever N.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

describe('the analysis on worker threads (npm package and CLI)', { skip: NOT_BUILT }, () => {
  let bin;
  let dir;
  let m;
  before(async () => {
    ({ dir } = await installed());
    bin = path.join(dir, 'node_modules/.bin/rowkey-lab');
    m = await importByName(dir);
  });
  const options = { windows: 16 };
  // 4.6 blocks of the telecom design (blocks are 65,536 records)
  const telecom = () => {
    const d = m.getPreset('seed000-telecom');
    return { ...d, workload: { ...d.workload, records: 300_000 } };
  };

  test('1, 2 and 3 threads give analyzeDesign’s report; progress reaches the total', async () => {
    const doc = telecom();
    const one = m.analyzeDesign(doc, options);
    const s = new m.AnalysisSession(doc, options);
    assert.equal(s.blocks(), 5);
    s.free();
    for (const threads of [1, 2, 3]) {
      const seen = [];
      const r = await m.analyzeDesignParallel(doc, options, { threads, onProgress: p => seen.push(p) });
      assert.deepEqual(r, one, `${threads} threads`);
      assert.deepEqual(seen.at(-1), { done: 300_000, total: 300_000 }, `${threads} threads`);
    }
    const budgets = { maxHotspot: 1.5, maxScans: 2 };
    const par = await m.analysisSessionParallel(doc, options, { threads: 2 });
    const seq = new m.AnalysisSession(doc, options);
    while (!seq.step(1 << 16).finished);
    assert.deepEqual(par.check(budgets), seq.check(budgets));
    par.free();
    seq.free();
  });

  test('runs of blocks by hand, combined in any order; refusals name what is wrong', () => {
    const doc = telecom();
    const one = m.analyzeDesign(doc, options);
    const ranges = m.blockRanges(5, 3);
    assert.deepEqual(ranges, [
      [0, 1],
      [1, 3],
      [3, 5],
    ]);
    const parts = ranges.map(([a, b]) => {
      const s = m.AnalysisSession.forBlocks(doc, options, a, b);
      while (!s.step(50_000).finished);
      const p = s.partial();
      s.free();
      return p;
    });
    assert.ok(parts.every(p => p instanceof Uint8Array));
    const combined = m.combineAnalyses(doc, options, [parts[2], parts[0], parts[1]]);
    assert.deepEqual(combined.finish(), one);
    combined.free();
    assert.throws(
      () => m.combineAnalyses(doc, options, [parts[0], parts[2]]),
      e => /blocks from 1 expected, got blocks 3\.\.5/.test(e.message),
    );
    assert.throws(
      () => m.combineAnalyses(doc, { windows: 8 }, parts),
      e => /partial 0 counted another design or other options/.test(e.message),
    );
    assert.throws(
      () => m.combineAnalyses(doc, options, [parts[0].subarray(0, 10)]),
      e => /partial 0: its checksum does not match/.test(e.message) && e.kind === 'invalid',
    );
    assert.throws(
      () => m.AnalysisSession.forBlocks(doc, options, 4, 6),
      e => /blocks 4\.\.6: this run has blocks 0\.\.5/.test(e.message),
    );
  });

  test('a session hands the second half of its unbegun blocks over (cedeHalf); the counts still add up', () => {
    const doc = telecom();
    const one = m.analyzeDesign(doc, options);
    const s = m.AnalysisSession.forBlocks(doc, options, 0, 5);
    s.step(65_536); // block 0 counted: blocks 1..5 not begun
    assert.deepEqual(s.cedeHalf(), [3, 5]);
    assert.equal(s.progress().total, 3 * 65_536);
    const taken = m.AnalysisSession.forBlocks(doc, options, 3, 5);
    assert.deepEqual(taken.cedeHalf(), [4, 5]);
    assert.equal(taken.cedeHalf(), null); // one block left: kept
    const last = m.AnalysisSession.forBlocks(doc, options, 4, 5);
    const parts = [s, taken, last].map(x => {
      while (!x.step(50_000).finished);
      const p = x.partial();
      x.free();
      return p;
    });
    const combined = m.combineAnalyses(doc, options, parts);
    assert.deepEqual(combined.finish(), one);
    combined.free();
  });

  test('analyze --threads N prints the same whatever N; a bad N is a usage error', () => {
    const file = path.join(dir, 'telecom-300k.json');
    writeFileSync(file, JSON.stringify(telecom()));
    const run = (...args) =>
      spawnSync(bin, ['analyze', file, '--windows', '16', '--json', ...args], { cwd: dir, encoding: 'utf8' });
    const a = run('--threads', '1');
    const b = run('--threads', '2');
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    assert.equal(b.stdout, a.stdout);
    assert.equal(JSON.parse(a.stdout).writes, 300_000);
    const bad = run('--threads', '0');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--threads must be a whole number of at least 1, not 0/);
  });
});
