// rekey: the move from an old design's table to a new design's, planned on the old table's
// rows: the new table's split points from the rows re-encoded (by rows or bytes), the job sized,
// the statements and the cutover checklist (the engine's rekeyReading and rekeyRowsPlan around
// the reading: ../../pkg/shared/rekey.js; src/rekey/rows.rs); or,
// with --series, estimated from the old table's snapshots alone (rekeyFromSeries;
// src/rekey/series.rs).
import * as api from '../../pkg/node/index.js';
import { rekeyRows } from '../../pkg/shared/rekey.js';
import { whole } from '../lib/args.mjs';
import { CliError, EXIT, engine, engineError } from '../lib/errors.mjs';
import { bytesText, out, pctOf, printable, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';
import { loadSeries } from './observe.mjs';

/** `--name X` as a number above 0 (undefined when absent). */
function positive(opt, name, flag) {
  const v = opt[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(EXIT.USAGE, `--${flag} must be a number above 0, not ${v}`);
  return n;
}

const regionsText = n => `${n} region${n === 1 ? '' : 's'}`;

export async function rekey(pos, opt) {
  // --series FILE...: the files are its value and every argument after the two designs
  const series = opt.series === undefined ? null : [...[opt.series].flat(), ...pos.slice(2)];
  if (pos.length < 2 || (series === null && pos.length !== 2))
    throw new CliError(EXIT.USAGE, 'expected the old design and the new design');
  if (series !== null && opt.records !== undefined)
    throw new CliError(EXIT.USAGE, '--records FILE or --series FILE...: the old table’s rows, or its snapshots');
  if (series === null && opt.records === undefined)
    throw new CliError(
      EXIT.USAGE,
      'rekey needs --records FILE (the old table’s rows, any format analyze reads) or --series FILE... (its snapshots, as observe reads them)',
    );
  if (opt.by !== undefined && opt.by !== 'rows' && opt.by !== 'bytes')
    throw new CliError(EXIT.USAGE, `--by: expected rows or bytes, not ${JSON.stringify(opt.by)}`);
  const n = whole(opt, 'regions', 'regions', 1);
  if (opt.by !== undefined && n === undefined) throw new CliError(EXIT.USAGE, '--by goes with --regions N');
  if (series !== null && n === undefined)
    throw new CliError(EXIT.USAGE, '--series goes with --regions N: the new table is cut by bytes into N regions');
  if (series === null && opt.sample !== undefined)
    throw new CliError(EXIT.USAGE, '--sample goes with --series: the workload records that stand for the rows');
  if (series !== null && opt.by === 'rows')
    throw new CliError(EXIT.USAGE, '--series: a snapshot series gives bytes, not rows (--by bytes)');
  const [oldDoc, newDoc] = [await loadDesign(pos[0]), await loadDesign(pos[1])];
  const options = {};
  if (opt.family !== undefined) options.family = opt.family;
  if (opt.table !== undefined) options.oldTable = opt.table;
  if (opt.newTable !== undefined) options.newTable = opt.newTable;
  const par = whole(opt, 'parallelism', 'parallelism', 1);
  if (par !== undefined) options.parallelism = par;
  for (const [name, flag, key] of [
    ['readMibS', 'read-mib-s', 'readMibPerSec'],
    ['writeMibS', 'write-mib-s', 'writeMibPerSec'],
    ['compression', 'compression', 'compression'],
  ]) {
    const v = positive(opt, name, flag);
    if (v !== undefined) options[key] = v;
  }
  const mfs = whole(opt, 'maxFileSize', 'max-file-size', 1);
  if (mfs !== undefined) options.maxFileSize = mfs;
  let plan;
  if (series !== null) {
    // the old table seen through its snapshots: the engine's estimate (rekeyFromSeries)
    const s = await loadSeries(series, opt.table);
    const sample = whole(opt, 'sample', 'sample', 1);
    plan = engine(() => api.rekeyFromSeries(oldDoc, newDoc, s, n, sample, options));
  } else {
    // both designs over the same rows, then the engine's plan (../../pkg/shared/rekey.js, the
    // page's too); without --regions, the new design's own pre-split
    const read = design => analyzeRows(design, undefined, opt.records, opt);
    plan = await rekeyRows(api, oldDoc, newDoc, read, { regions: n, by: opt.by, options }).catch(e => {
      throw engineError(e);
    });
  }
  if (opt.job !== undefined) {
    const text = plan.jobs[opt.job];
    if (opt.job !== 'spark' && opt.job !== 'mapreduce' && opt.job !== 'phoenix')
      throw new CliError(EXIT.USAGE, `--job: expected spark, mapreduce or phoenix, not ${JSON.stringify(opt.job)}`);
    if (!text) throw new CliError(EXIT.INPUT, '--job phoenix: both designs must be Phoenix tables');
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }
  if (!plan.splitKeysExact && !plan.estimate)
    process.stderr.write(
      'rowkey-lab: the new split keys are cut at a uniform sample of 1,000,000 rows, not every row\n',
    );
  const est = plan.estimate;
  out(opt, plan, () => {
    const j = plan.job;
    return [
      ...(est
        ? [
            `ESTIMATED from the snapshot of ${new Date(est.atMs).toISOString()}: ${bytesText(est.bytes)} in ${regionsText(est.oldRegions.length)}, about ${est.rows} rows; each new region's bytes within ${pctOf(est.maxErrorShare)} % of the table`,
            ...est.assumptions.map(a => `  - ${printable(a)}`),
            '',
          ]
        : []),
      // the engine's headline carries its own figures: a bare factor beside it (per window, noisy
      // on few rows; over the run, 1.0 for a moving hotspot) could say otherwise
      `old: ${regionsText(plan.old.regions)}: ${printable(plan.old.headline)}`,
      `new: ${regionsText(plan.new.regions)}: ${printable(plan.new.headline)}`,
      // each Phoenix index on the same rows, old -> new: a new data key moves its indexes too
      ...plan.old.indexes.map((x, i) => {
        const side = s =>
          s.regions
            ? `${regionsText(s.regions)}, the busiest ${pctOf(s.busiestShare)} % of a window's writes`
            : "in the data table's regions";
        const y = plan.new.indexes[i];
        return `  index ${printable(x.name)}: ${side(x)} -> ${y ? side(y) : '-'}`;
      }),
      '',
      'fields of the new key:',
      table(
        plan.fields.map(f => [
          f.field,
          { column: 'a column of the rows', oldKey: 'the old key', missing: 'MISSING' }[f.from],
          f.why ?? '',
        ]),
        ['field', 'from', 'why not'],
        [0, 1, 2],
      ),
      '',
      `job: ${j.rows} rows; ${bytesText(j.bytesRead)} read, ${bytesText(j.bytesShuffled)} shuffled, ${bytesText(j.bytesWritten)} written (${bytesText(j.hdfsBytes)} on HDFS); ${j.reducers} reducers; at most ${j.maxHfilesPerRegion} HFile${j.maxHfilesPerRegion === 1 ? '' : 's'} a region${j.regionsOverHfileLimit ? `, ${j.regionsOverHfileLimit} regions over the limit` : ''}; straggler region ${j.straggler + 1} with ${pctOf(j.stragglerShare)} %; about ${Math.round(j.seconds)} s`,
      `  (${j.estimate})`,
      '',
      table(
        plan.regions.map((r, i) => [
          i + 1,
          r.startKey || '(first)',
          r.endKey || '(last)',
          r.rows,
          est ? `${r.bytes} ±${est.errorBytes[i]}` : r.bytes,
          pctOf(r.share),
          r.hfiles,
        ]),
        ['region', 'start', 'end', 'rows', 'bytes', '%', 'HFiles'],
        [1, 2],
      ),
      '',
      plan.create,
      ...(plan.phoenix ? ['', plan.phoenix] : []),
      ...(plan.salt
        ? [
            '',
            `salt ${plan.salt.from} → ${plan.salt.to} buckets: ${pctOf(plan.salt.movedShare)} of rows change bucket${plan.salt.reads.length ? `; reads whose scans change: ${plan.salt.reads.map(r => `${r.name} ${r.scansBefore} → ${r.scansAfter}`).join(', ')}` : ''}`,
          ]
        : []),
      '',
      ...plan.warnings.map(w => `! ${printable(w)}`),
      '',
      `the job: --job spark | mapreduce (a template)${plan.jobs.phoenix ? ' | phoenix' : ''} prints it`,
      '',
      'cutover:',
      ...plan.checklist.map((c, i) => `${i + 1}. ${printable(c)}`),
    ].join('\n');
  });
}
