// Shared by npm.test.mjs and cli.test.mjs: pack the package once per process and install the
// tarball into a fresh consumer folder. Its one dependency (@streamparser/json, for the CLI) comes
// from npm's cache when it is there (--prefer-offline); on a fresh machine npm ci cached only the
// tarball, not the registry's metadata that an install by name needs, so npm may ask the registry.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './helpers.mjs';

export const PKG_BUILT = existsSync(path.join(ROOT, 'pkg/node/index.js'));
export const NOT_BUILT = PKG_BUILT ? false : 'pkg/ not built: run bash scripts/build-npm.sh';

let cached;
/** { dir, tgz, mod } where dir/node_modules/rowkey-lab is the installed tarball. */
export async function installed() {
  if (cached) return cached;
  const dir = mkdtempSync(path.join(tmpdir(), 'rowkey-consumer-'));
  const out = execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, encoding: 'utf8' });
  const tgz = path.join(dir, out.trim().split('\n').pop());
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tgz], { cwd: dir, stdio: 'pipe' });
  const entry = path.join(dir, 'node_modules/rowkey-lab/pkg/node/index.js');
  cached = { dir, tgz, entry, files: readdirSync(path.join(dir, 'node_modules/rowkey-lab/pkg')) };
  return cached;
}

/** Import 'rowkey-lab' by name from inside the consumer folder. */
export async function importByName(dir) {
  const probe = path.join(dir, 'probe.mjs');
  writeFileSync(probe, "export * as m from 'rowkey-lab';\n");
  return (await import(probe)).m;
}

/** Import 'rowkey-lab/vectors' (the test-only runVector wasm) from inside the consumer folder. */
export async function importVectorsByName(dir) {
  const probe = path.join(dir, 'probe-vectors.mjs');
  writeFileSync(probe, "export * as m from 'rowkey-lab/vectors';\n");
  return (await import(probe)).m;
}

export const VECTORS_DIR = process.env.VECTORS_DIR || path.resolve(ROOT, '../shared/vectors');
/** Functions recorded upstream; the engine claims them family by family (`vectors::NOT_YET`). */
export const VECTORS_PENDING_DIR = process.env.VECTORS_PENDING_DIR || path.resolve(ROOT, '../shared/vectors-pending');
export const hex = b => Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
