#!/usr/bin/env node
// The page reading your rows, in headless Debian Chromium, as a user does: open the bench's file
// ("Your rows"), pick the null policy and the time column, wait for the profile, press Run, wait
// for the report. Prints both waits per run and the status line's steps with their times, for
// comparison with `rowkey-lab analyze --records` on the same file (scripts/bench-rows.mjs).
// Usage: node scripts/build-page.mjs && node scripts/bench-page-rows.mjs [FILE] [--runs N]
// FILE defaults to target/bench/rows/flights-10x.parquet (written by scripts/bench-rows.mjs); the
// design is target/bench/rows/bench-design.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { b64, launch, openPage, ROOT, serve, waitDone } from '../tests/js/helpers.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const file =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ??
  path.join(ROOT, 'target/bench/rows/flights-10x.parquet');
const design = JSON.parse(readFileSync(path.join(ROOT, 'target/bench/rows/bench-design.json'), 'utf8'));

const server = await serve();
const browser = await launch();
try {
  for (let r = 0; r < RUNS; r++) {
    const { page } = await openPage(browser, server.url, { width: 1400, height: 1000 });
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
    const t1 = Date.now();
    await page.evaluate(() => {
      window.benchSteps = [];
      const t = performance.now();
      const status = document.getElementById('run-status');
      new MutationObserver(() => {
        const text = status.textContent;
        if (window.benchSteps.at(-1)?.text !== text)
          window.benchSteps.push({ ms: Math.round(performance.now() - t), text });
      }).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#rows-run');
    await page.waitForSelector('#rows-banner', { timeout: 300000 });
    const t2 = Date.now();
    const steps = await page.evaluate(() => window.benchSteps);
    console.log(`run ${r + 1}: opening the file to its profile ${t1 - t0} ms; Run to the report ${t2 - t1} ms`);
    for (const s of steps) console.log(`  ${String(s.ms).padStart(6)} ms  ${s.text}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
