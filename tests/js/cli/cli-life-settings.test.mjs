// Every setting a user turns, at the CLI (issue 68, item 3): `life`'s flags and `--set MEMBER=VALUE`
// reach the simulation, the report names each setting that differs from HBase's defaults by
// HBase's name, and a bad value is refused at its member. The effect is read against HBase's
// rules: with the normalizer on to merge only (its split plans off), a time-led table under a
// 30-day TTL ends with fewer regions than with the normalizer off; with its split plans on (the
// default), the normalizer cuts the written tail at twice an average the empty regions hold down,
// so the table has more regions than without it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NOT_BUILT } from '../npm-helpers.mjs';
import { MONTHS, run, TIME_LED } from './life-fixture.mjs';

describe('life: every setting a user turns', { skip: NOT_BUILT }, () => {
  let dir, file;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-life-settings-'));
    file = path.join(dir, 'time-led.json');
    writeFileSync(file, JSON.stringify(TIME_LED));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const life = (...args) => {
    const r = run(['life', file, ...MONTHS, ...args, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const last = r => r.months.at(-1);

  test('the normalizer merging only, by flags and by --set, and the settings named', () => {
    const off = life();
    const merges = life('--normalizer', '--normalizer-split', 'off', '--merge-min-size-mb', '0');
    const viaSet = life(
      '--set',
      'normalizationEnabled=true',
      '--set',
      'normalizerSplitEnabled=false',
      '--set',
      'normalizerMergeMinRegionSizeMb=0',
    );
    assert.deepEqual(viaSet.months, merges.months, 'the flags and the design members are one setting');
    assert.ok(last(merges).regions < last(off).regions, `${last(merges).regions} vs ${last(off).regions}`);
    assert.ok(last(merges).emptyRegions < last(off).emptyRegions);
    assert.equal(last(merges).normalizerSplits, 0);
    const named = Object.fromEntries(merges.changedSettings.map(c => [c.name, [c.value, c.default]]));
    assert.deepEqual(named['table NORMALIZATION_ENABLED'], ['true', 'false']);
    assert.deepEqual(named['hbase.normalizer.split.enabled'], ['false', 'true']);
    assert.deepEqual(named['hbase.normalizer.merge.min_region_size.mb'], ['0', '1']);
    assert.deepEqual(named['family TTL (seconds)'], ['2592000', 'null']);
    assert.ok(
      merges.notes.some(
        n => n.startsWith('settings that differ from HBase') && n.includes('hbase.normalizer.split.enabled = false'),
      ),
    );
    // With split plans on (HBase's default) the tail is cut at twice the table's average.
    const splits = life('--normalizer', '--merge-min-size-mb', '0');
    assert.ok(last(splits).normalizerSplits > 0);
    assert.ok(last(splits).regions > last(merges).regions);
  });

  test('periodic majors off, the balancer off, FIFO: each reaches the months', () => {
    const off = life('--major-compaction-hours', '0');
    assert.equal(
      off.months.reduce((s, m) => s + m.majorCompactions, 0) > 0,
      true,
      'daughters still compact their references',
    );
    const defaults = life();
    // Without periodic majors a frozen region's expired cells stay until something compacts it:
    // fewer regions empty.
    assert.ok(
      last(off).emptyRegions < last(defaults).emptyRegions,
      `${last(off).emptyRegions} vs ${last(defaults).emptyRegions}`,
    );
    const fifo = life('--compaction', 'fifo');
    assert.equal(
      fifo.months.reduce((s, m) => s + m.minorCompactions, 0),
      0,
    );
    const human = run(['life', file, ...MONTHS, '--balancer', 'off', '--servers', '3']);
    assert.equal(human.status, 0, human.stderr);
    assert.match(
      human.stdout,
      /note: settings that differ from HBase's defaults: .*balance_switch = false \(default true\)/,
    );
    assert.match(
      human.stdout,
      /note: ran with: 3 servers, SteppingSplitPolicy, split size 10 GiB \(hbase\.hregion\.max\.filesize\)/,
    );
  });

  test('bad values are refused where they are', () => {
    const bad = run(['life', file, ...MONTHS, '--set', 'compactionRatio=0']);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /\/hbase\/compactionRatio/);
    const neg = run(['life', file, ...MONTHS, '--normalizer-period=-5']);
    assert.notEqual(neg.status, 0);
    assert.match(neg.stderr, /periodSeconds/);
    const word = run(['life', file, ...MONTHS, '--balancer', 'maybe']);
    assert.equal(word.status, 2);
    assert.match(word.stderr, /--balancer must be on or off, not maybe/);
    const fifo = run(['life', file, '--months', '1', '--compaction', 'fifo']);
    assert.notEqual(fifo.status, 0);
    assert.match(fifo.stderr, /FIFO compaction needs a TTL/);
    const unknown = run(['life', file, ...MONTHS, '--set', 'normaliserPeriodSeconds=60']);
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /normaliserPeriodSeconds/);
    // A minimum merge age past the span is allowed, and said. (Split plans off: with them on and
    // no merge possible, the tail ratchets into thousands of regions, minutes of simulation.)
    const old = life('--normalizer', '--normalizer-split', 'off', '--merge-min-age-days', '400');
    assert.ok(old.notes.some(n => n.includes('hbase.normalizer.merge.min_region_age.days (400)')));
  });
});
