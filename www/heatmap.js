// Heatmaps: one canvas pixel per cell (regions × windows), scaled up by CSS with
// `image-rendering: pixelated`; viridis palette (colour-blind safe, perceptually uniform).

// Viridis control points (matplotlib), interpolated into a 256-entry lookup table.
const STOPS = [[68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142],
  [31, 158, 137], [53, 183, 121], [109, 205, 89], [180, 222, 44], [253, 231, 37]];
export const PALETTE = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (STOPS.length - 1);
    const a = Math.floor(t), b = Math.min(a + 1, STOPS.length - 1), f = t - a;
    for (let k = 0; k < 3; k++) lut[i * 3 + k] = STOPS[a][k] + (STOPS[b][k] - STOPS[a][k]) * f;
  }
  return lut;
})();

/** 0..1 intensity of `v` against `max` on a linear or log scale. */
export function level(v, max, scale) {
  if (max <= 0 || v <= 0) return 0;
  return scale === 'log' ? Math.log1p(v) / Math.log1p(max) : v / max;
}

/** Draw a row-major rows×cols matrix into `canvas`, one pixel per cell. Empty cells are the
 * palette's darkest colour; `max` lets several heatmaps share one scale. */
export function drawMatrix(canvas, m, { scale = 'log', max } = {}) {
  const { rows, cols, cells } = m;
  canvas.width = Math.max(cols, 1);
  canvas.height = Math.max(rows, 1);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(canvas.width, canvas.height);
  let top = max ?? 0;
  if (max === undefined) for (let i = 0; i < cells.length; i++) if (cells[i] > top) top = cells[i];
  const px = img.data;
  for (let i = 0; i < cells.length; i++) {
    const p = Math.round(level(cells[i], top, scale) * 255) * 3;
    px[i * 4] = PALETTE[p]; px[i * 4 + 1] = PALETTE[p + 1]; px[i * 4 + 2] = PALETTE[p + 2]; px[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return top;
}

/** Totals along both axes: per-row (region) and per-column (window) sums. */
export function totals(m) {
  const rowSum = new Float64Array(m.rows), colSum = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) {
    const v = m.cells[r * m.cols + c];
    rowSum[r] += v; colSum[c] += v;
  }
  return { rowSum, colSum };
}

/** Bars into a canvas: `vertical` = one bar per row growing rightwards (one pixel row each). */
export function drawBars(canvas, values, { vertical = false, length = 60, color = '#3b528b' } = {}) {
  const n = Math.max(values.length, 1);
  canvas.width = vertical ? length : n;
  canvas.height = vertical ? n : length;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = color;
  let max = 0;
  for (const v of values) if (v > max) max = v;
  values.forEach((v, i) => {
    const l = max > 0 ? Math.max(v > 0 ? 1 : 0, Math.round((v / max) * length)) : 0;
    if (vertical) ctx.fillRect(0, i, l, 1); else ctx.fillRect(i, length - l, 1, l);
  });
}
