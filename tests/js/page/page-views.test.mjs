// The page's views in headless Chromium: worker progress and cancel on a 2 M-record run, every
// preset's heatmap and URL round trip, segment colouring and the virtualized key list, heatmap
// controls (absolute mode, zoom, per-server rows), parse-as-you-type, CSV/PNG/JSON downloads,
// keyboard use, dark mode and phone width screenshots; no console errors, no foreign requests.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { b64, fillKey, largestRowFigures, launch, openPage, ROOT, SHOTS, serve, shot } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const settled = '#lab[data-run="done"], #lab[data-run="error"]';
const waitDone = page => page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
const TIME_FIRST = {
  v: 1,
  name: 'time first',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 8 } },
};

test('worker progress and cancel on a 20,000,000-record run; the page stays responsive', async () => {
  const { page, problems, foreign } = await openPage(browser, server.url);
  const big = { ...TIME_FIRST, workload: { records: 20000000 } };
  // the run's workers: the lead worker (boot.js) and its counting workers
  const workers = [];
  page.on('worker', w => {
    const x = { url: w.url(), closed: false };
    w.on('close', () => {
      x.closed = true;
    });
    workers.push(x);
  });
  await page.goto(`${server.url}#v=1&d=${b64(big)}`);
  await page.waitForSelector('#lab[data-run="running"]', { state: 'attached' });
  await page.waitForFunction(() => document.querySelector('#progress').value > 0.02, null, { timeout: 30000 });
  const p1 = await page.$eval('#progress', p => p.value);
  await page.waitForFunction(v => document.querySelector('#progress').value > v, p1, { timeout: 30000 });
  const p2 = await page.$eval('#progress', p => p.value);
  assert.ok(p2 > p1 && p2 < 1, `progress ${p1} -> ${p2}`);
  assert.match(await page.textContent('#run-status'), /of 20,000,000 records/);
  // the main thread is free while the worker runs: twenty frames come and the run is still
  // going. No wall-clock bound: on a loaded 2-core CI machine a frame may come late, but an
  // engine on the main thread would hold every frame until it finished.
  const frames = await page.evaluate(
    () =>
      new Promise(res => {
        let n = 0;
        const f = () => {
          if (++n < 20) requestAnimationFrame(f);
          else res({ n, run: document.querySelector('#lab').dataset.run });
        };
        requestAnimationFrame(f);
      }),
  );
  assert.deepEqual(frames, { n: 20, run: 'running' });
  await shot(page, 'views-progress');
  const running = workers.filter(w => /#engine=fast&(first=1&|role=counter$)/.test(w.url));
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(running.length, Math.min(cores, 8), workers.map(w => w.url).join(', '));
  await page.click('#cancel');
  await page.waitForSelector('#lab[data-run="cancelled"]', { state: 'attached' });
  assert.equal(await page.textContent('#run-status'), 'Cancelled.');
  // cancel ends every worker the run counted in, not only the one the page talks to
  for (let t = 0; running.some(w => !w.closed) && t < 100; t++) await page.waitForTimeout(50);
  assert.deepEqual(
    running.filter(w => !w.closed).map(w => w.url),
    [],
  );
  assert.equal(await page.$eval('#cancel', b => b.disabled), true);
  // after cancel the page takes an edit and lints it
  await fillKey(page, 'long(ts) + + id');
  await page.waitForSelector('#design-error:not([hidden])', { timeout: 5000 });
  await shot(page, 'views-cancelled');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

// One loop over the presets for both (each preset's run is the test's time): its heatmap, then
// its link opened in a second page.
test('every preset loads and shows a heatmap; its link reproduces it in another page', async () => {
  const { page, problems, foreign } = await openPage(browser, server.url);
  const { page: p2, problems: problems2 } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitDone(page);
  const ids = await page.$$eval('#preset option', os => os.map(o => o.value).filter(Boolean));
  assert.ok(ids.length >= 10, `presets: ${ids.length}`);
  for (const id of ids) {
    await page.selectOption('#preset', id);
    await page.waitForFunction(id => location.hash.includes(`p=${id}`), id);
    await page.waitForSelector(settled, { state: 'attached', timeout: 60000 });
    const err = await page.$eval('#design-error', e => (e.hidden ? '' : e.textContent));
    assert.equal(err, '', `${id}: ${err}`);
    // Every preset's key writes its own examples.
    assert.equal(await page.$eval('#examples-note', e => (e.hidden ? '' : e.textContent)), '', id);
    const size = await page.$eval('#heatmap', c => [c.width, c.height]);
    assert.ok(size[0] >= 1 && size[1] >= 1, `${id}: ${size}`);
    const url = page.url();
    const doc = await page.inputValue('#doc-json');
    const key = await page.inputValue('#key-text');
    await p2.goto('about:blank');
    await p2.goto(url);
    await p2.waitForSelector(settled, { state: 'attached', timeout: 60000 });
    assert.equal(await p2.inputValue('#preset'), id, id);
    assert.equal(await p2.inputValue('#key-text'), key, id);
    assert.deepEqual(JSON.parse(await p2.inputValue('#doc-json')), JSON.parse(doc), id);
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(problems2, []);
  assert.deepEqual(foreign, []);
  await page.close();
  await p2.close();
});

test('a link whose design cannot be opened says so, and the page still works', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const good = `#v=1&d=${b64(TIME_FIRST)}`;
  const cases = [
    [`#v=1&d=${b64(TIME_FIRST).slice(0, 30)}`, /could not be read \(the link may have been cut off\)/],
    [`#v=9&d=${b64(TIME_FIRST)}`, /link format v=9; this page reads v=1/],
    ['#v=1&p=no-such-preset', /names a preset that does not exist \(no-such-preset\)/],
  ];
  for (const [hash, why] of cases) {
    await page.goto('about:blank');
    await page.goto(server.url + hash);
    await waitDone(page);
    const notice = await page.$eval('#link-notice', e => (e.hidden ? '' : e.textContent));
    assert.match(notice, why, hash);
    assert.match(notice, /showing the preset ".+" instead/, hash);
    // The fallback design is usable, and the notice goes once the user changes something.
    await fillKey(page, 'salt(phone, 4) + phone');
    await page.waitForFunction(() => document.querySelector('#link-notice').hidden);
  }
  await page.goto('about:blank');
  await page.goto(server.url + good);
  await waitDone(page);
  assert.equal(await page.$eval('#link-notice', e => e.hidden), true, 'a good link shows no notice');
  assert.deepEqual(problems, []);
  await page.close();
});

test('sorted keys: segments coloured, legend named, decoded record on hover, 100 k rows virtualized', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitDone(page);
  const legend = await page.$$eval('#keys .legend li', ls => ls.map(l => l.textContent));
  assert.deepEqual(legend, ['salt', '_', 'phone', '_', 'ts']);
  assert.ok((await page.locator('#keys .vrows .seg.seg-0').count()) > 5);
  const bg = await page.$eval('#keys .vrows .seg.seg-2', e => getComputedStyle(e).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)');
  await page.locator('#keys .vscroll').scrollIntoViewIfNeeded();
  await page.hover('#keys .vrows .krow:nth-child(3)');
  assert.match(await page.getAttribute('#keys .vrows .krow:nth-child(3)', 'title'), /phone = \d+\nts = \d+/);
  assert.match(await page.textContent('#keys .vrows .krow .ksrv'), /^\d+$/);
  await page.locator('#keys').screenshot({ path: path.join(SHOTS, 'views-keys.png') });
  // 100 k sampled keys (the telecom workload with 120 k records): only the visible rows exist;
  // scrolling to the end shows the last one.
  const big = JSON.parse(readFileSync(path.join(ROOT, 'presets/seed000-telecom.json'), 'utf8'));
  big.workload.records = 120000;
  await page.goto(`${server.url}#v=1&d=${b64(big)}`);
  await page.reload(); // a hash-only navigation does not reload the page
  await waitDone(page);
  await page.fill('#sample-size', '100000');
  await page.waitForFunction(
    () => [...document.querySelectorAll('#keys .muted')].some(e => /100,000 sampled keys/.test(e.textContent)),
    null,
    { timeout: 60000 },
  );
  assert.ok((await page.locator('#keys .vrows .krow').count()) < 80);
  // Scroll through (smoothness is measured in scripts/bench-page.mjs, not asserted here).
  await page.evaluate(async () => {
    const s = document.querySelector('#keys .vscroll');
    for (let i = 1; i <= 30; i++) {
      s.scrollTop = (s.scrollHeight * i) / 30;
      await new Promise(r => requestAnimationFrame(r));
    }
  });
  assert.ok((await page.locator('#keys .vrows .krow').count()) < 80, 'rows stay virtualized while scrolling');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#keys .vrows .krow')].some(r => r.dataset.index === '99999'),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap controls: absolute mode, brightness, per-server rows, brush zoom and reset, keyboard cursor', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  const cols = await page.$eval('#heatmap', c => c.width);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  const box = await page.locator('#heatmap').boundingBox();
  await page.mouse.move(box.x + box.width * 0.1, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + 10, { steps: 5 });
  await page.mouse.up();
  const zoomed = await page.$eval('#heatmap', c => c.width);
  assert.ok(zoomed < cols && zoomed > 1, `${cols} -> ${zoomed}`);
  assert.equal(await page.$eval('#zoom-reset', b => b.disabled), false);
  await page.selectOption('#heat-mode', 'absolute');
  await page.fill('#capacity', '5');
  assert.match(await page.textContent('#heat-legend'), /against 5 writes\/s/);
  await page.locator('.heat').screenshot({ path: path.join(SHOTS, 'views-heat-absolute.png') });
  await page.click('#zoom-reset');
  assert.equal(await page.$eval('#heatmap', c => c.width), cols);
  await page.selectOption('#heat-mode', 'relative');
  await page.fill('#brightness', '2');
  await page.dispatchEvent('#brightness', 'input');
  assert.match(await page.textContent('#brightness-out'), /×4/);
  await page.selectOption('#heat-view', 'servers');
  assert.match(await page.textContent('#heat-legend'), /Rows are servers/);
  await page.selectOption('#heat-view', 'regions');
  await page.focus('#heatmap');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.match(await page.textContent('#tooltip'), /region 1 .* window 1/s);
  await page.locator('.heat').screenshot({ path: path.join(SHOTS, 'views-heat.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('scan commands: a read whose newest rows come first ends its scan with LIMIT', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&p=seed002-reverse`);
  await waitDone(page);
  await page.fill('#split-table', 'orders');
  await page.click('#scan-commands summary');
  const cmds = (await page.textContent('#scan-commands pre')).split('\n');
  const at = cmds.indexOf('# latest 5 versions of one order: 1 scan');
  assert.ok(at >= 0, cmds.join('\n'));
  assert.equal(cmds[at + 1], `scan 'orders', {STARTROW => "240001", STOPROW => "240002", LIMIT => 5}`);
  assert.equal(cmds.filter(c => c.includes('LIMIT')).length, 1, cmds.join('\n'));
  assert.deepEqual(problems, []);
  await page.close();
});

test("the JSON editor: an error is marked at its line and column in the editor's own text", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  await page.click('summary:has-text("Design document")');
  const good = await page.inputValue('#doc-json');
  // Where a bad value sits in the editor's text, found here by searching that text.
  const spot = (text, needle, skip = 0) => {
    const at = text.indexOf(needle) + skip;
    const before = text.slice(0, at).split('\n');
    return { at, line: before.length, column: before.at(-1).length + 1 };
  };
  const typo = good.replace('"type": "timestamp"', '"type": "tmestamp"');
  assert.notEqual(typo, good);
  await page.fill('#doc-json', typo);
  await page.waitForFunction(() => /tmestamp/.test(document.querySelector('#design-error').textContent));
  const t = spot(typo, '"tmestamp"');
  const shown = await page.textContent('#design-error');
  assert.match(
    shown,
    new RegExp(`unknown variant \`tmestamp\`.*\\(at /fields/\\d+/type\\)\nline ${t.line}, column ${t.column}:`),
    shown,
  );
  assert.equal(await page.getAttribute('#doc-json', 'aria-invalid'), 'true');
  await page.click('#goto-error');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'doc-json');
  assert.equal(await page.evaluate(() => document.activeElement.selectionStart), t.at);
  // Not JSON at all: the engine's parser says where, in the same text.
  const broken = good.replace('"fields": [', '"fields": [,');
  await page.fill('#doc-json', broken);
  const b = spot(broken, '[,', 1);
  await page.waitForFunction(
    n => document.querySelector('#design-error').textContent.includes(n),
    `line ${b.line}, column ${b.column}:`,
  );
  assert.match(await page.textContent('#design-error'), /^expected value/);
  await page.fill('#doc-json', good);
  await waitDone(page);
  assert.equal(await page.$eval('#design-error', e => e.hidden), true);
  assert.equal(await page.getAttribute('#doc-json', 'aria-invalid'), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('parse as you type: the error is marked at its line and column and the run waits', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  await fillKey(page, 'long(ts) +\n  + id');
  await page.waitForSelector('#design-error:not([hidden])');
  const err = await page.textContent('#design-error');
  assert.match(err, /line 2, column 3/);
  assert.equal(await page.getAttribute('#key-text', 'aria-invalid'), 'true');
  // underlined in the key editor where the parser stopped: the second `+`, line 2 column 3
  const underlined = () => page.$$eval('#key-cm .cm-lintRange-error', es => es.map(e => e.textContent).join(''));
  await page.waitForFunction(() => document.querySelector('#key-cm').shadowRoot.querySelector('.cm-lintRange-error'));
  assert.equal(await underlined(), '+');
  await page.click('#goto-error');
  // the caret in the editor, on the spot (offset 13 of the key text)
  const caret = () =>
    page.evaluate(() => {
      const root = document.querySelector('#key-cm').shadowRoot;
      const sel = root.getSelection();
      const content = root.querySelector('.cm-content');
      const r = document.createRange();
      r.setStart(content, 0);
      r.setEnd(sel.anchorNode, sel.anchorOffset);
      // lines are divs: count their breaks as the text's \n
      return {
        focused: document.activeElement?.id,
        at: r.toString().length + (r.cloneContents().querySelectorAll('.cm-line').length - 1),
      };
    });
  assert.deepEqual(await caret(), { focused: 'key-cm', at: 13 });
  // A key that parses but names an undeclared field: the engine's error, its path said once.
  await fillKey(page, 'long(ts) + nope');
  await page.waitForFunction(() => /nope/.test(document.querySelector('#design-error').textContent));
  const undeclared = await page.textContent('#design-error');
  assert.equal(undeclared.split('/key/segments/1').length - 1, 1, undeclared);
  // ... and underlined in the key: `nope` starts at column 12 (offset 11).
  assert.match(undeclared, /line 1, column 12, underlined in the key/);
  assert.equal(undeclared.split('column 12').length - 1, 1, undeclared);
  await page.waitForFunction(() =>
    /nope/.test(document.querySelector('#key-cm').shadowRoot.querySelector('.cm-lintRange-error')?.textContent),
  );
  assert.equal(await underlined(), 'nope');
  await page.click('#goto-error');
  assert.deepEqual(await caret(), { focused: 'key-cm', at: 11 });
  await fillKey(page, 'salt(id, 8) + long(ts) + id');
  await waitDone(page);
  assert.equal(await page.$eval('#design-error', e => e.hidden), true);
  assert.match(await page.textContent('#diagnosis'), /^Diagnosis: [A-Z]/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('downloads: metrics CSV, heatmap PNG, design JSON; import and recent designs', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  const get = async sel => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
    return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
  };
  const csv = await get('#export-csv');
  assert.match(csv.name, /\.csv$/);
  assert.match(csv.bytes.toString(), /^metric,value,meaning\n/);
  assert.match(csv.bytes.toString(), /\nwindow,startTime,total,max,busiestRegion/);
  const png = await get('#export-png');
  assert.match(png.name, /\.png$/);
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const json = await get('#export-json');
  assert.equal(JSON.parse(json.bytes.toString()).key, 'long(ts) + id');
  // Saved by a Windows editor: a UTF-8 byte order mark first (JSON.parse alone refuses it).
  await page.setInputFiles('#import-json', {
    name: 'salted.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      `\uFEFF${JSON.stringify({ ...TIME_FIRST, name: 'salted', key: 'salt(id, 8) + long(ts) + id' })}`,
    ),
  });
  await page.waitForFunction(() => document.querySelector('#key-text').value.startsWith('salt'));
  await waitDone(page);
  const recent = await page.$$eval('#recent option', os => os.map(o => o.textContent));
  assert.ok(
    recent.some(t => t.startsWith('salted')) && recent.some(t => t.startsWith('time first')),
    recent.join(' | '),
  );
  await page.selectOption('#recent', { index: 2 });
  await page.waitForFunction(() => document.querySelector('#key-text').value === 'long(ts) + id');
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#io-status').textContent !== '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('dark mode, 1280×800 and phone width; keyboard focus is visible', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(server.url);
  await waitDone(page);
  const bg = await page.$eval('body', b => getComputedStyle(b).backgroundColor);
  assert.equal(bg, 'rgb(20, 23, 27)');
  await shot(page, 'views-dark');
  await page.screenshot({ path: path.join(SHOTS, 'views-1280x800-dark.png') });
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  // every form control has a label (a wrapping <label> or aria-label)
  const unlabeled = await page.$$eval('#lab input, #lab select, #lab textarea, #lab button', es =>
    es
      .filter(
        e =>
          !e.labels?.length &&
          !e.getAttribute('aria-label') &&
          !(e.tagName === 'BUTTON' && e.textContent.trim()) &&
          !e.hidden,
      )
      .map(e => e.id),
  );
  assert.deepEqual(unlabeled, []);
  await page.close();
  const { page: light } = await openPage(browser, server.url);
  await light.goto(server.url);
  await waitDone(light);
  await light.screenshot({ path: path.join(SHOTS, 'views-1280x800.png') });
  await light.close();
  const { page: phone, problems: p3 } = await openPage(browser, server.url, { width: 390, height: 844 });
  await phone.goto(server.url);
  await waitDone(phone);
  const overflow = await phone.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `horizontal overflow ${overflow}px at phone width`);
  // the heatmap keeps a key axis whose labels are seen; the results bar is one row, and a
  // heading it jumps to is not under it
  const axis = await phone.$eval('#key-axis', a => ({
    width: a.getBoundingClientRect().width,
    visible: getComputedStyle(a).visibility === 'visible',
    labels: [...a.querySelectorAll('.klabel')].filter(l => l.getBoundingClientRect().width > 8).length,
  }));
  assert.ok(axis.visible && axis.width >= 48 && axis.labels >= 2, JSON.stringify(axis));
  await phone.click('#results-nav button[data-to="reads-h"]');
  const { nav, heading } = await phone.evaluate(() => ({
    nav: document.getElementById('results-nav').getBoundingClientRect().bottom,
    heading: document.getElementById('reads-h').getBoundingClientRect().top,
  }));
  assert.ok(heading >= nav - 1, `the heading's top ${heading} under the bar's bottom ${nav}`);
  await shot(phone, 'views-phone');
  assert.deepEqual(problems, []);
  assert.deepEqual(p3, []);
  await phone.close();
});

test('rows against writes: the wide log design shares rows, its largest rows are listed, the map shows bytes; compare with the tall one', async () => {
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const wide = m.getPreset('seed001-log-wide'),
    tall = m.getPreset('seed001-log-tall');
  const r = m.analyzeDesign(wide, { windows: 64, sampleSize: 1000 });
  assert.ok(r.distinctRows * 10 < r.writes, `${r.distinctRows} rows from ${r.writes} writes`);
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#p=seed001-log-wide`);
  await waitDone(page);
  const text = id => page.textContent(`[data-metric="${id}"]`);
  // counted, not estimated: the workload is within the exact cap
  assert.ok(r.distinctRowsExact);
  assert.equal(await text('distinctRows'), `${r.distinctRows.toLocaleString('en-US')} distinct (every row counted)`);
  assert.equal(await text('cells'), r.cells.toLocaleString('en-US'));
  // The table lists the engine's largest rows, in its order, with their regions.
  const listed = await page.$$eval('#largest-rows tr', trs =>
    trs.slice(1).map(tr => Array.from(tr.querySelectorAll('td'), td => td.textContent)),
  );
  assert.equal(listed.length, Math.min(10, r.largestRows.length));
  listed.forEach((row, i) => {
    const w = r.largestRows[i];
    assert.deepEqual(row.slice(0, 5), [w.key, String(w.region), ...largestRowFigures(r, w)]);
  });
  // Bytes: each region's writes weighted by its bytes per write; the URL keeps the choice.
  await page.selectOption('#heat-measure', 'bytes');
  await page.waitForFunction(() => location.hash.includes('measure=bytes'));
  assert.match(await page.textContent('#heat-legend'), /brighter = more bytes/);
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await page.focus('#heatmap');
  await page.keyboard.press('ArrowRight');
  const g = r.regions[0];
  const expected = Math.round(r.matrix.cells[1] * (g.bytes / g.writes));
  assert.match(await page.textContent('#tooltip'), new RegExp(`${expected.toLocaleString('en-US')} bytes in window 1`));
  await page.locator('.heat').screenshot({ path: path.join(SHOTS, 'views-heat-bytes.png') });
  // Compare: the same writes make far fewer rows in the wide design.
  const c = m.compareDesigns([wide, tall], { windows: 64 });
  await page.selectOption('#compare-with', 'seed001-log-tall');
  await page.click('#compare-run');
  await page.waitForSelector('#compare figure + figure', { timeout: 60000 });
  const rows = await page.$$eval('#compare [data-metric="distinctRows"]', ds => ds.map(d => d.textContent));
  assert.deepEqual(
    rows,
    c.designs.map(d => d.distinctRows.toLocaleString('en-US')),
  );
  assert.ok(c.designs[0].distinctRows * 10 < c.designs[1].distinctRows);
  await shot(page, 'views-rows-compare');
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap axes: each labelled row is its region start key, ticks are round times inside the run, the scale legend shows the top', async () => {
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const doc = m.getPreset('seed000-telecom-time-first');
  const r = m.analyzeDesign(doc, { windows: 64, sampleSize: 1000 });
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom-time-first`);
  await waitDone(page);
  const labels = await page.$$eval('#key-axis .klabel', ls => ls.map(l => [Number(l.dataset.row), l.textContent]));
  assert.equal(labels.length, r.regions.length, 'few regions: every row labelled');
  for (const [row, text] of labels) assert.equal(text, r.regions[row].startKey || '(first)');
  const ticks = await page.$$eval('#time-ticks .tick', ts => ts.map(t => [t.textContent, parseFloat(t.style.left)]));
  assert.ok(ticks.length >= 2 && ticks.length <= 7, JSON.stringify(ticks));
  const span = r.matrix.cols * r.windowMs;
  for (const [text, left] of ticks) {
    assert.ok(left >= 0 && left <= 100, `${text} at ${left} %`);
    // the tick's time, from its place, is on the minute its label names (HH:MM, UTC)
    const at = Math.round((r.startTimeMs + (left / 100) * span) / 1000) * 1000;
    const t = new Date(at).toISOString().slice(11, 16);
    assert.equal(t, text);
  }
  const max = await page.textContent('#heat-scale-max');
  assert.match(max, /^[\d,]+ writes \(log\)$/);

  // A clock over ten years (rows of a decade): ticks on 1 January, labelled by the year, and
  // windows said in days.
  const decade = { ...doc, workload: { ...doc.workload, records: 10000, writeRate: 10000 / (10 * 365.25 * 86400) } };
  const rd = m.analyzeDesign(decade, { windows: 64, sampleSize: 1000 });
  await page.goto(`${server.url}#v=1&d=${b64(decade)}`);
  // (the same page: its run of the new design ends when the legend speaks of days)
  await page.waitForFunction(() => / days;/.test(document.getElementById('heat-legend').textContent));
  await waitDone(page);
  const years = await page.$$eval('#time-ticks .tick', ts => ts.map(t => [t.textContent, parseFloat(t.style.left)]));
  assert.ok(years.length >= 2 && years.length <= 7, JSON.stringify(years));
  const spanD = rd.matrix.cols * rd.windowMs;
  for (const [text, left] of years) {
    assert.match(text, /^\d{4}$/);
    // the tick's place is 1 January of its year (within a pixel's worth of the map's time)
    const at = rd.startTimeMs + (left / 100) * spanD;
    assert.ok(Math.abs(at - Date.UTC(Number(text), 0, 1)) < spanD / 1000, `${text} at ${left} %`);
  }
  const days = (rd.windowMs / 86400000).toFixed(1);
  assert.ok((await page.textContent('#heat-legend')).includes(`windows of ${days} days`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap zoom on both axes: a diagonal drag zooms windows and regions, the key axis and the link follow, R resets', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  const box = await page.$eval('#heatmap', c => {
    const b = c.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  });
  // 10 regions on a 120 px map: a label per 14 px, every second row
  const labelRows = () => page.$$eval('#key-axis .klabel', ls => ls.map(l => Number(l.dataset.row)));
  const initial = await labelRows();
  assert.deepEqual(initial, [0, 2, 4, 6, 8]);
  // from the middle of row 2, window 8 to the middle of row 5, window 23 (10 rows, 64 windows)
  const at = (row, col) => [box.x + ((col + 0.5) / 64) * box.w, box.y + ((row + 0.5) / 10) * box.h];
  await page.mouse.move(...at(2, 8));
  await page.mouse.down();
  await page.mouse.move(...at(4, 15));
  await page.mouse.move(...at(5, 23));
  await page.mouse.up();
  await page.waitForFunction(() => /keys=2-6/.test(location.hash));
  assert.match(await page.evaluate(() => location.hash), /zoom=8-24/);
  assert.deepEqual(await labelRows(), [2, 3, 4, 5]);
  // the tooltip of the first shown row is region 2's
  await page.mouse.move(...[box.x + 5, box.y + box.h / 8]);
  assert.match(await page.textContent('#tooltip'), /^region 2 \[/);
  await page.focus('#heatmap');
  await page.keyboard.press('r');
  await page.waitForFunction(() => !/keys=|zoom=/.test(location.hash));
  assert.deepEqual(await labelRows(), initial);
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap zoom by keyboard alone: + and − zoom time around the cursor, ] and [ its keys; the cursor keeps its cell', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  await page.focus('#heatmap');
  // the cursor starts on the first cell: to region 5 (of 10), window 34 (of 64)
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 34; i++) await page.keyboard.press('ArrowRight');
  const tip = () => page.textContent('#tooltip');
  assert.match(await tip(), /^region 5 \[/);
  assert.match(await tip(), /window 34\b/);
  await page.keyboard.press('+');
  // 64 windows halved around window 34: 32 windows with 34 at their middle (its centre, 34.5,
  // less 16, rounded down)
  await page.waitForFunction(() => /zoom=18-50/.test(location.hash));
  assert.match(await tip(), /window 34\b/);
  await page.keyboard.press('+');
  await page.waitForFunction(() => /zoom=26-42/.test(location.hash));
  await page.keyboard.press(']');
  // 10 regions halved around region 5: regions 3–7
  await page.waitForFunction(() => /keys=3-8/.test(location.hash));
  assert.match(await tip(), /^region 5 \[/);
  assert.match(await tip(), /window 34\b/);
  const labels = await page.$$eval('#key-axis .klabel', ls => ls.map(l => Number(l.dataset.row)));
  assert.ok(
    labels.every(r => r >= 3 && r < 8),
    String(labels),
  );
  await page.keyboard.press('[');
  await page.waitForFunction(() => !/keys=/.test(location.hash));
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await page.waitForFunction(() => !/zoom=/.test(location.hash));
  assert.match(await tip(), /window 34\b/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the linter's findings, posted after the report, reach the metrics: a run in one worker and one spread over several", async () => {
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const telecom = m.getPreset('seed000-telecom');
  // the preset (one block of records: one worker), then 300,000 records (five blocks)
  for (const doc of [telecom, { ...telecom, workload: { ...telecom.workload, records: 300000 } }]) {
    await page.goto(`${server.url}#v=1&d=${b64(doc)}`);
    // this design's report drawn (the page may still show the last one's as the link opens)
    await page.waitForFunction(
      n => document.querySelector('#metrics [data-metric="writes"]')?.textContent === n,
      doc.workload.records.toLocaleString('en'),
      { timeout: 60000 },
    );
    const findings = m.lintDesign(doc);
    assert.ok(findings.length > 0, 'the preset has findings to show');
    await page.waitForFunction(
      n => document.querySelector('#metrics [data-metric="lint"]')?.textContent === n,
      String(findings.length),
    );
    assert.deepEqual(
      await page.$$eval('#metrics .findings li code', cs => cs.map(c => c.textContent)),
      findings.map(f => f.rule),
    );
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test("a heatmap cell's tooltip gives its share of the window's writes (in every region), as the engine counted them", async () => {
  const m = await import(path.join(ROOT, 'pkg/node/index.js'));
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  const r = m.analyzeDesign(m.getPreset('seed000-telecom'), { windows: 64, sampleSize: 1000 });
  await page.focus('#heatmap');
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  const { rows, cols, cells } = r.matrix;
  let windowWrites = 0;
  for (let i = 0; i < rows; i++) windowWrites += cells[i * cols + 1];
  const v = cells[2 * cols + 1];
  const tip = (await page.textContent('#tooltip')).split('\n');
  assert.match(tip[0], /^region 2 \[/);
  assert.ok(
    tip[1].startsWith(`${v.toLocaleString('en')} writes in window 1 (`) &&
      tip[1].includes(`, ${((v / windowWrites) * 100).toFixed(1)} % of the window's)`),
    tip[1],
  );
  assert.deepEqual(problems, []);
  await page.close();
});
