#!/usr/bin/env node
// Writes docs/BENCHMARKS.md, the current figures, from docs/benchmarks.json, the latest result of
// each bench. The bench scripts write their results to target/bench/<bench>.json:
//   keyspec.json, analyze.json   node scripts/bench-native.mjs
//   node.json                    node scripts/bench-node.mjs
//   finish.json                  node scripts/bench-finish.mjs
//   page.json                    node scripts/bench-page.mjs
//   size.json                    bash scripts/size-check.sh
//   rows.json                    node scripts/bench-rows.mjs
//   spark.json                   .venv/bin/python scripts/bench-spark.py
//   python.json                  .venv/bin/python scripts/bench-python.py
//   page-rows.json               node scripts/bench-page-rows.mjs
//   rekey.json                   node scripts/bench-rekey.mjs
//   life-page.json               node scripts/bench-life-page.mjs
//   life-rows.json               node scripts/bench-life-rows.mjs
// Each one found there, and as recent as the stored one, replaces it in docs/benchmarks.json
// (only the figures the tables show are kept); then the tables are written again. So one bench
// can be rerun alone, and the commit that changes what it measures carries its new figures.
//   node scripts/bench-table.mjs            fold target/bench/ in, write both files
//   node scripts/bench-table.mjs --only B   fold in target/bench/B.json alone (the target
//                                           directory may hold other branches' results)
//   node scripts/bench-table.mjs --check    exit 1 when docs/BENCHMARKS.md is not what
//                                           docs/benchmarks.json gives (a hand edit)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const at = p => new URL(`../${p}`, import.meta.url);
const STORE = 'docs/benchmarks.json';
const DOC = 'docs/BENCHMARKS.md';
const pick = (o, keys) => Object.fromEntries(keys.filter(k => o[k] !== undefined).map(k => [k, o[k]]));
const META = ['command', 'date', 'commit', 'machine', 'cpu', 'rustc', 'node', 'note'];

/** What is kept of each bench's result file. */
const KEEP = {
  keyspec: r => ({ ...pick(r, META), rows: r.rows }),
  analyze: r => ({ ...pick(r, META), rows: r.rows, rss: r.rss }),
  node: r => ({
    ...pick(r, [...META, 'records', 'runs', 'engine']),
    analyze: r.analyze,
    micros: r.micros.map(m => pick(m, ['label', 'usPerOp'])),
  }),
  finish: r => pick(r, [...META, 'preset', 'records', 'sampleKeys', 'runs', 'medianMs', 'minMs']),
  page: r => ({
    ...pick(r, [...META, 'runs', 'records']),
    fmr: pick(r.fmr, ['median', 'fcp', 'full']),
    pixels: r.pixels,
    long1m: pick(r.long1m, ['records', 'ms', 'tasks', 'max']),
    long10m: pick(r.long10m, ['records', 'ms', 'tasks', 'max']),
    throughput: r.throughput,
  }),
  size: r => ({ ...pick(r, [...META, 'dir', 'budget']), firstLoad: r.firstLoad, npmWasm: r.npmWasm }),
  rows: r => ({ ...pick(r, [...META, 'duckdbThreads', 'runs']), results: r.results }),
  spark: r => ({
    ...pick(r, [...META, 'spark', 'file', 'rows', 'cores', 'runs', 'partitions', 'loadAverage', 'loadAverageAfter']),
    jobs: r.jobs,
    memory: r.memory,
  }),
  python: r =>
    pick(r, [
      ...META,
      'runs',
      'file',
      'rows',
      'rowkeyLabSeconds',
      'rowkeyLabReadSeconds',
      'duckdbThreads',
      'duckdbSeconds',
      'ratio',
      'rowkeyLabCpuSeconds',
      'duckdbCpuSeconds',
      'loadAverage',
      'sameWrites',
    ]),
  'page-rows': r =>
    pick(r, [...META, 'runs', 'file', 'bytes', 'rows', 'pageOpenMs', 'pageRunMs', 'cliMs', 'cliProfileMs', 'ratio']),
  advise: r =>
    pick(r, [...META, 'preset', 'candidates', 'records', 'cores', 'oneThread', 'allCores', 'speedup', 'loadAverage']),
  life: r => ({ ...pick(r, [...META, 'loadAverage']), rows: r.rows }),
  'life-page': r =>
    pick(r, [
      ...META,
      'runs',
      'months',
      'servers',
      'regions',
      'pageMs',
      'nodeMs',
      'pageFirstMs',
      'nodeFirstMs',
      'ratio',
      'loadAverage',
    ]),
  'life-rows': r =>
    pick(r, [
      ...META,
      'runs',
      'rows',
      'kept',
      'months',
      'servers',
      'regions',
      'analyzeMs',
      'lifeMs',
      'ratio',
      'analyzeRssKiB',
      'lifeRssKiB',
      'loadAverage',
    ]),
  rekey: r =>
    pick(r, [
      ...META,
      'runs',
      'rows',
      'regions',
      'splitKeysExact',
      'analyzeMs',
      'rekeyMs',
      'ratio',
      'pairRatios',
      'analyzeRssKiB',
      'rekeyRssKiB',
      'analyzeNewMs',
      'ratioNew',
      'analyzeNewRssKiB',
      'loadAverage',
    ]),
};

const store = JSON.parse(readFileSync(at(STORE), 'utf8'));
const {
  values: { check, only },
} = parseArgs({ options: { check: { type: 'boolean', default: false }, only: { type: 'string' } } });
if (only !== undefined && !Object.hasOwn(KEEP, only))
  throw new Error(`--only takes one of ${Object.keys(KEEP).join(', ')}, not ${only}`);
if (!check) {
  for (const name of Object.keys(KEEP)) {
    if (only !== undefined && name !== only) continue;
    const file = at(`target/bench/${name}.json`);
    if (!existsSync(file)) continue;
    const result = JSON.parse(readFileSync(file, 'utf8'));
    if (store[name] && result.date < store[name].date) {
      console.error(`[bench-table] target/bench/${name}.json (${result.date}) is older than ${STORE}'s; skipped`);
      continue;
    }
    store[name] = KEEP[name](result);
    console.error(`[bench-table] ${name}: target/bench/${name}.json (${result.date})`);
  }
}

const int = n => Math.round(n).toLocaleString('en');
const fix = (n, d) => (n === null || n === undefined ? '–' : n.toFixed(d));
const kb = n => `${(n / 1024).toFixed(1)} KB`;
const yes = ok => (ok ? 'yes' : '**no**');
/** The spread of the alternating pairs' own ratios (page / native runs seconds apart), when recorded. */
const pairs = ps => {
  if (!ps?.length) return '';
  const s = [...ps].sort((a, b) => a - b);
  return `; each pair's own ratio ${fix(s[0], 2)}–${fix(s.at(-1), 2)}×, median ${fix(s[Math.floor(s.length / 2)], 2)}×`;
};
const row = cells => `| ${cells.join(' | ')} |`;
const table = (head, align, rows) => [row(head), row(align), ...rows.map(row)];
/** A section's heading, then where its figures come from. */
const section = (title, r, detail) => [
  '',
  `## ${title}`,
  '',
  `\`${r.command}\`; ${[r.date, r.commit, r.machine ?? r.cpu, r.rustc, r.node && `Node ${r.node}`].filter(Boolean).join(', ')}.` +
    ` Method and decisions: [${detail}](${detail}).`,
  ...(r.note ? ['', r.note] : []),
  '',
];

const parts = [
  '# Benchmarks',
  '',
  'Generated by `node scripts/bench-table.mjs` from [benchmarks.json](benchmarks.json) (do not edit by hand), the latest',
  "result of each bench; each section names the command that measured it, when, and the method's",
  'document. Figures depend on the machine (a shared 2-core VM here): compare runs made side by side,',
  'not these tables across dates.',
];

const s = store.size;
if (s) {
  const headroom = s.budget - s.firstLoad.gzip;
  parts.push(...section('Page first load (budget)', s, 'bench-size.md'));
  if (s.firstLoad.files?.length) {
    parts.push(
      ...table(
        ['file', 'raw B', 'gzip -9 B'],
        ['---', '---:', '---:'],
        s.firstLoad.files.map(f => [`\`${f.file}\``, int(f.raw), int(f.gzip)]),
      ),
      '',
    );
  }
  parts.push(
    ...table(
      ['first load, gzip -9', 'budget', 'headroom', 'within'],
      ['---:', '---:', '---:', '---'],
      [
        [
          `**${int(s.firstLoad.gzip)} B** (${kb(s.firstLoad.gzip)})`,
          `${int(s.budget)} B (${kb(s.budget)})`,
          `${int(headroom)} B (${Math.round((100 * headroom) / s.budget)} %)`,
          yes(headroom >= 0),
        ],
      ],
    ),
  );
  if (s.npmWasm?.length) {
    parts.push(
      '',
      'The npm package\u2019s wasm files (not budgeted; `pkg/node/` is the speed build Node loads):',
      '',
      ...table(
        ['file', 'raw B', 'gzip -9 B'],
        ['---', '---:', '---:'],
        s.npmWasm.map(f => [`\`${f.file}\``, int(f.raw), int(f.gzip)]),
      ),
    );
  }
}

const p = store.page;
if (p) {
  parts.push(
    ...section('Page in headless Chromium', p, 'bench-page.md'),
    ...table(
      ['what', 'figure', 'goal', 'met'],
      ['---', '---:', '---', '---'],
      [
        [
          `first meaningful render (the default preset's heatmap), median of ${p.runs}`,
          `**${fix(p.fmr.median, 0)} ms**`,
          '< 500 ms',
          yes(p.fmr.median < 500),
        ],
        ['first contentful paint', `${fix(p.fmr.fcp, 0)} ms`, '', ''],
        [`full result drawn (${int(p.records)} records)`, `${fix(p.fmr.full, 0)} ms`, '', ''],
        [
          '1024 × 1024 matrix → pixels (`matrixPixels`, log scale), median of 15',
          `**${fix(p.pixels.log, 1)} ms**`,
          '< 10 ms',
          yes(p.pixels.log < 10),
        ],
        [
          'the same, linear scale / `drawMatrix` with `putImageData`',
          `${fix(p.pixels.linear, 1)} / ${fix(p.pixels.drawMatrix, 1)} ms`,
          '',
          '',
        ],
        ...[p.long1m, p.long10m].map(l => [
          `main-thread tasks > 50 ms during a ${int(l.records)}-record analysis (${fix(l.ms / 1000, 1)} s)`,
          `**${l.tasks}**`,
          'none',
          yes(l.tasks === 0),
        ]),
        ...(p.throughput
          ? ['javaString', 'md5'].map(h => [
              `analysis, ${h === 'md5' ? 'MD5' : 'String.hashCode'} bucket, ${int(p.throughput.records)} records: the page (its workers, one per core) / native on one thread`,
              `**${fix(p.throughput[h].ratio, 2)}×** (${fix(p.throughput[h].pageRate / 1e6, 1)} against ${fix(p.throughput[h].nativeRate / 1e6, 1)} M records/s${pairs(p.throughput[h].pairs)})`,
              '≥ 1.0×',
              yes(p.throughput[h].ratio >= 1),
            ])
          : []),
        ...(p.throughput?.javaString?.firstMs
          ? ['javaString', 'md5'].map(h => [
              `the first run after opening a link to that design (no cache; the page's first script to the report), ${h === 'md5' ? 'MD5' : 'String.hashCode'} bucket / native on one thread`,
              `**${fix(p.throughput[h].firstRatio, 2)}×** (${int(Math.round(p.throughput[h].firstMs))} ms against ${int(Math.round(p.throughput[h].nativeMs))} ms; from navigation start ${fix(p.throughput[h].firstFromNavigationRatio, 2)}×)`,
              '≥ 1.0×',
              yes(p.throughput[h].firstRatio >= 1),
            ])
          : []),
      ],
    ),
  );
}

const adv = store.advise;
if (adv) {
  parts.push(
    ...section('Design advisor sweep, native', adv, 'advise.md'),
    ...table(
      ['what', 'figure', 'goal', 'met'],
      ['---', '---:', '---', '---'],
      [
        [
          `${adv.candidates} candidates of \`${adv.preset}\` × ${int(adv.records)} records, one thread`,
          `${fix(adv.oneThread / 1e6, 2)} M records/s`,
          '',
          '',
        ],
        [
          `the same on ${adv.cores} cores (load average ${adv.loadAverage ?? '?'} when measured)`,
          `**${fix(adv.allCores / 1e6, 2)} M records/s, ${fix(adv.speedup, 2)}×**`,
          `≥ ${fix(0.8 * adv.cores, 1)}× (0.8 × cores)`,
          yes(adv.speedup >= 0.8 * adv.cores),
        ],
      ],
    ),
  );
}

const life = store.life;
if (life) {
  parts.push(
    ...section('Months of life, native', life, 'life.md'),
    ...table(
      ['what', 'months', 'regions at the end', 'servers', 'seconds', 'months/s', 'region-hours/s', 'goal', 'met'],
      ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---'],
      life.rows.map((r, i) => [
        r.what,
        r.months,
        int(r.regions),
        r.servers,
        `**${fix(r.medianS, 3)}**`,
        fix(r.monthsPerS, 1),
        `${fix(r.regionHoursPerS / 1e6, 1)} M`,
        i === 0 ? '≤ 1 s' : '',
        i === 0 ? yes(r.medianS <= 1) : '',
      ]),
    ),
    '',
    `Load average ${life.loadAverage ?? '?'} when measured (a shared 2-core machine).`,
  );
}

const lp = store['life-page'];
if (lp) {
  parts.push(
    ...section('Months of life on the page', lp, 'life.md'),
    ...table(
      ['months', 'regions at the end', 'servers', 'page (Chromium)', 'page, first call', 'Node', 'goal', 'met'],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---', '---'],
      [
        [
          lp.months,
          int(lp.regions),
          lp.servers,
          `**${fix(lp.pageMs / 1000, 3)} s**`,
          `${fix(lp.pageFirstMs / 1000, 3)} s`,
          `${fix(lp.nodeMs / 1000, 3)} s`,
          '≤ 2 s on the page',
          yes(Math.max(lp.pageMs, lp.pageFirstMs ?? 0) <= 2000),
        ],
      ],
    ),
    '',
    `Medians of ${lp.runs} alternating runs of lifeMonths on the seed002-hash preset; load average ${lp.loadAverage ?? '?'} when measured (a shared 2-core machine).`,
  );
}

const lr = store['life-rows'];
if (lr) {
  parts.push(
    ...section('Months of life from a file of rows, CLI', lr, 'life.md'),
    ...table(
      [
        'rows',
        'keys kept',
        'months',
        'regions at the end',
        'analyze',
        'life --records',
        'ratio',
        'peak memory (analyze / life)',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      [
        [
          int(lr.rows),
          int(lr.kept),
          lr.months,
          int(lr.regions),
          `${fix(lr.analyzeMs / 1000, 2)} s`,
          `**${fix(lr.lifeMs / 1000, 2)} s**`,
          `${fix(lr.ratio, 2)}×`,
          `${int(lr.analyzeRssKiB / 1024)} / ${int(lr.lifeRssKiB / 1024)} MiB`,
        ],
      ],
    ),
    '',
    `Medians of ${lr.runs} alternating runs, each a whole CLI process on the salted flights design (tests/fixtures/rows), ${lr.servers} region servers; the life run reads the file once and keeps an even sample of its keys in write order. Load average ${lr.loadAverage ?? '?'} when measured (a shared 2-core machine).`,
  );
}

/** One row of the rekey table: the plan against one analysis (`label`) of the same rows. */
const rekeyRow = (rk, label, analyzeMs, ratio, analyzeRssKiB) => [
  int(rk.rows),
  rk.regions,
  label,
  `${fix(analyzeMs / 1000, 2)} s`,
  `${fix(rk.rekeyMs / 1000, 2)} s`,
  `**${fix(ratio, 2)}×**`,
  '≤ 1.5×',
  yes(ratio <= 1.5),
  `${int(analyzeRssKiB / 1024)} / ${int(rk.rekeyRssKiB / 1024)} MiB`,
];

const rk = store.rekey;
if (rk) {
  parts.push(
    ...section('Rekey plan against one analysis, CLI', rk, 'rekey.md'),
    ...table(
      [
        'rows',
        'new regions',
        'the analysis',
        'analyze',
        'rekey',
        'ratio',
        'goal',
        'met',
        'peak memory (analyze / rekey)',
      ],
      ['---:', '---:', '---', '---:', '---:', '---:', '---', '---', '---:'],
      [
        rekeyRow(rk, 'the old design (time-first)', rk.analyzeMs, rk.ratio, rk.analyzeRssKiB),
        ...(rk.analyzeNewMs
          ? [
              rekeyRow(
                rk,
                'the new design, cut at the same split keys',
                rk.analyzeNewMs,
                rk.ratioNew,
                rk.analyzeNewRssKiB,
              ),
            ]
          : []),
      ],
    ),
    '',
    `Medians of ${rk.runs} alternating runs${pairs(rk.pairRatios)} (against the old design's); split keys exact: ${rk.splitKeysExact}. The goal was set against the old design's analysis, the cheaper one, and is not met there: the plan is both designs' work over one reading, and the new design's own share (its salt over every key, every key kept for the exact cut) is more than the old design's whole analysis ([rekey.md](rekey.md#speed)). Load average ${rk.loadAverage ?? '?'} when measured (a shared 2-core machine).`,
  );
}

const k = store.keyspec;
if (k) {
  parts.push(
    ...section('Key encoding, native', k, 'bench-keyspec.md'),
    ...table(
      ['preset', 'M keys/s', 'ns/key', 'its MD5s alone, ns', 'key / MD5s', '≤ 1.25×'],
      ['---', '---:', '---:', '---:', '---:', '---'],
      k.rows.map(r => [
        r.preset,
        fix(r.keysPerSec / 1e6, 2),
        int(r.nsPerKey),
        r.md5Ns === null ? '' : int(r.md5Ns),
        r.md5Ratio === null ? '' : `${fix(r.md5Ratio, 2)}×`,
        r.md5Ratio === null ? '' : yes(r.md5Ratio <= 1.25),
      ]),
    ),
  );
}

const a = store.analyze;
if (a) {
  parts.push(
    ...section('End-to-end analysis, native', a, 'bench-analyze.md'),
    ...table(
      ['design (telecom, 64 regions, 256 windows)', 'records', 'M records/s', 'JVM reference', 'beaten'],
      ['---', '---:', '---:', '---:', '---'],
      a.rows.map(r => [r.design, int(r.records), `**${fix(r.mps, 2)}**`, fix(r.jvmMps, 1), yes(r.mps > r.jvmMps)]),
    ),
    '',
    ...table(
      ['records', 'peak RSS'],
      ['---:', '---:'],
      a.rss.map(r => [int(r.records), `${int(r.peakKb)} kB`]),
    ),
  );
}

const n = store.node;
if (n) {
  parts.push(
    ...section('npm package under Node', n, 'bench-node.md'),
    `\`analyzeDesign\`, telecom, ${int(n.records)} records, median of ${n.runs} rounds; the package = \`import … from 'rowkey-lab'\`` +
      ` (its engine: ${n.engine ?? 'wasm'}), Node wasm = \`pkg/node\`'s glue (speed build, what the package falls back to),` +
      ' browser = `pkg/web` (size build), native = the bench binary, run by run in one process.',
    '',
    ...table(
      [
        'design',
        'the package M rec/s',
        'Node wasm M rec/s',
        'browser wasm M rec/s',
        'native M rec/s',
        'the package / native, median of rounds',
        '≥ 0.95×',
        'Node wasm / native, median of rounds',
      ],
      ['---', '---:', '---:', '---:', '---:', '---:', '---', '---:'],
      n.analyze.map(r => [
        r.design,
        r.packageMps === undefined ? '–' : fix(r.packageMps, 2),
        fix(r.nodeMps, 2),
        fix(r.webMps, 2),
        fix(r.nativeMps, 2),
        r.packageRoundsRatio === undefined ? '–' : `**${fix(r.packageRoundsRatio, 2)}×**`,
        r.packageRoundsRatio === undefined ? '–' : yes(r.packageRoundsRatio >= 0.95),
        `${fix(r.nodeRoundsRatio, 2)}×`,
      ]),
    ),
    '',
    ...table(
      ['call through the Node entry', 'µs'],
      ['---', '---:'],
      n.micros.map(m => [m.label, fix(m.usPerOp, 2)]),
    ),
  );
}

const f = store.finish;
if (f) {
  parts.push(
    ...section('`AnalysisSession.finish()` under Node', f, 'bench-node.md'),
    ...table(
      ['preset', 'records', 'sample keys', `median of ${f.runs}`, 'min'],
      ['---', '---:', '---:', '---:', '---:'],
      [
        [
          f.preset,
          int(f.records),
          int(f.sampleKeys),
          `**${fix(f.medianMs, 1)} ms**`,
          f.minMs === null || f.minMs === undefined ? '–' : `${fix(f.minMs, 1)} ms`,
        ],
      ],
    ),
  );
}

const rw = store.rows;
if (rw) {
  parts.push(
    ...section('Your own rows against DuckDB', rw, 'bench-rows.md'),
    ...table(
      [
        'file',
        'rows',
        'rowkey-lab, native engine',
        'rowkey-lab, wasm engine',
        'DuckDB',
        'native / DuckDB',
        'wasm / DuckDB',
        'peak memory (native / wasm / DuckDB)',
        'same writes per region',
      ],
      ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---'],
      rw.results.map(r => [
        `${r.format}, ${(r.bytes / 2 ** 20).toFixed(0)} MiB`,
        int(r.rows),
        `${fix(r.oursRowsPerSec / 1e6, 2)} M rows/s (${int(r.oursMs)} ms)`,
        r.wasmMs === undefined ? '–' : `${fix(r.wasmRowsPerSec / 1e6, 2)} M rows/s (${int(r.wasmMs)} ms)`,
        `${fix(r.duckRowsPerSec / 1e6, 2)} M rows/s (${int(r.duckMs)} ms)`,
        `**${fix(r.ratio, 2)}×**`,
        r.wasmRatio === undefined ? '–' : `${fix(r.wasmRatio, 2)}×`,
        `${int(r.oursRssKiB / 1024)} / ${r.wasmRssKiB === undefined ? '–' : int(r.wasmRssKiB / 1024)} / ${int(r.duckRssKiB / 1024)} MiB`,
        yes(r.sameWrites),
      ]),
    ),
  );
}

const pr = store['page-rows'];
if (pr) {
  parts.push(
    ...section('Your own rows on the page against the CLI', pr, 'bench-rows.md'),
    `\`${pr.file}\` (${fix(pr.bytes / 2 ** 20, 0)} MiB, ${int(pr.rows)} rows used) opened on the page in headless Chromium as a user does` +
      ` (the null policy and time column picked, the profile shown), then Run to the report drawn, timed in the page;` +
      ` alternating with the CLI's whole process (\`analyze --records\`) on the same file, design and options; medians of ${pr.runs}.`,
    '',
    ...table(
      ['what', 'the page', 'the CLI', 'the page / the CLI', 'goal'],
      ['---', '---:', '---:', '---:', '---'],
      [
        [
          'Run to the report',
          `${int(pr.pageRunMs)} ms`,
          `${int(pr.cliMs)} ms`,
          `**${fix(pr.ratio, 2)}×**`,
          `≤ 1.5×: ${pr.ratio <= 1.5 ? 'yes' : '**no**'}`,
        ],
        [
          'opening the file to its profile (the CLI: `profile`)',
          `${int(pr.pageOpenMs)} ms`,
          pr.cliProfileMs ? `${int(pr.cliProfileMs)} ms` : '–',
          pr.cliProfileMs ? `${fix(pr.pageOpenMs / pr.cliProfileMs, 2)}×` : '',
          '',
        ],
      ],
    ),
  );
}

const py = store.python;
if (py) {
  parts.push(
    ...section('Python package against DuckDB', py, 'bench-rows.md'),
    `\`rk.analyze\` on a pyarrow table read from \`${py.file}\` (${int(py.rows)} rows; the same job as the CLI's above),` +
      ` one engine thread, against DuckDB on ${py.duckdbThreads} threads, in one process, alternating; medians of ${py.runs}; load average ${fix(py.loadAverage, 2)}.`,
    '',
    ...table(
      ['what', 'rowkey-lab', 'DuckDB', 'ratio', 'goal', 'same writes per region'],
      ['---', '---:', '---:', '---:', '---', '---'],
      [
        [
          'seconds from the file (CPU seconds)',
          `${fix(py.rowkeyLabSeconds, 3)} (${fix(py.rowkeyLabCpuSeconds, 3)}; reading ${fix(py.rowkeyLabReadSeconds, 3)})`,
          `${fix(py.duckdbSeconds, 3)} (${fix(py.duckdbCpuSeconds, 3)})`,
          `**${fix(py.ratio, 2)}×**`,
          `≥ 1.0×: ${py.ratio >= 1 ? 'yes' : '**no**'}`,
          yes(py.sameWrites),
        ],
      ],
    ),
  );
}

const sp = store.spark;
if (sp) {
  const j = sp.jobs;
  const what = {
    a_noop_mapInArrow: '(a) a no-op `mapInArrow` over the key\u2019s columns (the transfer floor)',
    b_analyze_df: '(b) `analyze_df`, sketch mode',
    c_split_points_df: '(c) `split_points_df` (exact: Spark sorts every key)',
    c2_analyze_df_exact:
      '(c) `analyze_df` exact mode (its partials and keys from one read, a recount by Spark\u2019s `groupBy`)',
    d_spark_approx: '(d) Spark\u2019s `approxQuantile` + `approx_count_distinct`',
    e_orderBy_key: '(e) `orderBy` of the encoded key alone',
  };
  const ratio = (x, y) => j[x] && j[y] && j[x].seconds / j[y].seconds;
  const goal = (label, r, limit, ok) => [label, r ? `**${fix(r, 2)}×**` : '–', limit, r ? yes(ok(r)) : ''];
  parts.push(
    ...section('Spark in local mode', sp, 'bench-spark.md'),
    `${int(sp.rows)} rows of \`${sp.file}\` (${sp.partitions} partitions), \`local[${sp.cores}]\`, Spark ${sp.spark}; median of ${sp.runs} runs` +
      ` after a warm-up; load average ${sp.loadAverage} before, ${sp.loadAverageAfter ?? '?'} after.`,
    '',
    ...table(
      ['job', 'seconds', 'records/s per core'],
      ['---', '---:', '---:'],
      Object.entries(what)
        .filter(([k]) => j[k])
        .map(([k, label]) => [label, fix(j[k].seconds, 2), `**${int(j[k].rowsPerSecPerCore)}**`]),
    ),
    '',
    ...table(
      ['goal', 'ratio', 'limit', 'met'],
      ['---', '---:', '---', '---'],
      [
        goal('(b)\u2019s time against (a)\u2019s', ratio('b_analyze_df', 'a_noop_mapInArrow'), '≤ 1.5×', r => r <= 1.5),
        goal('(b)\u2019s records/s against (d)\u2019s', ratio('d_spark_approx', 'b_analyze_df'), '≥ 1.0×', r => r >= 1),
        goal(
          '(c) `split_points_df`\u2019s time against (e)\u2019s',
          ratio('c_split_points_df', 'e_orderBy_key'),
          '≤ 1.2×',
          r => r <= 1.2,
        ),
        goal(
          '(c) exact mode\u2019s time against (e)\u2019s',
          ratio('c2_analyze_df_exact', 'e_orderBy_key'),
          '≤ 1.2×',
          r => r <= 1.2,
        ),
      ],
    ),
  );
  const m = sp.memory;
  if (m?.x1 && m?.x4)
    parts.push(
      '',
      'The Python worker counting a partition (a session of its own, a fresh worker per task, one partition per core so a partition grows with the rows): its peak memory (`ru_maxrss`), beside a task that only reads the same batches, and the partial it sends to the driver.',
      '',
      ...table(
        ['rows', 'rows per partition', 'peak memory', 'reading alone', 'partial'],
        ['---:', '---:', '---:', '---:', '---:'],
        [m.x1, m.x4].map(r => [
          int(r.rows),
          int(r.rowsPerPartition),
          `**${fix(r.peakMiB, 1)} MiB**`,
          `${fix(r.floorMiB, 1)} MiB`,
          `${int(r.partialBytes)} B`,
        ]),
      ),
    );
}

const md = `${parts.join('\n')}\n`;
if (check) {
  const ok = existsSync(at(DOC)) && readFileSync(at(DOC), 'utf8') === md;
  console.error(ok ? `[bench-table] ${DOC} is up to date` : `[bench-table] ${DOC} differs from what ${STORE} gives`);
  process.exit(ok ? 0 : 1);
}
writeFileSync(at(STORE), `${JSON.stringify(store, null, 2)}\n`);
writeFileSync(at(DOC), md);
console.error(`[bench-table] wrote ${STORE} and ${DOC}`);
