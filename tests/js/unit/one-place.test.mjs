// One operation, one place (issue 71, item 2), read from the sources (no build): the analysis's
// reads and the table now against a design (the engine's readsBeside / tableNow), a live table
// through a design (observe-through.js), the verify rounds (the engine's next_read) and the
// advisor's driver (advise-driver.js) are each composed once; every shell calls that one place
// and none calls the pieces it is made of. A shell that composed one of them again fails here.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers.mjs';

/** The hand-written files under `dirs` (relative to the root) whose names end in `exts`. */
function files(dirs, exts) {
  const out = [];
  const walk = d => {
    for (const n of readdirSync(path.join(ROOT, d))) {
      const f = path.join(d, n);
      if (/(^|\/)(pkg|node_modules|target|__pycache__)(\/|$)/.test(f)) continue;
      if (statSync(path.join(ROOT, f)).isDirectory()) walk(f);
      else if (exts.some(e => n.endsWith(e))) out.push(f);
    }
  };
  for (const d of dirs) walk(d);
  return out;
}
const text = f => readFileSync(path.join(ROOT, f), 'utf8');
/** The shells: the CLI, the page, the npm package's own JavaScript, the Python package. */
const SHELLS = files(['bin', 'www', 'npm', 'python/rowkey_lab', 'python/src'], ['.js', '.mjs', '.py', '.rs']);
/** The shells' files that match `re`, but those in `allowed`. */
const using = (re, allowed = []) => SHELLS.filter(f => !allowed.includes(f) && re.test(text(f)));

test('the reads beside an analysis are the engine’s answer: no shell plans them over a report', () => {
  // planReads / planIndexReads over a report's final regions (finalSplitKeys) was the CLI's and
  // the page's own composition; readsBeside (src/analyze/beside.rs) is the one
  assert.deepEqual(using(/finalSplitKeys|planIndexReads\(|readsOver\(/), []);
  // (planReads over the design's own pre-split stays: `rowkey-lab reads`)
  assert.deepEqual(using(/\.planReads\([^)]*,/), []);
  for (const f of ['bin/commands/analyze.mjs', 'www/engine/worker.js', 'www/engine/rows-calls.js'])
    assert.match(text(f), /readsBeside\(/, f);
  assert.match(text('python/src/analysis.rs'), /engine::reads_over\(/);
});

test('the table now against a design is the engine’s tableNow, in the CLI and on the page', () => {
  // the shares, the busiest regions and the per-server sums were computed in both
  for (const f of ['bin/commands/analyze.mjs', 'www/views/table-regions.js']) {
    assert.match(text(f), /tableNow\(/, f);
    assert.doesNotMatch(text(f), /loadShares|\.writes \/ r\.writes|argmax\(/, f);
  }
});

test('a live table through a design is composed once (observe-through.js)', () => {
  // the design on the series' layout, analyzed, its writes the prediction, againstDesign
  assert.deepEqual(using(/againstDesign\(/, ['www/engine/observe-through.js']), []);
  assert.deepEqual(using(/onTableRegions\([^)]*layout/, ['www/engine/observe-through.js']), []);
  for (const f of ['bin/commands/observe.mjs', 'www/engine/observe-calls.js'])
    assert.match(text(f), /observeThrough\(/, f);
});

test('the verify rounds are the engine’s plan: the shells only read what next_read names', () => {
  // rounds(), holdIn, settle and their Python twins were the loop each shell kept
  const loop = /\.rounds\(\)|holdIn|\.settle\(\)|verify_rounds|verify_settle|verify_report/;
  assert.deepEqual(using(loop), []);
  assert.match(text('bin/commands/verify.mjs'), /v\.next\(\)/);
  assert.match(text('python/src/rekey.rs'), /v\.next_read\(\)/);
  assert.match(text('python/rowkey_lab/_spark_rekey.py'), /_engine\.verify_driven\(/);
});

test('the advisor is driven once (advise-driver.js): the shells only say how a worker is called', () => {
  // adviseCandidates, the spread of `evaluate` calls and adviseFrom were in three copies
  const driver = 'www/engine/advise-driver.js';
  assert.deepEqual(using(/call\(\s*'evaluate'/, [driver]), []);
  assert.deepEqual(using(/evaluateCandidate\(/, ['www/engine/advice-calls.js']), []);
  for (const f of ['npm/node/advise.js', 'npm/web/index.js', 'www/engine/advise-run.js'])
    assert.match(text(f), /adviseSpread\(/, f);
});
