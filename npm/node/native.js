// The native engine (pkg/node/native.js) behind the same calls as the wasm build: each argument
// checked and turned into JSON text as the wasm layer does (src/wasm/mod.rs: doc_text,
// plain_json), the addon (node/src/lib.rs) calling the engine's one description of the calls
// (src/calls.rs), the answer back in the wasm build's shape (a report's typed arrays set where
// the wasm build sets them) and an engine error thrown as the wasm build throws it (an Error
// with kind, reason, path, offset, line and column, set in that order).
import { availableParallelism } from 'node:os';

/** What starts the message of an engine error from the addon (node/src/lib.rs's MARK). */
const MARK = '\u0001rowkey-lab:';

/** The engine's error, rebuilt from the addon's text: the wasm build's very Error. */
function rebuilt(e) {
  const text = typeof e?.message === 'string' && e.message.startsWith(MARK) ? e.message.slice(MARK.length) : null;
  if (text === null) return e;
  const [message, ...fields] = JSON.parse(text);
  const err = new Error(message);
  for (const [k, v] of fields) err[k] = v;
  return err;
}

/** `f()`, an engine error rebuilt. */
function call(f) {
  try {
    return f();
  } catch (e) {
    throw rebuilt(e);
  }
}

/** The native engine's calls, shaped as the wasm build's, over the addon `n`. */
export function nativeCalls(n) {
  const what = v => (v === null ? 'null (object)' : typeof v);
  const argError = (name, message) => call(() => n.argError(name, message));
  const badArg = (name, expected, v) => argError(name, `expected ${expected}, got ${what(v)}`);
  /** The engine's error for a value whose reading threw (wasm's js::thrown). */
  const thrown = (name, e) => {
    let m;
    try {
      m = typeof e === 'string' ? e : e !== null && typeof e === 'object' ? e.message : undefined;
    } catch {}
    return argError(
      name,
      typeof m === 'string' ? `reading it threw an exception: ${JSON.stringify(m)}` : 'reading it threw an exception',
    );
  };
  /** JSON text of a caller's value, BigInts as decimal text (wasm's json_text). */
  const jsonText = (name, v) => {
    try {
      return JSON.stringify(v);
    } catch (e) {
      // V8's "Invalid string length": the value's JSON is longer than one string holds
      if (e instanceof RangeError && /string length/.test(e.message)) return call(() => n.tooLong(name));
      if (e instanceof RangeError)
        return argError(name, "is nested too deeply to be read (past JavaScript's own stack)");
      if (!(e instanceof TypeError)) return thrown(name, e);
    }
    try {
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
    } catch (e) {
      if (e instanceof TypeError)
        return argError(name, 'cannot be turned into JSON (a cycle, or a function or symbol inside)');
      return thrown(name, e);
    }
  };
  /** A design document argument's JSON text (wasm's doc_text). */
  const docText = (name, v) => {
    if (typeof v === 'string') return v;
    if (v !== null && typeof v === 'object') return jsonText(name, v);
    return badArg(name, 'a design document (object or JSON text)', v);
  };
  const isBytes = v => {
    try {
      return v instanceof Uint8Array;
    } catch {
      return false;
    }
  };
  /** No function, symbol or non-finite number inside an option (wasm's plain_data). */
  const plain = (path, v, depth) => {
    if (typeof v === 'number' && !Number.isFinite(v))
      call(() => n.notPlain(path, Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity'));
    if (typeof v === 'function' || typeof v === 'symbol')
      call(() => n.notPlain(path, typeof v === 'function' ? 'a function' : 'a symbol'));
    if (depth >= 16 || v === null || typeof v !== 'object' || isBytes(v)) return;
    let keys;
    try {
      keys = Object.keys(v);
    } catch (e) {
      thrown(path, e);
    }
    for (const k of keys.slice(0, 10000)) {
      let item;
      try {
        item = v[k];
      } catch (e) {
        thrown(path, e);
      }
      plain(`${path}.${JSON.stringify(k).slice(1, -1)}`, item, depth + 1);
    }
  };
  /** An options argument's JSON text, `undefined` for the defaults (wasm's plain_json). */
  const optText = (name, v) => {
    if (v === undefined || v === null) return undefined;
    plain(name, v, 0);
    return jsonText(name, v);
  };
  /** A report in the wasm build's shape (src/wasm/analyze.rs's parts_js). */
  const report = p => {
    const r = JSON.parse(p.json);
    r.matrix.cells = p.matrix;
    r.grid.cells = p.grid;
    r.sample = { keys: p.keys, offsets: p.offsets, regions: p.regions };
    p.indexes.forEach((x, i) => {
      if (x) r.indexes[i].report = report(x);
    });
    return r;
  };
  /** A file's analysis as the wasm build's RowsSession answers after its passes. */
  const session = run => ({
    finish: () => report(call(() => run.finish())),
    check: budgets => JSON.parse(call(() => run.check(optText('budgets', budgets)))),
    splitKeys: () => call(() => run.splitKeys()),
    profile: () => JSON.parse(call(() => run.profile())),
    free() {},
    [Symbol.dispose]() {},
  });
  return {
    validateDesign(doc) {
      const d = docText('doc', doc);
      return JSON.parse(call(() => n.validateDesign(d)));
    },
    lintDesign(doc) {
      const d = docText('doc', doc);
      return JSON.parse(call(() => n.lintDesign(d)));
    },
    checkDesign(doc, budgets, options) {
      const d = docText('doc', doc);
      const b = optText('budgets', budgets);
      return JSON.parse(call(() => n.checkDesign(d, b, optText('options', options))));
    },
    analyzeDesign(doc, options) {
      const d = docText('doc', doc);
      return report(call(() => n.analyzeDesign(d, optText('options', options))));
    },
    /**
     * A file of rows at `path` read and analyzed by the engine itself (the OS's I/O, its chunks
     * over `threads` threads): `{session, design, summary, stats}` as analyzeRowsParallel gives.
     */
    async analyzeRowsFile(doc, path, { options, rows, threads, chunkFrom, onProgress, signal } = {}) {
      const d = docText('doc', doc);
      const o = optText('options', options);
      const r = optText('rows', rows);
      signal?.throwIfAborted();
      // The engine reads on a thread of libuv's pool: its progress is read from here as it
      // goes (every PROGRESS_MS, and once at the end), and an abort cancels it before its
      // next piece (about a MiB, or a row group), as the JS driver stops between slices.
      const watch = new n.RowsWatch();
      let told = '';
      const tell = () => {
        const p = watch.progress();
        const seen = `${p.pass} ${p.done}`;
        if (p.total > 0 && seen !== told) {
          told = seen;
          onProgress(p);
        }
      };
      const timer = onProgress ? setInterval(tell, PROGRESS_MS) : null;
      const cancel = () => watch.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      let run;
      try {
        run = await n.analyzeRowsFile(d, o, r, path, threads ?? availableParallelism(), chunkFrom, watch);
      } catch (e) {
        signal?.throwIfAborted();
        throw rebuilt(e);
      } finally {
        clearInterval(timer);
        signal?.removeEventListener('abort', cancel);
      }
      if (onProgress) tell();
      return {
        session: session(run),
        design: JSON.parse(run.design()),
        summary: JSON.parse(call(() => run.summary())),
        stats: JSON.parse(call(() => run.stats())),
      };
    },
  };
}

/** How often a native reading's progress is read while it runs (ms): a terminal's bar redrawn. */
const PROGRESS_MS = 100;

/**
 * Whether `analyzeRowsParallel(doc, source, opts)` is the native engine's to answer: a file's
 * path, one design, and nothing asked that only the JS driver does (kept keys, a scan alone,
 * samples for the advisor or the months, pieces of a size). Its progress (`onProgress`) and
 * cancel (`signal`) are the engine's own (`RowsWatch`).
 */
export function nativeRows(doc, source, opts = {}) {
  return (
    typeof source === 'string' &&
    opts.pieceRows === undefined &&
    !Array.isArray(doc) &&
    !opts.keys &&
    !opts.scanOnly &&
    !opts.onSlice &&
    opts.rowSample === undefined &&
    !opts.writeSample
  );
}
