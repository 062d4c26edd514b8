#!/usr/bin/env node
// Node benchmark of the built npm package (pkg/node): times inspect, splitKeys and, when the
// build has it, analyzeDesign per preset; writes docs/bench-node.md. The wasm/native ratio
// needs the native benchmark on the same scenarios (not yet here).
// Usage: bash scripts/build-npm.sh && node scripts/bench-node.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import * as m from '../pkg/node/index.js';

function time(label, fn, minMs = 300) {
  fn();
  let n = 0; const t0 = performance.now(); let t = t0;
  while (t - t0 < minMs) { fn(); n++; t = performance.now(); }
  return { label, runs: n, usPerOp: ((t - t0) * 1000) / n };
}
const rows = [
  time('inspect("13412341234", string, 16 regions)', () => m.inspect('13412341234', { type: 'string', regions: 16 })),
  time('inspect(long, 4096 regions)', () => m.inspect('1700000000000', { type: 'long', regions: 4096 })),
  time('splitKeys(HexStringSplit, 16)', () => m.splitKeys('HexStringSplit', 16)),
  time('splitKeys(UniformSplit, 4096)', () => m.splitKeys('UniformSplit', 4096)),
  time('md5Hex(1 KiB)', () => m.md5Hex(new Uint8Array(1024))),
];
if (typeof m.analyzeDesign === 'function') {
  for (const p of m.listPresets()) {
    const doc = m.getPreset(p.id);
    rows.push(time(`analyzeDesign(${p.id})`, () => m.analyzeDesign(doc), 1000));
  }
}
const md = [
  '# Node benchmark of the npm package', '',
  `Command: \`bash scripts/build-npm.sh && node scripts/bench-node.mjs\`. Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}.`,
  typeof m.analyzeDesign === 'function' ? '' : '\nanalyzeDesign is not in this build yet: only the byte helpers are timed.\n',
  '| operation | runs | µs/op |', '|---|---:|---:|',
  ...rows.map(r => `| ${r.label} | ${r.runs} | ${r.usPerOp.toFixed(2)} |`), '',
].join('\n');
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(new URL('../docs/bench-node.md', import.meta.url), md);
console.log(md);
