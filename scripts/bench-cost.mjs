#!/usr/bin/env node
// What a change costs the analyzer: the native telecom bench (benches/analyze.rs, `once <hash>
// N`) of this checkout against the same bench at a base commit, in one run, the two binaries
// alternating run by run so both see the same machine load. Prints each build's median seconds
// per hash and the ratio (this / base).
//   node scripts/bench-cost.mjs <base-commit> [records=10000000]   (BENCH_RUNS=N rounds, default 7)
// The base is checked out with `git worktree` under target/bench-base/ and built with its own
// target dir there (the first run builds it: minutes).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const [base, records = '10000000'] = process.argv.slice(2);
if (!base) {
  console.error('usage: node scripts/bench-cost.mjs <base-commit> [records]');
  process.exit(2);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--short', base);
const baseDir = path.join(ROOT, 'target/bench-base', commit);

/** Builds benches/analyze.rs in `dir` and returns the bench executable. */
function build(dir, env = {}) {
  console.error(`[bench-cost] cargo bench --no-run --bench analyze in ${dir}`);
  const out = execFileSync('cargo', ['bench', '--no-run', '--bench', 'analyze', '--message-format=json'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exe = out
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l))
    .find(x => x.reason === 'compiler-artifact' && x.target?.name === 'analyze' && x.executable)?.executable;
  if (!exe) throw new Error(`no analyze bench executable built in ${dir}`);
  return exe;
}

if (!existsSync(baseDir)) {
  mkdirSync(path.dirname(baseDir), { recursive: true });
  git('worktree', 'add', '--detach', baseDir, commit);
}
const bins = {
  base: build(baseDir, { CARGO_TARGET_DIR: path.join(baseDir, 'target') }),
  this: build(ROOT),
};
const once = (bin, hash) => {
  const out = execFileSync(bin, ['once', hash, records], { encoding: 'utf8' });
  const x = out.match(/^once: ([\d.]+)/m);
  if (!x) throw new Error(`unexpected bench output: ${out}`);
  return Number(x[1]);
};
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `analyzer cost: this checkout (${git('rev-parse', '--short', 'HEAD')}) against ${commit}, ${records} records, median of ${RUNS}`,
);
for (const hash of ['javaString', 'md5']) {
  const t = { base: [], this: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const which of i % 2 ? ['this', 'base'] : ['base', 'this']) t[which].push(once(bins[which], hash));
  }
  const [b, h] = [median(t.base), median(t.this)];
  console.log(`${hash.padEnd(10)} base ${b.toFixed(3)} s, this ${h.toFixed(3)} s: ${(h / b).toFixed(3)}×`);
}
