// The benchmarks measure what ships. scripts/test.sh builds the speed and rows wasm with the tests'
// profiles (ROWKEY_LAB_TEST_BUILDS=1: no fat LTO, no wasm-opt; Cargo.toml says why), so a
// benchmark run after the tests would time slower builds than users get: it stops here instead.
// Each build writes the profile that made it beside its folder (scripts/build-*.sh).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Where each build's profile is written (the tests' profiles are named `*-test`). */
const PROFILE = {
  'pkg/node': 'pkg/node-profile',
  'pkg/web': 'pkg/web-profile',
  'pkg/native': 'pkg/native/.profile',
  'www/pkg/fast': 'www/pkg/fast/.profile',
  'www/pkg/rows': 'www/pkg/rows/.profile',
};
const HOW = {
  pkg: 'bash scripts/build-npm.sh',
  'pkg/native': 'bash scripts/build-native.sh',
  www: 'bash scripts/build-wasm.sh && node scripts/build-page.mjs',
};
/** The tests' profiles: `*-test`, and the native tests' (the native engine's test build). */
const testProfile = p => p.endsWith('-test') || p === 'native-tests';

/** Exits (status 2) unless each folder named (keys of PROFILE) holds the build that ships. */
export function requireShipped(...folders) {
  for (const folder of folders) {
    const file = PROFILE[folder];
    const at = path.join(ROOT, file);
    const profile = existsSync(at) ? readFileSync(at, 'utf8').trim() : '';
    if (profile && !testProfile(profile)) continue;
    const how = HOW[folder] ?? HOW[folder.split('/')[0]];
    console.error(
      profile
        ? `${folder} was built with the tests' profile (${profile}); benchmarks time the build that ships: ${how}`
        : `${folder} is missing or predates ${file}: ${how}`,
    );
    process.exit(2);
  }
}
