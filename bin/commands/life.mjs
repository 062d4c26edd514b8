// life: months of a design's table under HBase's own rules (the engine's lifeDesign): this reads
// the options into its settings and prints the months.
import * as api from '../../pkg/node/index.js';
import { whole } from '../lib/args.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';

/** --policy names: HBase's split policies as the design document names them. */
const POLICIES = {
  stepping: { type: 'stepping' },
  increasing: { type: 'increasingToUpperBound' },
  increasingToUpperBound: { type: 'increasingToUpperBound' },
  constant: { type: 'constantSize' },
  constantSize: { type: 'constantSize' },
  disabled: { type: 'disabled' },
};

/** `--policy P`: a name above, `keyPrefix:N` or `delimitedKeyPrefix:D`. */
function policy(v) {
  if (v === undefined) return undefined;
  if (POLICIES[v]) return POLICIES[v];
  const [kind, arg] = [v.slice(0, v.indexOf(':')), v.slice(v.indexOf(':') + 1)];
  if (kind === 'keyPrefix' && /^\d+$/.test(arg)) return { type: 'keyPrefix', prefixLength: Number(arg) };
  if (kind === 'delimitedKeyPrefix' && arg) return { type: 'delimitedKeyPrefix', delimiter: arg };
  throw new CliError(
    EXIT.USAGE,
    `--policy must be stepping, increasing, constant, disabled, keyPrefix:N or delimitedKeyPrefix:D, not ${v}`,
  );
}

const UNITS = { s: 1, m: 60, h: 3600, d: 86400 };

/** `--ttl T`: seconds (as HBase's TTL), or a number with s, m, h or d. */
function ttl(v) {
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(v);
  if (!m) throw new CliError(EXIT.USAGE, `--ttl must be seconds or a number with s, m, h or d (30d), not ${v}`);
  return Math.round(Number(m[1]) * UNITS[m[2] || 's']);
}

/** The engine's settings from the command line; absent ones are the design's or HBase's. */
function settings(opt) {
  const o = {
    months: whole(opt, 'months', 'months'),
    servers: whole(opt, 'servers', 'servers'),
    seed: whole(opt, 'seed', 'seed', 0),
    stepHours: whole(opt, 'stepHours', 'step-hours'),
    policy: policy(opt.policy),
    ttlSeconds: ttl(opt.ttl),
    version: opt.hbase,
    compressionRatio: opt.compression === undefined ? undefined : Number(opt.compression),
  };
  if (opt.normalizer) o.normalizer = { enabled: true };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const gib = b => (b / 2 ** 30).toFixed(1);
const pct = x => `${(x * 100).toFixed(0)}%`;

export async function life(pos, opt) {
  const design = await loadDesign(pos[0]);
  const report = engine(() => api.lifeDesign(design, settings(opt)));
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
          'largest GiB',
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
