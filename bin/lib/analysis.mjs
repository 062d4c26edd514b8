// The analysis as the CLI runs it: on a table's regions (--regions), over your rows (--records) in
// chunks with a progress bar, with --windows; the read plans; the table's load now.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine, engineError } from './errors.mjs';
import { progressBar } from './format.mjs';

/** `design` on the table's regions from `loadRegions` (its own without them), by the engine's
 * rule (`onTableRegions`): their split points, and their servers when the text names every
 * region's. */
export function onRegions(design, list) {
  return list ? engine(() => api.onTableRegions(design, list)) : design;
}

/**
 * Run `fn(chunk, at)` over `records` in chunks of 10,000 (a progress bar on a TTY). An engine
 * error locates a bad record as records[i] of its chunk (records[i].field): it is reported
 * by its place in the file (`where`).
 */
export function inChunks(records, where, label, fn) {
  const CHUNK = 10000;
  const bar = progressBar(label);
  try {
    for (let at = 0; at < records.length; at += CHUNK) {
      try {
        fn(records.slice(at, at + CHUNK), at);
      } catch (e) {
        throw atRecord(e, where, at);
      }
      bar.update(Math.min(at + CHUNK, records.length), records.length);
    }
  } finally {
    bar.done();
  }
}

/**
 * The rows of `--records FILE` (from `loadRecords`) with the design fitted to them by the engine
 * (`fitToRecords`: their count; a `sampleQuantiles` pre-split without a sample cut at their
 * keys). Analysis and read plans both use the fitted design, so they see the same regions. A
 * record the key cannot encode is reported by its place in the file.
 */
export function loadFed(design, { records, where }) {
  try {
    return { records, where, design: api.fitToRecords(design, records) };
  } catch (e) {
    throw atRecord(e, where);
  }
}

/** An engine error that names a record (`records[i]` from a session's feed, `/records/i` from
 * fitToRecords), as an input error at that record's place in the file (`where`, the record
 * `offset + i`); any other as `engineError` gives it. */
function atRecord(e, where, offset = 0) {
  const k = /^\/?records(?:\[(\d+)\]|\/(\d+))/.exec(e.path ?? '');
  return k && !(e instanceof CliError)
    ? new CliError(EXIT.INPUT, `${where(offset + Number(k[1] ?? k[2]))}: ${e.reason ?? e.message}`)
    : engineError(e);
}

/**
 * Run the design's analysis in a session (its generated workload, or the rows `fed` from
 * `loadFed`, in chunks) with a progress bar on a TTY, and return `finish(session)`: its report
 * by default. An engine error names the record's line.
 */
export function runAnalysis(design, opt, fed, finish = s => s.finish()) {
  const options = windowsOption(opt);
  return engine(() => {
    const s = new api.AnalysisSession(fed?.design ?? design, options);
    try {
      if (fed) {
        inChunks(fed.records, fed.where, 'analyzing', chunk => s.feed(chunk));
      } else {
        const bar = progressBar('analyzing');
        try {
          for (;;) {
            const p = s.step(50000);
            bar.update(p.done, p.total);
            if (p.finished) break;
          }
        } finally {
          bar.done();
        }
      }
      return finish(s);
    } finally {
      s.free();
    }
  });
}

/** The design's read plans (`planReads`). */
export function readPlans(design) {
  return engine(() => api.planReads(design));
}

/** `--windows N` as analysis options (undefined: the engine's default). */
export function windowsOption(opt) {
  if (opt.windows === undefined) return undefined;
  if (!/^\d+$/.test(String(opt.windows))) {
    throw new CliError(EXIT.USAGE, `--windows must be a whole number of time windows, not ${opt.windows}`);
  }
  return { windows: Number(opt.windows) };
}
