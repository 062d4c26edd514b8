// The engine's worker: a table of handlers, one per engine call, served through the call
// interface (engine/calls.js: requests, events, results and the engine's located errors).
// Heavy runs happen here, off the page's thread: an AnalysisSession stepped in chunks, with
// progress and previews as events. Cancel = the page ends this worker and starts a new one
// (nothing to clean up: the workers it started end with it).
// On the speed build a workload of several blocks (the engine's unit: 65,536 records) is spread
// over counting workers of this one's, one per core (engine/scheduler.js spreadBlocks; their
// handlers are engine/count.js's), and the engine adds their partial counts up into the report
// one worker would give.
// A worker started with `#first=1&<the page's hash>` in its URL (boot.js) analyzes that design at
// once as call 1: it needs nothing from the page's thread to begin.
// The page also reads files and long texts in a worker of their own (readOff in state/io.js): a
// design file (parsed here), a table's region text and a Phoenix CREATE TABLE (read by the
// engine here), a file of rows' columns. A file of the user's rows is analyzed here too, by the
// engine's rows build (rows-calls.js, loaded with it on the first such call).

import { DEFAULT_PRESET, getPreset } from '../pkg/presets.js';
import init, {
  AnalysisSession,
  compareDesigns,
  keyLayout,
  lintDesign,
  readsBeside,
  validateDesign,
} from '../pkg/rowkey_lab.js';
import { moved, reportBuffers, serve } from './calls.js';
import { lifeCalls } from './life-calls.js';
import { firstRequest } from './url-state.js';
import { webPort } from './web-workers.js';
import { setSize } from './worker-sets.js';

// Two builds of one engine, the same exports: the page's (pkg/, optimised for size: the first
// load shares its download with the page's thread) and the speed build (pkg/fast/: opt-level 3,
// the native fast paths, SIMD MD5 lanes; larger, fetched after the first render). A worker
// started with `engine=fast` in its URL runs on the speed build.
const SIZE = {
  init,
  AnalysisSession,
  compareDesigns,
  keyLayout,
  lintDesign,
  readsBeside,
  validateDesign,
};
const params = new URLSearchParams(self.location.hash.slice(1));
let E = SIZE;
// Where the speed build cannot load (the single-file page has the size build alone), the size
// build runs: the same results, slower, and no advisor.
const fastGlue = params.get('engine') === 'fast' ? import('../pkg/fast/rowkey_lab.js') : null;
const ready = fastGlue
  ? fastGlue
      .then(async fast => {
        await fast.default();
        E = fast;
      })
      .catch(() => init())
  : init();

const CHUNK = 5000;
// A run asked for with `preview: true` sends a partial report (the records analyzed so far) once
// it has been stepping `previewAfterMs` (default 40 ms), then one a second while it runs, so the
// page can draw the heatmap filling in while the rest runs.
const PREVIEW_AFTER_MS = 40,
  PREVIEW_EVERY_MS = 1000,
  PROGRESS_EVERY_MS = 50;

/** The design of an analyze request: its JSON text (what the page sends), the object (boot.js's
 * first run), else the preset it names. Checked first as the JSON editor holds it (`editorText`,
 * when it holds this design), so that an error's line and column are in what the user sees;
 * errors under /key are left to the run, which points into the key text. */
function designOf(data) {
  if (data.editorText != null) {
    try {
      E.validateDesign(data.editorText);
    } catch (e) {
      if (!String(e.path ?? '').startsWith('/key')) throw Object.assign(e, { in: 'doc-json' });
    }
  }
  return data.text != null ? JSON.parse(data.text) : data.doc;
}

/** `s` stepped to its end in this worker: progress, and previews when asked for. */
function analyzeHere(data, s, emit) {
  let p = s.progress();
  let last = 0;
  const start = performance.now();
  let previewAt = data.preview ? start + (data.previewAfterMs ?? PREVIEW_AFTER_MS) : Infinity;
  while (!p.finished) {
    p = s.step(CHUNK);
    const now = performance.now();
    if (!p.finished && now >= previewAt) {
      previewAt = now + PREVIEW_EVERY_MS;
      const partial = s.finish();
      emit('preview', { report: partial, done: p.done, total: p.total }, reportBuffers(partial));
    } else if (now - last > PROGRESS_EVERY_MS) {
      emit('progress', { done: p.done, total: p.total });
      last = now;
    }
  }
  const report = s.finish();
  s.free();
  return report;
}

// What only the speed build does (a run spread over counting workers, the counting calls, the
// advisor's calls) is imported when first needed (engine/spread.js), so it is no part of the
// page's first load.
let speedCalls = null;
const speed = () => {
  speedCalls ??= import('./spread.js').then(m =>
    m.speedCalls({
      engine: () => E,
      designOf,
      previewAfterMs: PREVIEW_AFTER_MS,
      progressEveryMs: PROGRESS_EVERY_MS,
    }),
  );
  return speedCalls;
};
/** Whether a run of `blocks` blocks is spread over counting workers: the speed build's block
 * exports, nested workers, cores and blocks to share. */
const spreads = blocks => !!E.combineAnalyses && setSize('counters') > 1 && blocks > 1;

/** The handler of rows-calls.js's call `name`, which it imports when first called; the call gets
 * this worker's helper (its design's reader). */
const rowsCall = name => async (args, emit) => (await import('./rows-calls.js'))[name](args, emit, { designOf });

/** An advisor's call: on a sample of the user's rows (`rows`), the rows build's, which reads them;
 * else the speed build's. */
const advice = name => async args =>
  args.rows ? (await import('./rows-calls.js')).onRows(name, args) : (await speed())[name](args);

/** The design the last analyze call ran (null when it could not be read): `lint` lints it. */
let analyzed = null;

/** Every engine call this worker answers (see engine/calls.js). */
const handlers = {
  readDesign: async args => (await import('./readers.js')).readDesign(args),
  readRegions: async args => (await import('./readers.js')).readTableRegions(E, args),
  parseCreateTable: async args => (await import('./readers.js')).readCreateTable(E, args),
  countBlocks: async (args, emit) => (await speed()).countBlocks(args, emit),
  cede: async () => (await speed()).cede(),
  /** The design (JSON `text`) analyzed with `options`, spread over counting workers when it has
   * several blocks: `{ report, reads, readsError }`, the reads planned over its final regions.
   * Events: `progress`, `preview` (when `preview`), `layout` (when `layout`: a key too long for
   * the page to lay out as it is typed, laid out here before the run). */
  async analyze(data, emit) {
    analyzed = null;
    // a preset by name (boot.js's first run): its design, fetched when it is not the default
    if (data.text == null && data.doc == null)
      data = { ...data, doc: await getPreset(data.presetId ?? DEFAULT_PRESET) };
    const doc = designOf(data);
    analyzed = doc;
    if (data.layout) {
      try {
        emit('layout', E.keyLayout(doc));
      } catch {
        /* the run says why */
      }
    }
    const s = new E.AnalysisSession(doc, data.options);
    const blocks = s.blocks?.() ?? 1;
    let report;
    if (spreads(blocks)) {
      const records = s.progress().total;
      s.free();
      report = await (await speed()).analyzeSpread(doc, data, blocks, records, emit);
    } else {
      report = analyzeHere(data, s, emit);
    }
    // the reads beside it: the engine's one answer (src/analyze/beside.rs), the CLI's too
    return moved({ report, ...E.readsBeside(doc, report) }, reportBuffers(report));
  },
  /** The design as Phoenix's CREATE TABLE (src/design/phoenix/print.rs): the speed build's
   * (null on the size build alone, as in the single-file page); the engine's error when its key
   * is not a Phoenix primary key. */
  printCreateTable: ({ doc }) => (E.printCreateTable ? E.printCreateTable(doc) : null),
  /** How many regions to create the table with (src/advise/regions.rs): the speed build's
   * (null on the size build alone, as in the single-file page). */
  planRegions: ({ doc, keyBytes, regions, activeRegionsPerWindow, writeRate }) =>
    E.planRegions ? E.planRegions(doc, keyBytes, regions, activeRegionsPerWindow, writeRate) : null,
  /** The move from `oldDoc`'s table to `newDoc`'s, on the old design's workload
   * (src/rekey.rs): the speed build's, as planRegions. */
  rekeyPlan: ({ oldDoc, newDoc, options }) =>
    E.rekeyOnWorkload ? E.rekeyOnWorkload(oldDoc, newDoc, options ?? null) : null,
  // the design's table month by month (the Months view): the speed build's, as planRegions
  ...lifeCalls(() => E),
  // a file of the user's rows: its columns, its profile, the design analyzed over it (the rows
  // build loaded and its readers started beforehand by warmRows)
  rowsColumns: rowsCall('rowsColumns'),
  rowsScan: rowsCall('rowsScan'),
  analyzeRows: rowsCall('analyzeRows'),
  rekeyRows: rowsCall('rekeyRows'),
  lifeRows: rowsCall('lifeRows'),
  rowsSample: rowsCall('rowsSample'),
  warmRows: rowsCall('warmRows'),
  // a live table's snapshots read on the rows build, set beside the design (views/observe-view.js)
  observeSeries: async (args, emit) => (await import('./observe-calls.js')).observeSeries(args, emit, { designOf }),
  /** The linter's findings on the design the last analyze call ran (none when it could not be
   * read). A call of its own, after the report: the linter is not on the analysis's path (its
   * salt-skew rule runs a sample of the workload through the key, 14-17 ms on the analyzer
   * bench's design), and the page draws the report meanwhile. */
  lint() {
    try {
      return analyzed ? E.lintDesign(analyzed) : [];
    } catch {
      return []; // the run says why
    }
  },
  // the speed build's: the counting workers warmed up, the advisor's calls (engine/spread.js)
  warm: async data => (await speed()).warm(data),
  warmUp: async data => (await speed()).warmUp(data),
  adviseCandidates: advice('adviseCandidates'),
  evaluate: advice('evaluate'),
  adviseFrom: advice('adviseFrom'),
  compare({ docs, options }) {
    const c = E.compareDesigns(docs, options);
    return moved(
      c,
      c.designs.flatMap(d => [d.grid.cells.buffer, d.matrix.cells.buffer]),
    );
  },
};

// The first run on the speed build (boot.js, a large design): its counting workers start as soon
// as the speed build's glue is there (where it is not, as in the single-file page, none would
// load), compiling the speed build beside this one, not once the run has begun.
if (fastGlue && params.has('first') && typeof Worker === 'function')
  fastGlue.then(
    () => speed().then(c => c.startCounters()),
    () => {},
  );
const run = serve(webPort(self), handlers, { ready, early: ['readDesign'] });
// The page draws that run's first preview itself while this worker is starting (see app.js);
// the worker's own previews only keep a long run's heatmap filling in.
if (params.has('first'))
  run({
    id: 1,
    call: 'analyze',
    args: { preview: true, previewAfterMs: 600, ...firstRequest(self.location.hash) },
  });
