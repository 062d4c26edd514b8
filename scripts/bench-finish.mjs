// AnalysisSession.finish() with the largest key sample (100,000 keys) under Node: the time to
// build the report and hand it to JS (matrices and sample as typed arrays).
//   node scripts/bench-finish.mjs [ENTRY] [PRESET]
// ENTRY defaults to the packed Node build (pkg/node/index.js, from scripts/build-npm.sh); give
// another build's entry to compare two builds run after run. With the default entry the result
// also goes to target/bench/finish.json, which scripts/bench-table.mjs puts in docs/BENCHMARKS.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { requireShipped } from './shipped-build.mjs';

const RUNS = 15;
const entry = process.argv[2] ?? new URL('../pkg/node/index.js', import.meta.url).href;
if (process.argv[2] === undefined) requireShipped('pkg/node');
const preset = process.argv[3] ?? 'seed000-telecom';
const m = await import(entry.startsWith('/') ? `file://${entry}` : entry);
const doc = m.getPreset(preset);
doc.workload = { ...doc.workload, records: 300000 };
const session = new m.AnalysisSession(doc, { sampleSize: 100000 });
while (!session.step(100000).finished);
const ms = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  const r = session.finish();
  ms.push(performance.now() - t);
  if (r.sample.offsets.length !== 100001) throw new Error(`sample has ${r.sample.offsets.length - 1} keys`);
}
ms.sort((a, b) => a - b);
const median = ms[RUNS >> 1];
console.log(
  `${preset}: finish() with a 100,000-key sample, median of ${RUNS} ${median.toFixed(1)} ms (min ${ms[0].toFixed(1)})`,
);
if (process.argv[2] === undefined) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const result = {
    bench: 'finish',
    command: 'node scripts/bench-finish.mjs',
    date: new Date().toISOString().slice(0, 10),
    commit,
    node: process.version,
    preset,
    records: 300000,
    sampleKeys: 100000,
    runs: RUNS,
    medianMs: Number(median.toFixed(1)),
    minMs: Number(ms[0].toFixed(1)),
  };
  mkdirSync(new URL('../target/bench/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../target/bench/finish.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
}
