// Each command's arguments, read by node:util parseArgs in strict mode: an option the command
// does not take (a typo such as --max-hotspt in a CI gate), a value given to a flag, a missing
// value or one argument too many is a usage error, never silently ignored.
import { parseArgs } from 'node:util';
import { CliError, EXIT } from './errors.mjs';
import { didYouMean } from './suggest.mjs';

/**
 * Each command's options that take a value and its flags (as typed, kebab-case; --json and --help
 * go with every command), and the most <arguments> it takes.
 */
/** The options that say how --records FILE meets the design (bin/lib/rows.mjs). */
const ROWS = ['format', 'map', 'time', 'nulls', 'epoch', 'delimiter', 'keep-mib'];

/** The options that set a months-of-life run (`life`, `check`'s months; bin/lib/life-options.mjs). */
export const LIFE_VALUE_OPTIONS = [
  'index',
  'months',
  'servers',
  'policy',
  'ttl',
  'hbase',
  'compression',
  'step-hours',
  'seed',
  'normalizer-split',
  'normalizer-merge',
  'merge-min-size-mb',
  'merge-min-age-days',
  'normalizer-period',
  'balancer',
  'major-compaction-hours',
  'periodic-flush-hours',
  'compaction',
  'split-limit',
  'set',
];

export const USAGE = {
  encode: { options: ['record', 'records', ...ROWS], maxArgs: 1 },
  decode: { options: ['hex'], maxArgs: 2 },
  layout: { options: [], maxArgs: 1 },
  splits: { options: ['first-row', 'last-row', 'create', 'family', 'records', 'regions', 'by', ...ROWS], maxArgs: 2 },
  analyze: {
    options: ['windows', 'records', 'regions', 'table', 'threads', ...ROWS],
    maxArgs: 1,
  },
  reads: { options: ['shell', 'regions', 'table'], maxArgs: 1 },
  lint: { options: [], maxArgs: 1 },
  examples: { options: [], flags: ['update'], maxArgs: 1 },
  check: {
    options: [
      'max-hotspot',
      'max-server-hotspot',
      'max-scans',
      'lint',
      'max-empty-regions',
      'max-regions-per-server',
      ...LIFE_VALUE_OPTIONS,
      'windows',
      'records',
      'regions',
      'table',
      'threads',
      ...ROWS,
    ],
    flags: ['normalizer'],
    maxArgs: Infinity,
  },
  compare: { options: ['windows'], maxArgs: 4 },
  advise: { options: ['servers', 'records', 'sample', 'windows', 'threads', 'ttl', 'ttl-days', ...ROWS], maxArgs: 1 },
  life: {
    options: [...LIFE_VALUE_OPTIONS, 'records', ...ROWS],
    flags: ['normalizer'],
    maxArgs: 1,
  },
  regions: { options: ['table'], maxArgs: 1 },
  rekey: {
    options: [
      'records',
      'regions',
      'by',
      'family',
      'table',
      'new-table',
      'parallelism',
      'read-mib-s',
      'write-mib-s',
      'compression',
      'max-file-size',
      'job',
      'series',
      'sample',
      ...ROWS,
    ],
    // two designs; with --series, its files after them
    maxArgs: Infinity,
  },
  verify: { options: ['old-rows', 'new-rows', 'ignore', 'columns', ...ROWS], maxArgs: 2 },
  observe: { options: ['table', 'windows', 'threads', 'html'], maxArgs: Infinity },
  watch: { options: ['every', 'out', 'timeout', 'retries', 'count'], maxArgs: Infinity },
  profile: { options: ['records', ...ROWS], maxArgs: 1 },
  presets: { options: [], maxArgs: 0 },
  'create-table': { options: [], maxArgs: 1 },
};

/** The options that may be given more than once. */
const MULTIPLE = new Set(['map', 'series', 'set', 'ignore']);

/** `--name N` as a whole number from `min` (undefined when absent). */
export function whole(opt, name, flag, min = 1) {
  const v = opt[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(String(v)) || Number(v) < min) {
    throw new CliError(EXIT.USAGE, `--${flag} must be a whole number of at least ${min}, not ${v}`);
  }
  return Number(v);
}

/** The command names, in the order `--help` lists them. */
export const COMMANDS = Object.keys(USAGE);

const camel = name => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/** parseArgs' option table for `cmd`. */
function optionTable(cmd) {
  const { options, flags = [] } = USAGE[cmd];
  return Object.fromEntries([
    ...options.map(name => [name, { type: 'string', ...(MULTIPLE.has(name) ? { multiple: true } : {}) }]),
    ...flags.map(name => [name, { type: 'boolean' }]),
    ['json', { type: 'boolean' }],
    ['help', { type: 'boolean', short: 'h' }],
  ]);
}

/**
 * `argv` (what follows the command) as `{pos, opt}`: the <arguments>, and the options by their
 * camelCase names (`--max-hotspot` as `opt.maxHotspot`). Options are read as they come, so an
 * unknown one is reported as such before it could take the next argument as its value
 * (`--jsn design.json` is a typo, not --jsn=design.json).
 */
export function readArgs(cmd, argv) {
  const options = optionTable(cmd);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(EXIT.USAGE, explain(cmd, argv, options, e));
  }
  const opt = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [camel(k), v]));
  const pos = parsed.positionals;
  const max = USAGE[cmd].maxArgs;
  if (!opt.help && pos.length > max) {
    throw new CliError(
      EXIT.USAGE,
      `${cmd} takes at most ${max} argument${max === 1 ? '' : 's'}, got ${pos.length} (unexpected: ${pos.slice(max).join(' ')})`,
    );
  }
  return { pos, opt };
}

/**
 * What strict parseArgs refused, said in the CLI's words: the first offending option, found by
 * reading the same arguments leniently, token by token. Node's own message when none is found.
 */
function explain(cmd, argv, options, error) {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = options[t.name];
    if (!spec) {
      const { options: names, flags = [] } = USAGE[cmd];
      const known = [...names, ...flags, 'json'];
      // A short option is shown as typed (-abc): most likely an argument that starts with -.
      const long = t.rawName.startsWith('--');
      const typed = long ? t.rawName : argv[t.index];
      const dash = long ? '' : '; an argument that starts with - goes after --';
      return `${cmd} has no option ${typed}${didYouMean(typed.replace(/^--?/, ''), known, '--')} (it takes ${known.map(n => `--${n}`).join(', ')}; see rowkey-lab ${cmd} --help${dash})`;
    }
    if (spec.type === 'boolean' && t.value !== undefined)
      return `--${t.name} takes no value (got ${t.rawName}=${t.value})`;
    if (spec.type === 'string' && t.value === undefined) return `option --${t.name} needs a value`;
    if (spec.type === 'string' && !t.inlineValue && t.value.length > 1 && t.value.startsWith('-')) {
      return `option --${t.name} needs a value, not the option ${t.value} (a value starting with - is written --${t.name}=${t.value})`;
    }
  }
  return error.message;
}
