// The first run's preview, made on the page's thread while boot.js's worker is still starting.

import * as wasm from '../pkg/rowkey_lab.js';
import { currentRun } from './runs.js';

const PREVIEW_SLICE = 2000,
  PREVIEW_BUDGET_MS = 30;
/** The next task: a pause that lets the page paint and take input. */
export const nextTask = () =>
  globalThis.scheduler?.yield?.() ??
  new Promise(r => {
    const c = new MessageChannel();
    c.port1.onmessage = () => r();
    c.port2.postMessage(0);
  });
/** The first run's preview, computed here while the worker is still starting (its thread, its
 * modules and its wasm take a while): the first records of `doc` (`windows` as the run's), in
 * slices of PREVIEW_SLICE records between which this thread is free, for about
 * PREVIEW_BUDGET_MS. Drawn as a preview (`show('preview', …)`) unless the worker had something
 * to show first (`shown()`); its report replaces it. The page's state stays the page's: what
 * this needs of it comes as arguments. */
export async function previewHere(id, show, { doc, windows, shown }) {
  let s;
  // the smallest key sample and grid: the preview draws only the region × window matrix, which
  // they do not change, and the report is then much cheaper to make
  try {
    s = new wasm.AnalysisSession(doc, { windows, sampleSize: 10, gridBuckets: 8 });
  } catch {
    return;
  }
  try {
    let p = s.progress();
    const t0 = performance.now();
    while (!p.finished && performance.now() - t0 < PREVIEW_BUDGET_MS) {
      await nextTask();
      if (id !== currentRun() || shown()) return;
      p = s.step(PREVIEW_SLICE);
    }
    if (p.done === 0) return;
    show('preview', { report: s.finish(), done: p.done, total: p.total });
  } catch {
    /* the worker reports the error */
  } finally {
    s.free();
  }
}
