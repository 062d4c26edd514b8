// The native engine (node/, a Node-API addon) against the wasm build, each in a process of its
// own (ROWKEY_LAB_ENGINE=wasm|native): the package exports the same names; the calls the native
// engine answers give byte-identical JSON on the same inputs, bad ones included (the error's
// message, kind, reason and location); the CLI's `analyze --records` prints the same bytes, on
// every file of tests/fixtures/rows and on files large enough to be read in chunks by several
// threads. Skipped, saying why, when the native engine is not built (scripts/build-native.sh);
// ROWKEY_LAB_REQUIRE_NATIVE=1 (scripts/test.sh's npm lane, which builds it) makes that a failure.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { installed, NOT_BUILT } from '../npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const FIX = path.join(ROOT, 'tests/fixtures/rows');
const ENTRY = path.join(ROOT, 'pkg/node/index.js');

/** A process on engine `engine`: its status, stdout and stderr. */
const on = (engine, args, cwd = FIX) => {
  const env = { ...process.env, ROWKEY_LAB_ENGINE: engine };
  return spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
};
const probe = on('native', [
  '--input-type=module',
  '-e',
  `import { engine } from ${JSON.stringify(ENTRY)}; console.log(engine())`,
]);
const NO_NATIVE =
  NOT_BUILT ||
  (probe.status === 0 && probe.stdout.trim() === 'native'
    ? false
    : `the native engine is not built (bash scripts/build-native.sh): ${probe.stderr.split('\n')[0]}`);
if (NO_NATIVE && process.env.ROWKEY_LAB_REQUIRE_NATIVE === '1') throw new Error(NO_NATIVE);

/** Each engine's answers to `script` (an ES module printing JSON), as text. */
function both(script) {
  const args = ['--input-type=module', '-e', `import * as api from ${JSON.stringify(ENTRY)};\n${script}`];
  const out = {};
  for (const e of ['wasm', 'native']) {
    const r = on(e, args);
    assert.equal(r.status, 0, `${e}: ${r.stderr}`);
    out[e] = r.stdout;
  }
  return out;
}

describe('the native engine beside the wasm build', { skip: NO_NATIVE }, () => {
  test('the package says which engine runs, and exports the same names on both', () => {
    const { wasm, native } = both(
      'console.log(JSON.stringify({ engine: api.engine(), names: Object.keys(api).sort(), types: Object.keys(api).sort().map(k => typeof api[k]) }))',
    );
    const [w, n] = [JSON.parse(wasm), JSON.parse(native)];
    assert.equal(w.engine, 'wasm');
    assert.equal(n.engine, 'native');
    assert.deepEqual(n.names, w.names);
    assert.deepEqual(n.types, w.types);
  });

  test('analyzeDesign: the same JSON on presets and options, the same errors on bad input', () => {
    // each case's answer or error as JSON: an error's message and every own property, in order
    const script = `
      const out = [];
      const tryIt = f => { try { const r = f(); out.push({ ok: JSON.stringify(r) }); }
        catch (e) { out.push({ err: [e.constructor.name, e.message, JSON.stringify(e)] }); } };
      for (const id of ['seed000-telecom', 'seed001-hashed-salt', 'seed000-phoenix-telecom'])
        tryIt(() => api.analyzeDesign(api.getPreset(id), { windows: 16, sampleSize: 500 }));
      const doc = api.getPreset('seed000-telecom');
      tryIt(() => api.analyzeDesign(JSON.stringify(doc)));
      tryIt(() => api.analyzeDesign({ ...doc, key: 'nosuch + "_"' }));
      tryIt(() => api.analyzeDesign('{"v": 1, "fields": ['));
      tryIt(() => api.analyzeDesign({}));
      tryIt(() => api.analyzeDesign(42));
      tryIt(() => api.analyzeDesign(doc, { windowz: 10 }));
      tryIt(() => api.analyzeDesign(doc, { windows: -1 }));
      tryIt(() => api.analyzeDesign(doc, { sampleSize: Number.NaN }));
      tryIt(() => api.analyzeDesign(doc, { windows: () => 1 }));
      tryIt(() => api.analyzeDesign(doc, { windows: 10n }));
      // values whose reading throws, and a cycle: the engine's error at the argument
      const boom = () => { throw new Error('boom'); };
      tryIt(() => api.analyzeDesign(Object.defineProperty({}, 'fields', { enumerable: true, get: boom })));
      tryIt(() => api.analyzeDesign(doc, new Proxy({}, { ownKeys: boom })));
      tryIt(() => api.analyzeDesign(doc, { windows: Object.defineProperty({}, 'x', { enumerable: true, get: boom }) }));
      const cycle = { v: 1 };
      cycle.self = cycle;
      tryIt(() => api.analyzeDesign(cycle));
      // the other calls the native engine answers, on the presets and on bad input
      for (const id of ['seed000-telecom', 'seed001-hashed-salt', 'seed000-cyclic']) {
        const d = api.getPreset(id);
        tryIt(() => api.validateDesign(d));
        tryIt(() => api.lintDesign(JSON.stringify(d)));
        tryIt(() => api.checkDesign(d, { maxHotspot: 1.5 }, { windows: 8 }));
      }
      tryIt(() => api.checkDesign(doc, { maxHotspot: 0.5 }));
      tryIt(() => api.checkDesign(doc, { maxHotspotz: 2 }));
      tryIt(() => api.validateDesign({ v: 2 }));
      tryIt(() => api.lintDesign(null));
      console.log(JSON.stringify(out));`;
    const { wasm, native } = both(script);
    const cases = JSON.parse(wasm);
    assert.ok(cases.filter(c => c.ok).length >= 4 && cases.filter(c => c.err).length >= 10, wasm.slice(0, 500));
    assert.equal(native, wasm);
  });

  test("a file read natively says how far it has gone and stops at its signal, as the JS driver's reading does", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rk-watch-'));
    try {
      // 9 MiB of CSV: nine pieces in one pass, and chunks over two threads from 1 MiB
      const file = path.join(dir, 'events.csv');
      const lines = ['id,ts'];
      for (let i = 0; i < 400000; i++) lines.push(`user${i % 5000},${1700000000000 + i * 1000}`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const script = `
        const doc = { v: 1, fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'timestamp' }], key: 'id + ts' };
        const file = ${JSON.stringify(file)};
        const out = [];
        for (const threads of [1, 2]) {
          const events = [];
          const r = await api.analyzeRowsParallel(doc, file, { threads, chunkFrom: 1 << 20, rows: { time: 'ts' }, onProgress: p => events.push(p) });
          // within a pass, what is read only grows, up to what there is to read
          const grows = events.every((p, i) => p.done <= p.total && (i === 0 || events[i - 1].pass !== p.pass || events[i - 1].done <= p.done));
          out.push({ threads, last: events.at(-1), grows, rows: r.stats.rows });
        }
        const stop = new AbortController();
        const run = api.analyzeRowsParallel(doc, file, { threads: 2, chunkFrom: 1 << 20, rows: { time: 'ts' }, signal: stop.signal });
        stop.abort();
        out.push(await run.then(() => 'not stopped', e => e.name));
        const before = new AbortController();
        before.abort();
        out.push(await api.analyzeRowsParallel(doc, file, { signal: before.signal }).then(() => 'not stopped', e => e.name));
        console.log(JSON.stringify(out));`;
      const { wasm, native } = both(script);
      const w = JSON.parse(wasm);
      // one pass reads the file's bytes; two threads its chunks' (the header line, 6 bytes, apart)
      assert.deepEqual(w.at(0).last, { pass: 'reading', done: 9111206, total: 9111206, unit: 'bytes' }, wasm);
      assert.deepEqual(w.at(1).last, { pass: 'reading', done: 9111200, total: 9111200, unit: 'bytes' }, wasm);
      assert.ok(
        w.slice(0, 2).every(x => x.grows && x.rows === 400000),
        wasm,
      );
      assert.deepEqual(w.slice(2), ['AbortError', 'AbortError']);
      assert.equal(native, wasm);
      // the engine's own watch: cancelled before the reading begins, it reads nothing and fails
      const addon = readdirSync(path.join(ROOT, 'pkg/native')).find(f => !f.startsWith('.'));
      const direct = on('native', [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
        const n = createRequire(import.meta.url)(${JSON.stringify(path.join(ROOT, 'pkg/native', addon, 'rowkey_lab.node'))});
        const doc = JSON.stringify({ v: 1, fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'timestamp' }], key: 'id + ts' });
        for (const threads of [1, 2]) {
          const w = new n.RowsWatch();
          w.cancel();
          const e = await n.analyzeRowsFile(doc, undefined, undefined, ${JSON.stringify(file)}, threads, 1 << 20, w).then(() => null, e => e.message);
          console.log(JSON.stringify({ threads, error: e, progress: w.progress() }));
        }`,
      ]);
      assert.equal(direct.status, 0, direct.stderr);
      for (const line of direct.stdout.trim().split('\n')) {
        const { error, progress } = JSON.parse(line);
        assert.match(error ?? 'resolved', /the reading was cancelled/, line);
        assert.equal(progress.done, 0, line);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('npm pack: the package alone runs wasm, and native once the platform package is installed beside it', async () => {
    const { dir } = await installed();
    const engine = env => {
      const r = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', "import { engine } from 'rowkey-lab'; console.log(engine())"],
        {
          cwd: dir,
          env: { ...process.env, ROWKEY_LAB_ENGINE: '', ...env },
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim();
    };
    assert.equal(engine(), 'wasm');
    assert.notEqual(
      spawnSync(process.execPath, ['-e', "import('rowkey-lab')"], {
        cwd: dir,
        env: { ...process.env, ROWKEY_LAB_ENGINE: 'native' },
      }).status,
      0,
    );
    const [platform] = readdirSync(path.join(ROOT, 'pkg/native')).filter(f => !f.startsWith('.'));
    const out = execFileSync(
      'npm',
      ['pack', '--pack-destination', dir, '--silent', path.join(ROOT, 'pkg/native', platform)],
      { encoding: 'utf8' },
    );
    const tgz = path.join(dir, out.trim().split('\n').pop());
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', tgz], { cwd: dir, stdio: 'pipe' });
    assert.equal(engine(), 'native');
    assert.equal(engine({ ROWKEY_LAB_ENGINE: 'wasm' }), 'wasm');
    // the installed CLI says which engine runs
    const v = spawnSync(process.execPath, [path.join(dir, 'node_modules/rowkey-lab/bin/rowkey-lab.mjs'), '--version'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ROWKEY_LAB_ENGINE: '' },
    });
    assert.match(v.stdout, /^rowkey-lab \S+ \(engine: native\)$/m);
  });

  describe('analyze --records prints the same bytes', () => {
    let dir;
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'rowkey-native-'));
      // past the 8 MiB from which a file is read in chunks by several threads: the fixture's
      // rows repeated (CSV after its header line)
      const csv = readFileSync(path.join(FIX, 'flights.csv'), 'utf8');
      const nl = csv.indexOf('\n') + 1;
      const rows = csv.slice(nl);
      writeFileSync(path.join(dir, 'big.csv'), csv.slice(0, nl) + rows.repeat(Math.ceil((9 << 20) / rows.length)));
      const jsonl = readFileSync(path.join(FIX, 'flights.jsonl'), 'utf8');
      writeFileSync(path.join(dir, 'big.jsonl'), jsonl.repeat(Math.ceil((9 << 20) / jsonl.length)));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const files = ['flights.csv', 'flights.jsonl', 'flights.parquet', 'flights-zstd.parquet'];
    const same = (args, cwd = FIX) => {
      const [w, n] = ['wasm', 'native'].map(e => on(e, [BIN, ...args], cwd));
      assert.equal(n.status, w.status, `${args.join(' ')}: ${n.stderr} / ${w.stderr}`);
      assert.equal(n.stderr, w.stderr, args.join(' '));
      assert.equal(n.stdout, w.stdout, args.join(' '));
      return w;
    };
    for (const f of files)
      test(`${f}, --json and text`, () => {
        const d = path.join(FIX, 'flights-design.json');
        assert.equal(same(['analyze', d, '--records', f, '--nulls', 'skip', '--json']).status, 0);
        assert.equal(same(['analyze', d, '--records', f, '--nulls', 'skip', '--time', 'time_hour']).status, 0);
        // the rows checked against budgets (the session's check), passing and failing
        assert.equal(same(['check', d, '--records', f, '--nulls', 'skip', '--json']).status, 0);
        assert.notEqual(same(['check', d, '--records', f, '--nulls', 'skip', '--max-hotspot', '1.01']).status, 0);
        // the first null stops the run at the same row, with the same words and exit code
        assert.notEqual(same(['analyze', d, '--records', f]).status, 0);
      });
    test('a design that is just a key: the fields declared from the file alike', () => {
      const key = path.join(dir, 'key.json');
      writeFileSync(key, JSON.stringify({ v: 1, key: 'carrier + "_" + tailnum' }));
      for (const f of files)
        assert.equal(same(['analyze', key, '--records', f, '--nulls', 'skip', '--json']).status, 0);
    });
    test('files read in chunks by several threads (CSV, JSON Lines), and by one', () => {
      const d = path.join(FIX, 'flights-design.json');
      for (const f of ['big.csv', 'big.jsonl']) {
        const args = ['analyze', d, '--records', f, '--nulls', 'skip', '--time', 'time_hour', '--json'];
        const r = same(args, dir);
        assert.equal(r.status, 0);
        assert.equal(same([...args, '--threads', '1'], dir).stdout, r.stdout);
      }
    });
    test('a missing file and a bad option say the same', () => {
      const d = path.join(FIX, 'flights-design.json');
      assert.notEqual(same(['analyze', d, '--records', 'nosuch.csv']).status, 0);
      assert.notEqual(same(['analyze', d, '--records', 'flights.csv', '--nulls', 'maybe']).status, 0);
      assert.notEqual(same(['analyze', d, '--records', 'flights.csv', '--map', 'tailnum=nosuch']).status, 0);
    });
  });
});
