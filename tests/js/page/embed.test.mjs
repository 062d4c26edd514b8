// Embedding: the <rowkey-lab> custom element inside a plain host page, the iframe mode
// (`embed=1&view=…`), and the single self-contained HTML build opened from file://.
// Each checks a clean console and no request leaving the page's origin; screenshots go to
// test-results/embed-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { builtPage, launch, openPage, ROOT, SHOTS, shot } from '../helpers.mjs';

const HAS_PKG = existsSync(path.join(ROOT, 'www/pkg/rowkey_lab_bg.wasm'));
const SKIP = HAS_PKG ? false : 'www/pkg is missing: run `bash scripts/build-wasm.sh` first';
if (SKIP) console.log(`# SKIP embed tests: ${SKIP}`);
const PRESET = 'seed000-vehicle';
const TIME_FIRST = {
  v: 1,
  name: 'time first <img src=x onerror=alert(1)>',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 8 } },
};

const HOST = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs host</title>
<link rel="icon" href="data:,">
<script type="module" src="/rowkey-lab-element.js"></script>
<style>body{font:16px system-ui;margin:2rem;max-width:900px}</style></head><body>
<h1>A docs page</h1><p>Some prose about row keys, then the lab:</p>
<rowkey-lab id="lab" preset="${PRESET}" view="heatmap" height="560"></rowkey-lab>
<p>More prose after the element.</p>
<h2>A design given inline, auto height</h2>
<rowkey-lab id="inline" view="metrics" design='${JSON.stringify(TIME_FIRST)}'></rowkey-lab>
</body></html>`;

// The README's example: a heatmap of the documented height, in a narrow column.
const HOST_420 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs host</title>
<link rel="icon" href="data:,">
<script type="module" src="/rowkey-lab-element.js"></script>
<style>body{font:16px system-ui;margin:1rem;max-width:760px}</style></head><body>
<p>The telecom design's heatmap:</p>
<rowkey-lab preset="seed000-telecom" view="heatmap" height="420"></rowkey-lab>
</body></html>`;

let server, url, browser;
before(async () => {
  if (SKIP) return;
  const files = sirv(builtPage(), { dev: true }); // the page as users get it (dist/www), next to a host page
  server = createServer((req, res) => {
    const host = { '/host.html': HOST, '/host-420.html': HOST_420 }[new URL(req.url, 'http://x').pathname];
    if (host) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(host);
      return;
    }
    files(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    });
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const done = frameOrPage => frameOrPage.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
// The element's current iframe (its URL hash is rewritten by the lab, so find it by element).
const frameOf = async (page, sel = 'rowkey-lab') =>
  (await (await page.$(sel)).evaluateHandle(e => e.frame)).asElement().contentFrame();
const visible = (f, sel) => f.locator(sel).first().isVisible();

test('custom element in a plain host page shows the heatmap of a preset', { skip: SKIP }, async () => {
  const { page, problems, foreign } = await openPage(browser, url);
  const failed = [];
  page.on('response', r => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${url}host.html`);
  await page.waitForFunction(
    () => document.querySelector('rowkey-lab')?.frame?.contentDocument?.querySelector('#lab[data-run="done"]'),
    null,
    { timeout: 60000 },
  );
  const frame = await frameOf(page);
  assert.ok(frame, 'iframe of index.html');
  assert.equal(await frame.inputValue('#preset'), PRESET);
  assert.ok(await visible(frame, '#heatmap'));
  const size = await frame.$eval('#heatmap', c => [c.width, c.height]);
  assert.ok(size[0] > 1 && size[1] > 1, `heatmap ${size}`);
  for (const sel of ['body > header', '#key-text', '#inspector-box', '#metrics', '#keys', '#compare-run']) {
    assert.equal(await visible(frame, sel), false, `${sel} should be hidden`);
  }
  const h = await page.$eval('rowkey-lab', e => e.frame.getBoundingClientRect().height);
  assert.equal(Math.round(h), 560);
  // The second element: a design attribute (JSON) and no height (follows the content).
  await page.waitForFunction(
    () => document.getElementById('inline')?.frame?.contentDocument?.querySelector('#lab[data-run="done"]'),
    null,
    { timeout: 60000 },
  );
  const inline = await frameOf(page, '#inline');
  assert.equal(Number(await inline.textContent('#metrics [data-metric="activeRegions"]')), 1);
  assert.equal(await visible(inline, '#heatmap'), false);
  await page.waitForFunction(() => document.getElementById('inline').frame.getBoundingClientRect().height > 420);
  assert.equal(await page.locator('img').count(), 0);
  await shot(page, 'embed-element-heatmap');
  // Attribute change: the view follows.
  await page.$eval('rowkey-lab', e => e.setAttribute('view', 'keys'));
  await page.waitForFunction(
    () =>
      document.querySelector('rowkey-lab').frame.src.includes('view=keys') &&
      document.querySelector('rowkey-lab').frame.contentDocument?.querySelector('#lab[data-run="done"]'),
    null,
    { timeout: 60000 },
  );
  const f2 = await frameOf(page);
  assert.ok(await visible(f2, '#keys'));
  assert.equal(await visible(f2, '#heatmap'), false);
  await shot(page, 'embed-element-keys');
  // A preset id with a typo: the embed says so instead of quietly showing another design.
  await page.$eval('rowkey-lab', e => e.setAttribute('preset', 'seed000-telecomm'));
  await page.waitForFunction(
    () =>
      document.querySelector('rowkey-lab').frame.src.includes('p=seed000-telecomm') &&
      document.querySelector('rowkey-lab').frame.contentDocument?.querySelector('#lab[data-run="done"]'),
    null,
    { timeout: 60000 },
  );
  const f3 = await frameOf(page);
  assert.ok(await visible(f3, '#link-notice'));
  assert.match(await f3.textContent('#link-notice'), /preset that does not exist \(seed000-telecomm\)/);
  assert.deepEqual(failed, []);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('iframe mode: embed=1&view=metrics shows only the metrics', { skip: SKIP }, async () => {
  const { page, problems, foreign } = await openPage(browser, url, { width: 800, height: 600 });
  await page.goto(`${url}index.html#v=1&p=${PRESET}&view=metrics&embed=1`);
  await done(page);
  await page.waitForFunction(
    id => document.getElementById('preset').value === id && document.querySelector('#lab').dataset.run === 'done',
    PRESET,
    { timeout: 60000 },
  );
  assert.ok(await visible(page, '#metrics'));
  assert.match(await page.textContent('#metrics'), /\d/);
  for (const sel of [
    'body > header',
    'footer',
    '#key-text',
    '#inspector-box',
    '#heatmap',
    '#keys',
    '#reads',
    '#splits-out',
    '#compare-run',
    '#diagnosis',
  ]) {
    assert.equal(await visible(page, sel), false, `${sel} should be hidden`);
  }
  // a caption: the design's name and key, its diagnosis, a link to the same view in the full page
  assert.ok(await visible(page, '#embed-caption'));
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const doc = m.getPreset(PRESET);
  const r = m.analyzeDesign(doc);
  const caption = await page.textContent('#embed-caption');
  assert.ok(caption.startsWith(`${doc.name}: `), caption);
  assert.ok(caption.includes(r.diagnosis[0].slice(1)), caption);
  const open = await page.getAttribute('#embed-caption a', 'href');
  // (the page's own link to the view: its design, the preset it came from, without embed and view)
  assert.match(open, new RegExp(`#v=1&.*\\bp=${PRESET}(&|$)`));
  assert.doesNotMatch(open, /embed=|view=/);
  assert.equal(await page.getAttribute('#embed-caption a', 'target'), '_blank');
  await shot(page, 'embed-iframe-metrics');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('single-file build from file:// renders a preset with no network request', { skip: SKIP }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const out = path.join(SHOTS, 'rowkey-lab-single.html');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-single.mjs'), out], { stdio: 'inherit' });
  const html = readFileSync(out, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+stylesheet/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
  const fileUrl = pathToFileURL(out).href;
  const { page, problems } = await openPage(browser, null);
  const requests = [];
  page.on('request', r => requests.push(r.url()));
  await page.goto(fileUrl);
  await done(page);
  const size = await page.$eval('#heatmap', c => [c.width, c.height]);
  assert.ok(size[0] > 1 && size[1] > 1, `heatmap ${size}`);
  assert.ok(Number(await page.textContent('#metrics [data-metric="regions"]')) > 1);
  // A second run through the inline worker: another preset.
  await page.selectOption('#preset', PRESET);
  await page.waitForFunction(id => location.hash.includes(`p=${id}`), PRESET);
  await done(page);
  await shot(page, 'embed-single-file');
  // what needs the speed build says so where it is offered, before anyone clicks it
  assert.ok(await page.$eval('#advice-run', b => b.disabled));
  assert.match(await page.textContent('#advice-status'), /speed build, which this single file does not carry/);
  assert.ok(await page.$eval('#months-open', b => b.disabled));
  assert.match(await page.textContent('#months-single'), /speed build, which this single file does not carry/);
  // a view's sheet drawn later is inline: the rows panel opens styled, with no blocked sheet
  await page.click('#rows-open');
  await page.waitForSelector('#rows-file', { state: 'attached' });
  assert.equal(await page.$$eval('link[rel="stylesheet"]', ls => ls.length), 0);
  // (rows-view.css rounds the panel's corners)
  assert.equal(await page.$eval('#rows-box', b => getComputedStyle(b).borderTopLeftRadius), '6px');
  const network = requests.filter(u => u !== fileUrl && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(network, []);
  assert.deepEqual(problems, []);
  console.log(`# single file: ${(statSync(out).size / 1024).toFixed(1)} KB`);
  await page.close();
});

/** An embedded heatmap view as drawn in its frame: the frame's height, the document's, where the
 * map ends, and every control, heading or legend drawn beside the map. */
const heatmapView = frame =>
  frame.evaluate(() => {
    const drawn = e => e.checkVisibility() && e.getBoundingClientRect().height > 0;
    return {
      frame: window.innerHeight,
      page: document.documentElement.scrollHeight,
      mapBottom: Math.ceil(document.getElementById('heatmap').getBoundingClientRect().bottom),
      mapHeight: document.getElementById('heatmap').getBoundingClientRect().height,
      extras: [
        ...document.querySelectorAll(
          '.heatbar select, .heatbar input, .heatbar button, #heat-legend, #heat-table-box, #results-nav, #lab > p:not(#embed-caption), #heat-h',
        ),
      ]
        .filter(drawn)
        .map(e => e.id || e.tagName.toLowerCase()),
    };
  });

test('docs/page.md\'s <rowkey-lab view="heatmap" height="420">: the view fits the frame, only the map drawn', {
  skip: SKIP,
}, async () => {
  for (const width of [800, 390]) {
    const { page, problems, foreign } = await openPage(browser, url, { width, height: 700 });
    await page.goto(`${url}host-420.html`);
    await page.waitForFunction(
      () => document.querySelector('rowkey-lab')?.frame?.contentDocument?.querySelector('#lab[data-run="done"]'),
      null,
      { timeout: 60000 },
    );
    const frame = await frameOf(page);
    // (the map drawn again once the text around it is laid out)
    await frame.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight);
    const v = await heatmapView(frame);
    assert.equal(v.frame, 420, JSON.stringify(v));
    assert.ok(v.page <= 420 && v.mapBottom <= 420, `clipped: ${JSON.stringify(v)}`);
    assert.ok(v.mapHeight >= 80, `map ${v.mapHeight} px`);
    assert.deepEqual(v.extras, [], 'drawn beside the map');
    // its colour scale and caption stay
    assert.ok(await visible(frame, '#heat-scale'));
    assert.ok(await visible(frame, '#embed-caption'));
    await shot(page, `embed-element-420-${width}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(foreign, []);
    await page.close();
  }
});

test('iframe mode in a 420 px frame: embed=1&view=heatmap fits it', { skip: SKIP }, async () => {
  const { page, problems } = await openPage(browser, url, { width: 640, height: 420 });
  await page.goto(`${url}index.html#v=1&p=${PRESET}&view=heatmap&embed=1`);
  await page.waitForFunction(id => document.getElementById('preset').value === id, PRESET, { timeout: 60000 });
  await done(page);
  await page.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight);
  const v = await heatmapView(page.mainFrame());
  assert.ok(v.mapBottom <= 420, JSON.stringify(v));
  assert.deepEqual(v.extras, []);
  // a taller frame: a taller map
  await page.setViewportSize({ width: 640, height: 600 });
  await page.waitForFunction(
    h => document.getElementById('heatmap').getBoundingClientRect().height > h + 100,
    v.mapHeight,
  );
  await page.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight);
  await shot(page, 'embed-iframe-heatmap-fit');
  assert.deepEqual(problems, []);
  await page.close();
});
