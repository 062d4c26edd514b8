// The npm package as a consumer gets it: `npm pack` -> install the tarball in a fresh folder ->
// import by name in Node, every golden vector through the packed build, inspect/splits against
// the native (Java-derived) expectations, an esbuild browser bundle in Debian Chromium, and an
// adversarial pass over every export. Exports not merged yet are skipped with a reason.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT, serve, launch, openPage } from './helpers.mjs';
import { NOT_BUILT, installed, importByName, VECTORS_DIR, hex } from './npm-helpers.mjs';

const KEYSPEC = ['parseKey', 'formatKey', 'validateDesign', 'encodeKey', 'decodeKey', 'keyLayout', 'keySpans', 'lintDesign', 'lintRules'];
const ANALYZE = ['analyzeDesign', 'AnalysisSession', 'compareDesigns', 'planReads', 'layoutSplitKeys', 'shellCreate', 'splitsFile'];
const CORE = ['inspect', 'toBytes', 'toStringBinary', 'toBytesBinary', 'compareBytes', 'md5Hex', 'javaHashCode',
  'bytesHashCode', 'splitKeys', 'bytesSplit', 'createTableSplitKeys', 'regionOf', 'listPresets', 'getPreset'];

describe('npm package', { skip: NOT_BUILT }, () => {
  let m; let consumer;
  before(async () => { consumer = await installed(); m = await importByName(consumer.dir); });

  test('tarball holds web, node and cjs entries and the wasm', () => {
    assert.deepEqual(consumer.files.sort(), ['cjs', 'node', 'web']);
  });

  test("import { md5Hex, listPresets } from 'rowkey-lab' works in Node without init", () => {
    assert.equal(m.md5Hex(new TextEncoder().encode('abc')), '900150983cd24fb0d6963f7d28e17f72');
    const presets = m.listPresets();
    assert.ok(presets.length >= 10, `${presets.length} presets`);
    assert.ok(presets.every(p => typeof p.id === 'string'));
  });

  test('core exports are all present', () => {
    for (const name of CORE) assert.equal(typeof m[name], 'function', name);
  });

  for (const name of [...KEYSPEC, ...ANALYZE]) {
    test(`export ${name}`, async t => {
      if (typeof m[name] !== 'function') return t.skip(`${name} is not in this build yet (keyspec/analyze bindings not merged)`);
      assert.equal(typeof m[name], 'function');
    });
  }

  test('require("rowkey-lab") (CommonJS) works', async () => {
    const { createRequire } = await import('node:module');
    const req = createRequire(path.join(consumer.dir, 'x.cjs'));
    assert.equal(req('rowkey-lab').md5Hex([97]), '0cc175b9c0f1b6a831c399e269772661');
  });

  test('every golden vector passes through the packed build', async t => {
    if (typeof m.runVector !== 'function') return t.skip('runVector absent: the npm build was made without the vectors feature');
    const files = readdirSync(VECTORS_DIR).filter(f => f.endsWith('.jsonl'));
    assert.ok(files.length > 0, `no vectors in ${VECTORS_DIR}`);
    let pass = 0; const fails = []; const cannot = {};
    for (const f of files) {
      for (const line of readFileSync(path.join(VECTORS_DIR, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const v = m.runVector(line);
        if (v.verdict === 'pass') pass++;
        else if (v.verdict === 'fail') fails.push(`${f}: ${v.func}\n${v.detail}`);
        else cannot[v.func] = (cannot[v.func] ?? 0) + 1;
      }
    }
    t.diagnostic(`${pass} vectors passed; cannot run: ${JSON.stringify(cannot)}`);
    assert.deepEqual(fails.slice(0, 5), [], `${fails.length} vectors failed`);
    assert.ok(pass > 4000, `only ${pass} passed`);
  });

  test('splitKeys and inspect equal the RegionSplitter vectors (native expectations)', () => {
    const algos = { 'HexStringSplit.split(n)': 'HexStringSplit', 'DecimalStringSplit.split(n)': 'DecimalStringSplit', 'UniformSplit.split(n)': 'UniformSplit' };
    let n = 0;
    for (const line of readFileSync(path.join(VECTORS_DIR, 'region_splitter.jsonl'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const v = JSON.parse(line);
      const algo = algos[v.fn];
      if (!algo || Object.keys(v.args).join() !== 'n' || !Array.isArray(v.expect) || v.args.n < 2) continue; // splitKeys needs >= 2 regions
      assert.deepEqual(m.splitKeys(algo, v.args.n).map(hex), v.expect, `${algo} ${v.args.n}`);
      if (v.args.n >= 2 && v.args.n <= 4096 && n < 40) {
        const ins = m.inspect('13412341234', { type: 'string', regions: v.args.n });
        const s = ins.splits.find(x => x.algorithm === algo);
        assert.deepEqual(s.splitKeys.map(k => k.hex), v.expect);
        assert.equal(ins.md5Hex, m.md5Hex(m.toBytes('string', '13412341234')));
        assert.equal(s.region, m.regionOf(m.splitKeys(algo, v.args.n), m.toBytes('string', '13412341234')));
      }
      n++;
    }
    assert.ok(n >= 50, `${n} split vectors compared`);
    assert.deepEqual(m.splitKeys('HexStringSplit', 16).map(k => m.toStringBinary(k)),
      Array.from({ length: 15 }, (_, i) => `${(i + 1).toString(16)}0000000`));
  });

  test('every preset example encodes to its recorded key', async t => {
    if (typeof m.encodeKey !== 'function') return t.skip('encodeKey is not in this build yet');
    let n = 0;
    for (const p of m.listPresets()) {
      const doc = m.getPreset(p.id);
      for (const ex of doc.examples ?? []) {
        if (!ex.key) continue;
        const r = m.encodeKey(doc, ex.record);
        const got = r instanceof Uint8Array ? hex(r) : r.hex ?? hex(r.bytes);
        assert.equal(got, ex.key, `${p.id} ${JSON.stringify(ex.record)}`);
        n++;
      }
    }
    assert.ok(n > 0);
  });

  test('every preset scenario analyzes', async t => {
    if (typeof m.analyzeDesign !== 'function') return t.skip('analyzeDesign is not in this build yet');
    for (const p of m.listPresets()) {
      const r = m.analyzeDesign(m.getPreset(p.id), { windows: 8, sampleSize: 50 });
      assert.ok(r.writes > 0, p.id);
      assert.ok(r.metrics.overall.hotspotFactor >= 1, p.id);
    }
  });

  describe('browser bundle (esbuild) in Debian Chromium', () => {
    let srv; let browser; let dir;
    before(async () => {
      dir = path.join(consumer.dir, 'web');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(consumer.dir, 'page.js'), `
        import init, { md5Hex, splitKeys, toStringBinary, listPresets, inspect } from 'rowkey-lab';
        import wasmUrl from 'rowkey-lab/rowkey_lab_bg.wasm';
        await init({ module_or_path: wasmUrl });
        const out = {
          md5: md5Hex(new TextEncoder().encode('abc')),
          splits: splitKeys('HexStringSplit', 16).map(toStringBinary),
          presets: listPresets().length,
          region: inspect('13412341234', { type: 'string', regions: 16 }).splits[0].region,
        };
        document.body.textContent = JSON.stringify(out);
        window.__result = out;`);
      await build({ entryPoints: [path.join(consumer.dir, 'page.js')], bundle: true, format: 'esm', target: 'es2022',
        outdir: dir, loader: { '.wasm': 'file' }, absWorkingDir: consumer.dir, logLevel: 'silent' });
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,"><script type="module" src="page.js"></script>');
      srv = await serve(dir);
      browser = await launch();
    });
    after(async () => { await browser?.close(); srv?.close(); });

    test('the bundled consumer page runs the wasm', async () => {
      const { page, problems, foreign } = await openPage(browser, srv.url);
      await page.goto(srv.url);
      const r = await page.waitForFunction(() => window.__result, null, { timeout: 15000 }).then(h => h.jsonValue());
      assert.equal(r.md5, '900150983cd24fb0d6963f7d28e17f72');
      assert.equal(r.splits.length, 15);
      assert.equal(r.splits[0], '10000000');
      assert.ok(r.presets >= 10);
      assert.ok(Number.isInteger(r.region));
      assert.deepEqual(problems, []);
      assert.deepEqual(foreign, []);
    });
  });
});
