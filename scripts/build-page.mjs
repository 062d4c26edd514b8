// The page as users get it: dist/www/, a minified build of www/ (which stays plain, readable ES
// modules, edited by hand and served as is by `DEV=1 bash scripts/start.sh`).
// - Every file of www/ has its counterpart in dist/www/ under the same name: each .js minified as
//   an ES module (exports keep their names, imports their URLs), each .css minified, each with a
//   linked source map (`//# sourceMappingURL=x.js.map`, fetched only while DevTools is open).
//   So worker.js (started by `new URL('./worker.js', import.meta.url)`) and a host page's
//   `<script src=".../rowkey-lab-element.js">` get the minified file of the same name.
// - index.html's deferred module scripts (embed.js, main.js) are bundled, in their order, into
//   page.js, with every module they import but those in SHARED; its stylesheets into page.css.
//   index.html then loads and preloads page.js and page.css instead (no inline script: the CSP's
//   `script-src 'self'` stands). The files of www/ that went into page.js stay in dist/www/.
// - pkg/rowkey_lab.js (wasm-bindgen's glue) keeps the exports that some www/ module imports (the
//   npm package, not this page, is the library's API); rowkey_lab_bg.wasm loses the functions
//   that only the other exports reach (pageWasm) and its custom sections (`producers`,
//   `target_features`: tool metadata that browsers skip).
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
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
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
// app.js adopts it, so both must see one module instance; url-state.js and the glue are also
// loaded by boot.js or by the worker, which then reuse the page's download (the presets too).
const SHARED = ['boot.js', 'url-state.js', GLUE, 'pkg/presets.js'];

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
 * as `ns.a`), read from each module without its comments (esbuild, whitespace only); anything
 * else (a dynamic import, `ns` passed around) stops the build.
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
        const uses = [
          ...code.matchAll(new RegExp(`(?<![\\w$.])${ns.replace(/\$/g, '\\$')}(?![\\w$])(\\.[\\w$]+)?`, 'g')),
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

/** An unsigned LEB128 at `p`: [value, the position after it]. */
function leb(b, p) {
  let v = 0,
    s = 0,
    x;
  do {
    x = b[p++];
    v += (x & 0x7f) * 2 ** s;
    s += 7;
  } while (x & 0x80);
  return [v, p];
}

/**
 * The wasm rebuilt section by section: `f(id, section, body)` returns the bytes to keep for a
 * section (the whole `section` as is, something new, or nothing).
 */
function mapSections(bytes, f) {
  const parts = [bytes.subarray(0, 8)];
  let p = 8;
  while (p < bytes.length) {
    const start = p;
    const [size, body] = leb(bytes, p + 1);
    p = body + size;
    if (p > bytes.length) throw new Error(`${WASM}: section at byte ${start} runs past the end`);
    const out = f(bytes[start], bytes.subarray(start, p), body);
    if (out) parts.push(out);
  }
  return Buffer.concat(parts);
}

/** The wasm without its custom sections (id 0); every other section byte for byte. */
function withoutCustomSections(bytes) {
  return mapSections(bytes, (id, section) => (id === 0 ? null : section));
}

/**
 * The wasm with the functions only the glue's dropped exports reach removed: the function exports
 * the trimmed glue never calls (`wasm.name` in it, built unminified) leave the export section,
 * then binaryen's `--remove-unused-module-elements` (no other pass: re-optimizing inlines the
 * functions left with one caller, which gzip compresses worse) drops what nothing reaches.
 * Memory, tables and globals stay exported.
 */
async function pageWasm(bytes, glueExports) {
  const {
    outputFiles: [glue],
  } = await build({
    bundle: true,
    write: false,
    format: 'esm',
    logLevel: 'warning',
    plugins: [glueUnusedClasses(glueExports)],
    stdin: {
      contents: `export { ${glueExports.join(', ')} } from './${path.basename(GLUE)}';`,
      resolveDir: path.join(WWW, 'pkg'),
      sourcefile: GLUE,
    },
  });
  const called = new Set([...glue.text.matchAll(/\bwasm\d*\.([\w$]+)/g)].map(m => m[1]));
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(bytes));
  const missing = [...called].filter(n => !exports.some(e => e.name === n));
  if (missing.length) throw new Error(`${GLUE} calls ${missing.join(', ')}, which ${WASM} does not export`);
  const keep = new Set(exports.filter(e => e.kind !== 'function' || called.has(e.name)).map(e => e.name));
  const dir = mkdtempSync(path.join(tmpdir(), 'rowkey-page-wasm-'));
  try {
    writeFileSync(path.join(dir, 'in.wasm'), onlyExports(bytes, keep));
    execFileSync(
      path.join(ROOT, 'node_modules/.bin/wasm-opt'),
      [
        '--remove-unused-module-elements',
        '--enable-bulk-memory',
        '--enable-nontrapping-float-to-int',
        '--enable-sign-ext',
        '--enable-mutable-globals',
        '--enable-reference-types',
        '--enable-multivalue',
        path.join(dir, 'in.wasm'),
        '-o',
        path.join(dir, 'out.wasm'),
      ],
      { stdio: 'inherit' },
    );
    return readFileSync(path.join(dir, 'out.wasm'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * esbuild plugin: the glue without the top-level statements of each exported class the page does
 * not import (`if (Symbol.dispose) X.prototype[Symbol.dispose] = …` and `const XFinalization =
 * … new FinalizationRegistry(…)`): tree shaking cannot drop them (an assignment, a `new`), and they
 * would keep the class and the wasm functions it calls. Both glue builds use it, so the wasm cut
 * (`pageWasm`) and the shipped glue agree on what is called.
 */
const glueUnusedClasses = names => ({
  name: 'glue-unused-classes',
  setup(b) {
    b.onLoad({ filter: /[\\/]pkg[\\/]rowkey_lab\.js$/ }, args => {
      let text = readFileSync(args.path, 'utf8');
      for (const [, cls] of text.matchAll(/^export class (\w+) \{/gm)) {
        if (names.includes(cls)) continue;
        text = text
          .replace(
            new RegExp(
              `^if \\(Symbol\\.dispose\\) ${cls}\\.prototype\\[Symbol\\.dispose\\] = ${cls}\\.prototype\\.free;\n`,
              'm',
            ),
            '',
          )
          .replace(new RegExp(`^const ${cls}Finalization = [^;]*;\n`, 'm'), '');
      }
      return { contents: text, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
});

/** `bytes` with the export section cut to the names in `keep`; every other section byte for byte. */
function onlyExports(bytes, keep) {
  const enc = n => {
    const o = [];
    do {
      let x = n & 0x7f;
      n = Math.floor(n / 128);
      if (n) x |= 0x80;
      o.push(x);
    } while (n);
    return Buffer.from(o);
  };
  return mapSections(bytes, (id, section, body) => {
    if (id !== 7) return section;
    let [n, q] = leb(bytes, body);
    const kept = [];
    for (; n > 0; n--) {
      const e0 = q;
      const [len, at] = leb(bytes, q);
      const name = Buffer.from(bytes.subarray(at, at + len)).toString();
      q = leb(bytes, at + len + 1)[1]; // the kind byte, then the index
      if (keep.has(name)) kept.push(bytes.subarray(e0, q));
    }
    const content = Buffer.concat([enc(kept.length), ...kept]);
    return Buffer.concat([Buffer.from([7]), enc(content.length), content]);
  });
}

/** What index.html in `dir` loads: its links and scripts, their static imports, the worker and the wasm. */
function pageFiles(dir) {
  const seen = new Set(),
    todo = ['index.html', 'worker.js', WASM];
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  for (const [, href] of html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="([^":#]+)"/g)) todo.push(href);
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
const files = walk(WWW);
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

// 1. Every .js and .css on its own.
await build({
  ...common,
  entryPoints: [...js, ...css].filter(f => f !== GLUE).map(f => path.join(WWW, f)),
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
const pageJs = await build({
  ...common,
  bundle: true,
  metafile: true,
  outfile: path.join(OUT, 'page.js'),
  external: SHARED.map(f => `*/${f}`),
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

// 3. The glue, with the exports the page uses.
const names = await glueNames(js.filter(f => f !== GLUE));
await build({
  ...common,
  bundle: true,
  outfile: path.join(OUT, GLUE),
  plugins: [glueUnusedClasses(names)],
  stdin: {
    contents: `export { ${names.join(', ')} } from './${path.basename(GLUE)}';`,
    resolveDir: path.join(WWW, 'pkg'),
    sourcefile: GLUE,
  },
});

// 4. Everything else.
for (const f of files.filter(f => !f.endsWith('.js') && !f.endsWith('.css'))) {
  const to = path.join(OUT, f);
  mkdirSync(path.dirname(to), { recursive: true });
  if (f === 'index.html') writeFileSync(to, html);
  else if (f.endsWith('.html')) writeFileSync(to, minifyHtml(readFileSync(path.join(WWW, f), 'utf8')));
  else if (f === WASM) writeFileSync(to, withoutCustomSections(await pageWasm(readFileSync(path.join(WWW, f)), names)));
  else copyFileSync(path.join(WWW, f), to);
}
const loaded = pageFiles(OUT);
const twice = loaded.filter(f => inPage.has(f));
if (twice.length)
  throw new Error(`page.js carries ${twice.join(', ')}, which the page also loads as files: add them to SHARED`);

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
