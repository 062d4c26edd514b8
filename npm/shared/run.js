// The `run` argument of analyzeDesignParallel, analysisSessionParallel and adviseDesignParallel
// ({threads, onProgress}), checked alike by the Node and the browser entries before any work
// starts: a `threads` that is not a whole number would leave a pool of no workers waiting for ever,
// and an `onProgress` that is not a function would only fail at the first progress report, inside
// a worker's message handler, where a throw ends the process. Copied by scripts/build-npm.sh.

/** The error of a bad argument, shaped like the engine's (kind, reason, path). */
export function argumentError(fn, path, reason) {
  return Object.assign(new TypeError(`${fn}: ${path} ${reason}`), { kind: 'illegalArgument', reason, path });
}

/**
 * `run` as {threads, onProgress}: absent members stay undefined; anything else is a TypeError
 * naming the member.
 * @param {string} fn the function's name, for the message
 * @param {unknown} run
 * @returns {{threads?: number, onProgress?: Function}}
 */
export function checkRun(fn, run) {
  if (run === undefined || run === null) return {};
  if (typeof run !== 'object')
    throw argumentError(fn, 'run', `must be an object ({threads, onProgress}), not ${typeof run}`);
  const { threads, onProgress, rows } = run;
  if (threads !== undefined && !(Number.isSafeInteger(threads) && threads >= 1))
    throw argumentError(
      fn,
      'run.threads',
      `must be a whole number of at least 1, not ${typeof threads === 'number' ? threads : typeof threads}`,
    );
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw argumentError(fn, 'run.onProgress', `must be a function, not ${typeof onProgress}`);
  if (rows !== undefined && !(rows instanceof Uint8Array))
    throw argumentError(
      fn,
      'run.rows',
      `must be a row sample (RowsSession.rowSample()'s Uint8Array), not ${typeof rows}`,
    );
  return { threads, onProgress, rows };
}

/** `s` (an AnalysisSession) stepped to the end on this thread, progress reported; freed if a
 * step or onProgress throws. */
export function stepped(s, onProgress) {
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

/** The report of a finished session, the session freed. */
export function finished(s) {
  try {
    return s.finish();
  } finally {
    s.free();
  }
}

/**
 * The `run` argument of lifeMonthsAsync ({otherOptions, onMonth, signal}), checked before any
 * work starts, as checkRun checks the others'.
 * @param {string} fn the function's name, for the message
 * @param {unknown} run
 * @returns {{otherOptions?: object | null, onMonth?: Function, signal?: AbortSignal}}
 */
export function checkLifeRun(fn, run) {
  if (run === undefined || run === null) return {};
  if (typeof run !== 'object')
    throw argumentError(fn, 'run', `must be an object ({otherOptions, onMonth, signal}), not ${typeof run}`);
  const { otherOptions, onMonth, signal } = run;
  if (onMonth !== undefined && typeof onMonth !== 'function')
    throw argumentError(fn, 'run.onMonth', `must be a function, not ${typeof onMonth}`);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw argumentError(fn, 'run.signal', `must be an AbortSignal, not ${typeof signal}`);
  return { otherOptions, onMonth, signal };
}
