// The months' calls over an engine (the speed build): the page's Months view and the npm
// package's lifeMonthsInWorker send them to a worker, whose end is their Stop (a month runs in the
// engine to its end: only ending the worker interrupts it). Copied by scripts/build-npm.sh.

/** The calls over `engine()`, the build that answers them. */
export function lifeCalls(engine) {
  return {
    /** The design's table month by month (src/life: the Months view), with `progress` events at
     * each month's end; with `otherOptions`, under both settings side by side (lifeCompare). Null
     * on a build without it (the size build alone, as in the single-file page). */
    lifeMonths: ({ doc, options, otherOptions }, emit) => {
      const E = engine();
      if (!E.lifeMonths) return null;
      const on = (done, total) => emit('progress', { done, total });
      return otherOptions === undefined
        ? E.lifeMonths(doc, options ?? null, on)
        : E.lifeCompare(doc, options ?? null, otherOptions ?? null, on);
    },
  };
}
