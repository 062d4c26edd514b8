// The page in headless Chromium: heatmap settings in the URL (round trip, old links), the first
// run's preview, and auto-split events on the heatmap, in its tooltip and in the sorted keys —
// the expected splits come from the engine's own analysis of the same design in Node (the npm
// package's build), not from the page.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { b64, launch, openPage, ROOT, serve, shot, TIME_FIRST } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const done = page => page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
// One explicit pre-split at "5" and a ConstantSizeRegionSplitPolicy with a 400 kB limit and
// 50 kB flushes (HBase looks at a region's size only after a flush): the regions split while the
// 20,000 writes (about 2 MB) come in.
const AUTO_SPLIT = {
  v: 1,
  name: 'auto split',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'id + long(ts)',
  workload: { records: 20000, valueSize: 100 },
  regions: {
    presplit: { kind: 'explicit', keys: ['5'] },
    autoSplit: { policy: { type: 'constantSize' }, config: { maxFileSize: 400000, memstoreFlushSize: 50000 } },
    regionServers: 2,
  },
};

async function heatControls(page) {
  return page.evaluate(() => ({
    scale: document.getElementById('scale').value,
    view: document.getElementById('heat-view').value,
    mode: document.getElementById('heat-mode').value,
    brightness: document.getElementById('brightness').value,
    capacity: document.getElementById('capacity').value,
    width: document.getElementById('heatmap').width,
    height: document.getElementById('heatmap').height,
    zoomReset: !document.getElementById('zoom-reset').disabled,
  }));
}

test('heatmap settings round-trip through the URL; an old link opens with the defaults', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}&w=48`);
  await done(page);
  // an old (version 1, design only) link: default settings, and none of them written back
  assert.deepEqual(await heatControls(page), {
    scale: 'log',
    view: 'regions',
    mode: 'relative',
    brightness: '0',
    capacity: '100',
    width: 48,
    height: 8,
    zoomReset: false,
  });
  assert.doesNotMatch(page.url(), /[#&](scale|rows|color|cap|bright|zoom)=/);
  assert.match(page.url(), /#v=1&d=[^&]+&w=48/);

  await page.selectOption('#scale', 'linear');
  await page.fill('#brightness', '1.5');
  await page.dispatchEvent('#brightness', 'input');
  await page.selectOption('#heat-view', 'servers');
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  const box = await page.locator('#heatmap').boundingBox();
  // brush across windows 12 … 35 of 48 (cell centres)
  await page.mouse.move(box.x + box.width * (12.5 / 48), box.y + 5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (35.5 / 48), box.y + 5, { steps: 4 });
  await page.mouse.up();
  await page.selectOption('#heat-mode', 'absolute');
  await page.fill('#capacity', '7');
  const want = await heatControls(page);
  assert.deepEqual(want, {
    scale: 'linear',
    view: 'servers',
    mode: 'absolute',
    brightness: '1.5',
    capacity: '7',
    width: 24,
    height: 3,
    zoomReset: true,
  });
  const url = page.url();
  assert.match(url, /[#&]zoom=12-36(&|$)/);
  assert.match(url, /[#&]color=abs(&|$)/);

  const { page: p2, problems: problems2 } = await openPage(browser, server.url);
  await p2.goto(url);
  await done(p2);
  assert.deepEqual(await heatControls(p2), want);
  assert.match(await p2.textContent('#heat-legend'), /against 7 writes\/s/);
  assert.match(await p2.textContent('#time-axis'), /^windows 12–35:/);
  assert.equal(await p2.$eval('#brightness', b => b.disabled), true, 'brightness does not apply in absolute mode');
  assert.equal(p2.url(), url, 'the restored page writes back the same hash');
  // resetting the zoom drops it from the URL
  await p2.click('#zoom-reset');
  assert.doesNotMatch(p2.url(), /zoom=/);

  // malformed values fall back to the defaults rather than breaking the page
  const { page: p3, problems: problems3 } = await openPage(browser, server.url);
  await p3.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}&scale=cubic&bright=99&cap=-5&zoom=30-2&rows=x`);
  await done(p3);
  const bad = await heatControls(p3);
  assert.deepEqual(
    [bad.scale, bad.view, bad.brightness, bad.capacity, bad.zoomReset],
    ['log', 'regions', '6', '100', false],
  );
  assert.deepEqual([...problems, ...problems2, ...problems3], []);
  await Promise.all([page.close(), p2.close(), p3.close()]);
});

test('a long first run shows a labelled preview that fills in, then the full result', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // 20 M records: the worker that counts from block 0 (half of them) runs past the second
  // preview (a second after the first) on a quick machine too; with 8 M its run ended before it
  // in one full test run of this session, and the preview never grew
  const doc = { ...TIME_FIRST, workload: { records: 20_000_000 } };
  await page.goto(`${server.url}#v=1&d=${b64(doc)}`);
  await page.waitForSelector('#results[data-preview]', { state: 'attached', timeout: 60000 });
  assert.match(await page.textContent('#heat-legend'), /^Preview of the first [\d,]+ of 20,000,000 records/);
  const first = Number((await page.textContent('#heat-legend')).match(/first ([\d,]+)/)[1].replace(/,/g, ''));
  // the preview keeps filling in while the run goes on
  await page.waitForFunction(
    n => {
      const m = /^Preview of the first ([\d,]+)/.exec(document.getElementById('heat-legend').textContent);
      return m !== null && Number(m[1].replace(/,/g, '')) > n;
    },
    first,
    { timeout: 60000 },
  );
  assert.equal(await page.$eval('#metrics', e => e.offsetParent === null), true, 'metrics wait for the full run');
  assert.equal(await page.$eval('#heat-pending', e => !e.hidden), true, 'the windows not reached yet are hatched');
  await page.locator('.heat').screenshot({ path: path.join(ROOT, 'test-results/state-preview.png') });
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 300000 });
  assert.equal(await page.$eval('#results', e => 'preview' in e.dataset), false);
  assert.equal(await page.$eval('#heat-pending', e => e.hidden), true);
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), '20,000,000');
  assert.deepEqual(problems, []);
  await page.close();
});

test('auto-split events: marked at their region boundary and window, in the tooltip and the sorted keys', {
  skip: NOT_BUILT,
}, async () => {
  const { analyzeDesign } = await import(path.join(ROOT, 'pkg/node/index.js'));
  const windows = 32;
  const r = analyzeDesign(AUTO_SPLIT, { windows, sampleSize: 1000 });
  assert.ok(r.splits.length >= 3, `the design splits (${r.splits.length})`);
  const rowOf = new Map(r.regions.map((g, i) => [g.startKeyHex, i]));
  const expected = r.splits.map(sp => ({
    row: rowOf.get(sp.splitKeyHex),
    col: Math.floor((sp.timeMs - r.startTimeMs) / r.windowMs),
    sp,
  }));
  for (const e of expected) assert.ok(e.row > 0, 'every split key starts a final region');

  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(AUTO_SPLIT)}&w=${windows}`);
  await done(page);
  assert.equal(await page.textContent('#metrics [data-metric="splitEvents"]'), String(r.splits.length));
  assert.equal(await page.textContent('#metrics [data-metric="regions"]'), String(r.regions.length));

  // on the map: one boundary line per split, at the row of the region it starts, from its window
  const lines = await page.$$eval('#split-overlay .split-line', ls =>
    ls.map(l => ({ row: Number(l.dataset.region), col: Number(l.dataset.window) })),
  );
  const key = x => `${x.row}:${x.col}`;
  assert.deepEqual(lines.map(key).sort(), expected.map(key).sort());
  const canvas = await page.locator('#heatmap').boundingBox();
  for (const e of expected) {
    const b = await page
      .locator(`#split-overlay .split-line[data-region="${e.row}"][data-window="${e.col}"]`)
      .boundingBox();
    const y = canvas.y + (e.row / r.regions.length) * canvas.height;
    const x = canvas.x + (e.col / windows) * canvas.width;
    assert.ok(Math.abs(b.y + b.height / 2 - y) <= 2, `split ${key(e)}: line at y ${b.y}, boundary at ${y}`);
    assert.ok(
      Math.abs(b.x - x) <= 2 && Math.abs(b.x + b.width - (canvas.x + canvas.width)) <= 2,
      `split ${key(e)}: from x ${x} to the end`,
    );
  }
  // above the map: the windows that had splits
  const marks = await page.$$eval('#split-marks .mark', ms => ms.map(m => Number(m.dataset.window)));
  assert.deepEqual(
    marks.sort((a, b) => a - b),
    [...new Set(expected.map(e => e.col))].sort((a, b) => a - b),
  );

  // the tooltip of the cell where a split happened names it; a cell before a region existed says
  // that its count is an estimate
  const first = expected[0];
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  const c = await page.locator('#heatmap').boundingBox();
  const at = (row, col) =>
    page.mouse.move(c.x + ((col + 0.5) / windows) * c.width, c.y + ((row + 0.5) / r.regions.length) * c.height);
  await at(first.row, first.col);
  const tip = await page.textContent('#tooltip');
  assert.match(tip, new RegExp(`^region ${first.row} \\[`));
  assert.ok(
    tip.includes(
      `split in this window, at ${new Date(first.sp.timeMs).toISOString().replace('.000Z', 'Z')}: new boundary ${first.sp.splitKey} (this region's start)`,
    ),
    tip,
  );
  await at(first.row - 1, first.col);
  assert.ok((await page.textContent('#tooltip')).includes(`new boundary ${first.sp.splitKey} (this region's end)`));
  const born = Math.floor((r.regions[first.row].createdAtMs - r.startTimeMs) / r.windowMs);
  assert.ok(born > 0);
  await at(first.row, 0);
  assert.match(
    await page.textContent('#tooltip'),
    new RegExp(`before window ${born} this key range was part of a larger region: this count is the engine's estimate`),
  );
  await shot(page, 'state-auto-split');
  await page.locator('.heat').screenshot({ path: path.join(ROOT, 'test-results/state-auto-split-heat.png') });

  // sorted keys: the first sampled key of each region; a boundary made by a split is marked ✂
  const splitKeys = new Set(r.splits.map(sp => sp.splitKeyHex));
  const boundaries = [];
  r.sample.regions.forEach((region, i) => {
    if (i > 0 && r.sample.regions[i - 1] !== region)
      boundaries.push({ i, region, split: splitKeys.has(r.regions[region].startKeyHex) });
  });
  assert.ok(boundaries.some(b => b.split) && boundaries.some(b => !b.split), 'both kinds of boundary in the sample');
  for (const b of boundaries) {
    await page.$eval(
      '#keys .vscroll',
      (e, top) => {
        e.scrollTop = top;
      },
      b.i * 22,
    );
    const row = page.locator(`#keys .krow[data-index="${b.i}"]`);
    await row.waitFor();
    assert.equal(await row.evaluate(e => e.classList.contains('split')), b.split, `key ${b.i}`);
    assert.equal(await row.locator('.kreg').textContent(), b.split ? `${b.region} ✂` : String(b.region));
    if (b.split) assert.match(await row.locator('.kreg').getAttribute('title'), /auto-split at \d{4}-/);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test("compare: each design's region × window matrix on one colour scale, as the engine computes it", {
  skip: NOT_BUILT,
}, async () => {
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const a = m.getPreset('seed000-telecom'),
    b = m.getPreset('seed000-telecom-time-first');
  const c = m.compareDesigns([a, b], { windows: 64 });
  // the engine's own region matrices of both designs over the first design's workload
  const mats = [a, { ...b, workload: a.workload }].map(d => m.analyzeDesign(d, { windows: 64 }).matrix);
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await done(page);
  await page.selectOption('#compare-with', 'seed000-telecom-time-first');
  await page.click('#compare-run');
  await page.waitForSelector('#compare figure + figure');
  await done(page);
  const figs = await page.$$eval('#compare figure', fs =>
    fs.map(f => {
      const cv = f.querySelector('canvas');
      const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
      // 1 where the cell is not the palette's "no writes" colour
      const lit = [];
      for (let i = 0; i < px.length; i += 4) lit.push(px[i] === 68 && px[i + 1] === 1 && px[i + 2] === 84 ? 0 : 1);
      return {
        name: f.dataset.design,
        rows: cv.height,
        cols: cv.width,
        lit,
        hotspot: f.querySelector('[data-metric="hotspotFactor"]').textContent,
      };
    }),
  );
  assert.deepEqual(
    figs.map(f => f.name),
    c.designs.map(d => d.name),
  );
  figs.forEach((f, i) => {
    assert.equal(f.rows, c.designs[i].regions);
    assert.equal(f.cols, 64);
    assert.deepEqual(
      f.lit,
      Array.from(mats[i].cells, v => (v > 0 ? 1 : 0)),
      `${f.name}: lit cells`,
    );
    assert.equal(f.hotspot, c.designs[i].metrics.meanHotspotFactor.toFixed(2));
  });
  // the lesson: the salted key lights every region in every window, the time-first one about one
  assert.ok(figs[0].lit.every(Boolean));
  assert.ok(figs[1].lit.filter(Boolean).length < 64 * 2);
  await page.locator('#compare').screenshot({ path: path.join(ROOT, 'test-results/state-compare.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

// 1,000 regions and a key that starts with "m": every write lands in one region near the
// middle (0x6d of 0x100 of the key space). The heatmap is at most 480 CSS pixels high; a
// 1,000-row canvas scaled into it drops rows, maybe that one.
const MANY_REGIONS = {
  v: 1,
  name: 'many regions',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: '"m" + long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 1000 } },
};

test('more regions than pixel rows: each pixel is the busiest of its block, the hot region stays visible', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(MANY_REGIONS)}`);
  await done(page);
  const seen = await page.evaluate(() => {
    const c = document.getElementById('heatmap');
    const box = c.getBoundingClientRect();
    // What the screen shows: the canvas scaled to its CSS box without smoothing (pixelated).
    const dpr = window.devicePixelRatio || 1;
    const shown = document.createElement('canvas');
    shown.width = Math.round(box.width * dpr);
    shown.height = Math.round(box.height * dpr);
    const ctx = shown.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(c, 0, 0, shown.width, shown.height);
    const litRows = cv => {
      const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
      const dark = [d[0], d[1], d[2]];
      const rows = new Set();
      for (let i = 0; i < d.length; i += 4)
        if (d[i] !== dark[0] || d[i + 1] !== dark[1] || d[i + 2] !== dark[2]) rows.add(Math.floor(i / 4 / cv.width));
      return rows.size;
    };
    return {
      canvasRows: c.height,
      cssRows: box.height * dpr,
      canvasLit: litRows(c),
      shownLit: litRows(shown),
      legend: document.getElementById('heat-legend').textContent,
    };
  });
  assert.ok(seen.canvasRows <= seen.cssRows, `canvas ${seen.canvasRows} rows, ${seen.cssRows} on screen`);
  assert.ok(seen.canvasRows >= 1000 / Math.ceil(1000 / seen.cssRows) - 1, `every block drawn: ${seen.canvasRows}`);
  assert.ok(seen.canvasLit >= 1, 'the hot region is drawn');
  assert.ok(
    seen.shownLit >= seen.canvasLit,
    `and shown: ${seen.shownLit} lit rows on screen, ${seen.canvasLit} in the canvas`,
  );
  assert.match(seen.legend, /busiest of \d+ regions/);
  assert.deepEqual(problems, []);
  await page.close();
});
