// The forms take every default, range and fixed set of names from the engine's schema
// (designSchema), in headless Chromium: a select offers the engine's names, an empty control
// hints the engine's default, a control says the engine's range; a value past the range is
// not clamped: it reaches the document as typed and the engine's error lands on its control.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, ROOT, serve, waitDone } from '../helpers.mjs';

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
const docOf = async page => JSON.parse(await page.inputValue('#doc-json'));
const control = p => `#design-forms [data-path="${p}"]`;
const openSection = (page, id) =>
  page.$eval(`#design-forms details[data-section="${id}"]`, d => {
    d.open = true;
  });
/** The schema's member `key` of object `name`. */
const member = (name, key) => m.designSchema().objects[name].find(x => x.key === key);
/** The names a select offers, without its "(default …)" entry. */
const offered = (page, p) => page.$$eval(`${control(p)} option`, os => os.map(o => o.value).filter(Boolean));

const DESIGN = {
  v: 1,
  fields: [{ name: 'id', type: 'string', generator: { kind: 'uniformString', length: 6 } }],
  key: { segments: [{ kind: 'fixed', field: 'id', width: 8 }] },
  workload: { records: 2000 },
  regions: { presplit: { kind: 'uniform', regions: 4 } },
};

test("the forms' names, hints and ranges are the engine's; a value past a range is the engine's error at its control", async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#v=1&d=${b64(DESIGN)}`);
  await waitDone(page);
  for (const id of ['key', 'workload', 'regions']) await openSection(page, id);

  // a member of a fixed set is a select of the engine's names, its default named first
  const assignment = member('RegionLayout', 'assignment');
  assert.ok(assignment.options.length >= 2, JSON.stringify(assignment));
  assert.deepEqual(await offered(page, '/regions/assignment'), assignment.options);
  const first = await page.$eval(`${control('/regions/assignment')} option`, o => o.textContent);
  assert.ok(first.includes(JSON.parse(assignment.default)), first);
  const side = m
    .designSchema()
    .segments.find(v => v.name === 'fixed')
    .members.find(x => x.key === 'side');
  await page.waitForSelector(control('/key/segments/0/side'));
  assert.deepEqual(await offered(page, '/key/segments/0/side'), side.options);

  // an empty control hints the engine's default; a control says the engine's range
  const writeRate = member('WorkloadSpec', 'writeRate');
  assert.equal(
    await page.getAttribute(control('/workload/writeRate'), 'placeholder'),
    String(JSON.parse(writeRate.default)),
  );
  const valueSize = member('WorkloadSpec', 'valueSize');
  const [lo, hi] = valueSize.range;
  assert.equal(await page.getAttribute(control('/workload/valueSize'), 'title'), `${lo} to ${hi}`);
  const servers = member('RegionLayout', 'regionServers');
  assert.equal(await page.getAttribute(control('/regions/regionServers'), 'data-max'), String(servers.range[1]));

  // one past the range: kept as typed, refused by the engine at the control
  const before = await page.inputValue('#doc-json');
  await page.fill(control('/workload/valueSize'), String(hi + 1));
  await page.press(control('/workload/valueSize'), 'Tab');
  await page.waitForFunction(t => document.querySelector('#doc-json').value !== t, before);
  assert.equal((await docOf(page)).workload.valueSize, hi + 1);
  await page.waitForSelector(`${control('/workload/valueSize')}[aria-invalid="true"]`);
  let engine;
  try {
    m.analyzeDesign({ ...DESIGN, workload: { records: 2000, valueSize: hi + 1 } });
  } catch (e) {
    engine = e;
  }
  assert.equal(engine?.path, '/workload/valueSize');
  const note = await page.$eval(
    control('/workload/valueSize'),
    e => document.getElementById(e.getAttribute('aria-describedby'))?.textContent,
  );
  assert.ok(note && engine.message.includes(note.slice(0, 20)), `${note} / ${engine.message}`);
  assert.deepEqual(problems, []);
  await page.close();
});
