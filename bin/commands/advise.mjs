// advise: the design advisor. The engine makes the candidates, evaluates them (on worker threads,
// adviseDesignParallel) and answers; this prints the answer.
import { existsSync } from 'node:fs';
import { adviseDesignParallel } from '../../pkg/node/index.js';
import { whole } from '../lib/args.mjs';
import { CliError, EXIT, engineError } from '../lib/errors.mjs';
import { out, progressBar, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { ttl } from '../lib/life-options.mjs';
import { analyzeRows } from '../lib/rows.mjs';

/** `--records FILE|-`: a file of rows (any format the engine reads); a whole number that names no
 * file is the count of generated records each candidate is evaluated on, as before. */
function rowsFile(opt) {
  const v = opt.records;
  if (v === undefined || (/^\d+$/.test(v) && !existsSync(v))) return undefined;
  return v;
}

/** `--ttl-days D` as a positive number of days (undefined when absent): the older spelling of
 * `--ttl T`, kept because it is documented. */
function days(opt) {
  const v = opt.ttlDays;
  if (v === undefined) return undefined;
  const d = Number(v);
  if (!(d > 0) || !Number.isFinite(d))
    throw new CliError(EXIT.USAGE, `--ttl-days must be a number of days above 0, not ${v}`);
  return d;
}

/** The advisor's options from the command line (absent ones: the engine's defaults). */
function adviseOptions(opt) {
  const o = {
    servers: whole(opt, 'servers', 'servers'),
    // with --records FILE: --sample N, the rows of the file each candidate is evaluated on
    records: rowsFile(opt) === undefined ? whole(opt, 'records', 'records') : whole(opt, 'sample', 'sample'),
    windows: whole(opt, 'windows', 'windows'),
  };
  // the TTL as HBase gives it, in seconds (`--ttl`, as `life` and `check` take it)
  const ttlSeconds = ttl(opt.ttl);
  const ttlDays = days(opt);
  if (ttlSeconds !== undefined && ttlDays !== undefined)
    throw new CliError(EXIT.USAGE, '--ttl and --ttl-days are one setting: give one of them');
  if (ttlSeconds !== undefined) o.capacity = { ttlSeconds };
  if (ttlDays !== undefined) o.capacity = { ttlDays };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const f2 = x => x.toFixed(2);
/** A write rate as a person reads it: 4 significant digits below 1,000 (a file's rows may come
 * at 0.0106 a second), whole numbers above. */
const rate = r => (r >= 1000 ? String(Math.round(r)) : String(Number(r.toPrecision(4))));
const gib = b => (b / 2 ** 30).toFixed(1);

const pct = share => (share * 100).toFixed(1);

/** The engine's index findings as they are: each finding, its checked fixes best first, and
 * what each costs. */
function indexFindings(findings) {
  const lines = [];
  for (const f of findings) {
    lines.push(
      '',
      `index ${f.index}: ${f.finding}`,
      ...(f.diagnosis ? [`  ${f.diagnosis}`] : []),
      '  fixes, each checked on the same records (best first):',
      table(
        f.fixes.map((x, i) => [i + 1, x.fix, x.regions, pct(x.busiestShare), x.spreads ? 'yes' : 'no', x.statement]),
        ['', 'fix', 'regions', 'busiest %', 'spreads', 'statement'],
        [5],
      )
        .split('\n')
        .map(l => `  ${l}`)
        .join('\n'),
    );
    for (const [i, x] of f.fixes.entries()) {
      lines.push(`  ${i + 1}. ${x.change}`, ...x.costs.map(c => `     cost: ${c}`));
    }
  }
  return lines;
}

export async function advise(pos, opt) {
  let design = await loadDesign(pos[0]);
  const options = adviseOptions(opt);
  const threads = whole(opt, 'threads', 'threads');
  if (opt.sample !== undefined && rowsFile(opt) === undefined)
    throw new CliError(
      EXIT.USAGE,
      '--sample N goes with --records FILE (your rows); --records N alone counts generated records',
    );
  // your rows: one pass keeps a sample of them (the rows with the smallest hashes of their values,
  // in file order), which every candidate is evaluated on; fields the key names and the design does
  // not declare are declared from the file
  let rows;
  const file = rowsFile(opt);
  if (file !== undefined) {
    const run = await analyzeRows(design, undefined, file, opt, undefined, true, {
      rowSample: options.records ?? null,
    });
    try {
      design = run.design;
      rows = run.session.rowSample();
    } finally {
      run.session.free();
    }
  }
  const bar = progressBar('advising');
  let a;
  try {
    a = await adviseDesignParallel(design, options, { threads, rows, onProgress: p => bar.update(p.done, p.total) });
  } catch (e) {
    throw engineError(e);
  } finally {
    bar.done();
  }
  out(opt, a, () => {
    const r = a.recommended;
    const base = a.candidates[0]?.metrics;
    // More than the planner lists (10,000) is shown as >10k.
    const scans = x => (x.scans > 10000 ? '>10k' : `${x.scans}${x.fullScan ? '*' : ''}`);
    const reads = m => (m ? m.reads.map(scans).join('/') || '-' : '-');
    // month 12 of the few candidates the engine simulated (the basis says which)
    const m12 = c =>
      c.months ? [c.months.emptyRegions, `${(c.months.hottestServerWriteShare * 100).toFixed(0)}%`] : ['-', '-'];
    const lines = [
      `${a.candidates.length} candidates, each on ${a.records} ${rows ? 'of your rows' : 'records'}; ${a.servers} region server(s), writes spread over at least ${a.targetRegions} regions`,
      a.basis,
      '',
      table(
        a.candidates.map(c => {
          const m = c.metrics;
          const mark = (c.index === r.index ? '>' : ' ') + (c.pareto ? '*' : ' ');
          return m
            ? [
                mark,
                c.index,
                f2(m.hotspotFactor),
                m.activeRegionsPerWindow.toFixed(1),
                m.emptyRegions,
                m.keyBytes.toFixed(1),
                reads(m),
                ...m12(c),
                c.label,
              ]
            : [mark, c.index, '-', '-', '-', '-', '-', '-', '-', `${c.label} (${c.error})`];
        }),
        [
          '',
          '#',
          'hotspot',
          'active/window',
          'empty',
          'key bytes',
          'scans per read',
          'm12 empty',
          'm12 hottest server',
          'candidate',
        ],
        [9],
      ),
      '',
      '> recommended, * on the Pareto front (hotspot, read cost, key bytes); scans per read in the',
      "design's order, * a full-table scan; hotspot: busiest region / mean of the target regions per window;",
      "m12: month 12 simulated (empty regions, the hottest server's share of an hour's writes), '-' not simulated",
      '',
      `recommended: ${r.keyText}`,
      ...r.why.map(w => `  * ${w}`),
      ...(r.moveNote ? [`  ! ${r.moveNote}`] : []),
      `  ${r.metrics.createStatement}`,
    ];
    if (a.inputFlags.length) lines.push('', 'the input design:', ...a.inputFlags.map(f => `  * ${f}`));
    lines.push(...indexFindings(a.indexFindings));
    const c = a.capacity;
    lines.push(
      '',
      `capacity (${c.recordBytes} bytes per record, ${rate(c.writeRate)} writes/s, ${c.servers} server(s)):`,
      table(
        c.horizons.map(h => [
          h.months,
          gib(h.keptBytes),
          h.regions,
          h.regionsPerServer.toFixed(1),
          h.guide,
          h.activeRegionsPerServer.toFixed(2),
        ]),
        ['months', 'GiB kept', 'regions', 'per server', 'guide 20-200', 'written per server'],
      ),
      ...c.notes.map(n => `  * ${n}`),
      `  how many regions: ${a.regionPlan}`,
    );
    if (base && r.index !== 0) {
      lines.push('', `input hotspot ${f2(base.hotspotFactor)}, recommended ${f2(r.metrics.hotspotFactor)}`);
    }
    return lines.join('\n');
  });
}
