// The page on a phone (390 px wide) and by keyboard and screen reader, in headless Chromium: no
// sideways scroll in any state (the first result, a run, the Advice, a loaded candidate, a
// comparison, rows of a file); the row key right above its results; the focus on the answer after
// Advise and on the results after Load; the brightness slider named and its value in words; the
// advice after Load marked as the design before's, never comparing the design on show with itself.
// Screenshots: test-results/phone-*.png.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { b64, chooseNulls, openPage, pageRig, ROOT, shot, waitDone } from '../helpers.mjs';

const rig = pageRig();
const PHONE = { width: 390, height: 844 };
const phone = browser => openPage(browser, rig.server.url, PHONE, { isMobile: true, hasTouch: true });
const ROWS = path.join(ROOT, 'tests/fixtures/rows');
const NO_ROWS_BUILD = existsSync(path.join(ROOT, 'dist/www/pkg/rows/rowkey_lab_bg.wasm'))
  ? false
  : 'the page has no rows build (scripts/build-wasm.sh)';

/** How far the page scrolls sideways: its scroll width beyond its width, in px (not innerWidth,
 * which a phone widens to the content). */
const sideways = page =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
/** The focused element, as `tag#id`. */
const focused = page =>
  page.evaluate(() => {
    const a = document.activeElement;
    return `${a?.tagName.toLowerCase()}${a?.id ? `#${a.id}` : ''}`;
  });

/** The advisor run on few records per candidate (a test's patience), by keyboard; its plot drawn. */
async function advise(page) {
  await page.fill('#advice-records', '20000');
  await page.focus('#advice-run');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#advice .advice-plot', { timeout: 120000 });
}

test('at 390 px nothing scrolls sideways: first result, Advice, a loaded candidate, Compare', async () => {
  const { page, problems } = await phone(rig.browser);
  await page.goto(rig.server.url);
  await waitDone(page);
  assert.equal(await sideways(page), 0, 'the first result');
  await advise(page);
  assert.equal(await sideways(page), 0, 'the Advice drawn (its capacity table)');
  await shot(page, 'phone-advice');
  await page.click('#advice-load');
  await waitDone(page);
  assert.equal(await sideways(page), 0, 'a candidate loaded');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, { timeout: 60000 });
  assert.equal(await sideways(page), 0, 'a comparison (its table of figures)');
  await shot(page, 'phone-compare');
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 390 px with rows of a file analyzed, nothing scrolls sideways', { skip: NO_ROWS_BUILD }, async () => {
  const { page, problems } = await phone(rig.browser);
  const design = JSON.parse(readFileSync(path.join(ROWS, 'flights-design.json'), 'utf8'));
  await page.goto(`${rig.server.url}#v=1&d=${b64(design)}`);
  await waitDone(page);
  await page.click('#rows-open');
  await page.setInputFiles('#rows-file', path.join(ROWS, 'flights.csv'));
  await chooseNulls(page);
  await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 120000 });
  assert.equal(await sideways(page), 0, 'the rows profiled');
  await page.click('#rows-run');
  await page.waitForSelector('#rows-banner', { timeout: 120000 });
  await waitDone(page);
  assert.equal(await sideways(page), 0, 'the rows analyzed');
  await shot(page, 'phone-rows');
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a phone the row key sits right above its diagnosis and heatmap', async () => {
  const { page, problems } = await phone(rig.browser);
  await page.goto(rig.server.url);
  await waitDone(page);
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  const at = await page.evaluate(() => {
    const top = id => document.getElementById(id).getBoundingClientRect().top + window.scrollY;
    const bottom = id => document.getElementById(id).getBoundingClientRect().bottom + window.scrollY;
    return { key: top('key-label'), keyEnd: bottom('key-label'), diagnosis: top('diagnosis'), heat: top('heatmap') };
  });
  // the key before its results, and its end and the map on the first screen with it
  assert.ok(at.key < at.diagnosis, JSON.stringify(at));
  assert.ok(at.heat - at.key < PHONE.height, `the map ${at.heat - at.key} px below the key`);
  await page.screenshot({ path: path.join(ROOT, 'test-results/phone-first-screen.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the focus goes to the answer after Advise and to the results after Load', async () => {
  const { page, problems } = await phone(rig.browser);
  await page.goto(rig.server.url);
  await waitDone(page);
  await advise(page);
  assert.equal(await focused(page), 'p#advice-answer');
  assert.match(await page.textContent('#advice-answer'), /^(Recommended: |Keep the design)/);
  // a candidate loaded: the focus on the results of the design now on show
  await page.focus('#advice-load');
  await page.keyboard.press('Enter');
  await waitDone(page);
  assert.equal(await focused(page), 'nav#results-nav');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the brightness slider is named, and says its value as a factor', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url);
  await page.goto(rig.server.url);
  await waitDone(page);
  const cdp = await page.context().newCDPSession(page);
  // its name and description as Chromium computes them; its value in words (aria-valuetext,
  // which Chromium does not yet take from a native range input: Firefox and Safari do)
  const slider = async () => {
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#brightness' });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return {
      role: nodes[0].role?.value,
      name: nodes[0].name?.value,
      description: nodes[0].description?.value,
      valuetext: await page.getAttribute('#brightness', 'aria-valuetext'),
    };
  };
  assert.deepEqual(await slider(), {
    role: 'slider',
    name: 'Heatmap brightness',
    description: '×1.00',
    valuetext: '×1, as drawn',
  });
  await page.focus('#brightness');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await slider(), {
    role: 'slider',
    name: 'Heatmap brightness',
    description: '×2.00',
    valuetext: '×2.00, brighter than drawn',
  });
  assert.deepEqual(problems, []);
  await page.close();
});

test('after Load the advice is the design before’s: the candidate on show is neither loaded nor compared with itself', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 900 });
  await page.goto(rig.server.url);
  await waitDone(page);
  await advise(page);
  assert.equal(await page.getAttribute('#advice', 'data-advised-on'), 'this');
  const rec = await page.$eval('#advice .advice-plot g.recommended', g => g.dataset.index);
  await page.click('#advice-load');
  await waitDone(page);
  await page.waitForSelector('#advice-before');
  // marked: the design before's advice, said as a note
  assert.equal(await page.getAttribute('#advice', 'data-advised-on'), 'before');
  assert.equal(await page.getAttribute('#advice-for', 'class'), 'note');
  // the candidate on show (still chosen): no Load, no Compare with itself
  assert.match(await page.textContent('#advice-detail h4'), /on show\)$/);
  assert.equal(await page.isDisabled('#advice-compare'), true);
  assert.equal(await page.isDisabled('#advice-load'), true);
  assert.equal(await page.textContent('#advice-on-show'), 'This candidate is the design on show.');
  const marks = await page.$eval(`#advice .advice-plot g[data-index="${rec}"]`, g => [...g.classList]);
  assert.ok(marks.includes('on-show') && marks.includes('chosen'), marks.join(' '));
  // the design advised on, chosen: compared with the candidate on show (the design before)
  await page.click('#advice .advice-plot g.current .dot');
  assert.equal(await page.isDisabled('#advice-compare'), false);
  await page.click('#advice-compare');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, { timeout: 60000 });
  const roles = await page.$$eval('#compare figure .cmp-role', ss => ss.map(s => s.textContent));
  assert.ok(roles[0].startsWith('after: '), roles[0]);
  assert.equal(roles[1], 'before');
  assert.deepEqual(problems, []);
  await page.close();
});
