// Adversarial pass over the packed build: every export with wrong types, NaN, negative, huge,
// lone surrogates and 10 MB strings. Each named case must throw an Error (never trap), and the
// same module instance must answer correctly afterwards. The packed package alone runs the wasm
// build; the cases of the calls the native engine answers (../engines.mjs) run again on it, in
// this process; the others are the wasm build's functions on both engines, and say so.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fallback, onEngine } from '../engines.mjs';
import { importByName, installed, NOT_BUILT } from '../npm-helpers.mjs';

const BIG = 'x'.repeat(10 * 1024 * 1024);
const LONE = 'ab\uD800cd';
const BAD_VALUES = [
  undefined,
  null,
  42,
  NaN,
  -1,
  1e9,
  Infinity,
  true,
  {},
  [],
  [NaN],
  LONE,
  BIG,
  Symbol('s'),
  () => 1,
  new Uint8Array(0),
];

const native = await onEngine('native');

describe('adversarial calls on the packed build', { skip: NOT_BUILT }, () => {
  let m;
  // The error kinds the installed package declares (`ErrorKind` in its d.ts): every error's
  // `kind` must be one of them.
  let kinds;
  before(async () => {
    const { dir } = await installed();
    m = await importByName(dir);
    const dts = readFileSync(path.join(dir, 'node_modules/rowkey-lab/pkg/node/index.d.ts'), 'utf8');
    const union = dts.match(/export type ErrorKind =([^;]*);/);
    kinds = new Set([...(union?.[1] ?? '').matchAll(/'(\w+)'/g)].map(x => x[1]));
    assert.ok(kinds.size >= 8, 'the d.ts declares the ErrorKind union');
  });
  const declared = e =>
    e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && kinds.has(e.kind) && e.reason.length > 0;
  const healthy = (mod = m) => {
    assert.equal(mod.md5Hex([97, 98, 99]), '900150983cd24fb0d6963f7d28e17f72');
    assert.equal(mod.splitKeys('HexStringSplit', 4).length, 3);
    // a call the native engine answers, on it when it runs
    assert.equal(mod.validateDesign(doc()).v, 1);
  };
  const doc = () => m.getPreset(m.listPresets()[0].id);

  const cases = [
    ['md5Hex', () => [42]],
    ['md5Hex', () => ['abc']],
    ['md5Hex', () => [[256]]],
    ['md5Hex', () => [[NaN]]],
    ['md5Hex', () => [[-1]]],
    ['toStringBinary', () => [null]],
    ['toStringBinary', () => [BIG]],
    ['toBytesBinary', () => [42]],
    ['toBytesBinary', () => [NaN]],
    ['javaHashCode', () => [NaN]],
    ['javaHashCode', () => [{}]],
    ['bytesHashCode', () => ['x']],
    ['compareBytes', () => [[1], 'x']],
    ['toBytes', () => ['nope', '1']],
    ['toBytes', () => ['int', '1e99']],
    ['toBytes', () => ['long', '9'.repeat(10_000_000)]],
    ['toBytes', () => ['string', 42]],
    ['toBytes', () => ['int', LONE]],
    ['inspect', () => ['1', { type: 'string', regions: 1e9 }]],
    ['inspect', () => ['1', { type: 'string', regions: -1 }]],
    ['inspect', () => ['1', { type: 'string', regions: NaN }]],
    ['inspect', () => [42, { type: 'string', regions: 4 }]],
    ['inspect', () => ['1', null]],
    ['inspect', () => ['1', { type: 'string', regions: 4, typo: 1 }]],
    ['splitKeys', () => ['HexStringSplit', 1e9]],
    ['splitKeys', () => ['HexStringSplit', NaN]],
    ['splitKeys', () => ['HexStringSplit', -1]],
    ['splitKeys', () => ['Nope', 4]],
    ['splitKeys', () => [LONE, 4]],
    ['splitKeys', () => [BIG, 4]],
    ['splitKeys', () => ['HexStringSplit', 4, { firstRow: 42 }]],
    ['bytesSplit', () => [[1], [2], NaN]],
    ['bytesSplit', () => ['a', 'b', 1]],
    ['bytesSplit', () => [[1], [2], -5]],
    ['bytesSplit', () => [[1], [2], 1e9]],
    ['createTableSplitKeys', () => [[1], [2], 1e9]],
    ['createTableSplitKeys', () => [[1], [2], -1]],
    ['createTableSplitKeys', () => ['a', [2], 3]],
    ['regionOf', () => ['x', [1]]],
    ['regionOf', () => [[[1], [1]], [1]]],
    ['regionOf', () => [[[]], [1]]],
    ['regionOf', () => [[[1]], NaN]],
    ['getPreset', () => ['nope']],
    ['getPreset', () => [42]],
    ['getPreset', () => [LONE]],
    ['getPreset', () => [BIG]],
    ['encodeKey', () => [42, {}]],
    ['encodeKey', () => [doc(), 42]],
    ['encodeKey', () => ['{', {}]],
    ['encodeKey', () => [{ ...doc(), key: BIG }, {}]],
    ['decodeKey', () => [doc(), 42]],
    ['decodeKey', () => [NaN, [1]]],
    ['parseCreateTable', () => [42]],
    ['parseCreateTable', () => [LONE]],
    ['parseCreateTable', () => ['CREATE TABLE t (a VARCHAR']],
    ['printCreateTable', () => [doc()]],
    ['printCreateTable', () => [42]],
    ['indexTables', () => ['{']],
    ['indexTables', () => [42]],
    ['planIndexReads', () => [42]],
    ['parseKey', () => [42]],
    ['parseKey', () => [LONE]],
    ['parseKey', () => ['(((((']],
    ['formatKey', () => [NaN]],
    ['validateDesign', () => [42]],
    ['validateDesign', () => [{ v: 1 }]],
    ['keyLayout', () => [null]],
    ['keySpans', () => [doc(), NaN]],
    ['lintDesign', () => [42]],
    ['lintDesign', () => ['not json']],
    ['analyzeDesign', () => [42]],
    ['analyzeDesign', () => [{ ...doc(), regions: { count: 1e9 } }]],
    ['analyzeDesign', () => [doc(), { windows: -1 }]],
    ['analyzeDesign', () => [doc(), { windows: 1e9 }]],
    ['compareDesigns', () => [doc(), 42]],
    ['planReads', () => [NaN]],
    ['layoutSplitKeys', () => [42]],
    ['shellCreate', () => [LONE]],
    ['splitsFile', () => [{}]],
    ['keySpans', () => [doc(), 'abc']],
    ['decodeKey', () => [doc(), [256]]],
    ['formatKey', () => [{ segments: 42 }]],
    ['validateDesign', () => [{ ...doc(), typo: 1 }]],
    ['analyzeDesign', () => [doc(), { windowz: 4 }]],
    // JSON would drop a function or symbol and the option would silently take its default
    ['analyzeDesign', () => [doc(), { windows: () => 1 }]],
    ['analyzeDesign', () => [doc(), { windows: 8, x: () => 1 }]],
    ['analyzeDesign', () => [doc(), { windows: Symbol('w') }]],
    ['analyzeDesign', () => [doc(), 'windows']],
    ['compareDesigns', () => [[doc(), 42]]],
    ['compareDesigns', () => [[], NaN]],
    ['planReads', () => [doc(), 'x']],
    ['shellCreate', () => ['', 'cf', []]],
    ['shellCreate', () => ['t', 'cf', [NaN]]],
    ['shellScan', () => ['', [1], [2]]],
    ['shellScan', () => ['t', [256], [2]]],
    ['shellScan', () => ['t', [1], 'x']],
    ['shellScan', () => [LONE, [1], [2]]],
    ['encodeKey', () => [doc(), { phone: LONE }]],
    ['lintDesign', () => [{ v: 1, fields: [], key: '(' }]],
    ['readRegions', () => [42]],
    ['readRegions', () => [LONE]],
    ['readRegions', () => [`[${BIG}`]],
    ['readRegions', () => ['a\n'.repeat(5e6)]],
    ['readRegions', () => ['a', 42]],
    ['readRegions', () => [`t,a,1.${'0'.repeat(32)}.`]],
    ['readRegions', () => [`${BIG},1.${'0'.repeat(32)}.`]],
    // a /jmx dump without region names; one cut short after a region name (10 MB of a string,
    // then 200,000 unclosed arrays)
    ['readRegions', () => ['{"beans": []}']],
    ['readRegions', () => [` events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a.\n{"beans": ["${BIG}`]],
    ['readRegions', () => [` events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a.\n{"beans": ${'['.repeat(2e5)}`]],
    // a series of snapshots: not a list, a file with a typo, a lone surrogate, a dump cut
    // short, 200,000 unclosed arrays
    ['readSeries', () => [42]],
    ['readSeries', () => [[42]]],
    ['readSeries', () => [[{ name: 'a', text: '{}', modified: 1 }]]],
    ['readSeries', () => [[{ name: 'a', text: LONE }]]],
    ['readSeries', () => [[{ name: 'a', text: 'x', modifiedMs: -1 }]]],
    ['readSeries', () => [[{ name: '1795669200000-rs1.json', text: `{"beans": ["${BIG}` }]]],
    ['readSeries', () => [[{ name: '1795669200000-rs1.json', text: `{"beans": ${'['.repeat(2e5)}` }]]],
    ['readSeries', () => [[], 42]],
    [
      'validateDesign',
      () => [
        (() => {
          const o = { v: 1 };
          o.self = o;
          return o;
        })(),
      ],
    ],
    [
      'encodeKey',
      () => [
        doc(),
        (() => {
          let o = {};
          for (let i = 0; i < 200; i++) o = { o };
          return o;
        })(),
      ],
    ],
  ];
  /** Each case on `mod()`, the wasm build's package or the native engine's. */
  const rejects = (name, args, mod) => {
    assert.equal(typeof mod[name], 'function', `${name} is not exported`);
    assert.throws(
      () => mod[name](...args()),
      declared,
      `${name} should throw a plain Error with a declared kind and a reason`,
    );
    healthy(mod);
  };
  for (const [name, args] of cases) {
    test(`${name} rejects bad input (${String(args).slice(6, 60)})`, () => rejects(name, args, m));
  }
  describe('on the native engine: the cases of the calls it answers', { skip: native.skip }, () => {
    const answered = cases.filter(([name]) => native.answers?.(name));
    test('the calls it leaves to the wasm build, said', t => {
      const left = [...new Set(cases.map(([name]) => name).filter(name => !native.answers(name)))];
      for (const name of left) t.diagnostic(fallback(name));
      assert.ok(answered.length >= 10, `${answered.length} cases of the native engine's calls`);
    });
    for (const [name, args] of answered)
      test(`native: ${name} rejects bad input (${String(args).slice(6, 60)})`, () => rejects(name, args, native.m));
  });

  test("errors name their kind as HBase's Java code would throw it, and point at the spot", () => {
    const kindOf = f => {
      try {
        f();
      } catch (e) {
        return e;
      }
      assert.fail('no error');
    };
    // Integer.parseInt("1e99"): NumberFormatException.
    assert.equal(kindOf(() => m.toBytes('int', '1e99')).kind, 'numberFormat');
    // Bytes.split with num = -5 allocates byte[num + 2][]: NegativeArraySizeException.
    assert.equal(kindOf(() => m.bytesSplit([1], [2], -5)).kind, 'negativeArraySize');
    // RegionSplitter needs at least two regions: IllegalArgumentException.
    assert.equal(kindOf(() => m.splitKeys('HexStringSplit', 1)).kind, 'illegalArgument');
    const p = kindOf(() => m.parseKey('((((('));
    assert.deepEqual([p.kind, p.line, p.column], ['parse', 1, 1]);
    const d = kindOf(() => m.decodeKey(doc(), [1, 2, 3]));
    assert.equal(d.kind, 'invalid');
    assert.equal(typeof d.offset, 'number');
    // A field missing at the document's root: the message starts with the reason.
    const v = kindOf(() => m.validateDesign({ v: 1 }));
    assert.equal(v.kind, 'parse');
    assert.match(v.message, /^missing field `/);
    healthy();
  });

  test('inspect: an unknown option key is an error naming it (deny_unknown_fields through serde_json)', () => {
    assert.throws(
      () => m.inspect('1', { type: 'string', regions: 4, typo: 1 }),
      e => e instanceof Error && /unknown field `typo`/.test(e.message) && e.path === 'options.typo',
    );
    healthy();
  });

  test('regionOf sorts unsorted split keys first, as HBase createTable does (documented in the d.ts)', () => {
    for (const row of [[0], [1], [1, 5], [2], [3]]) {
      assert.equal(m.regionOf([[2], [1]], row), m.regionOf([[1], [2]], row), `row ${row}`);
    }
    assert.equal(m.regionOf([[3], [1], [2]], [2, 0]), 2);
    healthy();
  });

  test('KeyCodec rejects bad input and keeps working', () => {
    for (const bad of BAD_VALUES) {
      assert.throws(
        () => new m.KeyCodec(bad),
        e => e instanceof Error && !(e instanceof WebAssembly.RuntimeError),
        String(bad).slice(0, 20),
      );
    }
    const c = new m.KeyCodec(doc());
    const good = doc().examples?.[0]?.record ?? {};
    const want = m.encodeKey(doc(), good);
    for (const bad of BAD_VALUES) {
      for (const call of [
        () => c.encode(bad),
        () => c.encodeAll(bad),
        () => c.encodeAll([good, bad]),
        () => c.decode(bad),
      ]) {
        try {
          call();
        } catch (e) {
          assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
        }
      }
      assert.deepEqual(c.encode(good), want);
    }
    assert.throws(() => c.encodeAll([good, { [LONE]: BIG }]), Error);
    assert.throws(() => c.decode(new Uint8Array(1 << 20).fill(0xff)), Error);
    healthy();
  });

  test('AnalysisSession rejects bad input and keeps working', () => {
    assert.throws(
      () => new m.AnalysisSession(42),
      e => e instanceof Error && !(e instanceof WebAssembly.RuntimeError),
    );
    assert.throws(() => new m.AnalysisSession(doc(), { windows: -1 }), Error);
    const s = new m.AnalysisSession(doc(), { windows: 4 });
    for (const bad of [NaN, 0, -1, 2 ** 41, 'x', undefined, 1.5]) assert.throws(() => s.step(bad), Error, String(bad));
    const p = s.step(1000);
    assert.ok(p.done > 0 && p.done <= 1000);
    assert.ok(s.finish().writes === p.done);
    s.free();
    // feed: every bad value, bad records inside an array, never a trap; then a good record
    const f = new m.AnalysisSession(doc(), { windows: 4 });
    const good = doc().examples[0].record;
    for (const v of BAD_VALUES) {
      for (const arg of [v, [v], [Object.fromEntries(Object.keys(good).map(k => [k, v]))]]) {
        try {
          f.feed(arg);
        } catch (e) {
          assert.ok(!(e instanceof WebAssembly.RuntimeError), `feed(${String(v).slice(0, 20)}) trapped: ${e.message}`);
        }
      }
    }
    const before = f.progress().done;
    assert.equal(f.feed([good]).done, before + 1);
    f.free();
    healthy();
  });

  test('free() twice is harmless; a freed object says so with a kind, for each class', () => {
    const objects = [
      ['AnalysisSession', () => new m.AnalysisSession(doc(), { windows: 4 }), s => s.step(10)],
      ['KeyCodec', () => new m.KeyCodec(doc()), c => c.encode(doc().examples[0].record)],
    ];
    for (const [name, make, use] of objects) {
      const o = make();
      use(o);
      o.free();
      o.free();
      assert.throws(
        () => use(o),
        e => e.kind === 'illegalState' && e.path === name && /was freed/.test(e.message),
        name,
      );
    }
    healthy();
  });

  test("bytesSplit's inclusive is a boolean or absent, never read loosely", () => {
    assert.equal(m.bytesSplit([0], [9], 2).length, 4);
    assert.equal(m.bytesSplit([0], [9], 2, true).length, 4);
    for (const loose of ['true', 1, 0, null, {}])
      assert.throws(
        () => m.bytesSplit([0], [9], 2, loose),
        e => e.kind === 'illegalArgument' && e.path === 'inclusive',
        String(loose),
      );
  });

  /** Every export of `mod` that `keep` keeps, with every bad value: never a trap, the instance survives. */
  const fuzz = async (mod, keep) => {
    const names = Object.keys(mod).filter(
      k =>
        typeof mod[k] === 'function' && !['default', 'initSync', 'start'].includes(k) && !/^[A-Z]/.test(k) && keep(k),
    );
    const trapped = (name, v, e) =>
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `${name}(${String(v).slice(0, 20)}) trapped: ${e.message}`);
    for (const name of names) {
      for (const v of BAD_VALUES) {
        for (const args of [[v], [v, v], [v, v, v, v]]) {
          try {
            const r = mod[name](...args);
            // an async export (adviseDesignParallel) refuses by rejecting: awaited here
            if (typeof r?.then === 'function') await r.catch(e => trapped(name, v, e));
          } catch (e) {
            trapped(name, v, e);
          }
        }
      }
      healthy(mod);
    }
    return names;
  };
  test('fuzz: every export with every bad value never traps, and the instance survives', async () => {
    assert.ok((await fuzz(m, () => true)).length > 40);
  });
  test('fuzz on the native engine: the exports it answers', { skip: native.skip }, async () => {
    assert.deepEqual(await fuzz(native.m, native.answers), [
      'analyzeDesign',
      'checkDesign',
      'lintDesign',
      'validateDesign',
    ]);
  });
});
