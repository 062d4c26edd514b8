// The first run's preview, made on the page's thread while boot.js's worker is still starting.

import * as wasm from '../pkg/rowkey_lab.js';
import { state } from '../state/lab-state.js';
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
 * modules and its wasm take a while): the first records of the same design, in slices of
 * PREVIEW_SLICE records between which this thread is free, for about PREVIEW_BUDGET_MS. Drawn
 * as a preview (`show('preview', …)`) unless the worker had something to show first; its
 * report replaces it. */
export async function previewHere(id, show) {
  let s;
  // the smallest key sample and grid: the preview draws only the region × window matrix, which
  // they do not change, and the report is then much cheaper to make
  try {
    s = new wasm.AnalysisSession(state.doc, { windows: state.windows, sampleSize: 10, gridBuckets: 8 });
  } catch {
    return;
  }
  try {
    let p = s.progress();
    const t0 = performance.now();
    while (!p.finished && performance.now() - t0 < PREVIEW_BUDGET_MS) {
      await nextTask();
      if (id !== currentRun() || state.shown) return;
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
