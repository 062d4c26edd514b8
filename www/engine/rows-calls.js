// The engine worker's calls on a file of the user's rows (views/rows-view.js): the File comes
// in the call's arguments (structured clone: a handle, not the bytes) and is read here, in
// slices, by the library's own driver (rows.js, the npm package's analyzeRows), on the engine's
// rows build (pkg/rows/: the readers for CSV, Parquet, JSON Lines and Arrow; megabytes of wasm,
// loaded on the first such call, never part of the page's first load). Imported lazily by
// worker.js, whose handlers these are: each gets the call's arguments, its `emit` and the
// worker's own helper (`designOf`).
import { adviceCalls } from './advice-calls.js';
import { localClient, moved, reportBuffers } from './calls.js';
import { rekeyRows as rekeyRowsWith } from './rekey.js';
import { analyzeRowsChunked, fileColumns, readChunk, analyzeRows as readRows } from './rows.js';
import { spreadTasks } from './scheduler.js';
import { workerSet } from './worker-sets.js';

let loading = null;
/** The rows build, loaded once per worker (observe-calls.js reads snapshots on it too). */
export function rowsEngine() {
  loading ??= import('../pkg/rows/rowkey_lab.js').then(
    async m => {
      await m.default();
      return m;
    },
    () => {
      throw new Error(
        'This copy of the page cannot read files of rows: it has no rows build of the engine (pkg/rows/). The page as served (dist/www) has it.',
      );
    },
  );
  return loading;
}

/** The format and column names of `file`: `{ format, columns }` (the engine's), the null
 * policy's names and default as the engine reads RowsOptions (`nulls: { names, default }`), and
 * `inferred`: the fields `doc`'s key reads and it does not declare, declared from the file by
 * the engine's rule (`rowsDesign`, as the CLI declares them), for the page to put in the design;
 * empty when the design declares them all, or cannot be fitted (the run then says why). */
export async function rowsColumns({ file, rows, doc }) {
  const api = await rowsEngine();
  const member = api.designSchema().options.RowsOptions.find(m => m.key === 'nulls');
  const { format, columns, sample } = await fileColumns(api, file, rows);
  let inferred = [];
  if (doc)
    try {
      inferred = api.rowsDesign(doc, rows, sample).inferred;
    } catch {
      /* the design's own error: the run shows it */
    }
  return { format, columns, inferred, nulls: { names: member.options, default: JSON.parse(member.default) } };
}

/** The size of what a pass has read, as the status line says it. */
function progressText(file, { pass, done, total, unit }) {
  const what = pass === 'reading' ? 'Reading' : 'Analyzing';
  if (unit === 'rowGroups') return `${what} ${file.name}: row group ${done} of ${total}`;
  return `${what} ${file.name}: ${mib(done)} of ${mib(total)} MiB`;
}
const mib = n => (n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0);

/** Progress events of one run over `file` on a bar of `passes` passes, this run's first being
 * pass `first` of them (a run reads once, or twice when the rows pass the engine's memory). */
function progressOf(file, emit, passes, first = 0) {
  let last = 0;
  return p => {
    const t = performance.now();
    if (t - last < 50 && p.done !== p.total) return;
    last = t;
    const offset = (first + (p.pass === 'reading' ? 0 : 1)) * p.total;
    emit('progress', { done: offset + p.done, total: passes * p.total, text: progressText(file, p) });
  };
}

/** The first pass alone over `file` (a File) for the design (JSON `text`), with the profile:
 * `{ summary, profile }`. */
export async function rowsScan(data, emit, { designOf }) {
  const { file, rows, options } = data;
  const api = await rowsEngine();
  const { session, summary } = await readRows(api, designOf(data), file, {
    options,
    rows: { ...rows, profile: true },
    scanOnly: true,
    onProgress: progressOf(file, emit, 1),
  });
  try {
    return { summary, profile: session.profile() };
  } finally {
    session.free();
  }
}

/** A sample of the rows of `file` for the advisor (its first pass alone, `records` rows: the
 * engine's default when absent): `{ design, sample }`, the design as it read them (fields its key
 * names declared from the file) and the sample's bytes (RowsSession.rowSample). */
export async function rowsSample(data, emit, { designOf }) {
  const { file, rows, records } = data;
  const api = await rowsEngine();
  const { session, design } = await readRows(api, designOf(data), file, {
    rows,
    scanOnly: true,
    rowSample: records ?? null,
    onProgress: progressOf(file, emit, 1),
  });
  try {
    const sample = session.rowSample();
    return moved({ design, sample }, [sample.buffer]);
  } finally {
    session.free();
  }
}

/** The design's table month by month (src/life, the Months view) with its writes from the rows
 * of `file`: one pass keeps their keys in write order (by `rows.time` when given), then the
 * engine's lifeMonths, or lifeCompare with `otherOptions`. Events: `progress` with `text` while
 * the file is read, then `{done, total}` at each month's end. */
export async function lifeRows(data, emit, { designOf }) {
  const { file, rows, options, otherOptions } = data;
  const api = await rowsEngine();
  const { session } = await readRows(api, designOf(data), file, {
    rows,
    scanOnly: true,
    writeSample: true,
    onProgress: progressOf(file, emit, 1),
  });
  try {
    const on = (done, total) => emit('progress', { done, total });
    return otherOptions === undefined
      ? session.lifeMonths(options ?? null, on)
      : session.lifeCompare(options ?? null, otherOptions ?? null, on);
  } finally {
    session.free();
  }
}

let advice = null;
/** The advisor's call `name` on a sample of the rows (`rows`): the rows build's, which reads them
 * (the speed build does not); the candidates' workloads sized to the rows' file. */
export async function onRows(name, args) {
  const api = await rowsEngine();
  advice ??= adviceCalls(() => api);
  return advice[name](args);
}

/** One chunk of a file of rows (a task of the library's analyzeRowsChunked) read by this
 * worker's rows build: its first pass as bytes. Events: `read` (bytes read). */
export async function readRowsChunk({ doc, options, rows, source, task }, emit) {
  const chunk = await readChunk(await rowsEngine(), doc, source, task, {
    options,
    rows,
    onRead: n => emit('read', n),
  });
  return moved(chunk, [chunk.buffer]);
}

/** The workers reading a file's chunks: 0 this worker itself (localClient), the others nested
 * workers of its own (rows-worker.js), started once and kept, as the counting workers are. */
const readers = workerSet(
  'readers',
  () => new Worker(new URL('./rows-worker.js', import.meta.url), { type: 'module' }),
  localClient({ readRowsChunk }),
);
const reader = i => readers.at(i);
/** How many workers (this one included) share the reading of a file. */
const READERS = readers.size;

/** While the user looks at a file's mapping and profile: the rows build loaded here and in the
 * nested readers, so that "Analyze these rows" waits for neither. */
export async function warmRows() {
  await rowsEngine();
  await Promise.all(Array.from({ length: READERS - 1 }, (_, i) => reader(i + 1).call('warm')));
}

/** The design (JSON `text`) analyzed over the rows of `file` (a File) with `rows` (the engine's
 * RowsOptions) and `options`: what `analyze` answers (`{ report, reads, readsError }`, the report
 * the library's analyzeRows gives for the same rows, design and options) with the rows'
 * `summary`, `stats` and, unless `profile` is false (the page holds this design's profile of
 * these rows already), `profile`. Without the profile, the file's reading is shared by this
 * worker and nested readers (the library's analyzeRowsChunked over the scheduler's spreadTasks,
 * as the CLI shares it over threads: the same report, byte for byte); with it, one reader reads
 * it (a profile is counted in one pass). Events: `progress` (with the status line's `text`). */
export async function analyzeRows(data, emit, { designOf }) {
  const { file, rows, options } = data;
  const api = await rowsEngine();
  const doc = designOf(data);
  const profiled = data.profile !== false;
  // `design`: the one the rows were read with (a key's fields declared from the file; both
  // readers return it), which the reads are planned on, as the CLI's analyze plans them
  const { session, design, summary, stats } = await readFile(api, doc, file, { options, rows, profiled, emit });
  let report, profile;
  try {
    report = session.finish();
    if (profiled) profile = session.profile();
  } finally {
    session.free();
  }
  return moved({ report, summary, stats, profile, ...api.readsBeside(design, report) }, reportBuffers(report));
}

/** The rows of `file` read with `doc`, as the library's analyzeRows answers: with the profile
 * (`profiled`) by one reader, else shared by this worker and nested readers (analyzeRowsChunked
 * over the scheduler's spreadTasks). `passes`: how many of these runs one progress bar spans. */
function readFile(api, doc, file, { options, rows, profiled = false, emit, passes = 1, pass = 0 }) {
  const spread = (tasks, onRead, design) =>
    spreadTasks({
      workers: Array.from({ length: Math.min(READERS, tasks.length) }, (_, i) => reader(i)),
      tasks,
      call: (w, task) =>
        w.call(
          'readRowsChunk',
          { doc: design, options, rows, source: file, task },
          { on: (event, n) => event === 'read' && onRead(n) },
        ),
    });
  // one reader may read twice (the rows past the engine's memory): two passes of the bar each
  const one = profiled || READERS < 2;
  const width = one ? 2 : 1;
  const progress = progressOf(file, emit, width * passes, width * pass);
  return one
    ? readRows(api, doc, file, { options, rows: { ...rows, profile: profiled }, onProgress: progress })
    : analyzeRowsChunked(api, doc, file, spread, { options, rows, workers: READERS, onProgress: progress });
}

/** The move from `oldDoc`'s table to `newDoc`'s planned on the rows of `file` (the library's
 * rekeyRows, the CLI's `rekey --records`: both designs over the file, the new one cut into
 * `regions` regions at the rows re-encoded, `by` rows or bytes; then the engine's
 * rekeyRowsPlan: ./rekey.js).
 * Events: `progress` (one bar over both designs' reading). */
export async function rekeyRows({ oldDoc, newDoc, file, rows, regions, by }, emit) {
  const api = await rowsEngine();
  // one bar over the reading: one shared by both designs, or one per design (rekey.js)
  let pass = 0;
  const read = design =>
    readFile(api, design, file, { rows, emit, passes: Array.isArray(design) ? 1 : 2, pass: pass++ });
  return rekeyRowsWith(api, oldDoc, newDoc, read, { regions, by });
}
