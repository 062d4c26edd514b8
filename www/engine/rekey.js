// The rekey plan over a file of the user's rows, composed once for the CLI (`rowkey-lab rekey`,
// bin/commands/rekey.mjs) and the page (the rows worker's `rekeyRows`, rows-calls.js): both
// designs analyze the same rows (the new one cut into `regions` regions at the rows re-encoded,
// by rows or bytes, or on its own pre-split), then the engine plans the move from the two
// reports (rekeyPlan, src/advise/rekey.rs). How the rows are read is the caller's (`read`: a
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
 * those rows (`{session, design, stats}`); each session is freed here. `options`: rekeyPlan's
 * (family, tables, throughputs…; the rows' columns are added).
 * @param {object} api the engine (with rekeyPlan: the library's builds)
 */
export async function rekeyRows(api, oldDoc, newDoc, read, { regions, by, options = {} } = {}) {
  const before = await reportOf(read, oldDoc);
  const after = await reportOf(read, rekeyCut(newDoc, regions, by));
  const columns = [...new Set([...Object.keys(before.stats.columns ?? {}), ...Object.keys(after.stats.columns ?? {})])];
  const plan = api.rekeyPlan(before.design, after.design, before.report, after.report, { ...options, columns });
  return { ...plan, splitKeysExact: after.exact };
}

/** The rows' report under `design` and what reading found; the session freed. */
async function reportOf(read, design) {
  const run = await read(design);
  try {
    const r = run.session.finish();
    const p = run.design.regions?.presplit;
    const cut = p?.kind === 'sampleQuantiles' && !p.sample ? run.session.splitKeys() : null;
    return { report: r, design: run.design, stats: run.stats, exact: cut ? cut.exact : true };
  } finally {
    run.session.free();
  }
}
