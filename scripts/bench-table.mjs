#!/usr/bin/env node
// Writes docs/BENCHMARKS.md (its sections: scripts/bench-sections.mjs), the current figures, from
// docs/benchmarks.json, the latest result of each bench. The bench scripts write their results
// to target/bench/<bench>.json:
//   keyspec.json, analyze.json   node scripts/bench-native.mjs
//   node.json                    node scripts/bench-node.mjs
//   finish.json                  node scripts/bench-finish.mjs
//   page.json                    node scripts/bench-page.mjs
//   size.json                    bash scripts/size-check.sh
//   rows.json                    node scripts/bench-rows.mjs
//   spark.json                   .venv/bin/python scripts/bench-spark.py
//   python.json                  .venv/bin/python scripts/bench-python.py
//   page-rows.json               node scripts/bench-page-rows.mjs
//   rekey.json                   node scripts/bench-rekey.mjs
//   life-page.json               node scripts/bench-life-page.mjs
//   life-rows.json               node scripts/bench-life-rows.mjs
// Each one found there, and as recent as the stored one, replaces it in docs/benchmarks.json
// (only the figures the tables show are kept); then the tables are written again. So one bench
// can be rerun alone, and the commit that changes what it measures carries its new figures.
//   node scripts/bench-table.mjs            fold target/bench/ in, write both files
//   node scripts/bench-table.mjs --only B   fold in target/bench/B.json alone (the target
//                                           directory may hold other branches' results)
//   node scripts/bench-table.mjs --check    exit 1 when docs/BENCHMARKS.md is not what
//                                           docs/benchmarks.json gives (a hand edit)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchmarksMd } from './bench-sections.mjs';

const at = p => new URL(`../${p}`, import.meta.url);
const STORE = 'docs/benchmarks.json';
const DOC = 'docs/BENCHMARKS.md';
const pick = (o, keys) => Object.fromEntries(keys.filter(k => o[k] !== undefined).map(k => [k, o[k]]));
const META = ['command', 'date', 'commit', 'machine', 'cpu', 'rustc', 'node', 'note'];

/** What is kept of each bench's result file. */
const KEEP = {
  keyspec: r => ({ ...pick(r, META), rows: r.rows }),
  analyze: r => ({ ...pick(r, META), rows: r.rows, rss: r.rss }),
  node: r => ({
    ...pick(r, [...META, 'records', 'runs', 'engine']),
    analyze: r.analyze,
    micros: r.micros.map(m => pick(m, ['label', 'usPerOp'])),
  }),
  finish: r => pick(r, [...META, 'preset', 'records', 'sampleKeys', 'runs', 'medianMs', 'minMs']),
  page: r => ({
    ...pick(r, [...META, 'runs', 'records']),
    fmr: pick(r.fmr, ['median', 'fcp', 'full']),
    pixels: r.pixels,
    long1m: pick(r.long1m, ['records', 'ms', 'tasks', 'max']),
    long10m: pick(r.long10m, ['records', 'ms', 'tasks', 'max']),
    throughput: r.throughput,
  }),
  size: r => ({ ...pick(r, [...META, 'dir', 'budget']), firstLoad: r.firstLoad, npmWasm: r.npmWasm }),
  rows: r => ({ ...pick(r, [...META, 'duckdbThreads', 'runs']), results: r.results }),
  spark: r => ({
    ...pick(r, [...META, 'spark', 'file', 'rows', 'cores', 'runs', 'partitions', 'loadAverage', 'loadAverageAfter']),
    jobs: r.jobs,
    memory: r.memory,
  }),
  python: r =>
    pick(r, [
      ...META,
      'runs',
      'file',
      'rows',
      'rowkeyLabSeconds',
      'rowkeyLabReadSeconds',
      'duckdbThreads',
      'duckdbSeconds',
      'ratio',
      'rowkeyLabCpuSeconds',
      'duckdbCpuSeconds',
      'loadAverage',
      'sameWrites',
    ]),
  'page-rows': r =>
    pick(r, [...META, 'runs', 'file', 'bytes', 'rows', 'pageOpenMs', 'pageRunMs', 'cliMs', 'cliProfileMs', 'ratio']),
  advise: r =>
    pick(r, [...META, 'preset', 'candidates', 'records', 'cores', 'oneThread', 'allCores', 'speedup', 'loadAverage']),
  life: r => ({ ...pick(r, [...META, 'loadAverage']), rows: r.rows }),
  'life-page': r =>
    pick(r, [
      ...META,
      'runs',
      'months',
      'servers',
      'regions',
      'pageMs',
      'nodeMs',
      'pageFirstMs',
      'nodeFirstMs',
      'ratio',
      'loadAverage',
    ]),
  'life-rows': r =>
    pick(r, [
      ...META,
      'runs',
      'rows',
      'kept',
      'months',
      'servers',
      'regions',
      'analyzeMs',
      'lifeMs',
      'ratio',
      'analyzeRssKiB',
      'lifeRssKiB',
      'loadAverage',
    ]),
  rekey: r =>
    pick(r, [
      ...META,
      'runs',
      'rows',
      'regions',
      'splitKeysExact',
      'analyzeMs',
      'rekeyMs',
      'ratio',
      'pairRatios',
      'analyzeRssKiB',
      'rekeyRssKiB',
      'analyzeNewMs',
      'ratioNew',
      'analyzeNewRssKiB',
      'loadAverage',
    ]),
};

const store = JSON.parse(readFileSync(at(STORE), 'utf8'));
const {
  values: { check, only },
} = parseArgs({ options: { check: { type: 'boolean', default: false }, only: { type: 'string' } } });
if (only !== undefined && !Object.hasOwn(KEEP, only))
  throw new Error(`--only takes one of ${Object.keys(KEEP).join(', ')}, not ${only}`);
if (!check) {
  for (const name of Object.keys(KEEP)) {
    if (only !== undefined && name !== only) continue;
    const file = at(`target/bench/${name}.json`);
    if (!existsSync(file)) continue;
    const result = JSON.parse(readFileSync(file, 'utf8'));
    if (store[name] && result.date < store[name].date) {
      console.error(`[bench-table] target/bench/${name}.json (${result.date}) is older than ${STORE}'s; skipped`);
      continue;
    }
    store[name] = KEEP[name](result);
    console.error(`[bench-table] ${name}: target/bench/${name}.json (${result.date})`);
  }
}

const md = benchmarksMd(store);
if (check) {
  const ok = existsSync(at(DOC)) && readFileSync(at(DOC), 'utf8') === md;
  console.error(ok ? `[bench-table] ${DOC} is up to date` : `[bench-table] ${DOC} differs from what ${STORE} gives`);
  process.exit(ok ? 0 : 1);
}
writeFileSync(at(STORE), `${JSON.stringify(store, null, 2)}\n`);
writeFileSync(at(DOC), md);
console.error(`[bench-table] wrote ${STORE} and ${DOC}`);
