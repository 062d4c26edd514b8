// The Compare view: 2–4 designs run over one workload (the engine's compareDesigns), each as its
// own region × window heatmap on one colour scale, with its start keys down the side and the
// workload's time below (heat-axes.js, as the main heatmap), their figures side by side with the
// change against the first. Zoom is linked: a drag across any map (or + / − around its keyboard
// cursor) sets one window range for every map, and one reset clears it for all. The picker above chooses up
// to three designs to compare with the one on show (presets, Recent designs: app.js gives the
// choices and turns the chosen values into documents). Split from app.js, which starts the
// comparison and calls renderCompare with the engine's result.
//
// Why time is linked and keys are not: every design runs the first design's workload over the
// same windows, so window i is the same stretch of time and the same records in each map. The
// rows are each design's own regions: the same records land under other keys in another design
// (a salt, a reversed field, another field first), so a key range, or a fraction of the rows,
// of one map names nothing in particular in the other. A diagonal drag therefore zooms that
// map's regions only (and the time of all).

import { readOff } from '../state/io.js';
import { $, bytesText, el, fix, num, state } from '../state/lab-state.js';
import { askMove, setPicks } from '../state/store.js';
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
} from './heat-axes.js';
import { heatZoom } from './heat-zoom.js';
import { columnTotal, drawMatrix, poolMax, sliceCols } from './heatmap.js';
import { copyBlock, metric } from './results.js';

// The comparison on show: the window range every map shows (null: all), each map's row range
// (null: all its regions) and each map's keyboard cursor (its region and window).
const view = { c: null, zoom: null, keys: [], cursor: [], figures: [], measure: null, mats: [] };

/** Design `i`'s region × window matrix in the heatmap's measure (writes, cells kept, bytes). */
function matrixOf(i) {
  if (view.measure !== state.heat.measure) {
    view.measure = state.heat.measure;
    view.mats = view.c.designs.map(d => measured(d.matrix, d.regionKeys, view.measure));
  }
  return view.mats[i];
}
/** What the maps count, in words (the heatmap's measure). */
const noun = () => measureNoun(state.heat.measure);

/** Designs compared with the one on show, at most (the engine takes 2–4 in all). */
const MAX_OTHERS = 3;
/** Start keys on a compared map's axis are elided past this many characters (the maps are narrow). */
const KEY_CHARS = 14;

/** A design's heading: its role to the user and its key (the key tells designs of one name
 * apart), its name below. */
function heading(tag, d, i, attrs) {
  const h = el(tag, undefined, attrs);
  h.append(el('span', view.roles[i], { class: 'cmp-role' }), ': ', el('code', d.key), el('br'));
  h.append(el('span', d.name, { class: 'muted cmp-name' }));
  return h;
}
const VERDICT = { better: 'better', worse: 'worse', same: 'same', changed: '' };
/** The designs' figures side by side, each against the first, as the engine judged the change:
 * better, worse, about the same, or neither way (regions, rows). */
function compareTable(c) {
  const t = el('table', undefined, { class: 'deltas' });
  const hr = el('tr');
  hr.append(el('th', 'figure', { scope: 'col' }), ...c.designs.map((d, i) => heading('th', d, i, { scope: 'col' })));
  t.append(hr);
  // counts as counts; ratios and means to two digits under 10, one above
  const format = v => (v == null ? '–' : Number.isInteger(v) ? num(v) : fix(v, Math.abs(v) < 10 ? 2 : 1));
  for (const f of c.figures) {
    const tr = el('tr');
    tr.append(el('th', f.label, { scope: 'row' }));
    f.values.forEach((v, i) => {
      const td = el('td', format(v));
      const p = f.changePercent[i],
        verdict = f.verdicts[i];
      if (p != null && verdict !== 'same')
        td.append(` (${p > 0 ? '+' : '−'}${fix(Math.abs(p), Math.abs(p) < 10 ? 1 : 0)} %)`);
      if (verdict && VERDICT[verdict]) td.append(' ', el('span', VERDICT[verdict], { class: `verdict ${verdict}` }));
      tr.append(td);
    });
    t.append(tr);
  }
  return t;
}

/** One design's figure: its name, its map (with a brush), the range shown, its figures. */
function figure(d, i) {
  const fig = el('figure', undefined, { 'data-design': d.name });
  const canvas = el('canvas', undefined, {
    class: 'pixel',
    tabindex: '0',
    'data-index': String(i),
    'aria-label': `region by time heatmap of ${d.name}; drag across it to zoom the time of every map (diagonally: this map's regions too); arrow keys move a cursor, + and − zoom the time of every map around it, ] and [ this map's regions, R resets`,
  });
  // 15 px a region: room for each start key on the axis (labels are at least 14 px apart)
  canvas.style.height = `${Math.min(320, Math.max(120, d.matrix.rows * 15))}px`;
  const map = el('div', undefined, { class: 'cmp-map' });
  const brush = el('div', undefined, { class: 'brush', hidden: '' });
  map.append(canvas, brush);
  // start keys down the side, the workload's time below, as on the main heatmap
  const axis = el('div', undefined, { class: 'key-axis', 'aria-hidden': 'true' });
  const ticks = el('div', undefined, { class: 'time-ticks', 'aria-hidden': 'true' });
  const heat = el('div', undefined, { class: 'cmp-heat' });
  heat.append(axis, map, ticks);
  const range = el('p', undefined, { class: 'axis muted cmp-range' });
  const dl = el('dl', undefined, { class: 'metrics' });
  metric(dl, 'activeRegions', 'Active regions per window', fix(d.metrics.meanActiveRegions, 1), `of ${d.regions}.`);
  metric(dl, 'hotspotFactor', 'Hotspot factor', fix(d.metrics.meanHotspotFactor), 'busiest ÷ mean.');
  metric(
    dl,
    'distinctRows',
    'Rows',
    num(d.distinctRows),
    `distinct, from ${num(d.writes)} writes (${d.distinctRowsError ? `estimate, ±${fix(d.distinctRowsError * 100, 2)} %, 99.7 % of estimates` : 'every row counted'}); ${num(d.cells)} cells kept.`,
  );
  const diag = d.diagnosis[0] ?? '';
  fig.append(
    heading('figcaption', d, i),
    heat,
    range,
    dl,
    el('p', diag && `${diag[0].toUpperCase()}${diag.slice(1)}.`, { class: 'muted' }),
  );
  heatZoom(canvas, brush, compareZoom(i));
  return { fig, canvas, brush, range, axis, ticks };
}

/** Design `i`'s matrix as shown: the linked window range, its own row range. */
function shown(i) {
  const m = matrixOf(i);
  const [c0, c1] = view.zoom ?? [0, m.cols];
  const [r0, r1] = view.keys[i] ?? [0, m.rows];
  const cols = sliceCols(m, c0, c1);
  const rows = { rows: r1 - r0, cols: cols.cols, cells: cols.cells.subarray(r0 * cols.cols, r1 * cols.cols) };
  return { m: rows, c0, c1, r0, r1 };
}

/** Every map from the zoom: one colour scale, the busiest shown cell of any design at the top. */
function drawMaps() {
  const c = view.c;
  const parts = c.designs.map((_, i) => shown(i));
  let max = 0;
  for (const { m } of parts) for (const v of m.cells) if (v > max) max = v;
  const dpr = window.devicePixelRatio || 1,
    h = state.heat,
    scale = h.scale;
  // the heatmap's colour settings: its scale, its brightness, or its capacity (absolute mode)
  const absolute = h.mode === 'absolute';
  const opts = {
    scale,
    brightness: h.brightness,
    capacity: absolute ? h.capacity : 0,
    windowSec: c.windowMs / 1000,
  };
  parts.forEach(({ m, c0, c1, r0, r1 }, i) => {
    const { fig, canvas, range, axis, ticks } = view.figures[i];
    const d = c.designs[i];
    const width = canvas.clientWidth,
      height = canvas.clientHeight;
    drawMatrix(canvas, poolMax(m, height > 0 ? height * dpr : m.rows, width > 0 ? width * dpr : m.cols).m, {
      ...opts,
      max,
    });
    renderKeyLabels(axis, {
      rows: m.rows,
      r0,
      height: axis.clientHeight || height,
      label: row => keyLabel(d.regionKeys[row]?.startKey, KEY_CHARS),
    });
    // a tick's label takes 35 to 75 px ("08:30", "09-07 08:30")
    const most = Math.max(2, Math.min(6, Math.floor(width / 60)));
    renderTimeTicks(ticks, c.startTimeMs + c0 * c.windowMs, c.startTimeMs + c1 * c.windowMs, most);
    const all = d.matrix.rows;
    fig.dataset.windows = `${c0}-${c1}`;
    fig.dataset.rows = `${r0}-${r1}`;
    range.textContent =
      `windows ${c0}–${c1 - 1} of ${c.windows}` +
      (r1 - r0 < all ? `; regions ${r0}–${r1 - 1} of ${all}` : `; all ${all} regions`);
  });
  view.scaleName.textContent =
    scale +
    (state.heat.measure !== 'writes' ? `, ${noun()}` : '') +
    (absolute
      ? `, against ${num(h.capacity)} ${noun()}/s`
      : h.brightness
        ? `, brightness ×${fix(2 ** h.brightness, 2)}`
        : '');
  view.scaleMax.textContent = renderScaleLegend(view.scaleCanvas, max, opts, noun());
  view.reset.disabled = !view.zoom && !view.keys.some(Boolean);
}

/** Map `i`'s shown cell (`row`, `col`) in words. */
function cellTip(i, row, col) {
  const c = view.c,
    d = c.designs[i],
    { m, c0, r0 } = shown(i);
  const reg = d.regionKeys[r0 + row];
  return [
    d.name,
    regionText(r0 + row, reg?.startKey, reg?.endKey, reg?.server ?? 0),
    cellText({
      value: m.cells[row * m.cols + col],
      window: c0 + col,
      startTimeMs: c.startTimeMs,
      windowMs: c.windowMs,
      total: columnTotal(matrixOf(i), c0 + col),
      noun: noun(),
    }),
  ].join('\n');
}

/** A comparison on show drawn again (the heatmap's scale changed). */
export function redrawCompare() {
  if (view.c) drawMaps();
}

// ---- zoom -----------------------------------------------------------------------------------
/** Map `i` on heat-zoom.js: the window range is every map's (`view.zoom`), the rows its own. */
function compareZoom(i) {
  return {
    shown() {
      const { c0, c1, r0, r1 } = shown(i),
        m = matrixOf(i);
      return { c0, c1, r0, r1, rows: m.rows, cols: m.cols };
    },
    zoom({ time, keys }) {
      if (time !== undefined) view.zoom = time;
      if (keys !== undefined) view.keys[i] = keys;
      drawMaps();
    },
    reset: resetZoom,
    tip(row, col, x, y) {
      if (row === null) {
        $('tooltip').hidden = true;
        return;
      }
      const { r0, c0 } = shown(i);
      showTooltip($('tooltip'), cellTip(i, row - r0, col - c0), x, y);
    },
    cursor: () => view.cursor[i] ?? null,
    setCursor: cell => {
      view.cursor[i] = cell;
    },
  };
}
/** Every map back to all its windows and regions. */
function resetZoom() {
  view.zoom = null;
  view.keys = view.keys.map(() => null);
  drawMaps();
  $('tooltip').hidden = true;
}

// ---- drawing ----------------------------------------------------------------------------------
/** A comparison the engine could not run (a design of it does not run: a key that reads a field
 * it does not declare, an error in a member): why, in the Compare section, where it was asked
 * for; no plan of a move follows. */
export function compareFailed(e) {
  pressedFor = null;
  askMove(null);
  view.c = null;
  const where = e.path && !String(e.message).includes(e.path) ? ` (at ${e.path})` : '';
  $('compare').replaceChildren(
    el('p', `Not compared: ${e.message}${where}`, {
      class: 'error',
      role: 'alert',
      id: 'compare-error',
    }),
  );
}

/** The button pressed for the comparison under way (Compare, a preset's twin), or null. */
let pressedFor = null;
/** A comparison asked for by pressing `button`: drawn, it takes the keyboard's focus when the
 * focus is still on that button (or fell to <body>), so the keyboard goes on from the result. */
export function comparePressed(button) {
  pressedFor = button;
}

/** The engine's comparison `c`: the maps (their zoom cleared), the figures, the deltas. */
export function renderCompare(c, roles, docs = []) {
  const box = $('compare');
  const a = document.activeElement;
  const take = pressedFor !== null && (a === pressedFor || a === document.body || a === null);
  pressedFor = null;
  view.c = c;
  view.roles = roles;
  view.zoom = null;
  view.keys = c.designs.map(() => null);
  view.cursor = c.designs.map(() => null);
  view.measure = null;
  view.figures = c.designs.map(figure);
  // two maps to a row: with their key axes, three or four in a row would each be too narrow
  box.style.setProperty('--columns', String(Math.min(2, c.designs.length)));
  const reset = el('button', 'Reset zoom', { type: 'button', class: 'inline', id: 'compare-reset' });
  reset.addEventListener('click', resetZoom);
  view.reset = reset;
  const head = el(
    'p',
    `Rows are each design's regions (top = first key, start keys beside them), columns the same ${c.windows} time windows of the first design's workload; one colour scale for all, the heatmap's (`,
    { class: 'muted' },
  );
  view.scaleName = el('span', state.heat.scale, { class: 'cmp-scale-name' });
  // the shared colour scale: nothing to the busiest cell shown on any map
  const legend = el('span', undefined, { class: 'scale-legend', 'aria-hidden': 'true' });
  view.scaleCanvas = el('canvas', undefined, { class: 'pixel cmp-scale' });
  view.scaleMax = el('span', undefined, { class: 'cmp-scale-max' });
  legend.append(el('span', '0'), view.scaleCanvas, view.scaleMax);
  head.append(
    view.scaleName,
    "). Drag across a map to zoom the time of every map, diagonally to zoom that map's regions too; hover for a cell. From the keyboard: arrows move a cursor, + and − zoom time around it, ] and [ that map's regions, R resets. ",
    legend,
    ' ',
    reset,
  );
  box.replaceChildren(head, ...view.figures.map(f => f.fig));
  box.append(compareTable(c));
  // the move to a compared design: its view loaded now, not with the page
  // (planned at once when the advisor's "Move to this design" asked for it)
  const moveTo = state.moveTo;
  askMove(null);
  if (docs.length > 1)
    import('./rekey-view.js').then(m => {
      if (view.c !== c) return;
      const lab = { bytesText, copyBlock, el, fix, num, readOff, rows: state.rows?.args, plan: moveTo };
      box.append(m.rekeyPanel(docs, roles, lab));
    });
  drawMaps();
  if (take) {
    $('compare-h').setAttribute('tabindex', '-1');
    $('compare-h').scrollIntoView({ block: 'start' });
    $('compare-h').focus({ preventScroll: true });
  }
}

// ---- the picker: the designs to compare with the one on show -----------------------------------
// Its choices as app.js gives them: `{ value, label }` for the presets and for Recent designs;
// what it has chosen is `state.picks` (one value per select: #compare-with's, then those added,
// at most MAX_OTHERS), changed by the selects, Add and Remove, and the selects drawn from it.
const choices = { presets: [], recent: [] };
/** The picker's selects: #compare-with, then those added. */
const pickers = () => [...$('compare-pick').querySelectorAll('select')];
/** The values the picker offers. */
const offered = () => [...choices.presets, ...choices.recent].map(o => o.value);

/** The label the picker shows for `value`. */
export const choiceLabel = value =>
  [...choices.presets, ...choices.recent].find(o => o.value === value)?.label ?? value;

/** `sel`'s options from the choices. */
function fillPicker(sel) {
  const group = (label, list) => {
    const g = el('optgroup', undefined, { label });
    g.append(...list.map(o => el('option', o.label, { value: o.value })));
    return g;
  };
  const groups = Map.groupBy(choices.presets, o => o.group ?? 'Presets');
  sel.replaceChildren(
    ...[...groups].map(([label, list]) => group(label, list)),
    ...(choices.recent.length ? [group('Recent designs', choices.recent)] : []),
  );
}

/** The designs the picker offers (`presets`, `recent`: lists of `{ value, label }`; either may
 * be left out to keep what it was); a chosen design no longer offered gives way to the first. */
export function setCompareChoices({ presets, recent }) {
  if (presets) choices.presets = presets;
  if (recent) choices.recent = recent;
  const ok = offered();
  setPicks((state.picks.length ? state.picks : [ok[0]]).map(v => (ok.includes(v) ? v : ok[0])));
  renderPicker();
}

/** The chosen designs' values, in the picker's order. */
export const compareChoices = () => state.picks.filter(Boolean);

/** The selects from `state.picks` (a row with Remove for each after the first); Add is for up
 * to MAX_OTHERS designs; the run button says how many it compares. */
function renderPicker() {
  const picks = state.picks,
    rows = $('compare-pick').querySelectorAll('.cmp-pick');
  for (const row of [...rows].slice(Math.max(0, picks.length - 1))) row.remove();
  for (let i = rows.length; i < picks.length - 1; i++) {
    const label = el('label', 'and ');
    label.append(el('select'));
    const row = el('span', undefined, { class: 'cmp-pick' });
    row.append(label, el('button', 'Remove', { type: 'button', class: 'inline' }));
    $('compare-add').before(row);
  }
  for (const [i, sel] of pickers().entries()) {
    fillPicker(sel);
    sel.value = picks[i];
  }
  const n = picks.length;
  $('compare-add').disabled = n >= MAX_OTHERS;
  $('compare-run').textContent = n > 1 ? `Compare ${n + 1} designs` : 'Compare';
}

/** The picker on `values` (a link's designs to compare with), those it offers, in order: as
 * many selects. Returns the values it took (a Recent design this browser does not have is left
 * out). */
export function setComparePicks(values) {
  const ok = offered();
  const taken = values.filter(v => ok.includes(v)).slice(0, MAX_OTHERS);
  if (taken.length) setPicks(taken);
  else setPicks(state.picks.slice(0, 1));
  renderPicker();
  return taken;
}

/** The picker's listeners: a choice, Add (a design no other select has, focused), Remove. */
function wirePicker() {
  const box = $('compare-pick');
  box.addEventListener('change', e => {
    const i = pickers().indexOf(e.target);
    if (i >= 0) setPicks(state.picks.with(i, e.target.value));
  });
  $('compare-add').addEventListener('click', () => {
    if (state.picks.length >= MAX_OTHERS) return;
    const ok = offered();
    setPicks([...state.picks, ok.find(v => !state.picks.includes(v)) ?? ok[0]]);
    renderPicker();
    pickers().at(-1).focus();
  });
  box.addEventListener('click', e => {
    const row = e.target.closest('.cmp-pick button')?.parentElement;
    if (!row) return;
    setPicks(state.picks.toSpliced([...box.querySelectorAll('.cmp-pick')].indexOf(row) + 1, 1));
    renderPicker();
    $('compare-add').focus();
  });
}

/** The picker's Add (once, from app.js's start-up). */
export function wireCompare() {
  wirePicker();
  renderPicker();
}
