// life: months of a design's table under HBase's own rules (the engine's lifeDesign): this reads
// the options into its settings and prints the months.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { lifeSettings, withHBaseSettings } from '../lib/life-options.mjs';
import { withWriteSample } from '../lib/rows.mjs';

const gib = b => (b / 2 ** 30).toFixed(1);
const pct = x => `${(x * 100).toFixed(0)}%`;

/** The engine's diagnosis as it says it: the headline first, then each finding, worst first. */
function diagnosisLines(d) {
  if (!d) return [];
  const lines = [d.headline];
  for (const f of d.findings) {
    lines.push(`- ${f.figure}: ${f.meaning}`);
    if (f.fix) lines.push(`  fix: ${f.fix.change}`, `  checked: ${f.fix.checked}`);
  }
  return [...lines, ''];
}

export async function life(pos, opt) {
  const design = withHBaseSettings(await loadDesign(pos[0]), opt);
  if (opt.records === undefined) {
    const given = ['format', 'map', 'time', 'nulls', 'epoch', 'delimiter', 'keepMib'].find(o => opt[o] !== undefined);
    if (given)
      throw new CliError(
        EXIT.USAGE,
        `--${given.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)} goes with --records FILE`,
      );
  }
  const settings = lifeSettings(opt);
  const report =
    opt.records === undefined
      ? engine(() => api.lifeDesign(design, settings))
      : await withWriteSample(design, opt.records, opt, s => engine(() => s.lifeMonths(settings)).report);
  out(opt, report, () => {
    const rows = report.months.map(m => [
      m.month,
      m.regions,
      m.emptyRegions,
      m.splits,
      m.merges,
      m.moves,
      gib(m.largestRegionBytes),
      gib(m.onDiskBytes),
      gib(m.liveBytes),
      pct(m.hottestServerWriteShare),
      m.maxSplitsPerDay,
    ]);
    const c = report.crossings;
    const when = x => (x == null ? 'never' : `month ${x}`);
    return [
      ...diagnosisLines(report.diagnosis),
      `${report.policy}; ${report.months.length} months`,
      table(
        rows,
        [
          'month',
          'regions',
          'empty',
          'splits',
          'merges',
          'moves',
          'peak region GiB',
          'disk GiB',
          'live GiB',
          'hottest server',
          'splits/day max',
        ],
        [],
      ),
      `regions per server over 200: ${when(c.regionsPerServerOver200)}; regions written at once on a server over the memstore bound (${report.memstoreBound.toFixed(1)}): ${when(c.memstoreBound)}; a region over 20 GiB: ${when(c.regionOver20Gib)}; the split limit: ${when(c.splitLimit)}`,
      ...report.notes.map(n => `note: ${n}`),
    ].join('\n');
  });
  return EXIT.OK;
}
