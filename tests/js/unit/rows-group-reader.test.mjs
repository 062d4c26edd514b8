// The reading of a Parquet file's row groups by the library's driver (www/engine/rows.js, the
// page's and the npm package's): consecutive small row groups are read together, one read of up
// to 4 MiB, not one read per column chunk (issue 56: 10^5 row groups of 4 rows took over 300 s
// on the page, each Blob read a round trip to the browser's file reader). No engine is needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupReader } from '../../../www/engine/rows.js';

/** A reader of `size` bytes (byte i is i % 251) counting its reads, handing back one buffer
 * that its next read overwrites, as the CLI's reader does. */
function fakeFile(size) {
  const reads = [];
  let buffer = new Uint8Array(0);
  return {
    reads,
    size,
    async read(start, length) {
      reads.push([start, length]);
      if (buffer.length < length) buffer = new Uint8Array(length);
      for (let i = 0; i < length; i++) buffer[i] = (start + i) % 251;
      return buffer.subarray(0, length);
    },
  };
}

/** Row groups of two column chunks of `chunk` bytes each, a third column (not read) between them. */
const layout = (groups, chunk) =>
  Array.from({ length: groups }, (_, i) => [
    { start: 4 + i * 3 * chunk, length: chunk },
    { start: 4 + i * 3 * chunk + 2 * chunk, length: chunk },
  ]);

const expected = r => Uint8Array.from({ length: r.length }, (_, i) => (r.start + i) % 251);

test('small row groups are read together, each chunk its own bytes', async () => {
  const groups = layout(10000, 100);
  const file = fakeFile(4 + 10000 * 300);
  const chunksOf = groupReader(file, groups);
  for (const [i, ranges] of groups.entries()) {
    const chunks = await chunksOf(i);
    assert.equal(chunks.length, 2);
    for (const [k, r] of ranges.entries()) assert.deepEqual(chunks[k], expected(r), `group ${i} range ${k}`);
  }
  // 3 MB of row groups in reads of at most 4 MiB: one read, not 20,000
  assert.equal(file.reads.length, 1);
});

test('a row group larger than a read is read range by range; a task reads only its groups', async () => {
  const big = layout(3, 3 << 20);
  const file = fakeFile(4 + 3 * 9 * (1 << 20));
  const chunksOf = groupReader(file, big, [1, 2]);
  const chunks = await chunksOf(1);
  assert.deepEqual(chunks[1], expected(big[1][1]));
  assert.deepEqual(
    file.reads,
    big[1].map(r => [r.start, r.length]),
  );
  // chunks handed out earlier keep their bytes after the next read
  const first = chunks[0].slice();
  await chunksOf(2);
  assert.deepEqual(chunks[0], first);
});

test('row groups far apart are not read with the bytes between them', async () => {
  const groups = [[{ start: 4, length: 10 }], [{ start: 1 << 20, length: 10 }]];
  const file = fakeFile((1 << 20) + 100);
  const chunksOf = groupReader(file, groups);
  assert.deepEqual((await chunksOf(0))[0], expected(groups[0][0]));
  assert.deepEqual((await chunksOf(1))[0], expected(groups[1][0]));
  assert.deepEqual(file.reads, [
    [4, 10],
    [1 << 20, 10],
  ]);
});
