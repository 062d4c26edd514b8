// The page's screenshots for the docs (README.md, docs/page.md): the built page (dist/www) in
// Debian's headless Chromium, as the page tests drive it, written as PNGs into docs/img/.
//   workbench.png  the telecom preset at 1400 × 900: the design on the left, the results on the right
//   heatmap.png    its heatmap zoomed to a window range and a few regions
//   compare.png    the telecom design against its time-first variant and its Phoenix table, zoomed as one
//   advice.png     the advisor's candidates and its recommendation for the time-first design
//   indexes-map.png, indexes.png  a Phoenix table of orders and its indexes (docs/phoenix.md):
//                  the time index's own regions on the heatmap, the indexes beside the table
//   phone.png      the page at 390 × 844
// Usage: node scripts/build-page.mjs && node scripts/screenshots.mjs [SHOT...]
//   (SHOT: workbench, advice, indexes, phone; workbench takes heatmap and compare: only these)
// Each shot is clipped to the part it shows and stays small (checked: under SHOT_MAX bytes).

import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { launch, openPage, pasteTable, ROOT, serve, waitDone } from '../tests/js/helpers.mjs';
import { ORDERS_SQL } from '../tests/js/orders-indexes.mjs';

const OUT = path.join(ROOT, 'docs/img');
const SHOT_MAX = 250 * 1024;

/** The box of `selectors` together, in page coordinates, padded, within the page's width. */
async function around(page, selectors, pad = 8) {
  const boxes = await page.$$eval(selectors.join(','), es =>
    es.map(e => {
      const b = e.getBoundingClientRect();
      return [b.left + window.scrollX, b.top + window.scrollY, b.right + window.scrollX, b.bottom + window.scrollY];
    }),
  );
  if (!boxes.length) throw new Error(`nothing matches ${selectors.join(', ')}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const x = Math.max(0, Math.min(...boxes.map(b => b[0])) - pad),
    y = Math.max(0, Math.min(...boxes.map(b => b[1])) - pad);
  const x1 = Math.min(width, Math.max(...boxes.map(b => b[2])) + pad),
    y1 = Math.max(...boxes.map(b => b[3])) + pad;
  return { x, y, width: x1 - x, height: y1 - y };
}

/** Writes `name`.png of `page` (clipped to `clip`, else the viewport) and says its size. */
async function save(page, name, clip) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, type: 'png', ...(clip ? { clip, fullPage: true } : {}) });
  const { size } = statSync(file);
  console.log(`[screenshots] docs/img/${name}.png  ${(size / 1024).toFixed(0)} KB`);
  if (size > SHOT_MAX) throw new Error(`${name}.png is ${size} bytes, over ${SHOT_MAX}: clip it smaller`);
}

/** Drags across `canvas` from fractions (fx0, fy0) to (fx1, fy1) of its box. */
async function drag(page, canvas, [fx0, fy0], [fx1, fy1]) {
  const el = await page.$(canvas);
  await el.scrollIntoViewIfNeeded();
  const b = await el.boundingBox();
  await page.mouse.move(b.x + fx0 * b.width, b.y + fy0 * b.height);
  await page.mouse.down();
  await page.mouse.move(b.x + ((fx0 + fx1) / 2) * b.width, b.y + ((fy0 + fy1) / 2) * b.height);
  await page.mouse.move(b.x + fx1 * b.width, b.y + fy1 * b.height);
  await page.mouse.up();
}

/** The shots asked for (all when none is named). */
const only = process.argv.slice(2);
const want = name => !only.length || only.includes(name);

mkdirSync(OUT, { recursive: true });
const server = await serve();
const browser = await launch();
try {
  const wide = { width: 1400, height: 900 };
  let page;
  if (want('workbench')) {
    // the workbench, as it opens on the telecom preset
    ({ page } = await openPage(browser, server.url, wide));
    await page.goto(`${server.url}#p=seed000-telecom`);
    await waitDone(page);
    await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
    await save(page, 'workbench');

    // the heatmap, zoomed: windows 16–40 of regions 2–7
    await drag(page, '#heatmap', [0.25, 0.25], [0.62, 0.75]);
    await page.waitForFunction(() => /zoom=/.test(location.hash));
    await page.mouse.move(0, 0);
    await save(page, 'heatmap', await around(page, ['#heat-h', '.heatbar', '#heat-legend', '.heat']));

    // compare with the time-first key and the Phoenix table, zoomed as one
    await page.selectOption('#compare-with', 'seed000-telecom-time-first');
    await page.click('#compare-add');
    await page.selectOption('#compare-pick .cmp-pick select', 'seed000-phoenix-telecom');
    await page.click('#compare-run');
    await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 3, null, {
      timeout: 60000,
    });
    await drag(page, '#compare figure canvas', [0.2, 0.5], [0.7, 0.5]);
    await page.mouse.move(0, 0);
    // the results' sticky bar back at the top of the results, not over the clip
    await page.evaluate(() => window.scrollTo(0, 0));
    await save(page, 'compare', await around(page, ['#compare-h', '#compare-pick', '#compare figure']));
    await page.close();
  }

  if (want('advice')) {
    // the advisor on the time-first design
    ({ page } = await openPage(browser, server.url, wide));
    await page.goto(`${server.url}#p=seed000-telecom-time-first`);
    await waitDone(page);
    await page.fill('#advice-records', '20000');
    await page.click('#advice-run');
    await page.waitForSelector('#advice .advice-plot', { timeout: 120000 });
    await page.waitForSelector('#advice-cancel:disabled', { timeout: 120000 });
    // the recommendation, the candidates' plot and the chosen one's figures (not the capacity table)
    await save(page, 'advice', await around(page, ['#advice-h', '#advice-h ~ fieldset', '#advice .advice-grid']));
    await page.close();
  }

  if (want('indexes')) {
    // a Phoenix table of orders and its indexes pasted into the Phoenix box (docs/phoenix.md):
    // the index on the time column's own map (its regions take a window's writes one at a time)
    // and the indexes beside the data table
    ({ page } = await openPage(browser, server.url, wide));
    await page.goto(server.url);
    await waitDone(page);
    await pasteTable(page, ORDERS_SQL);
    await page.selectOption('#heat-of', 'BY_TIME');
    await page.waitForFunction(() => /^10 regions/.test(document.querySelector('#region-bars-axis').textContent));
    // the results' sticky bar back at the top of the results, not over the clip
    await page.evaluate(() => window.scrollTo(0, 0));
    await save(page, 'indexes-map', await around(page, ['#diagnosis', '.heatbar', '.heat']));
    await save(page, 'indexes', await around(page, ['#indexes-h', '#indexes']));
    await page.close();
  }

  if (want('phone')) {
    // a phone
    ({ page } = await openPage(browser, server.url, { width: 390, height: 844 }, { deviceScaleFactor: 1 }));
    await page.goto(`${server.url}#p=seed000-telecom`);
    await waitDone(page);
    await save(page, 'phone');
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
