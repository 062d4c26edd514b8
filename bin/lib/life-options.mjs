// The settings of a months-of-life run (the engine's LifeSettings members) from the command
// line, for `life` and `check`'s gates on the months: absent options stay absent, so the design's
// or HBase's defaults apply (the engine fills them in).
import { whole } from './args.mjs';
import { CliError, EXIT } from './errors.mjs';

/** The options (camelCase, as parseArgs gives them) that set a run; `normalizer` is a flag. */
export const LIFE_OPTIONS = [
  'months',
  'servers',
  'policy',
  'ttl',
  'hbase',
  'compression',
  'stepHours',
  'seed',
  'normalizer',
];

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
export function lifeSettings(opt) {
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
