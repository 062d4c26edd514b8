// State in and out of the page: Copy link, Export and Import design JSON (a file picked, dropped
// or pasted), the heatmap as PNG and the metrics as CSV; Recent designs' menu. No network: files
// go through Blob URLs, and a design file is read in a worker (state/io.js readOff).

import { warmRows } from '../engine/runs.js';
import {
  BOX_MAX,
  canvasPng,
  checkRecent,
  copyText,
  DESIGN_MAX,
  download,
  metricsCsv,
  readOff,
  recentList,
  sizeText,
  sweepStored,
} from '../state/io.js';
import { $, el, num, saveState, state } from '../state/lab-state.js';
import { choosing, declareFields, patchRows, replaceDesign, rerun, setRows, stillChosen } from '../state/store.js';
import { elide, renderKeyLabels, renderScaleLegend, renderTimeTicks, showTooltip } from './heat-axes.js';
import { heatZoom } from './heat-zoom.js';
import { drawMatrix, sliceCols } from './heatmap.js';
import { shownMatrix } from './heatmap-view.js';
import { openRecent, renderRecent } from './recent-view.js';

function ioStatus(text, error = false) {
  $('io-status').textContent = text;
  $('io-status').classList.toggle('error', error);
}
let reading = null;
/** The view of the user's rows (rows-view.js), loaded on first use, over the lab's one state. */
const rowsView = () =>
  import('./rows-view.js').then(m =>
    m.rowsView({
      $,
      boxMax: BOX_MAX,
      el,
      num,
      readOff,
      rerun,
      sizeText,
      state,
      warmRows,
      setRows,
      patchRows,
      declareFields,
    }),
  );
/** The view of a live table's snapshots (observe-view.js), loaded on first use, with the lab's
 * helpers and the heatmap's drawing. */
const observeView = () =>
  import('./observe-view.js').then(m =>
    m.observeView({
      $,
      el,
      readOff,
      state,
      heat: {
        drawMatrix,
        sliceCols,
        elide,
        renderKeyLabels,
        renderScaleLegend,
        renderTimeTicks,
        showTooltip,
        heatZoom,
      },
    }),
  );
/** A file picked or dropped: a design when its name ends in .json, else the user's rows, whose
 * format the engine tells. */
function openFile(file) {
  if (/\.json$/i.test(file.name)) importDesign(file);
  else rowsView().then(v => v.openRows(file));
}
/** A design file opened: its size checked first, without reading it; then
 * read and parsed in a worker, so that neither a large file nor a slow disk holds up the page. */
async function importDesign(file) {
  reading?.cancel();
  if (file.size > DESIGN_MAX) {
    ioStatus(
      `Not imported: ${file.name} is ${sizeText(file.size)}; the page opens design files of up to ${sizeText(DESIGN_MAX)}.`,
      true,
    );
    return;
  }
  ioStatus(`Reading ${file.name}…`);
  const t = choosing();
  const read = readOff('readDesign', { file });
  reading = read;
  let got;
  try {
    got = await read;
  } catch (e) {
    if (e.name !== 'AbortError') ioStatus(`Import failed: ${e.message}`, true);
    return;
  }
  reading = null;
  if (!stillChosen(t)) {
    ioStatus(`${file.name} was read after another design was chosen: that one stays.`);
    return;
  }
  ioStatus(`Imported ${file.name}.`);
  replaceDesign(got.doc, { text: got.text, later: true });
}
function slug() {
  return (
    String(state.doc?.name || 'design')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'design'
  );
}
/** A paste into the JSON editor longer than a text box shows is opened as a design of its own,
 * read in a worker like a file, not put in the box; a longer one than a design may be is
 * refused at once. */
export function pasteDesign(e) {
  const text = e.clipboardData?.getData('text/plain') ?? '';
  if (text.length <= BOX_MAX) return;
  e.preventDefault();
  if (text.length > DESIGN_MAX) {
    ioStatus(
      `Not pasted: the text is ${sizeText(text.length)}; the page opens designs of up to ${sizeText(DESIGN_MAX)}.`,
      true,
    );
    return;
  }
  importDesign(new File([text], 'the pasted design', { type: 'application/json' }));
}

/** The state in and out controls' listeners (from app.js's wireLab). */
export function wireIo() {
  renderRecent();
  $('recent').addEventListener('change', e => {
    const r = recentList()[Number(e.target.value)];
    if (r) openRecent(r);
  });
  // every entry read through once, now that the page is drawn; then IndexedDB's texts checked
  // against the list
  checkRecent();
  renderRecent();
  sweepStored().then(renderRecent);
  $('copy-link').addEventListener('click', async () => {
    saveState();
    if (!state.link.fits) {
      $('share-url').hidden = true;
      ioStatus('This design is too large to share as a link: export the JSON and share the file.', true);
      return;
    }
    const ok = await copyText(location.href);
    const share = $('share-url');
    share.value = location.href;
    share.hidden = ok;
    if (!ok) share.select();
    // a link carries the design, never the user's file
    ioStatus(
      `${ok ? 'Link copied.' : 'Copy the link below.'}${state.rows ? ` It cannot carry ${state.rows.name}.` : ''}`,
    );
  });
  $('export-json').addEventListener('click', () => {
    download(
      `${slug()}.rowkey.json`,
      new Blob([`${JSON.stringify(state.doc, null, 2)}\n`], { type: 'application/json' }),
    );
    ioStatus('Design exported.');
  });
  $('import-json').addEventListener('change', () => {
    const f = $('import-json').files[0];
    $('import-json').value = '';
    if (f) openFile(f);
  });
  $('rows-open').addEventListener('click', () => rowsView().then(v => v.showRows()));
  $('observe-open').addEventListener('click', () => observeView().then(v => v.showObserve()));
  // A file dropped on the page is a design to import or rows to analyze (on the table-regions
  // box: the table's regions, see table-regions.js), never a page the browser opens in place of
  // this one.
  document.addEventListener('dragover', e => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', e => {
    const f = e.dataTransfer?.files[0];
    if (!f || e.defaultPrevented) return;
    e.preventDefault();
    openFile(f);
  });
  $('export-png').addEventListener('click', async () => {
    if (!state.report) return;
    // Every cell, one pixel each (the canvas on screen may show blocks of cells).
    const full = document.createElement('canvas');
    const { m } = shownMatrix(),
      h = state.heat;
    drawMatrix(full, m, {
      scale: h.scale,
      brightness: h.brightness,
      capacity: h.mode === 'absolute' ? h.capacity : 0,
      windowSec: state.shown.windowMs / 1000,
    });
    download(`${slug()}-heatmap.png`, await canvasPng(full));
  });
  $('export-csv').addEventListener('click', () => {
    if (!state.report) return;
    download(`${slug()}-metrics.csv`, new Blob([metricsCsv(state.report, state.summary)], { type: 'text/csv' }));
  });
}
