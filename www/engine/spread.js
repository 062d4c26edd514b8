// The engine worker's calls that only the speed build answers, imported by worker.js when first
// needed (no part of the page's first load): a run spread over counting workers (this worker
// counts too, as counter 0, over a channel of its own; the others are nested workers on the
// speed build, one per core, kept between runs), the counting calls a counting worker answers
// (count.js), warming the counters up while nothing runs, and the advisor's calls.
import { adviceCalls } from './advice-calls.js';
import { client, reportBuffers, serve } from './calls.js';
import { countHandlers } from './count.js';
import { spreadBlocks } from './scheduler.js';
import { webPort } from './web-workers.js';
import { workerSet } from './worker-sets.js';

/**
 * The calls, over `engine()` (the worker's engine: it may move to another build) and the
 * worker's helpers: `designOf` (a request's design) and its preview and progress intervals.
 */
export function speedCalls({ engine, designOf, previewAfterMs, progressEveryMs }) {
  const counting = countHandlers(engine);
  const advice = adviceCalls(engine);
  /** The workers counting blocks for a run (clients): 0 this worker itself, so it counts from
   * the moment its engine is ready and no core waits on a worker that only adds up. */
  const { port1, port2 } = new MessageChannel();
  serve(webPort(port2), counting);
  port1.start();
  port2.start();
  const counters = workerSet(
    'counters',
    () => new Worker(new URL('./worker.js#engine=fast&role=counter', import.meta.url), { type: 'module' }),
    client(webPort(port1)),
  );
  const counter = i => counters.at(i);
  /** How many workers (this one included) share a run of `blocks` blocks. */
  const spreadOver = blocks => Math.min(counters.size, blocks);
  const warmUp = ({ doc, options }) => {
    const s = engine().AnalysisSession.forBlocks(doc, options, 0, 1);
    try {
      s.step(1 << 16);
    } finally {
      s.free();
    }
  };
  return {
    countBlocks: counting.countBlocks,
    cede: counting.cede,
    /** The nested counting workers started now (the first run of a large design: they compile
     * the speed build beside this worker, not once the run has begun). */
    startCounters() {
      for (let i = 1; i < spreadOver(Infinity); i++) counter(i);
    },
    /** `doc`'s report counted by the counting workers, this one first (spreadBlocks), added up by
     * the engine. With `data.preview`, this one, counting from the first block, sends its report
     * so far (the first records) as previews, so a long run's heatmap fills in as a run on one
     * worker's does. */
    async analyzeSpread(doc, data, blocks, records, emit) {
      const E = engine();
      const n = spreadOver(blocks);
      let last = 0;
      const parts = await spreadBlocks({
        workers: Array.from({ length: n }, (_, i) => counter(i)),
        ranges: E.blockRanges(blocks, n),
        args: {
          doc,
          options: data.options,
          preview: data.preview,
          previewAfterMs: data.previewAfterMs ?? previewAfterMs,
        },
        records,
        onPreview: ({ report, done }) => emit('preview', { report, done, total: records }, reportBuffers(report)),
        onProgress(p) {
          const t = performance.now();
          if (t - last > progressEveryMs) {
            emit('progress', p);
            last = t;
          }
        },
      });
      const s = E.combineAnalyses(doc, data.options, parts);
      try {
        return s.finish();
      } finally {
        s.free();
      }
    },
    /** While nothing runs (the page sends the design on show): the counting workers started, each
     * (this one too) counting the design's first block and dropping it. The first run spread over
     * them then waits neither for them to load the speed build nor for V8 to compile their hot
     * code for speed (it does so after a function's first calls, never within one). */
    warm(data) {
      if (!engine().combineAnalyses || typeof Worker !== 'function') return;
      const n = spreadOver(Infinity);
      if (n <= 1) return;
      const doc = designOf(data);
      for (let i = 1; i < n; i++)
        counter(i)
          .call('warmUp', { doc, options: data.options })
          .catch(() => {});
      warmUp({ doc, options: data.options });
    },
    warmUp,
    // the advisor's calls exist in the speed build only (advice-view.js starts its workers on it)
    ...advice,
    adviseCandidates(args) {
      if (!engine().adviseCandidates)
        throw new Error('the advisor needs the engine’s speed build, which this copy of the page does not have');
      return advice.adviseCandidates(args);
    },
  };
}
