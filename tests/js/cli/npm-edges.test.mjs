// Issue 37's edges of the npm package, from the installed tarball. The parallel calls under Node:
// a throwing onProgress, options a worker cannot be sent, a bad `run`: each rejects with a clear
// error, every worker thread it started has ended by then, and the process exits on its own (each
// case runs in a child `node`, so a hang or a crash fails the case instead of the suite). The
// engine's objects in the ESM, CJS and web entries: free() and [Symbol.dispose]() again are
// no-ops, and a method called on another class's object, a plain object, none or a freed object
// throws a TypeError without reaching wasm. After each case an ordinary analysis must give the
// report it gave before: the module survived.
// Engines: every case here is the wasm build's on both (the parallel calls count on its
// AnalysisSession in worker threads, the objects are its classes; the native engine answers none
// of them, ../engines.mjs), so each runs once, on the packed package, which runs wasm.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

// The child's prologue: every Worker the package starts is counted (started, and live until its
// 'exit'), by replacing node:worker_threads' Worker before the package is imported.
const PROLOGUE = `
import { syncBuiltinESMExports } from 'node:module';
import wt from 'node:worker_threads';
const count = { started: 0, live: 0 };
wt.Worker = class extends wt.Worker {
  constructor(...args) {
    super(...args);
    count.started += 1;
    count.live += 1;
    this.once('exit', () => { count.live -= 1; });
  }
};
syncBuiltinESMExports();
const m = await import('rowkey-lab');
const doc = m.getPreset('seed000-telecom');
const big = { ...doc, workload: { ...doc.workload, records: 300_000 } };
const first = m.getPreset(m.listPresets()[0].id);
const baseline = JSON.stringify(m.analyzeDesign(first, { windows: 8 }));
const boom = new Error('boom from onProgress');
let error;
try {
  await CALL;
} catch (e) {
  error = e;
}
const live = count.live;
const survived = JSON.stringify(m.analyzeDesign(first, { windows: 8 })) === baseline;
console.log(JSON.stringify({
  rejected: error !== undefined, boom: error === boom, type: error?.constructor.name,
  message: error?.message, kind: error?.kind, path: error?.path,
  started: count.started, live, survived,
}));
`;

describe('issue 37: the npm package’s edges', { skip: NOT_BUILT }, () => {
  let dir;
  let m;
  let baseline;
  const first = () => m.getPreset(m.listPresets()[0].id);
  before(async () => {
    ({ dir } = await installed());
    m = await importByName(dir);
    baseline = m.analyzeDesign(first(), { windows: 8 });
  });
  const survived = mod =>
    assert.deepEqual(mod.analyzeDesign(mod.getPreset(mod.listPresets()[0].id), { windows: 8 }), baseline);

  /** Runs `call` (an expression awaited in the child) and returns the child's report. */
  const child = (name, call) => {
    const file = path.join(dir, `edge-${name}.mjs`);
    writeFileSync(file, PROLOGUE.replace('CALL', call));
    const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, `${name}: the process did not exit on its own (live workers?)\n${r.stderr}`);
    assert.equal(r.status, 0, `${name}: the process failed\n${r.stderr}`);
    const report = JSON.parse(r.stdout.trim().split('\n').pop());
    assert.equal(report.live, 0, `${name}: worker threads still live when the call settled`);
    assert.ok(report.survived, `${name}: analyzeDesign after the call`);
    return report;
  };

  describe('the parallel calls under Node', () => {
    const throwing = 'onProgress() { throw boom; }';
    test('analyzeDesignParallel: a throwing onProgress rejects with its error; every worker ended', () => {
      const r = child('analyze-progress', `m.analyzeDesignParallel(big, { windows: 8 }, { threads: 2, ${throwing} })`);
      assert.ok(r.boom, `rejected with ${r.type}: ${r.message}`);
      assert.equal(r.started, 2);
    });

    test('adviseDesignParallel: a throwing onProgress rejects with its error; every worker ended', () => {
      const r = child(
        'advise-progress',
        `m.adviseDesignParallel(doc, { records: 3000, windows: 8 }, { threads: 2, ${throwing} })`,
      );
      assert.ok(r.boom, `rejected with ${r.type}: ${r.message}`);
      assert.equal(r.started, 2);
    });

    const refused = (r, where) => {
      assert.equal(r.type, 'TypeError', r.message);
      assert.equal(r.kind, 'illegalArgument');
      assert.equal(r.path, where);
      assert.ok(r.message.includes(where), r.message);
      assert.equal(r.started, 0, 'refused before any worker started');
    };

    test('options a worker cannot be sent (a function, a Symbol) are a TypeError naming the option', () => {
      const a = child(
        'analyze-function',
        'm.analyzeDesignParallel(big, { windows: 8, onDone: () => 1 }, { threads: 2 })',
      );
      refused(a, 'options.onDone');
      assert.match(a.message, /options\.onDone is a function: a worker thread can be sent plain data only/);
      const v = child(
        'advise-symbol',
        "m.adviseDesignParallel(doc, { records: 3000, windows: 8, tag: Symbol('t') }, { threads: 2 })",
      );
      refused(v, 'options.tag');
      assert.match(v.message, /options\.tag is a symbol/);
      const d = child(
        'analyze-doc-function',
        'm.analyzeDesignParallel({ ...big, notes: [{ f() {} }] }, { windows: 8 }, { threads: 2 })',
      );
      refused(d, 'doc.notes[0].f');
    });

    test('a bad run ({threads, onProgress}) is a TypeError naming the member', () => {
      refused(
        child('advise-threads', "m.adviseDesignParallel(doc, { records: 3000, windows: 8 }, { threads: 'two' })"),
        'run.threads',
      );
      refused(
        child('analyze-threads', 'm.analyzeDesignParallel(big, { windows: 8 }, { threads: 1.5 })'),
        'run.threads',
      );
      refused(
        child('analyze-on-progress', "m.analyzeDesignParallel(big, { windows: 8 }, { threads: 2, onProgress: 'yes' })"),
        'run.onProgress',
      );
      // issue 73: a run whose reading throws was the caller's exception, without kind or name
      refused(
        child(
          'analyze-run-proxy',
          'm.analyzeDesignParallel(big, { windows: 8 }, new Proxy({}, { get() { throw boom; } }))',
        ),
        'run.threads',
      );
    });
  });

  describe('the engine’s objects, in each entry', () => {
    // The entries load their own glue (web) or the same (ESM and CJS: pkg/cjs requires pkg/node).
    const entries = {
      esm: async () => m,
      cjs: async () => createRequire(path.join(dir, 'probe.cjs'))('rowkey-lab'),
      web: async () => {
        const web = await import(path.join(dir, 'node_modules/rowkey-lab/pkg/web/index.js'));
        await web.default({
          module_or_path: readFileSync(path.join(dir, 'node_modules/rowkey-lab/pkg/web/rowkey_lab_bg.wasm')),
        });
        return web;
      },
    };
    const makers = mod => ({
      AnalysisSession: () => new mod.AnalysisSession(first(), { windows: 4 }),
      KeyCodec: () => new mod.KeyCodec(first()),
    });

    for (const [entry, load] of Object.entries(entries)) {
      test(`${entry}: free() twice and [Symbol.dispose]() after free() are no-ops`, async () => {
        const mod = await load();
        for (const [name, make] of Object.entries(makers(mod))) {
          const o = make();
          o.free();
          assert.doesNotThrow(() => o.free(), name);
          assert.doesNotThrow(() => o[Symbol.dispose](), name);
          const d = make();
          d[Symbol.dispose]();
          assert.doesNotThrow(() => d.free(), name);
        }
        survived(mod);
      });

      test(`${entry}: a method called on another class's object, a plain object or none throws a TypeError`, async () => {
        const mod = await load();
        const session = new mod.AnalysisSession(first(), { windows: 4 });
        const codec = new mod.KeyCodec(first());
        const record = first().examples[0].record;
        // every method of each class, with arguments it would take
        const args = {
          step: [1000],
          feed: [[record]],
          check: [{}],
          encode: [record],
          encodeAll: [[record]],
          decode: [[0]],
          spans: [[0]],
        };
        const selves = { AnalysisSession: codec, KeyCodec: session };
        for (const [name, other] of Object.entries(selves)) {
          const proto = mod[name].prototype;
          const methods = Object.getOwnPropertyNames(proto).filter(
            k => k !== 'constructor' && !k.startsWith('__') && typeof proto[k] === 'function',
          );
          assert.ok(methods.length >= 4, `${name}: ${methods}`);
          for (const method of methods) {
            const otherName = other.constructor.name;
            for (const [self, what] of [
              [other, `${/^A/.test(otherName) ? 'an' : 'a'} ${otherName}`],
              [{ __wbg_ptr: 8 }, 'a plain object'],
              [Object.create(proto), 'an object that only inherits from'],
              [undefined, 'undefined'],
            ]) {
              assert.throws(
                () => proto[method].apply(self, args[method] ?? []),
                e =>
                  e instanceof TypeError &&
                  e.kind === 'illegalArgument' &&
                  e.path === 'this' &&
                  e.message.startsWith(`${name}.${method}: called on ${what}`),
                `${entry} ${name}.${method} on ${what}`,
              );
            }
          }
        }
        // the objects the wrong calls were given are untouched: neither freed nor overwritten
        assert.equal(session.step(1000).done, 1000);
        assert.ok(codec.encode(record) instanceof Uint8Array);
        session.free();
        codec.free();
        survived(mod);
      });

      test(`${entry}: a freed object's method throws a TypeError of kind illegalState`, async () => {
        const mod = await load();
        const record = first().examples[0].record;
        const uses = { AnalysisSession: o => o.step(10), KeyCodec: o => o.encode(record) };
        for (const [name, make] of Object.entries(makers(mod))) {
          const o = make();
          o.free();
          assert.throws(
            () => uses[name](o),
            e => e instanceof TypeError && e.kind === 'illegalState' && e.path === name && /was freed/.test(e.message),
            `${entry} ${name}`,
          );
        }
        survived(mod);
      });
    }

    test('the issue’s call: AnalysisSession.prototype.step on a KeyCodec, then the module still works', () => {
      const codec = new m.KeyCodec(first());
      assert.throws(
        () => m.AnalysisSession.prototype.step.call(codec, 10),
        e =>
          e instanceof TypeError &&
          /AnalysisSession\.step: called on a KeyCodec, not on an AnalysisSession/.test(e.message),
      );
      assert.throws(() => m.AnalysisSession.prototype.finish.call(codec), TypeError);
      assert.throws(() => m.KeyCodec.prototype.encode.call(new m.AnalysisSession(first(), {}), {}), TypeError);
      codec.free();
      survived(m);
    });
  });
});
