// The lab's heatmap view (regions or servers × time windows, of `state.shown`: a preview or the
// final report, or one of its Phoenix indexes' own: the Table picker): the canvas and its bars (drawn by heatmap.js), the split marks, the per-region
// bars, the legend and the controls; and its interaction: hover and keyboard tooltips, brushing
// a window range (and a key range) to zoom. Split from app.js, which calls renderHeatmap when a result arrives.

import { heatHeight, whenFrameResized } from '../embed.js';
import { $, el, fix, num, pct, sentence, state, when } from '../state/lab-state.js';
import { setHeatCursor, setView, showTable } from '../state/store.js';
import { redrawCompare } from './compare-view.js';
import {
  cellText,
  keyLabel,
  measured,
  measureNoun,
  regionText,
  renderKeyLabels,
  renderScaleLegend,
  renderTimeTicks,
  showTooltip,
  spanText,
} from './heat-axes.js';
import { heatZoom } from './heat-zoom.js';
import { columnTotal, drawBars, drawMatrix, groupRows, poolMax, poolValues, sliceCols, totals } from './heatmap.js';

/** The matrix shown: regions or servers as rows, the zoomed window range as columns. */
export function shownMatrix() {
  const r = state.shown,
    h = state.heat;
  let m = measured(r.matrix, r.regions, h.measure);
  if (h.view === 'servers') {
    const n = Math.max(1, r.servers.length);
    m = groupRows(
      m,
      r.regions.map(g => g.server ?? 0),
      n,
    );
  }
  const [c0, c1] = h.zoom ?? [0, m.cols];
  // the key axis zoomed too: a range of rows (regions, or servers in that view)
  const [r0, r1] = h.keys && h.keys[1] <= m.rows ? h.keys : [0, m.rows];
  return { m: sliceRows(sliceCols(m, c0, c1), r0, r1), c0, c1, r0, r1, rows: m.rows, cols: m.cols, all: m };
}

/** Rows [r0, r1) of a matrix. */
function sliceRows(m, r0, r1) {
  if (r0 <= 0 && r1 >= m.rows) return m;
  return { rows: r1 - r0, cols: m.cols, cells: m.cells.subarray(r0 * m.cols, r1 * m.cols) };
}

export function renderHeatmap() {
  renderTablePick();
  const r = state.shown,
    h = state.heat;
  const { m, c0, c1, r0 } = shownMatrix();
  const windowSec = r.windowMs / 1000;
  const absolute = h.mode === 'absolute';
  const opts = { scale: state.heat.scale, brightness: h.brightness, capacity: absolute ? h.capacity : 0, windowSec };
  // (embedded in a frame of a fixed height: what the frame leaves for the map)
  const height = heatHeight(Math.min(480, Math.max(120, m.rows * 12)), $('heatmap'));
  for (const id of ['heatmap', 'row-totals']) $(id).style.height = `${height}px`;
  // No more cells than the screen has pixels: each drawn cell is the busiest of its block.
  const dpr = window.devicePixelRatio || 1,
    width = $('heatmap').clientWidth;
  const { m: drawn, fr, fc } = poolMax(m, height * dpr, width > 0 ? width * dpr : m.cols);
  const top = drawMatrix($('heatmap'), drawn, opts);
  const { rowSum, colSum } = totals(m);
  drawBars($('row-totals'), poolValues(Array.from(rowSum), fr), {
    vertical: true,
    limit: absolute ? h.capacity * windowSec * m.cols : 0,
  });
  drawBars($('col-totals'), poolValues(Array.from(colSum), fc));
  const pooled =
    fr > 1 || fc > 1
      ? ` Each pixel shows the busiest of ${fr > 1 ? `${fr} ${h.view === 'servers' ? 'servers' : 'regions'}` : ''}${fr > 1 && fc > 1 ? ' × ' : ''}${fc > 1 ? `${fc} windows` : ''} (more cells than the screen has pixels); hover for each one.`
      : '';
  const rows = h.view === 'servers' ? 'servers' : 'regions';
  const noun = measureNoun(h.measure);
  const weighted =
    h.measure === 'writes'
      ? ''
      : ` ${noun[0].toUpperCase()}${noun.slice(1)} per window: each region's writes in the window × its ${noun} per write over the run.`;
  $('heat-legend').textContent = absolute
    ? `Rows are ${rows}; colour = ${noun} per second in a window against ${h.capacity} ${noun}/s; the brightest yellow means at or over that budget (busiest now: ${fix(top / windowSec, 1)} ${noun}/s).`
    : `Rows are ${rows} (top = first key), columns are windows of ${spanText(windowSec)}; brighter = more ${noun}, ${state.heat.scale} scale, busiest cell ${num(Math.round(top))} ${noun}${h.brightness ? `, brightness ×${fix(2 ** h.brightness, 2)}` : ''}. Bars: totals per row (right) and per window (below).${r.splits.length ? ` ▼ marks the windows with region splits (${r.splits.length}); a white line is the new boundary from then on.` : ''} Drag across the map to zoom time, diagonally to zoom keys too; on the focused map, arrows move a cursor, + and − zoom time around it, ] and [ its keys; R resets.`;
  $('heat-legend').textContent += weighted;
  $('heat-legend').textContent += pooled;
  const pending = $('heat-pending');
  pending.hidden = !state.pending;
  if (state.pending) {
    // columns after the last one with a write: the run has not reached them yet
    let reached = 0;
    for (let i = 0; i < m.cells.length; i++) if (m.cells[i] > 0) reached = Math.max(reached, (i % m.cols) + 1);
    pending.style.left = `${(reached / m.cols) * 100}%`;
    pending.hidden = reached >= m.cols;
    const { done, total } = state.pending;
    $('heat-legend').textContent =
      `Preview of the first ${num(done)} of ${num(total)} records (hatched: not reached yet); the run goes on, the map fills in, and metrics, keys and splits follow when it ends. ${$('heat-legend').textContent}`;
  }
  $('time-axis').textContent =
    `windows ${c0}–${c1 - 1}: ${when(r.startTimeMs + c0 * r.windowMs)} → ${when(r.startTimeMs + c1 * r.windowMs)}`;
  renderKeyAxis(r, m, height, r0);
  renderTimeTicks($('time-ticks'), r.startTimeMs + c0 * r.windowMs, r.startTimeMs + c1 * r.windowMs);
  renderScale(top, opts);
  $('zoom-reset').disabled = !h.zoom && !h.keys;
  renderSplitMarks(r, m, c0, c1, r0);
  renderRegionBars();
  renderSummary(m, rowSum, colSum, c0, r0, noun);
  if ($('heat-table-box').open) renderTable();
}

/** The map in words (the canvas's description): its size, the engine's verdict on the whole run
 * (the diagnosis's first finding, the one headline every view shows), and where the part shown
 * is busiest, as figures, never a verdict of its own. */
function renderSummary(m, rowSum, colSum, c0, r0, noun) {
  const r = state.shown,
    servers = state.heat.view === 'servers';
  const rows = servers ? 'servers' : 'regions';
  const all = rowSum.reduce((a, b) => a + b, 0);
  const verdict = r.diagnosis?.[0] ? `${sentence(r.diagnosis[0])} ` : '';
  if (!all) {
    $('heat-summary').textContent = `${m.rows} ${rows} × ${m.cols} windows, no ${noun} in them. ${verdict}`.trim();
    return;
  }
  const top = a => a.reduce((best, v, i) => (v > a[best] ? i : best), 0);
  const row = top(rowSum),
    col = top(colSum);
  const name = servers
    ? `server ${r0 + row}`
    : `region ${r0 + row} (from ${r.regions[r0 + row]?.startKey || 'the first key'})`;
  $('heat-summary').textContent =
    `${m.rows} ${rows} × ${m.cols} windows, ${num(Math.round(all))} ${noun}. ${verdict}` +
    `Of those shown, the busiest ${servers ? 'server' : 'region'} is ${name}, with ${fix((100 * rowSum[row]) / all, 1)} %, ` +
    `and the busiest window begins ${when(r.startTimeMs + (c0 + col) * r.windowMs)}, with ${fix((100 * colSum[col]) / all, 1)} %.`;
}
/** The map as a table (imported when first opened). */
async function renderTable() {
  const { renderHeatTable } = await import('./heat-table.js');
  renderHeatTable($('heat-table'), shownMatrix(), measureNoun(state.heat.measure));
}

// ---- axes and the colour scale (Key Visualizer's conventions, heat-axes.js) ------------------
/** The y axis: each row's start key, or the server's name. */
function renderKeyAxis(r, m, height, r0) {
  const box = $('key-axis');
  box.style.height = `${height}px`;
  const servers = state.heat.view === 'servers';
  const label = i => (servers ? `server ${r.servers[i]?.name ?? i}` : keyLabel(r.regions[i]?.startKey));
  renderKeyLabels(box, { rows: m.rows, r0, height, label });
}

/** The colour scale's legend of the map as drawn. */
function renderScale(top, opts) {
  $('heat-scale-max').textContent = renderScaleLegend($('heat-scale'), top, opts, measureNoun(state.heat.measure));
}

/** The row (a final region, by its start key) and the window of each split event. */
function splitPlaces(r) {
  const rowOf = new Map(r.regions.map((g, i) => [g.startKeyHex, i]));
  return r.splits.map(sp => ({
    sp,
    row: rowOf.get(sp.splitKeyHex) ?? -1,
    col: Math.floor((sp.timeMs - r.startTimeMs) / r.windowMs),
  }));
}

const MAX_SPLIT_LINES = 2000;
/** Split events: ▼ above the window they happened in (a count when several did), and on the map
 * the new region boundary from that window on (regions view) or a dot on the server's row. */
function renderSplitMarks(r, m, c0, c1, r0) {
  const top = $('split-marks'),
    over = $('split-overlay');
  top.replaceChildren();
  over.replaceChildren();
  const places = splitPlaces(r).filter(p => p.col >= c0 && p.col < c1);
  const perCol = new Map();
  for (const p of places) perCol.set(p.col, [...(perCol.get(p.col) ?? []), p]);
  for (const [col, ps] of perCol) {
    const mk = el('span', ps.length > 1 ? `▼${ps.length}` : '▼', {
      class: 'mark',
      'data-window': col,
      title: ps.map(({ sp }) => `split at ${when(sp.timeMs)} (window ${col}): ${sp.splitKey}`).join('\n'),
    });
    mk.style.left = `${((col - c0 + 0.5) / m.cols) * 100}%`;
    top.append(mk);
  }
  const servers = state.heat.view === 'servers';
  for (const { sp, row, col } of places.slice(0, MAX_SPLIT_LINES)) {
    if (row < 0) continue;
    const shownRow = (servers ? (r.regions[row].server ?? 0) : row) - r0;
    if (shownRow < 0 || shownRow >= m.rows + (servers ? 0 : 1)) continue;
    const title = `region ${row} split off at ${when(sp.timeMs)} (window ${col}): new boundary ${sp.splitKey}`;
    if (servers) {
      const srv = r.regions[row].server ?? 0;
      const dot = el('span', undefined, { class: 'split-dot', 'data-region': row, 'data-window': col, title });
      dot.style.left = `${((col - c0 + 0.5) / m.cols) * 100}%`;
      dot.style.top = `${((srv - r0 + 0.5) / m.rows) * 100}%`;
      over.append(dot);
    } else {
      // the boundary between rows row-1 and row exists from the split's window on
      const line = el('span', undefined, { class: 'split-line', 'data-region': row, 'data-window': col, title });
      line.style.left = `${((col - c0) / m.cols) * 100}%`;
      line.style.top = `${((row - r0) / m.rows) * 100}%`;
      over.append(line);
    }
  }
}

function renderRegionBars() {
  const r = state.shown,
    h = state.heat;
  const [c0, c1] = h.zoom ?? [0, r.matrix.cols];
  const vals = r.regions.map((_, i) => {
    let t = 0;
    for (let c = c0; c < c1; c++) t += r.matrix.cells[i * r.matrix.cols + c];
    return t;
  });
  const budget = h.mode === 'absolute' ? h.capacity * (r.windowMs / 1000) * (c1 - c0) : 0;
  drawBars($('region-bars'), vals, { length: 120, limit: budget });
  const busiest = vals.reduce((b, v, i) => (v > vals[b] ? i : b), 0);
  const total = vals.reduce((a, b) => a + b, 0);
  $('region-bars-axis').textContent =
    `${vals.length} regions, first key at left; busiest: region ${busiest} with ${num(vals[busiest] ?? 0)} writes (${total ? pct(vals[busiest] / total) : '0 %'})` +
    (budget ? `; ${vals.filter(v => v > budget).length} over the capacity (orange)` : '');
}

// ---- interaction ---------------------------------------------------------------------------
/** Shown cell (`shownRow`, `col`) in words, in the page's tooltip at (`x`, `y`). */
function showCell(shownRow, col, x, y) {
  const r = state.shown,
    h = state.heat,
    { m, c0, r0, all } = shownMatrix();
  const t = $('tooltip');
  const v = m.cells[shownRow * m.cols + col];
  const row = r0 + shownRow;
  const abs = c0 + col;
  let head;
  // a server's name when the design places regions on named servers (a table's, from its list_regions)
  const server = i => r.servers[i]?.name ?? i;
  if (h.view === 'servers') head = `server ${server(row)}: ${r.regions.filter(g => g.server === row).length} regions`;
  else {
    const reg = r.regions[row];
    head = regionText(row, reg.startKey, reg.endKey, server(reg.server ?? 0));
  }
  let text = `${head}\n${cellText({
    value: v,
    noun: measureNoun(h.measure),
    window: abs,
    startTimeMs: r.startTimeMs,
    windowMs: r.windowMs,
    total: columnTotal(all, abs),
    capacity: h.mode === 'absolute' ? h.capacity : 0,
  })}`;
  if (h.view !== 'servers') {
    const reg = r.regions[row];
    for (const p of splitPlaces(r)) {
      if (p.col === abs && (p.sp.splitKeyHex === reg.startKeyHex || p.sp.splitKeyHex === reg.endKeyHex)) {
        text += `\nsplit in this window, at ${when(p.sp.timeMs)}: new boundary ${p.sp.splitKey} (${p.sp.splitKeyHex === reg.startKeyHex ? "this region's start" : "this region's end"})`;
      }
    }
    if (reg.createdAtMs != null) {
      const born = Math.floor((reg.createdAtMs - r.startTimeMs) / r.windowMs);
      text +=
        abs < born
          ? `\nbefore window ${born} this key range was part of a larger region: this count is the engine's estimate of that region's writes in this range`
          : `\nregion created by a split at ${when(reg.createdAtMs)} (window ${born})`;
    }
  }
  showTooltip(t, text, x, y);
}

/** What the lab's map shows, for heat-zoom.js: its ranges of all its rows and windows. */
function shownRanges() {
  // no map drawn yet: nothing shown, nothing to zoom
  if (!state.shown) return { c0: 0, c1: 0, r0: 0, r1: 0, rows: 0, cols: 0 };
  const { c0, c1, r0, r1, rows, cols } = shownMatrix();
  return { c0, c1, r0, r1, rows, cols };
}
function setZoom(zoom) {
  setView(zoom ? { zoom } : { zoom, keys: null });
  renderHeatmap();
}
/** The lab's map on heat-zoom.js: its ranges are `state.heat`'s `zoom` (time) and `keys`. */
const LAB_ZOOM = {
  shown: shownRanges,
  zoom({ time, keys }) {
    setView({ ...(time !== undefined ? { zoom: time } : {}), ...(keys !== undefined ? { keys } : {}) });
    renderHeatmap();
  },
  reset() {
    if (state.shown) setZoom(null);
  },
  tip(row, col, x, y) {
    if (row === null || !state.shown) {
      $('tooltip').hidden = true;
      return;
    }
    const { r0, c0 } = shownMatrix();
    showCell(row - r0, col - c0, x, y);
  },
  cursor: () => state.heat.cursor,
  setCursor: setHeatCursor,
};

/** The heatmap controls from `state.heat` (after a load from the URL, or an input). */
export function renderHeatControls() {
  const h = state.heat;
  $('scale').value = h.scale;
  $('heat-view').value = h.view;
  $('heat-measure').value = h.measure;
  $('heat-mode').value = h.mode;
  if (document.activeElement !== $('brightness')) $('brightness').value = String(h.brightness);
  if (document.activeElement !== $('capacity')) $('capacity').value = String(h.capacity);
  $('brightness-out').textContent = `×${fix(2 ** h.brightness, 2)}`;
  // a screen reader says the factor, not the slider's exponent ("0")
  $('brightness').setAttribute('aria-valuetext', brightnessText(h.brightness));
  $('capacity-box').hidden = h.mode !== 'absolute';
  $('brightness').disabled = h.mode === 'absolute';
}

/** The table the map draws: the data table or one of its Phoenix global indexes (each has
 * regions of its own; a local index's rows are in the data table's). Shown only when the run
 * analyzed indexes. */
let pickOf = null;
function renderTablePick() {
  if (pickOf !== state.report) {
    pickOf = state.report;
    const indexes = (state.report?.indexes ?? []).filter(x => x.report);
    $('heat-of-box').hidden = !indexes.length;
    const data = state.doc?.phoenix?.table ?? 'the design';
    $('heat-of').replaceChildren(
      ...(indexes.length
        ? [
            el('option', `${data} (data table, ${num(state.report.regions.length)} regions)`, { value: '' }),
            ...indexes.map(x =>
              el('option', `${x.name} (${x.kind} index, ${num(x.regionsOfItsOwn)} regions)`, { value: x.name }),
            ),
          ]
        : []),
    );
  }
  $('heat-of').value = state.heat.table ?? '';
}

/** The brightness slider's value in words: its factor on the colour scale (2^value). */
const brightnessText = b =>
  b === 0 ? '×1, as drawn' : `×${fix(2 ** b, 2)}, ${b > 0 ? 'brighter' : 'darker'} than drawn`;

/** The heatmap's mouse, keyboard and control listeners (from app.js's wireLab). */
export function wireHeatmap() {
  $('heat-table-box').addEventListener('toggle', e => {
    if (e.target.open && state.shown) renderTable();
  });
  heatZoom($('heatmap'), $('brush'), LAB_ZOOM);
  // the control changed, into the state (the others are drawn from it)
  const heatInput = ({ target: { id, value: v } }) => {
    setView(
      {
        // rows are regions or servers: other indices
        'heat-view': { view: v, keys: null },
        'heat-measure': { measure: v },
        'heat-mode': { mode: v },
        brightness: { brightness: Number(v) || 0 },
        capacity: { capacity: Math.max(0.001, Number(v) || 100) },
      }[id],
    );
    renderHeatControls();
    if (state.shown) renderHeatmap();
    redrawCompare(); // the compared maps take the same colour settings
  };
  for (const id of ['heat-view', 'heat-measure', 'heat-mode', 'brightness', 'capacity'])
    $(id).addEventListener('input', heatInput);
  $('zoom-reset').addEventListener('click', () => setZoom(null));
  $('heat-of').addEventListener('input', ({ target: { value } }) => {
    showTable(value || null);
    setView({}); // the link says which table
    renderHeatControls();
    if (state.shown) renderHeatmap();
  });
  whenFrameResized(() => {
    if (state.shown) renderHeatmap();
  });
}
