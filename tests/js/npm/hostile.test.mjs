// The inputs that once trapped the module (tests/js/hostile-cases.mjs), in Node on the packed
// package (which runs wasm: the native engine is a platform package of its own), in Node on the
// native engine (the cases of the calls it answers; the others are the wasm build's calls there
// too, said by name), and in Chromium on the package's web entry: each is refused with a declared
// error whose message stays short, and the same module instance then analyses a preset.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { onEngine } from '../engines.mjs';
import { launch, openPage, ROOT, serve } from '../helpers.mjs';
import { callOf, hostileCases, runHostile } from '../hostile-cases.mjs';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

/** The telecom preset with four blocks of records, so that partial analyses exist. */
const sized = preset => ({ ...preset, workload: { ...preset.workload, records: 4 * 65536 } });

/** Each case refused, never trapped, its message under 2,000 characters; the module healthy after it. */
function assertSurvived(results, where, least = 10) {
  assert.ok(results.length >= least, `${where}: every case ran`);
  for (const r of results) {
    const at = `${where}: ${r.name}`;
    assert.equal(r.trapped, false, `${at} trapped: ${r.message}`);
    assert.equal(r.threw, true, `${at} was accepted`);
    assert.ok(r.kind, `${at}: the error has no kind (${r.message})`);
    assert.ok(r.matched, `${at}: unexpected message: ${r.message}`);
    assert.ok(r.length < 2000, `${at}: a message of ${r.length} characters`);
    assert.equal(typeof r.healthy, 'number', `${at}: the module did not survive: ${r.healthy}`);
  }
}

const native = await onEngine('native');

describe('hostile inputs: refused, and the module survives', { skip: NOT_BUILT }, () => {
  test('in Node (the packed package)', async () => {
    const { dir } = await installed();
    const m = await importByName(dir);
    assert.equal(m.engine(), 'wasm');
    const preset = sized(m.getPreset('seed000-telecom'));
    assertSurvived(runHostile(m, preset), 'node');
  });

  test('in Node on the native engine: the cases of the calls it answers', { skip: native.skip }, t => {
    const { m, answers } = native;
    const preset = sized(m.getPreset('seed000-telecom'));
    const names = hostileCases(m, preset).map(([name]) => name);
    const left = names.filter(n => !answers(callOf(n)));
    // the rest run the wasm build's very functions under the native engine too: run above
    for (const n of left) t.diagnostic(`wasm build's call on both engines, run above: ${n}`);
    const results = runHostile(m, preset, n => answers(callOf(n)));
    assert.deepEqual(
      results.map(r => r.name),
      names.filter(n => !left.includes(n)),
    );
    assertSurvived(results, 'native', 2);
  });

  describe('in Chromium (the web entry)', () => {
    let server, browser;
    before(async () => {
      // The web entry and this suite's cases, served as a site of their own.
      const site = mkdtempSync(path.join(tmpdir(), 'rowkey-hostile-'));
      for (const d of ['web', 'shared']) cpSync(path.join(ROOT, 'pkg', d), path.join(site, d), { recursive: true });
      cpSync(path.join(ROOT, 'tests/js/hostile-cases.mjs'), path.join(site, 'hostile-cases.mjs'));
      writeFileSync(
        path.join(site, 'index.html'),
        '<!doctype html><link rel="icon" href="data:,"><title>hostile</title>',
      );
      server = await serve(site);
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
      server?.close();
    });

    test('every case, then an ordinary analysis, on one instance', async () => {
      const { page, problems } = await openPage(browser, server.url);
      await page.goto(`${server.url}index.html`);
      const results = await page.evaluate(async () => {
        const m = await import('./web/index.js');
        await m.default();
        const { runHostile } = await import('./hostile-cases.mjs');
        const preset = m.getPreset('seed000-telecom');
        return runHostile(m, { ...preset, workload: { ...preset.workload, records: 4 * 65536 } });
      });
      assertSurvived(results, 'chromium');
      assert.deepEqual(
        problems.filter(p => !p.startsWith('warning')),
        [],
      );
    });
  });
});
