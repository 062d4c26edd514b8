// The design advisor from the installed tarball: adviseDesignParallel on worker threads gives
// exactly adviseDesign's answer, and adviseFrom over evaluateCandidate's results the same again;
// options are strict; the CLI's `advise` prints the documented JSON shape and a table.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

describe('the design advisor (npm package and CLI)', { skip: NOT_BUILT }, () => {
  let bin;
  let dir;
  let m;
  before(async () => {
    ({ dir } = await installed());
    bin = path.join(dir, 'node_modules/.bin/rowkey-lab');
    m = await importByName(dir);
  });
  const run = (...args) => spawnSync(bin, args, { cwd: dir, encoding: 'utf8' });
  const options = { records: 3000, windows: 8 };

  test('worker threads, one thread and hand-made fan-out give the same answer', async () => {
    const doc = m.getPreset('seed000-telecom');
    const one = m.adviseDesign(doc, options);
    const seen = [];
    const par = await m.adviseDesignParallel(doc, options, { threads: 2, onProgress: p => seen.push(p.done) });
    assert.deepEqual(par, one);
    assert.equal(seen.length, one.candidates.length);
    assert.equal(Math.max(...seen), one.candidates.length);
    const set = m.adviseCandidates(doc, options);
    const evals = set.candidates.map(c => m.evaluateCandidate(c.design, options, set.targetRegions));
    assert.deepEqual(m.adviseFrom(doc, options, evals), one);
    // The recommended design is a whole document the analyzer takes as is.
    assert.ok(m.analyzeDesign(one.recommended.design).writes > 0);
  });

  test('options are strict and errors name the member', () => {
    const doc = m.getPreset('seed000-telecom');
    assert.throws(
      () => m.adviseDesign(doc, { recods: 10 }),
      e => /recods/.test(e.message),
    );
    assert.throws(
      () => m.adviseDesign(doc, { records: 10, capacity: { memstoreShare: 2 } }),
      e => e.path === 'capacity.memstoreShare',
    );
    assert.throws(
      () => m.adviseFrom(doc, options, [{ hotspotFactor: 'x' }]),
      e => /evaluations\[0\]/.test(e.path),
    );
  });

  test('advise --json: the documented shape, a hexString pre-split for Bytes.split over hex', () => {
    const r = run('advise', 'seed001-md5hex-bytes-split', '--records', '3000', '--json');
    assert.equal(r.status, 0, r.stderr);
    const a = JSON.parse(r.stdout);
    assert.equal(a.recommended.design.regions.presplit.kind, 'hexString');
    assert.ok(Array.isArray(a.recommended.why) && a.recommended.why.length > 0);
    for (const k of ['hotspotFactor', 'activeRegionsPerWindow', 'effectiveParallelism', 'keyBytes', 'reads'])
      assert.ok(k in a.recommended.metrics, k);
    for (const c of a.candidates) {
      assert.equal(typeof c.label, 'string');
      assert.equal(c.design.v, 1);
      assert.equal(typeof c.pareto, 'boolean');
      for (const read of c.metrics.reads)
        for (const k of ['name', 'scans', 'regionsTouched', 'rowsReadPerRowReturned']) assert.ok(k in read, k);
    }
    assert.equal(a.capacity.horizons.length, 3);
  });

  test('advise says what the move to its recommendation needs from the rows, as --json does', () => {
    const json = JSON.parse(run('advise', 'seed000-telecom-time-first', '--records', '3000', '--json').stdout);
    const note = json.recommended.moveNote;
    // the time-first key holds the call time to the second: a key reading ts needs the rows'
    assert.match(note ?? '', /needs `ts`, which/);
    const r = run('advise', 'seed000-telecom-time-first', '--records', '3000');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.split('\n').includes(`  ! ${note}`), r.stdout);
  });

  test('advise prints a table and the recommendation; bad options are usage errors', () => {
    const r = run('advise', 'seed003-time-first', '--records', '3000', '--servers', '4');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^recommended: /m);
    assert.match(r.stdout, /capacity \(/);
    assert.equal(run('advise', 'seed003-time-first', '--servers', 'x').status, 2);
    assert.equal(run('advise', 'seed003-time-first', '--sevrers', '4').status, 2);
    assert.equal(run('advise', '--help').status, 0);
  });
});
