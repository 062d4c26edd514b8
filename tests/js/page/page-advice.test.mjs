// The Advice view in headless Chromium: the advisor's answer from the page's workers equals the
// npm package's adviseDesign on one thread (same candidates, same figures, same recommendation);
// a journey: open advice, pick a point, load it, compare it with the design on show.

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

test('advice: the page answers as the package does; pick a point, load it, compare it', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const requests = [];
  page.on('request', r => requests.push(new URL(r.url()).pathname));
  await page.goto(`${server.url}#p=seed000-telecom-time-first`);
  await waitDone(page);
  const doc = m.getPreset('seed000-telecom-time-first');
  const expected = m.adviseDesign(doc, { records: 20000 });
  await page.fill('#advice-records', '20000');
  // the view and the advisor's run are no part of the first load: loaded as Advise is pressed
  const adviceFiles = () => requests.filter(r => /advice-view\.js$|advise-run\.js$/.test(r)).sort();
  assert.deepEqual(adviceFiles(), []);
  await page.click('#advice-run');
  await page.waitForSelector('#advice .advice-plot', { timeout: 120000 });
  assert.deepEqual(adviceFiles(), ['/engine/advise-run.js', '/views/advice-view.js']);
  // every evaluated candidate drawn, with the engine's labels; the recommendation the same
  const points = await page.$$eval('#advice .advice-plot g[data-index]', gs =>
    gs.map(g => Number(g.dataset.index)).sort((a, b) => a - b),
  );
  assert.deepEqual(
    points,
    expected.candidates.filter(c => c.metrics).map(c => c.index),
  );
  assert.equal(await page.textContent('#advice .advice-rec .diagnosis'), `Recommended: ${expected.recommended.label}`);
  const why = await page.$$eval('#advice .advice-rec li', ls => ls.map(l => l.textContent));
  assert.deepEqual(why, expected.recommended.why);
  // what the move to it will need from the rows, said before Move is pressed: the key writes
  // the call time to the second, so a key reading ts cannot be built from it (the engine's note)
  assert.match(expected.recommended.moveNote ?? '', /needs `ts`, which/);
  assert.equal(await page.textContent('#advice-move-note'), expected.recommended.moveNote);
  const pareto = await page.$$eval('#advice .advice-plot g.pareto', gs =>
    gs.map(g => Number(g.dataset.index)).sort((a, b) => a - b),
  );
  assert.deepEqual(
    pareto,
    expected.candidates.filter(c => c.pareto && c.metrics).map(c => c.index),
  );
  await shot(page, 'advice-plot');
  // pick another point by keyboard: its design is described, and can be loaded
  const other = expected.candidates.find(c => c.metrics && c.index !== 0 && c.index !== expected.recommended.index);
  await page.focus(`#advice .advice-plot g[data-index="${other.index}"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    label => document.querySelector('#advice-detail h4')?.textContent.startsWith(label),
    other.label,
  );
  assert.equal(await page.textContent('#advice-detail code'), other.keyText);
  const text = await page.inputValue('#doc-json');
  await page.click('#advice-load');
  await page.waitForFunction(t => document.querySelector('#doc-json').value !== t, text);
  await waitDone(page);
  assert.deepEqual(JSON.parse(await page.inputValue('#doc-json')), other.design);
  // the recommendation against the design now on show
  await page.click(`#advice .advice-plot g[data-index="${expected.recommended.index}"] .dot`);
  await page.click('#advice-compare');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, { timeout: 60000 });
  // "Move to this design": the comparison, and the move to the recommendation planned at once
  // (the library's rekeyOnWorkload from the design on show to it), the plan taking the focus
  const onShow = JSON.parse(await page.inputValue('#doc-json'));
  const move = m.rekeyOnWorkload(onShow, expected.recommended.design);
  await page.click('#advice-move');
  await page.waitForSelector('#rekey-checklist', { timeout: 60000 });
  assert.deepEqual(await page.$$eval('#rekey-checklist li', ls => ls.map(l => l.textContent)), move.checklist);
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H4');
  // a comparison asked for afterwards plans nothing by itself
  await page.click('#advice-compare');
  await page.waitForFunction(
    () => !document.getElementById('rekey-checklist') && document.querySelector('#rekey .rekey-go'),
    null,
    { timeout: 60000 },
  );
  // a click planned at once would have said so by now (its status is set as it is pressed)
  await page.waitForTimeout(200);
  assert.equal(await page.textContent('#rekey-status'), '');
  assert.deepEqual(problems, []);
  await page.close();
});
