// --records FILE in any format the engine reads (CSV, JSON Lines, Parquet, Arrow IPC): the
// library's analyzeRows over the file opened as a Blob; the flags as the engine's RowsOptions.
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engineError } from './errors.mjs';
import { progressBar } from './format.mjs';
import { inputName } from './input.mjs';
import { Spool } from './records.mjs';

/** The rows options (RowsOptions) the user gave: only those, so the engine's defaults hold. */
export function rowsOptions(opt, name) {
  const o = { name };
  if (opt.format !== undefined) o.format = opt.format;
  if (opt.time !== undefined) o.time = opt.time;
  if (opt.nulls !== undefined) o.nulls = opt.nulls;
  if (opt.epoch !== undefined) o.epoch = opt.epoch;
  if (opt.delimiter !== undefined) o.delimiter = opt.delimiter === '\\t' ? '\t' : opt.delimiter;
  if (opt.profile) o.profile = true;
  if (opt.map !== undefined) {
    o.map = {};
    for (const m of [opt.map].flat()) {
      const eq = m.indexOf('=');
      if (eq <= 0 || eq === m.length - 1)
        throw new CliError(EXIT.USAGE, `--map takes FIELD=COLUMN (the design's field, the file's column), not ${m}`);
      o.map[m.slice(0, eq)] = m.slice(eq + 1);
    }
  }
  return o;
}

/**
 * Analyze `design` over the rows of `file` with the library's `analyzeRows`: a file read at
 * offsets (fileReader: in slices, a Parquet file by row group); stdin (`-`) read once for the first pass,
 * copied meanwhile to a temporary file that the second pass reads (so an endless stdin is refused
 * at its first bad row, not after it is copied). `{session, summary, stats}`; the caller frees
 * the session. `more`: the library's `keys`, `onSlice` and `signal`.
 */
export async function analyzeRows(design, options, file, opt, name = inputName(file), scanOnly = false, more = {}) {
  const rows = rowsOptions(opt, name);
  // stdin, a pipe or a device (`<(zcat rows.csv.gz)`, /dev/zero) is read once as a stream and
  // copied for the second pass; a regular file is opened as a Blob.
  let regular = false;
  if (file !== '-') {
    try {
      regular = statSync(file).isFile();
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    }
  }
  const spool = regular ? null : new Spool();
  const handle = regular ? await fileReader(file) : null;
  try {
    const source =
      handle ??
      (pass =>
        pass === 'reading'
          ? spool.tee(file === '-' ? process.stdin : createReadStream(file))
          : createReadStream(spool.file));
    const bars = {};
    try {
      return await api.analyzeRows(design, source, {
        options,
        rows,
        scanOnly,
        ...more,
        onProgress: p => {
          bars[p.pass] ??= progressBar(p.pass);
          if (p.total) bars[p.pass].update(p.done, p.total);
        },
      });
    } catch (e) {
      throw rowsError(e);
    } finally {
      for (const b of Object.values(bars)) b.done();
    }
  } finally {
    await handle?.close();
    spool?.remove();
  }
}

/** A regular file as the library's random-access reader (`RowsReader`), with `close()`. Slices
 * up to 1 MiB (the library's) are read into one buffer, so memory stays flat whatever the file's
 * size: a Blob (`openAsBlob`) makes a new buffer for every slice, and on a 40 MiB file the dead
 * ones raised the peak by about 20 MiB before V8 collected them. */
async function fileReader(file) {
  const fh = await open(file, 'r');
  const { size } = await fh.stat();
  const reused = Buffer.alloc(1 << 20);
  return {
    size,
    async read(start, length) {
      const buf = length <= reused.length ? reused : Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, start + got);
        if (!bytesRead) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
    close: () => fh.close(),
  };
}

/** An engine error: a row's already says the file, the line or row and the column. */
function rowsError(e) {
  const reason = e?.reason ?? '';
  if (!(e instanceof CliError) && / (row|line) \d+|records\[\d+\]/.test(reason))
    return new CliError(EXIT.INPUT, reason);
  return engineError(e);
}
