// The rekey plan over a file of the user's rows, for the CLI (`rowkey-lab rekey`,
// bin/commands/rekey.mjs), the library's rekeyRows and the page (the rows worker's `rekeyRows`,
// rows-calls.js). The engine owns the plan (src/rekey/rows.rs): `rekeyReading` names the
// designs to read the rows with (the new one cut at the rows) and whether one reading feeds
// both; `rekeyRowsPlan` plans from what the reading found. Only the reading is here, since it
// is the caller's (`read`: a thread or workers, a path or a File). The npm package carries this
// file as pkg/shared/rekey.js (scripts/build-npm.sh).

/**
 * The plan for moving the rows `read` reads from `oldDoc`'s table to `newDoc`'s: the engine's
 * rekeyRowsPlan, with `splitKeysExact`. `read(design)` resolves to the library's analyzeRows
 * answer for those rows (`{session, design, stats}`), `design` one document or an array of them
 * (one reading for all); each session is freed here. `regions`, `by`: the engine's cut at the
 * rows (without `regions`, the new design's own pre-split); `options`: rekeyPlan's (family,
 * tables, throughputs…).
 * @param {object} api the engine (with rekeyReading and rekeyRowsPlan: the library's builds)
 */
export async function rekeyRows(api, oldDoc, newDoc, read, { regions, by, options } = {}) {
  const reading = api.rekeyReading(oldDoc, newDoc, { regions, by });
  const [before, after] = reading.shared
    ? await sidesOf(read, reading.designs)
    : [...(await sidesOf(read, reading.designs[0])), ...(await sidesOf(read, reading.designs[1]))];
  return api.rekeyRowsPlan(before, after, options);
}

/** What reading found under `design` (or each design of an array, over one reading), as
 * rekeyRowsPlan takes each side; the session freed. */
async function sidesOf(read, design) {
  const run = await read(design);
  try {
    const side = (d, stats, i) => {
      const report = run.session.finish(i);
      return { design: d, report, stats, splitKeysExact: run.session.splitKeys(i).exact };
    };
    if (!Array.isArray(design)) return [side(run.design, run.stats)];
    return run.design.map((d, i) => side(d, run.session.stats(i), i));
  } finally {
    run.session.free();
  }
}
