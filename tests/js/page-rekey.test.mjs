// "Move the table to another design" under Compare (issue 59, item 7): from the time-first
// telecom design to the preset's phone-first one, the plan the page draws is the npm library's
// rekeyPlan over the same two designs' reports on the first design's workload (the engine's
// own composition, rekeyOnWorkload, asked of a worker): the same fields, regions, job figures,
// create statement and checklist. No console errors.

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

test('plan the move to a compared design: the library’s plan, drawn and copyable', async () => {
  const oldDoc = m.getPreset('seed000-telecom-time-first');
  const newDoc = { ...m.getPreset('seed000-telecom'), workload: oldDoc.workload };
  // the library's plan, composed apart: both designs analyzed on the first's workload
  const want = m.rekeyPlan(oldDoc, newDoc, m.analyzeDesign(oldDoc), m.analyzeDesign(newDoc));
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 1000 });
  await page.goto(`${server.url}#p=seed000-telecom-time-first`);
  await waitDone(page);
  await page.selectOption('#compare-with', 'seed000-telecom');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2, null, {
    timeout: 60000,
  });
  // the plan's view loads with the comparison (a module of its own in the built page)
  await page.waitForSelector('#rekey .rekey-go', { timeout: 60000 });
  await page.click('#rekey .rekey-go');
  await page.waitForSelector('#rekey-checklist');
  const got = await page.evaluate(() => ({
    fields: [...document.querySelectorAll('#rekey-fields tr')].slice(1).map(tr => tr.firstChild.textContent),
    regions: [...document.querySelectorAll('#rekey-regions tr')].slice(1).map(tr => tr.children[1].textContent),
    create: document.querySelector('#rekey .copy pre').textContent,
    checklist: [...document.querySelectorAll('#rekey-checklist li')].map(li => li.textContent),
    job: document.getElementById('rekey-job').textContent,
    focused: document.activeElement?.tagName,
  }));
  assert.deepEqual(
    got.fields,
    want.fields.map(f => f.field),
  );
  assert.deepEqual(
    got.regions,
    want.regions.map(r => r.startKey || '(first)'),
  );
  assert.equal(got.create, want.create);
  assert.deepEqual(got.checklist, want.checklist);
  assert.match(got.job, new RegExp(`^The job: ${want.job.rows.toLocaleString('en-US')} rows;`));
  assert.match(got.job, new RegExp(`${want.job.reducers} reducers, one per new region`));
  assert.equal(got.focused, 'H4', 'focus moves to the plan');
  await page.$eval('#rekey', b => b.scrollIntoView());
  await shot(page, 'rekey-plan');
  assert.deepEqual(problems, []);
  await page.close();
});
