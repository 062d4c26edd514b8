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
// io-view.js. Its two maps are observe-maps.js's. Text reaches the DOM through textContent (el) only.

import { clock, label, MARKS, MEASURES, observeMaps, rate, unzoomed } from './observe-maps.js';

let $, el, readOff, state, heatmaps, drawMaps;
/** This view over the lab's helpers: `{ showObserve, openSnapshots }`. */
export function observeView(lab) {
  ({ $, el, readOff, state } = lab);
  ({ heatmaps, drawMaps } = observeMaps(lab, view));
  return { showObserve, openSnapshots };
}

const when = ms => new Date(ms).toISOString().replace('.000Z', 'Z');
const pct = x => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)} %`);

/** The view's own state: what was read, and how it is shown. */
const view = { got: null, names: [], measure: 'writes', rows: 'regions', reading: null, ...unzoomed() };

// ---- the panel ----------------------------------------------------------------------------
let drawn = false;
function drawPanel() {
  if (drawn) return;
  drawn = true;
  // (the single file has every sheet inline: scripts/build-single.mjs)
  if (!document.documentElement.hasAttribute('data-single'))
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
