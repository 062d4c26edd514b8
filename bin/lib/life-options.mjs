// The settings of a months-of-life run (the engine's LifeSettings members) from the command
// line, for `life` and `check`'s gates on the months: absent options stay absent, so the design's
// or HBase's defaults apply (the engine fills them in).
import { LIFE_VALUE_OPTIONS, whole } from './args.mjs';
import { CliError, EXIT } from './errors.mjs';

/** The options (camelCase, as parseArgs gives them) that set a run; `normalizer` is a flag. */
export const LIFE_OPTIONS = [
  ...LIFE_VALUE_OPTIONS.map(o => o.replace(/-([a-z])/g, (_, c) => c.toUpperCase())),
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
  // (own names only: `constructor` or `toString` is not a policy)
  if (Object.hasOwn(POLICIES, v)) return POLICIES[v];
  const [kind, arg] = [v.slice(0, v.indexOf(':')), v.slice(v.indexOf(':') + 1)];
  if (kind === 'keyPrefix' && /^\d+$/.test(arg)) return { type: 'keyPrefix', prefixLength: Number(arg) };
  if (kind === 'delimitedKeyPrefix' && arg) return { type: 'delimitedKeyPrefix', delimiter: arg };
  throw new CliError(
    EXIT.USAGE,
    `--policy must be stepping, increasing, constant, disabled, keyPrefix:N or delimitedKeyPrefix:D, not ${v}`,
  );
}

const UNITS = { s: 1, m: 60, h: 3600, d: 86400 };

/** `--ttl T`: seconds (as HBase's TTL), or a number with s, m, h or d (`life`, `check` and
 * `advise` read it alike). */
export function ttl(v) {
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(v);
  if (!m) throw new CliError(EXIT.USAGE, `--ttl must be seconds or a number with s, m, h or d (30d), not ${v}`);
  return Math.round(Number(m[1]) * UNITS[m[2] || 's']);
}

/** `--flag on|off` as a boolean (undefined when absent). */
function onOff(opt, name, flag) {
  const v = opt[name];
  if (v === undefined) return undefined;
  if (v === 'on' || v === 'true') return true;
  if (v === 'off' || v === 'false') return false;
  throw new CliError(EXIT.USAGE, `--${flag} must be on or off, not ${v}`);
}

/** `--flag X` as a finite number (undefined when absent); its range is the engine's to check. */
function number(opt, name, flag) {
  const v = opt[name];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x)) throw new CliError(EXIT.USAGE, `--${flag} must be a number, not ${v}`);
  return x;
}

/**
 * The design with each `--set MEMBER=VALUE` written into its `hbase` section (a member of the
 * design document's `hbase`, docs/design-document.md; the value as JSON, else as text): the
 * engine checks it with the design, its error at `/hbase/MEMBER`.
 */
export function withHBaseSettings(design, opt) {
  const sets = opt.set === undefined ? [] : [opt.set].flat();
  if (sets.length === 0) return design;
  const hbase = { ...(design.hbase ?? {}) };
  for (const s of sets) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new CliError(EXIT.USAGE, `--set takes MEMBER=VALUE (an hbase section member), not ${s}`);
    const [member, text] = [s.slice(0, eq), s.slice(eq + 1)];
    let value = text;
    try {
      value = JSON.parse(text);
    } catch {
      // text: a name such as fifo
    }
    hbase[member] = value;
  }
  return { ...design, hbase };
}

/** The engine's settings from the command line; absent ones are the design's or HBase's. */
export function lifeSettings(opt) {
  const o = {
    index: opt.index,
    months: whole(opt, 'months', 'months'),
    servers: whole(opt, 'servers', 'servers'),
    seed: whole(opt, 'seed', 'seed', 0),
    stepHours: number(opt, 'stepHours', 'step-hours'),
    policy: policy(opt.policy),
    ttlSeconds: ttl(opt.ttl),
    version: opt.hbase,
    compressionRatio: number(opt, 'compression', 'compression'),
    // the table's NORMALIZATION_ENABLED, by HBase's name (the design's hbase.normalizationEnabled)
    normalizationEnabled: opt.normalizer ? true : undefined,
  };
  const defined = x => Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined));
  const normalizer = defined({
    splitEnabled: onOff(opt, 'normalizerSplit', 'normalizer-split'),
    mergeEnabled: onOff(opt, 'normalizerMerge', 'normalizer-merge'),
    mergeMinRegionSizeMb: whole(opt, 'mergeMinSizeMb', 'merge-min-size-mb', 0),
    mergeMinRegionAgeDays: number(opt, 'mergeMinAgeDays', 'merge-min-age-days'),
    periodSeconds: number(opt, 'normalizerPeriod', 'normalizer-period'),
  });
  const balancer = defined({ enabled: onOff(opt, 'balancer', 'balancer') });
  if (opt.compaction !== undefined && !['exploring', 'fifo'].includes(opt.compaction))
    throw new CliError(EXIT.USAGE, `--compaction must be exploring or fifo, not ${opt.compaction}`);
  const compaction = defined({
    policy: opt.compaction,
    majorPeriodHours: number(opt, 'majorCompactionHours', 'major-compaction-hours'),
    periodicFlushHours: number(opt, 'periodicFlushHours', 'periodic-flush-hours'),
  });
  if (Object.keys(normalizer).length) o.normalizer = normalizer;
  if (Object.keys(balancer).length) o.balancer = balancer;
  if (Object.keys(compaction).length) o.compaction = compaction;
  o.regionSplitLimit = whole(opt, 'splitLimit', 'split-limit');
  return defined(o);
}
