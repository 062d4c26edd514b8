// A workload of several blocks in headless Chromium: the page's analysis worker spreads it over
// workers of its own, one per core (worker.js, analyzeSpread), and the engine adds their partial
// counts up. What the page shows is what the npm package's analyzeDesign computes in one pass on
// one thread: the metrics, the distinct rows, the largest rows (a sketch that depends on the order
// of the writes) and the sorted key sample (ditto).

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { largestRowFigures, launch, openPage, ROOT, serve, waitDone } from '../helpers.mjs';

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

const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');

test('spread over workers: the page shows what one pass on one thread computes', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const workers = [];
  page.on('worker', w => workers.push(w.url()));
  await page.goto(server.url);
  await waitDone(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  // After the first result the analysis worker moves to the speed build and, idle, starts its
  // counting workers, warmed up on the design on show: one per core (at most 8) but its own,
  // since it counts too.
  const counting = list => list.filter(u => /worker\.js#engine=fast&role=counter$/.test(u));
  const perCore = cores > 1 ? Math.min(cores, 8) - 1 : 0;
  for (let t = 0; counting(workers).length < perCore && t < 150; t++) await page.waitForTimeout(100);
  assert.equal(counting(workers).length, perCore, `workers: ${workers.join(', ')}`);
  if (cores > 1)
    assert.ok(
      workers.some(u => u.endsWith('worker.js#engine=fast')),
      workers.join(', '),
    );
  const doc = m.getPreset('seed001-log-wide');
  doc.workload = { ...doc.workload, records: 300_000 };
  const expected = m.analyzeDesign(doc, { windows: 64, sampleSize: 1000 });
  assert.ok(new m.AnalysisSession(doc, null).blocks() >= 4, 'the workload spans several blocks');
  const before = workers.length;
  await page.evaluate(
    h => {
      location.hash = h;
    },
    `#v=1&d=${b64(doc)}`,
  );
  await page.waitForFunction(() => document.querySelector('#lab').dataset.run === 'running');
  await waitDone(page);
  // the run counted in those workers: none started for it
  assert.deepEqual(counting(workers.slice(before)), []);
  const distinct = await page.textContent('#metrics');
  assert.ok(distinct.includes(`${expected.distinctRows.toLocaleString('en')} distinct`), distinct);
  // the largest rows, as the package counts them in one pass
  const rows = await page.$$eval('#largest-rows tr', trs =>
    trs.slice(1).map(tr => [...tr.querySelectorAll('td')].slice(0, 5).map(td => td.textContent)),
  );
  const want = expected.largestRows.slice(0, 10).map(r => [r.key, String(r.region), ...largestRowFigures(expected, r)]);
  assert.deepEqual(rows, want);
  // the key sample (the rows the sorted-keys view has drawn): the same keys, in HBase order
  await page.click('#keys-h');
  const shown = await page.$$eval('#keys .krow[data-index]', rs =>
    rs.map(r => [Number(r.dataset.index), r.querySelector('.khex').textContent.replace(/\s/g, '')]),
  );
  assert.ok(shown.length > 5, `${shown.length} key rows drawn`);
  const { keys: bytes, offsets } = expected.sample;
  for (const [i, hex] of shown)
    assert.equal(hex, Buffer.from(bytes.subarray(offsets[i], offsets[i + 1])).toString('hex'), `sample key ${i}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link to a large design: its first run is on the speed build, counted at once by this worker and its counters', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const workers = [];
  page.on('worker', w => workers.push(w.url()));
  const doc = m.getPreset('seed001-log-wide');
  doc.workload = { ...doc.workload, records: 300_000 };
  const expected = m.analyzeDesign(doc, { windows: 64, sampleSize: 1000 });
  await page.goto(`${server.url}#v=1&d=${b64(doc)}`);
  await waitDone(page);
  // boot.js's worker, started on the speed build with the first run in its URL, and its
  // counting workers (one per core but its own), started beside it, not after a first result
  assert.match(workers[0] ?? '', /worker\.js#engine=fast&first=1&/, workers.join(', '));
  const counters = workers.filter(u => /#engine=fast&role=counter$/.test(u)).length;
  assert.equal(counters, cores > 1 ? Math.min(cores, 8) - 1 : 0, workers.join(', '));
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), (300_000).toLocaleString('en'));
  const metrics = await page.textContent('#metrics');
  assert.ok(metrics.includes(`${expected.distinctRows.toLocaleString('en')} distinct`), metrics);
  // nothing moved to another worker after it: the worker on hand already runs the speed build.
  // (The result's region plan is read by a one-call worker of its own, started as the result
  // is drawn: counted once its answer is on the page, or under load it starts inside the wait.)
  await page.waitForSelector('#region-plan h4');
  const n = workers.length;
  await page.waitForTimeout(500);
  assert.equal(workers.length, n, workers.join(', '));
  assert.deepEqual(problems, []);
  await page.close();
});
