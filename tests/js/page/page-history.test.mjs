// History in the page (issue 38): a committed change is a history entry of its own. Back and
// Forward step through the committed states inside the page (the design, the view), undo and redo
// (Ctrl+Z, Ctrl+Shift+Z outside a text box; the toolbar's Undo and Redo, enabled while there is a
// state to step to) do the same, typing makes one entry when it pauses rather than one per
// keystroke, and every entry's link reproduces what it showed.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { b64, launch, openPage, serve, TIME_FIRST, waitDone } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** What the page shows: the design's name, the windows box, the heatmap's scale and the hash. */
const shown = page =>
  page.evaluate(() => ({
    name: JSON.parse(document.getElementById('doc-json').value).name,
    windows: document.getElementById('windows').value,
    scale: document.getElementById('scale').value,
    hash: location.hash,
  }));
/** Whether the toolbar's Undo and Redo (found by their accessible names) can be pressed. */
const steps = async page => ({
  undo: await page.getByRole('button', { name: 'Undo', exact: true }).isEnabled(),
  redo: await page.getByRole('button', { name: 'Redo', exact: true }).isEnabled(),
});
/** Waits until the page shows `name` with its run done. */
const showing = async (page, name) => {
  await page.waitForFunction(n => {
    try {
      return JSON.parse(document.getElementById('doc-json').value).name === n;
    } catch {
      return false;
    }
  }, name);
  await waitDone(page);
};

test('Back, Forward, undo and redo step through committed states inside the page', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  const start = await shown(page);
  assert.equal(start.name, 'time first');
  const entries = await page.evaluate(() => history.length);
  assert.deepEqual(await steps(page), { undo: false, redo: false }, 'nothing to undo or redo yet');

  // 1. another preset (a whole design: one entry at once)
  await page.selectOption('#preset', 'seed000-telecom');
  await waitDone(page);
  const preset = await shown(page);
  assert.notEqual(preset.name, 'time first');
  assert.deepEqual(await steps(page), { undo: true, redo: false });
  // 2. the windows typed, digit by digit, then the box left: one entry, not one per keystroke
  await page.click('#windows', { clickCount: 3 });
  await page.keyboard.type('128');
  await page.locator('#windows').blur();
  await waitDone(page);
  const windows = await shown(page);
  assert.equal(windows.windows, '128');
  assert.match(windows.hash, /&w=128/);
  // 3. a view option: the heatmap's scale
  await page.selectOption('#scale', 'linear');
  const scale = await shown(page);
  assert.equal(scale.scale, 'linear');
  assert.equal(await page.evaluate(() => history.length), entries + 3, 'three committed changes, three entries');

  // Back: each committed state again, inside the page
  await page.goBack();
  await page.waitForFunction(() => document.getElementById('scale').value === 'log');
  assert.deepEqual(await shown(page), windows);
  await page.goBack();
  await page.waitForFunction(() => document.getElementById('windows').value === '64');
  await waitDone(page);
  assert.deepEqual(await shown(page), preset);
  await page.goBack();
  await showing(page, 'time first');
  assert.deepEqual(await shown(page), start);
  assert.ok(page.url().startsWith(server.url), 'still the page');
  // Forward
  await page.goForward();
  await showing(page, preset.name);
  assert.deepEqual(await shown(page), preset);

  // undo and redo from the keyboard, outside a text box
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Control+Shift+Z');
  await page.waitForFunction(() => document.getElementById('windows').value === '128');
  assert.deepEqual(await shown(page), windows);
  await page.keyboard.press('Control+Z');
  await page.waitForFunction(() => document.getElementById('windows').value === '64');
  await waitDone(page);
  assert.deepEqual(await shown(page), preset);
  await page.keyboard.press('Control+Z');
  await showing(page, 'time first');
  assert.deepEqual(await shown(page), start);
  // at the page's first entry undo stays on the page: the redo after it is the page's
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+Y');
  await showing(page, preset.name);
  assert.deepEqual(await shown(page), preset);

  // the toolbar's Undo and Redo: the same steps, each enabled while there is one to take
  assert.deepEqual(await steps(page), { undo: true, redo: true });
  const press = name => page.getByRole('button', { name, exact: true }).click();
  await press('Redo');
  await page.waitForFunction(() => document.getElementById('windows').value === '128');
  assert.deepEqual(await shown(page), windows);
  await press('Redo');
  await page.waitForFunction(() => document.getElementById('scale').value === 'linear');
  assert.deepEqual(await shown(page), scale);
  await page.waitForFunction(() => document.getElementById('redo').disabled);
  assert.deepEqual(await steps(page), { undo: true, redo: false }, 'the last state: nothing to redo');
  await press('Undo');
  await page.waitForFunction(() => document.getElementById('scale').value === 'log');
  assert.deepEqual(await shown(page), windows);
  await press('Undo');
  await page.waitForFunction(() => document.getElementById('windows').value === '64');
  await waitDone(page);
  assert.deepEqual(await shown(page), preset);
  await press('Undo');
  await showing(page, 'time first');
  assert.deepEqual(await shown(page), start);
  await page.waitForFunction(() => document.getElementById('undo').disabled);
  assert.deepEqual(await steps(page), { undo: false, redo: true }, 'the first state: nothing to undo');
  assert.ok(page.url().startsWith(server.url), 'still the page');
  await press('Redo');
  await showing(page, preset.name);
  assert.deepEqual(await shown(page), preset);
  // a reload still knows there are states to redo
  await page.reload();
  await waitDone(page);
  await page.waitForFunction(() => !document.getElementById('redo').disabled);
  assert.deepEqual(await steps(page), { undo: true, redo: true });
  assert.deepEqual(await shown(page), preset);
  // in a text box, Ctrl+Z is the box's own
  await page.click('#windows', { clickCount: 3 });
  await page.keyboard.type('7');
  await page.keyboard.press('Control+Z');
  assert.equal(await page.inputValue('#windows'), '64');
  assert.equal((await shown(page)).name, preset.name);

  // every entry's link reproduces its view: the windows entry opened afresh
  const fresh = await browser.newPage();
  await fresh.goto(server.url + windows.hash);
  await waitDone(fresh);
  assert.deepEqual(await shown(fresh), windows);
  await fresh.close();
  assert.deepEqual(problems, []);
  await page.close();
});
