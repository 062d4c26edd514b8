// Text for terminals and spreadsheets (issue 56, item 10), the CLI run as a user runs it: a /jmx
// dump's server and host names, a file's values and column names and a file's own name reach
// the terminal with every control escaped \xNN as keys are (no title set, no screen cleared,
// nothing written to the clipboard by OSC 52), while --json keeps them as they are; the keys
// `encode --records` writes as TSV never start a spreadsheet formula and still decode to the
// same bytes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const SCENARIO = path.join(ROOT, 'tests/fixtures/observe/scenario');

// Set the window title, clear the screen, put `rm -rf ~` on the clipboard (OSC 52), a C1 CSI
// and a right-to-left override: what a crafted file or server answer would send.
const TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J';
const CLIPBOARD = `\x1b]52;c;${Buffer.from('rm -rf ~').toString('base64')}\x07`;
const EVIL = `${TITLE}${CLEAR}${CLIPBOARD}\u009b31m\u202e`;
/** The first character a terminal acts on (C0 but the line end, DEL, C1, bidi overrides), if any. */
const control = text =>
  [...text].find(c => {
    const cp = c.codePointAt(0);
    return (
      (cp < 0x20 && c !== '\n') ||
      (cp >= 0x7f && cp <= 0x9f) ||
      (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069)
    );
  });

const design = {
  v: 1,
  fields: [
    { name: 'carrier', type: 'string' },
    { name: 'flight', type: 'int' },
  ],
  key: 'carrier + "_" + str(flight)',
};

describe('rowkey-lab prints what it reads without terminal controls', { skip: NOT_BUILT }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-escapes-'));
    writeFileSync(path.join(dir, 'design.json'), JSON.stringify(design));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = args => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60000 });
  const clean = (text, what) =>
    assert.equal(control(text), undefined, `${what} holds a control: ${JSON.stringify(control(text))}`);

  test("observe: a dump's tag.serverName and tag.Hostname are printed escaped, --json keeps them", () => {
    const snaps = path.join(dir, 'snaps');
    cpSync(SCENARIO, snaps, { recursive: true });
    // rs1's name, the same in both tags (the reader keeps tag.serverName only when they agree).
    const host = `rs1${EVIL}.example.internal`;
    for (const f of readdirSync(snaps).filter(n => n.endsWith('rs1.json'))) {
      const file = path.join(snaps, f);
      const text = readFileSync(file, 'utf8').replaceAll('"rs1.example.internal', JSON.stringify(host).slice(0, -1));
      assert.notEqual(text, readFileSync(file, 'utf8'));
      writeFileSync(file, text);
    }
    const r = run(['observe', snaps]);
    assert.equal(r.status, 0, r.stderr);
    clean(r.stdout, 'stdout');
    clean(r.stderr, 'stderr');
    // escaped as toStringBinary escapes a key's bytes
    assert.ok(r.stdout.includes('rs1\\x1B]0;pwned\\x07\\x1B[2J\\x1B]52;c;'), r.stdout);
    assert.ok(r.stdout.includes('\\xC2\\x9B31m\\xE2\\x80\\xAE.example.internal'), r.stdout);
    // the move's line names the server too
    assert.match(r.stdout, /move: .* from rs1\\x1B/);
    const j = JSON.parse(run(['observe', snaps, '--json']).stdout);
    assert.ok(j.intervals[0].regions.some(x => x.server?.startsWith(host)));
  });

  test('profile: heaviest values and column names from a CSV are printed escaped', () => {
    const col = `flight${CLEAR}`;
    const rows = [`carrier,${col}`, ...Array.from({ length: 5 }, (_, i) => `${EVIL},${i}`), 'UA,9'];
    writeFileSync(path.join(dir, 'evil.csv'), `${rows.join('\n')}\n`);
    const r = run(['profile', 'design.json', '--records', 'evil.csv', '--map', `flight=${col}`]);
    assert.equal(r.status, 0, r.stderr);
    clean(r.stdout, 'stdout');
    assert.ok(r.stdout.includes('\\x1B]52;c;cm0gLXJmIH4=\\x07'), r.stdout);
    assert.ok(r.stdout.includes('flight\\x1B[2J'), r.stdout);
    const j = JSON.parse(
      run(['profile', 'design.json', '--records', 'evil.csv', '--map', `flight=${col}`, '--json']).stdout,
    );
    assert.equal(j.fields[0].heaviest[0].value, EVIL);
  });

  test("an error quoting a file's column names or a file's own name is printed escaped", () => {
    writeFileSync(path.join(dir, 'cols.csv'), `airline${TITLE},flight\nUA,1\n`);
    const r = run(['encode', 'design.json', '--records', 'cols.csv']);
    assert.equal(r.status, 3, r.stderr);
    clean(r.stderr, 'stderr');
    assert.ok(r.stderr.includes('airline\\x1B]0;pwned\\x07'), r.stderr);
    const name = `snap${CLEAR}.txt`;
    writeFileSync(path.join(dir, name), 'hello\n');
    writeFileSync(path.join(dir, 'other.txt'), 'hello\n');
    const o = run(['observe', name, 'other.txt']);
    assert.equal(o.status, 3, o.stderr);
    clean(o.stderr, 'stderr');
    assert.ok(o.stderr.includes('snap\\x1B[2J.txt'), o.stderr);
  });

  test('encode --records: no key starts a spreadsheet formula, and each still decodes to its bytes', () => {
    const carriers = ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', 'UA', 'a=b'];
    const lines = carriers.map((c, i) => `"${c.replaceAll('"', '""')}",${i}`);
    writeFileSync(path.join(dir, 'formulas.csv'), `carrier,flight\n${lines.join('\n')}\n`);
    const r = run(['encode', 'design.json', '--records', 'formulas.csv']);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map(l => l.split('\t'));
    assert.deepEqual(
      rows.map(([, text]) => text),
      ['\\x3DHYPERLINK("http://x")_0', '\\x2B1_1', '\\x2D2_2', '\\x40SUM(A1)_3', 'UA_4', 'a=b_5'],
    );
    for (const [hex, text] of rows) {
      assert.doesNotMatch(text, /^[=+\-@\t\r]/);
      // the text is still the key: decode (and the HBase shell) read the same bytes back
      const d = run(['decode', 'design.json', text, '--json']);
      assert.equal(d.status, 0, d.stderr);
      assert.equal(JSON.parse(d.stdout).keyHex, hex);
    }
    // --json keeps the key's toStringBinary text as it is
    const j = JSON.parse(run(['encode', 'design.json', '--records', 'formulas.csv', '--json']).stdout);
    assert.equal(j[0].binary, '=HYPERLINK("http://x")_0');
  });
});
