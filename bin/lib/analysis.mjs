// The analysis as the CLI runs it: on a table's regions (--regions), over your rows (--records) in
// chunks with a progress bar, with --windows; the read plans; the table's load now.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from './errors.mjs';
import { argmax, progressBar } from './format.mjs';

/** The table's measured load per region (`list.load`): each region's share of the writes a
 * /jmx dump counted, or of list_regions' REQ (reads and writes) without one; undefined when
 * the text gave no counts. */
export function measured(list) {
  const load = list?.load ?? [];
  const what = load.some(l => l.writes !== null) ? 'writes' : 'requests';
  const counts = load.map(l => (what === 'writes' ? l.writes : l.requests) ?? 0);
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return undefined;
  const shares = counts.map(c => c / total);
  return { what, shares, busiest: argmax(shares) };
}
/**
 * `design` on the table's regions from `loadRegions` (its own pre-split without them): their
 * split points, and their servers when the text names every region's (`list.assignment`; the
 * names then count the servers). A placement by names the design carried from another table is
 * dropped: it names that table's regions. As www/table-regions.js does.
 */
export function onRegions(design, list) {
  if (!list) return design;
  const { assignment, regionServers, ...regions } = design.regions ?? {};
  const placement = list.assignment
    ? { assignment: list.assignment }
    : {
        ...(regionServers !== undefined ? { regionServers } : {}),
        ...(typeof assignment === 'string' ? { assignment } : {}),
      };
  return { ...design, regions: { ...regions, presplit: list.presplit, ...placement } };
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
        const k = /^records\[(\d+)\]\.?(.*)$/.exec(e.path ?? '');
        if (k) throw new CliError(EXIT.INPUT, `${where(at + Number(k[1]))}: ${e.reason ?? e.message}`);
        throw e;
      }
      bar.update(Math.min(at + CHUNK, records.length), records.length);
    }
  } finally {
    bar.done();
  }
}

/** The most rows whose keys make a `sampleQuantiles` pre-split (the engine's own sample size). */
const QUANTILE_SAMPLE = 10000;

/**
 * The rows of `--records FILE` (from `loadRecords`) with the design fitted to them: its record count is theirs (the
 * time windows span the workload's records at its write rate), and a `sampleQuantiles`
 * pre-split without a sample of its own is cut at the quantiles of these rows' keys (every
 * k-th row, at most 10,000), not of the generated workload's. Analysis and read plans both
 * use the fitted design, so they see the same regions.
 */
export function loadFed(design, { records, where }) {
  const fitted = { ...design, workload: { ...(design.workload ?? {}), records: records.length } };
  const presplit = design.regions?.presplit;
  if (presplit?.kind === 'sampleQuantiles' && presplit.sample == null) {
    const step = Math.ceil(records.length / QUANTILE_SAMPLE);
    const picked = records.filter((_, i) => i % step === 0);
    const sample = [];
    engine(() => {
      const codec = new api.KeyCodec(design);
      try {
        inChunks(
          picked,
          i => where(i * step),
          'sampling',
          chunk => {
            const { keys, offsets } = codec.encodeAll(chunk);
            for (let i = 0; i + 1 < offsets.length; i++)
              sample.push(api.toStringBinary(keys.subarray(offsets[i], offsets[i + 1])));
          },
        );
      } finally {
        codec.free();
      }
    });
    fitted.regions = { ...design.regions, presplit: { ...presplit, sample } };
  }
  return { records, where, design: fitted };
}

/** Feed the rows to a session in chunks (progress on a TTY); an engine error names the record's line. */
function feedRecords({ records, where, design }, options) {
  return engine(() => {
    const s = new api.AnalysisSession(design, options);
    try {
      inChunks(records, where, 'analyzing', chunk => s.feed(chunk));
      return s.finish();
    } finally {
      s.free();
    }
  });
}

/** The design's analysis: its generated workload, or the rows `fed` (from `loadFed`). */
export function runAnalysis(design, opt, fed) {
  const options = windowsOption(opt);
  if (fed) return feedRecords(fed, options);
  if (process.stderr.isTTY) {
    return engine(() => {
      const s = new api.AnalysisSession(design, options);
      const bar = progressBar('analyzing');
      try {
        for (;;) {
          const p = s.step(20000);
          bar.update(p.done, p.total);
          if (p.finished) break;
        }
        return s.finish();
      } finally {
        bar.done();
        s.free();
      }
    });
  }
  return engine(() => api.analyzeDesign(design, options));
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
