// Issue 37's edges of the npm package, from the installed tarball. The
// engine's objects in the ESM, CJS and web entries: free() and [Symbol.dispose]() again are
// no-ops, and a method called on another class's object, a plain object, none or a freed object
// throws a TypeError without reaching wasm. After each case an ordinary analysis must give the
// report it gave before: the module survived.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { importByName, installed, NOT_BUILT } from './npm-helpers.mjs';

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
