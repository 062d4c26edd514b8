// The heatmaps' axes, colour legend and tooltip text in Key Visualizer's conventions, shared by
// the main heatmap (heatmap-view.js) and the compared maps (compare-view.js): region start keys
// down the side (toStringBinary, as the engine writes them, elided in the middle), ticks at round
// times of the workload's clock below, the palette from nothing to the top of the scale, and what
// a hovered cell says (its region and key range, its window and its writes); and the keys that
// zoom a map around its keyboard cursor.

import { el, fix, num, pct, when } from '../state/lab-state.js';
import { drawMatrix } from './heatmap.js';

/** `s` shortened in the middle to at most `max` characters (key prefixes and suffixes both
 * tell keys apart). */
export const elide = (s, max = 22) =>
  s.length <= max ? s : `${s.slice(0, Math.ceil(max / 2) - 1)}…${s.slice(-Math.floor(max / 2))}`;

/** A start key as an axis shows it: `(first)` for the empty key, elided past `max` characters. */
export const keyLabel = (startKey, max) => elide(startKey || '(first)', max);

/** The y axis into `box`: the label of each shown row (`label(row)`, rows `r0` to `r0 + rows`),
 * as many as fit one per 14 px of `height`, evenly spread. */
export function renderKeyLabels(box, { rows, r0, height, label }) {
  const step = Math.max(1, Math.ceil(rows / Math.max(1, Math.floor(height / 14))));
  const labels = [];
  for (let i = 0; i < rows; i += step) {
    const t = el('span', label(r0 + i), { class: 'klabel', 'data-row': String(r0 + i) });
    t.style.top = `${((i + 0.5) / rows) * 100}%`;
    labels.push(t);
  }
  box.replaceChildren(...labels);
}

const SECOND = 1000,
  MINUTE = 60 * SECOND,
  HOUR = 60 * MINUTE,
  DAY = 24 * HOUR;
const STEPS = [1, 5, 10, 30]
  .map(x => x * SECOND)
  .concat(
    [1, 5, 10, 30].map(x => x * MINUTE),
    [1, 3, 6, 12].map(x => x * HOUR),
    [1, 7].map(x => x * DAY),
  );
/** The x axis into `box`: ticks at round times of the workload's clock (UTC) from `t0` to `t1`
 * (ms since the epoch), at most `most` of them (fewer on a narrow map). */
export function renderTimeTicks(box, t0, t1, most = 6) {
  const span = t1 - t0;
  const ticks = span > 0 ? (fixedTicks(t0, t1, most) ?? calendarTicks(t0, t1, most)) : [];
  box.replaceChildren(
    ...ticks.map(([t, text]) => {
      const tick = el('span', text, { class: 'tick', 'data-time': String(t) });
      tick.style.left = `${((t - t0) / span) * 100}%`;
      return tick;
    }),
  );
}

/** Ticks `[time, label]` at multiples of one of STEPS (a second to a week), or null when the span
 * needs more than `most` of the longest. */
function fixedTicks(t0, t1, most) {
  const span = t1 - t0;
  const step = STEPS.find(s => span / s <= most);
  if (step === undefined) return null;
  const iso = t => new Date(t).toISOString();
  const text = t =>
    step >= DAY
      ? iso(t).slice(0, 10)
      : span >= DAY
        ? `${iso(t).slice(5, 10)} ${iso(t).slice(11, 16)}`
        : iso(t).slice(11, step < MINUTE ? 19 : 16);
  const ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push([t, text(t)]);
  return ticks;
}

/** Ticks `[time, label]` of a span of months or years (rows over a year or a decade): on the
 * first of a month every 1, 3 or 6 months (labelled 2013-04), else on 1 January every 1, 2, 5,
 * 10, … years (labelled 2014). */
function calendarTicks(t0, t1, most) {
  const span = t1 - t0;
  const MONTH = 30.44 * DAY;
  const months =
    [1, 3, 6].find(m => span / (m * MONTH) <= most) ??
    12 * ([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find(y => span / (y * 12 * MONTH) <= most) ?? 1000);
  const start = new Date(t0);
  const ticks = [];
  // months since year 0, from the first whole step at or after t0's month
  for (let m = Math.ceil((start.getUTCFullYear() * 12 + start.getUTCMonth()) / months) * months; ; m += months) {
    const t = Date.UTC(Math.floor(m / 12), m % 12, 1);
    if (t > t1) break;
    if (t >= t0) ticks.push([t, months % 12 ? new Date(t).toISOString().slice(0, 7) : String(Math.floor(m / 12))]);
  }
  return ticks;
}

/** The colour scale's legend: the palette in `canvas` from nothing to the top of the scale as
 * drawn (`top`, the busiest cell shown; `opts` as for drawMatrix, with `windowSec`), and its top
 * in words; returns those words. In absolute mode the scale runs to 1.25 × the capacity. */
export function renderScaleLegend(canvas, top, opts, noun = 'writes') {
  const n = 64,
    brightness = opts.brightness ?? 0,
    absolute = opts.capacity > 0;
  const max = absolute ? opts.capacity * opts.windowSec * 1.25 : top / 2 ** brightness;
  const cells = Float64Array.from({ length: n }, (_, i) => (i / (n - 1)) * max);
  drawMatrix(canvas, { rows: 1, cols: n, cells }, { ...opts, max: absolute ? undefined : max, brightness: 0 });
  return absolute
    ? `over ${num(opts.capacity)} ${noun}/s`
    : `${num(Math.round(max))} ${noun}${opts.scale === 'log' ? ' (log)' : ''}`;
}

/** What a map counts: the engine's writes per region and window, or those writes weighted by
 * each region's cells kept (or bytes) per write over the run. */
export const MEASURES = {
  writes: { noun: 'writes', weight: null },
  cells: { noun: 'cells kept', weight: g => g.cells },
  bytes: { noun: 'bytes', weight: g => g.bytes },
};

/** What a map in `measure` counts, in words. */
export const measureNoun = measure => MEASURES[measure]?.noun ?? 'writes';

/** A region × window `matrix` in the chosen measure, each row weighted by its region's (in
 * `regions`: `writes`, `cells`, `bytes`). */
export function measured(matrix, regions, measure) {
  const weight = MEASURES[measure]?.weight;
  if (!weight) return matrix;
  const { rows, cols } = matrix;
  const cells = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const g = regions[i];
    const f = g?.writes ? weight(g) / g.writes : 0;
    for (let c = 0; c < cols; c++) cells[i * cols + c] = matrix.cells[i * cols + c] * f;
  }
  return { rows, cols, cells };
}

/** A region as a tooltip names it: its index, key range (toStringBinary) and server. */
export const regionText = (row, startKey, endKey, server) =>
  `region ${row} [${startKey || '(first)'}, ${endKey || '(last)'}) on server ${server}`;

/** A window's length as a reader takes it in: seconds under two minutes, then minutes, hours,
 * days (a file of rows over ten years has windows of 57.1 days, not 4929863 s). */
export function spanText(sec) {
  if (sec < 120) return `${fix(sec, sec < 10 ? 1 : 0)} s`;
  if (sec < 7200) return `${fix(sec / 60, 1)} min`;
  if (sec < 172800) return `${fix(sec / 3600, 1)} h`;
  return `${fix(sec / 86400, 1)} days`;
}

/** A cell's count as a tooltip says it: `value` in window `window` of a clock starting at
 * `startTimeMs` with windows of `windowMs`, its rate, its share of the window's `total` (every
 * row's), and against `capacity` when there is one. */
export function cellText({ value, noun = 'writes', window, startTimeMs, windowMs, total = 0, capacity = 0 }) {
  const rate = value / (windowMs / 1000);
  return (
    `${num(Math.round(value))} ${noun} in window ${window} (${fix(rate, 1)} ${noun}/s` +
    (total > 0 ? `, ${pct(value / total)} of the window's` : '') +
    (capacity > 0 ? `, ${pct(rate / capacity)} of capacity)` : ')') +
    `\n${when(startTimeMs + window * windowMs)} + ${spanText(windowMs / 1000)}`
  );
}

/** The page's tooltip (`box`) with `text`, beside the point (`x`, `y`, page coordinates). */
export function showTooltip(box, text, x, y) {
  box.textContent = text;
  box.hidden = false;
  box.style.left = `${x + 12}px`;
  box.style.top = `${y + 12}px`;
}

/** The page point (for showTooltip) at the middle of cell (`row`, `col`) of a map of `rows` ×
 * `cols` cells drawn over `canvas`: where a keyboard cursor's tooltip goes. */
export function cellPoint(canvas, row, col, rows, cols) {
  const box = canvas.getBoundingClientRect();
  return [
    box.left + window.scrollX + ((col + 0.5) / cols) * box.width,
    box.top + window.scrollY + ((row + 0.5) / rows) * box.height,
  ];
}

/** Keys that zoom a focused map around its keyboard cursor: + and − its time (windows), ] and [
 * its keys (rows); `[axis, in]`. */
export const ZOOM_KEYS = Object.freeze({
  '+': ['time', true],
  '=': ['time', true],
  '-': ['time', false],
  ']': ['keys', true],
  '[': ['keys', false],
});
/** The arrows' steps of a keyboard cursor, `[rows, columns]`. */
export const CURSOR_STEPS = Object.freeze({
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
});

/** A shown range `[s0, s1)` of `n` halved (zoom in) or doubled (out) around index `at`, kept
 * inside `[0, n)`; null when that is all of them. */
export function zoomedRange([s0, s1], n, at, zoomIn) {
  const w = zoomIn ? Math.max(1, Math.ceil((s1 - s0) / 2)) : Math.min(n, (s1 - s0) * 2);
  const a = Math.min(n - w, Math.max(0, Math.floor(at + 0.5 - w / 2)));
  return a === 0 && w === n ? null : [a, a + w];
}
