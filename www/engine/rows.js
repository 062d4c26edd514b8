// Your own rows, for the page, the library and the CLI alike: the bytes of a file handed to the
// engine's RowsSession in its two passes (a scan for the rows' count and time span, then the
// analysis). The engine tells the format, parses, binds columns to fields and converts; this
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
 * `source`: a Blob or File; a Uint8Array or ArrayBuffer (the whole file); or a function that
 * returns a fresh async iterable (or ReadableStream) of Uint8Array chunks each time it is called
 * (once per pass, with the pass's name: `reading`, then `analyzing`; a Parquet file given so is
 * read whole, up to the engine's cap). `rows`: `{format, name, map, time, nulls, epoch, delimiter}`.
 * `onProgress({pass, done, total})` after each slice; `signal` (AbortSignal) stops between slices.
 * `scanOnly`: stop after the first pass (for `session.profile()` with `rows.profile`).
 * @param {object} api the engine (the package's glue)
 */
export async function analyzeRows(api, doc, source, { options, rows = {}, onProgress, signal, scanOnly = false } = {}) {
  const blob = asBlob(source);
  const s = new api.RowsSession(doc, options, rows);
  try {
    let parquet = null;
    if (blob && (await formatOf(api, blob, rows)).format === 'parquet')
      parquet = s.parquet(...(await parquetFooter(api, blob))).rowGroups;
    const passes = {};
    for (const pass of scanOnly ? ['reading'] : ['reading', 'analyzing']) {
      const tick = (done, total) => onProgress?.({ pass, done, total });
      if (parquet) {
        for (const [i, ranges] of parquet.entries()) {
          signal?.throwIfAborted();
          const chunks = [];
          for (const r of ranges) chunks.push(await bytes(blob, r.start, r.length));
          s.pushRowGroup(
            i,
            ranges.map(r => r.start),
            chunks,
          );
          tick(i + 1, parquet.length);
        }
      } else if (blob) {
        for (let at = 0; at < blob.size; at += SLICE) {
          signal?.throwIfAborted();
          s.push(await bytes(blob, at, Math.min(SLICE, blob.size - at)));
          tick(Math.min(at + SLICE, blob.size), blob.size);
        }
      } else {
        let done = 0;
        for await (const chunk of iterate(source(pass))) {
          signal?.throwIfAborted();
          s.push(chunk);
          done += chunk.length;
          tick(done, undefined);
        }
      }
      if (pass === 'reading') passes.summary = s.endScan();
      else passes.stats = s.end();
    }
    return { session: s, ...passes };
  } catch (e) {
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
export async function fileColumns(api, blob, rows = {}) {
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

/** `source` as a Blob when it is one or whole bytes; null for a function of streams. */
function asBlob(source) {
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source;
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) return new Blob([source]);
  if (typeof source === 'function') return null;
  throw sourceError(
    'must be a Blob or File, a Uint8Array or ArrayBuffer, or a function returning an async iterable of Uint8Array chunks',
  );
}

async function bytes(blob, start, length) {
  return new Uint8Array(await blob.slice(start, start + length).arrayBuffer());
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
