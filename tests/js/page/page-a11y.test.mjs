// Accessibility checks with axe-core (npm) in headless Chromium, light and dark: the page with
// every part of the design form open, the key editor, the Phoenix box, a comparison and the
// Advice view drawn. No serious or critical violation. (axe is injected as a script, which the
// page's CSP would refuse: these pages bypass the CSP; the other page tests keep it.)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { b64, launch, ROOT, serve } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');

/** WCAG's contrast ratio of two CSS `rgb(…)` colours. */
function contrast(a, b) {
  const lum = c => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map(v => {
        const s = Number(v) / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe: no serious or critical violation (${colorScheme})`, async () => {
    const page = await browser.newPage({ bypassCSP: true, viewport: { width: 1400, height: 900 }, colorScheme });
    await page.goto(`${server.url}#p=seed000-telecom-time-first`);
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
    await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
    await page.$$eval('#design-forms details, #phoenix-box, #json-box', ds => {
      for (const d of ds) d.open = true;
    });
    await page.fill('#advice-records', '5000');
    await page.click('#advice-run');
    await page.waitForSelector('#advice .advice-plot', { timeout: 120000 });
    await page.selectOption('#compare-with', 'seed000-telecom');
    await page.click('#compare-run');
    await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, {
      timeout: 60000,
    });
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const r = await globalThis.axe.run(document);
      return r.violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(
          v =>
            `${v.id} (${v.impact}): ${v.nodes
              .map(n => n.target.join(' '))
              .slice(0, 5)
              .join(', ')}`,
        );
    });
    assert.deepEqual(violations, []);
    await page.close();
  });
}

for (const colorScheme of ['light', 'dark'])
  test(`the ▼ split marks are small text with AA contrast (${colorScheme})`, async () => {
    // the new design: one region that auto-splits as it grows
    const blank = JSON.parse(readFileSync(path.join(ROOT, 'presets/groups/blank.json'), 'utf8'));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme });
    await page.goto(`${server.url}#v=1&d=${b64(blank)}`);
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
    const marks = await page.$$eval('#split-marks .mark', ms =>
      ms.map(m => [getComputedStyle(m).color, getComputedStyle(document.body).backgroundColor]),
    );
    assert.ok(marks.length > 0, 'the new design splits: its marks are drawn');
    // at least 4.5:1 against the page (WCAG AA for text under 18 px)
    for (const [fg, bg] of marks) assert.ok(contrast(fg, bg) >= 4.5, `split mark ${fg} on ${bg}: ${contrast(fg, bg)}`);
    await page.close();
  });

test('keyboard only: Tab reaches the key editor, the forms and the results bar; a field added and used without a mouse', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  /** Presses Tab until `test` holds for the focused element (at most 80 times). */
  const tabTo = async (what, test) => {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(test)) return;
    }
    assert.fail(`Tab never reached ${what}`);
  };
  await tabTo('the key editor', () => document.activeElement?.id === 'key-cm');
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' + "_"');
  await page.waitForFunction(() => document.querySelector('#key-text').value.endsWith('+ "_"'));
  // out of the editor (Tab indents nowhere: the editor lets it move focus on)
  await tabTo('Add a field', () => document.activeElement?.dataset.act === 'add-field');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.path === '/fields/2/name');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('cell');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#doc-json').value).fields[2]?.name === 'cell');
  await tabTo('the results bar', () => document.activeElement?.dataset.to === 'heat-h');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'heat-h');
  await page.close();
});

// Issue 72: the core journey by keyboard alone, counted key press by key press (every Tab, arrow
// and Enter): the time-first preset, its salted twin compared, the advisor, the move to its
// recommendation, months of the table, the link copied. Each action's answer takes the focus
// (the comparison, the advice, the move's plan, the months' verdict); the page's last link goes
// back to its first controls. At most 60 presses (158 before: runs of 28–33 Tabs).
test('keyboard journey: preset, twin, advice, move, months and link in at most 60 key presses', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(server.url);
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  let presses = 0;
  const steps = [];
  const press = async key => {
    presses++;
    await page.keyboard.press(key);
  };
  const focused = sel => page.evaluate(s => document.activeElement?.matches(s) ?? false, sel);
  /** Tab until `sel` has the focus (the presses counted). */
  const tabTo = async sel => {
    const from = presses;
    while (!(await focused(sel))) {
      if (presses - from > 80) assert.fail(`Tab never reached ${sel}`);
      await press('Tab');
    }
    steps.push(`${sel}: ${presses - from} Tab`);
  };
  const takes = async (sel, what) =>
    page
      .waitForFunction(s => document.activeElement?.matches(s), sel, { timeout: 120000 })
      .catch(() => assert.fail(`${what} did not take the focus (on ${sel})`));
  // 1. the time-first preset, the one above the page's first
  const presets = await page.$$eval('#preset option', os => os.map(o => o.value));
  const first = await page.$eval('#preset', s => s.value);
  assert.equal(presets[presets.indexOf(first) - 1], 'seed000-telecom-time-first');
  await tabTo('#preset');
  await press('ArrowUp');
  await page.waitForFunction(() => location.hash.includes('p=seed000-telecom-time-first'));
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  // 2. its twin compared: the comparison takes the focus
  await tabTo('#preset-twin');
  await press('Enter');
  await takes('#compare-h', 'the comparison');
  assert.equal(await page.locator('#compare figure').count(), 2);
  // 3. the advisor: its answer takes the focus
  await tabTo('#advice-run');
  await press('Enter');
  await takes('#advice-answer', 'the advice');
  // 4. the move to the recommendation: its plan takes the focus
  await tabTo('#advice-move');
  await press('Enter');
  await takes('#compare h4', 'the move');
  assert.match(await page.evaluate(() => document.activeElement.textContent), /^From .+ to .+/);
  // 5. months of the table: the panel's Simulate, then the verdict takes the focus
  await tabTo('#months-open');
  await press('Enter');
  await takes('#months-run', 'the months panel');
  await press('Enter');
  await takes('#months-out .months-headline', 'the months');
  // 6. back to the first controls from the page's end, and the link copied
  await tabTo('#to-top');
  await press('Enter');
  await tabTo('#copy-link');
  await press('Enter');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) === location.href);
  assert.ok(presses <= 60, `${presses} key presses (at most 60): ${steps.join(', ')}`);
  await page.close();
});
