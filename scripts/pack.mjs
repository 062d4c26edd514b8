// The npm packages a release publishes (issue 70): rowkey-lab itself, whose manifest lists each
// platform package built into pkg/native/ (scripts/build-native.sh) as an optional dependency at
// the same version, and those platform packages. A user installs rowkey-lab; npm installs the one
// platform package whose `os`, `cpu` and `libc` match the machine (optional dependencies that do
// not match, or are not published, are skipped), and the package's Node entry loads it, the wasm
// build being the fallback (npm/node/engine.js).
//
// The repository's package.json lists no optional dependency: `npm ci` here would ask the
// registry for platform packages that are built here, not fetched. The release manifest is the
// root's with them added, packed from a copy of exactly the files `npm pack` takes from the root.
//
//   node scripts/pack.mjs [--out DIR]     (default target/pack; prints the tarballs' paths)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = path.resolve(values.out ?? path.join(ROOT, 'target/pack'));

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8' });
/** The tarball `npm pack` writes for `dir` into `out`, by its path. */
const pack = dir => path.join(out, npm(['pack', '--pack-destination', out, '--silent'], dir).trim().split('\n').pop());

if (!existsSync(path.join(ROOT, 'pkg/node/index.js')))
  throw new Error(
    'pkg/ is not built: bash scripts/build-npm.sh (and scripts/build-native.sh for the platform package)',
  );
const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nativeDir = path.join(ROOT, 'pkg/native');
const platforms = existsSync(nativeDir)
  ? readdirSync(nativeDir).filter(p => existsSync(path.join(nativeDir, p, 'package.json')))
  : [];
mkdirSync(out, { recursive: true });

const optional = {};
const tarballs = [];
for (const p of platforms) {
  const manifest = JSON.parse(readFileSync(path.join(nativeDir, p, 'package.json'), 'utf8'));
  if (manifest.version !== root.version)
    throw new Error(`${manifest.name} is ${manifest.version}, rowkey-lab ${root.version}: build-native.sh again`);
  optional[manifest.name] = manifest.version;
  tarballs.push(pack(path.join(nativeDir, p)));
}

// rowkey-lab: the files `npm pack` takes from the root, copied, with the release manifest
const stage = path.join(out, 'rowkey-lab');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
const [listing] = JSON.parse(npm(['pack', '--dry-run', '--json', '--silent'], ROOT));
for (const { path: f } of listing.files) {
  if (f === 'package.json') continue;
  mkdirSync(path.dirname(path.join(stage, f)), { recursive: true });
  cpSync(path.join(ROOT, f), path.join(stage, f));
}
const release = { ...root, optionalDependencies: { ...(root.optionalDependencies ?? {}), ...optional } };
delete release.devDependencies;
delete release.scripts;
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(release, null, 2)}\n`);
tarballs.unshift(pack(stage));
rmSync(stage, { recursive: true, force: true });

for (const t of tarballs) console.log(t);
if (platforms.length === 0)
  process.stderr.write('pack: no platform package in pkg/native (scripts/build-native.sh): rowkey-lab alone, wasm\n');
