#!/usr/bin/env node
// Node benchmark of the built npm package (pkg/node, the files `npm pack` ships) against the
// native benchmark, in one run: analyzeDesign on the telecom scenario of benches/analyze.rs
// (same document, 64 regions, 256 windows, String.hashCode and MD5 buckets), median of 5, then
// `cargo bench --bench analyze` with the same record count; prints the wasm/native ratio and
// writes docs/bench-node.md. Also times the byte helpers.
// Usage: bash scripts/build-npm.sh && node scripts/bench-node.mjs [records=1000000]
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import * as m from '../pkg/node/index.js';

const ROOT = new URL('..', import.meta.url).pathname;
const N = Number(process.argv[2] ?? process.env.ANALYZE_BENCH_RECORDS ?? 1_000_000);
const RUNS = 5;

// benches/analyze.rs `doc(hash, records)`, verbatim.
const doc = hash => ({
  v: 1, name: `telecom ${hash}`,
  fields: [
    { name: 'phone', type: 'string', generator: { kind: 'phone', prefixes: ['134', '135', '138', '188'], digits: 8, distinct: 1000000 } },
    { name: 'ts', type: 'timestamp', generator: { kind: 'clock' } }],
  key: `salt(phone, 64, hash=${hash}, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")`,
  workload: { records: N, seed: 1, writeRate: 10000 },
  regions: { presplit: { kind: 'saltBuckets', buckets: 64, style: 'decimal', width: 2 } },
});

function micro(label, fn, minMs = 300) {
  fn();
  let n = 0; const t0 = performance.now(); let t = t0;
  while (t - t0 < minMs) { fn(); n++; t = performance.now(); }
  return { label, runs: n, usPerOp: ((t - t0) * 1000) / n };
}

const wasm = {};
for (const [label, hash] of [['String.hashCode bucket', 'javaString'], ['MD5 bucket', 'md5']]) {
  const d = doc(hash); const times = [];
  m.analyzeDesign(d, { windows: 256 }); // warm-up (JIT-compiles the wasm tiers)
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = m.analyzeDesign(d, { windows: 256 });
    times.push((performance.now() - t0) / 1000);
    if (r.writes !== N || r.regions.length !== 64) throw new Error(`unexpected report: ${r.writes} writes, ${r.regions.length} regions`);
  }
  times.sort((a, b) => a - b);
  wasm[label] = { median: times[RUNS >> 1], mps: N / times[RUNS >> 1] / 1e6 };
  console.error(`[wasm]   ${label}: median ${wasm[label].median.toFixed(3)} s, ${wasm[label].mps.toFixed(2)} M records/s`);
}

console.error(`[native] cargo bench --bench analyze (ANALYZE_BENCH_RECORDS=${N}) …`);
const nativeOut = execFileSync('cargo', ['bench', '--quiet', '--bench', 'analyze'], {
  cwd: ROOT, encoding: 'utf8', env: { ...process.env, ANALYZE_BENCH_RECORDS: String(N) }, stdio: ['ignore', 'pipe', 'inherit'],
});
const native = {};
for (const line of nativeOut.split('\n')) {
  const x = line.match(/^(.+?)\s+(\d+) records: median ([\d.]+) s, ([\d.]+) M records\/s \(JVM reference ([\d.]+) M\/s\)/);
  if (x) native[x[1].trim()] = { median: Number(x[3]), mps: Number(x[4]), jvm: Number(x[5]) };
}
for (const k of Object.keys(wasm)) if (!native[k]) throw new Error(`no native figure for ${k} in:\n${nativeOut}`);

const micros = [
  micro('inspect("13412341234", string, 16 regions)', () => m.inspect('13412341234', { type: 'string', regions: 16 })),
  micro('splitKeys(HexStringSplit, 16)', () => m.splitKeys('HexStringSplit', 16)),
  micro('splitKeys(UniformSplit, 4096)', () => m.splitKeys('UniformSplit', 4096)),
  micro('md5Hex(1 KiB)', () => m.md5Hex(new Uint8Array(1024))),
  micro('encodeKey(seed000-telecom example)', (() => { const d = m.getPreset('seed000-telecom'); const rec = d.examples[0].record; return () => m.encodeKey(d, rec); })()),
];

const cpu = `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}`;
const md = [
  '# Node benchmark of the npm package vs native', '',
  `Command: \`bash scripts/build-npm.sh && node scripts/bench-node.mjs ${N}\` (one run: the wasm figures, then`,
  `\`ANALYZE_BENCH_RECORDS=${N} cargo bench --bench analyze\` for the native ones). Node ${process.version}, ${cpu},`,
  `${new Date().toISOString().slice(0, 10)}.`, '',
  `Scenario (benches/analyze.rs): telecom, ${N.toLocaleString('en')} records, 64 pre-split regions, 256 windows, key`,
  '`salt(phone, 64, hash=…, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")`. Median of 5 runs each;',
  'the wasm side is `analyzeDesign(doc, {windows: 256})` from `pkg/node` (what `npm pack` ships; wasm-opt -Oz,',
  'the crate at opt-level "z"), including the JSON result crossing the boundary. The native side is the',
  'bench profile (opt-level 3).', '',
  '| scenario | wasm (Node) M rec/s | native M rec/s | wasm / native | JVM reference M rec/s |',
  '|---|---:|---:|---:|---:|',
  ...Object.keys(wasm).map(k => `| ${k} | ${wasm[k].mps.toFixed(2)} | ${native[k].mps.toFixed(2)} | ${(wasm[k].mps / native[k].mps).toFixed(2)}× | ${native[k].jvm} |`),
  '', 'Goal (issue 5): wasm ≥ 0.8× native for analyze.', '',
  '## Byte helpers through the boundary', '',
  '| operation | runs | µs/op |', '|---|---:|---:|',
  ...micros.map(r => `| ${r.label} | ${r.runs} | ${r.usPerOp.toFixed(2)} |`), '',
].join('\n');
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(new URL('../docs/bench-node.md', import.meta.url), md);
console.log(md);
