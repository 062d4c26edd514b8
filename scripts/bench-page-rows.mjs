#!/usr/bin/env node
// The page reading your rows against the CLI on the same file, side by side (issue 39's goal: the
// page within 1.5× of `rowkey-lab analyze --records`). In headless Debian Chromium, as a user
// does: open the bench's file ("Your rows"), pick the null policy and the time column, wait for
// the profile, press Run, wait for the report (timed in the page, from the click to the run's
// end, the views drawn); then, alternating with it, the CLI's whole process on the same file,
// design and options (`analyze`, and `profile` beside the page's opening of the file). Prints each run with the status line's steps, the medians and their ratio;
// writes target/bench/page-rows.json (folded into docs/BENCHMARKS.md by bench-table.mjs).
// Usage: node scripts/build-page.mjs && node scripts/bench-page-rows.mjs [FILE] [--runs N]
// FILE defaults to target/bench/rows/flights-10x.parquet (written by scripts/bench-rows.mjs); the
// design is target/bench/rows/bench-design.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { b64, launch, openPage, ROOT, serve, waitDone } from '../tests/js/helpers.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('www/pkg/fast', 'www/pkg/rows', 'pkg/node'); // the page, and the CLI it compares with
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const file =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ??
  path.join(ROOT, 'target/bench/rows/flights-10x.parquet');
const designFile = path.join(ROOT, 'target/bench/rows/bench-design.json');
const design = JSON.parse(readFileSync(designFile, 'utf8'));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One run of the page: opening the file to its profile, and Run to the report (ms). */
async function pageRun(browser, server) {
  const { page } = await openPage(browser, server.url, { width: 1400, height: 1000 });
  try {
    await page.goto(`${server.url}#v=1&d=${b64(design)}`);
    await waitDone(page);
    await page.click('#rows-open');
    const t0 = Date.now();
    await page.setInputFiles('#rows-file', file);
    await page.waitForSelector('#rows-nulls');
    await page.selectOption('#rows-nulls', 'skip');
    const times = await page.$$eval('#rows-time option', os => os.map(o => o.value));
    if (times.includes('time_hour')) await page.selectOption('#rows-time', 'time_hour');
    await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 300000 });
    const open = Date.now() - t0;
    // as a user waits after opening: the page readies the run's workers meanwhile
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
              // the views drawn: the next frame after the run's end
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

/** One run of the CLI's whole process on the same file, design and options (the page's: the
 * engine's default windows): `analyze`, or `profile` (what the page shows on opening the file). */
function cliRun(command = 'analyze') {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'bin/rowkey-lab.mjs'),
      command,
      designFile,
      '--records',
      file,
      '--time',
      'time_hour',
      '--nulls',
      'skip',
      '--json',
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`rowkey-lab ${command}: ${r.stderr}`);
  return { ms, rows: command === 'analyze' ? JSON.parse(r.stdout).rows.used : null };
}

const server = await serve();
const browser = await launch();
const page = [],
  cli = [],
  cliProfile = [];
let rows = 0;
try {
  for (let r = 0; r < RUNS; r++) {
    const p = await pageRun(browser, server);
    const c = cliRun();
    const cp = cliRun('profile');
    rows = c.rows;
    page.push(p);
    cli.push(c.ms);
    cliProfile.push(cp.ms);
    console.log(
      `run ${r + 1}: page: opening the file to its profile ${p.open} ms, Run to the report ${p.ms.toFixed(0)} ms; CLI: analyze ${c.ms.toFixed(0)} ms, profile ${cp.ms.toFixed(0)} ms`,
    );
    for (const s of p.steps) console.log(`  ${String(s.ms).padStart(6)} ms  ${s.text}`);
  }
} finally {
  await browser.close();
  server.close();
}
const out = {
  command: `node scripts/bench-page-rows.mjs --runs ${RUNS}`,
  date: new Date().toISOString().slice(0, 10),
  commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
  machine: `${os.availableParallelism()} vCPU ${os.cpus()[0]?.model ?? ''}`.trim(),
  node: process.versions.node,
  runs: RUNS,
  file: path.relative(ROOT, file),
  bytes: statSync(file).size,
  rows,
  pageOpenMs: median(page.map(p => p.open)),
  pageRunMs: median(page.map(p => p.ms)),
  cliMs: median(cli),
  cliProfileMs: median(cliProfile),
};
out.ratio = out.pageRunMs / out.cliMs;
mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'target/bench/page-rows.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `medians of ${RUNS}: the page's Run to the report ${out.pageRunMs.toFixed(0)} ms, the CLI ${out.cliMs.toFixed(0)} ms: ${out.ratio.toFixed(2)}× the CLI's time; opening to the profile ${out.pageOpenMs} ms, the CLI's profile ${out.cliProfileMs.toFixed(0)} ms`,
);
