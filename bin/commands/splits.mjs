// splits, presets: split keys (RegionSplitter's algorithms or a design's pre-split) and the
// built-in presets.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { hex, out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';

export async function splits(pos, opt) {
  const algo = { hex: 'HexStringSplit', decimal: 'DecimalStringSplit', uniform: 'UniformSplit' }[pos[0]?.toLowerCase()];
  if (!algo) {
    if (pos[0] === undefined)
      throw new CliError(EXIT.USAGE, 'expected hex, decimal or uniform and a region count, or a design');
    if (pos.length > 1) throw new CliError(EXIT.USAGE, `expected hex, decimal or uniform, not ${pos[0]}`);
    const design = await loadDesign(pos[0]);
    const keys = engine(() => api.layoutSplitKeys(design));
    return printSplits(opt, keys);
  }
  const n = Number(pos[1]);
  if (pos[1] === undefined || !Number.isInteger(n)) throw new CliError(EXIT.USAGE, 'expected a region count N');
  const o = {};
  if (opt.firstRow !== undefined) o.firstRow = opt.firstRow;
  if (opt.lastRow !== undefined) o.lastRow = opt.lastRow;
  const keys = engine(() => api.splitKeys(algo, n, o));
  printSplits(opt, keys);
}

export function presets(_pos, opt) {
  const list = api.listPresets();
  const rows = list.map(p => [p.id, p.name ?? '']);
  out(opt, list, () => table(rows, ['id', 'name']));
}

/** Split keys as `{hex, binary}` rows, the text as SPLITS_FILE lines or the shell's create. */
function printSplits(opt, keys) {
  const rows = keys.map(k => ({ hex: hex(k), binary: api.toStringBinary(k) }));
  if (opt.create === undefined) {
    if (opt.family !== undefined) throw new CliError(EXIT.USAGE, '--family goes with --create TABLE');
    return out(opt, rows, () => api.splitsFile(keys).replace(/\n$/, ''));
  }
  const shell = engine(() => api.shellCreate(opt.create, opt.family ?? 'cf', keys));
  out(opt, { create: shell, splits: rows }, () => shell);
}
