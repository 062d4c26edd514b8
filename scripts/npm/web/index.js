// Browser and bundler entry (pkg/web/index.js): the engine (call `await init()` first, the
// default export) and the presets, a module of their own that bundles drop when nothing imports
// them. free() and [Symbol.dispose]() may be called again, and a method called on a freed object
// or on anything but an object of its class throws a TypeError before reaching wasm
// (../shared/objects.js). Copied beside wasm-bindgen's glue by scripts/build-npm.sh.
import { guardObjects } from '../shared/objects.js';
import { checkRun } from '../shared/run.js';
import * as glue from './rowkey_lab.js';

guardObjects(glue);

/**
 * The browser has no worker pool here: adviseDesignParallel evaluates the candidates one after the
 * other (the same answer as adviseDesign), reporting progress; the Node entry uses worker threads.
 */
export async function adviseDesignParallel(doc, options, run) {
  const { onProgress } = checkRun('adviseDesignParallel', run);
  const set = glue.adviseCandidates(doc, options);
  const total = set.candidates.length;
  const evaluations = [];
  for (const [i, c] of set.candidates.entries()) {
    try {
      evaluations.push(glue.evaluateCandidate(c.design, options, set.targetRegions));
    } catch (e) {
      evaluations.push({ error: String(e?.message ?? e) });
    }
    onProgress?.({ done: i + 1, total, label: c.label });
  }
  return glue.adviseFrom(doc, options, evaluations);
}

/**
 * Nor for the analysis: analysisSessionParallel counts the workload here, stepping (the same
 * report as analyzeDesign), reporting progress; the Node entry uses worker threads.
 */
export async function analysisSessionParallel(doc, options, run) {
  const { onProgress } = checkRun('analysisSessionParallel', run);
  const s = new glue.AnalysisSession(doc, options);
  try {
    for (;;) {
      const p = s.step(1 << 16);
      onProgress?.({ done: p.done, total: p.total });
      if (p.finished) return s;
    }
  } catch (e) {
    s.free();
    throw e;
  }
}

export async function analyzeDesignParallel(doc, options, run) {
  const s = await analysisSessionParallel(doc, options, run);
  try {
    return s.finish();
  } finally {
    s.free();
  }
}

export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
