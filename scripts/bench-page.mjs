#!/usr/bin/env node
// Page performance in headless Debian Chromium (playwright-core, never a downloaded browser),
// served locally from dist/www/, the minified build users get (`node scripts/build-page.mjs`
// first; the build refuses to be measured when older than www/). Not a test: prints figures and
// writes them to target/bench/page.json (scripts/bench-table.mjs puts them in docs/BENCHMARKS.md).
//   1. first meaningful render: navigation start -> the heatmap of the default preset drawn (the
//      first one drawn: since the preview, that is the preview of the first records, labelled
//      as such on the page); also navigation start -> the full result drawn (every view), from
//      the page's performance mark `rowkey-lab:result-drawn`
//   2. a 1024 x 1024 matrix turned into pixels (heatmap.js matrixPixels; drawMatrix with putImageData)
//   3. long tasks (PerformanceObserver 'longtask') on the main thread during a 1 M-record analysis
//      in the worker (and the same for 10 M records)
//   4. page weight: HTML + JS + CSS + wasm, gzip -9, of the files the page requests (source maps
//      are not requested unless DevTools is open; the figures say if one was); for reference, the
//      same for www/ served as written (one more page load, `DEV=1 bash scripts/start.sh`'s page)
// Usage: node scripts/bench-page.mjs [--runs N] [--baseline DIR]
//   --baseline DIR: also measure the first render of another copy of the page (say an older
//   commit's www/ with its pkg/, or its build), run for run alternating with this one, so that
//   both see the same machine load; e.g.
//     git archive 7d5868a www | tar -x -C /tmp/base && cp -r www/pkg /tmp/base/www/
//     node scripts/bench-page.mjs --baseline /tmp/base/www
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { builtPage, launch, ROOT, serve } from '../tests/js/helpers.mjs';
import { telecomDoc } from './bench-design.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('www/pkg/fast', 'www/pkg/rows');

// (strict: a mistyped flag is refused, not measured without)
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    only: { type: 'string' },
    records: { type: 'string', default: '4000000' },
  },
});
/** `--name`'s value as a whole number above 0, or a clear error. */
const count = name => {
  const n = Number(flags[name]);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${name} must be a whole number above 0, not ${flags[name]}`);
  return n;
};
if (flags.only !== undefined && flags.only !== 'throughput')
  throw new Error(`--only takes throughput (the analysis against native alone), not ${flags.only}`);
const RUNS = count('runs');
const BASELINE = flags.baseline;
const median = xs => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');

// Recorded from the first script on: when the heatmap is first drawn, and every long task.
const INIT = () => {
  window.__bench = { longtasks: [], fmr: null };
  new PerformanceObserver(l => {
    for (const e of l.getEntries()) window.__bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const r = document.getElementById('results'),
      c = document.getElementById('heatmap');
    if (r && !r.hidden && c && c.width > 1 && window.__bench.fmr === null) {
      window.__bench.fmr = performance.now();
      return true;
    }
    return false;
  };
  const mo = new MutationObserver(() => {
    if (check()) mo.disconnect();
  });
  document.addEventListener('DOMContentLoaded', () =>
    mo.observe(document.body, { subtree: true, attributes: true, childList: true }),
  );
};

/** The page against native, per hash: medians of RUNS alternating runs, records/s and the ratio. */
async function throughput(records) {
  console.error('[bench-page] cargo bench --no-run --bench analyze …');
  const built = execFileSync('cargo', ['bench', '--no-run', '--bench', 'analyze', '--message-format=json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bin = built
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l))
    .find(x => x.reason === 'compiler-artifact' && x.target?.name === 'analyze' && x.executable)?.executable;
  const native = hash =>
    Number(execFileSync(bin, ['once', hash, String(records)], { encoding: 'utf8' }).match(/^once: ([\d.]+)/m)[1]) *
    1000;
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  await page.waitForTimeout(2000); // the workers' speed build fetched and compiled
  // The run is awaited inside the page, by a PerformanceObserver on its measure: Playwright's
  // waitForFunction and waitForSelector poll on every animation frame, which kept the page
  // drawing frames (main thread, compositor, browser) on the cores the workers count on.
  const inPage = async hash => {
    const ms = await page.evaluate(
      h =>
        new Promise(resolve => {
          const o = new PerformanceObserver(list => {
            const m = list.getEntriesByName('rowkey-lab:analysis').pop();
            if (!m) return;
            o.disconnect();
            resolve(m.duration);
          });
          o.observe({ type: 'measure' });
          location.hash = h;
        }),
      `#v=1&w=256&d=${b64(telecomDoc(hash, records))}`,
    );
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
    return ms;
  };
  // The run a user waits for: a link to the design opened in a new browser context (no HTTP or
  // code cache from an earlier visit), timed by the page's own measure of its first run (boot.js's
  // first script to the report received: the worker's start, the engine's fetch and compile, and
  // the analysis). Also navigation start -> the report received.
  const firstRun = async hash => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const fresh = await ctx.newPage();
    await fresh.addInitScript(() => {
      window.__first = new Promise(resolve => {
        const o = new PerformanceObserver(list => {
          const m = list.getEntriesByName('rowkey-lab:analysis')[0];
          if (!m) return;
          o.disconnect();
          resolve({ run: m.duration, fromNavigation: m.startTime + m.duration });
        });
        o.observe({ type: 'measure' });
      });
    });
    await fresh.goto(`${server.url}#v=1&w=256&d=${b64(telecomDoc(hash, records))}`);
    const r = await fresh.evaluate(() => window.__first);
    await ctx.close();
    return r;
  };
  const result = { records };
  for (const hash of ['javaString', 'md5']) {
    const p = [],
      n = [],
      f = [],
      fn = [];
    for (let i = 0; i < RUNS; i++) {
      const first = await firstRun(hash);
      f.push(first.run);
      fn.push(first.fromNavigation);
      p.push(await inPage(hash));
      n.push(native(hash));
    }
    const pm = median(p),
      nm = median(n);
    result[hash] = {
      pageMs: pm,
      nativeMs: nm,
      pageRate: (records / pm) * 1000,
      nativeRate: (records / nm) * 1000,
      ratio: nm / pm,
      // each alternating pair's own ratio (its two runs seconds apart): how steady the ratio is
      pairs: p.map((x, i) => n[i] / x),
      pageAll: p,
      nativeAll: n,
      // the first run after opening a link (see firstRun)
      firstMs: median(f),
      firstRatio: nm / median(f),
      firstFromNavigationMs: median(fn),
      firstFromNavigationRatio: nm / median(fn),
      firstAll: f,
    };
  }
  await page.close();
  return result;
}
/** `--only throughput`: the analysis throughput alone (first and warm runs against native). */
const ONLY = flags.only;

const DIST = builtPage();
const server = await serve(DIST);
const baseServer = BASELINE ? await serve(path.resolve(BASELINE)) : null;
const browser = await launch();
const out = {};
// The page's own marks (www/boot.js, main.js, app.js), for the breakdown.
const MARKS = [
  'rowkey-lab:boot',
  'rowkey-lab:engine-ready',
  'rowkey-lab:preview-drawn',
  'rowkey-lab:report-received',
  'rowkey-lab:result-drawn',
];
async function firstRender(url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(INIT);
  const requested = new Set();
  page.on('request', q => requested.add(q.url()));
  await page.goto(url);
  await page.waitForFunction(() => window.__bench.fmr !== null, null, { timeout: 60000 });
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  const r = await page.evaluate(
    names => ({
      fmr: window.__bench.fmr,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      marks: Object.fromEntries(names.map(n => [n, performance.getEntriesByName(n)[0]?.startTime ?? NaN])),
      records: JSON.parse(document.getElementById('doc-json').value).workload?.records ?? NaN,
    }),
    MARKS,
  );
  await page.close();
  return { ...r, requested: [...requested] };
}
try {
  if (ONLY === 'throughput') {
    const t = await throughput(count('records'));
    for (const h of ['javaString', 'md5'])
      console.log(
        `${h}: first run ${t[h].firstMs.toFixed(0)} ms = ${t[h].firstRatio.toFixed(2)}x native (from navigation ${t[h].firstFromNavigationRatio.toFixed(2)}x; all ${t[h].firstAll.map(x => x.toFixed(0)).join(', ')}), warm ${t[h].pageMs.toFixed(0)} ms = ${t[h].ratio.toFixed(2)}x, native ${t[h].nativeMs.toFixed(0)} ms`,
      );
    process.exit(0);
  }
  // 1. first meaningful render (alternating with the baseline, if any)
  const runs = [],
    base = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await firstRender(server.url));
    if (baseServer) base.push(await firstRender(baseServer.url));
  }
  const fmr = runs.map(r => r.fmr);
  const full = runs.map(r => r.marks['rowkey-lab:result-drawn']);
  out.records = runs[0].records;
  out.fmr = {
    median: median(fmr),
    all: fmr,
    fcp: median(runs.map(r => r.fcp)),
    full: median(full),
    fullAll: full,
    previews: runs.filter(r => Number.isFinite(r.marks['rowkey-lab:preview-drawn'])).length,
    marks: Object.fromEntries(MARKS.map(n => [n, median(runs.map(r => r.marks[n]))])),
  };
  if (baseServer)
    out.base = { median: median(base.map(r => r.fmr)), all: base.map(r => r.fmr), fcp: median(base.map(r => r.fcp)) };

  // 2. a 1024 x 1024 matrix into pixels
  {
    const page = await browser.newPage();
    await page.goto(server.url);
    out.pixels = await page.evaluate(async () => {
      const { matrixPixels, drawMatrix } = await import('./views/heatmap.js');
      const n = 1024,
        cells = new Float64Array(n * n);
      let s = 1;
      for (let i = 0; i < cells.length; i++) {
        s = (s * 1103515245 + 12345) % 2147483648;
        cells[i] = s % 1000;
      }
      const m = { rows: n, cols: n, cells };
      const px = new Uint8ClampedArray(n * n * 4);
      const time = f => {
        const ts = [];
        for (let i = 0; i < 15; i++) {
          const t = performance.now();
          f();
          ts.push(performance.now() - t);
        }
        ts.sort((a, b) => a - b);
        return ts[7];
      };
      const canvas = document.createElement('canvas');
      return {
        log: time(() => matrixPixels(m, { scale: 'log', out: px })),
        linear: time(() => matrixPixels(m, { scale: 'linear', out: px })),
        absolute: time(() => matrixPixels(m, { scale: 'log', capacity: 100, windowSec: 1, out: px })),
        drawMatrix: time(() => drawMatrix(canvas, m, { scale: 'log' })),
      };
    });
    await page.close();
  }

  // 3. long tasks during big analyses in the worker
  const longRun = async records => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(INIT);
    await page.goto(server.url);
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
    const doc = await page.evaluate(() => JSON.parse(document.getElementById('doc-json').value));
    doc.workload = { ...doc.workload, records };
    const t0 = await page.evaluate(() => {
      window.__bench.longtasks = [];
      return performance.now();
    });
    await page.evaluate(
      h => {
        location.hash = h;
        location.reload();
      },
      `v=1&d=${b64(doc)}`,
    );
    await page.waitForSelector('#lab[data-run="running"]', { state: 'attached', timeout: 60000 });
    const start = await page.evaluate(() => performance.now());
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 600000 });
    const r = await page.evaluate(start => {
      const end = performance.now();
      const during = window.__bench.longtasks.filter(t => t.start >= start);
      return {
        ms: end - start,
        tasks: during.length,
        max: Math.max(0, ...during.map(t => t.duration)),
        all: window.__bench.longtasks.map(t => Math.round(t.duration)),
      };
    }, start);
    void t0;
    await page.close();
    return { records, ...r };
  };
  out.long1m = await longRun(1_000_000);
  out.long10m = await longRun(10_000_000);

  // 5. analysis throughput: the page's worker on the speed build against the native engine on
  // one thread (cargo bench --bench analyze -- once <hash> N), the analyzer bench's telecom
  // design, runs alternating so both see the same load. The page's own measure
  // (`rowkey-lab:analysis`, a run's start to its report) is the page's figure.
  out.throughput = await throughput(count('records'));

  // 4. page weight: every HTML, JS and CSS file (and the wasm) of a served directory, and the
  // files the page requested, each once (main thread and worker).
  const weigh = dir =>
    readdirSync(dir, { recursive: true })
      .filter(f => /\.(html|js|css|wasm)$/.test(f))
      .sort()
      .map(f => {
        const b = readFileSync(path.join(dir, f));
        return { file: f.split(path.sep).join('/'), raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
      });
  const requested = (urls, origin) =>
    new Set(
      urls
        .filter(u => u.startsWith(origin))
        .map(u => decodeURIComponent(new URL(u).pathname).replace(/^\//, '') || 'index.html'),
    );
  out.weight = weigh(DIST);
  const loaded = requested(runs[0].requested, server.url);
  // What the page fetches after its first render (the workers' speed build, the key editor) is
  // not its first load: weighed apart.
  const LAZY = /^pkg\/(fast\/|codemirror\.js)/;
  out.loaded = out.weight.filter(w => loaded.has(w.file) && !LAZY.test(w.file));
  out.lazy = out.weight.filter(w => loaded.has(w.file) && LAZY.test(w.file));
  out.unlisted = [...loaded].filter(f => !out.weight.some(w => w.file === f));
  out.maps = [...loaded].filter(f => f.endsWith('.map'));
  // www/ as written, for reference: the same page before the build.
  const src = await serve(path.join(ROOT, 'www'));
  try {
    const srcLoaded = requested((await firstRender(src.url)).requested, src.url);
    out.sourceAll = weigh(path.join(ROOT, 'www'));
    out.source = out.sourceAll.filter(w => srcLoaded.has(w.file));
  } finally {
    src.close();
  }
} finally {
  await browser.close();
  server.close();
  baseServer?.close();
}

const kb = b => `${(b / 1024).toFixed(1)} KB`;
const f1 = x => x.toFixed(1);
const loadedGz = out.loaded.reduce((a, w) => a + w.gzip, 0),
  loadedRaw = out.loaded.reduce((a, w) => a + w.raw, 0);
/** The gzip size of a file in www/ as written, and whether that page loaded it. */
const srcCell = file => {
  const w = out.sourceAll.find(x => x.file === file);
  return w ? `${kb(w.gzip)}${out.source.includes(w) ? '' : ' (not loaded)'}` : '–';
};
const srcGz = out.source.reduce((a, w) => a + w.gzip, 0),
  srcRaw = out.source.reduce((a, w) => a + w.raw, 0);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const md = `# Page benchmarks

Measured by \`node scripts/bench-page.mjs\` in headless Debian Chromium (\`/usr/bin/chromium\`, no GPU),
dist/www/ (the minified build of www/, \`node scripts/build-page.mjs\`) served on loopback by sirv; ${cpu}, ${os.cpus().length} cores; ${new Date().toISOString().slice(0, 10)}.
Not a test: the figures depend on the machine.

| what | figure | target |
|---|---|---|
| first meaningful render (navigation start → the default preset's heatmap drawn: the preview of its first records in ${out.fmr.previews} of ${RUNS} runs), median of ${RUNS} | **${f1(out.fmr.median)} ms** (first contentful paint ${f1(out.fmr.fcp)} ms) | < 500 ms |
| the full result drawn (the default preset's ${out.records.toLocaleString('en')}-record analysis, heatmap, metrics, keys and splits), median of ${RUNS} | **${f1(out.fmr.full)} ms** | |${
  out.base
    ? `
| first meaningful render of the baseline \`${BASELINE}\` (same runs, alternating), median of ${RUNS} | **${f1(out.base.median)} ms** (first contentful paint ${f1(out.base.fcp)} ms) | |`
    : ''
}
| 1024 × 1024 matrix → pixels (\`matrixPixels\`, log scale), median of 15 | **${f1(out.pixels.log)} ms** (linear ${f1(out.pixels.linear)} ms, absolute ${f1(out.pixels.absolute)} ms; \`drawMatrix\` incl. putImageData ${f1(out.pixels.drawMatrix)} ms) | < 10 ms |
| long tasks on the main thread during a 1,000,000-record analysis in the worker (${f1(out.long1m.ms)} ms run) | **${out.long1m.tasks}** (longest ${f1(out.long1m.max)} ms) | none > 50 ms |
| the same, 10,000,000 records (${f1(out.long10m.ms)} ms run) | **${out.long10m.tasks}** (longest ${f1(out.long10m.max)} ms) | none > 50 ms |
${['javaString', 'md5'].map(h => `| analysis throughput, ${h === 'md5' ? 'MD5' : 'String.hashCode'} bucket (the analyzer bench's telecom design, ${(out.throughput.records / 1e6).toFixed(0)} M records, 256 windows): the page's worker (speed build) / native on one thread, medians of ${RUNS} alternating runs | **${out.throughput[h].ratio.toFixed(2)}×** (${(out.throughput[h].pageRate / 1e6).toFixed(1)} M/s against ${(out.throughput[h].nativeRate / 1e6).toFixed(1)} M/s; each pair's own ratio ${Math.min(...out.throughput[h].pairs).toFixed(2)}–${Math.max(...out.throughput[h].pairs).toFixed(2)}×, median ${median(out.throughput[h].pairs).toFixed(2)}×) | ≥ 1.0× |`).join('\n')}
${['javaString', 'md5'].map(h => `| the first run after opening a link to that design (a new browser context: no cache; the page's first script to the report), ${h === 'md5' ? 'MD5' : 'String.hashCode'} bucket, against native on one thread, medians of ${RUNS} | **${out.throughput[h].firstRatio.toFixed(2)}×** (${f1(out.throughput[h].firstMs)} ms against ${f1(out.throughput[h].nativeMs)} ms; from navigation start ${out.throughput[h].firstFromNavigationRatio.toFixed(2)}×) | ≥ 1.0× |`).join('\n')}
| fetched after the first render (not budgeted): ${out.lazy.map(w => w.file).join(', ') || 'nothing'} | ${kb(out.lazy.reduce((a, w) => a + w.gzip, 0))} gzip | |
| page weight, gzip -9: the HTML, JS, CSS and wasm the page loads from dist/www/ (requests recorded in the first run; source maps requested: ${out.maps.length ? out.maps.join(', ') : 'none'}) | **${kb(loadedGz)}** (raw ${kb(loadedRaw)}) | ≤ 400 KB |
| the same page from www/ as written (\`DEV=1 bash scripts/start.sh\`), for reference | ${kb(srcGz)} (raw ${kb(srcRaw)}) | |

Long tasks counted from the moment the run starts to the moment the page shows the result, so
the final render of the report (heatmap, metrics, the keys view) is included. Long tasks while the
page loads (module evaluation, wasm compile and the first render), before the run starts:
${out.long1m.all.length ? `${out.long1m.all.join(', ')} ms` : 'none'}.
The machine was shared (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores at the end of
the run): figures are noisy; \`matrixPixels\` alone measured 5–7 ms median on a quieter moment.

## Page weight by file

dist/www/ (source maps left out: not requested); a file marked "no" went into page.js or page.css,
or is loaded by an embedding host page only (rowkey-lab-element.js).

| file | raw | gzip | loaded by the page | www/ as written: gzip |
|---|---|---|---|---|
${out.weight.map(w => `| ${w.file} | ${kb(w.raw)} | ${kb(w.gzip)} | ${out.loaded.includes(w) ? 'yes' : 'no'} | ${srcCell(w.file)} |`).join('\n')}
${out.unlisted.length ? `\nAlso requested, not counted above: ${out.unlisted.join(', ')}.\n` : ''}

First meaningful render, every run (ms): ${out.fmr.all.map(f1).join(', ')}; full result: ${out.fmr.fullAll.map(f1).join(', ')}${out.base ? `; baseline: ${out.base.all.map(f1).join(', ')}` : ''}.
The page's performance marks, medians (ms after navigation start): ${MARKS.map(n => `${n.replace('rowkey-lab:', '')} ${f1(out.fmr.marks[n])}`).join(', ')}.
`;
// The figures for docs/BENCHMARKS.md (scripts/bench-table.mjs); docs/bench-page.md holds the method.
const result = {
  bench: 'page',
  command: 'node scripts/bench-page.mjs',
  date: new Date().toISOString().slice(0, 10),
  cpu,
  runs: RUNS,
  ...out,
};
mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'target/bench/page.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(md);
