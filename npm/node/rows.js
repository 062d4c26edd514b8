// analyzeRowsParallel (pkg/node/rows.js): your own rows analyzed as analyzeRows does, the file's
// reading shared by worker threads, one engine per worker. The shared driver
// (../shared/rows.js analyzeRowsChunked) cuts the file into chunks (Parquet row groups or runs
// of their rows, runs of whole lines), the scheduler the page uses too
// (../shared/scheduler.js spreadTasks) hands each to the next free worker, which reads it
// (readChunk) and hands back its first pass; this thread's engine adds them up in file order and
// counts the rows: one reader's report, byte for byte, whatever the number of workers. Reading
// (parsing text, converting cells) is most of a rows run; counting the kept rows stays on one
// engine. Copied by scripts/build-npm.sh.
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { localClient } from '../shared/calls.js';
import { analyzeRows, analyzeRowsChunked, readChunk } from '../shared/rows.js';
import { spreadTasks } from '../shared/scheduler.js';
import { checkCloneable, withThreads } from './pool.js';

/**
 * A regular file as the engine's random-access reader (`RowsReader`), with `close()`. Slices
 * up to 1 MiB are read into one buffer, so memory stays flat whatever the file's size (a Blob
 * makes a new buffer for every slice: on a 40 MiB file the dead ones raised the peak by about
 * 20 MiB before V8 collected them).
 * @param {string} path
 */
export async function openRowsReader(path) {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw fileError(path, e);
  }
  const { size } = await fh.stat();
  const reused = Buffer.alloc(1 << 20);
  return {
    size,
    async read(start, length) {
      const buf = length <= reused.length ? reused : Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        let bytesRead;
        try {
          ({ bytesRead } = await fh.read(buf, got, length - got, start + got));
        } catch (e) {
          throw fileError(path, e);
        }
        if (!bytesRead) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
    close: () => fh.close(),
  };
}

/**
 * A file that cannot be opened or read (missing, a directory, no permission) as the engine's
 * error of kind `invalid` naming it, as the native engine's file driver says it (before, Node's
 * own error, without a kind).
 */
function fileError(path, e) {
  const reason = `${path}: ${e?.message ?? e}`;
  return Object.assign(new Error(reason), { kind: 'invalid', reason, code: e?.code });
}

/**
 * `analyzeRows` with the file's reading spread over `threads` worker threads (by default the
 * machine's cores): `source` a file's path or a Blob (what a worker can open again); anything
 * else, or a file that cannot be cut (see analyzeRowsChunked), is read in one pass here.
 * @param {object} api the engine (this entry's glue)
 */
export async function analyzeRowsParallel(api, doc, source, opts = {}) {
  const { threads = availableParallelism(), ...rest } = opts;
  const path = typeof source === 'string' ? source : null;
  const blob = typeof Blob !== 'undefined' && source instanceof Blob ? source : null;
  const reader = path === null ? source : await openRowsReader(path);
  try {
    if (threads < 2 || (path === null && blob === null)) return await analyzeRows(api, doc, reader, rest);
    const { options, rows, signal } = rest;
    checkCloneable('analyzeRowsParallel', { doc, options, rows });
    // this thread reads chunks too (with an engine session of its own), beside threads - 1
    // workers: no core waits while the others read
    const here = localClient(rowsHandlers(api, readChunk, v => v));
    // `design`: the document the chunks are read with (`doc`, fields the file types declared)
    const spread = (tasks, onRead, design) =>
      withThreads(Math.min(threads, tasks.length) - 1, workers =>
        spreadTasks({
          workers: [here, ...workers],
          tasks,
          signal,
          call: (w, task) =>
            w.call(
              'readRowsChunk',
              { doc: design, options, rows, source: path ?? blob, task },
              { signal, on: (event, n) => event === 'read' && onRead(n) },
            ),
        }),
      );
    return await analyzeRowsChunked(api, doc, reader, spread, { ...rest, workers: threads });
  } finally {
    if (path !== null) await reader.close();
  }
}

/** The worker's side: one chunk read by this thread's engine (`api`), its first pass moved back. */
export function rowsHandlers(api, readChunk, moved) {
  return {
    async readRowsChunk({ doc, options, rows, source, task }, emit) {
      const reader = typeof source === 'string' ? await openRowsReader(source) : source;
      try {
        const chunk = await readChunk(api, doc, reader, task, { options, rows, onRead: n => emit('read', n) });
        return moved(chunk, [chunk.buffer]);
      } finally {
        if (typeof source === 'string') await reader.close();
      }
    },
  };
}
