// The options outside the forms (the analysis's windows and sample keys, the advisor's servers
// and records), in headless Chromium: each control's min, max and default are the engine's
// (designSchema().options), a value past a range is never clamped, neither typed nor in a link,
// and the engine's error lands on the control.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { b64, openPage, pageRig, TIME_FIRST, waitDone } from '../helpers.mjs';

const rig = pageRig();

/** The engine's option `key` of `name` (AnalyzeOptions, AdviseOptions), from the page's own engine. */
const option = (page, name, key) =>
  page.evaluate(
    async ([n, k]) => (await import('./pkg/rowkey_lab.js')).designSchema().options[n].find(m => m.key === k),
    [name, key],
  );
/** The control's state: value, min, max, whether it is marked invalid and the note it points at. */
const controlState = (page, id) =>
  page.$eval(`#${id}`, e => ({
    value: e.value,
    min: e.min,
    max: e.max,
    invalid: e.getAttribute('aria-invalid') === 'true',
    note: document.getElementById(e.getAttribute('aria-describedby'))?.textContent ?? null,
  }));
const waitInvalid = (page, id, yes = true) =>
  page.waitForFunction(
    ([i, y]) => (document.getElementById(i).getAttribute('aria-invalid') === 'true') === y,
    [id, yes],
  );

test("the analysis options: the engine's range and default; a link past the range is the engine's error at the control", async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 900 });
  await page.goto(`${rig.server.url}#v=1&d=${b64(TIME_FIRST)}&w=70000`);
  // (the engine on the page's thread has started once the run has ended)
  await page.waitForSelector('#lab[data-run="error"]', { state: 'attached', timeout: 60000 });
  const w = await option(page, 'AnalyzeOptions', 'windows');
  const sample = await option(page, 'AnalyzeOptions', 'sampleSize');
  const [lo, hi] = w.range;
  assert.ok(70000 > hi, `the engine's window limit is ${hi}`);
  await waitInvalid(page, 'windows');
  const shown = await controlState(page, 'windows');
  // kept as the link gave it, not clamped to the limit
  assert.equal(shown.value, '70000');
  assert.deepEqual([shown.min, shown.max], [String(lo), String(hi)]);
  assert.match(shown.note, new RegExp(`${hi}`), shown.note);
  assert.match(page.url(), /&w=70000/, 'the link is not put right behind the user');
  // the sample keys, not in the link: the engine's default, its range
  const s = await controlState(page, 'sample-size');
  assert.deepEqual([s.value, s.min, s.max], [JSON.parse(sample.default), ...sample.range].map(String));
  assert.equal(s.invalid, false);

  // typed in range: the error goes, the run runs, the link says it
  await page.fill('#windows', '32');
  await waitDone(page);
  await waitInvalid(page, 'windows', false);
  assert.equal((await controlState(page, 'windows')).note, null);
  assert.match(page.url(), /&w=32/);
  // typed past the range: kept as typed, refused by the engine at the control
  await page.fill('#sample-size', String(sample.range[1] + 1));
  await waitInvalid(page, 'sample-size');
  const past = await controlState(page, 'sample-size');
  assert.equal(past.value, String(sample.range[1] + 1));
  assert.match(past.note, new RegExp(`${sample.range[1]}`), past.note);
  assert.match(page.url(), new RegExp(`&s=${sample.range[1] + 1}`));
  assert.equal(await page.getAttribute('#lab', 'data-run'), 'error');
  // emptied: the engine's default again
  await page.fill('#sample-size', '');
  await waitDone(page);
  await waitInvalid(page, 'sample-size', false);
  assert.doesNotMatch(page.url(), /&s=/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the advisor's options: the engine's range and default; a value past the range is the engine's error at the control", async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 900 });
  await page.goto(`${rig.server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  const records = await option(page, 'AdviseOptions', 'records');
  const servers = await option(page, 'AdviseOptions', 'servers');
  const r = await controlState(page, 'advice-records');
  assert.deepEqual([r.value, r.min, r.max], [JSON.parse(records.default), ...records.range].map(String));
  const sv = await controlState(page, 'advice-servers');
  assert.deepEqual([sv.value, sv.min, sv.max], ['', ...servers.range.map(String)], "no default: the design's");
  // one past the engine's limit (the page once clamped it to 2,000,000)
  const past = records.range[1] + 1;
  await page.fill('#advice-records', String(past));
  await page.click('#advice-run');
  await waitInvalid(page, 'advice-records');
  const shown = await controlState(page, 'advice-records');
  assert.equal(shown.value, String(past));
  assert.match(shown.note, new RegExp(`${records.range[1]}`), shown.note);
  assert.match(await page.textContent('#advice'), /could not run/);
  // in range again: the next run clears the mark
  await page.fill('#advice-records', '2000');
  await page.click('#advice-run');
  await waitInvalid(page, 'advice-records', false);
  await page.waitForSelector('#advice-for', { timeout: 120000 });
  assert.deepEqual(problems, []);
  await page.close();
});
