// Issue 6's "done when", as one newcomer's path through the page in headless Chromium: pick the
// telecom time-first preset and see the hotspot, switch to the salted design and see it vanish
// while the scan count rises, copy the SPLITS line, share a link that reproduces the view.
// Expected values come from the presets' arithmetic (bucket counts, split keys), not from the
// page's own output.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { launch, openPage, ROOT, serve, shot } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const preset = id => JSON.parse(readFileSync(`${ROOT}/presets/${id}.json`, 'utf8'));
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

async function waitReport(page) {
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
}
// parseFloat: "1.54 (max 2.82)" reads as the mean
const metric = async (page, id) => parseFloat(await page.textContent(`#metrics [data-metric="${id}"]`));
/** Scans per read, by read name, from the read-plans table. */
async function scans(page) {
  return page.$$eval('#reads tr', rows =>
    Object.fromEntries(
      rows
        .map(r => [
          r.querySelector('td[data-label="read"]')?.textContent,
          r.querySelector('td[data-label="scans"]')?.textContent,
        ])
        .filter(([n]) => n)
        .map(([n, s]) => [n, Number(s)]),
    ),
  );
}
async function pick(page, id) {
  await page.selectOption('#preset', id);
  await page.waitForFunction(id => location.hash.includes(`p=${id}`), id);
  await waitReport(page);
}

test('newcomer: hotspot, salted fix, scans rise, SPLITS copied, shared link reproduces the view', async () => {
  const timeFirst = preset('seed000-telecom-time-first');
  const salted = preset('seed000-telecom');
  const buckets = salted.regions.presplit.buckets;
  assert.equal(salted.regions.presplit.kind, 'saltBuckets');

  const { page, problems, foreign } = await openPage(browser, server.url, undefined, CLIPBOARD);
  await page.goto(server.url);
  await waitReport(page);

  // 1. The timestamp-first key: one region takes each window's writes.
  await pick(page, 'seed000-telecom-time-first');
  assert.equal(await page.inputValue('#key-text'), timeFirst.key);
  // One region per window, two only in a window where the clock crosses a split key:
  // the mean is at most 1 + (regions − 1) / windows (shown to one decimal).
  const r1 = await metric(page, 'regions'),
    windows = Number(await page.inputValue('#windows'));
  assert.equal(r1, timeFirst.regions.presplit.keys.length + 1);
  const active = await metric(page, 'activeRegions');
  assert.ok(active >= 1 && active <= 1 + (r1 - 1) / windows + 0.05, `time-first: ${active} active regions per window`);
  assert.ok((await metric(page, 'hotspotFactor')) > 2, 'time-first: a hotspot');
  // The headline says what a window sees: the hotspot moves from region to region.
  assert.match(await page.textContent('#diagnosis'), /hotspot that moves/i);
  const before = await scans(page);
  assert.deepEqual(Object.keys(before).sort(), timeFirst.reads.map(r => r.name).sort());
  // No salt: every read is one contiguous key range.
  for (const [name, n] of Object.entries(before)) assert.equal(n, 1, `time-first ${name}`);
  await shot(page, 'journey-1-time-first');

  // 2. The salted design: every region takes writes; a read across time needs one scan per bucket.
  await pick(page, 'seed000-telecom');
  const regions = await metric(page, 'regions');
  assert.equal(regions, buckets);
  assert.equal(await metric(page, 'activeRegions'), buckets, 'salted: every region active');
  assert.ok((await metric(page, 'hotspotFactor')) < 2, 'salted: no hotspot');
  const after = await scans(page);
  const allTime = salted.reads.find(r => r.type === 'prefix' && !('ts' in r.record));
  assert.ok(allTime, 'the preset reads one phone over all time');
  assert.equal(after[allTime.name], buckets, 'one phone, all time: one scan per salt bucket');
  assert.ok(Math.max(...Object.values(after)) > Math.max(...Object.values(before)), 'the scan count rises');
  await shot(page, 'journey-2-salted');

  // 3. Copy the SPLITS line: one split key per bucket boundary, two decimal digits ('01' … '09').
  await page.click('#splits-out button:has-text("Copy shell create")');
  const line = await page.evaluate(() => navigator.clipboard.readText());
  const keys = Array.from({ length: buckets - 1 }, (_, i) => `'${String(i + 1).padStart(2, '0')}'`);
  assert.equal(line.replace(/^create '[^']*', '[^']*', /, ''), `SPLITS => [${keys.join(', ')}]`);
  assert.match(line, /^create 't', 'cf', /);
  // The statement names the table and family typed above it (quoted for the shell); a name
  // left empty is the design's (its placeholder), never an empty name.
  await page.fill('#split-table', "call's");
  await page.fill('#split-family', 'd');
  assert.match(await page.textContent('#splits-out pre'), /^create 'call\\'s', 'd', SPLITS => \['01', /);
  await page.fill('#split-table', '');
  assert.equal(await page.getAttribute('#split-table', 'placeholder'), 't');
  assert.match(await page.textContent('#splits-out pre'), /^create 't', 'd', SPLITS => \['01', /);
  await page.fill('#split-table', 'calls');

  // 3b. The read across time as shell scans of that table: one per salt bucket, the bucket
  // ('00' … '09') first, then the phone; a Ruby double-quoted literal each.
  await page.click('#scan-commands summary');
  const cmds = (await page.textContent('#scan-commands pre')).split('\n');
  const head = cmds.indexOf(`# ${allTime.name}: ${buckets} scans`);
  assert.ok(head >= 0, cmds.join('\n'));
  const phone = allTime.record.phone;
  assert.deepEqual(
    cmds
      .slice(head + 1, head + 1 + buckets)
      .map(c => c.match(/^scan 'calls', \{STARTROW => "(\d\d)_(\d+)_"/)?.slice(1)),
    Array.from({ length: buckets }, (_, b) => [String(b).padStart(2, '0'), phone]),
  );

  // 4. Share a link: a fresh page opened on it shows the same design and the same heatmap.
  await page.click('#copy-link');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.startsWith(server.url), link);
  const pixels = p => p.$eval('#heatmap', c => c.toDataURL());
  const { page: p2, problems: problems2 } = await openPage(browser, server.url);
  await p2.goto(link);
  await waitReport(p2);
  assert.equal(await p2.inputValue('#preset'), 'seed000-telecom');
  assert.equal(await p2.inputValue('#key-text'), salted.key);
  assert.equal(await metric(p2, 'activeRegions'), buckets);
  assert.deepEqual(await scans(p2), after);
  assert.equal(await pixels(p2), await pixels(page), 'the same heatmap');
  await shot(p2, 'journey-3-shared-link');

  assert.deepEqual(problems, []);
  assert.deepEqual(problems2, []);
  assert.deepEqual(foreign, []);
  await p2.close();
  await page.close();
});
