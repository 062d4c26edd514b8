// The key design lab's shared parts: the one state object (the design document, the view
// settings, the run) that every part of the lab renders from and that state/store.js's named
// changes change, its round trip through the URL hash and the history (engine/url-state.js), the
// DOM helpers and the number formatters. Every module imports them from here, so that there is
// one state, not one per module. Every text goes through textContent, never HTML.
import { HEAT_DEFAULTS, LINK_MAX, linkHash, readHash } from '../engine/url-state.js';

export const $ = id => document.getElementById(id);
// `shown` is the report the heatmap draws: the final one, or a preview (the records analyzed so
// far) while the page has nothing else to show; `pending` the progress of the run under way;
// `summary` the metrics as shown (label, value, meaning), which the metrics CSV exports; `lint`
// the linter's findings on the design of the last run;
// `entry` the id of the design's entry under Recent designs (state/io.js), `kept` the one a
// link named (`k=`); `edited` whether the user changed that design (or made it: an import, a
// Phoenix table), not a preset or a link as it was opened; `link` whether the design fits in a
// link (`{ fits, length }`); `run` the run's lifecycle (state/store.js); `steps` the page's
// history entry on show (`at`) and its last (`top`), which Undo and Redo are drawn from; `windows`, `sampleSize`
// the analysis options and `advice` the advisor's (`servers`, `records`) as the user gave them,
// undefined for the engine's default; `shell` the table and column family the shell commands name.
export const state = {
  doc: null,
  entry: '',
  edited: false,
  kept: null,
  link: { fits: true, length: 0 },
  presetId: '',
  windows: undefined,
  sampleSize: undefined,
  advice: {},
  // the Months view's settings (store.js setLife); `open`: Months was opened (the link carries
  // the settings, and opening it simulates them again); `overRows`: false when the user chose
  // the design's generated workload over the rows last analyzed (a link carries no file)
  life: { a: {}, b: {}, compare: false, month: null, open: false, overRows: true },
  // the shell commands' table and family as typed ('': the design's, see results.js shellNames)
  shell: { table: '', family: '' },
  report: null,
  shown: null,
  pending: null,
  reads: [],
  readsError: null,
  summary: [],
  // the linter's findings on the design that ran (null: they follow its report)
  lint: null,
  heat: { ...HEAT_DEFAULTS, cursor: null },
  // the designs last compared with this one (values of compare-view.js's picker), for the link,
  // and those the picker has chosen now
  compare: [],
  picks: [],
  // the compared design whose move the next comparison plans at once (its index; null: none),
  // asked by the advisor's "Move to this design"
  moveTo: null,
  embed: null,
  view: null,
  linkProblem: null,
  steps: { at: 0, top: 0 },
  // a file of the user's rows, when one is open (views/rows-view.js)
  rows: null,
};

export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// ---- the design's JSON text ------------------------------------------------------------------
// The link, Recent designs and the worker all take the design as JSON text: made once per
// design (a large design takes a while to write), or given by whoever already has it.
let written = { doc: null, text: '' };
/** The design `doc` (by default the state's) as JSON text. */
export function docText(doc = state.doc) {
  if (written.doc !== doc) written = { doc, text: JSON.stringify(doc) };
  return written.text;
}
/** `text` is `doc`'s JSON text (a worker wrote it), so docText(doc) need not write it again. */
export function knownText(doc, text) {
  written = { doc, text };
}

// ---- URL state and history --------------------------------------------------------------
// Every change is written to the hash at once (the link always reproduces the view); a
// committed change is a history entry of its own, so Back, Forward and undo/redo step through
// the committed states. The first change after a commit pushes a new entry, the changes after it
// replace that entry, and a commit (COMMIT_AFTER_MS without a change, a text box left, or a
// whole design put on the page) closes it. The page's entries carry `{ lab: n, top, entry,
// edited }` (n counts from the page's first entry, 0; top: the page's last entry while this one
// was on show, so that a reload knows whether there is one to redo; entry and edited: the
// design's Recent designs entry). Only a new entry drops those after it (the browser's rule).
const COMMIT_AFTER_MS = 1000;
let committed = true,
  commitTimer = 0;
if (Number.isSafeInteger(history.state?.lab))
  state.steps = { at: history.state.lab, top: history.state.top ?? history.state.lab };
const onCommit = [];
const mark = () => ({ lab: state.steps.at, top: state.steps.top, entry: state.entry, edited: state.edited });
/** A new entry after the one on show: the last one now. */
const stepOn = () => {
  state.steps.top = ++state.steps.at;
  renderSteps();
};

/** The state into the hash: a new history entry for the first change after a commit (unless
 * `replace`: the hash put right, not changed by the user), else in place of the current one. */
export function saveState({ replace = false } = {}) {
  const base = location.href.slice(0, location.href.length - location.hash.length);
  const { hash, fits, length } = linkHash(state, docText(), base, state.entry);
  // a history call costs a round trip to the browser: only when the hash changes
  if (hash !== location.hash && committed && !replace) {
    stepOn();
    history.pushState(mark(), '', hash);
    committed = false;
  } else if (hash !== location.hash || ['lab', 'entry', 'edited'].some(k => history.state?.[k] !== mark()[k])) {
    history.replaceState(mark(), '', hash);
  }
  if (!committed) {
    clearTimeout(commitTimer);
    commitTimer = setTimeout(commit, COMMIT_AFTER_MS);
  }
  if (fits !== state.link.fits || length !== state.link.length) {
    state.link = { fits, length };
    renderLinkFit();
  }
}
/** The changes since the last commit are one history entry from now on; `then(fn)` hooks run
 * (Recent designs keep the design). */
export function commit() {
  clearTimeout(commitTimer);
  committed = true;
  for (const fn of onCommit) fn();
}
/** `fn` runs at every commit. */
export const whenCommitted = fn => onCommit.push(fn);
/** A history entry the page made was stepped to (Back, Forward, undo, redo): its number, the
 * design's entry and whether the user edited it, as the entry recorded them. */
export function steppedTo(entry) {
  clearTimeout(commitTimer);
  committed = true;
  state.steps.at = entry.lab;
  // (as the entry recorded it, with the page's last entry now)
  history.replaceState({ ...entry, top: state.steps.top }, '', location.hash);
  renderSteps();
}
/** A link opened in this tab (a new entry the browser made): marked as the page's. */
export function markLinkEntry() {
  committed = true;
  stepOn();
  history.replaceState(mark(), '', location.hash);
}
/** Undo: the committed state before, within the page's own entries; redo: the one after. */
export function undo() {
  if (!committed) commit();
  if (state.steps.at > 0) history.back();
}
export function redo() {
  if (state.steps.at < state.steps.top) history.forward();
}
/** Undo and Redo, enabled when there is a committed state before, or after, the one on show. */
export function renderSteps() {
  $('undo').disabled = state.steps.at === 0;
  $('redo').disabled = state.steps.at >= state.steps.top;
}

/** The copy-link control says when the design is too large to share as a link. */
function renderLinkFit() {
  const note = $('link-note');
  if (!note) return;
  note.hidden = state.link.fits;
  note.textContent = `Too large to share as a link (over ${LINK_MAX / 1024} KiB): export the JSON.`;
  if (state.link.fits) $('copy-link').removeAttribute('aria-disabled');
  else $('copy-link').setAttribute('aria-disabled', 'true');
}
/** The hash's settings into `state`; true when it holds a design. */
export function loadState() {
  const h = readHash();
  Object.assign(state, { windows: h.windows, sampleSize: h.sampleSize, embed: h.embed, view: h.view });
  state.heat = { ...h.heat, cursor: null };
  state.compare = h.compare;
  state.life = h.life
    ? { ...h.life, month: null, open: true, overRows: true }
    : { a: {}, b: {}, compare: false, month: null, open: false, overRows: true };
  state.presetId = h.presetId; // without `d=`, the preset to load (`p=`), as boot.js reads it
  state.linkProblem = h.problem;
  state.kept = h.kept;
  if (!h.doc) return false;
  state.doc = h.doc;
  return true;
}

/** `text` shortened to about `max` characters, its start and end kept: a message that quotes a
 * megabyte of what was typed is not laid out whole (the engine shortens its own quotes; this
 * is for any that it does not). */
export function clip(text, max = 1000) {
  const s = String(text);
  if (s.length <= max) return s;
  const half = Math.floor(max / 2);
  return `${s.slice(0, half)}… (${num(s.length - 2 * half)} characters left out) …${s.slice(-half)}`;
}

/** Line `line` of `source` and a caret under `column` (1-based), the line cut to about 120
 * characters around the column when it is longer. */
export function lineWithCaret(source, line, column) {
  let from = 0;
  for (let i = 1; i < line && from <= source.length; i++) {
    const nl = source.indexOf('\n', from);
    from = nl < 0 ? source.length + 1 : nl + 1;
  }
  const end = source.indexOf('\n', from);
  let text = from > source.length ? '' : source.slice(from, end < 0 ? source.length : end);
  let at = Math.max(0, column - 1);
  if (text.length > 120) {
    const start = Math.max(0, Math.min(at - 60, text.length - 120));
    text = `${start > 0 ? '…' : ''}${text.slice(start, start + 120)}${start + 120 < text.length ? '…' : ''}`;
    at = at - start + (start > 0 ? 1 : 0);
  }
  return `${text}\n${' '.repeat(at)}^`;
}

/** The offset in `text` of a 1-based line and column (an engine error's position). */
export function offsetOf(text, line, column) {
  const lines = text.split('\n');
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  return Math.min(text.length, at + column - 1);
}

// ---- formatting ----------------------------------------------------------------------------
/** 1234567 -> "1,234,567" (what toLocaleString('en') gives for counts, without loading Intl's
 * locale data on the first render). */
export const num = n => {
  const [int, frac] = String(Math.round(n * 1000) / 1000).split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
};
export const pct = x => `${(x * 100).toFixed(1)} %`;
/** One of the engine's findings as a sentence: capitalised, with its full stop. */
export const sentence = t => (t ? `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}` : '');
export const fix = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
/** A byte count in binary units: exact when whole (`4 MiB`), else to 2 digits under 10, 1 above
 * (`1.5 GiB`, `359.2 GiB`); under a KiB, `N bytes`. */
export function bytesText(b) {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let u = -1,
    x = Math.round(b);
  if (x < 1024) return `${x} bytes`;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  return `${Number.isInteger(x) ? x : x.toFixed(x < 10 ? 2 : 1)} ${units[u]}`;
}
export const when = ms => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The status when the design cannot run: the results on show (dimmed) are the last design's. */
export const STALE = () =>
  state.report ? 'Not run; the results below (dimmed) are from the last design that ran.' : '';

/** Why a view needing the engine's speed build is off in the single file (scripts/build-single.mjs,
 * which carries the size build alone). */
export const SPEED_ONLY =
  'needs the engine’s speed build, which this single file does not carry: open the served page, or use the CLI';
