// The design as forms, and the key editor, in headless Chromium: every preset's document survives
// its forms untouched (every control committed as shown); each part edited through its form
// changes the design and its results (a field added and used in the key with completion, a
// generator's cardinality, a read and its scans, the pre-split and the servers); an engine error
// is marked at the control its path names; a newcomer's journey from the telecom preset to a
// comparison. No console errors.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { largestRowFigures, launch, openPage, ROOT, serve, shot, waitDone } from '../helpers.mjs';

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
/** The design on the page, as the JSON editor holds it. */
const docOf = async page => JSON.parse(await page.inputValue('#doc-json'));
/** Sets the control for `p` (its JSON path) to `value` and commits it (Tab, as a user would). */
async function setControl(page, p, value) {
  const sel = `#design-forms [data-path="${p}"]`;
  await page.waitForSelector(sel);
  const tag = await page.$eval(sel, e => e.tagName);
  if (tag === 'SELECT') await page.selectOption(sel, value);
  else {
    await page.fill(sel, value);
    await page.press(sel, 'Tab');
  }
}
/** Waits for the run of an edited design to end, drawn. */
async function rerun(page, before) {
  await page.waitForFunction(t => document.querySelector('#doc-json').value !== t, before);
  // the state read where it is waited for: a next run may start between a wait and a second read
  const run = await (
    await page.waitForFunction(
      () => ['done', 'error'].find(r => document.querySelector('#lab').dataset.run === r),
      null,
      { timeout: 60000 },
    )
  ).jsonValue();
  assert.equal(run, 'done', await page.textContent('#design-error'));
}
const openSection = (page, id) =>
  page.$eval(`#design-forms details[data-section="${id}"]`, d => {
    d.open = true;
  });

test('every preset survives its forms: each control committed as shown leaves the document as it was', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  // and a design with the parts no preset has: a configured auto-split, a field as the qualifier
  const telecom = m.getPreset('seed000-telecom');
  const extra = {
    ...telecom,
    regions: {
      ...telecom.regions,
      autoSplit: { policy: { type: 'keyPrefix', prefixLength: 2 }, config: { maxFileSize: 100000000 } },
    },
    cells: { qualifier: { kind: 'field', field: 'phone' }, versions: 3 },
  };
  const cases = [...m.listPresets().map(p => [p.id, `p=${p.id}`]), ['auto-split and cells', `v=1&d=${b64(extra)}`]];
  for (const [id, hash] of cases) {
    await page.goto(`${server.url}#${hash}`);
    await waitDone(page);
    await page.waitForSelector('#design-forms details');
    const before = await docOf(page);
    const { n, cells } = await page.evaluate(() => {
      const controls = [...document.querySelectorAll('#design-forms [data-path]')];
      // the switches once more at the end: one committed as shown keeps the part it shows
      const switches = controls.filter(c => c.type === 'checkbox');
      for (const c of [...controls, ...switches]) c.dispatchEvent(new Event('change', { bubbles: true }));
      return { n: controls.length, cells: controls.filter(c => c.dataset.path.startsWith('/cells')).length };
    });
    assert.ok(n >= 5, `${id}: ${n} controls`);
    // a cells section is shown whole: the switch, the qualifier's kind and members, the versions
    if (before.cells) {
      const kind = m.designSchema().qualifiers.find(q => q.name === before.cells.qualifier.kind);
      assert.equal(cells, 3 + kind.members.length, id);
    } else assert.equal(cells, 1, id);
    await page.waitForTimeout(50);
    assert.deepEqual(await docOf(page), before, id);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

/** A time-first key over zipf ids on 8 uniform regions: the forms' tests start from it. */
const ZIPF_TIME_FIRST = {
  v: 1,
  fields: [
    { name: 'id', type: 'string', generator: { kind: 'zipf', n: 1000 } },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 8 } },
};

test('a field added through the form, its generator and cardinality set, used in the key', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#v=1&d=${b64(ZIPF_TIME_FIRST)}`);
  await waitDone(page);
  let text = await page.inputValue('#doc-json');
  await page.click('#design-forms button[data-act="add-field"]');
  await page.waitForFunction(() => document.activeElement?.dataset.path === '/fields/2/name');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('host');
  await page.keyboard.press('Tab');
  await setControl(page, '/fields/2/generator', 'zipf');
  await setControl(page, '/fields/2/generator/n', '4');
  await rerun(page, text);
  const doc = await docOf(page);
  assert.deepEqual(doc.fields[2], { name: 'host', type: 'string', generator: { kind: 'zipf', n: 4 } });
  // the generator's members are the engine's for zipf (n, s, offset, scramble), n required
  const members = await page.$$eval('#design-forms [data-path^="/fields/2/generator/"]', es =>
    es.map(e => e.dataset.path.split('/').pop()),
  );
  assert.deepEqual(
    members,
    m
      .designSchema()
      .generators.find(g => g.name === 'zipf')
      .members.map(x => x.key),
  );
  // the key takes the new field at its front: 4 hosts over 8 uniform regions
  text = await page.inputValue('#doc-json');
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  await page.click('#key-cm .cm-content');
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type('ho');
  await page.waitForSelector('#key-cm .cm-tooltip-autocomplete li[aria-selected]');
  const first = await page.$eval('#key-cm .cm-tooltip-autocomplete li[aria-selected]', e => e.textContent);
  assert.match(first, /^host/);
  await page.waitForTimeout(150); // CodeMirror's interactionDelay
  await page.keyboard.press('Enter');
  await page.keyboard.type(' + "_" + ');
  await rerun(page, text);
  assert.equal(await page.inputValue('#key-text'), 'host + "_" + long(ts) + id');
  // the page's busiest region is the engine's: 4 hosts start with their own bytes
  const r = m.analyzeDesign(await docOf(page), { windows: 64, sampleSize: 1000 });
  const busiest = r.regions.reduce((a, x, i) => (x.writes > r.regions[a].writes ? i : a), 0);
  assert.match(await page.textContent('#region-bars-axis'), new RegExp(`busiest: region ${busiest} with`));
  // cardinality: changing the generator's n changes what runs
  text = await page.inputValue('#doc-json');
  await setControl(page, '/fields/2/generator/n', '2');
  await rerun(page, text);
  assert.equal((await docOf(page)).fields[2].generator.n, 2);
  await shot(page, 'forms-field-added');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link to a design with the same parts keeps the forms as they are; one with other parts redraws them', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#v=1&d=${b64(ZIPF_TIME_FIRST)}`);
  await waitDone(page);
  const sel = '#design-forms [data-path="/fields/0/name"]';
  await page.waitForSelector(sel);
  await page.$eval(sel, e => {
    e.dataset.drawnBefore = '1';
  });
  // the same parts under another key (a new object from the link): the forms are not rebuilt
  await page.evaluate(
    h => {
      location.hash = h;
    },
    `#v=1&d=${b64({ ...ZIPF_TIME_FIRST, key: 'id + long(ts)' })}`,
  );
  await page.waitForFunction(() => document.querySelector('#key-text').value === 'id + long(ts)');
  await waitDone(page);
  await page.waitForTimeout(100); // the forms are drawn in a task of their own
  assert.equal(await page.$eval(sel, e => e.dataset.drawnBefore ?? null), '1');
  // another workload: the forms show it
  await page.evaluate(
    h => {
      location.hash = h;
    },
    `#v=1&d=${b64({ ...ZIPF_TIME_FIRST, workload: { records: 30000 } })}`,
  );
  await page.waitForSelector('#design-forms [data-path="/workload/records"]', { state: 'attached' });
  await page.waitForFunction(
    () => document.querySelector('#design-forms [data-path="/workload/records"]')?.value === '30000',
  );
  assert.equal(await page.$eval(sel, e => e.dataset.drawnBefore ?? null), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a read added through the form shows its scans; pre-split and servers from the form', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom`);
  await waitDone(page);
  const reads = (await docOf(page)).reads.length;
  await openSection(page, 'reads');
  let text = await page.inputValue('#doc-json');
  await page.click('#design-forms button[data-act="add-read"]');
  await setControl(page, `/reads/${reads}/name`, 'one phone everywhere');
  await setControl(page, `/reads/${reads}/record/phone`, '13800138000');
  await rerun(page, text);
  const doc = await docOf(page);
  assert.deepEqual(doc.reads[reads], {
    type: 'prefix',
    name: 'one phone everywhere',
    record: { phone: '13800138000' },
  });
  // the planner's scans for it, as the page shows them: a salted key, one scan per bucket
  const plan = m.planReads(doc).find(p => p.name === 'one phone everywhere');
  await page.waitForFunction(() => /one phone everywhere/.test(document.querySelector('#reads').textContent));
  const row = await page.$$eval(
    '#reads tr',
    (trs, name) => trs.map(tr => [...tr.children].map(td => td.textContent)).find(r => r[0] === name),
    'one phone everywhere',
  );
  assert.deepEqual(row.slice(0, 3), [plan.name, String(plan.scans.length), String(plan.regionsTouched)]);
  assert.ok(plan.scans.length > 1, 'a prefix read on a salted key scans every bucket');
  // the pre-split and the region servers
  await openSection(page, 'regions');
  text = await page.inputValue('#doc-json');
  await setControl(page, '/regions/presplit', 'uniform');
  await setControl(page, '/regions/presplit/regions', '4');
  await setControl(page, '/regions/regionServers', '2');
  await rerun(page, text);
  const after = await docOf(page);
  assert.deepEqual(after.regions.presplit, { kind: 'uniform', regions: 4 });
  assert.equal(after.regions.regionServers, 2);
  await page.waitForFunction(() => /^4 regions/.test(document.querySelector('#region-bars-axis').textContent));
  await page.selectOption('#heat-view', 'servers');
  assert.deepEqual(problems, []);
  await page.close();
});

test('an engine error is marked at the control its path names; fixing it there runs the design', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const design = {
    v: 1,
    fields: [{ name: 'id', type: 'long', generator: { kind: 'uniformInt', min: 1, max: 100 } }],
    key: 'long(id)',
    workload: { records: 2000 },
  };
  await page.goto(`${server.url}#v=1&d=${b64(design)}`);
  await waitDone(page);
  await setControl(page, '/fields/0/generator/min', '500');
  const min = '#design-forms [data-path="/fields/0/generator/min"]';
  // the engine's message, at the control (its path /fields/0/generator/...)
  let expected;
  try {
    m.validateDesign({
      ...design,
      fields: [{ ...design.fields[0], generator: { kind: 'uniformInt', min: 500, max: 100 } }],
    });
    m.analyzeDesign({
      ...design,
      fields: [{ ...design.fields[0], generator: { kind: 'uniformInt', min: 500, max: 100 } }],
    });
  } catch (e) {
    expected = e;
  }
  assert.ok(expected?.path?.startsWith('/fields/0/generator'), String(expected?.path));
  const marked = `#design-forms [data-path="${expected.path}"]`;
  await page.waitForSelector(`${marked}[aria-invalid="true"]`);
  const note = await page.$eval(marked, e => document.getElementById(e.getAttribute('aria-describedby'))?.textContent);
  assert.ok(note && expected.message.includes(note.slice(0, 20)), `${note} / ${expected.message}`);
  await page.fill(min, '1');
  await page.press(min, 'Tab');
  await waitDone(page);
  assert.equal(await page.$(`${marked}[aria-invalid="true"]`), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('newcomer: telecom preset, a field through the form, used in the key by completion, an underlined typo fixed, compared with the preset', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(server.url);
  await waitDone(page);
  let text = await page.inputValue('#doc-json');
  await page.click('#design-forms button[data-act="add-field"]');
  await page.waitForFunction(() => document.activeElement?.dataset.path === '/fields/2/name');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('cell');
  await page.keyboard.press('Tab');
  await rerun(page, text);
  // in the key, after the phone: typed with a typo first, which the editor underlines
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  await page.click('#key-cm .cm-content');
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' + "_" + celll');
  await page.waitForFunction(() =>
    /celll/.test(document.querySelector('#key-cm').shadowRoot.querySelector('.cm-lintRange-error')?.textContent ?? ''),
  );
  await shot(page, 'forms-newcomer-typo');
  text = await page.inputValue('#doc-json');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('e');
  await page.waitForSelector('#key-cm .cm-tooltip-autocomplete li[aria-selected]');
  // CodeMirror takes Enter for a completion only once the list has been up for 75 ms
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  // the completion in the design first: the runs of the typed states ('c', 'ce') may have ended,
  // in errors of their own, before the completed key reaches it
  await page.waitForFunction(() => JSON.parse(document.querySelector('#doc-json').value).key.endsWith(' + cell'));
  await rerun(page, text);
  assert.match(await page.inputValue('#key-text'), / \+ "_" \+ cell$/);
  assert.equal(await page.$('#key-cm .cm-lintRange-error'), null);
  assert.equal(await page.$eval('#design-error', e => e.hidden), true);
  // the chips show the layout, one per segment, the caret's highlighted
  const chips = await page.$$eval('#key-chips .chip', cs => cs.map(c => c.querySelector('b').textContent));
  assert.deepEqual(
    chips,
    m.keyLayout(await docOf(page)).map(s => s.name || s.kind),
  );
  assert.equal(await page.$eval('#key-chips .chip.at b', b => b.textContent), 'cell');
  await page.selectOption('#compare-with', 'seed000-telecom');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#compare figure').length === 2);
  // the figures side by side, each against the first: the engine's compareDesigns
  const c = m.compareDesigns([await docOf(page), m.getPreset('seed000-telecom')], { windows: 64 });
  const cells = await page.$$eval('#compare table.deltas tr', trs =>
    trs.map(tr => [...tr.children].map(x => x.textContent)),
  );
  // (each figure after the first carries its change in parentheses and the engine's verdict)
  const value = text => Number(text.split(' ')[0].replace(/,/g, ''));
  const verdict = text => text.match(/ (better|worse|same)$/)?.[1] ?? null;
  const keyRow = cells.find(r => r[0] === 'Key bytes (mean)');
  for (const [i, x] of keyRow.slice(1).entries()) assert.ok(Math.abs(value(x) - c.designs[i].keyBytes) <= 0.005, x);
  const keyFigure = c.figures.find(f => f.label === 'Key bytes (mean)');
  assert.deepEqual(keyRow.slice(1).map(verdict), [
    null,
    keyFigure.verdicts[1] === 'changed' ? null : keyFigure.verdicts[1],
  ]);
  for (const r of c.designs[0].reads) {
    const shown = cells.find(x => x[0] === `Scans: ${r.name}`);
    assert.deepEqual(
      shown.slice(1).map(value),
      c.designs.map(d => d.reads.find(x => x.name === r.name).scans),
    );
  }
  await shot(page, 'forms-newcomer-compare');
  assert.deepEqual(problems, []);
  await page.close();
});

test('cells by form: a timeOffset qualifier on ts makes writes share cells, and the Rows figures follow', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  // the wide log design without its cells section: every write a cell of its own
  const { cells: _, ...design } = m.getPreset('seed001-log-wide');
  await page.goto(`${server.url}#v=1&d=${b64(design)}`);
  await waitDone(page);
  const cellsKept = () => page.textContent('#metrics [data-metric="cells"]');
  const largest = () =>
    page.$$eval('#largest-rows tr', trs =>
      trs.slice(1).map(tr => tr.querySelector('[data-label="cells kept"]').textContent),
    );
  const figures = async doc => {
    const r = m.analyzeDesign(doc, { windows: 64, sampleSize: 1000 });
    return [r.cells.toLocaleString('en'), r.largestRows.slice(0, 10).map(w => largestRowFigures(r, w)[1])];
  };
  const [cells0, rows0] = await figures(design);
  assert.deepEqual([await cellsKept(), await largest()], [cells0, rows0]);
  await openSection(page, 'cells');
  let text = await page.inputValue('#doc-json');
  await page.check('#design-forms [data-path="/cells"]');
  await rerun(page, text);
  assert.deepEqual((await docOf(page)).cells, {});
  // the engine's kinds, in its order
  const kinds = await page.$$eval('#design-forms [data-path="/cells/qualifier"] option', os =>
    os.map(o => o.value).filter(Boolean),
  );
  assert.deepEqual(
    kinds,
    m.designSchema().qualifiers.map(q => q.name),
  );
  // a time offset needs its field: the engine's error, at the kind's control, until one is chosen
  await setControl(page, '/cells/qualifier', 'timeOffset');
  await page.waitForSelector('#design-forms [data-path="/cells/qualifier"][aria-invalid="true"]');
  text = await page.inputValue('#doc-json');
  await setControl(page, '/cells/qualifier/field', 'ts');
  await setControl(page, '/cells/qualifier/rangeMs', '300000');
  await rerun(page, text);
  const doc = await docOf(page);
  assert.deepEqual(doc.cells, { qualifier: { kind: 'timeOffset', field: 'ts', rangeMs: 300000 } });
  const [cells1, rows1] = await figures(doc);
  assert.notEqual(cells1, cells0);
  await page.waitForFunction(c => document.querySelector('#metrics [data-metric="cells"]').textContent === c, cells1);
  assert.deepEqual(await largest(), rows1);
  assert.notDeepEqual(rows1, rows0);
  // VERSIONS 0 is refused by the engine, at its control
  await setControl(page, '/cells/versions', '0');
  await page.waitForSelector('#design-forms [data-path="/cells/versions"][aria-invalid="true"]');
  // and the JSON editor's cells show in the form: the fixed qualifier the tall design has
  await page.click('#json-box summary');
  await page.fill(
    '#doc-json',
    JSON.stringify({ ...doc, cells: { qualifier: { kind: 'fixed', name: 'v' }, versions: 3 } }),
  );
  await waitDone(page);
  assert.equal(await page.inputValue('#design-forms [data-path="/cells/qualifier"]'), 'fixed');
  assert.equal(await page.inputValue('#design-forms [data-path="/cells/qualifier/name"]'), 'v');
  assert.equal(await page.inputValue('#design-forms [data-path="/cells/versions"]'), '3');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a Phoenix CREATE TABLE pasted becomes the design: its key, regions and heatmap; a bad one is pointed at', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(server.url);
  await waitDone(page);
  const sql =
    'CREATE TABLE metrics (\n  host VARCHAR NOT NULL,\n  ts DATE NOT NULL,\n  metric INTEGER,\n  CONSTRAINT pk PRIMARY KEY (host, ts DESC)\n) SALT_BUCKETS = 16';
  await page.click('#phoenix-box summary');
  // a typo first: the engine's error at its line and column
  await page.fill('#phoenix-sql', sql.replace('PRIMARY KEY', 'PRIMARY KY'));
  await page.click('#phoenix-apply');
  let expected;
  try {
    m.parseCreateTable(sql.replace('PRIMARY KEY', 'PRIMARY KY'));
  } catch (e) {
    expected = e;
  }
  assert.equal(expected.line, 5);
  // (read in a worker: the error comes a moment after the click)
  await page.waitForSelector('#phoenix-error:not([hidden])');
  const err = await page.textContent('#phoenix-error');
  assert.match(err, new RegExp(`line 5, column ${expected.column}:\\n  CONSTRAINT pk PRIMARY KY`));
  assert.equal(await page.getAttribute('#phoenix-sql', 'aria-invalid'), 'true');
  const text = await page.inputValue('#doc-json');
  await page.fill('#phoenix-sql', sql);
  await page.click('#phoenix-apply');
  await page.waitForFunction(t => document.querySelector('#doc-json').value !== t, text);
  await waitDone(page);
  const doc = await docOf(page);
  assert.deepEqual(doc, m.parseCreateTable(sql));
  // the engine's analysis of it, on the page: 16 salt buckets, one region each
  const r = m.analyzeDesign(doc, { windows: 64, sampleSize: 1000 });
  assert.equal(r.regions.length, 16);
  assert.match(await page.textContent('#region-bars-axis'), /^16 regions/);
  // printed by a worker on the speed build: the statement comes a moment after the run
  await page.waitForFunction(() => document.querySelector('#phoenix-ddl')?.textContent);
  assert.equal(await page.textContent('#phoenix-ddl'), m.printCreateTable(doc));
  // the design before is under Recent designs
  assert.ok((await page.$$eval('#recent option', os => os.length)) >= 2);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a Phoenix key's columns as a form: the call time made DESC, the key and its bytes follow", async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-phoenix-telecom`);
  await waitDone(page);
  await openSection(page, 'key');
  const before = await docOf(page);
  const i = before.key.segments.findIndex(s => s.kind === 'pk' && s.type === 'DATE');
  assert.ok(i > 0, JSON.stringify(before.key));
  // the type is a choice of the engine's Phoenix types
  const types = await page.$$eval(`#design-forms [data-path="/key/segments/${i}/type"] option`, os =>
    os.map(o => o.value),
  );
  assert.deepEqual(types, m.designSchema().phoenixTypes);
  const text = await page.inputValue('#doc-json');
  await setControl(page, `/key/segments/${i}/desc`, 'true');
  await rerun(page, text);
  const after = await docOf(page);
  assert.deepEqual(after.key.segments[i], { ...before.key.segments[i], desc: true });
  assert.equal(await page.inputValue('#key-text'), m.formatKey(after.key));
  assert.match(await page.inputValue('#key-text'), /pk\(CALL_TIME, DATE, desc\)/);
  // DESC changes the bytes the key writes for the same record
  const record = { PHONE: '13412341234', CALL_TIME: '2021-09-07T08:30:00Z' };
  const asc = m.encodeKey(before, record),
    desc = m.encodeKey(after, record);
  assert.notDeepEqual(asc, desc);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a field renamed in its form is renamed in the key, the reads and the examples: the design still runs', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  const telecom = m.getPreset('seed000-telecom');
  await page.goto(`${server.url}#v=1&p=seed000-telecom`);
  await waitDone(page);
  const i = telecom.fields.findIndex(f => f.name === 'phone');
  const text = await page.inputValue('#doc-json');
  await setControl(page, `/fields/${i}/name`, 'device_id');
  await rerun(page, text);
  const doc = await docOf(page);
  assert.equal(doc.fields[i].name, 'device_id');
  // the key keeps its text form, with the new name where the old one was
  const key = await page.inputValue('#key-text');
  assert.equal(key, m.formatKey(telecom.key).replaceAll('phone', 'device_id'));
  const json = JSON.stringify({ reads: doc.reads, examples: doc.examples });
  assert.doesNotMatch(json, /"phone"/);
  assert.equal(
    (json.match(/"device_id"/g) ?? []).length,
    (JSON.stringify({ reads: telecom.reads, examples: telecom.examples }).match(/"phone"/g) ?? []).length,
  );
  // the engine plans every read of the renamed design, as it did before
  assert.equal(m.planReads(doc).length, telecom.reads.length);
  assert.equal(await page.textContent('#design-error'), '');
  // a name already taken is the engine's error at the control, and the design is unchanged
  await setControl(page, `/fields/${i}/name`, 'ts');
  await page.waitForSelector(
    `#design-forms [data-path="/fields/${i}/name"][aria-invalid="true"], #design-error:not(:empty)`,
  );
  assert.deepEqual(problems, []);
  await page.close();
});
