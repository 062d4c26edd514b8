// The analysis as the CLI runs it: on a table's regions (--regions), over your rows (--records) in
// chunks with a progress bar, with --windows; the read plans; the table's load now.
import * as api from '../../pkg/node/index.js';
import { whole } from './args.mjs';
import { CliError, EXIT, engine, engineError } from './errors.mjs';
import { progressBar } from './format.mjs';

/** `design` on the table's regions from `loadRegions` (its own without them), by the engine's
 * rule (`onTableRegions`): their split points, and their servers when the text names every
 * region's. */
export function onRegions(design, list) {
  return list ? engine(() => api.onTableRegions(design, list)) : design;
}

/**
 * Run `fn(records)` over `chunks` (from `recordChunks`) until it says false, a progress bar on
 * a TTY: `progress(chunk)` gives `[done, total]` (nothing: no bar to draw). An engine error
 * locates a bad record as records[i] of its chunk (records[i].field): it is reported by its
 * place in the file.
 */
export async function inChunks(chunks, label, progress, fn) {
  const bar = progressBar(label);
  try {
    for await (const chunk of chunks) {
      let more;
      try {
        more = await fn(chunk.records);
      } catch (e) {
        throw atRecord(e, chunk.where);
      }
      if (more === false) break;
      const p = progress(chunk);
      if (p) bar.update(...p);
    }
  } finally {
    bar.done();
  }
}

/** The most records `fitToRecords` cuts a sampleQuantiles pre-split at (every k-th, at most 10,000). */
const SAMPLE = 10000;

/**
 * The rows of `--records FILE` (from `openRecords`) with the design fitted to them by the engine
 * (`fitToRecords`: their count; a `sampleQuantiles` pre-split without a sample cut at their
 * keys). The engine cuts at every k-th of the records it is given, k = ceil(count / 10,000):
 * it is given just those (so it takes them all) and the count is set to the rows', so the
 * design is the one it fits to all rows while at most 10,000 are held. Analysis and read plans
 * both use the fitted design, so they see the same regions. A record the key cannot encode is
 * reported by its place in the file.
 */
export async function loadFed(design, rows) {
  const sample = [];
  const places = [];
  if (fitsRegions(design)) {
    for await (const chunk of rows.chunks({ every: Math.ceil(rows.count / SAMPLE) })) {
      chunk.records.forEach((r, i) => {
        sample.push(r);
        places.push(chunk.where(i));
      });
    }
  }
  let fitted;
  try {
    fitted = api.fitToRecords(design, sample);
  } catch (e) {
    throw atRecord(e, i => places[i]);
  }
  return { rows, design: { ...fitted, workload: { ...fitted.workload, records: rows.count } } };
}

/**
 * Whether the engine cuts the design's regions at the rows it is fitted to (a sampleQuantiles
 * pre-split without a sample): fitted to no rows, its regions are not the design's own. When
 * not, the sample would go unread and the pass over the file is saved.
 */
function fitsRegions(design) {
  const regions = d => JSON.stringify(d.regions ?? null);
  return engine(() => regions(api.fitToRecords(design, [])) !== regions(api.validateDesign(design)));
}

/** An engine error that names a record (`records[i]` from a session's feed, `/records/i` from
 * fitToRecords), as an input error at that record's place in the file (`where(i)`); any other
 * as `engineError` gives it. */
function atRecord(e, where) {
  const k = /^\/?records(?:\[(\d+)\]|\/(\d+))/.exec(e.path ?? '');
  return k && !(e instanceof CliError)
    ? new CliError(EXIT.INPUT, `${where(Number(k[1] ?? k[2]))}: ${e.reason ?? e.message}`)
    : engineError(e);
}

/**
 * Run the design's analysis in a session (its generated workload, or the rows `fed` from
 * `loadFed`, read again in chunks) with a progress bar on a TTY, and return `finish(session)`:
 * its report by default. An engine error names the record's line.
 */
export async function runAnalysis(design, opt, fed, finish = s => s.finish()) {
  const options = windowsOption(opt);
  let s;
  try {
    if (fed) {
      s = new api.AnalysisSession(fed.design, options);
      const { rows } = fed;
      await inChunks(
        rows.chunks(),
        'analyzing',
        c => [c.at + c.records.length, rows.count],
        chunk => s.feed(chunk),
      );
    } else {
      // on worker threads, one per core unless --threads says otherwise: the same session
      const bar = progressBar('analyzing');
      try {
        s = await api.analysisSessionParallel(design, options, {
          threads: whole(opt, 'threads', 'threads'),
          onProgress: p => bar.update(p.done, p.total),
        });
      } finally {
        bar.done();
      }
    }
    return finish(s);
  } catch (e) {
    throw engineError(e);
  } finally {
    s?.free();
  }
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
