// The page as users get it: dist/www/, a minified build of www/ (which stays plain, readable ES
// modules, edited by hand and served as is by `DEV=1 bash scripts/start.sh`).
// - Every file of www/ has its counterpart in dist/www/ under the same name: each .js minified as
//   an ES module (exports keep their names, imports their URLs), each .css minified, each with a
//   linked source map (`//# sourceMappingURL=x.js.map`, fetched only while DevTools is open).
//   So engine/worker.js (started by `new URL('./worker.js', import.meta.url)`) and a host page's
//   `<script src=".../rowkey-lab-element.js">` get the minified file of the same name.
// - index.html's deferred module scripts (embed.js, main.js) are bundled, in their order, into
//   page.js, with every module they import but those in SHARED; its stylesheets into page.css.
//   index.html then loads and preloads page.js and page.css instead (no inline script: the CSP's
//   `script-src 'self'` stands). The files of www/ that went into page.js stay in dist/www/.
// - pkg/rowkey_lab.js (wasm-bindgen's glue) and rowkey_lab_bg.wasm are the page's build
//   (scripts/build-wasm.sh: without the cargo feature `library`, so wasm-bindgen emits only the
//   exports the page uses; the npm package, not this page, is the library's API). The glue is
//   minified like every module, the wasm copied as is. So are the speed build (pkg/fast/) and the
//   rows build (pkg/rows/: the readers of files of rows, the npm package's web build), which the
//   engine worker imports later (after the first render; when a file of rows is opened): no
//   part of the first load. The build stops when the names www/
//   imports from the glue and the glue's exports differ, either way.
// - index.html loses its comments and indentation (never inside <pre>, <textarea>, <script> or
//   <style>): a run of whitespace with a line break becomes one line break, which renders the same.
// Usage: node scripts/build-page.mjs   (needs www/pkg from scripts/build-wasm.sh;
// the first-load budget is scripts/size-check.sh's). Prints each
// file's raw and gzip -9 size, www/ → dist/www/, and the same for everything the page loads.

import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform, transformSync } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WWW = path.join(ROOT, 'www');
const OUT = path.join(ROOT, 'dist/www');
const GLUE = 'pkg/rowkey_lab.js';
const WASM = 'pkg/rowkey_lab_bg.wasm';
// Never copied into page.js: boot.js (an async script of its own) starts the worker at once and
// app.js adopts it, so both must see one module instance; engine/url-state.js and the glue are also
// loaded by boot.js or by the worker, which then reuse the page's download (the presets too).
// pkg/codemirror.js (the key editor, scripts/build-editor.mjs) is imported lazily after the first
// render: never part of page.js or of the first load.
const SHARED = [
  'boot.js',
  'engine/url-state.js',
  // the call interface and its Web Worker adapter: the worker loads them too; the scheduler is
  // imported lazily by the page (advice-view.js) and the worker
  'engine/calls.js',
  'engine/web-workers.js',
  'engine/scheduler.js',
  // the advisor's driver (the npm package's too): imported lazily by the page's advisor run
  'engine/advise-driver.js',
  // the sets of workers: the page's advisor and the worker's spread run and readers
  'engine/worker-sets.js',
  GLUE,
  'pkg/presets.js',
  'pkg/codemirror.js',
  // the view of the user's rows, imported when a file of rows is opened (io-view.js); it takes
  // the lab's state from the page rather than importing lab-state.js
  'views/rows-view.js',
  // the view of a live table's snapshots, likewise (io-view.js)
  'views/observe-view.js',
  'views/observe-maps.js',
  // the plan of a move to a compared design, when a comparison is drawn (compare-view.js)
  'views/rekey-view.js',
  // the Months view and its pictures, when Simulate months… is first used (months-open.js)
  'views/months-view.js',
  'views/months-charts.js',
  // the Advice view and the advisor's run (engine/advise-run.js, which it imports), when Advise is
  // first pressed (advice-open.js)
  'views/advice-view.js',
];

if (!existsSync(path.join(WWW, WASM))) {
  console.error('[build-page] www/pkg is missing: run `bash scripts/build-wasm.sh` first');
  process.exit(1);
}
const t0 = performance.now();

/** Every file under `dir`, as /-separated paths relative to it. */
function walk(dir, rel = '') {
  return readdirSync(path.join(dir, rel))
    .sort()
    .flatMap(name => {
      const r = rel ? `${rel}/${name}` : name;
      return statSync(path.join(dir, r)).isDirectory() ? walk(dir, r) : [r];
    });
}

/** HTML without comments and indentation; whitespace-sensitive elements are kept whole. */
function minifyHtml(html) {
  // `s`: `.` also matches line ends, so an element spans lines.
  const parts = html.split(/(<(pre|textarea|script|style)\b.*?<\/\2>)/is).map((part, i) => {
    if (i % 3 === 1) return part; // a whole <pre>…</pre> etc.
    if (i % 3 === 2) return ''; // the tag name captured inside it
    return part.replace(/<!--.*?-->/gs, '').replace(/[ \t]*\n\s*/g, '\n');
  });
  return `${parts.join('').trim()}\n`;
}

/**
 * The names www/'s modules import from the glue (`import x, { a, b as c }`, `import * as ns` used
 * as `ns.a` or `...ns.a`), read from each module without its comments (esbuild, whitespace only);
 * anything else (a dynamic import, `ns` passed around or spread whole) stops the build.
 */
async function glueNames(files) {
  const names = new Set();
  for (const f of files) {
    const { code } = await transform(readFileSync(path.join(WWW, f), 'utf8'), {
      minifyWhitespace: true,
      format: 'esm',
    });
    const spec = JSON.stringify(path.posix.relative(path.posix.dirname(f), GLUE).replace(/^(?!\.)/, './'));
    if (code.includes(`import(${spec})`)) throw new Error(`${f}: dynamic import of ${spec}`);
    for (const [, clause] of code.matchAll(
      new RegExp(`import\\s*([^;"']*?)\\s*from\\s*${spec.replace(/\./g, '\\.')}`, 'g'),
    )) {
      const ns = clause.match(/\*\s*as\s+([\w$]+)/)?.[1];
      if (ns) {
        // `ns` not inside a name and not a member (`x.ns`); a spread (`...ns`) is a use of it.
        const uses = [
          ...code.matchAll(
            new RegExp(`(?<![\\w$])(?<![^.]\\.)${ns.replace(/\$/g, '\\$')}(?![\\w$])(\\.[\\w$]+)?`, 'g'),
          ),
        ].slice(1); // [0]: the import
        if (uses.some(u => !u[1]))
          throw new Error(`${f}: \`${ns}\` (import * from ${spec}) is used other than as ${ns}.name`);
        for (const u of uses) names.add(u[1].slice(1));
      }
      if (/^[\w$]/.test(clause)) names.add('default');
      for (const n of clause.match(/\{([^}]*)\}/)?.[1].split(',') ?? [])
        if (n.trim()) names.add(n.trim().split(/\s+as\s+/)[0]);
    }
  }
  return [...names].sort();
}

/** What index.html in `dir` loads: its links and scripts, their static imports, the worker and the
 * wasm; or with `roots`, those files and their static imports. */
function pageFiles(dir, roots = null) {
  const seen = new Set(),
    todo = roots ? [...roots] : ['index.html', 'engine/worker.js', WASM];
  if (!roots) {
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    for (const [, href] of html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="([^":#]+)"/g)) todo.push(href);
  }
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    if (!f.endsWith('.js')) continue;
    // without comments, and every import in one shape: import{a}from"./b.js"
    const { code } = transformSync(readFileSync(path.join(dir, f), 'utf8'), { minifyWhitespace: true, format: 'esm' });
    for (const [, a, b] of code.matchAll(/\b(?:import|export)\b[^"'`;]*?\bfrom"([^"]+)"|\bimport"([^"]+)"/g)) {
      todo.push(path.posix.join(path.posix.dirname(f), a ?? b));
    }
  }
  return [...seen].sort();
}

rmSync(OUT, { recursive: true, force: true });
// (not the build stamps: pkg/rows/.source, see scripts/build-rows-wasm.sh)
const files = walk(WWW).filter(f => !path.posix.basename(f).startsWith('.'));
const js = files.filter(f => f.endsWith('.js')),
  css = files.filter(f => f.endsWith('.css'));
const common = {
  absWorkingDir: ROOT,
  format: 'esm',
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  ignoreAnnotations: true,
}; // the root package.json's sideEffects list is for the npm package, not www/

// 1. Every .js and .css on its own (the glue too: its exports are the page's, see glueExports).
const each = await build({
  ...common,
  metafile: true,
  entryPoints: [...js, ...css].map(f => path.join(WWW, f)),
  outbase: WWW,
  outdir: OUT,
});

// 2. page.js and page.css: what index.html runs after parsing, and its styles, in document order.
let html = minifyHtml(readFileSync(path.join(WWW, 'index.html'), 'utf8'));
const SCRIPT = /<script type="module" src="([^"]+)"><\/script>\n?/g,
  STYLE = /<link rel="stylesheet" href="([^"]+)">\n?/g;
const scripts = [...html.matchAll(SCRIPT)].map(m => m[1]),
  styles = [...html.matchAll(STYLE)].map(m => m[1]);
const entry = (list, imp) => ({ contents: list.map(imp).join('\n'), resolveDir: WWW, sourcefile: '<index.html>' });
/** esbuild plugin: an import of a SHARED module (by whatever relative path) stays an import. */
const sharedExternal = {
  name: 'shared-external',
  setup(b) {
    b.onResolve({ filter: /^\.{1,2}\// }, a => {
      const file = path.relative(WWW, path.join(a.resolveDir, a.path)).split(path.sep).join('/');
      // (page.js sits in www/'s place: the path from there)
      return SHARED.includes(file) ? { path: `./${file}`, external: true } : undefined;
    });
  },
};
const pageJs = await build({
  ...common,
  bundle: true,
  metafile: true,
  outfile: path.join(OUT, 'page.js'),
  plugins: [sharedExternal],
  stdin: { ...entry(scripts, s => `import ${JSON.stringify(`./${s}`)};`), loader: 'js' },
});
await build({
  ...common,
  bundle: true,
  outfile: path.join(OUT, 'page.css'),
  stdin: { ...entry(styles, s => `@import ${JSON.stringify(`./${s}`)};`), loader: 'css' },
});
const inPage = new Set(
  Object.keys(pageJs.metafile.inputs)
    .filter(f => !f.startsWith('<'))
    .map(f => path.relative(WWW, path.join(ROOT, f))),
);
// index.html: one script, one stylesheet, each where the first of its kind was; a preload of a module
// that went into page.js becomes a preload of page.js (once).
const once = tag => {
  let done = false;
  return () => {
    if (done) return '';
    done = true;
    return tag;
  };
};
const script = once('<script type="module" src="page.js"></script>\n'),
  style = once('<link rel="stylesheet" href="page.css">\n');
const preload = once('<link rel="modulepreload" href="page.js">\n');
html = html
  .replace(SCRIPT, script)
  .replace(STYLE, style)
  .replace(/<link rel="modulepreload" href="([^"]+)">\n?/g, (tag, href) => (inPage.has(href) ? preload() : tag));

// 3. The glue's exports are the page's: the page's wasm is built without the `library` feature,
// which holds every export the page does not use (src/wasm). The two sets must stay equal:
// a name www/ imports that the glue lacks would fail in the browser; an export no module of
// www/ imports is a binding to mark `library`. Two exports are no binding's: initSync
// (wasm-bindgen's synchronous init; build-single.mjs starts the wasm with it) and start (the
// panic hook, `#[wasm_bindgen(start)]`, which init runs; wasm-bindgen exports it as well).
const NOT_BINDINGS = ['initSync', 'start'];
const names = await glueNames(js.filter(f => f !== GLUE));
const glueOut = path.relative(ROOT, path.join(OUT, GLUE));
const glueExports = each.metafile.outputs[glueOut]?.exports;
if (!glueExports) throw new Error(`${glueOut}: not among esbuild's outputs`);
const missing = names.filter(n => !glueExports.includes(n)),
  unused = glueExports.filter(n => !names.includes(n) && !NOT_BINDINGS.includes(n));
if (missing.length)
  throw new Error(
    `www/ imports ${missing.join(', ')} from ${GLUE}, which the page's wasm does not export: ` +
      'remove `#[cfg(feature = "library")]` from its binding in src/wasm (and rebuild: bash scripts/build-wasm.sh)',
  );
if (unused.length)
  throw new Error(
    `the page's wasm exports ${unused.join(', ')}, which no module of www/ imports: ` +
      'mark its binding in src/wasm `#[cfg(feature = "library")]` (npm package only)',
  );

// 4. Everything else, as is (the speed and rows builds' wasm too: loaded later, see pageFiles).
for (const f of files.filter(f => !f.endsWith('.js') && !f.endsWith('.css'))) {
  const to = path.join(OUT, f);
  mkdirSync(path.dirname(to), { recursive: true });
  if (f === 'index.html') writeFileSync(to, html);
  else if (f.endsWith('.html')) writeFileSync(to, minifyHtml(readFileSync(path.join(WWW, f), 'utf8')));
  else copyFileSync(path.join(WWW, f), to);
}
const loaded = pageFiles(OUT);
const twice = loaded.filter(f => inPage.has(f));
if (twice.length)
  throw new Error(`page.js carries ${twice.join(', ')}, which the page also loads as files: add them to SHARED`);
// The modules page.js imports later (SHARED) load theirs as files too: one that page.js carries
// would be a second copy (of the lab's one state, say), so such a view takes the lab's helpers
// from the lab instead (see views/rows-view.js).
const later = pageFiles(
  OUT,
  SHARED.filter(f => f.endsWith('.js')),
).filter(f => inPage.has(f));
if (later.length)
  throw new Error(
    `page.js carries ${later.join(', ')}, which a module it imports later also imports as a file (a second copy): hand it from the lab instead`,
  );

// Sizes (source maps are not counted: not loaded).
const size = p => {
  const b = readFileSync(p);
  return { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
};
const kb = n => `${(n / 1024).toFixed(1)} KB`;
const total = xs => ({ raw: xs.reduce((a, x) => a + x.raw, 0), gzip: xs.reduce((a, x) => a + x.gzip, 0) });
const none = { raw: 0, gzip: 0 };
const line = (f, s, o) =>
  `${f.padEnd(26)} ${kb(s.raw).padStart(9)} → ${kb(o.raw).padStart(9)}   gzip ${kb(s.gzip).padStart(8)} → ${kb(o.gzip).padStart(8)}`;
const sizes = new Map(
  [...files, 'page.js', 'page.css']
    .filter(f => !f.endsWith('.d.ts'))
    .map(f => [
      f,
      { src: existsSync(path.join(WWW, f)) ? size(path.join(WWW, f)) : none, out: size(path.join(OUT, f)) },
    ]),
);
const into = f => (inPage.has(f) ? '  (in page.js)' : styles.includes(f) ? '  (in page.css)' : '');
for (const [f, s] of sizes)
  console.error(
    `[build-page] ${line(f, s.src, s.out)}${loaded.includes(f) ? '' : `  not loaded by index.html${into(f)}`}`,
  );
const before = total(pageFiles(WWW).map(f => sizes.get(f).src)),
  after = total(loaded.map(f => sizes.get(f).out));
console.error(`[build-page] ${line('what index.html loads', before, after)}   (${loaded.join(' ')})`);
// The first-load budget (400 KB gzip) is checked by scripts/size-check.sh, once, for the page as built.
console.error(
  `[build-page] ${path.relative(ROOT, OUT)}/: glue exports ${names.join(' ')}; ${Math.round(performance.now() - t0)} ms`,
);
// The references the page links to (docs/*.md as pages of their own under docs/).
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-docs.mjs'), OUT], { stdio: 'inherit' });
