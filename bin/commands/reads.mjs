// reads: each read's scans, or the HBase shell commands that run them.
import * as api from '../../pkg/node/index.js';
import { onRegions, readPlans } from '../lib/analysis.mjs';
import { engine } from '../lib/errors.mjs';
import { count, out, regionRuns, table } from '../lib/format.mjs';
import { loadDesign, loadRegions } from '../lib/io.mjs';

export async function reads(pos, opt) {
  const list = await loadRegions(opt.regions, opt.table);
  const design = onRegions(await loadDesign(pos[0]), list);
  const plans = readPlans(design);
  const tableName = opt.shell;
  // The engine writes the shell command, with the plan's LIMIT.
  const shell = (sc, p) =>
    engine(() => api.shellScan(tableName, api.toBytesBinary(sc.startRow), api.toBytesBinary(sc.stopRow), p.limit));
  const res =
    tableName === undefined
      ? plans
      : plans.map(p => ({ ...p, scans: p.scans.map(sc => ({ ...sc, shell: shell(sc, p) })) }));
  out(opt, res, () => {
    if (!plans.length)
      return 'the design has no reads (add a "reads" list: get, prefix, range or latest reads; see docs/design-document.md)';
    if (tableName !== undefined) {
      return res
        .map(p => [`# ${p.name}: ${count(p.scans.length, 'scan')}`, ...p.scans.map(sc => sc.shell)].join('\n'))
        .join('\n');
    }
    const lines = [
      table(
        plans.map(p => [p.name, p.scans.length, p.regionsTouched, p.rowsReadPerRowReturned ?? '-']),
        ['read', 'scans', 'regions', 'rows read/returned'],
      ),
    ];
    for (const p of plans) {
      lines.push(
        '',
        `${p.name}: ${count(p.scans.length, 'scan')} over ${count(p.regionsTouched, 'region')}${p.limit ? `, each ending after ${count(p.limit, 'row')} (LIMIT)` : ''}`,
        ...p.notes.map(n => `* ${n}`),
      );
      lines.push(
        table(
          p.scans.map(sc => [sc.startRow || '(first row)', sc.stopRow || '(end of table)', regionRuns(sc.regions)]),
          ['start row', 'stop row (exclusive)', 'regions'],
          [0, 1],
        ),
      );
    }
    return lines.join('\n');
  });
}
