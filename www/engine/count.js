// A counting worker's two engine calls, the worker side of spreadBlocks (scheduler.js), for the
// page's counting workers (worker.js) and the npm package's worker threads alike (carried as
// pkg/shared/count.js): `countBlocks` counts a run of blocks, pausing between two blocks so that
// a `cede` can come in, which hands the second half of the blocks not yet begun to a worker
// that has run out (the engine's cedeHalf).
import { moved, reportBuffers } from './calls.js';

// Records per step: one block (the engine's unit); progress at most every PROGRESS_MS.
const BLOCK = 1 << 16,
  PROGRESS_MS = 100,
  PREVIEW_EVERY_MS = 1000;

/** A pause between two blocks that lets the worker's messages in (a `cede`); a channel's
 * message, not a timer (nested timers in a browser wait 4 ms). */
function between() {
  return new Promise(resolve => {
    const c = new MessageChannel();
    c.port1.onmessage = () => {
      c.port1.close();
      resolve();
    };
    c.port2.postMessage(0);
  });
}

/** The handlers over the engine `engine()` (a function: the worker may move to another build). */
export function countHandlers(engine) {
  /** The session counting now: a `cede` takes from it. */
  let counting = null;
  return {
    /** Blocks `first..end` of `doc` counted: `{ partial, done }` (the partial counts, moved; the
     * records counted, fewer when some blocks were handed over). With `preview` a run that
     * begins at block 0 also sends `preview` events, `{ report, done }` after `previewAfterMs`
     * and then every second: its report so far, which is the workload's first `done` records
     * (a cede gives away the end of a run, never its start). */
    async countBlocks({ doc, options, first, end, preview, previewAfterMs = 40 }, emit) {
      const s = engine().AnalysisSession.forBlocks(doc, options, first, end);
      counting = s;
      try {
        let p = s.progress(),
          last = performance.now(),
          previewAt = preview && first === 0 ? last + previewAfterMs : Infinity;
        while (!p.finished) {
          p = s.step(BLOCK);
          const t = performance.now();
          if (!p.finished && t >= previewAt) {
            previewAt = t + PREVIEW_EVERY_MS;
            const report = s.finish();
            emit('preview', { report, done: p.done }, reportBuffers(report));
          } else if (t - last > PROGRESS_MS || p.finished) {
            emit('progress', { done: p.done, total: p.total });
            last = t;
          }
          if (!p.finished) await between();
        }
        const partial = s.partial();
        return moved({ partial, done: p.done }, [partial.buffer]);
      } finally {
        counting = null;
        s.free();
      }
    },
    /** The second half of the blocks not yet begun (`[first, end]`), or null. */
    cede: () => counting?.cedeHalf() ?? null,
  };
}
