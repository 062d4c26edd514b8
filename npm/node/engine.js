// Which engine the Node package runs (pkg/node/engine.js): the native Node-API addon
// (node/, built by scripts/build-native.sh into the platform's package, rowkey-lab-<platform>)
// when its binary loads, else the wasm build, silently. ROWKEY_LAB_ENGINE=wasm|native chooses;
// `native` when no binary loads is an error saying why. ROWKEY_LAB_NATIVE names a binary to
// load instead of the platform package's (tests, a local build).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The platform packages' suffixes for this machine, most likely first (`linux-x64-gnu`). */
export function platforms() {
  const base = `${process.platform}-${process.arch}`;
  return process.platform === 'linux' ? [`${base}-gnu`, `${base}-musl`] : [base];
}

/** The native engine's module, or the reasons none loads (`{native, errors}`). */
function loadNative() {
  const tries = [];
  if (process.env.ROWKEY_LAB_NATIVE) tries.push(process.env.ROWKEY_LAB_NATIVE);
  for (const p of platforms()) {
    tries.push(`rowkey-lab-${p}`);
    // a checkout's build (scripts/build-native.sh writes the platform package into pkg/native/)
    const local = fileURLToPath(new URL(`../native/${p}/rowkey_lab.node`, import.meta.url));
    if (existsSync(local)) tries.push(local);
  }
  const errors = [];
  for (const t of tries) {
    try {
      const native = require(t);
      if (native?.engine?.() === 'native') return { native, errors };
      errors.push(`${t}: not the rowkey-lab engine`);
    } catch (e) {
      errors.push(`${t}: ${e.code ?? e.message}`);
    }
  }
  return { native: null, errors };
}

const wanted = process.env.ROWKEY_LAB_ENGINE || undefined;
if (wanted !== undefined && wanted !== 'wasm' && wanted !== 'native')
  throw new Error(`ROWKEY_LAB_ENGINE: expected wasm or native, not ${JSON.stringify(wanted)}`);
const loaded = wanted === 'wasm' ? { native: null, errors: [] } : loadNative();
if (wanted === 'native' && !loaded.native)
  throw new Error(
    `ROWKEY_LAB_ENGINE=native: no native engine loads for ${platforms()[0]} (${loaded.errors.join('; ') || 'nothing to load'})`,
  );

/** The native addon's module, or null when the wasm build runs. */
export const native = loaded.native;
/** `'native'` or `'wasm'`: the engine this package runs. */
export const engineName = native ? 'native' : 'wasm';
/** The package's `engine()`: which engine answers. */
export const engine = () => engineName;
