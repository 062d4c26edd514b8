// One self-contained HTML file that works from file://: dist/rowkey-lab.html.
// - The page's module scripts (in index.html order) are bundled by esbuild into one inline
//   <script type="module">; the wasm is inlined by esbuild's binary loader and started with
//   initSync (TOOLCHAIN.md §8), through a shim that replaces `./pkg/rowkey_lab.js` for the page.
// - The Web Worker cannot be a file from file://: engine/worker.js is bundled separately (classic script), its source is
//   inlined as a string and started from a blob: URL; the wasm bytes are sent in its first message
//   (a second shim replaces `./pkg/rowkey_lab.js` inside the worker).
// - Stylesheets are minified and inlined; the CSP meta is replaced by one with sha256 hashes of
//   the inline script and style, blob: workers and 'wasm-unsafe-eval'.
// Usage: node scripts/build-single.mjs [out.html]   (needs www/pkg from scripts/build-wasm.sh)

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transformSync } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WWW = path.join(ROOT, 'www');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/rowkey-lab.html'));
const PKG_JS = path.join(WWW, 'pkg/rowkey_lab.js');
const PKG_WASM = path.join(WWW, 'pkg/rowkey_lab_bg.wasm');
if (!existsSync(PKG_JS) || !existsSync(PKG_WASM)) {
  console.error('[build-single] www/pkg is missing: run `bash scripts/build-wasm.sh` first');
  process.exit(1);
}
const t0 = performance.now();

// The wasm-bindgen module as seen by the page: wasm started synchronously at import time, and a
// Worker constructor that turns `…/worker.js` into the inline worker.
const PAGE_SHIM = `
import bytes from ${JSON.stringify(PKG_WASM)};
import { initSync } from ${JSON.stringify(PKG_JS)};
import workerSource from 'rowkey-lab:worker-source';
initSync({ module: bytes });
let workerUrl = null;
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url, options) {
    if (!/(^|\\/)worker\\.js$/.test(String(url instanceof URL ? url.pathname : url))) { super(url, options); return; }
    workerUrl ??= URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
    // the fragment carries the first run (boot.js → worker.js)
    super(workerUrl + (url instanceof URL ? url.hash : String(url).replace(/^[^#]*/, '')));
    super.postMessage({ rowkeyLabWasm: bytes });
  }
};
export * from ${JSON.stringify(PKG_JS)};
export default async function init() {}
`;

// The wasm-bindgen module as seen by the worker: init() resolves once the page sent the bytes.
const WORKER_SHIM = `
import { initSync } from ${JSON.stringify(PKG_JS)};
let done;
const ready = new Promise((r) => { done = r; });
self.addEventListener('message', (e) => {
  if (!e.data || !e.data.rowkeyLabWasm) return;
  e.stopImmediatePropagation();
  initSync({ module: e.data.rowkeyLabWasm });
  done();
});
export * from ${JSON.stringify(PKG_JS)};
export default function init() { return ready; }
`;

/** esbuild plugin: `./pkg/rowkey_lab.js` imported from www/ → the given shim. */
function shimPlugin(shim, extra = {}) {
  return {
    name: 'rowkey-lab-shim',
    setup(b) {
      b.onResolve({ filter: /pkg\/rowkey_lab\.js$/ }, a => {
        if (a.importer.startsWith('rowkey-lab:') || a.namespace === 'rowkey-lab') return undefined;
        return { path: 'shim', namespace: 'rowkey-lab' };
      });
      b.onResolve({ filter: /^rowkey-lab:/ }, a => ({
        path: a.path.slice('rowkey-lab:'.length),
        namespace: 'rowkey-lab',
      }));
      b.onLoad({ filter: /.*/, namespace: 'rowkey-lab' }, a => {
        if (a.path === 'shim') return { contents: shim, loader: 'js', resolveDir: WWW };
        if (a.path in extra) return { contents: extra[a.path], loader: 'js', resolveDir: WWW };
        return undefined;
      });
    },
  };
}

const common = {
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
  target: 'es2022',
  legalComments: 'none',
  ignoreAnnotations: true, // the root package.json's sideEffects list is for the npm package
  logLevel: 'warning',
  loader: { '.wasm': 'binary' },
  // The speed build stays out: the worker's import of it fails from a blob: URL and the worker
  // runs the size build (inlined above), so the one file works without the larger wasm. So does
  // the rows build (megabytes): the one file cannot read files of rows, and says so when asked.
  external: ['../pkg/fast/*', '../pkg/rows/*'],
};

// 1. The worker, as a string.
//    A classic worker (iife): Chromium does not load a *module* worker from a blob: URL made by a
//    file:// page (opaque origin); a classic one works. import.meta is only used by the unused
//    fetch path of wasm-bindgen's default init.
const workerBuild = await build({
  ...common,
  format: 'iife',
  logOverride: { 'empty-import-meta': 'silent' },
  entryPoints: [path.join(WWW, 'engine/worker.js')],
  plugins: [shimPlugin(WORKER_SHIM)],
});
const workerSource = workerBuild.outputFiles[0].text;

// 2. The page: every local module script of index.html, in order.
let html = readFileSync(path.join(WWW, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>\s*/g)];
if (!scripts.length) throw new Error('no <script type="module" src> in www/index.html');
// The engine shim first: it replaces the Worker constructor before boot.js starts the worker.
const entry = ['./pkg/rowkey_lab.js', ...scripts.map(m => `./${m[1].replace(/^\.\//, '')}`)]
  .map(f => `import ${JSON.stringify(f)};`)
  .join('\n');
const pageBuild = await build({
  ...common,
  stdin: { contents: entry, resolveDir: WWW, sourcefile: 'single-entry.js', loader: 'js' },
  plugins: [shimPlugin(PAGE_SHIM, { 'worker-source': `export default ${JSON.stringify(workerSource)};` })],
});
const js = pageBuild.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

// 3. Stylesheets: every local <link rel="stylesheet">, minified and inlined in place. (Replacements
//    are done with functions: the minified code contains `$&`-like sequences.)
const styles = [];
html = html.replace(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^":]+)"[^>]*>/g, (_, href) => {
  const css = transformSync(readFileSync(path.join(WWW, href), 'utf8'), { loader: 'css', minify: true })
    .code.trim()
    .replace(/<\/(style)/gi, '<\\/$1');
  styles.push(css);
  return `<style>${css}</style>`;
});

// 3a. The sheets the views link when they are first drawn (rows, live table, months): inline too,
//     and the views do not link them (the page marks itself `data-single`, below).
const indexHtml = readFileSync(path.join(WWW, 'index.html'), 'utf8');
const lazySheets = readdirSync(path.join(WWW, 'views'))
  .filter(f => f.endsWith('.css') && !indexHtml.includes(`href="views/${f}"`))
  .sort();
if (lazySheets.length) {
  const css = lazySheets
    .map(f =>
      transformSync(readFileSync(path.join(WWW, 'views', f), 'utf8'), { loader: 'css', minify: true }).code.trim(),
    )
    .join('\n')
    .replace(/<\/(style)/gi, '<\\/$1');
  styles.push(css);
  html = html.replace(/<\/head>/i, () => `<style>${css}</style>\n</head>`);
}
html = html.replace(/<html\b([^>]*)>/i, (_, attrs) => `<html${attrs} data-single>`);

// 3b. Preload hints name files that the single file does not have: they go.
html = html.replace(/<!--.*?-->\s*/gs, '').replace(/<link\b[^>]*\brel="(?:module)?preload"[^>]*>\s*/g, '');

// 4. The scripts: the first tag becomes the inline bundle, the others go.
let first = true;
html = html.replace(/<script\b[^>]*\btype="module"[^>]*\bsrc="[^"]+"[^>]*><\/script>\s*/g, () => {
  if (!first) return '';
  first = false;
  return `<script type="module">${js}</script>\n`;
});

// 5. CSP: hashes of the inline script and styles; the worker from blob:; no network at all.
const sha = s => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
export const CSP = [
  "default-src 'none'",
  `script-src ${sha(js)} 'wasm-unsafe-eval'`,
  'worker-src blob:',
  `style-src ${styles.map(sha).join(' ')}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${CSP}">`;
if (/<meta\b[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.test(html)) {
  html = html.replace(/<meta\b[^>]*http-equiv="Content-Security-Policy"[^>]*>/i, () => meta);
} else {
  html = html.replace(/<head>/i, () => `<head>\n${meta}`);
}

mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, html);
const kb = n => `${(n / 1024).toFixed(1)} KB`;
console.error(
  `[build-single] ${path.relative(ROOT, OUT)}: ${kb(html.length)} (${kb(gzipSync(html).length)} gzip), worker ${kb(workerSource.length)}, ${Math.round(performance.now() - t0)} ms`,
);
