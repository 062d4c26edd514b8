// Phoenix indexes on the page, as a user walks it in headless Chromium: a CREATE TABLE and its
// CREATE INDEX statements pasted into the Phoenix box become the design, each index is analyzed
// as the table it is and shown beside the data table (the figures the engine gives, the same
// as the npm package's analyzeDesign), the Table picker draws an index's own regions on the
// heatmap, and a link carries the table shown. No console errors.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, pasteTable, ROOT, serve, shot, waitDone } from '../helpers.mjs';
import { ORDERS_SQL } from '../orders-indexes.mjs';

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

/** The indexes table's rows as shown: `[table, kind, regions, busiest % mean, …]`. */
const indexRows = page =>
  page.$$eval('#indexes table tr', trs => trs.slice(1).map(tr => [...tr.children].map(c => c.textContent.trim())));
const pct = x => `${(x * 100).toFixed(1)} %`;

test('a table and its indexes pasted: each index its own table, on the heatmap and in a link', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(server.url);
  await waitDone(page);
  // a design without indexes has no index section
  assert.equal(await page.isHidden('#indexes-h'), true);
  assert.equal(await page.isHidden('#heat-of-box'), true);
  await pasteTable(page, ORDERS_SQL);
  const doc = JSON.parse(await page.inputValue('#doc-json'));
  assert.deepEqual(doc, m.parseCreateTable(ORDERS_SQL));
  // the engine's analysis of the design (the npm package), at the page's windows
  const windows = Number(await page.inputValue('#windows'));
  const r = m.analyzeDesign(doc, { windows, sampleSize: 1000 });
  const [time, customer] = r.indexes;
  assert.equal(time.name, 'BY_TIME');
  // the figures the user reads are the engine's, row by row
  const rows = await indexRows(page);
  assert.deepEqual(
    rows.map(x => x.slice(0, 5)),
    [
      ['ORDERS (data)', '', String(r.regions.length), pct(r.metrics.meanBusiestShare), pct(r.metrics.maxBusiestShare)],
      ['BY_TIME', 'global', '10', pct(time.busiestShare), pct(time.maxBusiestShare)],
      ['BY_CUSTOMER', 'global', '8', pct(customer.busiestShare), pct(customer.maxBusiestShare)],
    ],
  );
  // what the table shows: the time index takes a window's writes on one region, the table spreads
  assert.ok(time.busiestShare > 0.9 && r.metrics.meanBusiestShare < 0.25, JSON.stringify(rows));
  assert.equal(rows[1][6], '2 / 4 / 2');
  // the covered index's bytes are an estimate, marked and said
  assert.match(rows[2][7], /^≈/);
  assert.match(await page.textContent('#indexes'), /≈ BY_CUSTOMER: The INCLUDE columns' bytes are estimated/);
  // the diagnosis says each index's first finding beside the data table's
  const first = time.report.diagnosis[0];
  assert.ok(
    (await page.textContent('#diagnosis')).includes(`Index BY_TIME: ${first[0].toUpperCase()}${first.slice(1)}`),
    await page.textContent('#diagnosis'),
  );
  // each index's diagnosis, the engine's sentence
  assert.ok((await page.textContent('#indexes')).includes(`BY_TIME: ${time.report.diagnosis[0][0].toUpperCase()}`));
  await shot(page, 'page-indexes-table');

  // the Table picker: the data table, then each global index with its regions
  assert.equal(await page.isHidden('#heat-of-box'), false);
  const options = await page.$$eval('#heat-of option', os => os.map(o => o.textContent));
  assert.deepEqual(options, [
    `ORDERS (data table, ${r.regions.length} regions)`,
    'BY_TIME (global index, 10 regions)',
    'BY_CUSTOMER (global index, 8 regions)',
  ]);
  const dataSummary = await page.textContent('#heat-summary');
  await page.selectOption('#heat-of', 'BY_TIME');
  await page.waitForFunction(t => document.querySelector('#heat-summary').textContent !== t, dataSummary);
  // the map draws the index's own 10 regions, and says the index's verdict
  assert.match(await page.textContent('#region-bars-axis'), /^10 regions/);
  assert.ok((await page.textContent('#heat-summary')).includes(time.report.diagnosis[0].slice(1, 40)));
  assert.match(await page.evaluate(() => location.hash), /(^#|&)table=BY_TIME(&|$)/);
  await shot(page, 'page-indexes-heatmap');
  // back: the data table's map again; forward: the index's (the page's history entries)
  await page.goBack();
  await page.waitForFunction(() => !/table=/.test(location.hash));
  await page.waitForFunction(
    n => document.querySelector('#region-bars-axis').textContent.startsWith(`${n} regions`),
    r.regions.length,
  );
  assert.equal(await page.inputValue('#heat-of'), '');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#region-bars-axis').textContent.startsWith('10 regions'));
  assert.equal(await page.inputValue('#heat-of'), 'BY_TIME');

  // the link opens on the index's map
  const link = await page.evaluate(() => location.href);
  const second = await openPage(browser, server.url, { width: 1400, height: 900 });
  await second.page.goto(link);
  await waitDone(second.page);
  await second.page.waitForSelector('#indexes table');
  assert.equal(await second.page.inputValue('#heat-of'), 'BY_TIME');
  assert.match(await second.page.textContent('#region-bars-axis'), /^10 regions/);
  // an index's name in the table shows its map too
  await second.page.click('#indexes button[data-index="BY_CUSTOMER"]');
  assert.equal(await second.page.inputValue('#heat-of'), 'BY_CUSTOMER');
  assert.match(await second.page.textContent('#region-bars-axis'), /^8 regions/);
  // back to the data table
  await second.page.selectOption('#heat-of', '');
  assert.match(await second.page.textContent('#region-bars-axis'), new RegExp(`^${r.regions.length} regions`));
  assert.doesNotMatch(await second.page.evaluate(() => location.hash), /table=/);
  assert.deepEqual([...problems, ...second.problems], []);
  await second.page.close();
  await page.close();
});

test("the months of an index's own table beside the data table's", async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(server.url);
  await waitDone(page);
  await pasteTable(page, ORDERS_SQL);
  const doc = JSON.parse(await page.inputValue('#doc-json'));
  await page.click('#months-open');
  await page.waitForSelector('#months-box');
  // A: the data table; B: the index on the time column, its own table; a month on 4 servers each
  await page.check('#months-compare');
  for (const side of ['a', 'b']) {
    await page.fill(`#months-${side}-months`, '1');
    await page.fill(`#months-${side}-servers`, '4');
  }
  // a local index has no table of its own: only the global ones are offered
  assert.deepEqual(await page.$$eval('#months-b-index option', os => os.map(o => o.value)), [
    '',
    'BY_TIME',
    'BY_CUSTOMER',
  ]);
  await page.selectOption('#months-b-index', 'BY_TIME');
  await page.click('#months-run');
  await page.waitForSelector('#months-side-b h4', { timeout: 120000 });
  const heads = await page.$$eval('#months-out h4', hs => hs.map(h => h.textContent));
  assert.match(heads[0], /^A: (?!Index)/);
  assert.match(heads[1], /^B: Index BY_TIME: /);
  // the engine's months of each table (the npm package), drawn as it gives them
  for (const [side, options] of [
    ['a', { months: 1, servers: 4 }],
    ['b', { months: 1, servers: 4, index: 'BY_TIME' }],
  ]) {
    const month = m.lifeMonths(doc, options).report.months[0];
    assert.match(
      await page.textContent(`#months-side-${side} .months-summary`),
      new RegExp(`^After month 1: ${month.regions} regions`),
    );
  }
  assert.deepEqual(problems, []);
  await page.close();
});

// Issue 69 item 5 on the page: the advisor's index findings (an index whose own table takes a
// window's writes on one region, with its fixes, each checked) are shown with the advice, as the
// npm package's adviseDesign gives them.
test('the advice names the index that takes the writes and its checked fixes, as the package does', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(server.url);
  await waitDone(page);
  await pasteTable(page, ORDERS_SQL);
  await waitDone(page);
  const doc = JSON.parse(await page.inputValue('#doc-json'));
  const expected = m.adviseDesign(doc, { records: 20000 });
  assert.ok(expected.indexFindings.length > 0, 'the time index is a finding');
  await page.fill('#advice-records', '20000');
  await page.click('#advice-run');
  await page.waitForSelector('#advice-indexes', { timeout: 180000 });
  const shown = await page.$$eval('#advice-indexes .advice-index', parts =>
    parts.map(p => ({
      index: p.dataset.index,
      finding: p.querySelector('p.diagnosis').textContent,
      statements: [...p.querySelectorAll('ol > li > pre')].map(x => x.textContent),
    })),
  );
  assert.deepEqual(
    shown,
    expected.indexFindings.map(f => ({
      index: f.index,
      finding: `${f.index}: ${f.finding}`,
      statements: f.fixes.map(x => x.statement),
    })),
  );
  await shot(page, 'page-advice-indexes');
  assert.deepEqual(problems, []);
  await page.close();
});
