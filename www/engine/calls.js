// The one way to talk to the engine's workers, on the page and in Node alike (the npm package
// carries this file as pkg/shared/calls.js). A worker serves a table of handlers, one per engine
// call (`serve`); the caller holds a client (`client`) whose `call(name, args, opts)` answers
// with the handler's result, rejects with the engine's located error unchanged (message,
// reason, path, line, column, …), passes the handler's events (progress, a preview, …) to
// `opts.on`, and is cancelled by `opts.signal`.
//
// On the wire: a request is `{ id, call, args }`; the worker answers with any number of
// `{ id, event, data }` and then one `{ id, result }` or `{ id, error }`.
//
// A call cannot be stopped inside the engine (a step runs to its end), so cancel ends the
// worker: the call rejects with an AbortError, so does every other call on that worker, and the
// owner starts a new worker when it needs one. Ports keep this file free of any Worker API:
// `{ post(message, transfer), listen(onMessage, onFail), end() }` (webPort in
// web-workers.js, nodePort in the npm package's pool.js).

/** The fields of an engine error that say where it is; kept through the message. */
const LOCATED = ['kind', 'reason', 'path', 'offset', 'line', 'column', 'in', 'source', 'sourceColumn'];

/** An error as plain data a message can carry: its message and its located fields. */
export function errorOf(e) {
  const out = { message: String(e?.message ?? e) };
  for (const k of LOCATED) if (e?.[k] != null) out[k] = e[k];
  return out;
}

/** The Error a caller gets for a worker's plain error: the same message and fields. */
export const toError = plain => Object.assign(new Error(plain.message), plain);

/** The error of a cancelled call. */
export const aborted = signal =>
  signal?.reason instanceof Error ? signal.reason : Object.assign(new Error('cancelled'), { name: 'AbortError' });

/** A result whose typed arrays' buffers move to the other side rather than being copied. */
export const moved = (value, buffers) => ({ [MOVED]: true, value, buffers });
/** A report's typed arrays (matrices, key sample): the buffers to move rather than copy. */
export const reportBuffers = r =>
  [r.matrix.cells, r.grid.cells, r.sample.keys, r.sample.offsets, r.sample.regions].map(a => a.buffer);
const MOVED = Symbol('moved');

/**
 * The calling side over `port`: `call(name, args, { on, signal, transfer })` resolves with the
 * handler's result; `adopt(id, { on })` waits for a call the worker started itself (boot.js's
 * first run); `busy()` says whether a call is still under way; `end()` ends the worker.
 */
export function client(port, { firstId = 1 } = {}) {
  const pending = new Map();
  let next = firstId,
    ended = false;
  const failAll = error => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  port.listen(
    m => {
      const p = pending.get(m?.id);
      if (!p) return;
      if ('event' in m) p.opts.on?.(m.event, m.data);
      else {
        pending.delete(m.id);
        p.cleanup();
        if ('error' in m) p.reject(toError(m.error));
        else p.resolve(m.result);
      }
    },
    error => {
      ended = true;
      failAll(error instanceof Error ? error : toError(errorOf(error)));
    },
  );
  const end = (error = aborted()) => {
    if (ended) return;
    ended = true;
    port.end();
    failAll(error);
  };
  const wait = (id, opts) =>
    new Promise((resolve, reject) => {
      if (ended) return reject(aborted());
      const { signal } = opts;
      if (signal?.aborted) return reject(aborted(signal));
      const stop = () => end(aborted(signal));
      signal?.addEventListener('abort', stop, { once: true });
      pending.set(id, { resolve, reject, opts, cleanup: () => signal?.removeEventListener('abort', stop) });
    });
  return {
    call(name, args = {}, opts = {}) {
      const id = next++;
      const answer = wait(id, opts);
      if (!ended && !opts.signal?.aborted) port.post({ id, call: name, args }, opts.transfer ?? []);
      return answer;
    },
    adopt(id, opts = {}) {
      next = Math.max(next, id + 1);
      return wait(id, opts);
    },
    busy: () => pending.size > 0,
    end,
  };
}

/** A client whose `handlers` run on this thread (in turn with its other work), as a worker's
 * would: a `moved` result is handed over as its value. The scheduler can then count this thread
 * among its workers, so no core waits on one that only adds up. */
export function localClient(handlers) {
  return {
    async call(name, args, { on, signal } = {}) {
      signal?.throwIfAborted();
      const r = await handlers[name](args, (event, data) => on?.(event, data));
      return r?.[MOVED] ? r.value : r;
    },
  };
}

/**
 * The worker's side: each request runs `handlers[call](args, emit)`, where `emit(event, data,
 * transfer)` sends an event to the caller; the result (or `moved(result, buffers)`) or the
 * error is the answer. `ready` (a promise) is awaited before any handler not in `early`.
 */
export function serve(port, handlers, { ready = null, early = [] } = {}) {
  const run = async ({ id, call, args }) => {
    const emit = (event, data, transfer = []) => port.post({ id, event, data }, transfer);
    try {
      const handler = Object.hasOwn(handlers, call) ? handlers[call] : null;
      if (!handler) throw new Error(`no engine call named ${call}`);
      if (ready && !early.includes(call)) await ready;
      const r = await handler(args, emit);
      if (r?.[MOVED]) port.post({ id, result: r.value }, r.buffers);
      else port.post({ id, result: r });
    } catch (e) {
      port.post({ id, error: errorOf(e) });
    }
  };
  port.listen(m => {
    if (m && typeof m.call === 'string') run(m);
  });
  return run;
}
