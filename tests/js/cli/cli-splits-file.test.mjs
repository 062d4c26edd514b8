// The CLI's SPLITS_FILE text (`splits`), run as a user runs it (a child process): written by the
// engine's one writer (`splitsFile`, src/hbase/shell.rs, the Python package's too), a split key's
// leading and trailing spaces as `\x20`, since HBase's shell strips each line it reads; the text
// reads back as the same keys (`regions`).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const run = (args, cwd) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });

describe('splits: SPLITS_FILE lines', { skip: NOT_BUILT }, () => {
  let api;
  let dir;
  before(async () => {
    api = await import(pathToFileURL(path.join(ROOT, 'pkg/node/index.js')).href);
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-splits-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a split key's edge spaces are written \\x20, and read back as the same bytes", () => {
    const keys = [' b', 'a '];
    const hex = s => Buffer.from(s).toString('hex');
    const design = {
      v: 1,
      fields: [{ name: 'id', type: 'string' }],
      key: 'id',
      regions: { presplit: { kind: 'explicit', encoding: 'hex', keys: keys.map(hex) } },
    };
    writeFileSync(path.join(dir, 'design.json'), JSON.stringify(design));
    const r = run(['splits', 'design.json'], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '\\x20b\na\\x20\n');
    for (const line of r.stdout.trimEnd().split('\n')) assert.equal(line, line.trim(), 'a line the shell would strip');
    // the engine's writer, the one the Python package's rk.splits_file calls
    assert.equal(api.splitsFile(keys.map(k => new TextEncoder().encode(k))), r.stdout);
    // read back as HBase's shell reads a SPLITS_FILE: the same bytes
    writeFileSync(path.join(dir, 'splits.txt'), r.stdout);
    const back = run(['regions', 'splits.txt', '--json'], dir);
    assert.equal(back.status, 0, back.stderr);
    const read = JSON.parse(back.stdout);
    assert.equal(read.regions, 3);
    assert.deepEqual(read.presplit, { kind: 'explicit', keys, encoding: 'stringBinary' });
  });
});
