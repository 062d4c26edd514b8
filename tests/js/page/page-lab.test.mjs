// The key design lab in headless Chromium (every preset's heatmap: page-views.test.mjs): a
// time-leading key lights one region per window while a salted one lights them all, the URL
// round trip, the XSS case, no console noise, no foreign requests; screenshots saved for review.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { b64, fillKey, launch, openPage, serve, shot } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const TIME_FIRST = {
  v: 1,
  name: 'time first',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 8 } },
};

/** Click "Use these regions" and wait until the worker has read them (or said why not). */
async function applyRegions(page) {
  await page.click('#regions-apply');
  await page.waitForFunction(() => !document.querySelector('#regions-status').textContent.startsWith('Reading'));
}
async function metricOf(page, id) {
  return page.textContent(`#metrics [data-metric="${id}"]`);
}
async function waitReport(page) {
  await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
}

test("a key change that moves the design's examples is named under the key as it is typed", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitReport(page);
  const doc = JSON.parse(await page.inputValue('#doc-json'));
  assert.equal(doc.examples.length, 4);
  // The telecom bucket: |String.hashCode(phone + yyyyMM) % n| as two digits, computed here.
  const javaHash = t => [...t].reduce((h, c) => (Math.imul(31, h) + c.charCodeAt(0)) | 0, 0);
  const bucket = (ex, n) =>
    String(Math.abs(javaHash(ex.record.phone + ex.record.ts.slice(0, 7).replace('-', '')) % n)).padStart(2, '0');
  const moved = doc.examples.map((ex, j) => [ex, j]).filter(([ex]) => bucket(ex, 20) !== bucket(ex, 10));
  assert.ok(moved.length > 0 && moved.length < 4, `${moved.length}`);
  const key = await page.inputValue('#key-text');
  await fillKey(page, key.replace(', 10,', ', 20,'));
  await page.waitForSelector('#examples-note:not([hidden])');
  assert.match(
    await page.textContent('#examples-note strong'),
    new RegExp(`^This key writes other bytes for ${moved.length} of the design's 4 examples\\.$`),
  );
  const items = await page.$$eval('#examples-note li', ls => ls.map(l => l.textContent));
  assert.deepEqual(
    items.map(t => t.slice(0, t.indexOf(' (segment'))),
    moved.map(
      ([ex, j]) =>
        `example ${j} (phone ${ex.record.phone}, ts ${ex.record.ts}): the key writes ${bucket(ex, 20)}_${ex.record.phone}_${ex.record.ts.replace(/[-T:Z]/g, '')}, the example says ${bucket(ex, 10)}_${ex.record.phone}_${ex.record.ts.replace(/[-T:Z]/g, '')}`,
    ),
  );
  // The metrics list the same findings among the linter's, one per line.
  await waitReport(page);
  const rules = await page.$$eval('#metrics .findings li code', cs => cs.map(c => c.textContent));
  assert.equal(rules.filter(r => r === 'example-key').length, moved.length, rules.join(' '));
  // Back to ten buckets: the note goes.
  await fillKey(page, key);
  await page.waitForSelector('#examples-note', { state: 'hidden' });
  await waitReport(page);
  // Twenty again, deliberately: the examples take the keys the design writes now (the moved
  // ones their new bucket, the others unchanged), and the note goes.
  await fillKey(page, key.replace(', 10,', ', 20,'));
  await page.waitForSelector('#examples-note:not([hidden])');
  await page.click('#examples-note button');
  await page.waitForSelector('#examples-note', { state: 'hidden' });
  const rewritten = JSON.parse(await page.inputValue('#doc-json')).examples;
  assert.deepEqual(
    rewritten.map(ex => Buffer.from(ex.key, 'hex').toString()),
    doc.examples.map(ex => `${bucket(ex, 20)}_${ex.record.phone}_${ex.record.ts.replace(/[-T:Z]/g, '')}`),
  );
  assert.deepEqual(
    rewritten.map(ex => ex.note),
    doc.examples.map(ex => ex.note),
  );
  await waitReport(page);
  assert.deepEqual(problems, []);
  await page.close();
});

test('telecom preset: salted key lights every region; screenshots', async () => {
  const { page, problems, foreign } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitReport(page);
  assert.equal(await page.inputValue('#preset'), 'seed000-telecom');
  const active = Number(await metricOf(page, 'activeRegions'));
  const regions = Number(await metricOf(page, 'regions'));
  assert.ok(regions > 1 && active === regions, `${active} of ${regions}`);
  // Effective parallelism per window and over the run; the diagnosis quotes the run's figure.
  const par = /^([\d.]+) per window, ([\d.]+) over the run$/.exec(await metricOf(page, 'parallelism'));
  assert.ok(par, await metricOf(page, 'parallelism'));
  assert.ok(Number(par[1]) <= regions && Number(par[2]) <= regions, par[0]);
  assert.match(
    await page.textContent('#diagnosis'),
    new RegExp(`effective parallelism ${par[2].replace('.', '\\.')} of ${regions}`),
  );
  await shot(page, 'lab-salted');
  await page.hover('#heatmap', { position: { x: 30, y: 20 } });
  assert.match(await page.textContent('#tooltip'), /region \d+ \[/);
  await page.locator('.heat').screenshot({ path: 'test-results/lab-heatmap.png' });
  await page.locator('.keys').screenshot({ path: 'test-results/lab-keys.png' });
  await page.selectOption('#preset', 'seed000-vehicle');
  await page.waitForFunction(() => location.hash.includes('seed000-vehicle'));
  await waitReport(page);
  await page.selectOption('#compare-with', 'seed000-vehicle-final');
  await page.click('#compare-run');
  // Two presets with different fields' order and layouts compare side by side (page-state's
  // compare test checks the matrices against the engine).
  await page.waitForSelector('#compare figure + figure', { timeout: 60000 });
  assert.equal(await page.$$eval('#compare figure', fs => fs.length), 2);
  await shot(page, 'lab-compare');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
  await page.close();
});

test('a time-leading key lights one region per window; URL round trip', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitReport(page);
  assert.equal(Number(await metricOf(page, 'activeRegions')), 1);
  assert.equal(await page.inputValue('#key-text'), 'long(ts) + id');
  assert.match(await page.textContent('#diagnosis'), /one region/i);
  await shot(page, 'lab-time-first');
  // Edit the key: the hash follows; reloading it restores the edit.
  await fillKey(page, 'salt(id, 8) + long(ts) + id');
  await waitReport(page);
  const url = page.url();
  const { page: p2 } = await openPage(browser, server.url);
  await p2.goto(url);
  await waitReport(p2);
  assert.equal(await p2.inputValue('#key-text'), 'salt(id, 8) + long(ts) + id');
  assert.deepEqual(problems, []);
});

test('XSS: design text renders inert; parse errors point at the spot', async () => {
  const { page, problems } = await openPage(browser, server.url);
  let dialogs = 0;
  page.on('dialog', d => {
    dialogs++;
    d.dismiss();
  });
  const evil = {
    ...TIME_FIRST,
    name: '<img src=x onerror=alert(1)>',
    key: '"<img src=x onerror=alert(1)>" + long(ts)',
  };
  await page.goto(`${server.url}#v=1&d=${b64(evil)}`);
  await waitReport(page);
  assert.equal(await page.locator('img').count(), 0);
  assert.match(await page.textContent('#keys'), /<img src=x onerror=alert\(1\)>/);
  await fillKey(page, 'long(ts) + + id');
  await page.waitForSelector('#design-error:not([hidden])');
  assert.match(await page.textContent('#design-error'), /column/);
  await shot(page, 'lab-error');
  assert.equal(dialogs, 0);
  assert.equal(await page.locator('img').count(), 0);
  assert.deepEqual(problems, []);
});

test('phone width renders', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 390, height: 844 });
  await page.goto(server.url);
  await waitReport(page);
  await shot(page, 'lab-phone');
  assert.deepEqual(problems, []);
});

test("a table's current regions: get_splits pasted becomes the pre-split; an edited region name is pointed at", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitReport(page);
  assert.equal(Number(await metricOf(page, 'regions')), 10);
  await page.click('#table-regions summary');
  // A table pre-split for one-byte salts: the telecom keys (two-digit salts) all sort after
  // \x02, so every write goes to the last of its three regions.
  await page.fill(
    '#regions-text',
    "hbase(main):001:0> get_splits 'calls'\nTotal number of splits = 3\n\\x01\n\\x02\nTook 0.0123 seconds\n",
  );
  await applyRegions(page);
  await page.waitForFunction(() => document.querySelector('#metrics [data-metric="regions"]')?.textContent === '3');
  await waitReport(page);
  assert.equal(Number(await metricOf(page, 'activeRegions')), 1);
  // The key leads with a salt: the diagnosis blames the split points, not a timestamp.
  assert.match(
    await page.textContent('#diagnosis'),
    /which every key falls in \(`00_134.*the key does not lead with a timestamp or sequence, so the split points miss the range the keys fall in/,
  );
  assert.match(await page.textContent('#regions-status'), /^3 regions read from one key per line/);
  // The design, and so the link, carries the table's split keys.
  const d = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('d');
  const doc = JSON.parse(Buffer.from(d, 'base64url').toString());
  assert.deepEqual(doc.regions.presplit, { kind: 'explicit', keys: ['\\x01', '\\x02'], encoding: 'stringBinary' });
  assert.equal(doc.name, "Telecom call records: XX_phone_yyyyMMddHHmmss (seed 000) — on a table's current regions");
  // Side by side with the design before (its own ten salt regions), on one workload.
  await page.click('#regions-compare');
  await page.waitForSelector('#compare figure:nth-of-type(2)');
  const hot = await page.$$eval('#compare [data-metric="hotspotFactor"]', ds => ds.map(x => Number(x.textContent)));
  const caps = await page.$$eval('#compare figcaption .cmp-name', cs => cs.map(c => c.textContent));
  // each design by its role to the user: the one on the table's regions, the one before
  assert.deepEqual(await page.$$eval('#compare figcaption .cmp-role', cs => cs.map(c => c.textContent)), [
    "on the table's regions",
    'before',
  ]);
  assert.deepEqual(caps, [doc.name, 'Telecom call records: XX_phone_yyyyMMddHHmmss (seed 000)']);
  assert.ok(hot[0] === 3 && hot[1] < 2, `hotspot factors ${hot}`);
  await shot(page, 'lab-table-regions');
  // list_regions with one character edited: the MD5 check fails, the caret goes to the spot and
  // the design keeps the regions it had.
  const listed = [
    ' rs1.example.internal,16020,1700000000123 |     events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. |',
    ' rs2.example.internal,16020,1700000000456 | events,\\x02,1700000000000.e2388f30e27d4b2ce98a8810557b1aba. |',
  ].join('\n');
  await page.fill('#regions-text', listed);
  await applyRegions(page);
  assert.match(
    await page.textContent('#regions-status'),
    /^Line 2, column 56: the region name ending `,1700000000000\.e2388f30e27d4b2ce98a8810557b1aba\.` does not check out/,
  );
  assert.equal(await page.getAttribute('#regions-text', 'aria-invalid'), 'true');
  const caret = await page.$eval('#regions-text', t => t.selectionStart);
  assert.equal(listed.slice(caret, caret + 14), ',1700000000000');
  assert.equal(Number(await metricOf(page, 'regions')), 3);
  // The name as HBase wrote it (`\x01`, which the MD5 says) is taken.
  await page.fill('#regions-text', listed.replace('events,\\x02', 'events,\\x01'));
  await applyRegions(page);
  await page.waitForFunction(() => document.querySelector('#metrics [data-metric="regions"]')?.textContent === '2');
  assert.match(
    await page.textContent('#regions-status'),
    /^2 regions of table events read from region names \(2 checked against their MD5\)/,
  );
  assert.equal(await page.getAttribute('#regions-text', 'aria-invalid'), null);
  assert.deepEqual(problems, []);
});

test("a table's load now: /jmx dumps pasted after the region names, beside the design's writes", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitReport(page);
  await page.click('#table-regions summary');
  // The four regions of `events` (encoded names: Python's hashlib over `events,<start>,<id>`)
  // from a hbase:meta scan, then two RegionServers' /jmx output; region 3 takes most writes now.
  const ENC = [
    'b9648a65b8e483aa98e34ec614d0456a',
    'e2388f30e27d4b2ce98a8810557b1aba',
    '56148a42b86fc6273cb93d6e14763464',
    'a268fbf8a9da0a405f96f04dcf047e07',
  ];
  const writes = [2000, 1500, 1800, 90000];
  const meta = ENC.map(
    (e, i) => ` events,${i ? `\\x0${i}` : ''},1700000000000.${e}. column=info:regioninfo, value={ENCODED => ${e}}`,
  ).join('\n');
  const dump = (host, regions) =>
    JSON.stringify(
      {
        beans: [
          Object.fromEntries([
            ['name', 'Hadoop:service=HBase,name=RegionServer,sub=Regions'],
            ['tag.Hostname', host],
            ...regions.map(i => [
              `Namespace_default_table_events_region_${ENC[i]}_metric_writeRequestCount`,
              writes[i],
            ]),
          ]),
        ],
      },
      null,
      2,
    );
  await page.fill(
    '#regions-text',
    `${meta}\n${dump('rs1.example.internal', [0, 1])}\n${dump('rs2.example.internal', [2, 3])}\n`,
  );
  await applyRegions(page);
  await page.waitForSelector('#regions-load table', { timeout: 60000 });
  await waitReport(page);
  const share = ((writes[3] / writes.reduce((a, b) => a + b)) * 100).toFixed(1);
  // The telecom keys ('00'..'09' salts) all sort after \x03: the design sends every write to
  // the region that is hot now.
  assert.equal(
    await page.textContent('#regions-load p'),
    `The table now: region 3 takes ${share} % of its writes (95,300 counted since each region opened). This design: region 3 would take 100.0 % of its writes.`,
  );
  const rows = await page.$$eval('#regions-load tbody tr', trs =>
    trs.map(tr => [...tr.cells].map(td => td.textContent)),
  );
  assert.deepEqual(
    rows.map(r => r.slice(0, 3)),
    [
      ['0', '(first)', 'rs1.example.internal'],
      ['1', '\\x01', 'rs1.example.internal'],
      ['2', '\\x02', 'rs2.example.internal'],
      ['3', '\\x03', 'rs2.example.internal'],
    ],
  );
  assert.deepEqual(
    rows.map(r => r[4]),
    ['0.0 %', '0.0 %', '0.0 %', '100.0 %'],
  );
  assert.equal(rows[3][3], `${share} %`);
  assert.match(
    await page.textContent('#regions-status'),
    /load: reads and writes of 4 region\(s\) read from 2 \/jmx dump\(s\)/,
  );
  const held = (a, b) => (((writes[a] + writes[b]) / writes.reduce((x, y) => x + y)) * 100).toFixed(1);
  const [rs1, rs2] = [held(0, 1), held(2, 3)];
  assert.equal(
    await page.textContent('#regions-by-server'),
    `By region server, as the table places its regions now: rs1.example.internal ${rs1} % now, 0.0 % with this design; rs2.example.internal ${rs2} % now, 100.0 % with this design.`,
  );
  // The regions are placed where the dumps say, so the heatmap's server rows are those servers.
  assert.match(
    await page.textContent('#regions-status'),
    /the design now runs on them, on the 2 servers that hold them now\./,
  );
  await page.selectOption('#heat-view', 'servers');
  await page.focus('#heatmap');
  await page.keyboard.press('ArrowDown');
  assert.match(await page.textContent('#tooltip'), /^server rs2\.example\.internal: 2 regions\n/);
  await page.selectOption('#heat-view', 'regions');
  await page.$eval('#table-regions', d => d.scrollIntoView());
  await shot(page, 'lab-table-load');
  // Another preset leaves those regions: the table's load is no longer shown beside it.
  await page.selectOption('#preset', 'seed002-salt-byte');
  await page.waitForFunction(() => !document.querySelector('#regions-load table'), null, { timeout: 60000 });
  assert.deepEqual(problems, []);
});
