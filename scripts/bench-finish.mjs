// AnalysisSession.finish() with the largest key sample (100,000 keys) under Node: the time to
// build the report and hand it to JS (matrices and sample as typed arrays).
//   node scripts/bench-finish.mjs [ENTRY] [PRESET]
// ENTRY defaults to the packed Node build (pkg/node/index.js, from scripts/build-npm.sh); give
// another build's entry to compare two builds run after run.
const entry = process.argv[2] ?? new URL('../pkg/node/index.js', import.meta.url).href;
const preset = process.argv[3] ?? 'seed000-telecom';
const m = await import(entry.startsWith('/') ? `file://${entry}` : entry);
const doc = m.getPreset(preset);
doc.workload = { ...doc.workload, records: 300000 };
const session = new m.AnalysisSession(doc, { sampleSize: 100000 });
while (!session.step(100000).finished);
const ms = [];
for (let i = 0; i < 15; i++) {
  const t = performance.now();
  const r = session.finish();
  ms.push(performance.now() - t);
  if (r.sample.offsets.length !== 100001) throw new Error(`sample has ${r.sample.offsets.length - 1} keys`);
}
ms.sort((a, b) => a - b);
console.log(`${preset}: finish() with a 100,000-key sample, median of 15 ${ms[7].toFixed(1)} ms (min ${ms[0].toFixed(1)})`);
