// analyze, compare: a design's workload over its regions; designs side by side.
import * as api from '../../pkg/node/index.js';
import { onRegions, runAnalysis, windowsOption } from '../lib/analysis.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { bytesText, duration, hex, out, pctOf, table } from '../lib/format.mjs';
import { loadDesign, loadRegions } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';

export async function analyze(pos, opt) {
  const list = await loadRegions(opt.regions, opt.table);
  let design = onRegions(await loadDesign(pos[0]), list);
  let r;
  let rows;
  if (opt.records === undefined) {
    r = await runAnalysis(design, opt);
  } else {
    const run = await analyzeRows(design, windowsOption(opt), opt.records, opt);
    // the fields the key names and the design leaves out, declared from the file
    design = run.design;
    try {
      r = run.session.finish();
    } finally {
      run.session.free();
    }
    rows = run.stats;
  }
  // the reads over the table the report ends with (a pre-split cut at the rows, auto-split's
  // daughters), through Phoenix's indexes too: the engine's one answer (src/analyze/beside.rs),
  // the page's workers' and Python's too; and the table's load now against this design
  const beside = engine(() => api.readsBeside(design, r));
  const { reads, readsError, indexReads = [], indexReadsError = null } = beside;
  const now = list?.load?.length ? engine(() => api.tableNow(list, r)) : null;
  // --json: the key sample as rows {keyHex, key, region} (the engine hands it over as typed
  // arrays), the form the native report serializes.
  const sample = sampleRows(r.sample);
  // each index's own report, its sample as rows too
  const indexes = (r.indexes ?? []).map(x =>
    x.report ? { ...x, report: { ...x.report, sample: sampleRows(x.report.sample) } } : x,
  );
  out(
    opt,
    {
      ...r,
      sample,
      indexes,
      ...beside,
      ...(rows ? { rows } : {}),
      ...(list?.load?.length ? { tableLoad: list.load } : {}),
    },
    () => {
      const m = r.metrics;
      const lines = [
        ...(rows ? [rowsLine(rows)] : []),
        `${r.writes} writes, ${r.regions.length} regions, ${r.windows} windows of ${duration(r.windowMs)}`,
        `${r.distinctRowsExact ? r.distinctRows : `≈${r.distinctRows}`} distinct rows${r.distinctRowsExact ? '' : ` (estimate, ±${(r.distinctRowsError * 100).toFixed(2)} % for 99.7 % of estimates)`}, ${r.cells} cells kept`,
        `hotspot factor: overall ${m.overall.hotspotFactor.toFixed(2)}, mean per window ${m.meanHotspotFactor.toFixed(2)}, max ${m.maxHotspotFactor.toFixed(2)}`,
        `active regions per window ${m.meanActiveRegions.toFixed(1)}, empty regions ${m.overall.emptyRegions}, gini ${m.overall.gini.toFixed(3)}`,
        '',
        table(
          r.regions.map(g => [
            g.index,
            g.startKey,
            g.endKey,
            g.writes,
            g.distinctRowsExact ? g.distinctRows : `≈${g.distinctRows} ±${(g.distinctRowsError * 100).toFixed(1)} %`,
            g.cells,
            g.unsplittable ? 'yes' : '',
          ]),
          ['region', 'start', 'end', 'writes', 'rows', 'cells', 'cannot split'],
          [1, 2],
        ),
      ];
      // The ten largest rows by bytes written: exact, or the engine's sketch with each count's
      // bound (a lower bound; the true count is at most the one after `≤`).
      if (r.largestRows.length) {
        const upTo = (n, bound) => (r.largestRowsExact || !bound ? n : `≈${n} (≤${n + bound})`);
        lines.push(
          '',
          r.largestRowsExact ? 'largest rows:' : 'largest rows (estimates):',
          table(
            r.largestRows
              .slice(0, 10)
              .map(w => [
                w.key,
                upTo(w.writes, w.writesError),
                upTo(w.cells, w.writesError),
                upTo(w.bytes, w.bytesError),
              ]),
            ['row', 'writes', 'cells', 'bytes'],
            [0],
          ),
        );
      }
      // The table's regions as they take load now beside this design's writes on them (while
      // no simulated auto-split changed the regions): the engine's tableNow.
      if (now?.regions) {
        const hot = now.busiestDesign;
        const at = i => now.regions[i];
        lines.push(
          '',
          table(
            now.regions.map((g, i) => [
              i,
              list.load[i].startKey,
              list.load[i].server ?? '-',
              pctOf(g.now),
              pctOf(g.design),
            ]),
            ['region', 'start', 'server', `% of ${now.what} now`, '% of writes, this design'],
            [1, 2],
          ),
          `busiest region now: ${now.busiestNow} (${pctOf(at(now.busiestNow).now)} % of ${now.what}); with this design: ${hot} (${pctOf(at(hot).design)} % of writes)`,
        );
      }
      // Per region server. On named servers (the table's placement, or the design's own) the
      // engine counted each server's writes, split daughters included; the load now is summed
      // by the server each region is on (tableNow's servers).
      if (r.servers.length > 1) {
        const nowOn = new Map((now?.servers ?? []).map(s => [s.name, s.now]));
        const named = r.servers.some(s => s.name !== null);
        const rows = r.servers.map(s => [
          s.name ?? s.index,
          s.regions,
          s.rows,
          pctOf(r.writes ? s.rows / r.writes : 0),
          ...(now && named ? [pctOf(nowOn.get(s.name) ?? 0)] : []),
        ]);
        lines.push(
          '',
          table(
            rows,
            [
              'server',
              'regions',
              'writes',
              '% of writes, this design',
              ...(now && named ? [`% of ${now.what} now`] : []),
            ],
            [0],
          ),
          `server hotspot factor ${r.serverMetrics.hotspotFactor.toFixed(2)}${named ? ' (regions on their named servers)' : ''}`,
        );
      }
      if (reads.length) {
        lines.push(
          '',
          table(
            reads.map(p => [p.name, p.scans.length, p.regionsTouched, p.rowsReadPerRowReturned ?? '-']),
            ['read', 'scans', 'regions', 'rows read/returned'],
          ),
        );
      }
      if (readsError) lines.push('', `reads not planned: ${readsError.message}`);
      if (r.diagnosis?.length) lines.push('', ...r.diagnosis.map(d => `* ${d}`));
      lines.push(...indexLines(r, design, rows));
      lines.push(...indexReadLines(indexReads, indexReadsError));
      return lines.join('\n');
    },
  );
}

/** The key sample (typed arrays from the engine) as rows {keyHex, key, region}. */
function sampleRows(s) {
  return Array.from(s.regions, (region, i) => {
    const k = s.keys.subarray(s.offsets[i], s.offsets[i + 1]);
    return { keyHex: hex(k), key: api.toStringBinary(k), region };
  });
}

/**
 * The design's Phoenix indexes as the engine analyzed them (`report.indexes`): each one's
 * regions, the busiest region's share of its writes beside the data table's, the index writes
 * per data put / update of an indexed column / delete, its bytes (estimates marked ≈ and said
 * how) and the data-table lookups a row read through it costs; over the design's workload, or
 * over the rows of --records (the engine counts each index table from the same reading).
 */
function indexLines(r, design, rows) {
  if (!design.phoenix?.indexes?.length || !r.indexes?.length) return [];
  const m = r.metrics;
  const approx = (x, v) => (x.bytesEstimated ? `≈${v}` : String(v));
  const lines = [
    '',
    `Phoenix indexes${rows ? ' over these rows' : ''} (each a table of its own; a local index is in the data table's regions):`,
    table(
      [
        [
          '(data table)',
          '',
          r.regions.length,
          pctOf(m.meanBusiestShare),
          pctOf(m.maxBusiestShare),
          m.meanHotspotFactor.toFixed(2),
          '',
          '',
          bytesText(r.bytes),
          '',
        ],
        ...r.indexes.map(x => [
          x.name,
          x.kind,
          x.kind === 'local' ? "its table's" : x.regionsOfItsOwn,
          pctOf(x.busiestShare),
          pctOf(x.maxBusiestShare),
          x.hotspotFactor.toFixed(2),
          `${x.writes.put}/${x.writes.updateIndexed}/${x.writes.delete}`,
          approx(x, x.bytesPerRow.toFixed(1)),
          approx(x, bytesText(x.bytes)),
          x.dataLookupsPerRow,
        ]),
      ],
      [
        'table',
        'kind',
        'regions',
        'busiest % mean',
        'busiest % max',
        'hotspot',
        'writes put/upd/del',
        'bytes/row',
        'bytes',
        'lookups/row',
      ],
      [0, 1],
    ),
    "busiest %: the busiest region's share of a time window's writes, mean and largest over the windows; writes: index rows written per data put, update of an indexed column, delete; lookups/row: data-table reads per row read through the index (an uncovered index: every row; a covered one reading the columns it holds: none)",
  ];
  for (const x of r.indexes) {
    for (const e of x.estimates) lines.push(`≈ ${x.name}: ${e}`);
    for (const d of x.report?.diagnosis ?? []) lines.push(`* ${x.name}: ${d}`);
  }
  return lines;
}

/** Each read through the table Phoenix would pick, beside the read on the data table alone. */
function indexReadLines(plans, error) {
  if (error) return ['', `reads through the indexes not planned: ${error.message}`];
  if (!plans.length) return [];
  const access = { pointLookup: 'point lookup', rangeScan: 'range scan', fullScan: 'full scan' };
  const rate = p => (p.rowsReadPerRowReturned == null ? '-' : Number(p.rowsReadPerRowReturned.toFixed(2)));
  return [
    '',
    'reads through the indexes (the table Phoenix would read; beside it, the data table alone):',
    table(
      plans.map(p => [
        p.read,
        p.chosen.index ?? '(data table)',
        access[p.chosen.access],
        p.chosen.plan.regionsTouched,
        rate(p.chosen.plan),
        p.chosen.dataLookupsPerRow,
        access[p.withoutIndex.access],
        p.withoutIndex.plan.regionsTouched,
        rate(p.withoutIndex.plan),
      ]),
      [
        'read',
        'through',
        'access',
        'regions',
        'rows read/returned',
        'lookups/row',
        'without index',
        'regions',
        'rows read/returned',
      ],
      [0, 1, 2, 6],
    ),
    'lookups/row: data-table reads per row returned (the index does not hold the whole row)',
  ];
}

/** What reading --records found, in one line: the rows, the format, the time, what was skipped. */
function rowsLine(s) {
  const skipped = Object.entries(s.skipped);
  const cols = Object.entries(s.columns)
    .map(([f, c]) => (f === c ? f : `${f}=${c}`))
    .join(', ');
  return [
    `${s.used} rows of ${s.rows} read (${s.format}; ${cols})`,
    s.time ? `written at their \`${s.time}\` time` : "written in file order at the workload's rate (no --time)",
    ...(skipped.length ? [`skipped for nulls: ${skipped.map(([c, n]) => `${n} in ${c}`).join(', ')}`] : []),
  ]
    .join('; ')
    .concat(
      ...(s.inferred ?? []).map(
        f => `\nfield ${f.field} declared ${f.type}${f.column === f.field ? '' : ` (column ${f.column})`}: ${f.basis}`,
      ),
    );
}

/** The engine's figures side by side, each design against the first: its change and verdict. */
function deltas(c, pos) {
  const value = v => (v == null ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) < 10 ? 2 : 1));
  const rows = c.figures.map(f => [
    f.label,
    ...f.values.map((v, i) => {
      const p = f.changePercent[i],
        verdict = f.verdicts[i];
      const change = p == null || verdict === 'same' ? '' : ` ${p > 0 ? '+' : '-'}${Math.abs(p).toFixed(0)} %`;
      return `${value(v)}${change}${verdict && verdict !== 'changed' ? ` ${verdict}` : ''}`;
    }),
  ]);
  return (
    table(rows, ['figure', ...c.designs.map((_, i) => (i ? `design ${i + 1}` : 'design 1 (base)'))]) +
    c.designs.map((d, i) => `\ndesign ${i + 1}: ${d.name || pos[i]}, key ${d.key}`).join('')
  );
}

export async function compare(pos, opt) {
  if (pos.length < 2 || pos.length > 4)
    throw new CliError(EXIT.USAGE, `compare takes 2 to 4 designs, not ${pos.length}`);
  const designs = [];
  for (const p of pos) designs.push(await loadDesign(p));
  const c = engine(() => api.compareDesigns(designs, windowsOption(opt)));
  out(
    opt,
    c,
    () =>
      table(
        c.designs.map((d, i) => [
          d.name || pos[i],
          d.regions,
          d.metrics.meanHotspotFactor.toFixed(2),
          d.metrics.maxHotspotFactor.toFixed(2),
          d.metrics.meanActiveRegions.toFixed(1),
          d.metrics.overall.gini.toFixed(3),
          d.distinctRows,
          d.cells,
        ]),
        ['design', 'regions', 'hotspot', 'worst window', 'active/window', 'gini', 'distinct rows', 'cells'],
      ) +
      `\n\n${deltas(c, pos)}` +
      `\n\nhotspot: busiest region / mean region in a time window, mean over ${c.windows} windows (1.00 is even)` +
      `\ndistinct rows: the rows the same ${c.designs[0]?.writes ?? 0} writes make in each design (${c.designs[0]?.distinctRowsError ? `estimate, ±${(c.designs[0].distinctRowsError * 100).toFixed(2)} % for 99.7 % of estimates` : 'every row counted'})` +
      c.designs
        .flatMap((d, i) => (d.diagnosis.length ? ['', `${d.name || pos[i]}:`, ...d.diagnosis.map(x => `* ${x}`)] : []))
        .map(x => `\n${x}`)
        .join(''),
  );
}
