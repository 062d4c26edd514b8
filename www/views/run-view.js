// What the page shows of its runs (an analysis, a comparison): the status line, the progress bar
// and Cancel (drawn from `state.run`, see state/store.js), the results drawn view by view once a
// report is in, the linter's findings after it, and the comparisons. The worker, the run's
// number and cancel itself are engine/runs.js's.

import { nextTask } from '../engine/preview.js';
import { cancelRun, currentRun, startRun, wireRuns } from '../engine/runs.js';
import { getPreset } from '../pkg/presets.js';
import { markDamaged, recentList, recentText } from '../state/io.js';
import { $, docText, STALE, state } from '../state/lab-state.js';
import {
  runCancelled,
  runDrawing,
  runEnded,
  runPreviewed,
  runProgress,
  runShown,
  runStarted,
  setCompared,
  setLint,
  setView,
} from '../state/store.js';
import { choiceLabel, compareChoices, compareFailed, renderCompare, setComparePicks } from './compare-view.js';
import { renderWorkloadNote } from './design-form.js';
import { showError, showExamples } from './editor-view.js';
import { renderHeatmap } from './heatmap-view.js';
import { renderChips } from './key-editor.js';
import { renderPhoenix } from './phoenix-box.js';
import { keepAside, keepNow, RECENT, renderRecent } from './recent-view.js';
import {
  metricsAwaitLint,
  renderDiagnosis,
  renderKeys,
  renderLargestRows,
  renderMetrics,
  renderReads,
  renderSplits,
} from './results.js';
import { renderTableLoad } from './table-regions.js';

/** The Phoenix indexes' section, its module loaded only for a design that declares indexes. */
const renderIndexes = () =>
  state.doc?.phoenix?.indexes?.length || !$('indexes').hidden
    ? import('./indexes-view.js').then(m => m.renderIndexes())
    : null;

let runStart = 'rowkey-lab:boot';
/** An event of the current run: progress, a preview, the key's layout. */
export function onRunEvent(event, data) {
  if (event === 'progress') {
    runProgress(data.done, data.total, data.text);
  } else if (event === 'preview') {
    runProgress(data.done, data.total);
    // Only while the page has no result to show: a preview never replaces a finished run's view.
    if (state.report) return;
    runPreviewed(data.report, { done: data.done, total: data.total });
    renderPreview();
  } else if (event === 'layout') {
    renderChips(data);
  }
}
/** The current run's answer: an analysis's report, or a comparison. */
function onRunResult(id, name, r) {
  if (name === 'compare') {
    endRun('');
    renderCompare(r, compareRoles, compareDocs);
    return;
  }
  performance.mark('rowkey-lab:report-received');
  // every run's analysis time, from its start to its report, for any benchmark to read
  // (the first run, boot.js's, started with the page)
  performance.measure('rowkey-lab:analysis', runStart, 'rowkey-lab:report-received');
  // a preview of this run on show (state.pending: its progress) is replaced at once
  const previewed = state.pending !== null;
  runShown(r);
  // a run over the user's rows: their profile and where they came from (views/rows-view.js)
  state.rows?.analyzed(name, r);
  // a zoom beyond this report's windows or regions is let go (the hash put right, no new entry)
  if (state.heat.zoom && state.heat.zoom[1] > r.report.matrix.cols) setView({ zoom: null }, { replace: true });
  renderResults(id, previewed);
}
/** The linter's findings on the design the current analysis ran. */
function onLint(findings) {
  setLint(findings);
  showExamples(findings.filter(f => f.rule === 'example-key'));
  // the metrics drawn while the findings were on their way: drawn again with them
  if (metricsAwaitLint()) renderMetrics();
}
wireRuns({
  event: onRunEvent,
  result: onRunResult,
  failed(error, name) {
    endRun(STALE(), 'error');
    // a comparison that cannot run says why where it was asked for (Compare, the advice's
    // Compare with… and Move to this design, which plans under the comparison)
    if (name === 'compare') return compareFailed(error);
    // an error in the user's rows is shown with them, as the engine wrote it
    if (!state.rows?.failed(error)) showError(error);
  },
  lint: onLint,
  warmArgs: () =>
    state.doc ? { text: docText(), options: { windows: state.windows, sampleSize: state.sampleSize } } : null,
  rowsOpen: () => !!state.rows,
});
/** What the status says when a design cannot run while an older result is still on show. */
/** Engine call `name` with `args` as the page's run. */
export function run(name, args) {
  performance.mark('rowkey-lab:run-start');
  runStart = 'rowkey-lab:run-start';
  startRun(name, args);
  runStarted();
}
let firstDone;
/** Resolves when the first run has ended (its result drawn, or an error, or a cancel). */
export const firstResult = new Promise(resolve => {
  firstDone = resolve;
});
/** A link asked for a comparison (`cmp=`): it runs when the link's design has its result. */
let compareNext = false;
export const compareWhenDone = yes => {
  compareNext = yes;
};
function endRun(text, status = 'done') {
  keepNow(); // whatever the run did, the design it ran is under Recent designs now
  runEnded(text, status);
  if (status === 'done') performance.mark('rowkey-lab:result-drawn');
  // a task later: after the first run, the workers move to the speed build first
  if (compareNext && status === 'done') setTimeout(compareFromLink, 0);
  compareNext = false;
  firstDone();
}
/** Cancel pressed: the run stops (engine/runs.js cancelRun). */
export function cancel() {
  firstDone(); // a cancelled first run is over too (the key editor waits for it)
  compareNext = false;
  keepNow();
  cancelRun();
  runCancelled();
}

// ---- results ---------------------------------------------------------------------------------
/** A preview: the heatmap of the records analyzed so far, the rest of the results hidden. */
function renderPreview() {
  performance.mark('rowkey-lab:preview-drawn');
  $('results').hidden = false;
  $('results').dataset.preview = 'true';
  renderHeatmap();
}

/** The finished run: the diagnosis and the heatmap at once, the views below them in the next
 * task (after the heatmap was painted); the run counts as done when everything is drawn. */
function renderResults(id, previewed) {
  const r = state.report;
  $('results').hidden = false;
  delete $('results').dataset.preview;
  renderDiagnosis(r);
  renderHeatmap();
  renderWorkloadNote();
  runDrawing();
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
      renderIndexes,
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

// ---- comparisons ----------------------------------------------------------------------------
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
/** The designs chosen in the picker, compared with the one on show. */
export async function compare() {
  // the link says what was compared: a reload, or the link sent, compares them again
  setCompared(compareChoices());
  const doc = state.doc;
  const others = (await Promise.all(state.compare.map(chosenDoc))).filter(Boolean);
  // (a Recent design read from IndexedDB: the design on show may have changed meanwhile)
  const roles = state.compare.map((v, i) => (others[i] ? choiceLabel(v) : null)).filter(Boolean);
  if (others.length && state.doc === doc) compareWith(others, ['this design', ...roles], { offered: true });
}
/** The comparison a link asks for (`cmp=`), run once the design's own result is drawn. */
function compareFromLink() {
  if (!state.compare.length || state.embed) return;
  setCompared(setComparePicks(state.compare));
  if (state.compare.length) compare();
}
/** What each design of the comparison under way is to the user ('this design', 'advised', a
 * preset's label), the design on show's first. */
let compareRoles = [];
/** The designs of the comparison under way, the design on show's first. */
let compareDocs = [];
/** The design side by side with 1–3 `others` on one workload (the design's) and one colour
 * scale; `roles` name the design on show and each other (see compareRoles). Others no picker
 * offers (`offered` false: an advised candidate, the design before) are kept under Recent
 * designs, so the link names the comparison whichever way it started. */
export function compareWith(others, roles = [], { offered = false } = {}) {
  const docs = [state.doc, ...others];
  compareDocs = docs;
  compareRoles = docs.map((_, i) => roles[i] ?? (i ? `design ${i + 1}` : 'this design'));
  if (!offered) {
    const ids = others.map((d, i) => keepAside(d, `${compareRoles[i + 1]}: ${d.name ?? 'design'}`));
    if (ids.every(Boolean)) setCompared(setComparePicks(ids.map(id => `${RECENT}${id}`)));
  }
  run('compare', { docs, options: { windows: state.windows } });
}
