// The Compare view in headless Chromium: two designs on one colour scale, their zoom linked (a
// drag across one map zooms the time of every map; a diagonal drag that map's regions too),
// one reset for all, the keyboard's zoom; the deltas are the engine's. No console errors.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, ROOT, serve, shot, waitDone } from './helpers.mjs';

let server, browser, m;
before(async () => {
  server = await serve();
  browser = await launch();
  m = await import(path.join(ROOT, 'pkg/node/index.js'));
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** Each compared map: the window range and the row range it shows, its canvas's size in cells. */
const maps = page =>
  page.$$eval('#compare figure', fs =>
    fs.map(f => ({
      windows: f.dataset.windows,
      rows: f.dataset.rows,
      text: f.querySelector('.cmp-range').textContent,
    })),
  );
/** Drags across map `i` from (row, col) to (row, col), in the cells it shows. */
async function drag(page, i, [r0, c0], [r1, c1]) {
  const canvas = (await page.$$('#compare canvas'))[i];
  await canvas.scrollIntoViewIfNeeded();
  const b = await canvas.boundingBox();
  const { rows, cols } = await page.$$eval(
    '#compare figure',
    (fs, k) => {
      const [a, z] = fs[k].dataset.windows.split('-').map(Number);
      const [ra, rz] = fs[k].dataset.rows.split('-').map(Number);
      return { rows: rz - ra, cols: z - a };
    },
    i,
  );
  const at = (r, c) => [b.x + ((c + 0.5) / cols) * b.width, b.y + ((r + 0.5) / rows) * b.height];
  await page.mouse.move(...at(r0, c0));
  await page.mouse.down();
  await page.mouse.move(...at((r0 + r1) / 2, (c0 + c1) / 2));
  await page.mouse.move(...at(r1, c1));
  await page.mouse.up();
}

test('compare: a drag across one map zooms the time of both, its regions only its own; one reset restores both', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  await page.selectOption('#compare-with', 'seed000-telecom-time-first');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2);
  const c = m.compareDesigns([m.getPreset('seed000-telecom'), m.getPreset('seed000-telecom-time-first')], {
    windows: 64,
  });
  const rowsOf = c.designs.map(d => d.matrix.rows);
  assert.deepEqual(
    (await maps(page)).map(x => [x.windows, x.rows]),
    rowsOf.map(n => ['0-64', `0-${n}`]),
  );
  assert.equal(await page.$eval('#compare-reset', b => b.disabled), true);
  // one colour scale (log): the busiest cell of both designs takes the palette's top colour; a
  // map's own busiest cell takes it only when it comes that close
  const busiest = c.designs.map(d => Math.max(...d.matrix.cells));
  const top = Math.max(...busiest);
  const expected = busiest.map(b => Math.round((Math.log1p(b) * 255) / Math.log1p(top)) === 255);
  assert.ok(expected.includes(true) && expected.includes(false), String(busiest));
  const hasTop = await page.$$eval('#compare canvas', cs =>
    cs.map(cv => {
      const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
      for (let i = 0; i < px.length; i += 4) if (px[i] === 253 && px[i + 1] === 231 && px[i + 2] === 37) return true;
      return false;
    }),
  );
  assert.deepEqual(hasTop, expected);
  // across the second map only, windows 10 to 29, within one row: time only, for both maps
  await drag(page, 1, [0, 10], [0, 29]);
  let shown = await maps(page);
  assert.deepEqual(
    shown.map(x => [x.windows, x.rows]),
    rowsOf.map(n => ['10-30', `0-${n}`]),
  );
  assert.match(shown[0].text, /^windows 10–29 of 64; all \d+ regions$/);
  // each canvas draws exactly the 20 windows shown
  assert.deepEqual(await page.$$eval('#compare canvas', cs => cs.map(x => x.width)), [20, 20]);
  assert.equal(await page.$eval('#compare-reset', b => b.disabled), false);
  // diagonally across the first map: its rows 1 to 3, and windows 2 to 5 of the 20 shown, for both
  await drag(page, 0, [1, 2], [3, 5]);
  shown = await maps(page);
  assert.deepEqual(
    shown.map(x => [x.windows, x.rows]),
    [
      ['12-16', '1-4'],
      ['12-16', `0-${rowsOf[1]}`],
    ],
  );
  await shot(page, 'compare-zoomed');
  await page.click('#compare-reset');
  assert.deepEqual(
    (await maps(page)).map(x => [x.windows, x.rows]),
    rowsOf.map(n => ['0-64', `0-${n}`]),
  );
  assert.equal(await page.$eval('#compare-reset', b => b.disabled), true);
  // the keyboard: + halves the window range of every map about its middle, arrows move it, R resets
  await page.focus('#compare canvas');
  await page.keyboard.press('+');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['16-48', '16-48'],
  );
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['24-56', '24-56'],
  );
  await page.keyboard.press('r');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['0-64', '0-64'],
  );
  assert.deepEqual(problems, []);
  await page.close();
});
