// Issue 56, items 2 and 3, through the npm package: a Parquet page of zstd zeros past
// limits::MAX_PARQUET_PAGE_BYTES and Arrow IPC files and streams whose record batch declares a
// body of 2^40 bytes, a negative one or 2^32 + 8 (tests/fixtures/rows/, written by tests/engine/rows_bombs.rs'
// generators) are refused with the engine's error and its kind, before any decompression: no
// trap, no panic, no masked "take ownership" message, and the module answers afterwards.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const DOC = { v: 1, fields: [{ name: 'n', type: 'long' }], key: 'str(n)' };
const fixture = name => readFileSync(path.join(ROOT, 'tests/fixtures/rows', name));

describe('hostile files of rows in the npm package', { skip: NOT_BUILT }, () => {
  const cases = [
    ['bomb-page.parquet', 'limit', /a page of 83108864 bytes uncompressed/],
    ['body-2e40.arrow', 'invalid', /not a readable Arrow IPC file/],
    ['body-negative.arrow', 'invalid', /not a readable Arrow IPC file/],
    ['body-2e40.arrows', 'invalid', /body-2e40\.arrows/],
    // issue 73: 2^32 + 8, read by wasm's 32-bit usize as 8 (a panic in arrow-buffer)
    ['body-4g.arrows', 'invalid', /message 1: a message declares a body of 4294967304 bytes/],
  ];
  for (const [name, kind, message] of cases) {
    test(`${name} is refused with kind ${kind}`, async () => {
      const m = await import(path.join(ROOT, 'pkg/node/index.js'));
      const before = process.memoryUsage().rss;
      const blob = new Blob([fixture(name)]);
      await assert.rejects(m.analyzeRows(DOC, blob, { rows: { name } }), e => {
        assert.equal(e.kind, kind, e.message);
        assert.match(e.message, message);
        assert.doesNotMatch(e.message, /ownership|unreachable|panicked|memory access/);
        return true;
      });
      const grew = (process.memoryUsage().rss - before) / 2 ** 20;
      assert.ok(grew < 256, `${name}: the process grew ${grew.toFixed(0)} MiB`);
      assert.equal(m.md5Hex(new Uint8Array([97])), '0cc175b9c0f1b6a831c399e269772661');
    });
  }
});
