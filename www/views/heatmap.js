// Heatmaps: one canvas pixel per cell (regions × windows), scaled up by CSS with
// `image-rendering: pixelated`; viridis palette (colour-blind safe, perceptually uniform).

// Viridis control points (matplotlib), interpolated into a 256-entry lookup table.
const STOPS = [
  [68, 1, 84],
  [72, 40, 120],
  [62, 74, 137],
  [49, 104, 142],
  [38, 130, 142],
  [31, 158, 137],
  [53, 183, 121],
  [109, 205, 89],
  [180, 222, 44],
  [253, 231, 37],
];
export const PALETTE = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (STOPS.length - 1);
    const a = Math.floor(t),
      b = Math.min(a + 1, STOPS.length - 1),
      f = t - a;
    for (let k = 0; k < 3; k++) lut[i * 3 + k] = STOPS[a][k] + (STOPS[b][k] - STOPS[a][k]) * f;
  }
  return lut;
})();

/** 0..1 intensity of `v` against `max` on a linear or log scale. */
export function level(v, max, scale) {
  if (max <= 0 || v <= 0) return 0;
  return Math.min(1, scale === 'log' ? Math.log1p(v) / Math.log1p(max) : v / max);
}

const LUT32 = (() => {
  const lut = new Uint32Array(256);
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  for (let i = 0; i < 256; i++) {
    const [r, g, b] = [PALETTE[i * 3], PALETTE[i * 3 + 1], PALETTE[i * 3 + 2]];
    lut[i] = le ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
  }
  return lut;
})();

/** A cell with no reading (NaN: the rate is unknown, not 0): mid grey, outside the palette. */
export const NO_READING = (() => {
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const [r, g, b] = [158, 158, 158];
  return le ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
})();

/** Top of the palette in absolute mode is reserved for cells at or over the capacity. */
export const BUDGET_LEVEL = 0.78;

/** Turn a row-major rows×cols matrix into RGBA pixels (a Uint8ClampedArray of rows*cols*4).
 * Relative mode: colour = value against `max / 2^brightness` (log or linear).
 * Absolute mode (`capacity` writes/s per cell and `windowSec`): a cell's rate against the
 * capacity fills the palette up to BUDGET_LEVEL; at or over the budget it takes the top colour,
 * so bright means over budget, not merely busiest. */
export function matrixPixels(m, { scale = 'log', max, brightness = 0, capacity = 0, windowSec = 1, out } = {}) {
  const { cells } = m;
  const n = cells.length;
  const px = out ?? new Uint8ClampedArray(n * 4);
  const p32 = new Uint32Array(px.buffer, px.byteOffset, n);
  let top = max ?? 0;
  if (max === undefined) for (let i = 0; i < n; i++) if (cells[i] > top) top = cells[i];
  const log = scale === 'log';
  // value -> palette index
  let index;
  if (capacity > 0) {
    const capCount = capacity * windowSec; // writes in one window at exactly the capacity
    const k = log ? (255 * BUDGET_LEVEL) / Math.log1p(capCount) : (255 * BUDGET_LEVEL) / capCount;
    index = v => (v >= capCount ? 255 : v <= 0 ? 0 : Math.min(254, Math.round((log ? Math.log1p(v) : v) * k)));
  } else {
    const eff = top / 2 ** brightness;
    if (eff <= 0) {
      for (let i = 0; i < n; i++) p32[i] = Number.isNaN(cells[i]) ? NO_READING : cells[i] === -Infinity ? 0 : LUT32[0];
      return { px, top };
    }
    const k = log ? 255 / Math.log1p(eff) : 255 / eff;
    index = v => (v <= 0 ? 0 : Math.min(255, Math.round((log ? Math.log1p(v) : v) * k)));
  }
  // Cells are write counts (whole numbers): colour every count up to 65,535 once, look the rest up.
  const T = Math.min(65536, Math.floor(Math.max(0, top)) + 1);
  const table = new Uint32Array(T);
  for (let v = 0; v < T; v++) table[v] = LUT32[index(v)];
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    // NaN: no reading (grey); -Infinity: no such cell (a region not alive then), transparent
    if (Number.isNaN(v)) p32[i] = NO_READING;
    else if (v === -Infinity) p32[i] = 0;
    else p32[i] = v >= 0 && v < T && v === Math.floor(v) ? table[v] : LUT32[index(v)];
  }
  return { px, top };
}

/** Draw a matrix into `canvas`, one pixel per cell (CSS scales it up, pixelated). Empty cells
 * are the palette's darkest colour; `max` lets several heatmaps share one scale. Returns the max. */
export function drawMatrix(canvas, m, opts = {}) {
  canvas.width = Math.max(m.cols, 1);
  canvas.height = Math.max(m.rows, 1);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(canvas.width, canvas.height);
  const { top } = matrixPixels(m, { ...opts, out: img.data });
  ctx.putImageData(img, 0, 0);
  return top;
}

/** Columns [c0, c1) of a matrix. */
export function sliceCols(m, c0, c1) {
  if (c0 <= 0 && c1 >= m.cols) return m;
  const cols = c1 - c0,
    cells = new Float64Array(m.rows * cols);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < cols; c++) cells[r * cols + c] = m.cells[r * m.cols + c0 + c];
  return { rows: m.rows, cols, cells };
}

/** Rows grouped: `groupOf[row]` -> group index; returns a groups×cols matrix of sums. */
export function groupRows(m, groupOf, groups) {
  const cells = new Float64Array(groups * m.cols);
  for (let r = 0; r < m.rows; r++) {
    const g = groupOf[r] ?? 0;
    for (let c = 0; c < m.cols; c++) cells[g * m.cols + c] += m.cells[r * m.cols + c];
  }
  return { rows: groups, cols: m.cols, cells };
}

/** The matrix reduced to at most `maxRows` × `maxCols` cells for drawing: each drawn cell is
 * the busiest of a block of `fr` rows × `fc` columns. A canvas with more rows than the screen
 * has pixel rows is scaled down by dropping rows, and a single hot region among hundreds
 * could vanish; the maximum keeps it visible. Returns `{ m, fr, fc }` (`m` itself when it fits). */
export function poolMax(m, maxRows, maxCols) {
  const fr = Math.max(1, Math.ceil(m.rows / Math.max(1, Math.floor(maxRows))));
  const fc = Math.max(1, Math.ceil(m.cols / Math.max(1, Math.floor(maxCols))));
  if (fr === 1 && fc === 1) return { m, fr, fc };
  const rows = Math.ceil(m.rows / fr),
    cols = Math.ceil(m.cols / fc);
  const cells = new Float64Array(rows * cols);
  for (let r = 0; r < m.rows; r++) {
    const out = Math.floor(r / fr) * cols;
    for (let c = 0; c < m.cols; c++) {
      const v = m.cells[r * m.cols + c],
        i = out + Math.floor(c / fc);
      if (v > cells[i]) cells[i] = v;
    }
  }
  return { m: { rows, cols, cells }, fr, fc };
}

/** `values` in blocks of `f`, each block's maximum (the bars beside a pooled heatmap). */
export function poolValues(values, f) {
  if (f <= 1) return values;
  const out = [];
  for (let i = 0; i < values.length; i += f) out.push(Math.max(...values.slice(i, i + f)));
  return out;
}

/** Totals along both axes: per-row (region) and per-column (window) sums. */
export function totals(m) {
  const rowSum = new Float64Array(m.rows),
    colSum = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r++)
    for (let c = 0; c < m.cols; c++) {
      const v = m.cells[r * m.cols + c];
      rowSum[r] += v;
      colSum[c] += v;
    }
  return { rowSum, colSum };
}

/** Column `col`'s sum over every row of the matrix `m` (a window's writes in all regions). */
export function columnTotal(m, col) {
  let t = 0;
  for (let r = 0; r < m.rows; r++) t += m.cells[r * m.cols + col];
  return t;
}

/** Bars into a canvas: `vertical` = one bar per row growing rightwards (one pixel row each). */
export function drawBars(
  canvas,
  values,
  { vertical = false, length = 60, color = '#3b528b', limit = 0, limitColor = '#d55e00' } = {},
) {
  const n = Math.max(values.length, 1);
  canvas.width = vertical ? length : n;
  canvas.height = vertical ? n : length;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = color;
  let max = limit;
  for (const v of values) if (v > max) max = v;
  values.forEach((v, i) => {
    const l = max > 0 ? Math.max(v > 0 ? 1 : 0, Math.round((v / max) * length)) : 0;
    ctx.fillStyle = limit > 0 && v > limit ? limitColor : color;
    if (vertical) ctx.fillRect(0, i, l, 1);
    else ctx.fillRect(i, length - l, 1, l);
  });
  if (limit > 0 && max > 0) {
    // the budget as a line across the bars
    const at = Math.round((limit / max) * length);
    ctx.fillStyle = limitColor;
    if (vertical) ctx.fillRect(Math.min(at, length - 1), 0, 1, n);
    else ctx.fillRect(0, Math.max(0, length - at), n, 1);
  }
}
