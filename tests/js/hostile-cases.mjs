// The hostile inputs that once trapped the module (issue 37), as one list that runs in Node
// (tests/js/npm/hostile.test.mjs: the packed package on wasm, the package on the native engine)
// and in Chromium (the package's web entry, served to the browser). Plain JS, engine calls only:
// each case must be refused with a declared error of a bounded message (never a trap, never a
// hang), and an ordinary call must succeed after it on the same module instance. Each case's
// name starts with the call it makes (`callOf`), so a run on the native engine can keep the cases
// that engine answers.

/**
 * The hostile designs among the cases, also files of scripts/hostile-costs.mjs: `longUidNames`,
 * 148 bytes within every documented limit whose UID tables grow past their 64 MiB of names (a
 * UID for each 4,096-character string); `longFieldName`, a key naming a field of 10 MiB.
 */
export const hostileDesigns = {
  longUidNames: {
    v: 1,
    fields: [{ name: 's', type: 'string', generator: { kind: 'uniformString', length: 4096 } }],
    key: 'uid(s, 3)',
    workload: { records: 100000 },
  },
  longFieldName: () => ({ v: 1, fields: [{ name: 'a', type: 'string' }], key: 'n'.repeat(10 << 20) }),
};
const { longUidNames } = hostileDesigns;

/**
 * The cases: [name, call, what the error must say]. `m` is the engine module; `preset` a design
 * whose workload has a few blocks.
 */
export function hostileCases(m, preset) {
  const session = new m.AnalysisSession(preset, { windows: 8 });
  const blocks = session.blocks();
  session.free();
  const part = m.AnalysisSession.forBlocks(preset, { windows: 8 }, 0, 1);
  part.step(1 << 20);
  const partial = part.partial();
  part.free();
  const key10k = new Uint8Array(10 * 1024).fill(0xff);
  const keyMax = new Uint8Array(32767).fill(0x01);
  return [
    ['analyzeDesign: uid(s, 3) over 4,096-character names', () => m.analyzeDesign(longUidNames), /uid.*MiB/],
    ['new AnalysisSession + step: the same design', () => new m.AnalysisSession(longUidNames).step(1e6), /uid.*MiB/],
    [
      'combineAnalyses: 100,000 partials (one buffer, 3 GB in all)',
      () => m.combineAnalyses(preset, { windows: 8 }, new Array(100000).fill(partial)),
      /partials.*bytes/,
    ],
    [
      'combineAnalyses: 70,000 small partials',
      () => m.combineAnalyses(preset, { windows: 8 }, new Array(70000).fill(new Uint8Array(16))),
      new RegExp(`70000 partial analyses is over the limit of ${blocks}`),
    ],
    [
      'combineAnalyses: more partials than blocks, each real',
      () => m.combineAnalyses(preset, { windows: 8 }, new Array(blocks + 1).fill(partial)),
      /partial analyses is over the limit/,
    ],
    ['splitsFile: 100,000 keys of 10 KB', () => m.splitsFile(new Array(100000).fill(key10k)), /keys.*bytes/],
    [
      'shellCreate: 10,000 keys of 32,767 bytes',
      () => m.shellCreate('t', 'f', new Array(10000).fill(keyMax)),
      /keys.*bytes/,
    ],
    [
      'shellCreate: 7,000 keys of 32,767 bytes (copied in; the text stops at its limit)',
      () => m.shellCreate('t', 'f', new Array(7000).fill(keyMax)),
      /result's JSON text/,
    ],
    ['splitsFile: 1,000,001 keys', () => m.splitsFile(new Array(1000001).fill(new Uint8Array(1))), /1000001 items/],
    [
      'validateDesign: a field name of 10 MiB in the key',
      () => m.validateDesign(hostileDesigns.longFieldName()),
      /characters/,
    ],
    // Options that JSON cannot say: each once taken silently for its default (the months of
    // `{months: NaN}` ran 12 months; `policy: () => 1` ran HBase's default policy).
    ['lifeMonths: months NaN', () => m.lifeMonths(preset, { months: NaN }), /options\.months: is NaN/],
    [
      'lifeMonths: servers Infinity',
      () => m.lifeMonths(preset, { servers: Infinity }),
      /options\.servers: is Infinity/,
    ],
    [
      'lifeMonths: a policy that is a function',
      () => m.lifeMonths(preset, { months: 1, policy: () => 'stepping' }),
      /options\.policy: is a function/,
    ],
    [
      'lifeMonths: a nested period -Infinity',
      () => m.lifeMonths(preset, { months: 1, normalizer: { periodSeconds: -Infinity } }),
      /options\.normalizer\.periodSeconds: is -Infinity/,
    ],
    [
      'checkLife: a budget NaN',
      () => m.checkLife(preset, { months: 1 }, { maxEmptyRegions: NaN }),
      /budgets\.maxEmptyRegions: is NaN/,
    ],
  ];
}

/** The engine call a case makes: its name's first word (`new AnalysisSession + step` → AnalysisSession). */
export const callOf = name => /^(?:new )?(\w+)/.exec(name)[1];

/** The ordinary calls that must work after each case (the module survived). */
export function healthyAfter(m, preset) {
  const report = m.analyzeDesign(preset, { windows: 8 });
  if (!(report.writes > 0)) throw new Error('analyzeDesign counted nothing');
  m.validateDesign(preset);
  new m.AnalysisSession(preset, { windows: 4 }).free();
  if (m.toBytes('int', '1').length !== 4) throw new Error('toBytes');
  if (m.splitKeys('HexStringSplit', 4).length !== 3) throw new Error('splitKeys');
  return report.writes;
}

/**
 * Every case (those whose name `keep` keeps), each followed by the ordinary calls:
 * `{ name, trapped, kind, matched, length, healthy }` per case (plain data, so a browser can hand
 * it back to the test).
 */
export function runHostile(m, preset, keep = () => true) {
  const out = [];
  for (const [name, call, want] of hostileCases(m, preset)) {
    if (!keep(name)) continue;
    const r = { name, trapped: false, kind: null, matched: false, length: 0, healthy: null, threw: false };
    try {
      call();
    } catch (e) {
      r.threw = true;
      r.trapped = e instanceof WebAssembly.RuntimeError || /unreachable|RuntimeError/.test(String(e?.name));
      r.kind = e?.kind ?? null;
      r.length = String(e?.message ?? '').length;
      r.matched = want.test(String(e?.message ?? ''));
      r.message = String(e?.message ?? '').slice(0, 300);
    }
    try {
      r.healthy = healthyAfter(m, preset);
    } catch (e) {
      r.healthy = `failed: ${e?.message ?? e}`;
    }
    out.push(r);
  }
  return out;
}
