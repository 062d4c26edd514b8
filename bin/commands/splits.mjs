// splits, presets: split keys (RegionSplitter's algorithms or a design's pre-split) and the
// built-in presets.
import * as api from '../../pkg/node/index.js';
import { whole } from '../lib/args.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { hex, out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';

export async function splits(pos, opt) {
  const algo = { hex: 'HexStringSplit', decimal: 'DecimalStringSplit', uniform: 'UniformSplit' }[pos[0]?.toLowerCase()];
  if (!algo) {
    if (pos[0] === undefined)
      throw new CliError(EXIT.USAGE, 'expected hex, decimal or uniform and a region count, or a design');
    if (pos.length > 1) throw new CliError(EXIT.USAGE, `expected hex, decimal or uniform, not ${pos[0]}`);
    const design = await loadDesign(pos[0]);
    if (opt.records !== undefined) return printSplits(opt, await rowSplits(design, opt));
    if (opt.regions !== undefined) throw new CliError(EXIT.USAGE, '--regions N goes with --records FILE');
    if (opt.by !== undefined) throw new CliError(EXIT.USAGE, '--by rows|bytes goes with --records FILE');
    const keys = engine(() => api.layoutSplitKeys(design));
    return printSplits(opt, keys, design);
  }
  const n = Number(pos[1]);
  if (pos[1] === undefined || !Number.isInteger(n)) throw new CliError(EXIT.USAGE, 'expected a region count N');
  const o = {};
  if (opt.firstRow !== undefined) o.firstRow = opt.firstRow;
  if (opt.lastRow !== undefined) o.lastRow = opt.lastRow;
  const keys = engine(() => api.splitKeys(algo, n, o));
  printSplits(opt, keys);
}

/**
 * The split keys that cut the rows of --records into --regions N regions of equal rows or bytes (--by; the
 * engine's cut at the rows, at every row's key while the rows fit the memory kept for them; a
 * uniform sample of a million rows beyond, said on stderr).
 */
async function rowSplits(design, opt) {
  const n = whole(opt, 'regions', 'regions', 2);
  if (n === undefined) throw new CliError(EXIT.USAGE, 'splits --records FILE needs --regions N (2 or more)');
  if (opt.by !== undefined && opt.by !== 'rows' && opt.by !== 'bytes')
    throw new CliError(EXIT.USAGE, `--by: expected rows or bytes, not ${JSON.stringify(opt.by)}`);
  // the engine's cut at the rows (cutAtRows): the one `rekey --records` reads the new design with
  const cut = engine(() => api.cutAtRows(design, { regions: n, ...(opt.by === undefined ? {} : { by: opt.by }) }));
  const run = await analyzeRows(cut, undefined, opt.records, opt, undefined, true);
  try {
    const s = run.session.splitKeys();
    if (!s.exact)
      process.stderr.write(
        `rowkey-lab: split keys cut at a uniform sample of 1,000,000 of the ${s.rows} rows, not every row\n`,
      );
    return s.keys;
  } finally {
    run.session.free();
  }
}

export function presets(_pos, opt) {
  // grouped by the problem each shows, as the page lists them
  const list = api.listPresets();
  const rows = list.map(p => [p.group, p.id, p.label]);
  out(opt, list, () => table(rows, ['problem', 'id', 'what it shows']));
}

/**
 * Split keys as `{hex, binary}` rows, the text as SPLITS_FILE lines or the shell's create. A
 * Phoenix design's indexes (the engine's `indexTables`) are tables Phoenix makes itself: with
 * --create each one's CREATE INDEX follows as a shell comment (and in --json as `indexes`);
 * a SPLITS_FILE stays the data table's, and stderr says where the indexes' statements are.
 */
function printSplits(opt, keys, design) {
  const rows = keys.map(k => ({ hex: hex(k), binary: api.toStringBinary(k) }));
  const indexes = design?.phoenix?.indexes?.length ? engine(() => api.indexTables(design)) : [];
  // a salted Phoenix table: Phoenix makes its regions at its buckets (the Splits view's sentence)
  const phoenix = design ? engine(() => api.phoenixRegionsNote(design)) : null;
  if (phoenix) process.stderr.write(`rowkey-lab: ${phoenix}\n`);
  if (opt.create === undefined) {
    if (opt.family !== undefined) throw new CliError(EXIT.USAGE, '--family goes with --create TABLE');
    if (indexes.length)
      process.stderr.write(
        `rowkey-lab: the data table's split keys; its ${indexes.length} Phoenix index(es) are tables Phoenix makes (splits --create, or create-table, prints their statements)\n`,
      );
    return out(opt, rows, () => api.splitsFile(keys).replace(/\n$/, ''));
  }
  const shell = engine(() => api.shellCreate(opt.create, opt.family ?? 'cf', keys));
  const notes = indexes.map(
    x =>
      `# Phoenix ${x.kind} index ${x.name}${x.kind === 'local' ? " (in the data table's regions)" : `, ${x.splitKeysHex.length + 1} region(s)`}: ${x.sql.replace(/\s*\n\s*/g, ' ')}`,
  );
  const said = phoenix ? { phoenix } : {};
  out(opt, { create: shell, splits: rows, ...said, ...(indexes.length ? { indexes } : {}) }, () =>
    [...(phoenix ? [`# ${phoenix}`] : []), shell, ...notes].join('\n'),
  );
}
