// The Compare view in headless Chromium: two designs on one colour scale, their zoom linked (a
// drag across one map zooms the time of every map; a diagonal drag that map's regions too),
// one reset for all, the keyboard's zoom; the deltas are the engine's. No console errors.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, ROOT, serve, shot, waitDone } from '../helpers.mjs';

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
  const canvas = (await page.$$('#compare figure canvas'))[i];
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
  const hasTop = await page.$$eval('#compare figure canvas', cs =>
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
  assert.deepEqual(await page.$$eval('#compare figure canvas', cs => cs.map(x => x.width)), [20, 20]);
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
  // the keyboard: arrows move a cursor over the focused map, its cell in the tooltip; + halves
  // the window range of every map around it, ] this map's regions; past the edge of a zoomed
  // range the range moves with the cursor; R resets
  await page.focus('#compare figure canvas');
  const tip = () => page.textContent('#tooltip');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const [name, region, cell] = (await tip()).split('\n');
  assert.equal(name, c.designs[0].name);
  assert.match(region, /^region 1 \[/);
  assert.match(cell, / writes in window 1 \(/);
  await page.keyboard.press('+');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['0-32', '0-32'],
  );
  await page.keyboard.press(']');
  const half = Math.ceil(rowsOf[0] / 2);
  assert.deepEqual(
    (await maps(page)).map(x => x.rows),
    [`0-${half}`, `0-${rowsOf[1]}`],
  );
  for (let i = 1; i < 32; i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['1-33', '1-33'],
  );
  assert.match(await tip(), /writes in window 32 \(/);
  await page.keyboard.press('r');
  assert.deepEqual(
    (await maps(page)).map(x => x.windows),
    ['0-64', '0-64'],
  );
  assert.deepEqual(problems, []);
  await page.close();
});

/** Each compared map's axes as drawn: its key labels `[row, text]` and its ticks `[time, left %, text]`. */
const axes = page =>
  page.$$eval('#compare figure', fs =>
    fs.map(f => ({
      keys: [...f.querySelectorAll('.key-axis .klabel')].map(l => [Number(l.dataset.row), l.textContent]),
      ticks: [...f.querySelectorAll('.time-ticks .tick')].map(t => [
        Number(t.dataset.time),
        parseFloat(t.style.left),
        t.textContent,
      ]),
    })),
  );
/** Map `i`'s pixel of cell (row, col), when the canvas draws one pixel per cell. */
const pixel = (page, i, row, col) =>
  page.$$eval(
    '#compare figure canvas',
    (cs, [k, r, c]) => {
      // copied out first: reading the map's own canvas twice makes Chromium warn
      const one = document.createElement('canvas');
      one.width = one.height = 1;
      const ctx = one.getContext('2d');
      ctx.drawImage(cs[k], c, r, 1, 1, 0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    },
    [i, row, col],
  );

test('compare three designs (a preset and a Recent design added): each map labelled with its own start keys and the workload time, hover names the cell, the scale switch redraws', async () => {
  const { PALETTE } = await import(path.join(ROOT, 'www/views/heatmap.js'));
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  // the reversed-ids design first, then telecom: the reversed one is under Recent designs
  await page.goto(`${server.url}#p=seed002-reverse`);
  await waitDone(page);
  await page.selectOption('#preset', 'seed000-telecom');
  await waitDone(page);
  await page.waitForFunction(() => !/seed002/.test(location.hash));
  const recent = await page.$$eval('#compare-with optgroup[label="Recent designs"] option', os =>
    os.map(o => [o.value, o.textContent]),
  );
  const reversed = recent.find(([, label]) => label.startsWith('Reversed order id'));
  assert.ok(reversed, JSON.stringify(recent));
  assert.ok(
    !recent.some(([, label]) => label.startsWith('Telecom call records: XX')),
    'the design on show is not offered',
  );
  await page.selectOption('#compare-with', 'seed000-telecom-time-first');
  // add two, remove one: at most three others, Add off at three
  await page.click('#compare-add');
  await page.click('#compare-add');
  assert.equal(await page.$$eval('#compare-pick select', s => s.length), 3);
  assert.equal(await page.$eval('#compare-add', b => b.disabled), true);
  await page.click('#compare-pick .cmp-pick:last-of-type button');
  assert.equal(await page.$eval('#compare-add', b => b.disabled), false);
  await page.selectOption('#compare-pick .cmp-pick select', reversed[0]);
  assert.equal(await page.textContent('#compare-run'), 'Compare 3 designs');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 3);

  const docs = ['seed000-telecom', 'seed000-telecom-time-first', 'seed002-reverse'].map(id => m.getPreset(id));
  const c = m.compareDesigns(docs, { windows: 64 });
  assert.deepEqual(
    await page.$$eval('#compare figcaption .cmp-name', fs => fs.map(f => f.textContent)),
    c.designs.map(d => d.name),
  );
  const drawn = await axes(page);
  const span = c.windows * c.windowMs;
  drawn.forEach(({ keys, ticks }, i) => {
    const regions = c.designs[i].regionKeys;
    assert.equal(regions.length, c.designs[i].matrix.rows);
    // few regions on each map: every row labelled, by its own start key (elided in the middle)
    assert.deepEqual(
      keys.map(([row]) => row),
      regions.map((_, row) => row),
    );
    for (const [row, text] of keys) {
      const key = regions[row].startKey || '(first)';
      const [head, tail] = text.split('…');
      if (tail === undefined) assert.equal(text, key);
      else assert.ok(text.length <= 14 && key.startsWith(head) && key.endsWith(tail), `${text} for ${key}`);
    }
    // ticks: round times of the workload's clock, placed where that time falls, labelled HH:MM
    assert.ok(ticks.length >= 2, JSON.stringify(ticks));
    for (const [t, left, text] of ticks) {
      assert.ok(t >= c.startTimeMs && t <= c.startTimeMs + span, `${t}`);
      assert.ok(Math.abs(left - ((t - c.startTimeMs) / span) * 100) < 1e-6, `${text} at ${left} %`);
      assert.equal(text, new Date(t).toISOString().slice(11, 16));
    }
  });
  // each map its own regions: the three key axes differ
  assert.equal(new Set(drawn.map(d => d.keys.map(([, t]) => t).join('|'))).size, 3);

  // hover: the third map's busiest cell, in words
  const d2 = c.designs[2];
  let at = 0;
  d2.matrix.cells.forEach((v, k) => {
    if (v > d2.matrix.cells[at]) at = k;
  });
  const [row, col] = [Math.floor(at / 64), at % 64];
  const canvas = (await page.$$('#compare figure canvas'))[2];
  await canvas.scrollIntoViewIfNeeded();
  const b = await canvas.boundingBox();
  await page.mouse.move(b.x + ((col + 0.5) / 64) * b.width, b.y + ((row + 0.5) / d2.matrix.rows) * b.height);
  const tip = (await page.textContent('#tooltip')).split('\n');
  const reg = d2.regionKeys[row];
  assert.equal(tip[0], d2.name);
  assert.equal(
    tip[1],
    `region ${row} [${reg.startKey || '(first)'}, ${reg.endKey || '(last)'}) on server ${reg.server}`,
  );
  assert.match(tip[2], new RegExp(`^${d2.matrix.cells[at].toLocaleString('en')} writes in window ${col} \\(`));
  // its share of the window: of that window's writes in all of this design's regions
  let windowWrites = 0;
  for (let r = 0; r < d2.matrix.rows; r++) windowWrites += d2.matrix.cells[r * 64 + col];
  assert.ok(tip[2].includes(`, ${((d2.matrix.cells[at] / windowWrites) * 100).toFixed(1)} % of the window's)`), tip[2]);
  assert.equal(tip[3].slice(0, 20), new Date(c.startTimeMs + col * c.windowMs).toISOString().slice(0, 20));
  assert.equal(await page.isVisible('#tooltip'), true);

  // one scale for all three (log): a middling cell of the first map in the palette's colour for
  // its level against the busiest cell of any map; linear redraws it, and the legend says so
  const top = Math.max(...c.designs.map(d => Math.max(...d.matrix.cells)));
  const d0 = c.designs[0].matrix;
  const lit = [...d0.cells.keys()].filter(k => d0.cells[k] > 0).sort((x, y) => d0.cells[x] - d0.cells[y]);
  const k = lit[Math.floor(lit.length / 2)];
  const v = d0.cells[k];
  const colour = idx => [...PALETTE.slice(idx * 3, idx * 3 + 3)];
  const logColour = colour(Math.round((Math.log1p(v) * 255) / Math.log1p(top)));
  const linColour = colour(Math.round((v * 255) / top));
  assert.notDeepEqual(logColour, linColour);
  assert.deepEqual(await pixel(page, 0, Math.floor(k / 64), k % 64), logColour);
  assert.equal(await page.textContent('#compare .cmp-scale-max'), `${top.toLocaleString('en')} writes (log)`);
  await page.selectOption('#scale', 'linear');
  assert.deepEqual(await pixel(page, 0, Math.floor(k / 64), k % 64), linColour);
  assert.equal(await page.textContent('#compare .cmp-scale-max'), `${top.toLocaleString('en')} writes`);
  assert.equal(await page.textContent('#compare .cmp-scale-name'), 'linear');
  // the heatmap's brightness too: ×2 puts the cell against half the busiest
  await page.fill('#brightness', '1');
  await page.dispatchEvent('#brightness', 'input');
  assert.deepEqual(
    await pixel(page, 0, Math.floor(k / 64), k % 64),
    colour(Math.min(255, Math.round(v * (255 / (top / 2))))),
  );
  assert.equal(await page.textContent('#compare .cmp-scale-name'), 'linear, brightness ×2.00');
  assert.equal(await page.textContent('#compare .cmp-scale-max'), `${Math.round(top / 2).toLocaleString('en')} writes`);
  await page.fill('#brightness', '0');
  await page.dispatchEvent('#brightness', 'input');
  // and its measure: bytes, each region's writes weighted by its bytes per write (the engine's)
  await page.selectOption('#heat-measure', 'bytes');
  assert.equal(await page.textContent('#compare .cmp-scale-name'), 'linear, bytes');
  await canvas.scrollIntoViewIfNeeded();
  const b2 = await canvas.boundingBox();
  await page.mouse.move(b2.x + ((col + 0.5) / 64) * b2.width, b2.y + ((row + 0.5) / d2.matrix.rows) * b2.height);
  const g = d2.regionKeys[row];
  assert.ok(g.bytes > g.writes, JSON.stringify(g));
  const inBytes = (await page.textContent('#tooltip')).split('\n')[2];
  assert.match(
    inBytes,
    new RegExp(
      `^${Math.round(d2.matrix.cells[at] * (g.bytes / g.writes)).toLocaleString('en')} bytes in window ${col} \\(`,
    ),
  );
  await page.selectOption('#heat-measure', 'writes');
  await shot(page, 'compare-three');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the designs compared are in the link: a reload and a pasted link compare them again; another preset drops them', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
  assert.doesNotMatch(await hash(), /cmp=/);
  await page.selectOption('#compare-with', 'seed000-telecom-time-first');
  await page.click('#compare-add');
  await page.selectOption('#compare-pick .cmp-pick select', 'seed002-reverse');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 3);
  assert.match(await hash(), /&cmp=seed000-telecom-time-first,seed002-reverse(&|$)/);
  const names = ['seed000-telecom', 'seed000-telecom-time-first', 'seed002-reverse'].map(id => m.getPreset(id).name);
  const captions = () => page.$$eval('#compare figcaption .cmp-name', fs => fs.map(f => f.textContent));
  assert.deepEqual(await captions(), names);

  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 3, null, {
    timeout: 60000,
  });
  assert.deepEqual(await captions(), names);
  assert.deepEqual(await page.$$eval('#compare-pick select', s => s.map(x => x.value)), [
    'seed000-telecom-time-first',
    'seed002-reverse',
  ]);

  // a link pasted into this tab: a Recent design this browser does not have is left out
  const link = (await page.evaluate(() => location.hash)).replace(/&cmp=[^&]*/, '&cmp=recent%3Anone%2Cseed002-reverse');
  await page.evaluate(h => {
    location.hash = h;
  }, link);
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, {
    timeout: 60000,
  });
  assert.deepEqual(await captions(), [names[0], names[2]]);
  assert.match(await hash(), /&cmp=seed002-reverse(&|$)/);

  await page.selectOption('#preset', 'seed002-reverse');
  await page.waitForFunction(() => !/cmp=/.test(location.hash));
  assert.deepEqual(problems, []);
  await page.close();
});
