// Heavy runs off the main thread: an AnalysisSession stepped in chunks, posting progress.
// Cancel = the page terminates this worker and starts a new one (nothing to clean up: the
// workers it started die with it).
// On the speed build a workload of several blocks (the engine's unit: 65,536 records) runs in
// workers of this one's, one per core: each counts a run of blocks (`countBlocks`) and hands its
// partial counts back, and the engine adds them up into the report one worker would give.
// A worker started with `#first=1&<the page's hash>` in its URL (boot.js) analyzes that design
// at once as run 1: it needs nothing from the page's thread to begin.
// The page also reads files and long texts in a worker of their own (readOff in state-io.js): a
// design file (parsed here), a table's region text and a Phoenix CREATE TABLE (read by the
// engine here).

import { getPreset } from './pkg/presets.js';
import init, {
  AnalysisSession,
  compareDesigns,
  keyLayout,
  lintDesign,
  onTableRegions,
  parseCreateTable,
  planReads,
  readRegions,
  validateDesign,
} from './pkg/rowkey_lab.js';
import { firstRequest } from './url-state.js';

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
  onTableRegions,
  parseCreateTable,
  planReads,
  readRegions,
  validateDesign,
};
const params = new URLSearchParams(self.location.hash.slice(1));
let E = SIZE;
// Where the speed build cannot load (the single-file page has the size build alone), the size
// build runs: the same results, slower, and no advisor.
const ready =
  params.get('engine') === 'fast'
    ? import('./pkg/fast/rowkey_lab.js')
        .then(async fast => {
          await fast.default();
          E = fast;
        })
        .catch(() => init())
    : init();

const CHUNK = 5000;
// Records per step of a worker counting blocks: it answers no cancel (it is terminated with the
// worker that started it), so its steps are long; it posts its progress every PROGRESS_MS.
const BLOCK_CHUNK = 1 << 16,
  PROGRESS_MS = 100;
// At most this many workers count blocks for one run (each holds its own copy of the engine).
const MAX_COUNTERS = 8;
// A run asked for with `preview: true` posts a partial report (the records analyzed so far) once
// it has been stepping `previewAfterMs` (default 40 ms), then one a second while it runs, so the
// page can draw the heatmap filling in while the rest runs.
const PREVIEW_AFTER_MS = 40,
  PREVIEW_EVERY_MS = 1000;

function post(msg, cells = []) {
  self.postMessage(
    msg,
    cells.map(c => c.buffer),
  );
}

/** A report's typed arrays (matrices, key sample), transferred rather than copied. */
const typedParts = r => [r.matrix.cells, r.grid.cells, r.sample.keys, r.sample.offsets, r.sample.regions];

function errorOf(e) {
  return {
    message: String(e?.message ?? e),
    reason: e?.reason ?? null,
    line: e?.line ?? null,
    column: e?.column ?? null,
    path: e?.path ?? null,
    in: e?.in ?? null,
    source: e?.source ?? null,
    sourceColumn: e?.sourceColumn ?? null,
  };
}

/** The design of an analyze request: its JSON text (what the page sends), the object (boot.js's
 * first run), else the preset it names. Checked first as the JSON editor holds it (`editorText`,
 * when it holds this design), so that an error's line and column are in what the user sees;
 * errors under /key are left to the run, which points into the key text. The linter's findings
 * ({@link lint}) are posted after the run's report: the page shows them, and names the examples
 * whose recorded key the design no longer writes as the key is typed. */
function designOf(data) {
  if (data.editorText != null) {
    try {
      E.validateDesign(data.editorText);
    } catch (e) {
      if (!String(e.path ?? '').startsWith('/key')) throw Object.assign(e, { in: 'doc-json' });
    }
  }
  return data.text != null ? JSON.parse(data.text) : (data.doc ?? getPreset(data.presetId));
}

/** The linter's findings on `doc` (none when null), posted for run `id`. */
function lint(id, doc) {
  let findings = [];
  try {
    findings = E.lintDesign(doc);
  } catch {
    /* the run says why */
  }
  post({ id, kind: 'lint', findings });
}

/** A design file (a File), parsed here: `{ doc, text }` (text: the design's JSON, compact). */
async function readDesign(file) {
  // File.text() keeps a UTF-8 byte order mark (some Windows editors write one); JSON.parse refuses it.
  const doc = JSON.parse((await file.text()).replace(/^\uFEFF/, ''));
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a design document (a JSON object)');
  return { doc, text: JSON.stringify(doc) };
}

/** A table's regions as the HBase shell printed them (`text`, or a File) read by the engine, and
 * `doc` on them (onTableRegions): `{ list, doc }`, or `{ regions, tooLarge }` (the length of
 * that design's JSON) when it would be longer than `max`. An error at a line of a file
 * carries that line, which the page cannot show otherwise. */
async function readTableRegions({ text, file, table, doc, max }) {
  const source = text ?? (await file.text());
  let list;
  try {
    list = E.readRegions(source, table);
  } catch (e) {
    if (file && e.line) e.source = source.split('\n', e.line)[e.line - 1]?.slice(0, 200) ?? '';
    throw e;
  }
  const onThem = E.onTableRegions(doc, list);
  const length = JSON.stringify(onThem).length;
  if (length > max) return { regions: list.regions, tooLarge: length };
  return { list, doc: onThem };
}

/** A Phoenix CREATE TABLE (`sql`, or a File) read by the engine: `{ doc, text }` (text: the
 * design's JSON), or `{ tooLarge }` (the length of that JSON) when it is longer than `max`. An
 * error at a line carries that line as `source`, cut to 240 characters around the column
 * (`sourceColumn`, 1-based, in it): the statement may be a megabyte on one line. */
async function readCreateTable({ sql, file, max }) {
  const text = sql ?? (await file.text());
  let doc;
  try {
    doc = E.parseCreateTable(text);
  } catch (e) {
    if (e.line && e.column) {
      const line = text.split('\n', e.line)[e.line - 1] ?? '';
      const from = Math.max(0, e.column - 121);
      Object.assign(e, { source: line.slice(from, from + 240), sourceColumn: e.column - from });
    }
    throw e;
  }
  const json = JSON.stringify(doc);
  return json.length > max ? { tooLarge: json.length } : { doc, text: json };
}

/** Split keys (bytes) of the final regions: every region's start key but the first's. */
function finalSplitKeys(report) {
  return report.regions.slice(1).map(r => Uint8Array.from(r.startKeyHex.match(/../g) ?? [], h => parseInt(h, 16)));
}

/** `s` stepped to its end in this worker: progress, and previews when asked for. */
function analyzeHere(id, data, s) {
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
      post({ id, kind: 'preview', report: partial, done: p.done, total: p.total }, typedParts(partial));
    } else if (now - last > 50) {
      post({ id, kind: 'progress', done: p.done, total: p.total });
      last = now;
    }
  }
  const report = s.finish();
  s.free();
  return report;
}

/** Workers counting blocks for this one, kept between runs (the speed build loads once each). */
const counters = [];
function counter(i) {
  counters[i] ??= new Worker(new URL('./worker.js#engine=fast&role=counter', import.meta.url), { type: 'module' });
  return counters[i];
}

/** How many workers a run of `blocks` blocks is spread over: 1 (this worker alone) without the
 * speed build's block exports, nested workers, cores or blocks to share. */
function spreadOver(blocks) {
  if (!E.combineAnalyses || typeof Worker !== 'function') return 1;
  return Math.min(navigator.hardwareConcurrency || 1, MAX_COUNTERS, blocks);
}

/** The blocks this counting worker is counting now (`{ id, s }`): its lead may ask it to hand
 * over half of those it has not begun (`cede`). */
let counting = null;
const tick = new MessageChannel();
/** A pause between two blocks that lets this worker's messages in (a lead's `cede`); a channel's
 * message, not a timer (nested timers wait 4 ms). */
const between = () =>
  new Promise(resolve => {
    tick.port1.onmessage = resolve;
    tick.port2.postMessage(0);
  });

/** Count blocks `first..end` of `doc` and return `{ partial, done }`, the partial counts and the
 * records counted (in a counting worker; fewer blocks when it handed some over). */
async function countBlocks({ id, doc, options, first, end }) {
  const s = E.AnalysisSession.forBlocks(doc, options, first, end);
  counting = { id, s };
  try {
    let p = s.progress(),
      last = performance.now();
    while (!p.finished) {
      p = s.step(BLOCK_CHUNK);
      const now = performance.now();
      if (now - last > PROGRESS_MS) {
        post({ id, kind: 'progress', done: p.done, total: p.total });
        last = now;
      }
      if (!p.finished) await between();
    }
    return { partial: s.partial(), done: p.done };
  } finally {
    counting = null;
    s.free();
  }
}

/** `doc`'s report counted by `n` workers, added up by the engine, with progress posted as a run
 * in this worker does. Each worker starts on an even run of blocks; one that ends while another
 * still has blocks it has not begun takes the second half of them (`cedeHalf`, the engine's
 * rule), so that the run lasts as long as the average share rather than the slowest: the
 * workers share the cores with the page's own threads, which slow one more than another. The
 * first failing run's error (in record order) is the run's: one worker counting every block
 * would have met it first. */
function analyzeSpread(id, doc, options, n, total) {
  return new Promise((resolve, reject) => {
    const parts = [];
    const failures = [];
    // per worker: records of its finished runs, and of the run it counts now (done of total)
    const base = new Array(n).fill(0);
    const now = Array.from({ length: n }, () => null);
    let asking = 0,
      last = 0;
    const remaining = i => (now[i] ? now[i].total - now[i].done : 0);
    const assign = (i, [first, end]) => {
      now[i] = { first, done: 0, total: Infinity };
      counter(i).postMessage({ id, kind: 'countBlocks', doc, options, first, end });
    };
    const settle = () => {
      if (asking > 0 || now.some(Boolean)) return;
      if (failures.length) {
        failures.sort((a, b) => a.first - b.first);
        reject(failures[0].error);
        return;
      }
      try {
        const s = E.combineAnalyses(doc, options, parts);
        const report = s.finish();
        s.free();
        resolve(report);
      } catch (e) {
        reject(e);
      }
    };
    /** Worker `i` is free: it asks the busiest others, most blocks left first, for half of
     * their unbegun blocks until one hands some over. */
    const takeWork = (i, asked = new Set()) => {
      if (failures.length) return settle();
      const victim = now
        .map((_, j) => j)
        .filter(j => j !== i && now[j] && !asked.has(j))
        .sort((a, b) => remaining(b) - remaining(a))[0];
      if (victim === undefined) return settle();
      asked.add(victim);
      asking++;
      const w = counter(victim);
      const answer = ({ data: m }) => {
        if (m.id !== id || m.kind !== 'ceded') return;
        w.removeEventListener('message', answer);
        asking--;
        if (m.blocks) assign(i, m.blocks);
        else takeWork(i, asked);
      };
      w.addEventListener('message', answer);
      w.postMessage({ id, kind: 'cede' });
    };
    for (let i = 0; i < n; i++) {
      counter(i).onmessage = ({ data: m }) => {
        if (m.id !== id) return;
        if (m.kind === 'progress') {
          if (now[i]) Object.assign(now[i], { done: m.done, total: m.total });
          const t = performance.now();
          if (t - last > 50) {
            const done = base.reduce((a, b, j) => a + b + (now[j]?.done ?? 0), 0);
            post({ id, kind: 'progress', done, total: total.records });
            last = t;
          }
        } else if (m.kind === 'partial') {
          parts.push(m.partial);
          base[i] += m.done;
          now[i] = null;
          takeWork(i);
        } else if (m.kind === 'error') {
          failures.push({ first: now[i].first, error: Object.assign(new Error(m.error.message), m.error) });
          now[i] = null;
          takeWork(i);
        }
      };
    }
    for (const [i, r] of E.blockRanges(total.blocks, n).entries()) assign(i, r);
  });
}

/** Run `doc` (the request `data`, run `id`) in this worker, or spread over counting workers,
 * and post its report with the reads planned over its final regions. */
async function analyze(id, data, doc) {
  const s = new E.AnalysisSession(doc, data.options);
  const blocks = s.blocks?.() ?? 1;
  const n = spreadOver(blocks);
  let report;
  if (n > 1) {
    const records = s.progress().total;
    s.free();
    report = await analyzeSpread(id, doc, data.options, n, { blocks, records });
  } else {
    report = analyzeHere(id, data, s);
  }
  let reads = [];
  let readsError = null;
  // Reads are planned over the regions as they are at the end (auto-split included).
  try {
    reads = E.planReads(doc, finalSplitKeys(report));
  } catch (e) {
    readsError = errorOf(e);
  }
  post({ id, kind: 'report', report, reads, readsError }, typedParts(report));
}

async function run(data) {
  const { id, kind } = data;
  try {
    if (kind === 'readDesign') {
      post({ id, kind, ...(await readDesign(data.file)) });
      return;
    }
    await ready;
    if (kind === 'readRegions') {
      post({ id, kind, ...(await readTableRegions(data)) });
    } else if (kind === 'parseCreateTable') {
      post({ id, kind, ...(await readCreateTable(data)) });
    } else if (kind === 'countBlocks') {
      const { partial, done } = await countBlocks(data);
      post({ id, kind: 'partial', partial, done }, [partial]);
    } else if (kind === 'warm') {
      // While nothing runs (the page sends the design on show): the counting workers started,
      // each counting the design's first block and dropping it. The first run spread over them
      // then waits neither for them to load the speed build nor for V8 to compile their hot
      // code for speed (it does so after a function's first calls, never within one).
      const n = spreadOver(Infinity);
      if (n > 1) {
        const doc = designOf(data);
        for (let i = 0; i < n; i++) counter(i).postMessage({ id: 0, kind: 'warmUp', doc, options: data.options });
      }
    } else if (kind === 'warmUp') {
      const s = E.AnalysisSession.forBlocks(data.doc, data.options, 0, 1);
      try {
        s.step(BLOCK_CHUNK);
      } finally {
        s.free();
      }
    } else if (kind === 'cede') {
      // between two of its blocks (or after its run, when there is nothing left to hand over)
      post({ id, kind: 'ceded', blocks: counting?.id === id ? counting.s.cedeHalf() : null });
    } else if (kind === 'analyze') {
      let doc = null;
      try {
        doc = designOf(data);
        // a key too long for the page to lay out as it is typed: laid out here, before the run
        // (an error is the run's to report)
        if (data.layout) {
          try {
            post({ id, kind: 'layout', layout: E.keyLayout(doc) });
          } catch {
            /* the run says why */
          }
        }
        await analyze(id, data, doc);
      } finally {
        // after the report (or the error), the run's last message, always sent (no findings
        // for a design that could not be read): the linter is not on the analysis's path (its
        // salt-skew rule runs a sample of the workload through the key, 14-17 ms on the
        // analyzer bench's design), and the page draws the report meanwhile
        lint(id, doc);
      }
    } else if (kind === 'adviseCandidates') {
      // the advisor's calls exist in the speed build only (advice-view.js starts its workers on it)
      if (!E.adviseCandidates)
        throw new Error('the advisor needs the engine’s speed build, which this copy of the page does not have');
      post({ id, kind, set: E.adviseCandidates(data.doc, data.options) });
    } else if (kind === 'evaluate') {
      let metrics;
      try {
        metrics = E.evaluateCandidate(data.design, data.options, data.targetRegions);
      } catch (e) {
        metrics = { error: String(e?.message ?? e) };
      }
      post({ id, kind, index: data.index, metrics });
    } else if (kind === 'adviseFrom') {
      post({ id, kind, advice: E.adviseFrom(data.doc, data.options, data.evaluations) });
    } else if (kind === 'compare') {
      const c = E.compareDesigns(data.docs, data.options);
      post(
        { id, kind: 'comparison', comparison: c },
        c.designs.flatMap(d => [d.grid.cells, d.matrix.cells]),
      );
    }
  } catch (e) {
    post({ id, kind: 'error', error: errorOf(e) });
  }
}

self.onmessage = ({ data }) => run(data);
// The page draws that run's first preview itself while this worker is starting (see app.js);
// the worker's own previews only keep a long run's heatmap filling in.
if (params.has('first'))
  run({ id: 1, kind: 'analyze', preview: true, previewAfterMs: 600, ...firstRequest(self.location.hash) });
