#!/usr/bin/env node
// The advisor's sweep under Node (pkg/node, the speed build): adviseDesign (one thread) against
// adviseDesignParallel (worker threads, one per core), alternating, median of the rounds; checks
// both answer the same. The native figures: cargo bench --bench advise.
//   node scripts/bench-advise.mjs [preset] [records] [rounds]   (seed000-vehicle 200000 3)
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import * as m from '../pkg/node/index.js';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node');
const [id = 'seed000-vehicle', records = '200000', rounds = '3'] = process.argv.slice(2);
const doc = m.getPreset(id);
const options = { records: Number(records) };
const median = v => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
const one = [];
const all = [];
let n = 0;
for (let i = 0; i < Number(rounds); i++) {
  let t = performance.now();
  const a = m.adviseDesign(doc, options);
  one.push(performance.now() - t);
  t = performance.now();
  const b = await m.adviseDesignParallel(doc, options);
  all.push(performance.now() - t);
  assert.deepEqual(b, a, 'worker threads and one thread disagree');
  n = a.candidates.length;
}
const cores = availableParallelism();
const rate = ms => (n * Number(records)) / (ms / 1000) / 1e6;
const [s, p] = [median(one), median(all)];
console.log(
  `advise sweep under Node: ${id}, ${n} candidates x ${records} records, ${cores} cores, median of ${rounds}`,
);
console.log(`| adviseDesign (1 thread) | ${rate(s).toFixed(2)} M records/s | ${(s / 1000).toFixed(1)} s |`);
console.log(
  `| adviseDesignParallel (${cores} workers) | ${rate(p).toFixed(2)} M records/s | ${(p / 1000).toFixed(1)} s |`,
);
console.log(`speed-up ${(s / p).toFixed(2)} = ${(s / p / cores).toFixed(2)} x cores (target >= 0.80 x cores)`);
