// The CLI on Phoenix tables, from the installed tarball: a .sql CREATE TABLE wherever a design
// is taken (layout, encode, reads, lint, analyze, compare), its errors as file:line:column, and
// create-table printing a design's statement back.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { installed, NOT_BUILT } from '../npm-helpers.mjs';

const SQL = `-- one host's metrics, newest first
CREATE TABLE metrics (
    host VARCHAR NOT NULL,
    ts DATE NOT NULL,
    val DOUBLE,
    CONSTRAINT pk PRIMARY KEY (host, ts DESC)
) SALT_BUCKETS = 4, VERSIONS = 1;
`;

describe('rowkey-lab CLI on Phoenix tables', { skip: NOT_BUILT }, () => {
  let bin;
  let dir;
  before(async () => {
    ({ dir } = await installed());
    bin = path.join(dir, 'node_modules/.bin/rowkey-lab');
    writeFileSync(path.join(dir, 'metrics.sql'), SQL);
    writeFileSync(path.join(dir, 'broken.sql'), 'CREATE TABLE t (\n  a VARCHAR,\n  CONSTRAINT pk PRIMARY KEY (b))\n');
  });
  const run = (...args) => spawnSync(bin, args, { cwd: dir, encoding: 'utf8' });

  test('splits of a salted Phoenix table says Phoenix makes its regions, as the Splits view says it', () => {
    const json = run('splits', 'metrics.sql', '--create', 'METRICS', '--json');
    assert.equal(json.status, 0, json.stderr);
    const said = JSON.parse(json.stdout).phoenix;
    // SALT_BUCKETS = 4 above: Phoenix creates the four regions from its DDL
    assert.match(said, /SALT_BUCKETS = 4 creates its 4 regions \(one per bucket\)/);
    assert.match(said, /not from the HBase shell/);
    assert.ok(json.stderr.includes(said), json.stderr);
    const text = run('splits', 'metrics.sql', '--create', 'METRICS');
    assert.equal(text.stdout.split('\n')[0], `# ${said}`);
    // a design that is not a salted Phoenix table: nothing said
    const plain = run('splits', 'seed000-telecom', '--create', 't', '--json');
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(JSON.parse(plain.stdout).phoenix, undefined);
    assert.doesNotMatch(plain.stderr, /Phoenix splits/);
  });

  test('a .sql file is a design: layout, encode, lint, analyze, compare', () => {
    const layout = run('layout', 'metrics.sql', '--json');
    assert.equal(layout.status, 0, layout.stderr);
    assert.deepEqual(
      JSON.parse(layout.stdout).map(s => [s.kind, s.name]),
      [
        ['salt', 'salt'],
        ['pk', 'HOST'],
        ['pk', 'TS'],
      ],
    );
    // "ab" 00, DATE 1 = 8000000000000001 inverted = 7ffffffffffffffe, behind salt byte 01
    // (Arrays.hashCode of those 11 bytes is 1216499037; 1216499037 % 4 = 1).
    const enc = run('encode', 'metrics.sql', '--record', '{"HOST": "ab", "TS": 1}', '--json');
    assert.equal(enc.status, 0, enc.stderr);
    assert.equal(JSON.parse(enc.stdout).hex, '016162007ffffffffffffffe');
    const lint = run('lint', 'metrics.sql', '--json');
    assert.equal(lint.status, 0, lint.stderr);
    assert.ok(Array.isArray(JSON.parse(lint.stdout)));
    const analyze = run('analyze', 'metrics.sql', '--windows', '4', '--json');
    assert.equal(analyze.status, 0, analyze.stderr);
    assert.equal(JSON.parse(analyze.stdout).regions.length, 4);
    const compare = run('compare', 'metrics.sql', 'seed002-phoenix-orders', '--windows', '4');
    assert.equal(compare.status, 0, compare.stderr);
  });

  test('a broken statement is an input error at file:line:column', () => {
    const r = run('lint', 'broken.sql');
    assert.equal(r.status, 3);
    assert.match(r.stderr, /broken\.sql:3:30: primary-key column B is not declared/);
  });

  test('create-table prints the statement back; a key that is not Phoenix is an input error', () => {
    const r = run('create-table', 'metrics.sql');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stdout.trim(),
      [
        'CREATE TABLE METRICS (',
        '    HOST VARCHAR NOT NULL,',
        '    TS DATE NOT NULL,',
        '    VAL DOUBLE,',
        '    CONSTRAINT pk PRIMARY KEY (HOST, TS DESC)',
        ') SALT_BUCKETS=4, VERSIONS=1;',
      ].join('\n'),
    );
    const preset = run('create-table', 'seed002-phoenix-orders', '--json');
    assert.equal(preset.status, 0, preset.stderr);
    assert.match(JSON.parse(preset.stdout).sql, /^CREATE TABLE ORDERS \(\n {4}ORDER_ID VARCHAR NOT NULL,/);
    const plain = run('create-table', 'seed000-telecom');
    assert.equal(plain.status, 3);
    assert.match(plain.stderr, /no pk\(\.\.\.\) columns/);
    assert.equal(run('create-table', '--help').status, 0);
  });
});
