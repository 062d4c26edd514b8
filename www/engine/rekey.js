// The rekey plan over a file of the user's rows, composed once for the CLI (`rowkey-lab rekey`,
// bin/commands/rekey.mjs) and the page (the rows worker's `rekeyRows`, rows-calls.js): both
// designs analyze the same rows, read once for both where the engine allows it (the new one cut
// into `regions` regions at the rows re-encoded, by rows or bytes, or on its own pre-split),
// then the engine plans the move from the two reports (rekeyPlan, src/advise/rekey.rs). How the rows are read is the caller's (`read`: a
// thread or workers, a path or a File). The npm package carries this file as
// pkg/shared/rekey.js (scripts/build-npm.sh).

/** `newDoc` cut into `regions` regions at the rows' keys (`by`: rows or bytes); `newDoc` itself
 * when `regions` is undefined (its own pre-split). */
export function rekeyCut(newDoc, regions, by) {
  if (regions === undefined) return newDoc;
  const presplit = { kind: 'sampleQuantiles', regions, ...(by === 'bytes' ? { by: 'bytes' } : {}) };
  return { ...newDoc, regions: { ...newDoc.regions, presplit } };
}

/**
 * The plan for moving the rows `read` reads from `oldDoc`'s table to `newDoc`'s: the engine's
 * rekeyPlan with `splitKeysExact` (false when the new split keys were cut at a uniform sample
 * of the rows, not every row). `read(design)` resolves to the library's analyzeRows answer for
 * those rows (`{session, design, stats}`), `design` one document or an array of them (one
 * reading for all); each session is freed here. `options`: rekeyPlan's (family, tables,
 * throughputs…; the rows' columns are added).
 *
 * Both designs share one reading of the file (the engine's SharedRowsSession: read and
 * converted once, each report the one its design alone gives) unless the engine says they
 * cannot (`rowsShareable`: a field the two type differently, a key that numbers names in the
 * order rows arrive); then each design reads the file on its own.
 * @param {object} api the engine (with rekeyPlan: the library's builds)
 */
export async function rekeyRows(api, oldDoc, newDoc, read, { regions, by, options = {} } = {}) {
  const cut = rekeyCut(newDoc, regions, by);
  const [before, after] =
    api.rowsShareable([oldDoc, cut]) === null
      ? await reportsOf(read, [oldDoc, cut])
      : [await reportsOf(read, oldDoc), await reportsOf(read, cut)].flat();
  const columns = [...new Set([...Object.keys(before.stats.columns ?? {}), ...Object.keys(after.stats.columns ?? {})])];
  const plan = api.rekeyPlan(before.design, after.design, before.report, after.report, { ...options, columns });
  return { ...plan, splitKeysExact: after.exact };
}

/** The rows' report under `design` (or each design of an array, over one reading) and what
 * reading found: one answer per design; the session freed. */
async function reportsOf(read, design) {
  const run = await read(design);
  try {
    if (!Array.isArray(design)) return [side(run.session, run.design, run.stats)];
    return run.design.map((d, i) => side(run.session, d, run.session.stats(i), i));
  } finally {
    run.session.free();
  }
}

/** One design's report from `session` (its `i`th design, when shared), its split keys' exactness. */
function side(session, design, stats, i) {
  const report = session.finish(i);
  const p = design.regions?.presplit;
  const cut = p?.kind === 'sampleQuantiles' && !p.sample ? session.splitKeys(i) : null;
  return { report, design, stats, exact: cut ? cut.exact : true };
}
