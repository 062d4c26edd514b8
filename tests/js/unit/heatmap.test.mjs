// The heatmap's drawing arithmetic, without a browser: pooling keeps hot cells visible.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixPixels, poolMax, poolValues } from '../../../www/views/heatmap.js';

const matrix = (rows, cols, f) => {
  const cells = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells[r * cols + c] = f(r, c);
  return { rows, cols, cells };
};

test('a matrix that fits is drawn as it is', () => {
  const m = matrix(64, 256, (r, c) => r + c);
  const p = poolMax(m, 480, 1000);
  assert.equal(p.m, m);
  assert.deepEqual([p.fr, p.fc], [1, 1]);
});

test('one hot region among 1,000 stays visible in 480 pixel rows', () => {
  // 1,000 regions, one of them (row 777) takes every write of one window; scaling a
  // 1,000-row canvas into 480 rows would drop more than half the rows, maybe that one.
  const m = matrix(1000, 64, (r, c) => (r === 777 && c === 5 ? 9000 : r % 7));
  const { m: d, fr, fc } = poolMax(m, 480, 64);
  assert.equal(fr, 3); // ceil(1000 / 480)
  assert.equal(fc, 1);
  assert.equal(d.rows, Math.ceil(1000 / 3));
  assert.ok(d.rows <= 480);
  assert.equal(d.cols, 64);
  assert.equal(d.cells[Math.floor(777 / 3) * 64 + 5], 9000);
  // every drawn cell is the maximum of its block, computed here independently
  for (let g = 0; g < d.rows; g++) {
    for (let c = 0; c < 64; c++) {
      let want = 0;
      for (let r = g * 3; r < Math.min(1000, g * 3 + 3); r++) want = Math.max(want, m.cells[r * 64 + c]);
      assert.equal(d.cells[g * 64 + c], want, `group ${g} window ${c}`);
    }
  }
  // and it gets the brightest colour
  const { px } = matrixPixels(d, { scale: 'linear' });
  const at = (Math.floor(777 / 3) * 64 + 5) * 4;
  const lastColour = matrixPixels({ rows: 1, cols: 1, cells: new Float64Array([1]) }, { scale: 'linear' }).px;
  assert.deepEqual([...px.slice(at, at + 3)], [...lastColour.slice(0, 3)]);
});

test('columns pool too, and blocks at the edge are partial', () => {
  const m = matrix(2, 1024, (r, c) => (c === 1023 ? 5 : c === 0 && r === 1 ? 2 : 0));
  const { m: d, fr, fc } = poolMax(m, 10, 300);
  assert.deepEqual([fr, fc], [1, 4]);
  assert.equal(d.cols, 256);
  assert.equal(d.cells[255], 5);
  assert.equal(d.cells[256 + 0], 2);
  assert.equal(
    d.cells.reduce((a, b) => a + b, 0),
    5 + 5 + 2,
  );
});

test('bar values pool by maximum', () => {
  assert.deepEqual(poolValues([1, 9, 3, 4, 0, 2, 7], 3), [9, 4, 7]);
  const same = [1, 2, 3];
  assert.equal(poolValues(same, 1), same);
});
