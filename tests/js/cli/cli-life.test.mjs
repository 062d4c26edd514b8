// check's gates on the simulated months (issue 58, item 6): `--max-empty-regions N` and
// `--max-regions-per-server N` run the design's table month by month (life's options) and fail
// naming the first month over. The month is read apart from `life --json`'s months (the first
// whose emptyRegions passes the budget), and a time-led key under a 30-day TTL has no empty
// region in its first month by HBase's rules (nothing has expired yet).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NOT_BUILT } from '../npm-helpers.mjs';
import { MONTHS, run, TIME_LED } from './life-fixture.mjs';

describe('check on the simulated months', { skip: NOT_BUILT }, () => {
  let dir, file;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-life-'));
    file = path.join(dir, 'time-led.json');
    writeFileSync(file, JSON.stringify(TIME_LED));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  // The hotspot budget is the analysis's; a time-led key breaks the default, so it is lifted.
  const check = (...args) => run(['check', file, '--max-hotspot', '1000', '--lint', 'off', ...args]);

  test('--max-empty-regions fails from the first month over it, named', () => {
    const life = JSON.parse(run(['life', file, ...MONTHS, '--json']).stdout);
    const empty = life.months.map(m => m.emptyRegions);
    assert.equal(empty[0], 0, 'a 30-day TTL empties nothing in the first month');
    assert.ok(empty[2] > 0, `${empty}`);
    const limit = Math.floor(empty[2] / 2);
    const first = life.months.find(m => m.emptyRegions > limit).month;
    const worst = Math.max(...empty);
    const r = check(...MONTHS, '--max-empty-regions', String(limit));
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`simulated months: empty regions over ${limit} from month ${first} \\(the most: ${worst} in month`),
    );
    const j = JSON.parse(check(...MONTHS, '--max-empty-regions', String(limit), '--json').stdout);
    assert.equal(j.ok, false);
    assert.deepEqual(
      [j.life.ok, j.life.months, j.life.emptyRegions.firstMonthOver, j.life.emptyRegions.worst],
      [false, 3, first, worst],
    );
    assert.equal(j.life.regionsPerServer, null, 'not checked unless given');
    // At the worst month's count the budget holds; the ok line says what was checked.
    const ok = check(...MONTHS, '--max-empty-regions', String(worst));
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(
      ok.stdout,
      new RegExp(`3 months simulated: empty regions at most ${worst} \\(month \\d\\) <= ${worst}`),
    );
  });

  test('--max-regions-per-server counts the fullest server under --servers', () => {
    const life = JSON.parse(run(['life', file, ...MONTHS, '--servers', '2', '--json']).stdout);
    const most = life.months.map(m => Math.max(...m.servers.map(s => s.regions)));
    const limit = most[0]; // month 1 within, a later month over (the table keeps growing)
    const first = life.months.find(m => Math.max(...m.servers.map(s => s.regions)) > limit)?.month;
    assert.ok(first > 1, `${most}`);
    const j = JSON.parse(
      check(...MONTHS, '--servers', '2', '--max-regions-per-server', String(limit), '--json').stdout,
    );
    assert.equal(j.ok, false);
    assert.equal(j.life.regionsPerServer.firstMonthOver, first);
    assert.equal(j.life.regionsPerServer.worst, Math.max(...most));
  });

  test('bad gates are usage errors; a bad month count is the engine’s, at its member', () => {
    const lone = check('--months', '3');
    assert.equal(lone.status, 2);
    assert.match(lone.stderr, /--months sets the simulated months/);
    assert.equal(check('--max-empty-regions', '-1').status, 2);
    assert.equal(check('--max-empty-regions', 'many').status, 2);
    const months = check('--max-empty-regions', '5', '--months', '500');
    assert.equal(months.status, 3, months.stderr);
    assert.match(months.stderr, /months/);
  });

  test("life's settings take their own values only: no inherited name, no number that is not one", () => {
    // `constructor` is a name every object answers to: it once ran HBase's default policy
    for (const p of ['constructor', 'toString', '__proto__']) {
      const r = run(['life', file, '--months', '1', '--policy', p]);
      assert.equal(r.status, 2, `--policy ${p}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`--policy must be stepping, .* not ${p}`));
    }
    for (const v of ['abc', 'NaN', 'Infinity']) {
      const r = run(['life', file, '--months', '1', '--compression', v]);
      assert.equal(r.status, 2, `--compression ${v}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`--compression must be a number, not ${v}`));
    }
  });
});

// What the months mean (issue 68 item 4): `life` prints the engine's diagnosis first, the same
// sentences `--json` carries, and a failed months gate names the worst finding and its fix.
describe('life says what the months mean', { skip: NOT_BUILT }, () => {
  let dir, file;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-life-'));
    file = path.join(dir, 'time-led.json');
    writeFileSync(file, JSON.stringify(TIME_LED));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("the human output's first line is the engine's headline; the findings follow, worst first", () => {
    const human = run(['life', file, ...MONTHS]);
    assert.equal(human.status, 0, human.stderr);
    const d = JSON.parse(run(['life', file, ...MONTHS, '--json']).stdout).diagnosis;
    const lines = human.stdout.split('\n');
    assert.equal(lines[0], d.headline);
    // The TTL empties the regions the time-led key left behind: nothing in month 1 (no cell is
    // 30 days old), so the finding starts later, and merging 0 MB regions is its checked fix.
    const [first] = d.findings;
    assert.equal(first.kind, 'emptyRegions');
    assert.ok(first.month >= 2, `${first.month}`);
    assert.match(first.fix.change, /merge\.min_region_size\.mb = 0/);
    assert.ok(first.fix.after < first.fix.before, first.fix.checked);
    assert.equal(lines[1], `- ${first.figure}: ${first.meaning}`);
    assert.equal(lines[2], `  fix: ${first.fix.change}`);
    assert.equal(lines[3], `  checked: ${first.fix.checked}`);
  });

  test('a failed months gate names the worst finding and its checked fix', () => {
    const r = run(['check', file, '--max-hotspot', '1000', '--lint', 'off', ...MONTHS, '--max-empty-regions', '0']);
    assert.equal(r.status, 1, r.stderr);
    const d = JSON.parse(run(['life', file, ...MONTHS, '--json']).stdout).diagnosis;
    assert.ok(r.stdout.includes(`simulated months, the worst finding: ${d.findings[0].figure}`), r.stdout);
    assert.ok(r.stdout.includes(`checked: ${d.findings[0].fix.checked}`), r.stdout);
  });
});
