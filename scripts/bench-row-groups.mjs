#!/usr/bin/env node
// A Parquet file of many tiny row groups read by the CLI, the npm library and the page (issue
// 56: 10^5 row groups of 4 rows took over 300 s on the page against 17 s in npm). The file and
// its design are written by scripts/parquet-row-groups.py (pyarrow; never committed). Prints
// each run: the CLI's whole `analyze --records` process, the library's analyzeRows over the
// file as a Blob (fs.openAsBlob), and in headless Chromium the page's opening of the file to its
// profile and its Run to the report (the status line's steps beside it).
// Usage: node scripts/bench-row-groups.mjs [FILE.parquet] [--runs N] [--no-page]
// FILE defaults to target/bench/rg-100k.parquet; its design is FILE without .parquet +
// .design.json. Any build will do (the tests' builds time slower than what ships: the figures
// compare reading paths on one build, and the builds' profiles are printed).
import { spawnSync } from 'node:child_process';
import { existsSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { b64, launch, openPage, ROOT, serve, waitDone } from '../tests/js/helpers.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
const file = path.resolve(
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ??
    path.join(ROOT, 'target/bench/rg-100k.parquet'),
);
const designFile = file.replace(/\.parquet$/, '.design.json');
if (!existsSync(file) || !existsSync(designFile)) {
  console.error(`${file} or its design is missing: python scripts/parquet-row-groups.py ${file}`);
  process.exit(2);
}
const design = JSON.parse(readFileSync(designFile, 'utf8'));
const profileOf = p => (existsSync(path.join(ROOT, p)) ? readFileSync(path.join(ROOT, p), 'utf8').trim() : '?');
console.log(
  `${path.relative(ROOT, file)}: ${statSync(file).size} bytes; builds: pkg/node ${profileOf('pkg/node-profile')}, www/pkg/rows ${profileOf('www/pkg/rows/.profile')}`,
);

function cliRun() {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin/rowkey-lab.mjs'), 'analyze', designFile, '--records', file, '--time', 'ts', '--json'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`rowkey-lab analyze: ${r.stderr}`);
  return { ms, rows: JSON.parse(r.stdout).rows.used };
}

async function libraryRun() {
  const lib = await import(path.join(ROOT, 'pkg/node/index.js'));
  const t = performance.now();
  const blob = await openAsBlob(file);
  const { report, stats } = await lib.analyzeRows(design, blob, { rows: { time: 'ts' } });
  return { ms: performance.now() - t, rows: stats?.rows?.used ?? stats?.used ?? report?.writes };
}

async function pageRun(browser, server) {
  const { page } = await openPage(browser, server.url, { width: 1400, height: 1000 });
  try {
    await page.goto(`${server.url}#v=1&d=${b64(design)}`);
    await waitDone(page);
    await page.click('#rows-open');
    const t0 = Date.now();
    await page.setInputFiles('#rows-file', file);
    await page.waitForSelector('#rows-time');
    await page.selectOption('#rows-time', 'ts');
    await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 900000 });
    const open = Date.now() - t0;
    await page.waitForTimeout(1000);
    const { ms, steps } = await page.evaluate(
      () =>
        new Promise(resolve => {
          const steps = [];
          const t = performance.now();
          const status = document.getElementById('run-status');
          const lab = document.getElementById('lab');
          const o = new MutationObserver(() => {
            const text = status.textContent;
            if (steps.at(-1)?.text !== text) steps.push({ ms: Math.round(performance.now() - t), text });
            if (document.getElementById('rows-banner') && lab.dataset.run === 'done') {
              o.disconnect();
              requestAnimationFrame(() => resolve({ ms: performance.now() - t, steps }));
            }
          });
          o.observe(document.body, { childList: true, characterData: true, subtree: true, attributes: true });
          document.getElementById('rows-run').click();
        }),
    );
    return { open, ms, steps };
  } finally {
    await page.close();
  }
}

const page = !args.includes('--no-page');
const server = page ? await serve() : null;
const browser = page ? await launch() : null;
try {
  for (let r = 0; r < RUNS; r++) {
    const c = cliRun();
    const l = await libraryRun();
    console.log(
      `run ${r + 1}: CLI analyze ${c.ms.toFixed(0)} ms (${c.rows} rows); library analyzeRows ${l.ms.toFixed(0)} ms`,
    );
    if (page) {
      const p = await pageRun(browser, server);
      console.log(`  page: opening the file to its profile ${p.open} ms, Run to the report ${p.ms.toFixed(0)} ms`);
      for (const s of p.steps.filter((_, i, a) => i < 3 || i >= a.length - 3))
        console.log(`  ${String(s.ms).padStart(7)} ms  ${s.text}`);
    }
  }
} finally {
  await browser?.close();
  server?.close();
}
