// The defaults the CLI's --help states are the engine's: --help answers without the wasm, so its
// text says them in words, and this holds those words to the engine (readBudgets for check's
// budgets, designSchema for the advisor's options). The CLI itself passes only the options the
// user gave; the engine fills in the rest.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { HELP } from '../../../bin/lib/help.mjs';
import { ROOT } from '../helpers.mjs';

let m;
before(async () => {
  m = await import(path.join(ROOT, 'pkg/node/index.js'));
});

/** The number `text` says after `pattern` (a RegExp with one group). */
const said = (text, pattern) => {
  const hit = pattern.exec(text);
  assert.ok(hit, `${pattern} not in the help`);
  return Number(hit[1]);
};

test("check's --help states the engine's default budgets", () => {
  const b = m.readBudgets({});
  assert.equal(said(HELP.check, /Defaults: --max-hotspot ([\d.]+)/), b.maxHotspot);
  assert.equal(said(HELP.check, /--max-scans (\d+)/), b.maxScans);
  assert.match(HELP.check, new RegExp(`--lint ${b.lint}\\b`));
});

test("advise's --help states the engine's default records and windows", () => {
  const option = key => JSON.parse(m.designSchema().options.AdviseOptions.find(o => o.key === key).default);
  assert.equal(
    said(HELP.advise, /--records N +records each candidate is evaluated on \(default (\d+)\)/),
    option('records'),
  );
  assert.equal(said(HELP.advise, /--windows N +time windows of each analysis \(default (\d+)\)/), option('windows'));
});
