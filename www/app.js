// The key design lab: one state object (the design document and the view settings), rendered
// from it, saved in the URL hash (url-state.js). Heavy runs happen in worker.js; this thread only
// draws. The first run was started by boot.js before this module loaded; it is adopted here.
// Every key and every piece of design text is rendered with textContent, never as HTML.
// The shared state is in lab-state.js; the heatmap view in heatmap-view.js, the other result
// views in results.js, the compared designs in compare-view.js, the table-regions box in
// table-regions.js. This module has the editor, the worker runs (a comparison's too), state in
// and out (state-io.js) and the start-up.

import { adviceOnDesign, wireAdvice } from './advice-view.js';
import { adoptFirstRun } from './boot.js';
import {
  compareChoices,
  redrawCompare,
  renderCompare,
  setCompareChoices,
  setComparePicks,
  wireCompare,
} from './compare-view.js';
import { markFormError, renderForms, wireForms } from './design-form.js';
import { adoptRun, cancelRun, currentRun, dropFirstRun, startRun, useFastEngine, wireRuns } from './engine/runs.js';
import { drawMatrix } from './heatmap.js';
import { renderHeatControls, renderHeatmap, shownMatrix, wireHeatmap } from './heatmap-view.js';
import {
  focusKeyAt,
  KEY_HERE_MAX,
  keyChecksHere,
  keyEditorFocused,
  mountKeyEditor,
  renderChips,
  showKeyError,
  syncKeyEditor,
} from './key-editor.js';
import { toHex } from './keys-view.js';
import {
  $,
  clip,
  commit,
  docText,
  el,
  knownText,
  lineWithCaret,
  loadState,
  markLinkEntry,
  num,
  offsetOf,
  redo,
  saveState,
  state,
  steppedTo,
  undo,
  whenCommitted,
} from './lab-state.js';
import { renderPhoenix, wirePhoenix } from './phoenix-box.js';
import { getPreset, listPresets } from './pkg/presets.js';
import * as wasm from './pkg/rowkey_lab.js';
import {
  renderDiagnosis,
  renderKeys,
  renderLargestRows,
  renderMetrics,
  renderReads,
  renderScanCommands,
  renderSplits,
} from './results.js';
import {
  BOX_MAX,
  canvasPng,
  checkRecent,
  copyText,
  DESIGN_MAX,
  download,
  forgetDamaged,
  keep,
  markDamaged,
  metricsCsv,
  newEntryId,
  RECENT_STORED_MAX,
  readOff,
  recentDamage,
  recentList,
  recentText,
  sizeText,
  sweepStored,
} from './state-io.js';
import { renderTableLoad, wireTableRegions } from './table-regions.js';
import { clampInt, DEFAULT_PRESET } from './url-state.js';

const keyTexts = new WeakMap();
/** The key design in its readable text form (the JSON form only if it cannot be formatted);
 * formatted once per key object (the editors are drawn again at every change). */
function keyAsText(k) {
  if (typeof k === 'string' || !k || typeof k !== 'object') return k;
  if (!keyTexts.has(k)) {
    let text;
    try {
      text = wasm.formatKey(k);
    } catch {
      text = JSON.stringify(k);
    }
    keyTexts.set(k, text);
  }
  return keyTexts.get(k);
}

// ---- runs --------------------------------------------------------------------------------
// The worker, the run's number and cancel are engine/runs.js's; here, what the page shows of them.
let runStart = 'rowkey-lab:boot';
function progress(done, total) {
  $('progress').value = total ? done / total : 0;
  $('run-status').textContent = `${num(done)} of ${num(total)} records`;
}
/** An event of the current run: progress, a preview, the key's layout. */
function onRunEvent(event, data) {
  if (event === 'progress') {
    progress(data.done, data.total);
  } else if (event === 'preview') {
    progress(data.done, data.total);
    // Only while the page has no result to show: a preview never replaces a finished run's view.
    if (state.report) return;
    state.shown = data.report;
    state.pending = { done: data.done, total: data.total };
    renderPreview();
  } else if (event === 'layout') {
    renderChips(data);
  }
}
/** The current run's answer: an analysis's report, or a comparison. */
function onRunResult(id, name, r) {
  if (name === 'compare') {
    endRun('');
    renderCompare(r);
    return;
  }
  performance.mark('rowkey-lab:report-received');
  // every run's analysis time, from its start to its report, for any benchmark to read
  // (the first run, boot.js's, started with the page)
  performance.measure('rowkey-lab:analysis', runStart, 'rowkey-lab:report-received');
  Object.assign(state, { report: r.report, shown: r.report, pending: null, reads: r.reads, readsError: r.readsError });
  if (state.heat.keys && state.heat.keys[1] > r.report.regions.length) state.heat.keys = null;
  if (state.heat.zoom && state.heat.zoom[1] > r.report.matrix.cols) {
    state.heat.zoom = null;
    saveState({ replace: true });
  }
  renderResults(id);
}
/** The linter's findings on the design the current analysis ran. */
function onLint(findings) {
  state.lint = findings;
  showExamples(findings.filter(f => f.rule === 'example-key'));
  // the metrics drawn while the findings were on their way: drawn again with them
  if ($('metrics').dataset.lint === 'pending') renderMetrics();
}
wireRuns({
  event: onRunEvent,
  result: onRunResult,
  failed(error) {
    endRun(STALE(), 'error');
    showError(error);
  },
  lint: onLint,
  warmArgs: () =>
    state.doc ? { text: docText(), options: { windows: state.windows, sampleSize: state.sampleSize } } : null,
});
/** What the status says when a design cannot run while an older result is still on show. */
const STALE = () => (state.report ? 'Not run; the results below (dimmed) are from the last design that ran.' : '');
function setRun(v) {
  $('lab').dataset.run = v;
}
/** Engine call `name` with `args` as the page's run. */
function run(name, args) {
  performance.mark('rowkey-lab:run-start');
  runStart = 'rowkey-lab:run-start';
  setRun('running');
  startRun(name, args);
  $('cancel').disabled = false;
  $('progress').value = 0;
  $('run-status').textContent = 'Analyzing…';
}
let firstDone;
/** Resolves when the first run has ended (its result drawn, or an error, or a cancel). */
export const firstResult = new Promise(resolve => {
  firstDone = resolve;
});
/** A link asked for a comparison (`cmp=`): it runs when the link's design has its result. */
let compareNext = false;
function endRun(text, run = 'done') {
  keepNow(); // whatever the run did, the design it ran is under Recent designs now
  setRun(run);
  if (run === 'done') performance.mark('rowkey-lab:result-drawn');
  // a task later: after the first run, the workers move to the speed build first
  if (compareNext && run === 'done') setTimeout(compareFromLink, 0);
  compareNext = false;
  firstDone();
  $('cancel').disabled = true;
  $('progress').value = 1;
  $('run-status').textContent = text;
}
function cancel() {
  firstDone(); // a cancelled first run is over too (the key editor waits for it)
  compareNext = false;
  keepNow();
  cancelRun();
  $('cancel').disabled = true;
  setRun('cancelled');
  $('progress').value = 0;
  $('run-status').textContent = 'Cancelled.';
}

// ---- editor ------------------------------------------------------------------------------
function showError(e) {
  markFormError(e);
  const box = $('design-error');
  for (const id of ['key-text', 'doc-json']) $(id).removeAttribute('aria-invalid');
  $('goto-error').hidden = true;
  if (!e) {
    showKeyError(null);
    box.hidden = true;
    box.textContent = '';
    return;
  }
  // The text the line and column count in: the design document as the JSON editor holds it
  // (e.in), or the key text (errors under /key).
  const where = e.in ?? (String(e.path ?? '').startsWith('/key') ? 'key-text' : null);
  const located = e.line && e.column && where;
  // With the caret drawn below, the reason is enough (the message's own "(line …, column …)"
  // would say it twice); engine messages often start with the JSON path: name it only once.
  const msg = clip(located && e.reason ? e.reason : e.message);
  let text = e.path && !msg.includes(e.path) ? `${msg} (at ${e.path})` : msg;
  const inKey = located && where === 'key-text';
  // the key editor underlines the spot itself: the box then names the line and column only
  const underlined = inKey && showKeyError(text, offsetOf($(where).value, e.line, e.column));
  if (!inKey) showKeyError(null);
  if (located) {
    const source = $(where).value;
    text += underlined
      ? ` (line ${e.line}, column ${e.column}, underlined in the key)`
      : `\nline ${e.line}, column ${e.column}:\n${lineWithCaret(source, e.line, e.column)}`;
    $(where).setAttribute('aria-invalid', 'true');
    const go = $('goto-error');
    go.hidden = false;
    go.onclick = () => {
      const at = offsetOf(source, e.line, e.column);
      if (inKey && focusKeyAt(at)) return;
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

/** The JSON editor's text as typed, when it does not parse: the engine's error at its line and
 * column (the design that runs is checked in the worker, see worker.js's designOf). */
function checkTyped() {
  try {
    wasm.validateDesign($('doc-json').value);
  } catch (e) {
    setRun('error');
    $('run-status').textContent = STALE();
    showError({ message: e.message, reason: e.reason, line: e.line, column: e.column, path: e.path, in: 'doc-json' });
  }
}

/** Parse the key text as it is typed; a parse error is shown at its line and column and the
 * (slower) analysis is not started. Returns true when the text parses. */
function parseTyped() {
  const text = $('key-text').value;
  if (!keyChecksHere(text)) return true; // the run checks it, in its worker
  try {
    wasm.parseKey(text);
  } catch (e) {
    setRun('error');
    $('run-status').textContent = STALE();
    showError({ message: e.reason ?? e.message, line: e.line, column: e.column, path: '/key' });
    return false;
  }
  return true;
}

// Does the JSON editor hold the design on show (the one that runs)? Not when the design is
// longer than a text box holds (BOX_MAX): the editor then says so instead.
let jsonShown = true;
/** The editors from the state; a box the user is typing in keeps its text, unless the design was
 * `replaced` (another design took its place: the box shows it wherever the cursor was). */
function renderEditor(replaced = false) {
  const typing = id => !replaced && (document.activeElement === $(id) || (id === 'key-text' && keyEditorFocused()));
  if (!typing('key-text')) {
    $('key-text').value = keyAsText(state.doc?.key);
    syncKeyEditor();
  }
  renderLayout();
  if (!typing('doc-json')) {
    // the text typed there that did not parse goes to Recent designs before it is replaced
    if (draft !== null) branch();
    const text = docText();
    jsonShown = text.length <= BOX_MAX;
    // (assigned only when it differs: a new value lays the text out again)
    const json = jsonShown ? JSON.stringify(state.doc, null, 2) : '';
    if ($('doc-json').value !== json) $('doc-json').value = json;
    $('doc-json').readOnly = !jsonShown;
    $('json-note').hidden = jsonShown;
    $('json-note').textContent = jsonShown
      ? ''
      : `This design's JSON is ${sizeText(text.length)}, longer than the editor here shows (${sizeText(BOX_MAX)}): the page would stall drawing it. Export the JSON to edit it elsewhere, then import it again; the row key above stays editable.`;
  }
  renderForms();
  renderKeyNote();
  $('preset').value = state.presetId;
  if (!typing('windows')) $('windows').value = String(state.windows);
  if (!typing('sample-size')) $('sample-size').value = String(state.sampleSize);
}

/** The key's byte layout under the editor (kept as it was while the design does not compile);
 * a key too long to lay out here is laid out by the run's worker (its message 'layout'). */
function renderLayout() {
  if (!keyChecksHere(state.doc?.key)) return renderChips(null);
  try {
    renderChips(wasm.keyLayout(state.doc) ?? []);
  } catch {
    renderChips(null); // the error is shown where it is
  }
}

/** Says when the key is too long to be checked as it is typed (see KEY_HERE_MAX). */
function renderKeyNote() {
  const key = state.doc?.key;
  const note = $('key-note');
  const here = keyChecksHere(key);
  note.hidden = here;
  note.textContent = here
    ? ''
    : `This key is ${sizeText(typeof key === 'string' ? key.length : JSON.stringify(key).length)}, longer than the page checks as you type (${sizeText(KEY_HERE_MAX)}): it is checked, and its bytes laid out, in the worker when it runs, a moment after you stop typing.`;
}

/** The design on show is the user's own from now on: edited (typed, a form), or made by the
 * user's action (an import, a Phoenix table, a candidate, a table's regions). Recent designs
 * keep such a design before any preset or link opened as it was. */
function own() {
  state.presetId = '';
  state.edited = true;
}

let debounce = 0;
/** The state changed: saved, drawn, and run after a pause (at once when `now`); `replaced` when
 * another design took the place of the one on show (see renderEditor). */
function changed(now = false, replaced = false) {
  $('link-notice').hidden = true; // the user has moved on from the link they opened
  setRun('pending');
  saveState();
  // a whole design put on the page is a committed change (a history entry) at once; edits are
  // committed a moment after the typing pauses, or when the box is left (Recent designs then
  // keep them: see lab-state.js)
  if (replaced) commit();
  renderEditor(replaced);
  adviceOnDesign();
  clearTimeout(debounce);
  if (now) analyze();
  else debounce = setTimeout(analyze, 300);
}

/** The design's examples whose recorded row key this key no longer writes (the linter's
 * `example-key` findings, `moved`, which the worker posts before a run), named under the key
 * editor as it is typed: such a change leaves the rows already stored under the old keys out
 * of reach, which the heatmap cannot show. */
function showExamples(moved) {
  const box = $('examples-note');
  box.replaceChildren();
  box.hidden = !moved.length;
  if (!moved.length) return;
  const recorded = (state.doc.examples ?? []).filter(ex => ex.key != null || ex.keyBinary != null).length;
  const what = `${moved.length} of the design's ${recorded} example${recorded === 1 ? '' : 's'}`;
  const list = el('details');
  list.append(el('summary', 'which, and what the key writes now'));
  const ul = el('ul');
  for (const f of moved) ul.append(el('li', f.message.replace(/; rows stored under .*$/, '')));
  list.append(ul);
  const rewrite = el('button', 'Write the new keys into the examples', { type: 'button' });
  rewrite.onclick = rewriteExamples;
  box.append(
    el('strong', `This key writes other bytes for ${what}.`),
    el(
      'span',
      ' Rows already stored under their keys would be out of reach of its gets and scans: a deliberate change needs the table rewritten, and the examples updated. ',
    ),
    rewrite,
    list,
  );
}

/** The key change is deliberate: every example that records a key gets the one this design
 * writes (`key` in hex, `keyBinary` as toStringBinary, whichever it had), so the exported design
 * passes `rowkey-lab check`. A record the design cannot write keeps its key and stays named;
 * the design before is under Recent designs. */
function rewriteExamples() {
  const doc = state.doc;
  const examples = (doc.examples ?? []).map(ex => {
    if (ex.key == null && ex.keyBinary == null) return ex;
    let k;
    try {
      k = wasm.encodeKey(doc, ex.record);
    } catch {
      return ex;
    }
    return {
      ...ex,
      ...(ex.key != null ? { key: toHex(k) } : {}),
      ...(ex.keyBinary != null ? { keyBinary: wasm.toStringBinary(k) } : {}),
    };
  });
  branch();
  state.doc = { ...doc, examples };
  own();
  changed(true, true);
}

function analyze() {
  if (typeof state.doc?.key === 'string' && !parseTyped()) return;
  showError(null);
  // The design as JSON text (a copy of a string costs the page less than one of the object),
  // and as the JSON editor holds it when it does, for errors at its lines.
  const text = docText(),
    editorText = jsonShown ? $('doc-json').value : null;
  state.lint = null; // asked for after the report
  // a preview of the first records only while nothing else is shown
  run('analyze', {
    preview: !state.report,
    // a key too long to lay out here (renderLayout): the worker posts its layout first
    layout: !keyChecksHere(state.doc.key),
    text,
    editorText,
    options: { windows: state.windows, sampleSize: state.sampleSize },
  });
}

// ---- results -------------------------------------------------------------------------------
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
    for (const view of [
      renderMetrics,
      renderLargestRows,
      renderReads,
      renderKeys,
      renderSplits,
      renderTableLoad,
      renderPhoenix,
    ]) {
      if (id !== currentRun() || state.report !== r) return;
      view();
      await nextTask();
    }
    if (id === currentRun() && state.report === r) endRun('');
  };
  if (previewed) nextTask().then(rest);
  else requestAnimationFrame(() => setTimeout(rest, 0));
}

// ---- compare -------------------------------------------------------------------------------
// The picker's values: a preset's id, or RECENT and a Recent designs entry's id.
const RECENT = 'recent:';
/** Recent designs the picker offers: every one that parses, but the design on show. */
const recentChoices = () =>
  recentList()
    .filter(r => !r.draft && r.id !== state.entry)
    .map(r => ({ value: `${RECENT}${r.id}`, label: r.label }));
/** The design a picker value names (null when a Recent design has gone meanwhile, or cannot be
 * read: it is then left out of Recent designs, and the note says so). */
async function chosenDoc(value) {
  if (!value.startsWith(RECENT)) return getPreset(value);
  const r = recentList().find(x => x.id === value.slice(RECENT.length));
  if (!r) return null;
  try {
    return JSON.parse((await recentText(r)).text);
  } catch {
    markDamaged(r.id);
    renderRecent();
    return null;
  }
}
async function compare() {
  // the link says what was compared: a reload, or the link sent, compares them again
  state.compare = compareChoices();
  saveState();
  const doc = state.doc;
  const others = (await Promise.all(state.compare.map(chosenDoc))).filter(Boolean);
  // (a Recent design read from IndexedDB: the design on show may have changed meanwhile)
  if (others.length && state.doc === doc) compareWith(...others);
}
/** The comparison a link asks for (`cmp=`), run once the design's own result is drawn. */
function compareFromLink() {
  if (!state.compare.length || state.embed) return;
  state.compare = setComparePicks(state.compare);
  if (state.compare.length) compare();
  else saveState();
}
/** The design side by side with 1–3 `others` on one workload (the design's) and one colour scale. */
function compareWith(...others) {
  const docs = [state.doc, ...others];
  run('compare', { docs, options: { windows: state.windows } });
}
// ---- Recent designs --------------------------------------------------------------------------
// The design on the page is one entry under Recent designs (state.entry), written a moment after
// each change whatever its run does (still running, failed, cancelled), at once when its run
// ends, and before another design takes its place (a preset, an import, a link, a recent
// design, the table's regions) or the page goes away: switching designs loses nothing. An entry
// records whether the user edited the design (state.edited): presets and links opened as they
// were make room for those first (state-io.js keep).
const KEEP_AFTER_MS = 1000;
let draft = null, // the JSON editor's text while it does not parse, kept as typed
  keepTimer = 0,
  lastKept = '',
  keptNote = { entry: '', text: '' }; // what the keep note says, and of which design
function keepSoon() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(keepNow, KEEP_AFTER_MS);
}
function keepNow() {
  clearTimeout(keepTimer);
  if (!state.doc) return;
  const text = draft ?? docText();
  // the name and the key: edits of one design tell apart by their keys
  const key = String(keyAsText(state.doc.key) ?? '');
  const label =
    [state.doc.name, key.length > 60 ? `${key.slice(0, 59)}…` : key].filter(Boolean).join(' · ') || 'design';
  const entry = {
    id: state.entry,
    at: Date.now(),
    presetId: state.presetId,
    label: draft === null ? label : `${label} (unfinished JSON)`,
    edited: state.edited || draft !== null,
    text,
    draft: draft !== null,
    // with a draft, the last design that parsed too: the draft is kept, and so is what it was
    ...(draft === null ? {} : { base: docText() }),
  };
  const same = `${entry.id}\n${entry.presetId}\n${entry.edited}\n${entry.label}\n${text}`;
  if (same === lastKept) return;
  const { why, stored } = keep(entry);
  lastKept = why && !why.evicted ? '' : same;
  renderKept(why, entry.id);
  renderRecent();
  stored?.then(refused => {
    if (!refused) return;
    if (lastKept === same) lastKept = '';
    renderKept(refused, entry.id);
  });
}
/** Another design takes this one's place: this one is kept as it is, the next go to a new entry. */
function branch() {
  keepNow();
  draft = null;
  state.entry = newEntryId();
  state.edited = false;
  // the comparison was this design's: the next one has none until it is compared
  state.compare = [];
}
const quoted = r => `“${r.label}” (${new Date(r.at).toLocaleString('en')})`;
/** Says when the design could not be kept under Recent designs, and why, or which designs the
 * user edited it made room for: that note stays while this design (`entry`) is on show. */
function renderKept(why, entry) {
  const note = $('keep-note');
  let text = '';
  if (why?.tooLarge)
    text = `This design's JSON is ${sizeText(why.tooLarge)}, more than Recent designs keep (${sizeText(RECENT_STORED_MAX)}): export the JSON to keep it.`;
  else if (why?.refused)
    text = `Recent designs could not be saved (the browser refused: ${why.refused}): export the JSON to keep this design.`;
  else if (why?.evicted) {
    const n = why.evicted.length;
    text = `Recent designs were full: to keep this design, ${n === 1 ? 'the oldest one you edited' : `the ${n} oldest ones you edited`}, ${why.evicted.map(quoted).join(', ')}, ${n === 1 ? 'is' : 'are'} no longer among them. Export a design's JSON to keep it for good.`;
  } else if (keptNote.entry === entry && keptNote.text.startsWith('Recent designs were full')) return;
  keptNote = { entry, text };
  note.hidden = !text;
  note.textContent = text;
}
/** Says which entries of Recent designs could not be read, and are left out; offers to forget them. */
function renderDamage() {
  const { entries, list } = recentDamage();
  const note = $('recent-note');
  note.hidden = !entries && !list;
  if (note.hidden) return note.replaceChildren();
  const forget = el('button', entries + (list ? 1 : 0) === 1 ? 'Forget it' : 'Forget them', {
    type: 'button',
    id: 'recent-forget',
  });
  forget.onclick = () => {
    forgetDamaged();
    renderRecent();
  };
  const what = [
    list
      ? 'The list of Recent designs in this browser’s storage could not be read: it is set aside, and designs from now on are kept again.'
      : '',
    entries
      ? `${entries === 1 ? 'One design' : `${entries} designs`} under Recent designs could not be read (damaged in this browser’s storage, or written by another version of the page) and ${entries === 1 ? 'is' : 'are'} left out.`
      : '',
  ];
  note.replaceChildren(what.filter(Boolean).join(' '), ' ', forget);
}
function renderRecent() {
  const sel = $('recent');
  const list = recentList();
  setCompareChoices({ recent: recentChoices() });
  sel.replaceChildren(
    el('option', list.length ? `(${list.length} recent)` : '(none yet)', { value: '' }),
    ...list.map((r, i) =>
      el('option', `${r.label} — ${new Date(r.at).toLocaleString('en')}`, {
        value: String(i),
      }),
    ),
  );
  renderDamage();
}
/** A recent design back on the page. One that did not parse goes back into the JSON editor as
 * it was typed, over the last design of it that did (which does not run until the text parses).
 * One kept in IndexedDB is read first; one that cannot be read is left out, with a note. */
async function openRecent(r) {
  const on = state.entry;
  let got;
  try {
    got = await recentText(r);
    if (!isDesignText(r.draft ? got.base : got.text)) throw new Error('not a design');
  } catch {
    markDamaged(r.id);
    renderRecent();
    return;
  }
  // (read from IndexedDB: another design may have been opened meanwhile, and stays)
  if (state.entry !== on) return;
  if (r.id !== state.entry) branch();
  draft = null;
  state.entry = r.id;
  state.presetId = r.presetId ?? '';
  state.edited = r.edited;
  const text = r.draft ? got.base : got.text;
  state.doc = JSON.parse(text);
  knownText(state.doc, text);
  if (!r.draft) return changed(false, true);
  saveState();
  renderEditor(true);
  adviceOnDesign();
  $('json-box').open = true;
  $('doc-json').value = got.text;
  draft = got.text;
  checkTyped();
}
/** Is `text` a design's JSON (an object)? */
function isDesignText(text) {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

// ---- state in and out -----------------------------------------------------------------------
function ioStatus(text, error = false) {
  $('io-status').textContent = text;
  $('io-status').classList.toggle('error', error);
}
let reading = null;
/** A design file (picked or dropped) opened: its size checked first, without reading it; then
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
  branch();
  state.doc = got.doc;
  knownText(got.doc, got.text);
  own();
  ioStatus(`Imported ${file.name}.`);
  changed(false, true);
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
function pasteDesign(e) {
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

function wireIo() {
  renderRecent();
  $('recent').addEventListener('change', () => {
    const r = recentList()[Number($('recent').value)];
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
    ioStatus(ok ? 'Link copied.' : 'Copy the link below.');
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
    if (f) importDesign(f);
  });
  // A file dropped on the page is a design to import (on the table-regions box: the table's
  // regions, see table-regions.js), never a page the browser opens in place of this one.
  document.addEventListener('dragover', e => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', e => {
    const f = e.dataTransfer?.files[0];
    if (!f || e.defaultPrevented) return;
    e.preventDefault();
    importDesign(f);
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

// ---- start ---------------------------------------------------------------------------------
function loadPreset(id, now = false) {
  branch();
  state.doc = getPreset(id);
  state.presetId = id;
  changed(now, true);
}

/** The design the hash names: its own (`d=`), else its entry under Recent designs (`k=`, a design
 * too large for a link; read from IndexedDB when it is kept there), else its preset (`p=`),
 * else the default preset. A link that cannot be opened says why in state.linkProblem. */
async function openHash() {
  state.entry = newEntryId();
  state.edited = false;
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
      state.doc = JSON.parse(text);
      knownText(state.doc, text);
      state.entry = r.id;
      state.presetId = r.presetId ?? '';
      state.edited = r.edited;
      return;
    }
    if (r) markDamaged(r.id);
    state.linkProblem ??= r
      ? "This link's design is under Recent designs in this browser, but its entry there could not be read (it is damaged)"
      : "This link's design was too large for a link, and it is not under Recent designs in this browser";
  }
  let id = state.presetId || DEFAULT_PRESET;
  try {
    state.doc = getPreset(id);
  } catch {
    state.linkProblem ??= `This link names a preset that does not exist (${id})`;
    id = DEFAULT_PRESET;
    state.doc = getPreset(id);
  }
  state.presetId = id;
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
  compareNext = state.compare.length > 0;
  renderHeatControls();
  markLinkEntry();
  changed(true, true);
  showLinkProblem();
}

/** Back, Forward, undo or redo stepped to one of the page's history entries: its state, from
 * its hash, on the page; the design's analysis runs again only when the design or its options
 * differ from those on show. */
async function stepTo(entry) {
  keepNow();
  steppedTo(entry);
  draft = null;
  const ran = `${state.windows} ${state.sampleSize} ${docText()}`;
  const at = location.hash;
  await openHash();
  // (a design read from IndexedDB: another entry may have been stepped to meanwhile)
  if (location.hash !== at) return;
  state.entry = entry.entry ?? state.entry;
  state.edited = entry.edited ?? state.edited;
  renderHeatControls();
  if (`${state.windows} ${state.sampleSize} ${docText()}` !== ran) return changed(true, true);
  renderEditor(true);
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
  compareNext = state.compare.length > 0;
  renderHeatControls();
  renderEditor();
  // The first run: boot.js's, when it is the same run; else one starts at once (no debounce).
  const first = adoptFirstRun();
  let preview = Promise.resolve();
  if (first && sameRun(first.request) && !(typeof state.doc?.key === 'string' && !parseTyped())) {
    setRun('running');
    $('cancel').disabled = false;
    $('run-status').textContent = 'Analyzing…';
    preview = previewHere(adoptRun(first));
  } else {
    dropFirstRun(first);
    changed(true);
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
  // a reload, a closed tab, a link followed: what the last second changed is kept too
  window.addEventListener('pagehide', keepNow);
  for (const p of listPresets()) {
    $('preset').append(el('option', p.name ?? p.id, { value: p.id }));
  }
  setCompareChoices({ presets: listPresets().map(p => ({ value: p.id, label: p.name ?? p.id })) });
  $('preset').value = state.presetId;
  $('preset').addEventListener('change', () => {
    if ($('preset').value) loadPreset($('preset').value);
  });
  let parseTimer = 0;
  $('key-text').addEventListener('input', () => {
    state.doc = { ...state.doc, key: $('key-text').value };
    own();
    clearTimeout(parseTimer);
    parseTimer = setTimeout(() => {
      if (parseTyped()) showError(null);
    }, 120);
    changed();
  });
  let checkTimer = 0;
  $('doc-json').addEventListener('input', () => {
    try {
      state.doc = JSON.parse($('doc-json').value);
    } catch {
      // kept as typed (Recent designs), its error shown once the typing pauses
      draft = $('doc-json').value;
      keepSoon();
      clearTimeout(checkTimer);
      checkTimer = setTimeout(checkTyped, 120);
      return;
    }
    draft = null;
    clearTimeout(checkTimer);
    own();
    changed();
  });
  $('doc-json').addEventListener('paste', pasteDesign);
  $('windows').addEventListener('input', () => {
    state.windows = Math.min(1024, Math.max(1, Number($('windows').value) || 64));
    changed();
  });
  $('sample-size').addEventListener('input', () => {
    state.sampleSize = clampInt($('sample-size').value, 10, 100000, 1000);
    changed();
  });
  $('scale').addEventListener('change', () => {
    state.heat.scale = $('scale').value;
    saveState();
    if (state.shown) renderHeatmap();
    redrawCompare();
  });
  $('cancel').addEventListener('click', cancel);
  $('compare-run').addEventListener('click', compare);
  for (const id of ['split-table', 'split-family'])
    $(id).addEventListener('input', () => {
      if (state.doc) renderSplits();
    });
  // The scan commands name the table too.
  $('split-table').addEventListener('input', renderScanCommands);
  const schema = wasm.designSchema();
  firstResult
    .then(() => {
      useFastEngine();
      return mountKeyEditor(schema.functions, schema.phoenixTypes);
    })
    .catch(e => console.error('key editor:', e));
  wireForms(
    schema,
    doc => {
      state.doc = doc;
      own();
      changed();
    },
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
  const useDesign = (doc, text) => {
    branch();
    state.doc = doc;
    if (text) knownText(doc, text);
    own();
    changed(true, true);
  };
  wireAdvice(useDesign, compareWith);
  wirePhoenix(useDesign);
  wireTableRegions(useDesign, compareWith);
}

const PREVIEW_SLICE = 2000,
  PREVIEW_BUDGET_MS = 30;
const nextTask = () =>
  globalThis.scheduler?.yield?.() ??
  new Promise(r => {
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
  try {
    s = new wasm.AnalysisSession(state.doc, { windows: state.windows, sampleSize: 10, gridBuckets: 8 });
  } catch {
    return;
  }
  try {
    let p = s.progress();
    const t0 = performance.now();
    while (!p.finished && performance.now() - t0 < PREVIEW_BUDGET_MS) {
      await nextTask();
      if (id !== currentRun() || state.shown) return;
      p = s.step(PREVIEW_SLICE);
    }
    if (p.done === 0) return;
    onRunEvent('preview', { report: s.finish(), done: p.done, total: p.total });
  } catch {
    /* the worker reports the error */
  } finally {
    s.free();
  }
}

/** Is boot.js's first request the run this page wants now? */
function sameRun(req) {
  const opts = { windows: state.windows, sampleSize: state.sampleSize };
  if (JSON.stringify(req.options) !== JSON.stringify(opts)) return false;
  // without `d=` in the hash the page's design is the preset's, as in the worker
  return req.doc ? JSON.stringify(req.doc) === JSON.stringify(state.doc) : req.presetId === state.presetId;
}
