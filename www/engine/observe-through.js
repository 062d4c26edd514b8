// A live table's series set beside a design, one composition for the page's worker
// (observe-calls.js) and the CLI's observe (pkg/shared/observe-through.js): the design run on the
// regions of the series' last interval with rates (its layout, the engine's onTableRegions), its
// writes per region the prediction, and the engine's comparison (againstDesign). Each shell only
// says how an analysis runs (the CLI on worker threads, the page's worker stepping with progress).

/**
 * `againstDesign`'s answer for `series` (readSeries') through `doc`.
 * @param {object} api the engine's glue (onTableRegions, againstDesign)
 * @param {(doc: object) => Promise<{regions: {writes: number}[]}>} analyze the report of a design
 */
export async function observeThrough(api, series, doc, analyze) {
  let predicted = null;
  if (series.layout) {
    const report = await analyze(api.onTableRegions(doc, series.layout));
    predicted = report.regions.map(x => x.writes);
  }
  return api.againstDesign(series, doc, predicted);
}
