// "Move the table to another design" under Compare (issue 59, item 7): from the time-first
// telecom design to the preset's phone-first one, the plan the page draws is the npm library's
// rekeyPlan over the same two designs' reports on the first design's workload (the engine's
// own composition, rekeyOnWorkload, asked of a worker): the same fields, regions, job figures,
// create statement and checklist. Over a dropped Parquet file of rows, the plan is the CLI's
// `rekey --records` on the same file (the composition both run, engine/rekey.js). No console
// errors.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { b64, chooseNulls, openPage, pageRig, ROOT, shot, waitDone } from '../helpers.mjs';

const rig = pageRig();
let m;
before(async () => {
  m = await import(path.join(ROOT, 'pkg/node/index.js'));
});

test('plan the move to a compared design: the library’s plan, drawn and copyable', async () => {
  const oldDoc = m.getPreset('seed000-telecom-time-first');
  const newDoc = { ...m.getPreset('seed000-telecom'), workload: oldDoc.workload };
  // the library's plan, composed apart: both designs analyzed on the first's workload
  const want = m.rekeyPlan(oldDoc, newDoc, m.analyzeDesign(oldDoc), m.analyzeDesign(newDoc));
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await page.goto(`${rig.server.url}#p=seed000-telecom-time-first`);
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

test('over a dropped Parquet file of rows: the new table cut at the rows re-encoded, as the CLI cuts it', async () => {
  const FIX = path.join(ROOT, 'tests/fixtures/rows');
  const { regions: _, ...salted } = JSON.parse(readFileSync(path.join(FIX, 'flights-design.json'), 'utf8'));
  const timeFirst = { ...salted, name: 'Flights by hour first', key: 'long(time_hour) + tailnum' };
  // the CLI's plan on the same rows: the oracle
  const dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-page-rekey-'));
  let want;
  try {
    writeFileSync(path.join(dir, 'old.json'), JSON.stringify(timeFirst));
    writeFileSync(path.join(dir, 'new.json'), JSON.stringify(salted));
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'bin/rowkey-lab.mjs'),
        'rekey',
        path.join(dir, 'old.json'),
        path.join(dir, 'new.json'),
        '--records',
        path.join(FIX, 'flights.parquet'),
        '--nulls',
        'skip',
        '--time',
        'time_hour',
        '--regions',
        '6',
        '--by',
        'bytes',
        '--json',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    want = JSON.parse(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  // the salted design opened first (so it is under Recent designs), then the time-first one
  await page.goto(`${rig.server.url}#v=1&d=${b64(salted)}`);
  await waitDone(page);
  await page.goto(`${rig.server.url}#v=1&d=${b64(timeFirst)}`);
  await waitDone(page);
  // the user's rows dropped, nulls skipped, analyzed
  const bytes = readFileSync(path.join(FIX, 'flights.parquet')).toString('base64');
  await page.evaluate(b => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b), c => c.charCodeAt(0))], 'flights.parquet'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await chooseNulls(page);
  await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 60000 });
  await page.click('#rows-run');
  await page.waitForSelector('#rows-banner');
  await waitDone(page);
  // compared with the salted design, then the move planned over the rows
  const recent = await page.$$eval('#compare-with optgroup[label="Recent designs"] option', os =>
    os.map(o => [o.value, o.textContent]),
  );
  const pick = recent.find(([, label]) => label.startsWith('Flights by tail number, salted'));
  assert.ok(pick, JSON.stringify(recent));
  await page.selectOption('#compare-with', pick[0]);
  await page.click('#compare-run');
  await page.waitForSelector('#rekey #rekey-count', { timeout: 60000 });
  assert.match(await page.$eval('#rekey .rekey-cut', e => e.textContent), /flights\.parquet/);
  await page.fill('#rekey-count', '6');
  await page.selectOption('#rekey-by', 'bytes');
  await page.click('#rekey .rekey-go');
  await page.waitForSelector('#rekey-checklist', { timeout: 60000 });
  const got = await page.evaluate(() => ({
    regions: [...document.querySelectorAll('#rekey-regions tr')].slice(1).map(tr => tr.children[1].textContent),
    create: document.querySelector('#rekey .copy pre').textContent,
    job: document.getElementById('rekey-job').textContent,
    sampled: !!document.getElementById('rekey-sampled'),
  }));
  assert.deepEqual(
    got.regions,
    want.regions.map(r => r.startKey || '(first)'),
  );
  assert.equal(want.regions.length, 6);
  assert.equal(got.create, want.create);
  assert.match(got.job, new RegExp(`^The job: ${want.job.rows.toLocaleString('en-US')} rows;`));
  assert.equal(got.sampled, !want.splitKeysExact);
  await page.$eval('#rekey', b => b.scrollIntoView());
  await shot(page, 'rekey-rows');
  assert.deepEqual(problems, []);
  await page.close();
});
