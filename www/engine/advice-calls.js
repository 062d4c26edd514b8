// The advisor's calls over an engine: the speed build's (engine/spread.js, the generated
// workload) and the rows build's (engine/rows-calls.js, a sample of the user's rows, which only
// it reads). `rows`, when given, is that sample (RowsSession.rowSample()).

/** The calls over `engine()`, the build that answers them. */
export function adviceCalls(engine) {
  return {
    adviseCandidates: ({ doc, options, rows }) => engine().adviseCandidates(doc, options, rows),
    /** One candidate's figures; the engine's error on it is its answer (`{ error }`), not a failure. */
    evaluate({ design, options, targetRegions, rows }) {
      try {
        return engine().evaluateCandidate(design, options, targetRegions, rows);
      } catch (e) {
        return { error: String(e?.message ?? e) };
      }
    },
    adviseFrom: ({ doc, options, evaluations, rows }) => engine().adviseFrom(doc, options, evaluations, rows),
  };
}
