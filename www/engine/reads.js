// The design's read plans over the table a report ends with (auto-split's daughters included),
// `{reads, readsError}`: one rule for the page's workers and the CLI's analyze, the engine's
// reads_over (src/analyze/report.rs) in Python. A planning error is kept beside the report,
// which stands. The npm package carries this file as pkg/shared/reads.js (scripts/build-npm.sh).
import { errorOf } from './calls.js';

/** Split keys (bytes) of the regions `report` ends with: every region's start key but the first's. */
export function finalSplitKeys(report) {
  return report.regions.slice(1).map(r => Uint8Array.from(r.startKeyHex.match(/../g) ?? [], h => parseInt(h, 16)));
}

/** The design's reads planned over the regions `report` ends with: `{ reads, readsError }`.
 * @param {object} engine the engine's glue (planReads) */
export function readsOver(engine, doc, report) {
  try {
    return { reads: engine.planReads(doc, finalSplitKeys(report)), readsError: null };
  } catch (e) {
    return { reads: [], readsError: errorOf(e) };
  }
}
