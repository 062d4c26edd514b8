// The CLI from the installed tarball (node_modules/.bin/rowkey-lab): help, splits (algorithms
// and a design's pre-split), encode, decode, layout, reads, lint, analyze, check (one design or
// several), compare and the documented exit codes (unknown options and extra arguments too);
// the progress bar only on a TTY stderr.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

describe('rowkey-lab CLI', { skip: NOT_BUILT }, () => {
  let bin;
  let dir;
  let m;
  before(async () => {
    ({ dir } = await installed());
    bin = path.join(dir, 'node_modules/.bin/rowkey-lab');
    m = await importByName(dir);
  });
  const run = (...args) => spawnSync(bin, args, { cwd: dir, encoding: 'utf8' });

  test('life: --json holds a months array with regions and emptyRegions; bad input exits 2 or 3', () => {
    const r = run('life', 'seed002-salt-byte', '--months', '2', '--ttl', '30d', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.months.length, 2);
    for (const month of j.months) {
      assert.equal(typeof month.regions, 'number');
      assert.equal(typeof month.emptyRegions, 'number');
    }
    assert.equal(run('life', 'seed002-salt-byte', '--policy', 'often').status, 2);
    const bad = run('life', 'seed002-salt-byte', '--months', '500');
    assert.equal(bad.status, 3);
    assert.match(bad.stderr, /months/);
  });

  test('--help on every command, exit 0', () => {
    for (const c of [
      [],
      ['encode'],
      ['decode'],
      ['layout'],
      ['splits'],
      ['analyze'],
      ['lint'],
      ['check'],
      ['compare'],
      ['presets'],
      ['reads'],
      ['regions'],
      ['life'],
    ]) {
      const r = run(...c, '--help');
      assert.equal(r.status, 0, c.join(' '));
      assert.match(r.stdout, /rowkey-lab/);
    }
    assert.match(run('--help').stdout, /Exit codes/);
  });

  test('usage errors exit 2', () => {
    assert.equal(run().status, 2);
    assert.equal(run('frobnicate').status, 2);
    assert.equal(run('splits', 'octal', '4').status, 2);
    assert.equal(run('splits', 'hex').status, 2);
    // An option the command does not take (a typo in a CI gate) or an extra argument is a
    // usage error, never ignored.
    const typo = run('check', 'seed000-telecom', '--max-hotspt', '1.5');
    assert.equal(typo.status, 2);
    assert.match(
      typo.stderr,
      /check has no option --max-hotspt \(did you mean --max-hotspot\?\) \(it takes --max-hotspot, /,
    );
    // An unknown option is reported before it could take the next argument as its value.
    const jsn = run('lint', '--jsn', 'seed000-telecom');
    assert.equal(jsn.status, 2);
    assert.match(jsn.stderr, /lint has no option --jsn \(did you mean --json\?\)/);
    const eq = run('lint', 'seed000-telecom', '--json=1');
    assert.equal(eq.status, 2);
    assert.match(eq.stderr, /--json takes no value \(got --json=1\)/);
    const cmd = run('anlyze', 'seed000-telecom');
    assert.equal(cmd.status, 2);
    assert.match(cmd.stderr, /unknown command anlyze \(did you mean analyze\?\)/);
    // Far from every command or option: no guess.
    assert.doesNotMatch(run('frobnicate').stderr, /did you mean/);
    assert.doesNotMatch(run('lint', 'seed000-telecom', '--zzz', '1').stderr, /did you mean/);
    assert.equal(run('lint', 'seed000-telecom', '--shell', 't').status, 2);
    assert.equal(run('splits', 'hex', '16', '--family', 'cf', '--windows', '4').status, 2);
    const extra = run('lint', 'seed000-telecom', 'seed001-log-md5');
    assert.equal(extra.status, 2);
    assert.match(extra.stderr, /lint takes at most 1 argument, got 2 \(unexpected: seed001-log-md5\)/);
    assert.equal(run('presets', 'x').status, 2);
  });

  test('splits hex 16 gives 15 keys 10000000 … f0000000', () => {
    const r = run('splits', 'hex', '16');
    assert.equal(r.status, 0);
    const keys = r.stdout.trim().split('\n');
    assert.equal(keys.length, 15);
    assert.equal(keys[0], '10000000');
    assert.equal(keys[14], 'f0000000');
    const j = JSON.parse(run('splits', 'decimal', '4', '--json').stdout);
    assert.equal(j.length, 3);
  });

  test('presets: grouped by the problem each shows, as presets/groups/index.json lists them', () => {
    const groups = JSON.parse(
      readFileSync(new URL('../../../presets/groups/index.json', import.meta.url), 'utf8'),
    ).groups;
    const want = groups.flatMap(g => g.presets.map(p => [g.title, p.id, p.label]));
    const r = run('presets', '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).map(p => [p.group, p.id, p.label]),
      want,
    );
    const lines = run('presets').stdout.trim().split('\n').slice(2);
    assert.equal(lines.length, want.length);
    assert.match(lines[0], new RegExp(`^${want[0][0]} +${want[0][1]} +${want[0][2]}$`));
  });

  test('unknown design exits 3', () => {
    const none = run('lint', 'no-such-design');
    assert.equal(none.status, 3);
    assert.match(none.stderr, /no such file or preset \(presets: seed000-cyclic, /, 'no close preset: the list');
    const near = run('lint', 'seed000-telcom');
    assert.equal(near.status, 3);
    assert.match(near.stderr, /seed000-telcom: no such file or preset \(did you mean seed000-telecom\?\)/);
    writeFileSync(path.join(dir, 'broken.json'), '{');
    assert.equal(run('lint', 'broken.json').status, 3);
    // Not JSON: where, by line and column (the comma on line 2, column 14).
    writeFileSync(path.join(dir, 'comma.json'), '{"v": 1,\n  "fields": [,\n]}');
    const comma = run('lint', 'comma.json');
    assert.equal(comma.status, 3);
    assert.match(comma.stderr, /comma\.json: expected value \(line 2, column 14\)/);
    // An engine error names the field and its JSON path, and the path only once.
    writeFileSync(path.join(dir, 'undeclared.json'), JSON.stringify({ v: 1, key: 'time(ts, "yyyyMMdd") + user' }));
    const r = run('lint', 'undeclared.json');
    assert.equal(r.status, 3);
    assert.match(r.stderr, /no field named `ts` is declared/);
    assert.equal(r.stderr.split('/key/segments/0').length - 1, 1, r.stderr);
  });

  test('encode a preset record', () => {
    const doc = m.getPreset('seed000-cyclic');
    const ex = doc.examples[0];
    const r = run('encode', 'seed000-cyclic', '--record', JSON.stringify(ex.record), '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hex, ex.key);
    assert.equal(run('encode', 'seed000-cyclic', '--record', '{bad').status, 3);
    const text = run('encode', 'seed000-cyclic', '--record', JSON.stringify(ex.record));
    assert.equal(text.status, 0);
    assert.match(text.stdout, new RegExp(`^hex +${ex.key}$`, 'm'));
    assert.equal(run('encode', 'seed000-cyclic').status, 2, 'missing --record');
  });

  test('encode --records: one key per line (hex, tab, toStringBinary) in file order; a bad row is named by its line', () => {
    const doc = m.getPreset('seed000-telecom');
    const rows = ['13412341234', '18800000001', '13599999999'].map((phone, i) => ({
      phone,
      ts: Date.UTC(2021, 8, 7, 8, 30, i),
    }));
    writeFileSync(path.join(dir, 'enc.jsonl'), `${rows.map(r => JSON.stringify(r)).join('\n')}\n`);
    const r = run('encode', 'seed000-telecom', '--records', 'enc.jsonl');
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines,
      rows.map(x => {
        const k = m.encodeKey(doc, x);
        return `${Buffer.from(k).toString('hex')}\t${m.toStringBinary(k)}`;
      }),
    );
    // The telecom key: salt, then the phone and the call time as written.
    assert.match(lines[1], /\t\d\d_18800000001_20210907083001$/);
    writeFileSync(path.join(dir, 'enc.json'), JSON.stringify(rows));
    const j = JSON.parse(run('encode', 'seed000-telecom', '--records', 'enc.json', '--json').stdout);
    assert.deepEqual(
      j.map(x => `${x.hex}\t${x.binary}`),
      lines,
    );
    writeFileSync(path.join(dir, 'enc-bad.jsonl'), `${JSON.stringify(rows[0])}\n\n${JSON.stringify({ ts: 0 })}\n`);
    const bad = run('encode', 'seed000-telecom', '--records', 'enc-bad.jsonl');
    assert.equal(bad.status, 3);
    assert.match(bad.stderr, /enc-bad\.jsonl: line 3 \(row 2\), column `phone`: null/);
    assert.equal(bad.stdout, `${lines[0]}\n`, 'the keys of the rows before it');
    assert.equal(run('encode', 'seed000-telecom', '--records', 'enc.jsonl', '--record', '{}').status, 2);
    // Files some Windows editors write: a UTF-8 byte order mark first, CRLF line ends.
    const bom = '\uFEFF';
    writeFileSync(path.join(dir, 'enc-bom.jsonl'), `${bom + rows.map(x => JSON.stringify(x)).join('\r\n')}\r\n`);
    const fromBom = run('encode', 'seed000-telecom', '--records', 'enc-bom.jsonl');
    assert.equal(fromBom.status, 0, fromBom.stderr);
    assert.deepEqual(fromBom.stdout.trimEnd().split('\n'), lines);
    writeFileSync(path.join(dir, 'telecom-bom.json'), bom + JSON.stringify(doc));
    const viaBom = run('encode', 'telecom-bom.json', '--record', JSON.stringify(rows[1]));
    assert.equal(viaBom.status, 0, viaBom.stderr);
    assert.match(viaBom.stdout, /_18800000001_20210907083001$/m);
  });

  test('decode: the fields back from a key given as the shell prints it or as hex; exit 1 for a key the design does not write', () => {
    const doc = m.getPreset('seed000-telecom');
    const ts = Date.parse('2021-09-07T08:30:00Z');
    const key = m.encodeKey(doc, { phone: '13412345678', ts });
    const keyHex = Buffer.from(key).toString('hex');
    const r = run('decode', 'seed000-telecom', m.toStringBinary(key), '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.keyHex, keyHex);
    assert.deepEqual(
      j.fields.map(f => [f.name, f.value]),
      [
        ['phone', '13412345678'],
        ['ts', ts],
      ],
    );
    assert.equal(j.verified, true);
    // The segments tile the key, in layout order, each with its bytes' text.
    assert.equal(j.segments.length, m.keyLayout(doc).length);
    assert.equal(j.segments[0].start, 0);
    assert.equal(j.segments.at(-1).end, key.length);
    for (const [i, s] of j.segments.slice(1).entries()) assert.equal(s.start, j.segments[i].end);
    assert.equal(j.segments.map(s => s.bytes).join(''), m.toStringBinary(key));
    assert.deepEqual(JSON.parse(run('decode', 'seed000-telecom', '--hex', keyHex, '--json').stdout), j);
    const text = run('decode', 'seed000-telecom', '--hex', keyHex);
    assert.match(text.stdout, /^phone +"13412345678" +yes/m);
    assert.match(text.stdout, /^verified/m);
    // Another salt bucket: the fields read back, but they re-encode to other bytes.
    const wrong = Uint8Array.from(key);
    wrong[1] = wrong[1] === 0x39 ? 0x38 : wrong[1] + 1;
    const w = run('decode', 'seed000-telecom', '--hex', Buffer.from(wrong).toString('hex'));
    assert.equal(w.status, 1, w.stderr);
    assert.match(w.stdout, /NOT this design's key/);
    // A salt over the month with a key that keeps only the year: the key's own keys are not
    // refused (decoding gives back January; another month's salt cannot be judged).
    const lossy = {
      ...doc,
      key: 'salt(phone + time(ts, "yyyyMM"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyy")',
    };
    delete lossy.examples;
    writeFileSync(path.join(dir, 'lossy.json'), JSON.stringify(lossy));
    const months = Array.from(
      { length: 12 },
      (_, m) =>
        JSON.parse(
          run(
            'encode',
            'lossy.json',
            '--record',
            JSON.stringify({ phone: '13800138000', ts: `2021-${String(m + 1).padStart(2, '0')}-15T00:00:00Z` }),
            '--json',
          ).stdout,
        ).hex,
    );
    assert.ok(new Set(months.map(h => h.slice(0, 4))).size > 1, 'the month moves the salt');
    for (const hex of months) {
      const r = run('decode', 'lossy.json', '--hex', hex);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^(verified|not verifiable: .*kept only in part)/m);
    }
    // Binary bytes through \xNN escapes: the same decode as through hex.
    const bin = m.getPreset('seed002-salt-byte');
    const bkey = m.encodeKey(bin, bin.examples[0].record);
    assert.match(m.toStringBinary(bkey), /\\x/, 'the example key has an escaped byte');
    assert.deepEqual(
      JSON.parse(run('decode', 'seed002-salt-byte', m.toStringBinary(bkey), '--json').stdout).fields,
      m.decodeKey(bin, bkey).fields,
    );
    // A key cut short is an input error that says where; no key, or two, a usage error.
    const short = run('decode', 'seed000-telecom', '--hex', keyHex.slice(0, 10));
    assert.equal(short.status, 3);
    assert.match(short.stderr, /byte 3/);
    assert.equal(run('decode', 'seed000-telecom', '--hex', 'abc').status, 3, 'odd hex digits');
    assert.equal(run('decode', 'seed000-telecom', '--hex', 'zz').status, 3);
    assert.equal(run('decode', 'seed000-telecom').status, 2);
    assert.equal(run('decode', 'seed000-telecom', 'x', '--hex', '00').status, 2);
  });

  test('layout: one row per segment, offsets while widths are fixed', () => {
    const doc = m.getPreset('seed000-telecom');
    assert.deepEqual(JSON.parse(run('layout', 'seed000-telecom', '--json').stdout), m.keyLayout(doc));
    const r = run('layout', 'seed000-telecom');
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').slice(2);
    assert.equal(rows.length, 5);
    // salt (2 bytes) at 0, "_" at 2, phone (variable) at 3, then no fixed offsets.
    assert.match(rows[0], /^0 +0 +2 +salt\(/);
    assert.match(rows[2], /^2 +3 +variable +phone/);
    assert.match(rows[3], /^3 +- +1 +"_"/);
  });

  test('splits <design>: the pre-split as SPLITS_FILE lines or the shell create statement', () => {
    // seed000-telecom pre-splits at its 10 decimal salt buckets: 01 … 09.
    const want = ['01', '02', '03', '04', '05', '06', '07', '08', '09'];
    const r = run('splits', 'seed000-telecom');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), want);
    const c = run('splits', 'seed000-telecom', '--create', 'calls');
    assert.equal(c.stdout.trim(), `create 'calls', 'cf', SPLITS => [${want.map(k => `'${k}'`).join(', ')}]`);
    const j = JSON.parse(run('splits', 'hex', '4', '--create', 't', '--family', 'd', '--json').stdout);
    assert.equal(j.create, "create 't', 'd', SPLITS => ['40000000', '80000000', 'c0000000']");
    assert.deepEqual(
      j.splits.map(k => k.binary),
      ['40000000', '80000000', 'c0000000'],
    );
    assert.equal(run('splits', 'hex', '4', '--family', 'd').status, 2, '--family without --create');
    assert.equal(run('splits', 'no-such-design').status, 3);
    assert.match(
      run('splits', 'seed000-telecom', '--create', "it's").stdout,
      /^create 'it\\'s', 'cf'/,
      'quoted for the shell',
    );
    assert.equal(run('splits', 'seed000-telecom', '--create', '').status, 3, 'no table name');
  });

  test('compare: designs side by side; the time-first key is the hotspot', () => {
    const r = run('compare', 'seed000-telecom', 'seed000-telecom-time-first', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.designs.length, 2);
    const [salted, timeFirst] = j.designs.map(d => d.metrics.meanHotspotFactor);
    assert.ok(timeFirst > 2 * salted, `${timeFirst} vs ${salted}`);
    const t = run('compare', 'seed000-telecom', 'seed000-telecom-time-first');
    const rows = t.stdout.split('\n').slice(2, 4);
    assert.match(rows[0], new RegExp(`^Telecom call records: XX.* ${salted.toFixed(2)} `));
    assert.match(rows[1], new RegExp(`^Telecom call records, call time first.* ${timeFirst.toFixed(2)} `));
    // the engine's figures, the time-first key against the salted one: its hotspot worse, by as
    // much as the two hotspot factors say
    const pct = (((timeFirst - salted) / salted) * 100).toFixed(0);
    assert.match(
      t.stdout,
      new RegExp(
        `^Hotspot factor \\(per window\\) +${salted.toFixed(2)} +${timeFirst.toFixed(2)} \\+${pct} % worse *$`,
        'm',
      ),
    );
    assert.deepEqual(j.figures[0].verdicts, [null, 'worse']);
    assert.match(t.stdout, /^design 2: Telecom call records, call time first .*, key time\(ts, "yyyyMMddHHmmss"\)/m);
    assert.equal(run('compare', 'seed000-telecom').status, 2);
    assert.equal(run('compare', ...Array(5).fill('seed000-telecom')).status, 2);
  });

  test('lint prints findings', () => {
    const r = run('lint', 'seed000-cyclic', '--json');
    assert.ok([0, 1].includes(r.status), r.stderr);
    const findings = JSON.parse(r.stdout);
    assert.deepEqual(findings, m.lintDesign(m.getPreset('seed000-cyclic')));
    assert.equal(r.status, findings.some(f => f.severity === 'error') ? 1 : 0);
    const t = run('lint', 'seed000-telecom-time-first');
    assert.ok([0, 1].includes(t.status), t.stderr);
    assert.match(t.stdout, /severity +rule|no findings/);
  });

  test('analyze: table by default, the report as JSON with --json', () => {
    const r = run('analyze', 'seed000-telecom', '--windows', '16');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /writes, \d+ regions, 16 windows/);
    assert.match(r.stdout, /hotspot factor: overall/);
    // Rows against writes, and the largest rows.
    // A generated workload within the exact cap is counted, every row: no estimate marks.
    assert.match(r.stdout, /\n\d+ distinct rows, \d+ cells kept\n/);
    assert.match(r.stdout, /region +start +end +writes +rows +cells +cannot split/);
    assert.doesNotMatch(r.stdout, /≈/);
    // With the sketches alone (--exact-rows false is not a flag: the npm options), the estimates
    // carry their bounds: three standard errors.
    const sketch = m.analyzeDesign(m.getPreset('seed000-telecom'), { windows: 16, exactRows: false });
    assert.equal(sketch.distinctRowsExact, false);
    assert.ok(Math.abs(sketch.distinctRowsError - (3 * 1.04) / 128) < 1e-12, `${sketch.distinctRowsError}`);
    const j = JSON.parse(run('analyze', 'seed000-telecom', '--windows', '16', '--json').stdout);
    const native = m.analyzeDesign(m.getPreset('seed000-telecom'), { windows: 16 });
    assert.equal(j.writes, native.writes);
    assert.equal(j.distinctRows, native.distinctRows);
    assert.deepEqual(j.largestRows, native.largestRows);
    assert.ok(j.largestRows.length > 0 && j.distinctRows > 0 && j.distinctRows <= j.writes);
    assert.deepEqual(j.metrics, native.metrics);
    assert.deepEqual(j.matrix.cells, Array.from(native.matrix.cells));
    assert.deepEqual(j.reads, m.planReads(m.getPreset('seed000-telecom')));
    // With auto-split, the reads are planned over the regions the run ended with (the page's
    // rule, the engine's reads_over in Python), not over the pre-split it began with: the keys
    // taken here from the report's regions.
    const split = {
      ...m.getPreset('seed000-telecom'),
      workload: { records: 30000, writeRate: 250, seed: 7 },
      regions: {
        presplit: { kind: 'none' },
        autoSplit: { policy: { type: 'constantSize' }, config: { maxFileSize: 400000, memstoreFlushSize: 50000 } },
      },
    };
    const splitFile = path.join(tmpdir(), `rowkey-lab-reads-${process.pid}.json`);
    writeFileSync(splitFile, JSON.stringify(split));
    try {
      const a = JSON.parse(run('analyze', splitFile, '--json').stdout);
      assert.ok(a.regions.length > 1, `auto-split split: ${a.regions.length} regions`);
      const ends = a.regions.slice(1).map(r => Buffer.from(r.startKeyHex, 'hex'));
      assert.deepEqual(a.reads, m.planReads(split, ends));
      assert.equal(a.readsError, null);
      assert.notDeepEqual(a.reads, m.planReads(split), 'the pre-split (one region) plans otherwise');
    } finally {
      rmSync(splitFile, { force: true });
    }
    // The key sample as rows: the typed arrays' keys, with their text and region.
    const s = native.sample;
    assert.equal(j.sample.length, s.regions.length);
    assert.ok(j.sample.length > 0);
    j.sample.forEach((row, i) => {
      const k = s.keys.subarray(s.offsets[i], s.offsets[i + 1]);
      assert.deepEqual(row, { keyHex: Buffer.from(k).toString('hex'), key: m.toStringBinary(k), region: s.regions[i] });
    });
  });

  test('analyze/check --records: your own rows (JSON Lines or an array); a bad row is named by its line', () => {
    const rows = ['13412341234', '18800000001', '13599999999'].map((phone, i) => ({
      phone,
      ts: `2021-09-07T08:30:0${i}Z`,
    }));
    writeFileSync(path.join(dir, 'rows.jsonl'), `${rows.map(r => JSON.stringify(r)).join('\n\n')}\n`);
    writeFileSync(path.join(dir, 'rows.json'), JSON.stringify(rows));
    const doc = m.getPreset('seed000-telecom');
    const want = rows.map(r => Buffer.from(m.encodeKey(doc, r)).toString('hex')).sort();
    for (const f of ['rows.jsonl', 'rows.json']) {
      const r = run('analyze', 'seed000-telecom', '--records', f, '--json');
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.writes, 3, f);
      assert.equal(j.writesOutsideWindows, 0, 'the windows span the rows given');
      assert.deepEqual(
        j.sample.map(k => k.keyHex),
        want,
        f,
      );
    }
    assert.equal(run('check', 'seed000-telecom', '--records', 'rows.jsonl', '--max-hotspot', '100').status, 0);
    // line 3 (after a blank line) lacks its phone: named as file:line with the engine's reason
    writeFileSync(path.join(dir, 'bad.jsonl'), `${JSON.stringify(rows[0])}\n\n${JSON.stringify({ ts: 0 })}\n`);
    const bad = run('analyze', 'seed000-telecom', '--records', 'bad.jsonl');
    assert.equal(bad.status, 3, bad.stdout + bad.stderr);
    // the engine's rows reader names the file, the line, the row and the column
    assert.match(bad.stderr, /bad\.jsonl: line 3 \(row 2\), column `phone`: null/);
    writeFileSync(path.join(dir, 'garbled.jsonl'), `${JSON.stringify(rows[0])}\n{"phone": \n`);
    const garbled = run('analyze', 'seed000-telecom', '--records', 'garbled.jsonl');
    assert.equal(garbled.status, 3);
    assert.match(garbled.stderr, /garbled\.jsonl: line 2 \(row 2\): /);
    assert.equal(run('analyze', 'seed000-telecom', '--records', 'nope.jsonl').status, 3);
  });

  test('--records: a sampleQuantiles pre-split is cut at the quantiles of the rows given, for the analysis and the read plans', () => {
    // The generated workload's ids run from 100000 up; the rows given are 900000-900999. Split
    // at the generated keys, every row would land in the last region.
    writeFileSync(
      path.join(dir, 'quantiles.json'),
      JSON.stringify({
        v: 1,
        fields: [{ name: 'id', type: 'string', generator: { kind: 'sequence', start: 100000 } }],
        key: 'id',
        workload: { records: 10000 },
        regions: { presplit: { kind: 'sampleQuantiles', regions: 4 } },
        reads: [{ type: 'get', name: 'one id', record: { id: '900500' } }],
      }),
    );
    writeFileSync(
      path.join(dir, 'ids.jsonl'),
      Array.from({ length: 1000 }, (_, i) => JSON.stringify({ id: String(900000 + i) })).join('\n'),
    );
    const r = run('analyze', 'quantiles.json', '--records', 'ids.jsonl', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.regions.length, 4);
    for (const g of j.regions)
      assert.ok(g.writes >= 200 && g.writes <= 300, `${g.startKey}..${g.endKey}: ${g.writes} writes`);
    // The read plan sees the same regions: the get's row lies in the region it names.
    const [region] = j.reads[0].scans[0].regions;
    const g = j.regions[region];
    assert.ok(g.startKey <= '900500' && (g.endKey === '' || '900500' < g.endKey), JSON.stringify(g));
    assert.equal(
      run('check', 'quantiles.json', '--records', 'ids.jsonl', '--lint', 'off', '--max-hotspot', '1e9').status,
      0,
    );
  });

  test('check seed000-telecom --max-hotspot 2.0 passes; the time-first key fails with a readable reason', () => {
    const ok = run('check', 'seed000-telecom', '--max-hotspot', '2.0');
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^ok: hotspot \d+\.\d\d <= 2/);
    const bad = run('check', 'seed000-telecom-time-first', '--max-hotspot', '2.0');
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^FAIL:\n {2}hotspot factor \d+\.\d\d > 2/);
    const j = JSON.parse(run('check', 'seed000-telecom-time-first', '--max-hotspot', '2.0', '--json').stdout);
    assert.equal(j.ok, false);
    assert.ok(j.hotspotFactor > 2 && j.breaches.length >= 1);
    assert.equal(run('check', 'seed000-telecom', '--max-hotspot', 'x').status, 2);
    const w = run('analyze', 'seed000-cyclic', '--windows', 'abc');
    assert.equal(w.status, 2);
    assert.match(w.stderr, /--windows must be a whole number/);
    assert.equal(run('analyze', 'seed000-cyclic', '--windows', '0').status, 3, 'the engine refuses 0 windows by name');
  });

  test("regions: a table's current regions from get_splits or list_regions (a file or stdin), and check --regions", () => {
    // get_splits of a table pre-split for one-byte salts, as the shell prints it.
    const splits = path.join(dir, 'get_splits.txt');
    writeFileSync(
      splits,
      "hbase(main):001:0> get_splits 'calls'\nTotal number of splits = 3\n\\x01\n\\x02\nTook 0.0123 seconds\n",
    );
    const r = run('regions', splits);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^3 regions, read from one key per line\n/);
    assert.deepEqual(JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))), {
      regions: { presplit: { kind: 'explicit', keys: ['\\x01', '\\x02'], encoding: 'stringBinary' } },
    });
    // The telecom design (two-digit salts '00'..'09') on that table: every key sorts after
    // \x02, so every write goes to the last region, and the gate fails; on its own pre-split
    // it passes (the test above).
    const gate = run('check', 'seed000-telecom', '--regions', splits);
    assert.equal(gate.status, 1, gate.stdout + gate.stderr);
    assert.match(gate.stdout, /^FAIL:\n {2}hotspot factor 3\.00 > 2/);
    const a = JSON.parse(run('analyze', 'seed000-telecom', '--regions', splits, '--json').stdout);
    assert.deepEqual(
      a.regions.map(g => g.writes),
      [0, 0, a.writes],
    );
    // list_regions on stdin; the encoded names are the MD5 of `events,<start key>,<id>`
    // (computed with Python's hashlib).
    const listed = [
      ' rs1.example.internal,16020,1700000000123 |     events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. |',
      ' rs2.example.internal,16020,1700000000456 | events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba. |',
    ].join('\n');
    const stdin = spawnSync(bin, ['regions', '-', '--json'], { cwd: dir, encoding: 'utf8', input: listed });
    assert.equal(stdin.status, 0, stdin.stderr);
    assert.deepEqual(JSON.parse(stdin.stdout), {
      source: 'regionNames',
      table: 'events',
      regions: 2,
      presplit: { kind: 'explicit', keys: ['\\x01'], encoding: 'stringBinary' },
      verified: 2,
      notes: [],
      load: [],
      assignment: null,
    });
    // A name that does not check out is an input error at its line and column.
    const edited = spawnSync(bin, ['reads', 'seed002-salt-byte', '--regions', '-'], {
      cwd: dir,
      encoding: 'utf8',
      input: listed.replace('events,\\x01', 'events,\\x02'),
    });
    assert.equal(edited.status, 3);
    assert.match(
      edited.stderr,
      /^rowkey-lab: stdin:2:56: the region name ending `,1700000000000\.e2388f30e27d4b2ce98a8810557b1aba\.` does not check out/,
    );
    assert.equal(run('analyze', 'seed000-telecom', '--table', 'events').status, 2, '--table needs --regions');
  });

  test('regions and analyze --regions: what each region takes now, from /jmx dumps joined by encoded name', () => {
    // The four regions of `events` as a hbase:meta scan names them, then two RegionServers'
    // /jmx output (bean sub=Regions); region 3 takes most of the writes now.
    const ENC = [
      'b9648a65b8e483aa98e34ec614d0456a',
      'e2388f30e27d4b2ce98a8810557b1aba',
      '56148a42b86fc6273cb93d6e14763464',
      'a268fbf8a9da0a405f96f04dcf047e07',
    ];
    const meta = ENC.map(
      (e, i) => ` events,${i ? `\\x0${i}` : ''},1700000000000.${e}. column=info:regioninfo, value={ENCODED => ${e}}`,
    ).join('\n');
    const writes = [2000, 1500, 1800, 90000];
    const dump = (host, regions) =>
      JSON.stringify(
        {
          beans: [
            Object.fromEntries([
              ['name', 'Hadoop:service=HBase,name=RegionServer,sub=Regions'],
              ['tag.Hostname', host],
              ...regions.flatMap(i => [
                [`Namespace_default_table_events_region_${ENC[i]}_metric_writeRequestCount`, writes[i]],
                [`Namespace_default_table_events_region_${ENC[i]}_metric_readRequestCount`, 7],
              ]),
            ]),
          ],
        },
        null,
        2,
      );
    const file = path.join(dir, 'events-load.txt');
    writeFileSync(file, `${meta}\n${dump('rs1', [0, 1])}\n${dump('rs2', [2, 3])}\n`);
    const share = i => ((writes[i] / writes.reduce((a, b) => a + b)) * 100).toFixed(1);
    const r = run('regions', file);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\* load: reads and writes of 4 region\(s\) read from 2 \/jmx dump\(s\)$/m);
    // The regions to paste into a design carry their servers.
    const pasted = JSON.parse(r.stdout.slice(r.stdout.indexOf('{\n  "regions"')));
    assert.deepEqual(pasted.regions.assignment, { servers: ['rs1', 'rs1', 'rs2', 'rs2'] });
    const row3 = r.stdout.split('\n').find(l => /^ +3 /.test(l));
    assert.deepEqual(row3.trim().split(/ +/), [
      '3',
      '\\x03',
      'rs2',
      String(writes[3] + 7),
      String(writes[3]),
      share(3),
      '-',
    ]);
    const j = JSON.parse(run('regions', file, '--json').stdout);
    assert.deepEqual(
      j.load.map(l => [l.startKey, l.encoded, l.server, l.writes, l.reads]),
      ENC.map((e, i) => [i ? `\\x0${i}` : '', e, i < 2 ? 'rs1' : 'rs2', writes[i], 7]),
    );
    // The telecom design on those regions puts every write where the table's writes go now.
    const a = run('analyze', 'seed000-telecom', '--regions', file);
    assert.equal(a.status, 0, a.stderr);
    assert.match(
      a.stdout,
      new RegExp(
        `^busiest region now: 3 \\(${share(3)} % of writes\\); with this design: 3 \\(100\\.0 % of writes\\)$`,
        'm',
      ),
    );
    // By server, the regions placed where the dumps say (rs1 holds regions 0 and 1, rs2 regions
    // 2 and 3): regions, this design's writes and their share, the share of the writes now.
    const total = writes.reduce((a, b) => a + b);
    const [rs1, rs2] = [((writes[0] + writes[1]) / total) * 100, ((writes[2] + writes[3]) / total) * 100].map(x =>
      x.toFixed(1),
    );
    const aj = JSON.parse(run('analyze', 'seed000-telecom', '--regions', file, '--json').stdout);
    assert.deepEqual(
      aj.servers.map(s => [s.name, s.regions, s.rows]),
      [
        ['rs1', 2, 0],
        ['rs2', 2, aj.writes],
      ],
    );
    assert.match(a.stdout, new RegExp(`^rs1 +2 +0 +0\\.0 +${rs1}$`, 'm'));
    assert.match(a.stdout, new RegExp(`^rs2 +2 +${aj.writes} +100\\.0 +${rs2}$`, 'm'));
    assert.match(a.stdout, /^server hotspot factor 2\.00 \(regions on their named servers\)$/m);
    assert.deepEqual(aj.tableLoad, j.load);
    assert.deepEqual(j.assignment, { servers: ['rs1', 'rs1', 'rs2', 'rs2'] });
    // A CI gate on the busiest region server: every write on rs2, so 2 servers give a factor of
    // 2 (busiest / mean); the region budget is set out of the way.
    const gate = run(
      'check',
      'seed000-telecom',
      '--regions',
      file,
      '--max-hotspot',
      '4',
      '--max-server-hotspot',
      '1.5',
    );
    assert.equal(gate.status, 1, gate.stderr);
    assert.equal(
      gate.stdout.trim(),
      'FAIL:\n  server hotspot factor 2.00 > 1.5 (busiest: rs2, 100.0 % of the writes on 2 servers placed as the table has them)',
    );
    const pass = run(
      'check',
      'seed000-telecom',
      '--regions',
      file,
      '--max-hotspot',
      '4',
      '--max-server-hotspot',
      '2',
      '--json',
    );
    assert.equal(pass.status, 0, pass.stderr);
    assert.equal(JSON.parse(pass.stdout).serverHotspotFactor, 2);
    assert.equal(
      run('check', 'seed000-telecom', '--max-server-hotspot', '0.5').status,
      2,
      'a factor under 1 can never pass',
    );
    // The design's own rule on one server: no server table.
    assert.doesNotMatch(run('analyze', 'seed000-telecom').stdout, /server hotspot factor/);
    // A dump alone has no key ranges: an input error.
    writeFileSync(file, dump('rs1', [0]));
    const bare = run('regions', file);
    assert.equal(bare.status, 3);
    assert.match(bare.stderr, /without key ranges/);
  });

  test("reads: each read's scans; --shell prints the scan commands of a salted range read", () => {
    const text = run('reads', 'seed002-salt-byte');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^an order id range: 8 scans over 8 regions$/m);
    // Seed 002: one salt byte, 8 buckets; the range read covers order ids 100000..101000, so
    // bucket b's scan runs from b + "100000" to b + "101000", buckets in key order.
    const r = run('reads', 'seed002-salt-byte', '--shell', 'orders');
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    const at = lines.indexOf('# an order id range: 8 scans');
    assert.ok(at > 0, r.stdout);
    assert.deepEqual(
      lines.slice(at + 1, at + 9),
      Array.from({ length: 8 }, (_, b) => `scan 'orders', {STARTROW => "\\x0${b}100000", STOPROW => "\\x0${b}101000"}`),
    );
    // The get gives the whole key: the shell's get of that one row, its salt byte Phoenix's
    // (Arrays.hashCode of the key bytes, |h % 8|).
    const salt = [...Buffer.from('100042')].reduce((h, c) => (Math.imul(31, h) + c) | 0, 1) % 8;
    assert.deepEqual(lines.slice(0, 2), ['# one order: 1 scan', `get 'orders', "\\x0${Math.abs(salt)}100042"`]);
    const j = JSON.parse(run('reads', 'seed002-salt-byte', '--shell', 'orders', '--json').stdout);
    assert.equal(j[1].scans[7].shell, lines[at + 8]);
    assert.equal(j[1].scans[7].startRowHex, '07313030303030');
    assert.equal(run('reads', 'seed002-salt-byte', '--shell', '').status, 3, 'an empty table name');
    // Row keys align left even when they look like numbers: seed 002 reverses order id 100042.
    assert.match(run('reads', 'seed002-reverse').stdout, /^240001 {5}240002 {22}\d+$/m);
    // Seed 002 with a reversed timestamp after the order id: "latest 5" is the order's first
    // 5 rows, so its scan ends with LIMIT => 5; with ascending time it must read them all.
    const newest = run('reads', 'seed002-reverse', '--shell', 'orders').stdout.trim().split('\n');
    assert.deepEqual(newest.slice(0, 2), [
      '# latest 5 versions of one order: 1 scan',
      `scan 'orders', {STARTROW => "240001", STOPROW => "240002", LIMIT => 5}`,
    ]);
    assert.ok(!newest.slice(2).some(l => l.includes('LIMIT')), newest.join('\n'));
    assert.match(
      run('reads', 'seed002-reverse').stdout,
      /^latest 5 versions of one order: 1 scan over 1 region, each ending after 5 rows \(LIMIT\)$/m,
    );
    const oldest = run('reads', 'seed002-reverse-ascending', '--shell', 'orders').stdout;
    assert.doesNotMatch(oldest, /LIMIT/);
    writeFileSync(
      path.join(dir, 'noreads.json'),
      JSON.stringify({ v: 1, fields: [{ name: 'id', type: 'string' }], key: 'id' }),
    );
    const none = run('reads', 'noreads.json');
    assert.equal(none.status, 0);
    assert.match(none.stdout, /has no reads/);
  });

  test('check over several designs: one line each, exit 1 when any breaks its budget', () => {
    const both = run('check', 'seed000-telecom', 'seed000-telecom-time-first', '--max-hotspot', '2.0');
    assert.equal(both.status, 1, both.stderr);
    assert.match(both.stdout, /^seed000-telecom: ok: hotspot /m);
    assert.match(both.stdout, /^seed000-telecom-time-first: FAIL:\n {2}hotspot factor \d+\.\d\d > 2/m);
    const j = JSON.parse(run('check', 'seed000-telecom', 'seed000-telecom-time-first', '--json').stdout);
    assert.deepEqual(
      j.map(x => [x.design, x.ok]),
      [
        ['seed000-telecom', true],
        ['seed000-telecom-time-first', false],
      ],
    );
    assert.equal(
      run('check', 'seed000-telecom', 'seed002-salt-byte', '--max-hotspot', '100', '--max-scans', '100').status,
      0,
    );
    assert.equal(run('check', 'seed000-telecom', 'no-such-design').status, 3, 'every design is read first');
  });

  test('check fails on lint errors by default; --lint warning is stricter, --lint off skips lint', () => {
    // Seed 004's hash-prefix key puts the variable-width `user` right before `item`: the lint
    // rule ambiguous-boundary is an error there (the key cannot be split again).
    const loose = ['--max-hotspot', '1e9', '--max-scans', '1000000'];
    const r = run('check', 'seed004-hash-prefix', ...loose);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^ {2}lint error ambiguous-boundary \(segment \d+\): /m);
    const j = JSON.parse(run('check', 'seed004-hash-prefix', ...loose, '--json').stdout);
    assert.deepEqual(
      j.lint.map(f => [f.severity, f.rule]),
      [['error', 'ambiguous-boundary']],
    );
    const off = run('check', 'seed004-hash-prefix', ...loose, '--lint', 'off');
    assert.equal(off.status, 0, off.stdout);
    assert.doesNotMatch(off.stdout, /lint/);
    // The salted telecom key has warnings only (key length, the separator inside the phone).
    const ok = run('check', 'seed000-telecom');
    assert.equal(ok.status, 0, ok.stdout);
    assert.match(ok.stdout, /, no lint errors$/m);
    const strict = run('check', 'seed000-telecom', '--lint', 'warning');
    assert.equal(strict.status, 1);
    assert.match(strict.stdout, /^ {2}lint warning separator-in-field \(segment 3\): /m);
    assert.equal(run('check', 'seed000-telecom', '--lint', 'fatal').status, 2);
  });

  test('check holds a design to its examples: a key change that writes other bytes for them fails', () => {
    const loose = ['--max-hotspot', '1e9', '--max-scans', '1000000'];
    const doc = m.getPreset('seed000-telecom');
    // The preset's examples are the article's rows, bucket = |String.hashCode(phone + yyyyMM) % 10|
    // as two digits. Twenty buckets instead of ten move the rows whose hash mod 20 is not the
    // same number: those examples fail, each with the key the new design writes.
    const javaHash = text => [...text].reduce((h, c) => (Math.imul(31, h) + c.charCodeAt(0)) | 0, 0);
    const bucket = (ex, n) =>
      String(Math.abs(javaHash(ex.record.phone + ex.record.ts.slice(0, 7).replace('-', '')) % n)).padStart(2, '0');
    const rest = ex => `_${ex.record.phone}_${ex.record.ts.replace(/[-T:Z]/g, '')}`;
    for (const ex of doc.examples) assert.equal(Buffer.from(ex.key, 'hex').toString(), bucket(ex, 10) + rest(ex));
    const changed = { ...doc, key: m.formatKey(doc.key).replace(', 10,', ', 20,') };
    assert.notEqual(changed.key, m.formatKey(doc.key));
    writeFileSync(path.join(dir, 'rebucketed.json'), JSON.stringify(changed));
    const r = run('check', 'rebucketed.json', ...loose);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const want = doc.examples.flatMap((ex, j) =>
      bucket(ex, 20) === bucket(ex, 10)
        ? []
        : [
            `  example ${j} (phone ${ex.record.phone}, ts ${ex.record.ts}): the key writes ${bucket(ex, 20)}${rest(ex)}, the example says ${bucket(ex, 10)}${rest(ex)} (segment \`salt(phone + time(ts, "yyyyMM"), 20, as=dec(2))\` changed); `,
          ],
    );
    assert.ok(want.length > 0);
    const lines = r.stdout.split('\n').filter(l => l.startsWith('  example '));
    assert.deepEqual(
      lines.map(l => l.slice(0, l.indexOf('; ') + 2)),
      want,
    );
    // They fail the gate even with lint off, and the lint command lists them as warnings.
    assert.equal(run('check', 'rebucketed.json', ...loose, '--lint', 'off').status, 1);
    const findings = JSON.parse(run('lint', 'rebucketed.json', '--json').stdout).filter(f => f.rule === 'example-key');
    assert.deepEqual(
      findings.map(f => `  ${f.message}`),
      lines,
    );
    assert.ok(findings.every(f => f.severity === 'warning' && f.segment === 0));
    // check --json gives them as findings too, each with its example's index, out of the lint list.
    const cj = JSON.parse(run('check', 'rebucketed.json', ...loose, '--json').stdout);
    assert.equal(cj.ok, false);
    assert.deepEqual(
      cj.examples.map(f => f.example),
      doc.examples.flatMap((ex, j) => (bucket(ex, 20) === bucket(ex, 10) ? [] : [j])),
    );
    assert.deepEqual(
      cj.examples.map(f => f.message),
      findings.map(f => f.message),
    );
    assert.ok(cj.lint.every(f => f.rule !== 'example-key'));
    // `examples` lists the same: the moved ones with the key written now; exit 1 as check.
    const ex = run('examples', 'rebucketed.json', '--json');
    assert.equal(ex.status, 1, ex.stderr);
    const listed = JSON.parse(ex.stdout);
    const movedAt = new Set(findings.map(f => f.example));
    assert.deepEqual(
      listed.map(e => e.status),
      doc.examples.map((_, j) => (movedAt.has(j) ? 'moved' : 'same')),
    );
    assert.deepEqual(
      listed.map(e => Buffer.from(e.keyNow, 'hex').toString()),
      doc.examples.map(e => bucket(e, 20) + rest(e)),
    );
    // --update: the same design with those keys rewritten, which then passes the gate.
    const up = run('examples', 'rebucketed.json', '--update');
    assert.equal(up.status, 0, up.stderr);
    const updated = JSON.parse(up.stdout);
    assert.deepEqual({ ...updated, examples: null }, { ...changed, examples: null }, 'only the examples change');
    assert.deepEqual(
      updated.examples.map(e => Buffer.from(e.key, 'hex').toString()),
      doc.examples.map(e => bucket(e, 20) + rest(e)),
    );
    writeFileSync(path.join(dir, 'updated.json'), up.stdout);
    assert.equal(run('check', 'updated.json', ...loose).status, 0);
    const again = run('examples', 'updated.json');
    assert.equal(again.status, 0, again.stdout);
    assert.match(again.stdout, /^every recorded key is what the design writes$/m);
    assert.equal(run('examples', 'rebucketed.json', '--update=yes').status, 2);
    // A recorded key that is not hex is an input error at its place.
    const bad = { ...doc, examples: [{ record: doc.examples[0].record, key: 'zz' }] };
    writeFileSync(path.join(dir, 'badexample.json'), JSON.stringify(bad));
    const b = run('check', 'badexample.json', ...loose);
    assert.equal(b.status, 3);
    assert.match(b.stderr, /not a row key in hex: invalid hex char "z" at index 0 \(at \/examples\/0\/key, /);
    // The unchanged preset keeps its examples; a random salt's drawn letter is not compared.
    assert.equal(run('check', 'seed000-telecom', ...loose).status, 0);
    assert.equal(run('check', 'seed001-random-salt', ...loose, '--lint', 'off').status, 0);
    const rand = m.getPreset('seed001-random-salt');
    const tail = { ...rand, examples: [{ ...rand.examples[0], key: `${rand.examples[0].key.slice(0, -2)}39` }] };
    writeFileSync(path.join(dir, 'randtail.json'), JSON.stringify(tail));
    assert.match(
      run('check', 'randtail.json', ...loose, '--lint', 'off').stdout,
      /^ {2}example 0 \(row foo0001\): the key writes .-foo0001, the example says .-foo0009 \(segment `row` changed\); /m,
    );
  });

  test('check gates a design: exit 1 on budget breach, 0 within budget', () => {
    const ids = m.listPresets().map(p => p.id);
    // Budgets no design could meet are usage errors: a hotspot factor is never below 1.
    assert.equal(run('check', ids[0], '--max-hotspot', '0.5').status, 2);
    assert.equal(run('check', ids[0], '--max-scans', '0').status, 2);
    // The tightest valid budget: a hotspot factor of exactly 1 needs every region equal in every window.
    const strict = run('check', ids[0], '--max-hotspot', '1', '--max-scans', '1', '--json');
    assert.equal(strict.status, 1, strict.stderr);
    assert.equal(JSON.parse(strict.stdout).ok, false);
    const loose = run('check', ids[0], '--max-hotspot', '1e9', '--max-scans', '1000000');
    assert.equal(loose.status, 0, loose.stderr);
    assert.equal(loose.stderr, '', 'no progress output when stderr is not a TTY');
  });

  const hasScript = (() => {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  test('progress bar on stderr when stderr is a TTY (util-linux script gives a pty)', {
    skip: !hasScript && 'no script(1)',
  }, () => {
    // stdout to a file, stderr on the pty: the bar appears on the pty, never in stdout.
    const outFile = path.join(dir, 'tty-out.json');
    const cmd = `${JSON.stringify(bin)} analyze seed000-telecom --json > ${JSON.stringify(outFile)}`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /analyzing \[#*\.*\] \d+%/);
    // 3 M records on worker threads: how many lines are drawn depends on the machine's speed (progress
    // is sent by time), so only what holds on any machine is asserted: the bar ends at 100 %, no line
    // is drawn twice, and the percentage never goes back.
    const big = m.getPreset('seed000-telecom');
    big.workload.records = 3_000_000;
    writeFileSync(path.join(dir, 'big.json'), JSON.stringify(big));
    const many = spawnSync('script', ['-qec', `${JSON.stringify(bin)} analyze big.json > /dev/null`, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(many.status, 0, many.stdout);
    const lines = [...many.stdout.matchAll(/analyzing (\[[#.]*\] (\d+)%)/g)];
    assert.ok(lines.length >= 1, many.stdout);
    assert.equal(lines.at(-1)[2], '100', many.stdout);
    for (let i = 1; i < lines.length; i++) {
      assert.notEqual(lines[i][1], lines[i - 1][1], `drawn twice: ${lines[i][1]}`);
      assert.ok(Number(lines[i][2]) >= Number(lines[i - 1][2]), `going back: ${lines[i - 1][1]} then ${lines[i][1]}`);
    }
    const j = JSON.parse(readFileSync(outFile, 'utf8'));
    assert.equal(j.writes, m.analyzeDesign(m.getPreset('seed000-telecom')).writes);
  });
});
