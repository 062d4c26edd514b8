// The live table's two maps (observe-view.js's panel): the measured regions (or servers) ×
// intervals of the snapshots read, and beside it what the design predicts on the same rows, as
// the engine aligned it (observed.predictedMap), on one colour scale; each zoomed and read as the
// lab's heatmap is (heat-zoom.js: the rows shared by both maps, each map's time its own), the
// measured map with a glyph on each cell where a region split, merged, moved, reopened or went.
// Given the lab's helpers (`$`, `el`, `heat`) and the view's state by observe-view.js, as that
// module is given them by io-view.js: it imports none of the lab's modules.

let $, el, heat, view;
/** The maps over the lab's helpers and the observe view's state (what was read, how shown). */
export function observeMaps(lab, state) {
  ({ $, el, heat } = lab);
  view = state;
  return { heatmaps, drawMaps };
}

export const clock = ms => new Date(ms).toISOString().slice(11, 19);
export const rate = x => (x === null || x === undefined ? '–' : x.toFixed(2));

/** What a cell shows: per region (`of`) and per server (`server`, from the interval's sums). */
export const MEASURES = {
  writes: { label: 'writes/s', of: r => r.writesPerSec, server: v => v.writesPerSec },
  reads: { label: 'reads/s', of: r => r.readsPerSec, server: v => v.readsPerSec },
  size: { label: 'size, MB', of: r => (r.sizeBytes == null ? null : r.sizeBytes / 2 ** 20), server: null },
};
const COUNTED = { reopened: ' (since a reopen)', split: ' (since the split)', merged: ' (since the merge)', gap: '' };

/** No zoom: all the rows (`keys`, shared by both maps), each map's time, no keyboard cursors. */
export function unzoomed() {
  return { keys: null, time: [null, null], cursor: [] };
}

/** A region's row label, the engine's (observed.labels: its start key through the design's key,
 * else its text). */
export function label(i) {
  return view.got.observed.labels[i];
}

/** The heatmap's matrix in the chosen rows and measure: `{ rows, cols, cells, names, cell }`
 * (`cell(r, c)`: the interval's entry for that row, for the tooltip). A cell with no reading (a
 * gap, a server with no dump) is NaN, drawn grey: unknown, not 0; a region not alive in an
 * interval (before its split, after it is gone) is -Infinity, drawn as no cell at all. */
function matrix() {
  const { series: s, observed: o } = view.got;
  const m = MEASURES[view.measure];
  const cols = s.intervals.length;
  if (view.rows === 'servers' && m.server) {
    const names = [...new Set(s.intervals.flatMap(iv => iv.servers.map(v => v.server)))].sort();
    const cells = new Float64Array(names.length * cols);
    const at = s.intervals.map(iv => new Map(iv.servers.map(v => [v.server, v])));
    for (const [r, n] of names.entries())
      for (const [c, a] of at.entries()) {
        const v = a.get(n);
        cells[r * cols + c] = !v ? -Infinity : v.serverMissing || iv(c).requestsPerSec === null ? NaN : m.server(v);
      }
    return { rows: names.length, cols, cells, names, cell: (r, c) => at[c].get(names[r]), server: true };
  }
  const rows = o.rows;
  const cells = new Float64Array(rows.length * cols);
  const at = s.intervals.map(iv => new Map(iv.regions.map(x => [x.region, x])));
  for (const [r, i] of rows.entries())
    for (const [c, a] of at.entries()) {
      const x = a.get(i);
      cells[r * cols + c] = !x ? -Infinity : (m.of(x) ?? NaN);
    }
  return { rows: rows.length, cols, cells, names: rows.map(label), cell: (r, c) => at[c].get(rows[r]) };
}

/** Interval `c` of the series. */
const iv = c => view.got.series.intervals[c];

/** The events of the series by interval and region: `key(c, region)` -> events. */
function eventsAt() {
  const by = new Map();
  for (const e of view.got.series.events) {
    if (e.interval === null) continue;
    for (const r of e.regions) {
      const k = `${e.interval}/${r}`;
      by.set(k, [...(by.get(k) ?? []), e]);
    }
  }
  return by;
}

/** A glyph per kind of event, drawn on its cell of the measured map (its words are in the
 * events list and the cell's tooltip). */
export const MARKS = { split: '◆', merge: '◇', move: '→', reopen: '↻', gap: '', gone: '×' };

/** The design's prediction on the same rows, intervals and unit as `matrix()` (`m`), as the
 * engine aligned it (observed.predictedMap: each region's share of the design's writes times the
 * table's measured rate in each interval): `{ rows, cols, cells, names }`, or `{ why }`. */
function predictedMatrix(m) {
  const { series: s, observed: o } = view.got;
  const p = o.predictedMap;
  if (view.measure === 'size')
    return { why: 'The design predicts writes: choose writes/s (or reads/s) to see its map.' };
  if (!p)
    return {
      why: s.layout
        ? `No predicted map: ${o.notes.find(n => n.startsWith('the design')) ?? 'the design’s regions are not these regions.'}`
        : 'No prediction: the snapshots give no key ranges to run the design on.',
    };
  if (view.measure === 'reads')
    return { why: 'The design predicts writes: choose writes/s to see its map beside the measured one.' };
  const cols = m.cols;
  const cells = new Float64Array(m.rows * cols);
  const fill = (r, values) => {
    for (let c = 0; c < cols; c++) {
      const v = values(c);
      cells[r * cols + c] = v === undefined ? -Infinity : v === null ? NaN : v;
    }
  };
  if (m.server) {
    const by = new Map(p.servers.map(v => [v.server, v.rates]));
    for (const [r, n] of m.names.entries()) fill(r, c => (by.has(n) ? by.get(n)[c] : undefined));
  } else {
    const alive = (r, c) => m.cell(r, c) !== undefined;
    for (let r = 0; r < m.rows; r++) fill(r, c => (alive(r, c) ? p.regions[r * cols + c] : undefined));
  }
  return { rows: m.rows, cols, cells, names: m.names, measure: p.measure };
}

/** The largest finite cell of the matrices: one colour scale for both maps. */
function sharedMax(...ms) {
  let top = 0;
  for (const x of ms) for (const v of x.cells ?? []) if (v > top) top = v;
  return top;
}

/** Rows [r0, r1) and columns [c0, c1) of a matrix. */
function part(m, [r0, r1], [c0, c1]) {
  const rows = heat.sliceCols(m, c0, c1);
  return { rows: r1 - r0, cols: rows.cols, cells: rows.cells.subarray(r0 * rows.cols, r1 * rows.cols) };
}

/** The live heatmaps side by side (one above the other on a narrow screen): measured now, and
 * what the design predicts on the same rows. Zoomed as the lab's map is: a drag across a map
 * zooms its time (diagonally: the rows of both), and on a focused map arrows move a cursor, + and
 * − zoom its time around it, ] and [ the rows of both, R resets. */
function heatmaps() {
  const box = el('div', undefined, { id: 'observe-maps', class: 'observe-maps' });
  const reset = el('button', 'Reset zoom', { id: 'observe-zoom-reset', type: 'button' });
  reset.addEventListener('click', () => {
    view.keys = null;
    view.time = [null, null];
    drawMaps();
  });
  const out = el('div');
  const bar = el('div', undefined, { class: 'runbar observe-zoombar' });
  bar.append(
    reset,
    el(
      'span',
      'Drag across a map to zoom its time, diagonally the rows of both; on a focused map, arrows move a cursor, + and − zoom its time, ] and [ the rows; R resets.',
      { class: 'muted' },
    ),
  );
  out.append(box, bar);
  return out;
}

/** Both maps from the view's zoom into #observe-maps; `focus`: the map to focus after (0, 1). */
function drawMaps(focus) {
  const box = $('observe-maps');
  if (!box || !view.got) return;
  const m = matrix();
  const pm = predictedMatrix(m);
  if (view.keys && view.keys[1] > m.rows) view.keys = null;
  const keys = view.keys ?? [0, m.rows];
  const noun = MEASURES[view.measure].label;
  const top = sharedMax(m, pm);
  const events = eventsAt();
  const eventLines = (r, c) =>
    m.server ? [] : (events.get(`${c}/${view.got.observed.rows[r]}`) ?? []).map(e => `${e.kind}: ${e.text}`);
  const where = (r, c) => {
    const x = m.cell(r, c);
    if (m.server) return `${m.names[r]}${x?.serverMissing ? ' (no dump: its regions kept, rates unknown)' : ''}`;
    const on = x?.server ? `${x.server}${x.serverMissing ? ' (no dump: kept where it was last read)' : ''}` : '?';
    return `${m.names[r]} [${x?.startKey || '(first)'}, ${x?.endKey || '(last)'}) on ${on}`;
  };
  const valueText = v =>
    v === -Infinity ? 'no such region then' : Number.isNaN(v) ? 'no reading (unknown, not 0)' : null;
  const figs = [
    mapFigure(0, {
      m,
      keys,
      top,
      marks: !m.server,
      title: `Measured now: ${noun}`,
      what: `measured ${noun} per ${m.server ? 'server' : 'region'} (rows) and interval (columns)`,
      from: c => iv(c)?.fromMs ?? 0,
      to: c => iv(c)?.toMs ?? 0,
      legend: words =>
        ` 0 to ${words}${pm.why ? '' : ', the scale both maps share'}. Grey: no reading (a gap, a server with no dump): unknown, not 0; blank: no such region then (before its split, after it is gone). Marks: ◆ split, ◇ merge, → move, ↻ reopen, × gone (listed below).`,
      noun,
      tip: (r, c) => {
        const x = m.cell(r, c);
        const v = m.cells[r * m.cols + c];
        const value = valueText(v) ?? `${rate(v)} ${noun}`;
        return [
          where(r, c),
          `${clock(iv(c).fromMs)} → ${clock(iv(c).toMs)}: ${value}${x && !m.server ? (COUNTED[x.counted] ?? '') : ''}`,
          ...eventLines(r, c),
        ].join('\n');
      },
    }),
  ];
  if (pm.why) figs.push(el('p', pm.why, { id: 'observe-predicted-why', class: 'muted' }));
  else {
    const unit = `${pm.measure}/s`;
    figs.push(
      mapFigure(1, {
        m: pm,
        keys,
        top,
        title: `This design predicts: ${unit}`,
        what: `${unit} this design predicts per ${m.server ? 'server' : 'region'} (rows) and interval (columns), on the measured map's clock`,
        from: c => iv(c)?.fromMs ?? 0,
        to: c => iv(c)?.toMs ?? 0,
        legend: words =>
          ` 0 to ${words}, the measured map’s scale: each region’s share of this design’s writes on the table’s regions, times the table’s measured ${unit} in the interval. Same rows, clock and unit as the measured map: a cell brighter there than here is hotter than the design predicts.`,
        noun: unit,
        tip: (r, c) => {
          const v = pm.cells[r * pm.cols + c];
          const measured = m.cells[r * m.cols + c];
          return [
            where(r, c),
            `${clock(iv(c).fromMs)} → ${clock(iv(c).toMs)}: ${valueText(v) ?? `${rate(v)} ${unit} predicted`}${Number.isFinite(measured) && Number.isFinite(v) ? `, ${rate(measured)} measured` : ''}`,
          ].join('\n');
        },
      }),
    );
  }
  box.replaceChildren(...figs);
  $('observe-zoom-reset').disabled = !view.keys && !view.time[0] && !view.time[1];
  if (focus !== undefined) $(focus ? 'observe-predicted' : 'observe-map')?.focus();
}

/** One map (`k`: 0 measured, 1 predicted) of `spec.m`'s rows `spec.keys` and its zoomed time. */
function mapFigure(k, { m, keys, top: max, marks, title, what, from, to, legend, noun, tip }) {
  const [r0, r1] = keys;
  const [c0, c1] = view.time[k] ?? [0, m.cols];
  const shown = part(m, keys, [c0, c1]);
  const fig = el('figure', undefined, { class: 'observe-fig' });
  const wrap = el('div', undefined, { class: 'observe-heat' });
  const axis = el('div', undefined, { class: 'observe-keys', 'aria-hidden': 'true' });
  const main = el('div', undefined, { class: 'observe-main' });
  const canvas = el('canvas', undefined, {
    id: k ? 'observe-predicted' : 'observe-map',
    class: 'pixel',
    role: 'img',
    tabindex: '0',
    'aria-label': `${what}; drag across it to zoom its time (diagonally: the rows of both maps); arrow keys move a cursor, + and − zoom its time around it, ] and [ the rows of both maps, R resets`,
  });
  const brush = el('div', undefined, { class: 'brush', hidden: '' });
  main.append(canvas, brush);
  const ticks = el('div', undefined, { class: 'observe-ticks', 'aria-hidden': 'true' });
  const height = Math.max(120, Math.min(520, shown.rows * 22));
  main.style.height = `${height}px`;
  // the key column as wide as the longest label (monospace, about 6.7 px a character)
  const chars = Math.max(6, ...m.names.map(n => Math.min(30, n.length)));
  wrap.style.gridTemplateColumns = `${Math.ceil(chars * 6.7) + 4}px 1fr`;
  wrap.append(axis, main, el('div'), ticks);
  const top = heat.drawMatrix(canvas, shown, { scale: 'linear', max });
  if (marks) main.append(markLayer(shown, r0, c0));
  requestAnimationFrame(() => {
    heat.renderKeyLabels(axis, { rows: shown.rows, r0, height, label: r => heat.elide(m.names[r], 30) });
    // about a tick per 60 px (three at least): a narrow map's times do not run into each other
    heat.renderTimeTicks(ticks, from(c0), to(c1 - 1), Math.max(3, Math.floor(main.clientWidth / 60)));
  });
  const scale = el('canvas', undefined, { class: 'pixel observe-scale', role: 'img', 'aria-label': 'colour scale' });
  const words = heat.renderScaleLegend(scale, top, { scale: 'linear', windowSec: 1 }, noun);
  const caption = el('p', undefined, { class: 'muted observe-legend' });
  caption.append(scale, legend(words));
  fig.append(el('figcaption', title, { class: 'observe-title' }), wrap, caption);
  heat.heatZoom(canvas, brush, {
    shown: () => ({ r0, r1, c0, c1, rows: m.rows, cols: m.cols }),
    // the time is this map's, the rows both maps'
    zoom({ time, keys: rows }) {
      if (time !== undefined) view.time[k] = time;
      if (rows !== undefined) view.keys = rows;
      drawMaps(k);
    },
    reset() {
      view.keys = null;
      view.time[k] = null;
      drawMaps(k);
    },
    tip(row, col, x, y) {
      if (row === null) tooltip().hidden = true;
      else heat.showTooltip(tooltip(), tip(row, col), x, y);
    },
    cursor: () => view.cursor[k] ?? null,
    setCursor: cell => {
      view.cursor[k] = cell;
    },
    canvas: () => $(k ? 'observe-predicted' : 'observe-map'),
  });
  return fig;
}

/** The measured map's event marks over its shown part (rows from `r0`, columns from `c0`): a
 * glyph on each cell where a region split, merged, moved, reopened or went. */
function markLayer(shown, r0, c0) {
  const layer = el('div', undefined, { class: 'observe-marks', 'aria-hidden': 'true' });
  const rowOf = new Map(view.got.observed.rows.map((region, row) => [region, row]));
  for (const e of view.got.series.events) {
    const glyph = MARKS[e.kind];
    if (!glyph || e.interval === null) continue;
    const col = e.interval - c0;
    if (col < 0 || col >= shown.cols) continue;
    for (const region of e.regions) {
      const row = (rowOf.get(region) ?? -1) - r0;
      if (row < 0 || row >= shown.rows) continue;
      const mark = el('span', glyph, { class: `observe-mark observe-mark-${e.kind}` });
      mark.style.left = `${((col + 0.5) / shown.cols) * 100}%`;
      mark.style.top = `${((row + 0.5) / shown.rows) * 100}%`;
      layer.append(mark);
    }
  }
  return layer;
}

/** The panel's one tooltip. */
export const tooltip = () => $('observe-tip');
