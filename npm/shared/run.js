// The `run` argument of analyzeDesignParallel, analysisSessionParallel and adviseDesignParallel
// ({threads, onProgress}), checked alike by the Node and the browser entries before any work
// starts: a `threads` that is not a whole number would leave a pool of no workers waiting for ever,
// and an `onProgress` that is not a function would only fail at the first progress report, inside
// a worker's message handler, where a throw ends the process. Copied by scripts/build-npm.sh.

/** The error of a bad argument, shaped like the engine's (kind, reason, path). */
export function argumentError(fn, path, reason) {
  return Object.assign(new TypeError(`${fn}: ${path} ${reason}`), { kind: 'illegalArgument', reason, path });
}

/** What an exception says, read without trusting it (its `message` may be a throwing getter). */
function said(e) {
  try {
    const m = typeof e === 'string' ? e : e?.message;
    if (typeof m === 'string') return JSON.stringify(m);
  } catch {}
  return 'an exception';
}

/**
 * The members `names` of `v` (named `path`), each read once: a getter or a Proxy trap that
 * throws is a TypeError at `path.member`, never the caller's exception unnamed (issue 73).
 */
export function readMembers(fn, path, v, names) {
  const out = {};
  for (const k of names) {
    try {
      out[k] = v[k];
    } catch (e) {
      throw argumentError(fn, `${path}.${k}`, `could not be read: reading it threw ${said(e)}`);
    }
  }
  return out;
}

/** `threads` as a whole number of at least 1 (undefined: the default), else a TypeError at `path`. */
function checkThreads(fn, path, threads) {
  if (threads !== undefined && !(Number.isSafeInteger(threads) && threads >= 1))
    throw argumentError(
      fn,
      path,
      `must be a whole number of at least 1, not ${typeof threads === 'number' ? threads : typeof threads}`,
    );
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
  const { threads, onProgress, rows } = readMembers(fn, 'run', run, ['threads', 'onProgress', 'rows']);
  checkThreads(fn, 'run.threads', threads);
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
  const { otherOptions, onMonth, signal } = readMembers(fn, 'run', run, ['otherOptions', 'onMonth', 'signal']);
  if (onMonth !== undefined && typeof onMonth !== 'function')
    throw argumentError(fn, 'run.onMonth', `must be a function, not ${typeof onMonth}`);
  if (signal !== undefined && !isAbortSignal(signal))
    throw argumentError(fn, 'run.signal', `must be an AbortSignal, not ${typeof signal}`);
  return { otherOptions, onMonth, signal };
}

/**
 * Whether `v` is an AbortSignal itself: its `aborted` getter answers for it (an object that
 * only inherits from AbortSignal.prototype, or a Proxy of one, passes `instanceof` and then
 * throws "Illegal invocation" at the first use, outside any check).
 */
function isAbortSignal(v) {
  try {
    return v instanceof AbortSignal && typeof v.aborted === 'boolean';
  } catch {
    return false;
  }
}

/**
 * The options of analyzeRowsParallel (`opts`): absent, none; else a copy of its own members,
 * read once (a Proxy or a getter that throws is a TypeError at `opts`), with `threads` a whole
 * number of at least 1 and `chunkFrom` a whole number of bytes, each else a TypeError at its
 * member (issue 73: `threads: 'two'` ran as one thread on wasm, and was napi's own error,
 * without a kind, on the native engine; `null` was a TypeError of property access).
 * @param {string} fn the function's name, for the message
 * @param {unknown} opts
 */
export function checkRowsOpts(fn, opts) {
  if (opts === undefined || opts === null) return {};
  if (typeof opts !== 'object') throw argumentError(fn, 'opts', `must be an object, not ${typeof opts}`);
  let copy;
  try {
    copy = { ...opts };
  } catch (e) {
    throw argumentError(fn, 'opts', `could not be read: reading it threw ${said(e)}`);
  }
  checkThreads(fn, 'opts.threads', copy.threads);
  const { chunkFrom } = copy;
  if (chunkFrom !== undefined && !(Number.isSafeInteger(chunkFrom) && chunkFrom >= 0))
    throw argumentError(
      fn,
      'opts.chunkFrom',
      `must be a whole number of bytes, not ${typeof chunkFrom === 'number' ? chunkFrom : typeof chunkFrom}`,
    );
  return copy;
}
