// Both engines of the package's Node entry in one test process (issue 73, item 4): the hostile
// cases run on the wasm build and on the native addon without running their files twice. Each
// engine is a module graph of its own: the checkout's pkg/node/ on the engine it loads by default
// (npm/node/engine.js: native when pkg/native/<platform> is built), and a copy of pkg/node/ and
// pkg/shared/ in a temporary folder imported with ROWKEY_LAB_ENGINE set to the other. The native
// engine answers only some calls (npm/node/index.js: analyzeDesign, checkDesign, validateDesign,
// lintDesign, and analyzeRowsParallel over a file's path) and the wasm build's functions answer
// the rest on both: `answers(name)` says which, from the functions themselves, so a test says so
// instead of counting a wasm call as the native engine's.
// Without the native engine built the native side is skipped, saying why; with
// ROWKEY_LAB_REQUIRE_NATIVE=1 (scripts/test.sh --full and its npm lane) that is a failure.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.mjs';
import { NOT_BUILT } from './npm-helpers.mjs';

/** The engines, in the order the tests run them. */
export const ENGINES = ['wasm', 'native'];

const ENTRY = path.join(ROOT, 'pkg/node');

/** `f()` with the environment variables `vars` set (undefined: unset), restored after. */
async function withEnv(vars, f) {
  const saved = Object.fromEntries(Object.keys(vars).map(k => [k, process.env[k]]));
  const set = v => {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    }
  };
  set(vars);
  try {
    return await f();
  } finally {
    set(saved);
  }
}

let copies;
/** A copy of pkg/node and pkg/shared: a second module graph of the same files. */
function copy() {
  if (!copies) {
    copies = mkdtempSync(path.join(tmpdir(), 'rowkey-engine-'));
    for (const d of ['node', 'shared']) cpSync(path.join(ROOT, 'pkg', d), path.join(copies, d), { recursive: true });
    process.on('exit', () => rmSync(copies, { recursive: true, force: true }));
  }
  return path.join(copies, 'node');
}

/** The native addon this checkout built (scripts/build-native.sh), if any. */
function nativeBinary() {
  const dir = path.join(ROOT, 'pkg/native');
  const base = `${process.platform}-${process.arch}`;
  for (const p of process.platform === 'linux' ? [`${base}-gnu`, `${base}-musl`] : [base]) {
    const f = path.join(dir, p, 'rowkey_lab.node');
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** Imports `dir`'s index.js and rowkey_lab.js (the wasm glue) with `vars` set. */
async function load(dir, vars) {
  return withEnv(vars, async () => ({
    m: await import(pathToFileURL(path.join(dir, 'index.js')).href),
    glue: await import(pathToFileURL(path.join(dir, 'rowkey_lab.js')).href),
  }));
}

const loaded = new Map();
/**
 * The package's Node entry on `engine` in this process: `{engine, m, glue, answers}`, or
 * `{engine, skip}` (why it cannot run here). `answers(name)`: whether the export `name` is the
 * native engine's own (false for every call on wasm, and for a call the native engine leaves to
 * the wasm build: the export is then the glue's very function).
 */
export function onEngine(engine) {
  if (!loaded.has(engine)) loaded.set(engine, loadEngine(engine));
  return loaded.get(engine);
}

async function loadEngine(engine) {
  if (NOT_BUILT) return { engine, skip: NOT_BUILT };
  let api;
  try {
    // the checkout's entry on the engine it picks; when that is the other, a copy on this one
    api = await load(ENTRY, {});
    if (api.m.engine() !== engine) {
      const binary = engine === 'native' ? nativeBinary() : undefined;
      if (engine === 'native' && !binary) throw new Error('pkg/native/ holds no addon for this platform');
      api = await load(copy(), { ROWKEY_LAB_ENGINE: engine, ROWKEY_LAB_NATIVE: binary });
    }
  } catch (e) {
    const skip = `the ${engine} engine does not load (bash scripts/build-native.sh builds the native one): ${e.message}`;
    if (engine === 'native' && process.env.ROWKEY_LAB_REQUIRE_NATIVE === '1') throw new Error(skip);
    return { engine, skip };
  }
  const { m, glue } = api;
  if (m.engine() !== engine) throw new Error(`asked for the ${engine} engine, the package runs ${m.engine()}`);
  return { engine, m, glue, answers: name => engine === 'native' && name in glue && m[name] !== glue[name] };
}

/** What a test of a call the native engine leaves to the wasm build says instead of running it again. */
export const fallback = name =>
  `the native engine does not answer ${name}: the package calls the wasm build's (the same function, checked), run on wasm`;
