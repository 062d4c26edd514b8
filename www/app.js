// The key design lab: one state (lab-state.js: the design document, the view settings, the run),
// changed through named changes (state/store.js), drawn from it, saved in the URL hash with
// history (url-state.js, lab-state.js). Heavy runs happen in worker.js (engine/runs.js); this
// thread only draws. The first run was started by boot.js before this module loaded; it is
// adopted here. Every key and every piece of design text is rendered with textContent.
// This module has what follows a change (changed), the start-up and the wiring; the views are
// views/ (the editors, the runs' results, Recent designs, state in and out) and the other
// *-view.js modules.

import { adoptFirstRun } from './boot.js';
import { previewHere } from './engine/preview.js';
import { adoptRun, dropFirstRun, runUnderWay, useFastEngine } from './engine/runs.js';
import { DEFAULT_PRESET, getPreset } from './pkg/presets.js';
import * as wasm from './pkg/rowkey_lab.js';
import { markDamaged, newEntryId, recentList, recentText } from './state/io.js';
import {
  $,
  commit,
  docText,
  knownText,
  loadState,
  markLinkEntry,
  redo,
  renderSteps,
  saveState,
  state,
  steppedTo,
  undo,
  whenCommitted,
} from './state/lab-state.js';
import {
  editDesign,
  linkProblem,
  onChanges,
  openDesign,
  replaceDesign,
  runPending,
  runStarted,
  setLint,
  setOptions,
  setShell,
  setView,
  showTable,
  toEntry,
} from './state/store.js';
import { adviceOnDesign, wireAdvice } from './views/advice-open.js';
import { comparePressed, redrawCompare, setCompareChoices, wireCompare } from './views/compare-view.js';
import { renderForms, typedOption, wireForms } from './views/design-form.js';
import { checkTyped, editorText, parseTyped, renderEditor, renderOptions, showError } from './views/editor-view.js';
import { renderHeatControls, renderHeatmap, wireHeatmap } from './views/heatmap-view.js';
import { pasteDesign, wireIo } from './views/io-view.js';
import { keyChecksHere, mountKeyEditor } from './views/key-editor.js';
import { monthsFromLink, monthsOnDesign, wireMonths } from './views/months-open.js';
import { wirePhoenix } from './views/phoenix-box.js';
import { presetChoices, renderPreset, wirePresets } from './views/preset-view.js';
import { branch, isDesignText, keepNow, keepSoon, setDraft } from './views/recent-view.js';
import { renderScanCommands, renderSplits, wireSplits } from './views/results.js';
import { cancel, compare, compareWhenDone, compareWith, firstResult, onRunEvent, run } from './views/run-view.js';
import { wireTableRegions } from './views/table-regions.js';

export { firstResult };

// ---- what follows a change ----------------------------------------------------------------
let debounce = 0;
/** The state changed (state/store.js's named changes): saved, drawn, and run after a pause (at
 * once when `now`); `replaced` when another design took the place of the one on show (see
 * renderEditor); `draft`, the JSON editor's text that does not parse, shown over it instead. */
function changed({ now = false, replaced = false, draft = null } = {}) {
  if (draft !== null) return showDraft(draft);
  $('link-notice').hidden = true; // the user has moved on from the link they opened
  runPending();
  saveState();
  // a whole design put on the page is a committed change (a history entry) at once; edits are
  // committed a moment after the typing pauses, or when the box is left (Recent designs then
  // keep them: see lab-state.js)
  if (replaced) commit();
  renderEditor(replaced);
  adviceOnDesign();
  monthsOnDesign();
  clearTimeout(debounce);
  if (now) analyze();
  else debounce = setTimeout(analyze, 300);
}
onChanges({ replacing: branch, changed });

/** A Recent design kept as typed, its JSON not parsing: the text back in the JSON editor, over
 * the last design of it that did (which does not run until the text parses). */
function showDraft(text) {
  saveState();
  renderEditor(true);
  adviceOnDesign();
  $('json-box').open = true;
  $('doc-json').value = text;
  setDraft(text);
  checkTyped();
}

function analyze() {
  if (typeof state.doc?.key === 'string' && !parseTyped()) return;
  showError(null);
  // The design as JSON text (a copy of a string costs the page less than one of the object),
  // and as the JSON editor holds it when it does, for errors at its lines.
  const text = docText();
  setLint(null); // asked for after the report
  // over the user's rows once a file of them was analyzed (views/rows-view.js: its file and
  // options), else over the generated workload
  const rows = state.rows?.runArgs();
  // a preview of the first records only while nothing else is shown
  run(rows ? 'analyzeRows' : 'analyze', {
    ...rows,
    preview: !state.report,
    // a key too long to lay out here (renderLayout): the worker posts its layout first
    layout: !keyChecksHere(state.doc.key),
    text,
    editorText: editorText(),
    options: { windows: state.windows, sampleSize: state.sampleSize },
  });
}

// ---- start ---------------------------------------------------------------------------------

/** The design the hash names: its own (`d=`), else its entry under Recent designs (`k=`, a design
 * too large for a link; read from IndexedDB when it is kept there), else its preset (`p=`),
 * else the default preset. A link that cannot be opened says why in state.linkProblem. */
async function openHash() {
  toEntry(newEntryId());
  if (loadState()) return;
  if (state.kept) {
    const r = recentList().find(x => x.id === state.kept && !x.draft);
    let text = null;
    try {
      text = r ? (await recentText(r)).text : null;
    } catch {
      /* said below */
    }
    if (text !== null && isDesignText(text)) {
      openDesign({ doc: JSON.parse(text), entry: r.id, presetId: r.presetId ?? '', edited: r.edited });
      knownText(state.doc, text);
      return;
    }
    if (r) markDamaged(r.id);
    linkProblem(
      r
        ? "This link's design is under Recent designs in this browser, but its entry there could not be read (it is damaged)"
        : "This link's design was too large for a link, and it is not under Recent designs in this browser",
    );
  }
  let id = state.presetId || DEFAULT_PRESET;
  let doc;
  try {
    doc = await getPreset(id);
  } catch {
    linkProblem(`This link names a preset that does not exist (${id})`);
    id = DEFAULT_PRESET;
    doc = await getPreset(id);
  }
  openDesign({ doc, presetId: id });
}
/** A link that could not be opened says so, instead of quietly showing another design. */
function showLinkProblem() {
  const notice = $('link-notice');
  notice.hidden = !state.linkProblem;
  if (state.linkProblem)
    notice.textContent = `${state.linkProblem}: showing the preset "${state.doc.name ?? state.presetId}" instead.`;
}
/** Another link opened in this tab (only the hash changed): the design on show goes to Recent
 * designs, and the link's design takes its place, as if the page had been opened on it. */
async function openLink() {
  branch();
  const at = location.hash;
  await openHash();
  // (a design read from IndexedDB: another link may have been opened meanwhile)
  if (location.hash !== at) return;
  compareWhenDone(state.compare.length > 0);
  monthsFromLink();
  renderHeatControls();
  markLinkEntry();
  changed({ now: true, replaced: true });
  showLinkProblem();
}

/** Back, Forward, undo or redo stepped to one of the page's history entries: its state, from
 * its hash, on the page; the design's analysis runs again only when the design or its options
 * differ from those on show. */
async function stepTo(entry) {
  keepNow();
  steppedTo(entry);
  setDraft(null);
  const ran = `${state.windows} ${state.sampleSize} ${docText()}`;
  const at = location.hash;
  await openHash();
  // (a design read from IndexedDB: another entry may have been stepped to meanwhile)
  if (location.hash !== at) return;
  openDesign({ entry: entry.entry, edited: entry.edited });
  renderHeatControls();
  if (`${state.windows} ${state.sampleSize} ${docText()}` !== ran) return changed({ now: true, replaced: true });
  renderEditor(true);
  // the table the entry's heatmap drew (the data table or an index's own)
  if (state.report) showTable(state.heat.table);
  if (state.shown) renderHeatmap();
  redrawCompare();
}
/** Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y; ⌘ on a Mac) outside a text box: undo and redo, through the
 * page's history entries. A text box keeps its own undo. */
function undoKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k !== 'z' && k !== 'y') return;
  const t = e.target;
  if (t.closest?.('input, textarea, select, [contenteditable="true"]')) return;
  e.preventDefault();
  if (k === 'y' || e.shiftKey) redo();
  else undo();
}

export async function startLab() {
  await openHash();
  compareWhenDone(state.compare.length > 0);
  monthsFromLink();
  renderHeatControls();
  renderEditor();
  // The first run: boot.js's, when it is the same run; else one starts at once (no debounce).
  const first = adoptFirstRun();
  let preview = Promise.resolve();
  if (first && sameRun(first.request) && !(typeof state.doc?.key === 'string' && !parseTyped())) {
    runStarted();
    preview = previewHere(adoptRun(first), onRunEvent, {
      doc: state.doc,
      windows: state.windows,
      shown: () => state.shown,
    });
  } else {
    dropFirstRun(first);
    changed({ now: true });
  }
  // After the first run starts: the user's next change hides it.
  showLinkProblem();
  // The menus and the controls are not needed to draw the preview: they come right after it.
  preview.then(wireLab);
}

function wireLab() {
  saveState({ replace: true });
  keepSoon();
  whenCommitted(keepNow);
  // a text box left: what was typed in it is committed
  $('lab').addEventListener('focusout', e => {
    if (e.target.matches?.('input, textarea, [contenteditable="true"]')) commit();
  });
  // Back and Forward to one of the page's entries; any other change of the hash is a link
  // opened in this tab (the browser's entry: history.state is not the page's)
  window.addEventListener('popstate', e => {
    if (Number.isSafeInteger(e.state?.lab)) stepTo(e.state);
  });
  window.addEventListener('hashchange', () => {
    if (!Number.isSafeInteger(history.state?.lab)) openLink();
  });
  document.addEventListener('keydown', undoKey);
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  renderSteps();
  // a reload, a closed tab, a link followed: what the last second changed is kept too
  window.addEventListener('pagehide', keepNow);
  setCompareChoices({ presets: presetChoices() });
  wirePresets(() => {
    $('compare-h').scrollIntoView();
    if (runUnderWay()) compareWhenDone(true);
    else compare();
  });
  renderPreset();
  let parseTimer = 0;
  $('key-text').addEventListener('input', e => {
    clearTimeout(parseTimer);
    parseTimer = setTimeout(() => {
      if (parseTyped()) showError(null);
    }, 120);
    editDesign({ ...state.doc, key: e.target.value });
  });
  let checkTimer = 0;
  $('doc-json').addEventListener('input', e => {
    let doc;
    try {
      doc = JSON.parse(e.target.value);
    } catch {
      // kept as typed (Recent designs), its error shown once the typing pauses
      setDraft(e.target.value);
      keepSoon();
      clearTimeout(checkTimer);
      checkTimer = setTimeout(checkTyped, 120);
      return;
    }
    setDraft(null);
    clearTimeout(checkTimer);
    editDesign(doc);
  });
  $('doc-json').addEventListener('paste', pasteDesign);
  // the options as typed (empty: the engine's default); a value out of range is the engine's
  // error, on the control
  for (const id of ['windows', 'sample-size'])
    $(id).addEventListener('input', ({ target: t }) => setOptions({ [t.dataset.option]: typedOption(t) }));
  $('scale').addEventListener('change', e => {
    setView({ scale: e.target.value });
    if (state.shown) renderHeatmap();
    redrawCompare();
  });
  $('cancel').addEventListener('click', cancel);
  // the skip link moves focus, never the hash (the hash is the design)
  $('skip').addEventListener('click', e => {
    e.preventDefault();
    $('results-nav').focus();
  });
  // and the page's last link back to its first controls (the preset, Copy link): a keyboard at
  // the end of the page need not walk every stop again
  $('to-top').addEventListener('click', e => {
    e.preventDefault();
    scrollTo(0, 0);
    $('preset').focus({ preventScroll: true });
  });
  $('compare-run').addEventListener('click', e => {
    comparePressed(e.currentTarget);
    compare();
  });
  // the shell commands' names; the scan commands name the table too
  for (const [id, key] of [
    ['split-table', 'table'],
    ['split-family', 'family'],
  ]) {
    $(id).value = state.shell[key];
    $(id).addEventListener('input', e => {
      setShell({ [key]: e.target.value });
      if (state.doc) renderSplits();
      renderScanCommands();
    });
  }
  const schema = wasm.designSchema();
  firstResult
    .then(() => {
      useFastEngine();
      return mountKeyEditor(schema.functions, schema.phoenixTypes);
    })
    .catch(e => console.error('key editor:', e));
  wireForms(
    schema,
    editDesign,
    text => wasm.parseKey(text),
    // a field renamed in the forms is renamed in the key, the reads and the examples too;
    // a key kept as text stays text
    (doc, from, to) => {
      const next = wasm.renameField(doc, from, to);
      if (typeof doc.key === 'string') next.key = wasm.formatKey(next.key);
      return next;
    },
  );
  renderForms();
  renderOptions();
  // the results' sections, one press away (buttons, not #links: the hash holds the design)
  $('results-nav').addEventListener('click', e => {
    const to = e.target.closest('button[data-to]')?.dataset.to;
    const h = to && $(to);
    if (!h) return;
    h.scrollIntoView({ block: 'start' });
    h.setAttribute('tabindex', '-1');
    h.focus({ preventScroll: true });
  });
  wireHeatmap();
  wireCompare();
  wireIo();
  // a design made by the user's action: a candidate loaded, a Phoenix table (its JSON text
  // written by the worker that read it), the design on a table's regions
  const useDesign = (doc, text) => replaceDesign(doc, { text });
  wireAdvice(useDesign, compareWith);
  wireMonths();
  wirePhoenix(useDesign);
  wireTableRegions(useDesign, compareWith);
  // the region plan's "Use N regions": the design's pre-split made that one
  wireSplits(
    presplit => editDesign({ ...state.doc, regions: { ...state.doc.regions, presplit } }),
    sizes => {
      const { regions } = state.doc;
      const autoSplit = { ...regions.autoSplit, config: { ...regions.autoSplit?.config, ...sizes } };
      editDesign({ ...state.doc, regions: { ...regions, autoSplit } });
    },
  );
}

/** Is boot.js's first request the run this page wants now? */
function sameRun(req) {
  const opts = { windows: state.windows, sampleSize: state.sampleSize };
  if (JSON.stringify(req.options) !== JSON.stringify(opts)) return false;
  // without `d=` in the hash the page's design is the preset's, as in the worker
  return req.doc
    ? JSON.stringify(req.doc) === JSON.stringify(state.doc)
    : (req.presetId ?? DEFAULT_PRESET) === state.presetId;
}
