// The benchmarks measure what ships. scripts/test.sh builds the npm package's Node wasm with the
// tests' profile (`wasm-fast-test`: no fat LTO, no wasm-opt; Cargo.toml says why), so a benchmark
// run after the tests would time a slower build than users get: it stops here instead.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const FILE = path.resolve(import.meta.dirname, '../pkg/node-profile');

/** Exits (status 2) unless pkg/node is the shipped speed build (profile `wasm-fast`). */
export function requireShippedNodeBuild() {
  const profile = existsSync(FILE) ? readFileSync(FILE, 'utf8').trim() : '';
  if (profile === 'wasm-fast') return;
  console.error(
    profile
      ? `pkg/node was built with the tests' profile (${profile}); benchmarks time the shipped build: bash scripts/build-npm.sh`
      : 'pkg/node is missing or predates pkg/node-profile: bash scripts/build-npm.sh',
  );
  process.exit(2);
}
