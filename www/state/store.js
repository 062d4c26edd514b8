// The page's named changes: the one state (lab-state.js `state`: the design, the view options,
// the run) is changed through these, and what follows a change (saved to the hash, drawn, run)
// is app.js's `changed`, registered with onChanges. The controls are drawn from the state; none
// is read back as state.
import { $, knownText, num, saveState, state } from './lab-state.js';

const hooks = {
  /** Another design is about to take the place of the one on show (Recent designs keep it; the
   * next design's entry is `entry`, or a new one). */
  replacing() {},
  /** The state changed: `{ now, replaced, draft }` (run at once; another design took the place;
   * the JSON editor's text to show over it). */
  changed() {},
};
/** app.js's hooks (see above). */
export const onChanges = h => Object.assign(hooks, h);

// ---- the design -------------------------------------------------------------------------------
/** Another design takes the place of the one on show (a preset, an import, a link, a Recent
 * design, a candidate, a Phoenix table, a table's regions, the examples rewritten). `own`: made
 * by the user's action (else a preset, `presetId`, or `edited` as recorded); `text`: its JSON,
 * when already written; `entry`: its Recent designs entry (a new one when null); `later`: run
 * after the pause an edit gets, not at once; `draft`: the JSON editor's text that does not parse,
 * shown over it (the design does not run until the text parses). */
/** Changes of the design so far: a design that loads while the user goes on (a preset, a Recent
 * design, an imported file) is put on show only if nothing changed the design meanwhile, so the
 * user's last choice is the one on show, whichever loads last. */
let latest = 0;
/** A design to be loaded: `choosing()` before the wait, `stillChosen(t)` after it. */
export const choosing = () => ++latest;
export const stillChosen = t => t === latest;
export function replaceDesign(
  doc,
  { text = null, presetId = '', own = true, edited = own, entry = null, later = false, draft = null } = {},
) {
  latest++;
  hooks.replacing(entry);
  state.doc = doc;
  if (text) knownText(doc, text);
  state.presetId = own ? '' : presetId;
  state.edited = edited;
  hooks.changed({ now: !later, replaced: true, draft });
}
/** The design on show edited (typed, a form): the user's own from now on; it runs after a pause. */
export function editDesign(doc) {
  latest++;
  state.doc = doc;
  state.presetId = '';
  state.edited = true;
  hooks.changed({});
}
/** The fields the design's key reads and does not declare, as the engine declared them from the
 * user's rows (`rowsDesign`'s `inferred`: field, type), put in the design as an edit of it (one
 * the user sees in the form, and undoes): every action then runs on the design on show, as the
 * CLI runs on the design it declared. Fields it declares already are left as they are. */
export function declareFields(inferred) {
  const have = new Set((state.doc.fields ?? []).map(f => f.name));
  const added = inferred.filter(i => !have.has(i.field)).map(i => ({ name: i.field, type: i.type }));
  if (!added.length) return false;
  const doc = {};
  for (const [k, v] of Object.entries(state.doc)) {
    // (the fields before the key, as every preset has them)
    if (k === 'key' && !state.doc.fields) doc.fields = added;
    doc[k] = k === 'fields' ? [...v, ...added] : v;
  }
  if (!doc.fields) doc.fields = added;
  editDesign(doc);
  return true;
}
/** The design a link or a step back opens, before the page draws it (`doc`, its Recent designs
 * `entry`, `presetId`, `edited`; members left out stay as they are): no run is asked for here,
 * the opener draws and runs it. */
export function openDesign(fields) {
  for (const k of ['doc', 'entry', 'presetId', 'edited']) if (fields[k] !== undefined) state[k] = fields[k];
}
/** Why the link could not be opened as it was (the first reason found is kept). */
export function linkProblem(text) {
  state.linkProblem ??= text;
}
/** The design on show goes to Recent designs entry `entry` (a new one: `newEntryId()`), not yet
 * edited; `compared`: its comparison, when another design's was on show. */
export function toEntry(entry, { compared } = {}) {
  if (compared !== undefined) state.compare = compared;
  state.entry = entry;
  state.edited = false;
}
/** The analysis options (`windows`, `sampleSize`). */
export function setOptions(options) {
  Object.assign(state, options);
  hooks.changed({});
}
/** The design runs again as it is (the user's rows closed: on the generated workload). */
export const rerun = () => hooks.changed({ now: true });

/** The advisor's options (`servers`, `records`; undefined: the engine's default), for its next run. */
export function setAdvice(options) {
  Object.assign(state.advice, options);
}

/** The Months view's settings as the user gave them (`a`, `b`: each setting's `months`, `servers`,
 * `policy`, `ttlDays`, `compaction`, `normalizer`, `version`; undefined: the design's or
 * HBase's), whether B is compared (`compare`) and the month whose servers are drawn (`month`). */
export function setLife(patch) {
  Object.assign(state.life, patch);
  // the settings are the link's (in place: typing a number is no step of its own in history)
  if (state.life.open) saveState({ replace: true });
}

/** The table and column family the shell commands name (`table`, `family`); the views that
 * show them draw themselves. */
export function setShell(names) {
  Object.assign(state.shell, names);
}

// ---- the view ---------------------------------------------------------------------------------
/** The heatmap's view options (`state.heat`: scale, rows, measure, colour, zoom, keys, …), saved
 * to the hash (`replace`: put right after a new report, not the user's change); the view that
 * changed them draws itself. */
export function setView(patch, { replace = false } = {}) {
  Object.assign(state.heat, patch);
  saveState({ replace });
}
/** The lab map's keyboard cursor: an absolute [row, column], or null. Not in the link. */
export function setHeatCursor(cell) {
  state.heat.cursor = cell;
}
/** The designs the compare picker has chosen (its selects' values, in order). */
export function setPicks(values) {
  state.picks = values;
}
/** Plan the move to compared design `index` once the comparison is drawn (null: taken). */
export function askMove(index) {
  state.moveTo = index;
}
/** The designs compared with the one on show (the compare picker's values), for the link. */
export function setCompared(values) {
  state.compare = values;
  saveState();
}

// ---- your rows ----------------------------------------------------------------------------------
/** A file of rows opened (`rows`: its file, columns, mapping, step…; null: closed, the design
 * back on its generated workload). */
export function setRows(rows) {
  state.rows = rows;
}
/** The open file's mapping or step changed (`patch`). */
export function patchRows(patch) {
  Object.assign(state.rows, patch);
}

// ---- the results --------------------------------------------------------------------------------
/** A preview of the run under way: its report so far and its progress (only while no finished
 * run's result is on show). */
export function runPreviewed(report, progress) {
  state.shown = report;
  state.pending = progress;
}
/** The run's answer on show: its report, its read plans; a heatmap zoom beyond its regions let go. */
export function runShown({ report, reads, readsError }) {
  Object.assign(state, { report, pending: null, reads, readsError });
  showTable(state.heat.table);
}
/** The report of the table the heatmap draws: the data table's (`name` null), or Phoenix index
 * `name`'s own (a global index's table over its regions; a local index, whose rows are in the
 * data table's regions, and a name the run has no report for draw the data table). */
export function indexReport(report, name) {
  return (name && report?.indexes?.find(x => x.name === name)?.report) || null;
}
/** The heatmap draws `name`'s table (null: the data table); its key zoom is let go when the
 * table changes (another table, other regions) or names more regions than it has. */
export function showTable(name) {
  const h = state.heat;
  const index = indexReport(state.report, name);
  const table = index ? name : null;
  if (h.table !== table) h.keys = null;
  h.table = table;
  state.shown = index ?? state.report;
  if (h.keys && h.keys[1] > state.shown.regions.length) h.keys = null;
}
/** The linter's findings on the design the analysis ran (null: asked for, not in yet). */
export function setLint(findings) {
  state.lint = findings;
}
/** The metrics' one-line summaries, drawn anew (each metric adds its own as it is drawn). */
export function clearSummary() {
  state.summary = [];
}
/** A metric's one-line summary (`[label, value, meaning]`), as it is drawn. */
export function addSummary(line) {
  state.summary.push(line);
}

// ---- the run ----------------------------------------------------------------------------------
// `state.run`: `status` (pending: a change waits for its run; running; done; error: the run or
// the design failed; cancelled), `cancellable` (a run is under way), `done` of `total` records,
// and the status line's `text`. #lab's data-run, Cancel, the progress bar and the status line
// are drawn from it.
state.run = { status: 'running', cancellable: false, done: 0, total: 0, text: '' };
function setRun(patch) {
  Object.assign(state.run, patch);
  const r = state.run;
  $('lab').dataset.run = r.status;
  $('cancel').disabled = !r.cancellable;
  $('progress').value = r.total ? r.done / r.total : 0;
  $('run-status').textContent = r.text;
}
/** A change waits for its run. */
export const runPending = () => setRun({ status: 'pending' });
/** A run started. */
export const runStarted = () => setRun({ status: 'running', cancellable: true, done: 0, total: 1, text: 'Analyzing…' });
/** The run's progress (`text`: what the status says, by default the records counted). */
export const runProgress = (done, total, text = `${num(done)} of ${num(total)} records`) =>
  setRun({ done, total, text });
/** The run's answer is in; its views are being drawn. */
export const runDrawing = () => setRun({ text: 'Drawing…' });
/** The run ended (`status` done or error), the status line saying `text`. A change made while it
 * went on keeps its status (pending): a run of its own follows, and the status is that one's. */
export const runEnded = (text, status = 'done') =>
  setRun({ status: state.run.status === 'pending' ? 'pending' : status, cancellable: false, done: 1, total: 1, text });
/** The run was cancelled. */
export const runCancelled = () =>
  setRun({ status: 'cancelled', cancellable: false, done: 0, total: 0, text: 'Cancelled.' });
/** The design as typed cannot run (`text`: what the status line says meanwhile). */
export const designInvalid = text => setRun({ status: 'error', text });
