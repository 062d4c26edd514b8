// Your own rows, for the page, the library and the CLI alike: the bytes of a file handed to the
// engine's RowsSession in its two passes (a scan for the rows' count and time span, then the
// analysis; the second from the engine's memory when the rows fit its cap, so the file is then
// read once). The engine tells the format, parses, binds columns to fields and converts; this
// only reads bytes. A Blob or File (the CLI opens its file as one with fs.openAsBlob; the page's
// engine worker gets the user's File) is read in slices, so memory stays one slice; a Parquet
// file by its footer, then only the byte ranges of the key's columns, one row group at a time.
// The npm package carries this file as pkg/shared/rows.js (scripts/build-npm.sh).

/** Bytes handed to the engine at a time. */
const SLICE = 1 << 20;
/** Bytes read to tell the format. */
const HEAD = 64 * 1024;

/**
 * The rows of `source` analyzed with `doc`: `{session, design, summary, stats}` — the RowsSession
 * after both passes (the caller calls `finish()` or `check(budgets)`, then `free()`), the design
 * it read them with (`doc`, its key's undeclared fields declared from the file: the engine's
 * `rowsDesign`), the scan's summary `{rows, firstMs, lastMs, outOfOrder}` and what reading found
 * `{rows, used, skipped, columns, time, format, inferred?}` (`inferred`: the fields so declared).
 *
 * `source`: a Blob or File; a Uint8Array or ArrayBuffer (the whole file); a reader `{size,
 * read(start, length)}` resolving to that many bytes (which may be overwritten by its next read); or a function that
 * returns a fresh async iterable (or ReadableStream) of Uint8Array chunks each time it is called
 * (once per pass, with the pass's name: `reading`, then `analyzing`; a Parquet file given so is
 * read whole, up to the engine's cap). `rows`: `{format, name, map, time, nulls, epoch, delimiter}`.
 * `onProgress({pass, done, total, unit})` after each slice (`unit`: bytes, or Parquet row groups); `signal` (AbortSignal) stops between slices.
 * `scanOnly`: stop after the first pass (for `session.profile()` with `rows.profile`). `keys`: the
 * first pass keeps every row's key (`session.takeKeys()`); `onSlice(session)`, awaited after
 * each slice of the first pass, takes them as they come (`encode --records`). `rowSample`: the
 * first pass keeps a sample of that many rows (null: the advisor's default) for the advisor
 * (`session.rowSample()`, with `scanOnly`). `writeSample`: the first pass keeps the keys in write
 * order for months of the table's life (`session.lifeMonths(options)`, with `scanOnly`). `doc` may be an array of designs: one reading for
 * them all (`openSession`; `design` is then the array fitted, and `keys`, `rowSample` and
 * `rows.profile` are not taken: they are one design's).
 * @param {object} api the engine (the package's glue)
 */
export async function analyzeRows(
  api,
  doc,
  source,
  {
    options,
    rows = {},
    onProgress,
    signal,
    scanOnly = false,
    keys = false,
    digests = false,
    onSlice,
    rowSample,
    writeSample = false,
  } = {},
) {
  const blob = asReader(source);
  // a function of streams: its first bytes read ahead, to type the fields the design leaves out
  const ahead = blob ? null : await readAhead(source('reading'));
  const { design, inferred, footer } = await fitDesign(api, doc, blob, rows, ahead);
  const s = openSession(api, design, options, rows);
  try {
    if (keys) s.keepKeys(digests);
    if (rowSample !== undefined) s.keepRowSample(rowSample);
    if (writeSample) s.keepWriteSample();
    let parquet = null;
    if (footer) parquet = s.parquet(...footer).rowGroups;
    const passes = {};
    for (const pass of scanOnly ? ['reading'] : ['reading', 'analyzing']) {
      // The engine kept the rows the first pass read (while they fit its cap) and counted them
      // at endScan(): the file is read once.
      if (pass === 'analyzing' && passes.summary.analyzed) {
        passes.stats = s.end();
        break;
      }
      const tick = async (done, total) => {
        onProgress?.({ pass, done, total, unit: parquet ? 'rowGroups' : 'bytes' });
        if (pass === 'reading') await onSlice?.(s);
      };
      if (parquet) {
        const chunksOf = groupReader(blob, parquet);
        for (const [i, ranges] of parquet.entries()) {
          signal?.throwIfAborted();
          s.pushRowGroup(
            i,
            ranges.map(r => r.start),
            await chunksOf(i),
          );
          await tick(i + 1, parquet.length);
        }
      } else if (blob) {
        for (let at = 0; at < blob.size; at += SLICE) {
          signal?.throwIfAborted();
          s.push(await bytes(blob, at, Math.min(SLICE, blob.size - at)));
          await tick(Math.min(at + SLICE, blob.size), blob.size);
        }
      } else {
        let done = 0;
        for await (const chunk of pass === 'reading' ? ahead.all() : iterate(source(pass))) {
          signal?.throwIfAborted();
          s.push(chunk);
          done += chunk.length;
          await tick(done, undefined);
        }
      }
      if (pass === 'reading') passes.summary = s.endScan();
      else passes.stats = s.end();
    }
    return { session: s, design, ...passes, stats: withInferred(passes.stats, inferred) };
  } catch (e) {
    // the keys of the rows before a bad one are still handed over (they were read)
    if (keys && onSlice && !signal?.aborted) await Promise.resolve(onSlice(s)).catch(() => {});
    s.free();
    throw e;
  }
}

/** Files smaller than this are read in one pass: starting workers would cost more than it saves. */
const CHUNKED_FROM = 8 << 20;
/** The fewest rows of a Parquet file a worker reads as one task (a run of a row group's rows). */
const PIECE_ROWS = 65536;

/**
 * The rows of `source` analyzed as `analyzeRows` does, their reading shared by workers: the file
 * is cut into chunks (row groups of a Parquet file; a CSV or JSON Lines file at line ends, each
 * CSV chunk read after the header line), `spread(tasks)` has each read by an engine of its own
 * (`readChunk`) and resolves to their first passes in task order, and this engine adds them up
 * and counts the rows (the engine's `addChunk`: one reader's report, byte for byte). A file
 * that cannot be cut so (small, a JSON array, Arrow IPC, a profile
 * or kept keys, rows past the engine's memory cap) or any chunk's failure is read in one pass
 * by `analyzeRows`, whose error then says exactly where. `source` must be a Blob, bytes or a
 * reader (a function of streams is read in one pass). `opts.chunkFrom`: files smaller are read
 * in one pass (8 MiB by default); `opts.pieceRows`: the fewest rows of a task cut from a Parquet
 * row group larger than a quarter of a worker's share (65,536 by default).
 * @param {object} api the engine (the package's glue)
 * @param {(tasks: object[], onRead?: (bytes: number) => void, design?: object) => Promise<Uint8Array[]>} spread
 */
export async function analyzeRowsChunked(api, doc, source, spread, opts = {}) {
  const { options, rows = {}, onProgress, signal, scanOnly = false, keys = false } = opts;
  const blob = typeof source === 'function' ? null : asReader(source);
  const from = opts.chunkFrom ?? CHUNKED_FROM;
  const chunked = blob && !scanOnly && !keys && blob.size >= from;
  const fit = chunked ? await fitDesign(api, doc, blob, rows) : { design: doc };
  const { design, inferred } = fit;
  const s = chunked ? openSession(api, design, options, rows) : null;
  let tasks = null;
  try {
    if (s?.chunkable()) tasks = await chunkTasks(s, blob, fit, opts.workers, from, opts.pieceRows);
  } catch {
    tasks = null;
  }
  if (!tasks) {
    s?.free();
    return analyzeRows(api, doc, source, opts);
  }
  try {
    let done = 0;
    const total = tasks.reduce((a, t) => a + t.bytes, 0);
    // one budget of kept rows for every chunk read at once: each chunk its share (the session
    // that adds them up keeps no more than the whole), so memory does not grow with the workers
    for (const t of tasks) t.keepBytes = api.chunkKeptBytes(rows, t.bytes, total);
    const parts = await spread(
      tasks,
      n => {
        done += n;
        onProgress?.({ pass: 'reading', done, total, unit: 'bytes' });
      },
      design,
    );
    for (const p of parts) s.addChunk(p);
  } catch (e) {
    s.free();
    if (signal?.aborted) throw e;
    return analyzeRows(api, doc, source, opts);
  }
  try {
    const summary = s.endScan();
    if (!summary.analyzed) throw new Error('the chunks were added but their rows not counted');
    return { session: s, design, summary, stats: withInferred(s.end(), inferred) };
  } catch (e) {
    s.free();
    throw e;
  }
}

/**
 * The engine's session over the rows for `design`; for an array of designs, one reading shared
 * by them all (the engine's SharedRowsSession: the file read and converted once, each design's
 * `finish(i)`, `splitKeys(i)` and `stats(i)` the ones its own session gives), driven the same.
 * @param {object} api the engine (the package's glue)
 */
function openSession(api, design, options, rows) {
  return Array.isArray(design)
    ? new api.SharedRowsSession(design, options, rows)
    : new api.RowsSession(design, options, rows);
}

/** `stats` with the fields declared from the file, when there are any. */
const withInferred = (stats, inferred) => (stats && inferred?.length ? { ...stats, inferred } : stats);

/**
 * `doc` with the fields its key names but does not declare typed from the file, and those fields:
 * the engine's `rowsDesign` (`{design, inferred}`) over the file's first bytes, or a Parquet
 * file's footer; `ahead`: a stream's first bytes (`readAhead`). With what it read of a Blob, for
 * the reading that follows: `format`, `head` and a Parquet file's `footer` (`[bytes, size]`).
 * @param {object} api the engine (the package's glue)
 */
async function fitDesign(api, doc, blob, rows, ahead = null) {
  // several designs over one reading: the file's head (or footer) read once, each design fitted
  // to it, the first's inferred fields said
  const fit = sample => {
    if (!Array.isArray(doc)) return api.rowsDesign(doc, rows, sample);
    const fits = doc.map(d => api.rowsDesign(d, rows, sample));
    return { ...fits[0], design: fits.map(f => f.design) };
  };
  if (!blob) return fit({ head: ahead.head, whole: ahead.whole });
  const read = await sampleOf(api, blob, rows);
  return { ...fit(read.sample), ...read };
}

/** What `blob` says of its columns, as the engine takes it: `{sample, format, head, footer?}`,
 * `sample` `{head, whole}` (its first bytes) or, for a Parquet file, `{footer, fileLength}`. */
async function sampleOf(api, blob, rows) {
  const { format, head } = await formatOf(api, blob, rows);
  if (format !== 'parquet') return { sample: { head, whole: head.length === blob.size }, format, head };
  const footer = await parquetFooter(api, blob);
  return { sample: { footer: footer[0], fileLength: footer[1] }, format, head, footer };
}

/**
 * What a file of rows says of its columns (its first bytes, or a Parquet file's footer), as
 * `RekeyVerifier` and `rowsDesign` take it: `{head, whole}` or `{footer, fileLength}`. `source`:
 * a Blob, bytes or a reader (`RowsReader`); a stream cannot be read twice, so it is refused.
 * @param {object} api the engine (the package's glue)
 */
export async function rowsSample(api, source, rows = {}) {
  const blob = asReader(source);
  if (!blob) throw sourceError('must be a Blob, bytes or a reader: a stream cannot be read twice');
  return (await sampleOf(api, blob, rows)).sample;
}

/**
 * A stream's first chunks, read until HEAD bytes or its end: `{head, whole, all()}`, `all()` the
 * whole stream again (those chunks, then the rest).
 */
async function readAhead(stream) {
  const it = iterate(stream)[Symbol.asyncIterator]();
  const first = [];
  let n = 0;
  let whole = false;
  while (n < HEAD) {
    const r = await it.next();
    if (r.done) {
      whole = true;
      break;
    }
    first.push(r.value);
    n += r.value.length;
  }
  const head = new Uint8Array(Math.min(n, HEAD));
  let at = 0;
  for (const c of first) {
    if (at >= head.length) break;
    head.set(c.subarray(0, head.length - at), at);
    at += Math.min(c.length, head.length - at);
  }
  return {
    head,
    whole,
    async *all() {
      yield* first;
      if (!whole) for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    },
  };
}

/**
 * The chunks `analyzeRowsChunked` has read apart, about four times as many as `workers` (so one
 * that ends early takes another), or null for one pass: `{ groups, part? }` (a Parquet file's row
 * groups, or `part` `[skip, take]`: a run of one row group's rows) or `{ header, start, end }` (a
 * CSV's header line's length, a run of whole lines), each with its `bytes`. `fit`: what
 * `fitDesign` read of the file (its format, head and Parquet footer).
 */
async function chunkTasks(
  session,
  blob,
  { format, head, footer },
  workers = 2,
  from = CHUNKED_FROM,
  pieceRows = PIECE_ROWS,
) {
  if (format === 'parquet') {
    const { rowGroups: groups, groupRows } = session.parquet(...footer);
    const bytesOf = i => groups[i].reduce((b, r) => b + r.length, 0);
    const total = groupRows.reduce((a, b) => a + b, 0);
    // Pieces of at most a quarter of each worker's share (writers keep a row group to a million
    // rows or 128 MiB: a file of a few row groups would leave a worker idle while another reads
    // the last one); a row group larger than that is cut into runs of its rows, read in order by
    // whichever worker is free. Small row groups go together, as before.
    const piece = Math.max(pieceRows, Math.ceil(total / (4 * workers)));
    const tasks = [];
    let run = null;
    for (const [i, rows] of groupRows.entries()) {
      if (rows > piece) {
        run = null;
        const n = Math.ceil(rows / piece);
        for (let k = 0; k < n; k++) {
          const skip = Math.floor((rows * k) / n);
          const take = Math.floor((rows * (k + 1)) / n) - skip;
          tasks.push({ groups: [i], part: [skip, take], bytes: Math.round((bytesOf(i) * take) / rows) });
        }
      } else {
        if (!run || run.rows + rows > piece) {
          run = { groups: [], rows: 0, bytes: 0 };
          tasks.push(run);
        }
        run.groups.push(i);
        run.rows += rows;
        run.bytes += bytesOf(i);
      }
    }
    return tasks.length > 1 ? tasks : null;
  }
  const text = new TextDecoder().decode(head.subarray(0, 4096));
  const firstChar = text.trimStart()[0];
  if (format !== 'csv' && !(format === 'jsonl' && firstChar === '{')) return null;
  let header = 0;
  if (format === 'csv') {
    const nl = head.indexOf(10);
    // a quoted header might hold a line end: one pass
    if (nl < 0 || head.subarray(0, nl).includes(34)) return null;
    header = nl + 1;
  }
  // chunks of at least half the size read in one pass
  const n = Math.min(4 * workers, Math.floor(blob.size / Math.max(1, from / 2)));
  const cuts = [header];
  for (let k = 1; k < n; k++) {
    const at = header + Math.floor(((blob.size - header) * k) / n);
    const end = await lineEnd(blob, at);
    if (end === null) return null;
    if (end > cuts.at(-1) && end < blob.size) cuts.push(end);
  }
  cuts.push(blob.size);
  const tasks = [];
  for (let k = 0; k + 1 < cuts.length; k++)
    tasks.push({ header, start: cuts[k], end: cuts[k + 1], bytes: cuts[k + 1] - cuts[k] });
  return tasks.length > 1 ? tasks : null;
}

/** The offset just after the first line end at or after `at` (within a row's longest text). */
async function lineEnd(blob, at) {
  for (let from = at; from < Math.min(blob.size, at + (1 << 20)); from += 64 * 1024) {
    const b = await bytes(blob, from, Math.min(64 * 1024, blob.size - from));
    const i = b.indexOf(10);
    if (i >= 0) return from + i + 1;
  }
  return null;
}

/**
 * One chunk of `source` (a task of `analyzeRowsChunked`) read by this engine: its first pass as
 * bytes (the engine's `chunk()`). `onRead(bytes)` after each slice; `signal` stops between them.
 * @param {object} api the engine (the package's glue)
 */
export async function readChunk(api, doc, source, task, { options, rows = {}, onRead, signal } = {}) {
  const blob = asReader(source);
  const s = openSession(
    api,
    doc,
    options,
    task.keepBytes === undefined ? rows : { ...rows, keepBytes: task.keepBytes },
  );
  try {
    if (task.groups) {
      const { rowGroups } = s.parquet(...(await parquetFooter(api, blob)));
      const chunksOf = groupReader(blob, rowGroups, task.groups);
      for (const i of task.groups) {
        signal?.throwIfAborted();
        const ranges = rowGroups[i];
        s.pushRowGroup(
          i,
          ranges.map(r => r.start),
          await chunksOf(i),
          task.part,
        );
        onRead?.(task.part ? task.bytes : ranges.reduce((a, r) => a + r.length, 0));
      }
    } else {
      if (task.header) s.push(await bytes(blob, 0, task.header));
      for (let at = task.start; at < task.end; at += SLICE) {
        signal?.throwIfAborted();
        const n = Math.min(SLICE, task.end - at);
        s.push(await bytes(blob, at, n));
        onRead?.(n);
      }
    }
    return s.chunk();
  } finally {
    s.free();
  }
}

/**
 * The format of the file `blob` and its column names, before any row is read (to map the
 * design's fields to columns): `{format, columns, sample}`, the engine's (`rowsFormat`,
 * `rowsColumns`, `RowsSession.parquetColumns`), and what was read for them as `rowsDesign`
 * takes it (`sample`: see `rowsSample`), so a design fitted to the file reads it no more.
 * @param {object} api the engine (the package's glue)
 */
export async function fileColumns(api, source, rows = {}) {
  const { sample, format, head, footer } = await sampleOf(api, asReader(source), rows);
  const columns = format === 'parquet' ? api.RowsSession.parquetColumns(...footer, rows) : api.rowsColumns(rows, head);
  return { format, columns, sample };
}

/** The format of `blob` by the engine's rules, and the first bytes it was told from. */
async function formatOf(api, blob, rows) {
  const head = await bytes(blob, 0, Math.min(HEAD, blob.size));
  return { format: api.rowsFormat(rows, head), head };
}

/** An error of analyzeRows's `source`, shaped as the engine's argument errors. */
const sourceError = reason =>
  Object.assign(new TypeError(`analyzeRows: source ${reason}`), { kind: 'illegalArgument', reason, path: 'source' });

/** `source` as a random-access reader `{size, read(start, length)}`: a Blob or whole bytes made
 * one, a reader as given (the CLI's over a file handle, which reads every slice into one buffer:
 * a Blob's slices are new buffers each, and dead ones piled up outside the JS heap until V8
 * collected them, tens of MiB on a large file); null for a function of streams. */
function asReader(source) {
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) source = new Blob([source]);
  if (typeof Blob !== 'undefined' && source instanceof Blob)
    return {
      size: source.size,
      read: async (start, length) => new Uint8Array(await source.slice(start, start + length).arrayBuffer()),
    };
  if (typeof source === 'function') return null;
  if (Number.isSafeInteger(source?.size) && source.size >= 0 && typeof source.read === 'function') return source;
  throw sourceError(
    'must be a Blob or File, a Uint8Array or ArrayBuffer, a reader {size, read(start, length)}, or a function returning an async iterable of Uint8Array chunks',
  );
}

/** The most bytes one read of a Parquet file takes for several row groups (`groupReader`). */
const SPAN = 4 << 20;
/** The most bytes between two row groups' ranges that such a read takes along, unused. */
const GAP = 64 * 1024;

/**
 * `chunksOf(i)`: the bytes of row group `i`'s byte ranges (`groups[i]`, the engine's
 * `rowGroups`), as `pushRowGroup` takes them. Row groups read in order (`order`: their indexes,
 * all by default) are read together, one read of up to SPAN bytes for as many as fit (gaps of at
 * most GAP between them, the columns the key does not read): each read of a Blob is a round trip
 * to the browser's file reader, and a file of 10^5 small row groups took 10^5 of them (over 300 s
 * on the page where the CLI, reading its file by pread, took 17 s). A row group larger than SPAN
 * is read alone, one read per range as before.
 */
export function groupReader(blob, groups, order = groups.keys()) {
  const next = [...order];
  let at = 0;
  let span = null; // { start, bytes }
  return async i => {
    const ranges = groups[i];
    const inside = r => span && r.start >= span.start && r.start + r.length <= span.start + span.bytes.length;
    if (!ranges.every(inside)) {
      const k = next.indexOf(i, at);
      at = k >= 0 ? k : next.indexOf(i);
      span = at >= 0 ? await readSpan(blob, groups, next, at) : null;
      if (at < 0) at = 0;
    }
    if (!span) {
      const chunks = [];
      // copied (new Uint8Array: a Node Buffer's slice() is a view): a reader may hand back
      // the same buffer for its next read
      for (const r of ranges) chunks.push(new Uint8Array(await bytes(blob, r.start, r.length)));
      return chunks;
    }
    return ranges.map(r => span.bytes.subarray(r.start - span.start, r.start - span.start + r.length));
  };
}

/** One read of the row groups `next[at]`, `next[at + 1]`, … while they fit in SPAN bytes with
 * gaps of at most GAP: `{ start, bytes }`, or null when the first alone is larger than SPAN. */
async function readSpan(blob, groups, next, at) {
  let start = Infinity;
  let end = -Infinity;
  for (let k = at; k < next.length; k++) {
    let first = Infinity;
    let last = -Infinity;
    for (const r of groups[next[k]] ?? []) {
      first = Math.min(first, r.start);
      last = Math.max(last, r.start + r.length);
    }
    if (!(last > first)) continue;
    const lo = Math.min(start, first);
    const hi = Math.max(end, last);
    if (k > at && (hi - lo > SPAN || first - end > GAP || first < end)) break;
    start = lo;
    end = hi;
  }
  if (!(end > start) || end - start > SPAN) return null;
  // copied once for the groups it holds: a reader may hand back the same buffer next time
  return { start, bytes: new Uint8Array(await bytes(blob, start, end - start)) };
}

/** `length` bytes of `reader` from `start`; a short read is the file changing under us. */
async function bytes(reader, start, length) {
  const b = await reader.read(start, length);
  if (b.length !== length)
    throw sourceError(
      `gave ${b.length} bytes at ${start} where ${length} were expected (the file changed while it was read?)`,
    );
  return b;
}

async function* iterate(it) {
  if (it && typeof it.getReader === 'function') {
    const reader = it.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    yield* it;
  }
}

/** A Parquet file's footer and length, `[footer, size]`, as the engine takes them. */
async function parquetFooter(api, blob) {
  const size = blob.size;
  if (size < 12) throw sourceError('is shorter than any Parquet file (12 bytes)');
  const len = api.RowsSession.footerLength(await bytes(blob, size - 8, 8));
  if (len > size - 4) throw sourceError(`has a Parquet footer of ${len} bytes in a file of ${size}`);
  return [await bytes(blob, size - len, len), size];
}
