// A live table on the page: snapshots of what HBase prints (RegionServer /jmx dumps, list_regions,
// status 'detailed', a scan of hbase:meta for the key ranges) opened or dropped as files or a
// folder, read in a worker on the engine's rows build (engine/observe-calls.js; nothing is sent
// anywhere), and drawn: the regions × intervals heatmap (writes/s, reads/s or size; regions or
// servers), rows labelled by their start keys read through the current design's key, the
// busiest regions of each interval, and beside them the design's predicted shares on the same
// regions and the engine's diagnosis (againstDesign). What `rowkey-lab observe DIR design`
// prints, from the same engine calls.
// Loaded (with its CSS) when the toolbar's "Live table…" is first used: never part of the first
// load. Like rows-view.js, a module of its own in the built page: it imports none of the lab's
// modules and gets the lab's helpers and the heatmap's drawing (heatmap.js, heat-axes.js) from
// io-view.js. Text reaches the DOM through textContent (el) only.

let $, el, readOff, state, heat;
/** This view over the lab's helpers: `{ showObserve, openSnapshots }`. */
export function observeView(lab) {
  ({ $, el, readOff, state, heat } = lab);
  return { showObserve, openSnapshots };
}

const clock = ms => new Date(ms).toISOString().slice(11, 19);
const when = ms => new Date(ms).toISOString().replace('.000Z', 'Z');
const pct = x => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)} %`);
const rate = x => (x === null || x === undefined ? '–' : x.toFixed(2));

/** What a cell shows: per region (`of`) and per server (`server`, from the interval's sums). */
const MEASURES = {
  writes: { label: 'writes/s', of: r => r.writesPerSec, server: v => v.writesPerSec },
  reads: { label: 'reads/s', of: r => r.readsPerSec, server: v => v.readsPerSec },
  size: { label: 'size, MB', of: r => (r.sizeBytes == null ? null : r.sizeBytes / 2 ** 20), server: null },
};
const COUNTED = { reopened: ' (since a reopen)', split: ' (since the split)', merged: ' (since the merge)', gap: '' };

/** The view's own state: what was read, and how it is shown. */
const view = { got: null, names: [], measure: 'writes', rows: 'regions', reading: null, ...unzoomed() };
/** No zoom: all the rows (`keys`, shared by both maps), each map's time, no keyboard cursors. */
function unzoomed() {
  return { keys: null, time: [null, null], cursor: [] };
}
/** A drag across a map: where it began, its map (`k`) and what its end does. */
let drag = null;

// ---- the panel ----------------------------------------------------------------------------
let drawn = false;
function drawPanel() {
  if (drawn) return;
  drawn = true;
  document.head.append(
    el('link', undefined, { rel: 'stylesheet', href: new URL('./observe-view.css', import.meta.url).href }),
  );
  const files = el('input', undefined, { id: 'observe-files', type: 'file', multiple: '' });
  const folder = el('input', undefined, { id: 'observe-folder', type: 'file', webkitdirectory: '' });
  for (const input of [files, folder])
    input.addEventListener('change', () => {
      const picked = [...input.files];
      input.value = '';
      if (picked.length) openSnapshots(picked);
    });
  const openFiles = el('label', 'Open snapshot files ', { class: 'filebtn' });
  openFiles.append(files);
  const openFolder = el('label', 'Open a folder ', { class: 'filebtn' });
  openFolder.append(folder);
  const close = el('button', 'Close', { id: 'observe-close', type: 'button' });
  close.addEventListener('click', () => {
    view.reading?.cancel();
    view.got = null;
    $('observe-box').hidden = true;
  });
  const bar = el('div', undefined, { class: 'runbar' });
  bar.append(openFiles, openFolder, close);
  const box = el('section', undefined, { id: 'observe-box', 'aria-labelledby': 'observe-h', hidden: '' });
  $('diagnosis').before(box);
  box.append(
    el('h3', 'A live table', { id: 'observe-h' }),
    el(
      'p',
      'Open or drop snapshots of a table taken a minute or so apart: RegionServer /jmx dumps (what `rowkey-lab watch` writes), list_regions or status \u2018detailed\u2019 output, and a scan of hbase:meta for the key ranges. Each region’s rates per interval are drawn, its start key read through this design’s key, beside the share this design predicts on the same regions. The files are read in this browser and never leave it.',
      { class: 'muted' },
    ),
    bar,
    el('p', undefined, { id: 'observe-status', class: 'status', role: 'status' }),
    el('pre', undefined, { id: 'observe-error', class: 'error', role: 'alert', hidden: '' }),
    el('div', undefined, { id: 'observe-result', hidden: '' }),
  );
  // a drag let go outside its map zooms nothing
  window.addEventListener('mouseup', () => {
    if (!drag) return;
    drag = null;
    drawMaps();
  });
  // Files dropped on the panel are snapshots (the page elsewhere takes a design or rows).
  box.addEventListener('dragover', e => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  });
  box.addEventListener('drop', async e => {
    if (!e.dataTransfer?.files.length) return;
    e.preventDefault();
    openSnapshots(await droppedFiles(e.dataTransfer));
  });
}

/** The files of a drop, a dropped folder's files (its entries, read the way the browser gives
 * them) included. */
async function droppedFiles(dt) {
  const entries = [...dt.items].map(i => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some(e => e.isDirectory)) return [...dt.files];
  const out = [];
  const walk = async entry => {
    if (entry.isFile) out.push(await new Promise((ok, no) => entry.file(ok, no)));
    else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, no) => reader.readEntries(ok, no));
        if (!batch.length) break;
        for (const e of batch) await walk(e);
      }
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

/** The panel shown, with nothing open yet. */
export function showObserve() {
  drawPanel();
  $('observe-box').hidden = false;
  $('observe-box').scrollIntoView({ block: 'nearest' });
  $('observe-files').focus();
}

/** Snapshots opened: read in a worker in a folder's order (by name, hidden files skipped, as
 * `rowkey-lab observe DIR` reads them), set beside the current design. */
export async function openSnapshots(picked) {
  showObserve();
  const files = picked
    .filter(f => !f.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  view.reading?.cancel();
  $('observe-error').hidden = true;
  $('observe-status').textContent = `Reading ${files.length} snapshot files…`;
  const read = readOff('observeSeries', { files, text: JSON.stringify(state.doc) });
  view.reading = read;
  try {
    view.got = await read;
  } catch (e) {
    if (e.name === 'AbortError') return;
    $('observe-status').textContent = '';
    $('observe-error').textContent = `Not read: ${e.message}`;
    $('observe-error').hidden = false;
    return;
  } finally {
    if (view.reading === read) view.reading = null;
  }
  view.names = files.map(f => f.name);
  Object.assign(view, unzoomed());
  const s = view.got.series;
  $('observe-status').textContent =
    `Table ${s.table}: ${s.snapshots.length} snapshots from ${when(s.snapshots[0].timeMs)} to ${when(s.snapshots.at(-1).timeMs)}, ${files.length} files, ${s.regions.length} regions.`;
  render();
}

// ---- what is drawn ------------------------------------------------------------------------
/** A region's row label: its start key through the design's key, else its text. */
function label(i) {
  const { series: s, observed: o } = view.got;
  const b = o.starts[i];
  if (b) return b.label;
  const k = s.regions[i].startKey;
  return k === null ? `${s.regions[i].encoded.slice(0, 8)}…` : k || '(first)';
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
const MARKS = { split: '◆', merge: '◇', move: '→', reopen: '↻', gap: '', gone: '×' };

function render() {
  const box = $('observe-result');
  box.hidden = false;
  const controls = el('fieldset', undefined, { class: 'runbar heatbar', 'aria-label': 'what the live heatmap shows' });
  const pick = (id, text, value, options, set) => {
    const sel = el('select', undefined, { id });
    for (const [v, t] of options) sel.append(el('option', t, { value: v }));
    sel.value = value;
    sel.addEventListener('change', () => {
      set(sel.value);
      render();
      $(id).focus();
    });
    const l = el('label', `${text} `);
    l.append(sel);
    return l;
  };
  controls.append(
    pick(
      'observe-rows',
      'Rows',
      view.rows,
      [
        ['regions', 'regions'],
        ['servers', 'servers'],
      ],
      v => Object.assign(view, { rows: v }, unzoomed()),
    ),
    pick(
      'observe-measure',
      'Show',
      view.measure,
      Object.entries(MEASURES).map(([k, m]) => [k, m.label]),
      v => (view.measure = v),
    ),
  );
  box.replaceChildren(
    controls,
    heatmaps(),
    ...eventsList(),
    el('h4', 'Busiest regions of each interval'),
    topsTable(),
    ...againstParts(),
    ...notes(),
    el('div', undefined, { id: 'observe-tip', class: 'tooltip', hidden: '' }),
  );
  drawMaps();
}

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
  // the cell under the mouse, or the keyboard's cursor, in shown cells
  const cellAt = e => {
    const b = canvas.getBoundingClientRect();
    const row = Math.floor(((e.clientY - b.top) / b.height) * shown.rows);
    const col = Math.floor(((e.clientX - b.left) / b.width) * shown.cols);
    return {
      row: Math.min(shown.rows - 1, Math.max(0, row)),
      col: Math.min(shown.cols - 1, Math.max(0, col)),
      inside: row >= 0 && row < shown.rows && col >= 0 && col < shown.cols,
    };
  };
  const tipAt = (row, col, x, y) => heat.showTooltip(tooltip(), tip(r0 + row, c0 + col), x, y);
  canvas.addEventListener('mousemove', e => {
    const at = cellAt(e);
    if (drag?.k === k) {
      const a = Math.min(drag.col, at.col);
      const b = Math.max(drag.col, at.col);
      const ra = Math.min(drag.row, at.row);
      const rb = Math.max(drag.row, at.row);
      brush.hidden = false;
      brush.style.left = `${(a / shown.cols) * 100}%`;
      brush.style.width = `${((b - a + 1) / shown.cols) * 100}%`;
      brush.style.top = rb > ra ? `${(ra / shown.rows) * 100}%` : '0';
      brush.style.height = rb > ra ? `${((rb - ra + 1) / shown.rows) * 100}%` : '100%';
    }
    if (at.inside) tipAt(at.row, at.col, e.pageX, e.pageY);
    else tooltip().hidden = true;
  });
  canvas.addEventListener('mouseleave', () => {
    if (!drag) tooltip().hidden = true;
  });
  canvas.addEventListener('blur', () => (tooltip().hidden = true));
  canvas.addEventListener('mousedown', e => {
    if (e.button !== 0) return;
    e.preventDefault();
    drag = { k, ...cellAt(e), end: at => zoomTo(k, at, drag, { r0, c0 }) };
  });
  canvas.addEventListener('mouseup', e => drag?.k === k && drag.end(cellAt(e)));
  canvas.addEventListener('keydown', e => {
    if (e.key === 'r' || e.key === 'R' || e.key === 'Backspace') {
      e.preventDefault();
      view.keys = null;
      view.time[k] = null;
      drawMaps(k);
      return;
    }
    const cur = view.cursor[k] ?? [r0, c0];
    const inside = ([row, col], [a0, a1], [b0, b1]) => [
      Math.min(a1 - 1, Math.max(a0, row)),
      Math.min(b1 - 1, Math.max(b0, col)),
    ];
    const [row, col] = inside(cur, [r0, r1], [c0, c1]);
    const zoom = heat.ZOOM_KEYS[e.key];
    const step = heat.CURSOR_STEPS[e.key];
    if (!zoom && !step) return;
    e.preventDefault();
    if (zoom) {
      // the cursor stays on its cell as the ranges change around it
      if (zoom[0] === 'time') view.time[k] = heat.zoomedRange([c0, c1], m.cols, col, zoom[1]);
      else view.keys = heat.zoomedRange([r0, r1], m.rows, row, zoom[1]);
      view.cursor[k] = [row, col];
      drawMaps(k);
      $(k ? 'observe-predicted' : 'observe-map').dispatchEvent(new Event('cursor'));
      return;
    }
    view.cursor[k] = inside([row + step[0], col + step[1]], [r0, r1], [c0, c1]);
    canvas.dispatchEvent(new Event('cursor'));
  });
  // the cursor's tooltip, at its cell
  canvas.addEventListener('cursor', () => {
    const [row, col] = view.cursor[k] ?? [r0, c0];
    if (row < r0 || row >= r1 || col < c0 || col >= c1) return;
    tipAt(row - r0, col - c0, ...heat.cellPoint(canvas, row - r0, col - c0, shown.rows, shown.cols));
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

/** A drag (`from`, on map `k`, whose shown part began at row `r0`, column `c0`) ended at `at`:
 * its columns are the map's time from now, two rows or more the rows of both maps. */
function zoomTo(k, at, from, { r0, c0 }) {
  drag = null;
  const [a, b] = [Math.min(from.col, at.col), Math.max(from.col, at.col)];
  const [ra, rb] = [Math.min(from.row, at.row), Math.max(from.row, at.row)];
  if (b > a) view.time[k] = [c0 + a, c0 + b + 1];
  if (rb > ra) view.keys = [r0 + ra, r0 + rb + 1];
  drawMaps();
}

/** The panel's one tooltip. */
const tooltip = () => $('observe-tip');

/** A table of `rows` (arrays of cells: text, or `[text, value]` with the figure as data-value). */
function table(head, rows, id) {
  const t = el('table', undefined, { id, class: 'observe-table' });
  const tr = el('tr');
  for (const h of head) tr.append(el('th', h, { scope: 'col' }));
  t.append(tr);
  for (const r of rows) {
    const row = el('tr');
    for (const c of r) {
      const [text, value] = Array.isArray(c) ? c : [c];
      row.append(el('td', text, value == null ? {} : { 'data-value': String(value) }));
    }
    t.append(row);
  }
  return t;
}

/** What happened to the regions, in the engine's words (what `rowkey-lab observe` prints). */
function eventsList() {
  const { series: s } = view.got;
  if (!s.events.length) return [];
  const list = el('ol', undefined, { id: 'observe-events', class: 'observe-events' });
  for (const e of s.events) {
    const item = el('li', `${clock(e.atMs)} ${MARKS[e.kind] ?? ''} ${e.text}`.replace('  ', ' '));
    item.dataset.kind = e.kind;
    list.append(item);
  }
  return [el('h4', `Splits, merges, moves, reopens and gaps (${s.events.length})`), list];
}

function topsTable() {
  const { series: s } = view.got;
  return table(
    ['interval', 'requests/s', 'busiest regions'],
    s.intervals.map(iv => [
      `${clock(iv.fromMs)} → ${clock(iv.toMs)}`,
      [rate(iv.requestsPerSec), iv.requestsPerSec],
      iv.top.map(k => label(iv.regions[k].region)).join(', ') || '–',
    ]),
    'observe-tops',
  );
}

/** The design against the table: per region, per server, the diagnosis. */
function againstParts() {
  const { observed: o } = view.got;
  const a = o.against;
  const parts = [el('h4', 'Now against the design')];
  if (a) {
    parts.push(
      el(
        'p',
        `${when(a.fromMs)} → ${when(a.toMs)}, the last interval with rates: each region’s share of ${a.measure} measured, beside its share of writes this design predicts on the same regions.`,
        { class: 'muted' },
      ),
      table(
        ['start key', 'through the key', 'server', `% of ${a.measure} now`, '% predicted', 'ratio'],
        a.regions.map(r => [
          r.startKey === '' ? '(first)' : (r.startKey ?? '–'),
          r.decoded ?? '–',
          r.server ?? '–',
          [pct(r.measuredShare), r.measuredShare],
          [pct(r.predictedShare), r.predictedShare],
          [r.ratio == null ? '–' : `${r.ratio.toFixed(2)}×`, r.ratio],
        ]),
        'observe-against',
      ),
      table(
        ['server', 'regions', '% of regions', `% of ${a.measure} now`, '% predicted'],
        a.servers.map(v => [
          v.server,
          String(v.regions),
          [pct(v.regionShare), v.regionShare],
          [pct(v.measuredShare), v.measuredShare],
          [pct(v.predictedShare), v.predictedShare],
        ]),
        'observe-servers',
      ),
    );
  }
  const list = el('ul', undefined, { id: 'observe-diagnosis', class: 'observe-diagnosis' });
  for (const d of o.diagnosis) list.append(el('li', d));
  if (!o.diagnosis.length) list.append(el('li', 'The measured shares and the design’s agree: nothing to say.'));
  parts.push(list);
  return parts;
}

function notes() {
  const { series: s, observed: o } = view.got;
  const all = [...s.notes, ...o.notes];
  if (!all.length) return [];
  const list = el('ul', undefined, { class: 'muted' });
  for (const n of all) list.append(el('li', n));
  return [list];
}
