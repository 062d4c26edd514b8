// The engine worker's calls on a file of the user's rows (views/rows-view.js): the File comes
// in the call's arguments (structured clone: a handle, not the bytes) and is read here, in
// slices, by the library's own driver (rows.js, the npm package's analyzeRows), on the engine's
// rows build (pkg/rows/: the readers for CSV, Parquet, JSON Lines and Arrow; megabytes of wasm,
// loaded on the first such call, never part of the page's first load). Imported lazily by
// worker.js, whose handlers these are: each gets the call's arguments, its `emit` and the
// worker's own helpers (`designOf`, `readsOver`).
import { adviceCalls } from './advice-calls.js';
import { moved, reportBuffers } from './calls.js';
import { fileColumns, analyzeRows as readRows } from './rows.js';

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

/** The format and column names of `file`: `{ format, columns }` (the engine's). */
export async function rowsColumns({ file, rows }) {
  return fileColumns(await rowsEngine(), file, rows);
}

/** The size of what a pass has read, as the status line says it. */
function progressText(file, { pass, done, total }, unit) {
  const what = pass === 'reading' ? 'Reading' : 'Analyzing';
  if (unit === 'groups') return `${what} ${file.name}: row group ${done} of ${total}`;
  return `${what} ${file.name}: ${mib(done)} of ${mib(total)} MiB`;
}
const mib = n => (n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0);

/** Progress events of one run over `file`: both passes on one bar (`passes` of them). */
function progressOf(file, emit, passes) {
  let last = 0;
  return p => {
    const t = performance.now();
    if (t - last < 50 && p.done !== p.total) return;
    last = t;
    const unit = p.total === file.size ? 'bytes' : 'groups';
    const offset = p.pass === 'reading' ? 0 : p.total;
    emit('progress', { done: offset + p.done, total: passes * p.total, text: progressText(file, p, unit) });
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

let advice = null;
/** The advisor's call `name` on a sample of the rows (`rows`): the rows build's, which reads them
 * (the speed build does not); the candidates' workloads sized to the rows' file. */
export async function onRows(name, args) {
  const api = await rowsEngine();
  advice ??= adviceCalls(() => api);
  return advice[name](args);
}

/** The design (JSON `text`) analyzed over the rows of `file` (a File) with `rows` (the engine's
 * RowsOptions) and `options`, both passes: what `analyze` answers (`{ report, reads,
 * readsError }`, the report the library's analyzeRows gives for the same rows, design and
 * options) with the rows' `summary`, `stats` and `profile`. Events: `progress` (with the status
 * line's `text`). */
export async function analyzeRows(data, emit, { designOf, readsOver }) {
  const { file, rows, options } = data;
  const api = await rowsEngine();
  const doc = designOf(data);
  const { session, summary, stats } = await readRows(api, doc, file, {
    options,
    rows: { ...rows, profile: true },
    onProgress: progressOf(file, emit, 2),
  });
  let report, profile;
  try {
    report = session.finish();
    profile = session.profile();
  } finally {
    session.free();
  }
  return moved({ report, summary, stats, profile, ...readsOver(api, doc, report) }, reportBuffers(report));
}
