#!/usr/bin/env node
// Months of life on the page against Node, side by side (issue 58's goal: 12 months of a table
// growing to about 2,000 regions on 20 servers in at most 2 s on the page): the engine's
// lifeMonths on one design (the seed002-hash preset, a salted time key, written at RATE
// records/s), called in headless Chromium on the page's speed build (dist/www/pkg/fast, what the
// Months view's worker runs) and in Node on the npm package's (pkg/node), alternating, RUNS
// times each; medians, the ratio and the regions at the end (the same on both, or it throws).
// The native figure is `cargo bench --bench life`'s. Writes target/bench/life-page.json (folded
// into docs/BENCHMARKS.md by `node scripts/bench-table.mjs`).
//
//   node scripts/bench-life-page.mjs [--runs N] [--rate N] [--months N] [--servers N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch, ROOT, serve } from '../tests/js/helpers.mjs';
import { requireShipped } from './shipped-build.mjs';

requireShipped('pkg/node', 'www/pkg/fast');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    rate: { type: 'string', default: '1600' },
    months: { type: 'string', default: '12' },
    servers: { type: 'string', default: '20' },
  },
});
const [RUNS, RATE, MONTHS, SERVERS] = [values.runs, values.rate, values.months, values.servers].map(Number);
const m = await import(path.join(ROOT, 'pkg/node/index.js'));
const preset = m.getPreset('seed002-hash');
const doc = { ...preset, workload: { ...preset.workload, writeRate: RATE } };
const options = { months: MONTHS, servers: SERVERS };

const server = await serve();
const browser = await launch();
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.evaluate(async () => {
    const glue = await import('./pkg/fast/rowkey_lab.js');
    await glue.default();
    window.glue = glue;
  });
  const inPage = () =>
    page.evaluate(
      ([d, o]) => {
        const t = performance.now();
        const r = window.glue.lifeMonths(d, o);
        return { ms: performance.now() - t, regions: r.report.months.at(-1).regions };
      },
      [doc, options],
    );
  const inNode = () => {
    const t = performance.now();
    const r = m.lifeMonths(doc, options);
    return { ms: performance.now() - t, regions: r.report.months.at(-1).regions };
  };
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await inPage());
    b.push(inNode());
    console.error(
      `[bench-life-page] run ${i + 1}: page ${a.at(-1).ms.toFixed(0)} ms, Node ${b.at(-1).ms.toFixed(0)} ms`,
    );
  }
  if (a[0].regions !== b[0].regions) throw new Error(`page ${a[0].regions} regions, Node ${b[0].regions}`);
  const pageMs = median(a.map(x => x.ms));
  const nodeMs = median(b.map(x => x.ms));
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const out = {
    command: `node scripts/bench-life-page.mjs --runs ${RUNS} --rate ${RATE} --months ${MONTHS} --servers ${SERVERS}`,
    date: new Date().toISOString().slice(0, 10),
    commit,
    machine: `${os.availableParallelism()} vCPU ${os.cpus()[0]?.model ?? ''}`.trim(),
    node: process.versions.node,
    runs: RUNS,
    months: MONTHS,
    servers: SERVERS,
    regions: a[0].regions,
    pageMs,
    nodeMs,
    // the first call after the module loads (what a user waits for first): compiled code warming
    pageFirstMs: a[0].ms,
    nodeFirstMs: b[0].ms,
    ratio: pageMs / nodeMs,
    loadAverage: os.loadavg()[0].toFixed(2),
  };
  mkdirSync(path.join(ROOT, 'target/bench'), { recursive: true });
  writeFileSync(path.join(ROOT, 'target/bench/life-page.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(
    `${MONTHS} months to ${out.regions} regions on ${SERVERS} servers: page ${pageMs.toFixed(0)} ms, Node ${nodeMs.toFixed(0)} ms (goal on the page ≤ 2,000 ms)`,
  );
} finally {
  await browser.close();
  server.close();
}
