#!/usr/bin/env node
// Node benchmark of the built npm package (the files `npm pack` ships) against the native
// benchmark, in one run: analyzeDesign on the telecom scenario of benches/analyze.rs (same
// document, 64 regions, 256 windows, String.hashCode and MD5 buckets), median of 9, through
// both wasm builds in one process — pkg/node (what Node imports: the speed build) and pkg/web
// (what browsers and bundlers get: the size build) — alternating run by run with the native
// bench binary (`cargo bench --bench analyze -- once <hash> N`); prints the wasm/native ratios
// and writes them to target/bench/node.json (scripts/bench-table.mjs puts them in docs/BENCHMARKS.md). Also times the
// byte helpers through the Node entry.
// Usage: bash scripts/build-npm.sh && node scripts/bench-node.mjs [records=1000000]
// (BENCH_RUNS=N for N rounds instead of 9).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as m from '../pkg/node/index.js';
import * as nodeWasm from '../pkg/node/rowkey_lab.js';
import * as web from '../pkg/web/rowkey_lab.js';
import { telecomDoc } from './bench-design.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node', 'pkg/web');
web.initSync({ module: readFileSync(new URL('../pkg/web/rowkey_lab_bg.wasm', import.meta.url)) });
// The package as a user imports it runs the native engine when its platform package is there
// (pkg/native, scripts/build-native.sh): timed as such (`package`), beside its Node wasm called
// directly (`node`: the glue pkg/node/index.js initialised at import, which the package falls
// back to) and the browser build.
const ENGINE = m.engine();
if (ENGINE === 'native') requireShipped('pkg/native');

const ROOT = new URL('..', import.meta.url).pathname;
const N = Number(process.argv[2] ?? process.env.ANALYZE_BENCH_RECORDS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const doc = hash => telecomDoc(hash, N);

/** µs per op (per item when one call does `per` of them). */
function micro(label, fn, minMs = 300, per = 1) {
  fn();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    fn();
    n++;
    t = performance.now();
  }
  return { label, runs: n, usPerOp: ((t - t0) * 1000) / n / per };
}

// The native bench binary, built once; its `once <hash> N` mode times one analysis (after a
// warm-up run), so native runs can alternate with the wasm ones and all see the same load.
console.error('[native] cargo bench --no-run --bench analyze …');
const built = execFileSync('cargo', ['bench', '--no-run', '--bench', 'analyze', '--message-format=json'], {
  cwd: ROOT,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const benchBin = built
  .split('\n')
  .filter(Boolean)
  .map(l => JSON.parse(l))
  .find(x => x.reason === 'compiler-artifact' && x.target?.name === 'analyze' && x.executable)?.executable;
if (!benchBin) throw new Error('cargo bench --no-run gave no analyze executable');
const nativeRun = hash => {
  const out = execFileSync(benchBin, ['once', hash, String(N)], { encoding: 'utf8' });
  const x = out.match(/^once: ([\d.]+)/m);
  if (!x) throw new Error(`unexpected native output: ${out}`);
  return Number(x[1]);
};

const wasm = {},
  browser = {},
  native = {},
  ratios = {};
const pkg = {};
const builds = [
  ['package', m, pkg],
  ['node', nodeWasm, wasm],
  ['web', web, browser],
];
const JVM = { 'String.hashCode bucket': 9, 'MD5 bucket': 4.3 };
for (const [label, hash] of [
  ['String.hashCode bucket', 'javaString'],
  ['MD5 bucket', 'md5'],
]) {
  const d = doc(hash);
  const times = { package: [], node: [], web: [], native: [] };
  for (const [, mod] of builds) mod.analyzeDesign(d, { windows: 256 }); // warm-up (JIT tiers)
  for (let i = 0; i < RUNS; i++) {
    for (const [name, mod] of builds) {
      const t0 = performance.now();
      const r = mod.analyzeDesign(d, { windows: 256 });
      times[name].push((performance.now() - t0) / 1000);
      if (r.writes !== N || r.regions.length !== 64)
        throw new Error(`unexpected report: ${r.writes} writes, ${r.regions.length} regions`);
    }
    times.native.push(nativeRun(hash));
  }
  // Each round's own ratio (its wasm and native runs are seconds apart): the median of these
  // follows the machine's swings less than the ratio of the medians.
  const med = a => [...a].sort((x, y) => x - y)[a.length >> 1];
  ratios[label] = {
    package: med(times.native.map((t, i) => t / times.package[i])),
    node: med(times.native.map((t, i) => t / times.node[i])),
    web: med(times.native.map((t, i) => t / times.web[i])),
  };
  for (const [name, into] of [
    ['package', pkg],
    ['node', wasm],
    ['web', browser],
    ['native', native],
  ]) {
    const t = times[name].sort((a, b) => a - b);
    into[label] = { median: t[RUNS >> 1], mps: N / t[RUNS >> 1] / 1e6, jvm: JVM[label] };
    console.error(
      `[${name}] ${label}: median ${into[label].median.toFixed(3)} s, ${into[label].mps.toFixed(2)} M records/s`,
    );
  }
}

const micros = [
  micro('inspect("13412341234", string, 16 regions)', () => m.inspect('13412341234', { type: 'string', regions: 16 })),
  micro('splitKeys(HexStringSplit, 16)', () => m.splitKeys('HexStringSplit', 16)),
  micro('splitKeys(UniformSplit, 4096)', () => m.splitKeys('UniformSplit', 4096)),
  micro('md5Hex(1 KiB)', () => m.md5Hex(new Uint8Array(1024))),
  micro(
    'encodeKey(seed000-telecom example)',
    (() => {
      const d = m.getPreset('seed000-telecom');
      const rec = d.examples[0].record;
      return () => m.encodeKey(d, rec);
    })(),
  ),
  // The design compiled once (KeyCodec): the document is not read again per record.
  micro(
    'KeyCodec(seed000-telecom).encode(example)',
    (() => {
      const d = m.getPreset('seed000-telecom');
      const c = new m.KeyCodec(d);
      const rec = d.examples[0].record;
      return () => c.encode(rec);
    })(),
  ),
  micro(
    'KeyCodec(seed000-telecom).encodeAll(10,000 records), per record',
    (() => {
      const c = new m.KeyCodec(m.getPreset('seed000-telecom'));
      const recs = Array.from({ length: 10_000 }, (_, i) => ({
        phone: String(13400000000 + i * 7919),
        ts: 1631003400000 + i * 1000,
      }));
      return () => c.encodeAll(recs);
    })(),
    300,
    10_000,
  ),
  micro(
    'decodeKey(seed000-telecom key)',
    (() => {
      const d = m.getPreset('seed000-telecom');
      const k = m.encodeKey(d, d.examples[0].record);
      return () => m.decodeKey(d, k);
    })(),
  ),
  micro(
    'KeyCodec(seed000-telecom).decode(key)',
    (() => {
      const d = m.getPreset('seed000-telecom');
      const c = new m.KeyCodec(d);
      const k = c.encode(d.examples[0].record);
      return () => c.decode(k);
    })(),
  ),
];

const cpu = `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}`;
const md = [
  '# Node benchmark of the npm package vs native',
  '',
  `Command: \`bash scripts/build-npm.sh && ${RUNS === 9 ? '' : `BENCH_RUNS=${RUNS} `}node scripts/bench-node.mjs ${N}\` (one run; each round times the Node`,
  `wasm, the browser wasm and the native bench binary (\`cargo bench --bench analyze -- once <hash> ${N}\`, a warm-up`,
  `analysis then a timed one) back to back, so all three see the same machine load). Node ${process.version}, ${cpu},`,
  `${new Date().toISOString().slice(0, 10)}.`,
  '',
  `Scenario (benches/analyze.rs): telecom, ${N.toLocaleString('en')} records, 64 pre-split regions, 256 windows, key`,
  '`salt(phone, 64, hash=…, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")`. Median of ' +
    RUNS +
    ' runs each;',
  'the wasm side is `analyzeDesign(doc, {windows: 256})`, including the JSON result crossing the boundary,',
  'through both builds `npm pack` ships, alternating in one process: **Node** = `pkg/node` (what',
  "`import … from 'rowkey-lab'` loads in Node and what the CLI runs: `--features library,fast`, profile `wasm-fast`",
  'at opt-level 3, `wasm-opt -O1`) and **browser** = `pkg/web` (bundlers, the page: opt-level "z",',
  '`wasm-opt -Oz`, size-budgeted). The native side is the bench profile (opt-level 3).',
  '',
  '| scenario | Node wasm M rec/s | browser wasm M rec/s | native M rec/s | Node / native | browser / native | Node / native, median of rounds | JVM reference M rec/s |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...Object.keys(wasm).map(
    k =>
      `| ${k} | ${wasm[k].mps.toFixed(2)} | ${browser[k].mps.toFixed(2)} | ${native[k].mps.toFixed(2)} | ${(wasm[k].mps / native[k].mps).toFixed(2)}× | ${(browser[k].mps / native[k].mps).toFixed(2)}× | ${ratios[k].node.toFixed(2)}× | ${native[k].jvm} |`,
  ),
  '',
  'The ratio columns divide the medians; "median of rounds" is the median of each round\'s own',
  "Node / native ratio (its two runs are seconds apart, so it follows the machine's swings less).",
  '',
  'Goal (issue 5): wasm ≥ 0.8× native for analyze.',
  '',
  '## Byte helpers through the boundary',
  '',
  '| operation | runs | µs/op |',
  '|---|---:|---:|',
  ...micros.map(r => `| ${r.label} | ${r.runs} | ${r.usPerOp.toFixed(2)} |`),
  '',
].join('\n');
// The figures for docs/BENCHMARKS.md (scripts/bench-table.mjs); docs/bench-node.md holds the method.
const result = {
  bench: 'node',
  command: `bash scripts/build-npm.sh && ${RUNS === 9 ? '' : `BENCH_RUNS=${RUNS} `}node scripts/bench-node.mjs ${N}`,
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  cpu,
  records: N,
  runs: RUNS,
  engine: ENGINE,
  analyze: Object.keys(wasm).map(k => ({
    design: k,
    packageMps: pkg[k].mps,
    packageRoundsRatio: ratios[k].package,
    nodeMps: wasm[k].mps,
    webMps: browser[k].mps,
    nativeMps: native[k].mps,
    nodeRoundsRatio: ratios[k].node,
    jvmMps: native[k].jvm,
  })),
  micros,
};
mkdirSync(new URL('../target/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../target/bench/node.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
console.log(md);
