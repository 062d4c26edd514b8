// Issue 56, items 2 and 3, through the npm package: a Parquet page of zstd zeros past
// limits::MAX_PARQUET_PAGE_BYTES and Arrow IPC files and streams whose record batch declares a
// body of 2^40 bytes, a negative one or 2^32 + 8 (tests/fixtures/rows/, written by tests/engine/rows_bombs.rs'
// generators) are refused with the engine's error and its kind, before any decompression: no
// trap, no panic, no masked "take ownership" message, and the module answers afterwards.
// A Blob (analyzeRows) is read by the wasm build on both engines; a file's path
// (analyzeRowsParallel) by each engine's own reader, in this process (../engines.mjs): the native
// engine's file driver, or the wasm build's chunks. The files the readers' fuzzer found panics
// with (tests/fixtures/fuzz/found-*) are read by path too, with the design their rows fit.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ENGINES, onEngine } from '../engines.mjs';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const DOC = { v: 1, fields: [{ name: 'n', type: 'long' }], key: 'str(n)' };
const FLIGHTS = JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/rows/flights-design.json'), 'utf8'));
const file = name => path.join(ROOT, name.startsWith('found-') ? 'tests/fixtures/fuzz' : 'tests/fixtures/rows', name);

const cases = [
  ['bomb-page.parquet', 'limit', /a page of 83108864 bytes uncompressed/],
  ['body-2e40.arrow', 'invalid', /not a readable Arrow IPC file/],
  ['body-negative.arrow', 'invalid', /not a readable Arrow IPC file/],
  ['body-2e40.arrows', 'invalid', /body-2e40\.arrows|message 1: a message declares a body of 1099511627776 bytes/],
  // issue 73: 2^32 + 8, read by wasm's 32-bit usize as 8 (a panic in arrow-buffer)
  ['body-4g.arrows', 'invalid', /message 1: a message declares a body of 4294967304 bytes/],
];
/** The fuzzer's finds: each a file whose rows the flights design reads, broken where it says. */
const found = [
  ['found-dictionary-empty.parquet', /a dictionary page that declares no values holds 42 bytes/],
  ['found-index-vlq-first.parquet', /dictionary indices have a run header of more than 10 bytes/],
  ['found-index-vlq.parquet', /dictionary indices have a run header of more than 10 bytes/],
  ['found-levels-short.parquet', /definition levels have a bit-packed run/],
  ['found-no-dictionary.parquet', /RLE_DICTIONARY with no dictionary page before it/],
  ['found-offsets-odd.arrow', /block 1: buffer 6 of a record batch \(column `tailnum`, its offsets\) is 255 bytes/],
  ['found-offsets-odd.arrows', /message 3: buffer 12 of a record batch \(column `dest`, its offsets\) is 194 bytes/],
  ['found-split-levels.parquet', /encoded BYTE_STREAM_SPLIT in 17 bytes/],
  ['found-split-short.parquet', /encoded BYTE_STREAM_SPLIT in 17 bytes/],
];

/** `e` is the engine's error of kind `kind` saying `message`, nothing masked. */
const refused = (e, kind, message) => {
  assert.equal(e.kind, kind, e.message);
  assert.match(e.message, message);
  assert.doesNotMatch(e.message, /ownership|unreachable|panicked|memory access|rowkey-lab bug/);
  return true;
};

/** Each engine's package in this process (a missing native engine: skipped, or thrown under ROWKEY_LAB_REQUIRE_NATIVE=1). */
const engines = await Promise.all(ENGINES.map(onEngine));

describe('hostile files of rows in the npm package', { skip: NOT_BUILT }, () => {
  for (const [name, kind, message] of cases) {
    test(`${name} is refused with kind ${kind} (a Blob: the wasm build's reader on both engines)`, async () => {
      const m = await import(path.join(ROOT, 'pkg/node/index.js'));
      const before = process.memoryUsage().rss;
      const blob = new Blob([readFileSync(file(name))]);
      await assert.rejects(m.analyzeRows(DOC, blob, { rows: { name } }), e => refused(e, kind, message));
      const grew = (process.memoryUsage().rss - before) / 2 ** 20;
      assert.ok(grew < 256, `${name}: the process grew ${grew.toFixed(0)} MiB`);
      assert.equal(m.md5Hex(new Uint8Array([97])), '0cc175b9c0f1b6a831c399e269772661');
    });
  }

  for (const { engine, m, skip } of engines)
    describe(`by path, each engine's own reader (${engine})`, () => {
      /** `name` read by path on one thread and on two: the same error both times. */
      const byPath = async (doc, name, kind, message) => {
        const said = [];
        for (const threads of [1, 2])
          await assert.rejects(m.analyzeRowsParallel(doc, file(name), { threads, rows: { nulls: 'skip' } }), e => {
            said.push(e.message);
            return refused(e, kind, message);
          });
        assert.equal(said[1], said[0], `${name}: one thread and two say the same`);
      };
      for (const [name, kind, message] of cases)
        test(`${name} is refused with kind ${kind}`, { skip }, () => byPath(DOC, name, kind, message));
      for (const [name, message] of found)
        test(`${name} (a panic the fuzzer found) is refused where it is broken`, { skip }, () =>
          byPath(FLIGHTS, name, 'invalid', message),
        );
      test('its options and a path that is no file are refused by name (issue 73)', { skip }, async () => {
        // before: `threads: 'two'` ran on one thread on wasm and was napi's own error, without
        // a kind, on the native engine; `null` and a throwing Proxy were raw exceptions; a
        // directory was Node's EISDIR, without a kind, on wasm
        const boom = () => {
          throw new Error('boom');
        };
        const csv = path.join(ROOT, 'tests/fixtures/rows/flights.csv');
        const named =
          (p, kind = 'illegalArgument') =>
          e =>
            e.kind === kind && e.path === p;
        for (const [opts, where] of [
          [{ threads: 'two' }, 'opts.threads'],
          [{ threads: 0 }, 'opts.threads'],
          [{ threads: 1.5 }, 'opts.threads'],
          [{ chunkFrom: -1 }, 'opts.chunkFrom'],
          [{ chunkFrom: 'x' }, 'opts.chunkFrom'],
          [7, 'opts'],
          [new Proxy({}, { ownKeys: boom }), 'opts'],
          [Object.defineProperty({}, 'rows', { get: boom, enumerable: true }), 'opts'],
        ])
          await assert.rejects(m.analyzeRowsParallel(FLIGHTS, csv, opts), named(where), where);
        await assert.rejects(m.rekeyRows(FLIGHTS, FLIGHTS, csv, { threads: 'two' }), named('opts.threads'));
        // null is no options: the defaults (here the first null tail number stops the reading)
        await assert.rejects(
          m.analyzeRowsParallel(FLIGHTS, csv, null),
          e => e.kind === 'invalid' && /tailnum/.test(e.message),
        );
        for (const where of [path.join(ROOT, 'tests/fixtures/rows'), path.join(ROOT, 'nosuch.csv')])
          await assert.rejects(
            m.analyzeRowsParallel(FLIGHTS, where, { threads: 1 }),
            e => e.kind === 'invalid' && e.message.includes(where),
            where,
          );
      });
      test('the module answers afterwards', { skip }, () => {
        assert.equal(m.md5Hex(new Uint8Array([97])), '0cc175b9c0f1b6a831c399e269772661');
        assert.equal(m.validateDesign(DOC).fields[0].name, 'n');
      });
    });
});
