// The key design lab: one state object (the design document and the view settings), rendered
// from it, saved in the URL hash (url-state.js). Heavy runs happen in worker.js; this thread only
// draws. The first run was started by boot.js before this module loaded; it is adopted here.
// Every key and every piece of design text is rendered with textContent, never as HTML.
import * as wasm from './pkg/rowkey_lab.js';

/** The key design in its readable text form (the JSON form only if it cannot be formatted). */
function keyAsText(k) {
  if (typeof k === 'string') return k;
  try { return wasm.formatKey(k); } catch { return JSON.stringify(k); }
}
import { drawMatrix, drawBars, totals, sliceCols, groupRows, poolMax, poolValues } from './heatmap.js';
import { KeysView } from './keys-view.js';
import { readHash, writeHash, clampInt, DEFAULT_PRESET, HEAT_DEFAULTS } from './url-state.js';
import { adoptFirstRun, startWorker } from './boot.js';
import { download, recentList, remember, copyText, readJsonFile, canvasPng, metricsCsv } from './state-io.js';

const $ = (id) => document.getElementById(id);
// `shown` is the report the heatmap draws: the final one, or a preview (the records analyzed so
// far) while the page has nothing else to show.
const state = { doc: null, presetId: '', windows: 64, sampleSize: 1000, report: null, shown: null, reads: [], readsError: null,
  heat: { ...HEAT_DEFAULTS, cursor: null }, embed: null, view: null, linkProblem: null };

function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// ---- URL state -------------------------------------------------------------------------
function saveState() {
  const hash = writeHash(state);
  // replaceState costs a round trip to the browser: only when the hash changes
  if (hash !== location.hash) history.replaceState(null, '', hash);
}
/** The hash's settings into `state`; true when it holds a design. */
function loadState() {
  const h = readHash();
  Object.assign(state, { windows: h.windows, sampleSize: h.sampleSize, embed: h.embed, view: h.view });
  state.heat = { ...h.heat, cursor: null };
  state.presetId = h.presetId; // without `d=`, the preset to load (`p=`), as boot.js reads it
  state.linkProblem = h.problem;
  if (!h.doc) return false;
  state.doc = h.doc;
  return true;
}

// ---- worker ------------------------------------------------------------------------------
let worker = null, runId = 0;
function newWorker() {
  worker?.terminate();
  worker = startWorker();
  worker.onmessage = ({ data }) => onWorker(data);
}
function progress(done, total) {
  $('progress').value = total ? done / total : 0;
  $('run-status').textContent = `${num(done)} of ${num(total)} records`;
}
function onWorker(msg) {
  if (msg.id !== runId) return;
  if (msg.kind === 'progress') {
    progress(msg.done, msg.total);
  } else if (msg.kind === 'preview') {
    progress(msg.done, msg.total);
    // Only while the page has no result to show: a preview never replaces a finished run's view.
    if (state.report) return;
    state.shown = msg.report;
    state.pending = { done: msg.done, total: msg.total };
    renderPreview();
  } else if (msg.kind === 'report') {
    performance.mark('rowkey-lab:report-received');
    Object.assign(state, { report: msg.report, shown: msg.report, pending: null, reads: msg.reads, readsError: msg.readsError });
    if (state.heat.zoom && state.heat.zoom[1] > msg.report.matrix.cols) { state.heat.zoom = null; saveState(); }
    renderResults(runId);
    remember(state.doc, state.presetId);
    renderRecent();
  } else if (msg.kind === 'comparison') {
    endRun('');
    renderCompare(msg.comparison);
  } else if (msg.kind === 'error') {
    endRun(STALE(), 'error');
    showError(msg.error);
  }
}
/** What the status says when a design cannot run while an older result is still on show. */
const STALE = () => (state.report ? 'Not run; the results below (dimmed) are from the last design that ran.' : '');
function setRun(v) { $('lab').dataset.run = v; }
function startRun(message) {
  // A busy worker would finish a stale run first: replace it instead of queueing behind it.
  if (!$('cancel').disabled) newWorker();
  setRun('running');
  runId++;
  $('cancel').disabled = false;
  $('progress').value = 0;
  $('run-status').textContent = 'Analyzing…';
  worker.postMessage(message(runId));
}
let firstDone;
/** Resolves when the first run has ended (its result drawn, or an error, or a cancel). */
export const firstResult = new Promise((resolve) => { firstDone = resolve; });
function endRun(text, run = 'done') {
  setRun(run);
  if (run === 'done') performance.mark('rowkey-lab:result-drawn');
  firstDone();
  $('cancel').disabled = true;
  $('progress').value = 1;
  $('run-status').textContent = text;
}
function cancelRun() {
  runId++;
  newWorker();
  $('cancel').disabled = true;
  setRun('cancelled');
  $('progress').value = 0;
  $('run-status').textContent = 'Cancelled.';
}

// ---- editor ------------------------------------------------------------------------------
function showError(e) {
  const box = $('design-error');
  for (const id of ['key-text', 'doc-json']) $(id).removeAttribute('aria-invalid');
  $('goto-error').hidden = true;
  if (!e) { box.hidden = true; box.textContent = ''; return; }
  // The text the line and column count in: the design document as the JSON editor holds it
  // (e.in), or the key text (errors under /key).
  const where = e.in ?? (String(e.path ?? '').startsWith('/key') ? 'key-text' : null);
  const located = e.line && e.column && where;
  // With the caret drawn below, the reason is enough (the message's own "(line …, column …)"
  // would say it twice); engine messages often start with the JSON path: name it only once.
  const msg = located && e.reason ? e.reason : e.message;
  let text = e.path && !msg.includes(e.path) ? `${msg} (at ${e.path})` : msg;
  if (located) {
    const source = $(where).value;
    const line = source.split('\n')[e.line - 1] ?? '';
    text += `\nline ${e.line}, column ${e.column}:\n${line}\n${' '.repeat(Math.max(0, e.column - 1))}^`;
    $(where).setAttribute('aria-invalid', 'true');
    const go = $('goto-error');
    go.hidden = false;
    go.onclick = () => {
      const lines = source.split('\n');
      let at = 0;
      for (let i = 0; i < e.line - 1 && i < lines.length; i++) at += lines[i].length + 1;
      at += e.column - 1;
      const ta = $(where);
      ta.closest('details')?.setAttribute('open', '');
      ta.focus();
      ta.setSelectionRange(at, Math.min(source.length, at + 1));
    };
  }
  box.textContent = text;
  box.hidden = false;
  $('diagnosis').textContent = '';
}

/** Check the design document as the JSON editor holds it (the state's own text unless the user
 * is typing there), so an error's line and column are in what the user sees. Errors under
 * /key are left to the run, which points into the key text. Returns true when it can run. */
function checkDoc() {
  try { wasm.validateDesign($('doc-json').value); } catch (e) {
    if (String(e.path ?? '').startsWith('/key')) return true;
    setRun('error');
    $('run-status').textContent = STALE();
    showError({ message: e.message, reason: e.reason, line: e.line, column: e.column, path: e.path, in: 'doc-json' });
    return false;
  }
  return true;
}

/** Parse the key text as it is typed; a parse error is shown at its line and column and the
 * (slower) analysis is not started. Returns true when the text parses. */
function parseTyped() {
  const text = $('key-text').value;
  try { wasm.parseKey(text); } catch (e) {
    setRun('error');
    $('run-status').textContent = STALE();
    showError({ message: e.reason ?? e.message, line: e.line, column: e.column, path: '/key' });
    return false;
  }
  return true;
}

function renderEditor() {
  const k = state.doc?.key;
  if (document.activeElement !== $('key-text')) $('key-text').value = keyAsText(k);
  if (document.activeElement !== $('doc-json')) $('doc-json').value = JSON.stringify(state.doc, null, 2);
  $('preset').value = state.presetId;
  if (document.activeElement !== $('windows')) $('windows').value = String(state.windows);
  if (document.activeElement !== $('sample-size')) $('sample-size').value = String(state.sampleSize);
}

let debounce = 0;
function changed(now = false) {
  $('link-notice').hidden = true; // the user has moved on from the link they opened
  setRun('pending');
  saveState();
  renderEditor();
  clearTimeout(debounce);
  if (now) analyze(); else debounce = setTimeout(analyze, 300);
}

function analyze() {
  if (typeof state.doc?.key === 'string' && !parseTyped()) return;
  if (!checkDoc()) return;
  showError(null);
  const doc = state.doc;
  // a preview of the first records only while nothing else is shown
  startRun(id => ({ id, kind: 'analyze', preview: !state.report, doc, options: { windows: state.windows, sampleSize: state.sampleSize } }));
}

// ---- results -------------------------------------------------------------------------------
/** 1234567 -> "1,234,567" (what toLocaleString('en') gives for counts, without loading Intl's
 * locale data on the first render). */
const num = (n) => {
  const [int, frac] = String(Math.round(n * 1000) / 1000).split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
};
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const fix = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const when = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The matrix shown: regions or servers as rows, the zoomed window range as columns. */
function shownMatrix() {
  const r = state.shown, h = state.heat;
  let m = r.matrix;
  if (h.view === 'servers') {
    const n = Math.max(1, r.servers.length);
    m = groupRows(m, r.regions.map(g => g.server ?? 0), n);
  }
  const [c0, c1] = h.zoom ?? [0, m.cols];
  return { m: sliceCols(m, c0, c1), c0, c1 };
}

function renderHeatmap() {
  const r = state.shown, h = state.heat;
  const { m, c0, c1 } = shownMatrix();
  const windowSec = r.windowMs / 1000;
  const absolute = h.mode === 'absolute';
  const opts = { scale: state.heat.scale, brightness: h.brightness, capacity: absolute ? h.capacity : 0, windowSec };
  const height = Math.min(480, Math.max(120, m.rows * 12));
  for (const id of ['heatmap', 'row-totals']) $(id).style.height = `${height}px`;
  // No more cells than the screen has pixels: each drawn cell is the busiest of its block.
  const dpr = window.devicePixelRatio || 1, width = $('heatmap').clientWidth;
  const { m: drawn, fr, fc } = poolMax(m, height * dpr, width > 0 ? width * dpr : m.cols);
  const top = drawMatrix($('heatmap'), drawn, opts);
  const { rowSum, colSum } = totals(m);
  drawBars($('row-totals'), poolValues(Array.from(rowSum), fr), { vertical: true, limit: absolute ? h.capacity * windowSec * m.cols : 0 });
  drawBars($('col-totals'), poolValues(Array.from(colSum), fc));
  const pooled = fr > 1 || fc > 1
    ? ` Each pixel shows the busiest of ${fr > 1 ? `${fr} ${h.view === 'servers' ? 'servers' : 'regions'}` : ''}${fr > 1 && fc > 1 ? ' × ' : ''}${fc > 1 ? `${fc} windows` : ''} (more cells than the screen has pixels); hover for each one.`
    : '';
  const rows = h.view === 'servers' ? 'servers' : 'regions';
  $('heat-legend').textContent = absolute
    ? `Rows are ${rows}; colour = writes per second in a window against ${h.capacity} writes/s; the brightest yellow means at or over that budget (busiest now: ${fix(top / windowSec, 1)} writes/s).`
    : `Rows are ${rows} (top = first key), columns are ${fix(windowSec, windowSec < 10 ? 1 : 0)} s windows; brighter = more writes, ${state.heat.scale} scale, busiest cell ${num(top)} writes${h.brightness ? `, brightness ×${fix(2 ** h.brightness, 2)}` : ''}. Bars: totals per row (right) and per window (below).${r.splits.length ? ` ▼ marks the windows with region splits (${r.splits.length}); a white line is the new boundary from then on.` : ''} Drag across the map to zoom.`;
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
    $('heat-legend').textContent = `Preview of the first ${num(done)} of ${num(total)} records (hatched: not reached yet); the run goes on, the map fills in, and metrics, keys and splits follow when it ends. ${$('heat-legend').textContent}`;
  }
  $('time-axis').textContent = `windows ${c0}–${c1 - 1}: ${when(r.startTimeMs + c0 * r.windowMs)} → ${when(r.startTimeMs + c1 * r.windowMs)}`;
  $('zoom-reset').disabled = !h.zoom;
  renderSplitMarks(r, m, c0, c1);
  renderRegionBars();
}

/** The row (a final region, by its start key) and the window of each split event. */
function splitPlaces(r) {
  const rowOf = new Map(r.regions.map((g, i) => [g.startKeyHex, i]));
  return r.splits.map(sp => ({ sp, row: rowOf.get(sp.splitKeyHex) ?? -1, col: Math.floor((sp.timeMs - r.startTimeMs) / r.windowMs) }));
}

const MAX_SPLIT_LINES = 2000;
/** Split events: ▼ above the window they happened in (a count when several did), and on the map
 * the new region boundary from that window on (regions view) or a dot on the server's row. */
function renderSplitMarks(r, m, c0, c1) {
  const top = $('split-marks'), over = $('split-overlay');
  top.replaceChildren();
  over.replaceChildren();
  const places = splitPlaces(r).filter(p => p.col >= c0 && p.col < c1);
  const perCol = new Map();
  for (const p of places) perCol.set(p.col, [...(perCol.get(p.col) ?? []), p]);
  for (const [col, ps] of perCol) {
    const mk = el('span', ps.length > 1 ? `▼${ps.length}` : '▼', { class: 'mark', 'data-window': col,
      title: ps.map(({ sp }) => `split at ${when(sp.timeMs)} (window ${col}): ${sp.splitKey}`).join('\n') });
    mk.style.left = `${((col - c0 + 0.5) / m.cols) * 100}%`;
    top.append(mk);
  }
  const servers = state.heat.view === 'servers';
  for (const { sp, row, col } of places.slice(0, MAX_SPLIT_LINES)) {
    if (row < 0) continue;
    const title = `region ${row} split off at ${when(sp.timeMs)} (window ${col}): new boundary ${sp.splitKey}`;
    if (servers) {
      const srv = r.regions[row].server ?? 0;
      const dot = el('span', undefined, { class: 'split-dot', 'data-region': row, 'data-window': col, title });
      dot.style.left = `${((col - c0 + 0.5) / m.cols) * 100}%`;
      dot.style.top = `${((srv + 0.5) / m.rows) * 100}%`;
      over.append(dot);
    } else {
      // the boundary between rows row-1 and row exists from the split's window on
      const line = el('span', undefined, { class: 'split-line', 'data-region': row, 'data-window': col, title });
      line.style.left = `${((col - c0) / m.cols) * 100}%`;
      line.style.top = `${(row / m.rows) * 100}%`;
      over.append(line);
    }
  }
}

function renderRegionBars() {
  const r = state.shown, h = state.heat;
  const [c0, c1] = h.zoom ?? [0, r.matrix.cols];
  const vals = r.regions.map((_, i) => { let t = 0; for (let c = c0; c < c1; c++) t += r.matrix.cells[i * r.matrix.cols + c]; return t; });
  const budget = h.mode === 'absolute' ? h.capacity * (r.windowMs / 1000) * (c1 - c0) : 0;
  drawBars($('region-bars'), vals, { length: 120, limit: budget });
  const busiest = vals.reduce((b, v, i) => (v > vals[b] ? i : b), 0);
  const total = vals.reduce((a, b) => a + b, 0);
  $('region-bars-axis').textContent = `${vals.length} regions, first key at left; busiest: region ${busiest} with ${num(vals[busiest] ?? 0)} writes (${total ? pct(vals[busiest] / total) : '0 %'})` +
    (budget ? `; ${vals.filter(v => v > budget).length} over the capacity (orange)` : '');
}

let summary = [];
function metric(dl, id, label, value, meaning) {
  if (dl === $('metrics')) summary.push([label, value, meaning]);
  const dt = el('dt', label);
  const dd = el('dd');
  dd.append(el('strong', value, { 'data-metric': id }), el('span', ` — ${meaning}`, { class: 'muted' }));
  dl.append(dt, dd);
}

function renderMetrics() {
  const r = state.report, m = r.metrics, o = m.overall;
  const dl = $('metrics');
  dl.replaceChildren();
  summary = [];
  metric(dl, 'writes', 'Writes', num(r.writes), 'records analyzed from the workload.');
  metric(dl, 'regions', 'Regions', String(r.regions.length), 'regions at the end (pre-split plus any splits).');
  metric(dl, 'activeRegions', 'Active regions per window', fix(m.meanActiveRegions, 1), 'regions taking writes in a typical window; 1 means every write queues on one server.');
  metric(dl, 'hotspotFactor', 'Hotspot factor', `${fix(m.meanHotspotFactor)} (max ${fix(m.maxHotspotFactor)})`, 'busiest region ÷ mean region in a window; 1 is perfectly even.');
  // Per window (what a server feels at any one time) and over the run (what the diagnosis quotes).
  metric(dl, 'parallelism', 'Effective parallelism', `${fix(m.meanEffectiveParallelism, 1)} per window, ${fix(o.effectiveParallelism, 1)} over the run`, 'how many regions the load is really spread over (1 / Σ share²).');
  metric(dl, 'gini', 'Gini', fix(o.gini, 3), 'inequality of total writes across regions: 0 even, 1 all in one.');
  metric(dl, 'cv', 'Coefficient of variation', fix(o.coefficientOfVariation, 3), 'spread of region totals relative to their mean.');
  metric(dl, 'emptyRegions', 'Empty regions', String(o.emptyRegions), 'regions no key of this design falls into: wasted pre-splits.');
  // Key lengths from the sample's offsets (key i spans offsets[i]..offsets[i + 1]).
  const { offsets } = r.sample; const n = offsets.length - 1;
  let lo = Infinity, hi = 0;
  for (let i = 0; i < n; i++) { const len = offsets[i + 1] - offsets[i]; lo = Math.min(lo, len); hi = Math.max(hi, len); }
  if (n > 0) metric(dl, 'keyLength', 'Key length', lo === hi ? `${lo} bytes (every sampled key)` : `${lo}–${hi} bytes (mean ${fix(offsets[n] / n, 1)})`, 'stored in every cell of every row; shorter keys save disk and cache.');
  metric(dl, 'splitEvents', 'Split events', String(r.splits.length), 'regions split by the auto-split policy during the run.');
  if (typeof wasm.lintDesign === 'function') {
    try {
      const findings = wasm.lintDesign(state.doc) ?? [];
      const list = Array.isArray(findings) ? findings : findings.findings ?? [];
      metric(dl, 'lint', 'Lint findings', String(list.length), list.map(f => f.message ?? f.reason ?? JSON.stringify(f)).join(' · ') || 'no rule fired.');
    } catch { /* lint is advisory */ }
  }
}

function renderReads() {
  const box = $('reads');
  const open = $('scan-commands')?.open ?? false; // a re-render keeps the commands open
  box.replaceChildren();
  if (state.readsError) { box.append(el('p', state.readsError.message, { class: 'error' })); return; }
  if (!state.reads.length) { box.append(el('p', 'The design declares no reads.', { class: 'muted' })); return; }
  const t = el('table');
  const hr = el('tr');
  const heads = ['read', 'scans', 'regions touched', 'rows read per row returned', 'why'];
  for (const h of heads) hr.append(el('th', h, { scope: 'col' }));
  t.append(hr);
  for (const p of state.reads) {
    const tr = el('tr');
    // data-label: the column's name, shown before the value where the table is stacked (phones)
    const cells = [p.name, p.scans.length, p.regionsTouched, p.rowsReadPerRowReturned == null ? '–' : fix(p.rowsReadPerRowReturned), p.notes.join(' ')];
    tr.append(...cells.map((v, i) => el('td', v, { 'data-label': heads[i] })));
    t.append(tr);
  }
  box.append(t);
  const n = state.reads.reduce((a, p) => a + p.scans.length, 0);
  const more = el('details', undefined, { id: 'scan-commands' });
  more.append(el('summary', `Scan commands: ${n} scan${n === 1 ? '' : 's'} in the HBase shell (table named under Split keys)`));
  // Written only while shown: a design's reads can need thousands of scans.
  more.addEventListener('toggle', renderScanCommands);
  more.open = open;
  box.append(more);
}

/** Every scan as the HBase shell runs it, on the table named under Split keys (when shown). */
/** A plan's limit is the scan's LIMIT (a get reads one row anyway). As in bin/rowkey-lab.mjs. */
const limited = (cmd, n) => (!n || !cmd.startsWith('scan ') ? cmd
  : cmd.endsWith('}') ? `${cmd.slice(0, -1)}, LIMIT => ${n}}` : `${cmd}, {LIMIT => ${n}}`);
function renderScanCommands() {
  const more = $('scan-commands');
  if (!more?.open) return;
  more.replaceChildren(more.firstElementChild);
  try {
    const table = $('split-table').value;
    more.append(copyBlock('shell scans', state.reads.flatMap(p => [`# ${p.name}: ${p.scans.length} scan${p.scans.length === 1 ? '' : 's'}`,
      ...p.scans.map(sc => limited(wasm.shellScan(table, hexBytes(sc.startRowHex), hexBytes(sc.stopRowHex)), p.limit))]).join('\n')));
  } catch (e) { more.append(el('p', e.message, { class: 'error' })); }
}

const hexBytes = (h) => Uint8Array.from(h.match(/../g) ?? [], x => parseInt(x, 16));

let keysView = null;
function renderKeys() {
  keysView ??= new KeysView($('keys'));
  keysView.set(state.doc, state.report);
}

function copyBlock(title, text) {
  const box = el('div', undefined, { class: 'copy' });
  const btn = el('button', `Copy ${title}`, { type: 'button' });
  btn.addEventListener('click', () => navigator.clipboard?.writeText(text).then(() => { btn.textContent = 'Copied'; }, () => {}));
  box.append(el('h4', title), btn, el('pre', text));
  return box;
}

function renderSplits() {
  const out = $('splits-out');
  out.replaceChildren();
  // The shell statement names the table and its column family as typed above.
  const create = (keys) => wasm.shellCreate($('split-table').value, $('split-family').value, keys);
  try {
    const keys = wasm.layoutSplitKeys(state.doc);
    if (!keys.length) out.append(el('p', 'The layout has no pre-split: the table starts as one region.', { class: 'muted' }));
    else {
      out.append(copyBlock('shell create', create(keys)),
        copyBlock('SPLITS_FILE', wasm.splitsFile(keys)),
        copyBlock('JSON', JSON.stringify(keys.map(k => wasm.toStringBinary(k)))));
    }
    // Auto-split moved the boundaries: offer the ones the run ended with as a pre-split.
    const r = state.report;
    if (r?.splits.length) {
      const final = r.regions.slice(1).map(g => hexBytes(g.startKeyHex));
      out.append(el('p', `The run's auto-split made ${r.splits.length} more boundaries (${r.regions.length} regions at the end); to create the table with the regions it ended with:`, { class: 'muted' }),
        copyBlock('shell create (end of run)', create(final)));
    }
  } catch (e) { out.append(el('p', e.message, { class: 'error' })); }
}

function renderDiagnosis(r) {
  const box = $('diagnosis');
  box.replaceChildren();
  if (!r.diagnosis.length) return;
  const sentence = (t) => `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
  box.append(el('span', 'Diagnosis: ', { class: 'muted' }), el('span', sentence(r.diagnosis[0])));
  if (r.diagnosis.length > 1) {
    const ul = el('ul', undefined, { class: 'diagnosis-more' });
    for (const d of r.diagnosis.slice(1)) ul.append(el('li', sentence(d)));
    box.append(ul);
  }
}

/** A preview: the heatmap of the records analyzed so far, the rest of the results hidden. */
function renderPreview() {
  performance.mark('rowkey-lab:preview-drawn');
  $('results').hidden = false;
  $('results').dataset.preview = 'true';
  renderHeatmap();
}

/** The finished run: the diagnosis and the heatmap at once, the views below them in the next
 * task (after the heatmap was painted); the run counts as done when everything is drawn. */
function renderResults(id) {
  const r = state.report;
  const previewed = !$('results').hidden && 'preview' in $('results').dataset;
  $('results').hidden = false;
  delete $('results').dataset.preview;
  renderDiagnosis(r);
  renderHeatmap();
  $('run-status').textContent = 'Drawing…';
  // One view per task, so that none of them makes a long task of the others; after the next
  // paint when this heatmap is the first one on screen, at once when it replaces a preview.
  const rest = async () => {
    for (const view of [renderMetrics, renderReads, renderKeys, renderSplits]) {
      if (id !== runId || state.report !== r) return;
      view();
      await nextTask();
    }
    if (id === runId && state.report === r) endRun('');
  };
  if (previewed) nextTask().then(rest);
  else requestAnimationFrame(() => setTimeout(rest, 0));
}

function cellAt(ev) {
  const c = $('heatmap'), box = c.getBoundingClientRect(), { m } = shownMatrix();
  const col = Math.floor(((ev.clientX - box.left) / box.width) * m.cols);
  const row = Math.floor(((ev.clientY - box.top) / box.height) * m.rows);
  return { col: Math.min(m.cols - 1, Math.max(0, col)), row: Math.min(m.rows - 1, Math.max(0, row)), inside: col >= 0 && col < m.cols && row >= 0 && row < m.rows };
}

function showCell(row, col, x, y) {
  const r = state.shown, h = state.heat, { m, c0 } = shownMatrix();
  const t = $('tooltip');
  const v = m.cells[row * m.cols + col];
  const abs = c0 + col;
  let head;
  if (h.view === 'servers') head = `server ${row}: ${r.regions.filter(g => g.server === row).length} regions`;
  else { const reg = r.regions[row]; head = `region ${row} [${reg.startKey || '(first)'}, ${reg.endKey || '(last)'}) on server ${reg.server ?? 0}`; }
  const rate = v / (r.windowMs / 1000);
  let text = `${head}\n${num(v)} writes in window ${abs} (${fix(rate, 1)} writes/s` +
    (h.mode === 'absolute' ? `, ${pct(rate / h.capacity)} of capacity)` : ')') +
    `\n${when(r.startTimeMs + abs * r.windowMs)} + ${fix(r.windowMs / 1000, 1)} s`;
  if (h.view !== 'servers') {
    const reg = r.regions[row];
    for (const p of splitPlaces(r)) {
      if (p.col === abs && (p.sp.splitKeyHex === reg.startKeyHex || p.sp.splitKeyHex === reg.endKeyHex)) {
        text += `\nsplit in this window, at ${when(p.sp.timeMs)}: new boundary ${p.sp.splitKey} (${p.sp.splitKeyHex === reg.startKeyHex ? 'this region\'s start' : 'this region\'s end'})`;
      }
    }
    if (reg.createdAtMs != null) {
      const born = Math.floor((reg.createdAtMs - r.startTimeMs) / r.windowMs);
      text += abs < born
        ? `\nbefore window ${born} this key range was part of a larger region: this count is the engine's estimate of that region's writes in this range`
        : `\nregion created by a split at ${when(reg.createdAtMs)} (window ${born})`;
    }
  }
  t.textContent = text;
  t.hidden = false;
  t.style.left = `${x + 12}px`;
  t.style.top = `${y + 12}px`;
}

let brushFrom = null;
function hover(ev) {
  if (!state.shown) return;
  const { row, col, inside } = cellAt(ev);
  if (brushFrom !== null) {
    const a = Math.min(brushFrom, col), b = Math.max(brushFrom, col);
    const { m } = shownMatrix(), br = $('brush');
    br.hidden = false;
    br.style.left = `${(a / m.cols) * 100}%`;
    br.style.width = `${((b - a + 1) / m.cols) * 100}%`;
  }
  if (!inside) { $('tooltip').hidden = true; return; }
  showCell(row, col, ev.pageX, ev.pageY);
}
function brushStart(ev) {
  if (!state.shown || ev.button !== 0) return;
  brushFrom = cellAt(ev).col;
  ev.preventDefault();
}
function brushEnd(ev) {
  if (brushFrom === null) return;
  const to = cellAt(ev).col, a = Math.min(brushFrom, to), b = Math.max(brushFrom, to);
  brushFrom = null;
  $('brush').hidden = true;
  if (b > a) zoomTo(a, b + 1);
}
function zoomTo(a, b) {
  const [c0] = state.heat.zoom ?? [0];
  setZoom([c0 + a, c0 + b]);
}
function setZoom(zoom) {
  state.heat.zoom = zoom;
  saveState();
  renderHeatmap();
}
function heatKey(ev) {
  if (!state.shown) return;
  const { m } = shownMatrix();
  if (ev.key === 'r' || ev.key === 'R' || ev.key === 'Backspace') { setZoom(null); ev.preventDefault(); return; }
  const cur = state.heat.cursor ?? [0, 0];
  const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
  if (!d) return;
  ev.preventDefault();
  const row = Math.min(m.rows - 1, Math.max(0, cur[0] + d[0])), col = Math.min(m.cols - 1, Math.max(0, cur[1] + d[1]));
  state.heat.cursor = [row, col];
  const box = $('heatmap').getBoundingClientRect();
  showCell(row, col, box.left + window.scrollX + ((col + 0.5) / m.cols) * box.width, box.top + window.scrollY + ((row + 0.5) / m.rows) * box.height);
}

// ---- compare -------------------------------------------------------------------------------
function compare() {
  const other = $('compare-with').value;
  if (!other) return;
  const docs = [state.doc, wasm.getPreset(other)];
  startRun(id => ({ id, kind: 'compare', docs, options: { windows: state.windows } }));
}
function renderCompare(c) {
  const box = $('compare');
  let max = 0;
  for (const d of c.designs) for (const v of d.matrix.cells) if (v > max) max = v;
  box.style.setProperty('--designs', String(c.designs.length));
  box.replaceChildren(el('p', `Rows are each design's regions (top = first key), columns the same ${c.windows} time windows of the first design's workload; one colour scale (${state.heat.scale}) for all.`, { class: 'muted' }),
    ...c.designs.map(d => {
      const fig = el('figure', undefined, { 'data-design': d.name });
      const canvas = el('canvas', undefined, { class: 'pixel', 'aria-label': `region by time heatmap of ${d.name}` });
      const height = Math.min(320, Math.max(120, d.matrix.rows * 12)), dpr = window.devicePixelRatio || 1;
      const width = box.clientWidth / c.designs.length;
      drawMatrix(canvas, poolMax(d.matrix, height * dpr, width > 0 ? width * dpr : d.matrix.cols).m, { scale: state.heat.scale, max });
      canvas.style.height = `${height}px`;
      const dl = el('dl', undefined, { class: 'metrics' });
      metric(dl, 'activeRegions', 'Active regions per window', fix(d.metrics.meanActiveRegions, 1), `of ${d.regions}.`);
      metric(dl, 'hotspotFactor', 'Hotspot factor', fix(d.metrics.meanHotspotFactor), 'busiest ÷ mean.');
      const diag = d.diagnosis[0] ?? '';
      fig.append(el('figcaption', d.name), canvas, dl, el('p', diag && `${diag[0].toUpperCase()}${diag.slice(1)}.`, { class: 'muted' }));
      return fig;
    }));
}

// ---- state in and out -----------------------------------------------------------------------
function ioStatus(text) { $('io-status').textContent = text; }
function renderRecent() {
  const sel = $('recent');
  const list = recentList();
  sel.replaceChildren(el('option', list.length ? `(${list.length} recent)` : '(none yet)', { value: '' }),
    ...list.map((r, i) => el('option', `${r.doc.name || keyAsText(r.doc.key)} — ${new Date(r.at).toLocaleString('en')}`, { value: String(i) })));
}
function slug() { return String(state.doc?.name || 'design').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'design'; }
function wireIo() {
  renderRecent();
  $('recent').addEventListener('change', () => {
    const r = recentList()[Number($('recent').value)];
    if (!r) return;
    state.doc = r.doc;
    state.presetId = r.presetId ?? '';
    changed();
  });
  $('copy-link').addEventListener('click', async () => {
    saveState();
    const ok = await copyText(location.href);
    const share = $('share-url');
    share.value = location.href;
    share.hidden = ok;
    if (!ok) share.select();
    ioStatus(ok ? 'Link copied.' : 'Copy the link below.');
  });
  $('export-json').addEventListener('click', () => {
    download(`${slug()}.rowkey.json`, new Blob([`${JSON.stringify(state.doc, null, 2)}\n`], { type: 'application/json' }));
    ioStatus('Design exported.');
  });
  $('import-json').addEventListener('change', async () => {
    const f = $('import-json').files[0];
    if (!f) return;
    try {
      const doc = await readJsonFile(f);
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a design document');
      state.doc = doc;
      state.presetId = '';
      ioStatus(`Imported ${f.name}.`);
      changed();
    } catch (e) { ioStatus(`Import failed: ${e.message}`); }
    $('import-json').value = '';
  });
  $('export-png').addEventListener('click', async () => {
    if (!state.report) return;
    // Every cell, one pixel each (the canvas on screen may show blocks of cells).
    const full = document.createElement('canvas');
    const { m } = shownMatrix(), h = state.heat;
    drawMatrix(full, m, { scale: h.scale, brightness: h.brightness, capacity: h.mode === 'absolute' ? h.capacity : 0, windowSec: state.shown.windowMs / 1000 });
    download(`${slug()}-heatmap.png`, await canvasPng(full));
  });
  $('export-csv').addEventListener('click', () => {
    if (!state.report) return;
    download(`${slug()}-metrics.csv`, new Blob([metricsCsv(state.report, summary)], { type: 'text/csv' }));
  });
}

// ---- start ---------------------------------------------------------------------------------
function loadPreset(id, now = false) {
  state.doc = wasm.getPreset(id);
  state.presetId = id;
  changed(now);
}

export function startLab() {
  // The design: the hash's, else the hash's preset (`p=` without `d=`), else the default preset.
  if (!loadState()) {
    let id = state.presetId || DEFAULT_PRESET;
    try { state.doc = wasm.getPreset(id); } catch {
      state.linkProblem ??= `This link names a preset that does not exist (${id})`;
      id = DEFAULT_PRESET; state.doc = wasm.getPreset(id);
    }
    state.presetId = id;
  }
  renderHeatControls();
  renderEditor();
  // The first run: boot.js's, when it is the same run; else one starts at once (no debounce).
  const first = adoptFirstRun();
  let preview = Promise.resolve();
  if (first && sameRun(first.request) && !(typeof state.doc?.key === 'string' && !parseTyped())) {
    worker = first.worker;
    runId = first.request.id;
    worker.onmessage = ({ data }) => onWorker(data);
    setRun('running');
    $('cancel').disabled = false;
    $('run-status').textContent = 'Analyzing…';
    for (const msg of first.early) onWorker(msg);
    preview = previewHere(runId);
  } else {
    runId = Math.max(runId, first?.request.id ?? 0);
    first?.worker.terminate();
    newWorker();
    changed(true);
  }
  // A link whose design could not be opened says so, instead of quietly showing another one
  // (after the first run starts: the user's next change hides it).
  if (state.linkProblem) {
    const notice = $('link-notice');
    notice.textContent = `${state.linkProblem}: showing the preset "${state.doc.name ?? state.presetId}" instead.`;
    notice.hidden = false;
  }
  // The menus and the controls are not needed to draw the preview: they come right after it.
  preview.then(wireLab);
}

function wireLab() {
  saveState();
  for (const p of wasm.listPresets()) {
    $('preset').append(el('option', p.name ?? p.id, { value: p.id }));
    $('compare-with').append(el('option', p.name ?? p.id, { value: p.id }));
  }
  $('preset').value = state.presetId;
  $('preset').addEventListener('change', () => { if ($('preset').value) loadPreset($('preset').value); });
  let parseTimer = 0;
  $('key-text').addEventListener('input', () => {
    state.doc = { ...state.doc, key: $('key-text').value };
    state.presetId = '';
    clearTimeout(parseTimer);
    parseTimer = setTimeout(() => { if (parseTyped()) showError(null); }, 120);
    changed();
  });
  $('doc-json').addEventListener('input', () => {
    try { state.doc = JSON.parse($('doc-json').value); } catch { checkDoc(); return; }
    state.presetId = '';
    changed();
  });
  $('windows').addEventListener('input', () => { state.windows = Math.min(1024, Math.max(1, Number($('windows').value) || 64)); changed(); });
  $('sample-size').addEventListener('input', () => { state.sampleSize = clampInt($('sample-size').value, 10, 100000, 1000); changed(); });
  $('scale').addEventListener('change', () => { state.heat.scale = $('scale').value; saveState(); if (state.shown) renderHeatmap(); });
  $('cancel').addEventListener('click', cancelRun);
  $('compare-run').addEventListener('click', compare);
  for (const id of ['split-table', 'split-family']) $(id).addEventListener('input', () => { if (state.doc) renderSplits(); });
  // The scan commands name the table too.
  $('split-table').addEventListener('input', renderScanCommands);
  $('heatmap').addEventListener('mousemove', hover);
  $('heatmap').addEventListener('mousedown', brushStart);
  window.addEventListener('mouseup', brushEnd);
  $('heatmap').addEventListener('mouseleave', () => { if (brushFrom === null) $('tooltip').hidden = true; });
  $('heatmap').addEventListener('keydown', heatKey);
  $('heatmap').addEventListener('blur', () => { $('tooltip').hidden = true; });
  const heatInput = () => {
    const h = state.heat;
    h.view = $('heat-view').value;
    h.mode = $('heat-mode').value;
    h.brightness = Number($('brightness').value) || 0;
    h.capacity = Math.max(0.001, Number($('capacity').value) || 100);
    renderHeatControls();
    saveState();
    if (state.shown) renderHeatmap();
  };
  for (const id of ['heat-view', 'heat-mode', 'brightness', 'capacity']) $(id).addEventListener('input', heatInput);
  $('zoom-reset').addEventListener('click', () => setZoom(null));
  wireIo();
}

const PREVIEW_SLICE = 2000, PREVIEW_BUDGET_MS = 30;
const nextTask = () => globalThis.scheduler?.yield?.() ?? new Promise((r) => {
  const c = new MessageChannel();
  c.port1.onmessage = () => r();
  c.port2.postMessage(0);
});
/** The first run's preview, computed here while the worker is still starting (its thread, its
 * modules and its wasm take a while): the first records of the same design, in slices of
 * PREVIEW_SLICE records between which this thread is free, for about PREVIEW_BUDGET_MS. Drawn
 * as a preview unless the worker had something to show first; its report replaces it. */
async function previewHere(id) {
  let s;
  // the smallest key sample and grid: the preview draws only the region × window matrix, which
  // they do not change, and the report is then much cheaper to make
  try { s = new wasm.AnalysisSession(state.doc, { windows: state.windows, sampleSize: 10, gridBuckets: 8 }); } catch { return; }
  try {
    let p = s.progress();
    const t0 = performance.now();
    while (!p.finished && performance.now() - t0 < PREVIEW_BUDGET_MS) {
      await nextTask();
      if (id !== runId || state.shown) return;
      p = s.step(PREVIEW_SLICE);
    }
    if (p.done === 0) return;
    onWorker({ id, kind: 'preview', report: s.finish(), done: p.done, total: p.total });
  } catch { /* the worker reports the error */ } finally { s.free(); }
}

/** Is boot.js's first request the run this page wants now? */
function sameRun(req) {
  const opts = { windows: state.windows, sampleSize: state.sampleSize };
  if (JSON.stringify(req.options) !== JSON.stringify(opts)) return false;
  // without `d=` in the hash the page's design is the preset's, as in the worker
  return req.doc ? JSON.stringify(req.doc) === JSON.stringify(state.doc) : req.presetId === state.presetId;
}

/** The heatmap controls from `state.heat` (after a load from the URL, or an input). */
function renderHeatControls() {
  const h = state.heat;
  $('scale').value = h.scale;
  $('heat-view').value = h.view;
  $('heat-mode').value = h.mode;
  if (document.activeElement !== $('brightness')) $('brightness').value = String(h.brightness);
  if (document.activeElement !== $('capacity')) $('capacity').value = String(h.capacity);
  $('brightness-out').textContent = `×${fix(2 ** h.brightness, 2)}`;
  $('capacity-box').hidden = h.mode !== 'absolute';
  $('brightness').disabled = h.mode === 'absolute';
}
