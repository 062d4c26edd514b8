// The packages a release publishes (scripts/pack.mjs, issue 70): rowkey-lab's manifest lists the
// platform package built here as an optional dependency at its own version; installed into a
// fresh folder alone it runs the wasm build (the optional dependency is not published, and npm
// skips it), and with the platform package beside it the native engine, without being told.
// Skipped, saying why, when the native engine is not built; ROWKEY_LAB_REQUIRE_NATIVE=1 (--full)
// makes that a failure.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const NATIVE = path.join(ROOT, 'pkg/native');
const platforms = existsSync(NATIVE)
  ? readdirSync(NATIVE).filter(p => existsSync(path.join(NATIVE, p, 'package.json')))
  : [];
const SKIP =
  NOT_BUILT || (platforms.length ? false : 'no platform package in pkg/native (bash scripts/build-native.sh)');
if (SKIP && process.env.ROWKEY_LAB_REQUIRE_NATIVE === '1') throw new Error(SKIP);

describe('the release packages', { skip: SKIP }, () => {
  const out = mkdtempSync(path.join(tmpdir(), 'rowkey-release-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  const tarballs = () =>
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/pack.mjs'), '--out', out], { encoding: 'utf8' })
      .trim()
      .split('\n');
  /** A fresh folder with `tgz` installed, and the engine `import 'rowkey-lab'` runs there. */
  const install = (name, ...tgz) => {
    const dir = path.join(out, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tgz], {
      cwd: dir,
      stdio: 'pipe',
    });
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import { engine } from 'rowkey-lab'; console.log(engine())"],
      {
        cwd: dir,
        env: { ...process.env, ROWKEY_LAB_ENGINE: '' },
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    return { dir, engine: r.stdout.trim() };
  };

  test('rowkey-lab lists each platform package as an optional dependency; alone it runs wasm, beside its platform package native', () => {
    const [main, ...platform] = tarballs();
    assert.equal(path.basename(main), `rowkey-lab-${version}.tgz`);
    assert.equal(platform.length, platforms.length);
    const manifest = JSON.parse(execFileSync('tar', ['xzf', main, '-O', 'package/package.json'], { encoding: 'utf8' }));
    const names = platforms.map(p => JSON.parse(readFileSync(path.join(NATIVE, p, 'package.json'), 'utf8')).name);
    assert.deepEqual(manifest.optionalDependencies, Object.fromEntries(names.map(n => [n, version])));
    // the repository's own manifest lists none (npm ci here fetches nothing it builds)
    assert.equal(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).optionalDependencies, undefined);
    // the files npm packs from the root, and no more
    const files = t => execFileSync('tar', ['tzf', t], { encoding: 'utf8' }).trim().split('\n').sort();
    const root = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: ROOT, encoding: 'utf8' }),
    )[0];
    assert.deepEqual(files(main), root.files.map(f => `package/${f.path}`).sort());
    assert.equal(install('alone', main).engine, 'wasm');
    const both = install('both', main, ...platform);
    assert.equal(both.engine, 'native');
    const v = spawnSync(
      process.execPath,
      [path.join(both.dir, 'node_modules/rowkey-lab/bin/rowkey-lab.mjs'), '--version'],
      {
        encoding: 'utf8',
        env: { ...process.env, ROWKEY_LAB_ENGINE: '' },
      },
    );
    assert.match(v.stdout, /\(engine: native\)$/m);
  });
});
