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
 * The rows of `source` analyzed with `doc`: `{session, summary, stats}` — the RowsSession after
 * both passes (the caller calls `finish()` or `check(budgets)`, then `free()`), the scan's
 * summary `{rows, firstMs, lastMs, outOfOrder}` and what reading found `{rows, used, skipped,
 * columns, time, format}`.
 *
 * `source`: a Blob or File; a Uint8Array or ArrayBuffer (the whole file); a reader `{size,
 * read(start, length)}` resolving to that many bytes (which may be overwritten by its next read); or a function that
 * returns a fresh async iterable (or ReadableStream) of Uint8Array chunks each time it is called
 * (once per pass, with the pass's name: `reading`, then `analyzing`; a Parquet file given so is
 * read whole, up to the engine's cap). `rows`: `{format, name, map, time, nulls, epoch, delimiter}`.
 * `onProgress({pass, done, total})` after each slice; `signal` (AbortSignal) stops between slices.
 * `scanOnly`: stop after the first pass (for `session.profile()` with `rows.profile`). `keys`: the
 * first pass keeps every row's key (`session.takeKeys()`); `onSlice(session)`, awaited after
 * each slice of the first pass, takes them as they come (`encode --records`).
 * @param {object} api the engine (the package's glue)
 */
export async function analyzeRows(
  api,
  doc,
  source,
  { options, rows = {}, onProgress, signal, scanOnly = false, keys = false, onSlice } = {},
) {
  const blob = asReader(source);
  const s = new api.RowsSession(doc, options, rows);
  try {
    if (keys) s.keepKeys();
    let parquet = null;
    if (blob && (await formatOf(api, blob, rows)).format === 'parquet')
      parquet = s.parquet(...(await parquetFooter(api, blob))).rowGroups;
    const passes = {};
    for (const pass of scanOnly ? ['reading'] : ['reading', 'analyzing']) {
      // The engine kept the rows the first pass read (while they fit its cap) and counted them
      // at endScan(): the file is read once.
      if (pass === 'analyzing' && passes.summary.analyzed) {
        passes.stats = s.end();
        break;
      }
      const tick = async (done, total) => {
        onProgress?.({ pass, done, total });
        if (pass === 'reading') await onSlice?.(s);
      };
      if (parquet) {
        for (const [i, ranges] of parquet.entries()) {
          signal?.throwIfAborted();
          const chunks = [];
          // copied (new Uint8Array: a Node Buffer's slice() is a view): a reader may hand back
          // the same buffer for its next read
          for (const r of ranges) chunks.push(new Uint8Array(await bytes(blob, r.start, r.length)));
          s.pushRowGroup(
            i,
            ranges.map(r => r.start),
            chunks,
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
        for await (const chunk of iterate(source(pass))) {
          signal?.throwIfAborted();
          s.push(chunk);
          done += chunk.length;
          await tick(done, undefined);
        }
      }
      if (pass === 'reading') passes.summary = s.endScan();
      else passes.stats = s.end();
    }
    return { session: s, ...passes };
  } catch (e) {
    // the keys of the rows before a bad one are still handed over (they were read)
    if (keys && onSlice && !signal?.aborted) await Promise.resolve(onSlice(s)).catch(() => {});
    s.free();
    throw e;
  }
}

/**
 * The format of the file `blob` and its column names, before any row is read (to map the
 * design's fields to columns): `{format, columns}`, both the engine's (`rowsFormat`,
 * `rowsColumns`, `RowsSession.parquetColumns`).
 * @param {object} api the engine (the package's glue)
 */
export async function fileColumns(api, source, rows = {}) {
  const blob = asReader(source);
  const { format, head } = await formatOf(api, blob, rows);
  const columns =
    format === 'parquet'
      ? api.RowsSession.parquetColumns(...(await parquetFooter(api, blob)), rows)
      : api.rowsColumns(rows, head);
  return { format, columns };
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
