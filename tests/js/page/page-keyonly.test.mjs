// A design that is just a key (the README's own format) on the page (issue 72, item 1). Without
// rows, an action that cannot run says why where it was asked for; with a file of rows, the
// fields the key reads are declared from it by the engine's rule (the library's rowsDesign, as
// the CLI declares them) into the design on show, so every action runs on it: the read plans,
// Compare, the advice's Move to this design (planned on the advised design's own pre-split,
// as `rowkey-lab rekey` without --regions). A key typed over the file's columns is declared the
// same way.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { b64, chooseNulls, fillKey, openPage, pageRig, ROOT, waitDone } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const FIX = path.join(ROOT, 'tests/fixtures/rows');
const CSV = path.join(FIX, 'flights.csv');
const KEY_ONLY = { v: 1, key: 'origin + "_" + time(time_hour, "yyyyMMddHH")' };
const rig = pageRig();

/** The design the page shows (its JSON editor's text). */
const onShow = async page => JSON.parse(await page.inputValue('#doc-json'));

/** The fields the library declares for `doc` over flights.csv (pkg/node rowsDesign). */
async function declaredByLibrary(doc) {
  const api = await import(pathToFileURL(path.join(ROOT, 'pkg/node/index.js')).href);
  const rows = { name: 'flights.csv' };
  const sample = await api.rowsSample(new Blob([readFileSync(CSV)]), rows);
  return api.rowsDesign(doc, rows, sample);
}

describe('a design that is just a key', { skip: NOT_BUILT }, () => {
  test('without rows, Compare says why in its section; with rows, the key’s fields are declared and every action runs', async () => {
    const { page, problems } = await openPage(rig.browser, rig.server.url);
    await page.goto(`${rig.server.url}#v=1&d=${b64(KEY_ONLY)}`);
    await page.waitForSelector('#lab[data-run="error"]', { state: 'attached', timeout: 60000 });
    // the error says where a key-only design's fields come from
    assert.match(await page.textContent('#design-error'), /just a key has its fields declared from a file of rows/);
    // Compare with a preset: refused, and said in the Compare section, not only at the editor
    await page.selectOption('#compare-with', { index: 1 });
    await page.click('#compare-run');
    await page.waitForSelector('#compare-error', { timeout: 60000 });
    assert.match(await page.textContent('#compare-error'), /^Not compared: .*no field named `origin`/);

    // the rows: the key's fields declared into the design, as the library declares them
    await page.click('#rows-open');
    await page.setInputFiles('#rows-file', CSV);
    await page.waitForSelector('#rows-declared', { timeout: 120000 });
    const want = await declaredByLibrary(KEY_ONLY);
    assert.deepEqual(
      (await onShow(page)).fields,
      want.design.fields.map(f => ({ name: f.name, type: f.type })),
      'the design on show declares what the library declares',
    );
    const said = await page.textContent('#rows-declared');
    for (const i of want.inferred) assert.ok(said.includes(`${i.field} as ${i.type} (${i.basis})`), said);
    assert.equal((await onShow(page)).key, KEY_ONLY.key, 'the key as the user wrote it');
    // the mapping offers the declared fields, each to its column
    assert.equal(await page.inputValue('#rows-field-origin'), 'origin');
    await chooseNulls(page);
    await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 120000 });
    await page.click('#rows-run');
    await page.waitForSelector('#rows-banner');
    await waitDone(page);
    assert.equal(await page.textContent('#design-error'), '', 'no design error over the rows');
    assert.equal(await page.$('#reads .error'), null, 'the read plans run on the declared design');

    // Compare runs now
    await page.click('#compare-run');
    await page.waitForSelector('#compare figure', { timeout: 60000 });
    assert.equal(await page.$('#compare-error'), null);

    // the advice, and Move to this design: the move planned on the advised design's own
    // pre-split (the count left empty, as the CLI's rekey without --regions)
    await page.click('#advice-run');
    await page.waitForSelector('#advice-move', { timeout: 120000 });
    const moveButton = await page.$('#advice-move');
    if (await moveButton.isEnabled()) {
      await moveButton.click();
      await page.waitForSelector('#rekey-out h4', { timeout: 120000 });
      assert.equal(await page.inputValue('#rekey-count'), '', 'the count left to the design’s own pre-split');
      assert.doesNotMatch(await page.textContent('#rekey-status'), /Not planned/);
    }

    // a key typed over the file's columns: the new field declared from the file as well
    await fillKey(page, 'dest + "_" + origin + "_" + time(time_hour, "yyyyMMddHH")');
    await page.waitForFunction(
      () => JSON.parse(document.querySelector('#doc-json').value).fields.some(f => f.name === 'dest'),
      null,
      { timeout: 120000 },
    );
    const typed = await declaredByLibrary({
      v: 1,
      fields: (await onShow(page)).fields.filter(f => f.name !== 'dest'),
      key: (await onShow(page)).key,
    });
    assert.deepEqual(
      (await onShow(page)).fields.find(f => f.name === 'dest'),
      typed.design.fields.map(f => ({ name: f.name, type: f.type })).find(f => f.name === 'dest'),
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
});
