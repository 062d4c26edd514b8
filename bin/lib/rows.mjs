// --records FILE in any format the engine reads (CSV, JSON Lines, Parquet, Arrow IPC): the
// library's analyzeRows over the file opened as a Blob; the flags as the engine's RowsOptions.
import { createReadStream, statSync } from 'node:fs';
import * as api from '../../pkg/node/index.js';
import { whole } from './args.mjs';
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
  if (opt.keepMib !== undefined) o.keepBytes = whole(opt, 'keepMib', 'keep-mib', 0) * 2 ** 20;
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
 * Analyze `design` over the rows of `file` with the library: a regular file by
 * `analyzeRowsParallel` (its chunks read by worker threads; a Parquet file by row group), or
 * for a scan alone by `analyzeRows` at offsets; stdin (`-`) read once for the first pass,
 * copied meanwhile to a temporary file that a second pass reads if the rows pass the engine's
 * memory cap (so an endless stdin is refused at its first bad row, not after it is copied). `{session, summary, stats}`; the caller frees
 * the session. `more`: the library's `keys`, `onSlice` and `signal`.
 */
export async function analyzeRows(design, options, file, opt, name = inputName(file), scanOnly = false, more = {}) {
  const rows = rowsOptions(opt, name);
  // stdin, a pipe or a device (`<(zcat rows.csv.gz)`, /dev/zero) is read once as a stream and
  // copied for a second pass; a regular file is read at offsets.
  const regular = file !== '-' && isRegularFile(file, name);
  const spool = regular ? null : new Spool();
  // a regular file's reading shared by worker threads (--threads, default every core): the
  // same report, byte for byte
  const spread = regular && !scanOnly && !more.keys;
  const handle = regular && !spread ? await api.openRowsReader(file) : null;
  try {
    const source =
      handle ??
      (pass =>
        pass === 'reading'
          ? spool.tee(file === '-' ? process.stdin : createReadStream(file))
          : createReadStream(spool.file));
    const bars = {};
    const run = {
      options,
      rows,
      scanOnly,
      ...more,
      onProgress: p => {
        bars[p.pass] ??= progressBar(p.pass);
        if (p.total) bars[p.pass].update(p.done, p.total);
      },
    };
    try {
      return spread
        ? await api.analyzeRowsParallel(design, file, { ...run, threads: whole(opt, 'threads', 'threads') })
        : await api.analyzeRows(design, source, run);
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

/**
 * Whether `file` is a regular file (else a pipe, a device or a socket); a missing file or a
 * directory is an input error (a Spark or Hive export is a folder of part files: read whole,
 * not one part of it).
 */
export function isRegularFile(file, name = inputName(file)) {
  let stat;
  try {
    stat = statSync(file);
  } catch (e) {
    throw new CliError(EXIT.INPUT, `${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  if (stat.isDirectory())
    throw new CliError(
      EXIT.INPUT,
      `${name}: a directory, not a file of rows. A Spark or Hive export is a folder of part files: join them into one file first (pyarrow: pq.write_table(pq.read_table(DIR), FILE)), or give Python's rk.analyze / rk.verify the table pq.read_table(DIR) reads`,
    );
  return stat.isFile();
}

/** An engine error: a row's already says the file, the line or row and the column. */
function rowsError(e) {
  const reason = e?.reason ?? '';
  if (!(e instanceof CliError) && / (row|line) \d+|records\[\d+\]/.test(reason))
    return new CliError(EXIT.INPUT, reason);
  return engineError(e);
}

/**
 * `f(session)` on a session that read the rows of `file` once, keeping their keys in write order
 * (the months of life over them: `lifeMonths`, `checkLife`); the session freed after. `name`:
 * the file's name in messages (stdin's spool: 'stdin').
 */
export async function withWriteSample(design, file, opt, f, name = undefined) {
  const { session } = await analyzeRows(design, null, file, opt, name, true, { writeSample: true });
  try {
    return f(session);
  } finally {
    session.free();
  }
}
