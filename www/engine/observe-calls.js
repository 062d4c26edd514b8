// The engine worker's call on a live table's snapshots (views/observe-view.js): RegionServer
// /jmx dumps, list_regions and status 'detailed' output, picked or dropped as Files, read here
// (nothing is sent anywhere) on the engine's rows build, which has readSeries, onTableRegions and
// againstDesign, set beside the design by observe-through.js (the CLI's observe's too); imported
// by worker.js on the first such call, never part of the first load.
import { observeThrough } from './observe-through.js';
import { rowsEngine } from './rows-calls.js';

/** How many records the design's analysis counts between progress events. */
const STEP = 65536;

/**
 * `files` (Files, in the order a folder's names give, as `rowkey-lab observe DIR` reads them)
 * as the engine's series, the design (JSON `text`) run on the regions of its last interval with
 * rates (the series' layout), and the engine's comparison of the two: `{ series, observed }`,
 * what `rowkey-lab observe DIR design --json` prints (`observed.predictedMap`: the prediction on
 * the measured map's rows, intervals and unit, aligned by the engine). Events: `progress` while
 * the design is analyzed.
 */
export async function observeSeries({ files, table, text }, emit, { designOf }) {
  const api = await rowsEngine();
  // refused by the files' sizes before any is read, as the CLI refuses them (the engine's rule)
  try {
    api.checkSeriesSizes(files.map(f => f.size));
  } catch (e) {
    const i = /^files\[(\d+)\]$/.exec(e.path ?? '')?.[1];
    if (i !== undefined && e.reason !== undefined) e.message = `${files[Number(i)].name}: ${e.reason}`;
    throw e;
  }
  const input = [];
  for (const f of files) input.push({ name: f.name, text: await f.text(), modifiedMs: Math.floor(f.lastModified) });
  const series = api.readSeries(input, table ?? null);
  const doc = designOf({ text });
  const observed = await observeThrough(api, series, doc, d => {
    const s = new api.AnalysisSession(d, null);
    try {
      let p = s.step(STEP);
      while (!p.finished) {
        emit('progress', {
          done: p.done,
          total: p.total,
          text: `Analyzing the design on the table's regions: ${p.done} of ${p.total} records`,
        });
        p = s.step(STEP);
      }
      return s.finish();
    } finally {
      s.free();
    }
  });
  return { series, observed };
}
