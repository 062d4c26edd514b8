#!/usr/bin/env node
// rowkey-lab CLI: the wasm build under Node. `rowkey-lab --help` lists commands and exit codes.
import { existsSync, readFileSync } from 'node:fs';
import * as api from '../pkg/node/index.js';

const EXIT = { OK: 0, BUDGET: 1, USAGE: 2, INPUT: 3 };
const HELP = {
  main: `rowkey-lab <command> [options]

Commands:
  encode <design> --record '{...}'     encode one record to its row key
  encode <design> --records FILE       encode many (JSON Lines or a JSON array)
  decode <design> <key> | --hex H      the fields of a row key, segment by segment
  layout <design>                      the key's byte layout: offset, width, encoding
  splits hex|decimal|uniform <N>       the N-1 split keys of RegionSplitter's algorithm
  splits <design> [--create TABLE]     the design's pre-split keys (SPLITS_FILE lines, or
                                       the HBase shell's create statement)
  analyze <design> [--records F] [--json]
                                       run the design's workload (or your rows): regions,
                                       hotspots, reads
  reads <design> [--shell TABLE]       each read's scans (start and stop rows, regions), or
                                       the HBase shell scan commands that run them
  lint <design> [--json]               lint findings of a design
  examples <design> [--update]         the design's examples: the key each record gets now
                                       against the one recorded (--update: the design with
                                       the keys rewritten, on stdout)
  check <design>... [--max-hotspot F] [--max-server-hotspot F] [--max-scans N] [--lint LEVEL] [--json]
                                       exit 1 when a design breaks a budget or has a lint
                                       error (for CI)
  compare <design> <design> [...]      2-4 designs' skew side by side, one workload
  regions <FILE> [--table T]           a table's current regions, read from get_splits,
                                       list_regions, a hbase:meta scan, a SPLITS_FILE or a
                                       create statement, as a design's pre-split
  presets [--json]                     list the built-in presets

<design> is a design document (JSON file path) or a preset id (see \`rowkey-lab presets\`).
analyze, check and reads take --regions FILE [--table T]: the design on a table's current
regions (what \`regions FILE\` reads) instead of its own pre-split. FILE - is stdin.
Every command takes --help and --json (machine-readable output on stdout).

Exit codes:
  0  success
  1  check: a budget is exceeded; lint: a finding of severity "error"; decode: the key is
     not one the design writes (its fields encode to other bytes, e.g. another salt);
     examples: an example's recorded key is not what the design writes for its record
  2  usage error (unknown command or option, missing or extra argument)
  3  input error (unreadable or invalid design, bad record or key, engine error)`,
  encode: `rowkey-lab encode <design> --record '<json>' [--json]
rowkey-lab encode <design> --records FILE [--json]
Encodes one record (JSON object of field values) with the design's key and prints the key
as hex and as Bytes.toStringBinary; with --records, every record of FILE (JSON Lines, one
object per line, or a JSON array), one key per line: hex, a tab, toStringBinary. The design
is compiled once. A bad record is named by its line (file:line) and stops the run (exit 3).`,
  decode: `rowkey-lab decode <design> <key> [--json]
rowkey-lab decode <design> --hex <hex> [--json]
Splits a row key into the design's segments and reads each field back. <key> is the key as
the HBase shell prints it (Bytes.toStringBinary, \\xNN escapes); --hex takes its bytes in hex.
Says when a value is only partly in the key (a time without milliseconds, a hash) and whether
re-encoding the fields gives the same bytes: exit 1 when it does not (another design's key,
a wrong salt bucket).`,
  layout: `rowkey-lab layout <design> [--json]
Prints the key's segments in order: byte offset (when every segment before it has a fixed
width), width, what the bytes are, and the segment in the key language.`,
  splits: `rowkey-lab splits hex|decimal|uniform <N> [--first-row R] [--last-row R] [--create TABLE] [--family F] [--json]
rowkey-lab splits <design> [--create TABLE] [--family F] [--json]
Prints the N-1 split keys of HexStringSplit / DecimalStringSplit / UniformSplit as HBase's
RegionSplitter computes them, or a design's pre-split keys (its regions layout: salt
buckets, a split algorithm, sample quantiles), one per line in Bytes.toStringBinary: the
format of the HBase shell's SPLITS_FILE.
  --create TABLE  print the shell statement instead: create 'TABLE', 'F', SPLITS => [...]
  --family F      its column family (default cf)`,
  analyze: `rowkey-lab analyze <design> [--windows N] [--records FILE] [--json]
Runs the design's workload over its region layout and prints per-region writes, hotspot
metrics, the diagnosis and read costs. Progress goes to stderr when stderr is a terminal.
  --records FILE  your own rows instead of the generated workload: JSON Lines (one
                  {"field": value} object per line) or a JSON array, in write order; record n
                  is written at the workload's clock (startTime + n * 1000 / writeRate ms); a
                  sampleQuantiles pre-split is cut at the quantiles of these rows' keys
  --regions FILE  the table's current regions instead of the design's pre-split (see
                  \`regions\`); when FILE also says what each region takes now (list_regions'
                  REQ, /jmx dumps), each region's share now is shown beside this design's`,
  lint: `rowkey-lab lint <design> [--json]
Prints each finding: severity, rule, segment, reason. Exit 1 when any finding is an error.`,
  examples: `rowkey-lab examples <design> [--update] [--json]
Lists the design's examples (its "examples": records with the row key each is stored under):
the key the design writes for each record now, as Bytes.toStringBinary, and whether it is the
one recorded ("same"), another ("moved": the row stored under the recorded key is out of reach
of this design's gets and scans), unrecorded, or not writable at all. Bytes a random(...)
segment draws are not compared. Exit 1 when a recorded key is not what the design writes, as
\`check\` fails then.
  --update  the key change is deliberate: print the design document with every example that
            records a key given the one the design writes now (key as hex, keyBinary as
            toStringBinary, whichever it has); the design file is not changed (redirect the
            output). A record the design cannot write keeps its key, and the exit is 1.`,
  check: `rowkey-lab check <design>... [--max-hotspot F] [--max-server-hotspot F] [--max-scans N] [--lint LEVEL] [--windows N] [--records FILE] [--regions FILE] [--json]
Analyzes each design (its workload, or --records FILE as for analyze) and fails (exit 1) when
any design breaks a budget:
  --max-hotspot F  the mean per-window hotspot factor (busiest region / mean region) exceeds F
  --max-server-hotspot F
                   the busiest region server's writes over the run exceed F times the mean
                   server's (not checked unless given; with --regions FILE naming each
                   region's server, the servers are the table's own)
  --max-scans N    any read pattern needs more than N scans
  --lint LEVEL     a lint finding is at LEVEL or worse: error, warning, or off (none counts)
and always when one of the design's "examples" has a key (hex, or keyBinary) that the key
design does not write for its record: a key change that moves rows already stored under the
old keys (bytes a random(...) segment draws are not compared).
Defaults: --max-hotspot 2.0, --max-scans 16, --lint error (what makes \`lint\` exit 1).
--json: {ok, hotspotFactor, serverHotspotFactor, maxScans, lint, examples, breaches}: "lint" the
findings counted under --lint, "examples" the example-key findings (each with its "example"
index), "breaches" every reason for the failure as text.
With several designs (say designs/*.json) each gets one line, and --json prints an array of
the one-design results, each with its "design".`,
  reads: `rowkey-lab reads <design> [--shell TABLE] [--json]
Plans every read in the design's "reads" list over its pre-split: how many scans it needs, the
regions they touch, rows read per row returned, why, and each scan's start and stop row (the
stop row is exclusive).
  --shell TABLE  print the HBase shell commands instead, ready to paste into \`hbase shell\`:
                 scan 'TABLE', {STARTROW => "...", STOPROW => "..."} per scan (get 'TABLE',
                 "..." for a get of a whole key), each read's scans under a # comment`,
  compare: `rowkey-lab compare <design> <design> [<design> <design>] [--windows N] [--json]
Runs 2-4 designs, each with its own fields, key and regions layout, over the first design's
workload settings (record count, write rate, clock, seed) and prints their skew side by side: regions, hotspot factor (mean and worst window), active
regions per window, Gini of the whole run, and each design's diagnosis. --json adds the
per-window metrics and a shared key-space grid (writes per key-space bucket and window).`,
  presets: `rowkey-lab presets [--json]
Lists the built-in preset ids with their names.`,
  regions: `rowkey-lab regions <FILE> [--table T] [--json]
Reads a table's current regions from what HBase prints and shows them as a design's
"regions": {"presplit": ...}, to paste into a design or to use with --regions FILE (analyze,
check, reads). FILE - reads stdin, so \`echo "list_regions 'events'" | hbase shell -n |
rowkey-lab check design.json --regions -\` gates a key change on the live table's regions.
FILE may hold:
  list_regions output, a scan 'hbase:meta', the master's table page, RegionSplitter's log:
      region names (table,start key,id.encoded.), each checked against its encoded part
      (the MD5 of table,start key,id); a name that does not check out is an error
  get_splits output or a SPLITS_FILE: one Bytes.toStringBinary key per line
  a create statement: SPLITS => [...], or NUMREGIONS => N with SPLITALGO
  a JSON list of toStringBinary keys (the page's split-key JSON)
With region names, what each region takes now is read too and shown as a table: list_regions'
SERVER_NAME, SIZE and REQ columns, and RegionServer /jmx dumps (curl
'http://RS:16030/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=Regions', one per server)
pasted after the region names, joined to them by encoded name. analyze --regions FILE then
shows each region's share now beside the design's share of its writes. When every region's
server is named, the design also gets "assignment": {"servers": [...]}: the analysis places the
regions on those servers (per-server writes, the split policy's count of regions per server).
  --table T  the table to read when the text has regions of several`,
};

// Each command's options (camelCase, as parseArgs stores them; --json and --help go with every
// command) and the most <arguments> it takes: an option it does not know, a typo such as
// --max-hotspt in a CI gate, is a usage error, never silently ignored.
const USAGE = {
  presets: { options: [], maxArgs: 0 },
  encode: { options: ['record', 'records'], maxArgs: 1 },
  decode: { options: ['hex'], maxArgs: 2 },
  layout: { options: [], maxArgs: 1 },
  splits: { options: ['firstRow', 'lastRow', 'create', 'family'], maxArgs: 2 },
  analyze: { options: ['windows', 'records', 'regions', 'table'], maxArgs: 1 },
  reads: { options: ['shell', 'regions', 'table'], maxArgs: 1 },
  lint: { options: [], maxArgs: 1 },
  examples: { options: [], flags: ['update'], maxArgs: 1 },
  check: {
    options: ['maxHotspot', 'maxServerHotspot', 'maxScans', 'lint', 'windows', 'records', 'regions', 'table'],
    maxArgs: Infinity,
  },
  compare: { options: ['windows'], maxArgs: 4 },
  regions: { options: ['table'], maxArgs: 1 },
};
const kebab = k => k.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`);

class CliError extends Error {
  constructor(code, msg) {
    super(msg);
    this.code = code;
  }
}

// `cmd`'s options are checked as they come: an unknown one is reported as such before it could
// take the next argument as its value (`--jsn design.json` is a typo, not --jsn=design.json).
function parseArgs(cmd, argv) {
  const pos = [];
  const opt = {};
  const { options, flags = [] } = USAGE[cmd];
  const names = options.map(kebab);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') opt.help = true;
    else if (a === '--json') opt.json = true;
    else if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (k === 'json' || k === 'help' || flags.includes(k)) {
        if (inline !== undefined) throw new CliError(EXIT.USAGE, `--${k} takes no value (got --${k}=${inline})`);
        opt[k] = true;
        continue;
      }
      if (!names.includes(k)) {
        const known = names.concat(flags, 'json');
        throw new CliError(
          EXIT.USAGE,
          `${cmd} has no option --${k}${didYouMean(k, known, '--')} (it takes ${known.map(n => `--${n}`).join(', ')}; see rowkey-lab ${cmd} --help)`,
        );
      }
      const v = inline ?? argv[++i];
      if (v === undefined) throw new CliError(EXIT.USAGE, `option --${k} needs a value`);
      opt[k.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = v;
    } else pos.push(a);
  }
  return { pos, opt };
}

/** A text file, without the UTF-8 byte order mark some Windows editors write first. */
function readText(file) {
  const text = readFileSync(file === '-' ? 0 : file, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// The closest of `words` to a mistyped `word` (edit distance at most 2, or 3 for long words),
// for "did you mean" hints, written with `prefix` (`--` for options). Written here rather than
// taken from npm: the package has no runtime dependencies, and this is a dozen lines.
function didYouMean(word, words, prefix = '') {
  const dist = (a, b) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++)
        row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row;
    }
    return prev[b.length];
  };
  const limit = word.length > 8 ? 3 : 2;
  let best = null;
  let bestD = limit + 1;
  for (const w of words) {
    const d = dist(word, w);
    if (d < bestD) {
      best = w;
      bestD = d;
    }
  }
  return best ? ` (did you mean ${prefix}${best}?)` : '';
}

function loadDesign(arg) {
  if (!arg) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file or a preset id)');
  if (existsSync(arg)) {
    let text;
    try {
      text = readText(arg);
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${arg}: ${e.message}`);
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      // The engine's JSON reader says where (line and column); JSON.parse does not.
      let why = e.message;
      try {
        api.validateDesign(text);
      } catch (located) {
        why = located.message;
      }
      throw new CliError(EXIT.INPUT, `${arg}: ${why}`);
    }
  }
  const ids = api.listPresets().map(p => p.id);
  if (ids.includes(arg)) return api.getPreset(arg);
  const hint = didYouMean(arg, ids);
  throw new CliError(
    EXIT.INPUT,
    hint ? `${arg}: no such file or preset${hint}` : `${arg}: no such file or preset (presets: ${ids.join(', ')})`,
  );
}

/**
 * `--regions FILE [--table T]` read by the engine (`readRegions`): `{source, table, regions,
 * presplit, verified, notes}`, or undefined without --regions. FILE - is stdin.
 */
function loadRegions(file, tableName) {
  if (file === undefined) {
    if (tableName !== undefined) throw new CliError(EXIT.USAGE, '--table goes with --regions FILE');
    return undefined;
  }
  let text;
  const name = file === '-' ? 'stdin' : file;
  try {
    text = readText(file);
  } catch (e) {
    throw new CliError(EXIT.INPUT, `${name}: ${e.message}`);
  }
  try {
    return api.readRegions(text, tableName);
  } catch (e) {
    const where = e.line ? `${name}:${e.line}:${e.column}` : name;
    throw new CliError(EXIT.INPUT, `${where}: ${e.reason ?? e.message}${e.path === 'table' ? ' (--table T)' : ''}`);
  }
}

/** The table's measured load per region (`list.load`): each region's share of the writes a
 * /jmx dump counted, or of list_regions' REQ (reads and writes) without one; undefined when
 * the text gave no counts. */
function measured(list) {
  const load = list?.load ?? [];
  const what = load.some(l => l.writes !== null) ? 'writes' : 'requests';
  const counts = load.map(l => (what === 'writes' ? l.writes : l.requests) ?? 0);
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return undefined;
  const shares = counts.map(c => c / total);
  return { what, shares, busiest: argmax(shares) };
}
const argmax = xs => xs.reduce((best, x, i) => (x > xs[best] ? i : best), 0);
const pctOf = x => (x * 100).toFixed(1);

/**
 * `design` on the table's regions from `loadRegions` (its own pre-split without them): their
 * split points, and their servers when the text names every region's (`list.assignment`; the
 * names then count the servers). A placement by names the design carried from another table is
 * dropped: it names that table's regions. As www/table-regions.js does.
 */
function onRegions(design, list) {
  if (!list) return design;
  const { assignment, regionServers, ...regions } = design.regions ?? {};
  const placement = list.assignment
    ? { assignment: list.assignment }
    : {
        ...(regionServers !== undefined ? { regionServers } : {}),
        ...(typeof assignment === 'string' ? { assignment } : {}),
      };
  return { ...design, regions: { ...regions, presplit: list.presplit, ...placement } };
}

function engine(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CliError) throw e;
    // `reason` is the engine's message without its location (`message` repeats it): the
    // location is said once, here.
    const where = [
      e.path && `at ${e.path}`,
      e.line && `line ${e.line}:${e.column}`,
      e.offset !== undefined && !String(e.reason).includes(`byte ${e.offset}`) && `at byte ${e.offset}`,
    ]
      .filter(Boolean)
      .join(', ');
    throw new CliError(EXIT.INPUT, `${e.reason ?? e.message}${where ? ` (${where})` : ''}`);
  }
}

/** An example's recorded key as the shell prints it (its `keyBinary` when it has no hex `key`). */
const recordedText = r => (r.key != null ? api.toStringBinary(Buffer.from(r.key, 'hex')) : r.keyBinary);

/** Rows under headers; `text` lists the columns that always align left (row keys such as "240001"). */
function table(rows, headers, text = []) {
  const cells = [headers, ...rows].map(r => r.map(c => String(c ?? '')));
  const w = headers.map((_, i) => Math.max(...cells.map(r => r[i].length)));
  // Numbers (and numbers already formatted, like toFixed's) align right.
  const numeric = headers.map(
    (_, i) =>
      !text.includes(i) &&
      rows.length > 0 &&
      rows.every(r => typeof r[i] === 'number' || /^-?\d+(\.\d+)?$/.test(r[i] ?? '')),
  );
  const line = r =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(w[i]) : c.padEnd(w[i])))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), w.map(n => '-'.repeat(n)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const hex = b => Buffer.from(b).toString('hex');
const out = (opt, json, text) =>
  console.log(
    opt.json
      ? JSON.stringify(
          json,
          (_key, v) => (v instanceof Uint8Array ? hex(v) : ArrayBuffer.isView(v) ? Array.from(v) : v),
          2,
        )
      : text(),
  );

function progressBar(label) {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  let last = '';
  return {
    update(done, total) {
      const f = total ? done / total : 1;
      const n = Math.round(f * 30);
      const line = `\r${label} [${'#'.repeat(n)}${'.'.repeat(30 - n)}] ${(f * 100).toFixed(0)}%`;
      // Chunks finer than 1 % would redraw the same line: write only when it changes.
      if (line !== last) process.stderr.write(line);
      last = line;
    },
    done() {
      process.stderr.write('\r\x1b[K');
    },
  };
}

/**
 * `--records FILE`: your own rows, JSON Lines (one `{field: value}` object per line) or one JSON
 * array of them, with the line each record starts on (for error messages). No rows, or a JSON
 * value that is not an array, is an input error.
 */
function loadRecords(file) {
  const rows = readRecords(file);
  if (!Array.isArray(rows.records)) throw new CliError(EXIT.INPUT, `${file}: not a JSON array of records`);
  if (rows.records.length === 0) throw new CliError(EXIT.INPUT, `${file}: no records`);
  return rows;
}

/** The parse behind `loadRecords`: `{records, where}`, `records` being whatever the JSON held. */
function readRecords(file) {
  let text;
  try {
    text = readText(file);
  } catch (e) {
    throw new CliError(EXIT.INPUT, `--records: ${e.message}`);
  }
  if (/^\s*\[/.test(text)) {
    let all;
    try {
      all = JSON.parse(text);
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${file}: ${e.message}`);
    }
    return { records: all, where: i => `${file}: records[${i}]` };
  }
  const records = [],
    lines = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      records.push(JSON.parse(l));
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${file}:${i + 1}: ${e.message}`);
    }
    lines.push(i + 1);
  });
  return { records, where: i => `${file}:${lines[i]}` };
}

/**
 * Run `fn(chunk, at)` over `records` in chunks of 10,000 (a progress bar on a TTY). An engine
 * error locates a bad record as records[i] of its chunk (records[i].field): it is reported
 * by its place in the file (`where`).
 */
function inChunks(records, where, label, fn) {
  const CHUNK = 10000;
  const bar = progressBar(label);
  try {
    for (let at = 0; at < records.length; at += CHUNK) {
      try {
        fn(records.slice(at, at + CHUNK), at);
      } catch (e) {
        const k = /^records\[(\d+)\]\.?(.*)$/.exec(e.path ?? '');
        if (k) throw new CliError(EXIT.INPUT, `${where(at + Number(k[1]))}: ${e.reason ?? e.message}`);
        throw e;
      }
      bar.update(Math.min(at + CHUNK, records.length), records.length);
    }
  } finally {
    bar.done();
  }
}

/** The most rows whose keys make a `sampleQuantiles` pre-split (the engine's own sample size). */
const QUANTILE_SAMPLE = 10000;

/**
 * The rows of `--records FILE` (from `loadRecords`) with the design fitted to them: its record count is theirs (the
 * time windows span the workload's records at its write rate), and a `sampleQuantiles`
 * pre-split without a sample of its own is cut at the quantiles of these rows' keys (every
 * k-th row, at most 10,000), not of the generated workload's. Analysis and read plans both
 * use the fitted design, so they see the same regions.
 */
function loadFed(design, { records, where }) {
  const fitted = { ...design, workload: { ...(design.workload ?? {}), records: records.length } };
  const presplit = design.regions?.presplit;
  if (presplit?.kind === 'sampleQuantiles' && presplit.sample == null) {
    const step = Math.ceil(records.length / QUANTILE_SAMPLE);
    const picked = records.filter((_, i) => i % step === 0);
    const sample = [];
    engine(() => {
      const codec = new api.KeyCodec(design);
      try {
        inChunks(
          picked,
          i => where(i * step),
          'sampling',
          chunk => {
            const { keys, offsets } = codec.encodeAll(chunk);
            for (let i = 0; i + 1 < offsets.length; i++)
              sample.push(api.toStringBinary(keys.subarray(offsets[i], offsets[i + 1])));
          },
        );
      } finally {
        codec.free();
      }
    });
    fitted.regions = { ...design.regions, presplit: { ...presplit, sample } };
  }
  return { records, where, design: fitted };
}

/** Feed the rows to a session in chunks (progress on a TTY); an engine error names the record's line. */
function feedRecords({ records, where, design }, options) {
  return engine(() => {
    const s = new api.AnalysisSession(design, options);
    try {
      inChunks(records, where, 'analyzing', chunk => s.feed(chunk));
      return s.finish();
    } finally {
      s.free();
    }
  });
}

/** The design's analysis: its generated workload, or the rows `fed` (from `loadFed`). */
function runAnalysis(design, opt, fed) {
  const options = windowsOption(opt);
  if (fed) return feedRecords(fed, options);
  if (process.stderr.isTTY) {
    return engine(() => {
      const s = new api.AnalysisSession(design, options);
      const bar = progressBar('analyzing');
      try {
        for (;;) {
          const p = s.step(20000);
          bar.update(p.done, p.total);
          if (p.finished) break;
        }
        return s.finish();
      } finally {
        bar.done();
        s.free();
      }
    });
  }
  return engine(() => api.analyzeDesign(design, options));
}

function readPlans(design) {
  return engine(() => api.planReads(design));
}

/** `--windows N` as analysis options (undefined: the engine's default). */
function windowsOption(opt) {
  if (opt.windows === undefined) return undefined;
  if (!/^\d+$/.test(String(opt.windows))) {
    throw new CliError(EXIT.USAGE, `--windows must be a whole number of time windows, not ${opt.windows}`);
  }
  return { windows: Number(opt.windows) };
}

/** The key to decode: `<key>` as toStringBinary text, or `--hex`. */
function keyArg(text, hexText) {
  if (hexText !== undefined) {
    if (text !== undefined) throw new CliError(EXIT.USAGE, 'give the key once: <key> or --hex, not both');
    const h = String(hexText).replace(/^0x/i, '');
    const bad = h.search(/[^0-9a-fA-F]/);
    if (bad >= 0) throw new CliError(EXIT.INPUT, `--hex: "${h[bad]}" at character ${bad + 1} is not a hex digit`);
    if (h.length % 2) throw new CliError(EXIT.INPUT, `--hex: ${h.length} hex digits, not whole bytes (an even number)`);
    return Uint8Array.from(h.match(/../g) ?? [], x => parseInt(x, 16));
  }
  if (text === undefined) throw new CliError(EXIT.USAGE, 'missing <key> (as the HBase shell prints it) or --hex <hex>');
  return api.toBytesBinary(text);
}

/** Region indexes as runs: [0, 1, 2, 5] -> "0-2, 5". */
function regionRuns(regions) {
  const runs = [];
  for (const r of regions) {
    const last = runs[runs.length - 1];
    if (last && r === last[1] + 1) last[1] = r;
    else runs.push([r, r]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
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

const COMMANDS = {
  regions(pos, opt) {
    if (pos[0] === undefined)
      throw new CliError(
        EXIT.USAGE,
        'missing <FILE> (get_splits or list_regions output, a SPLITS_FILE, ...; - for stdin)',
      );
    const list = loadRegions(pos[0], opt.table);
    const FROM = {
      regionNames: 'region names',
      create: 'a create statement',
      list: 'a list of keys',
      lines: 'one key per line',
    };
    const now = measured(list);
    out(opt, list, () =>
      [
        `${list.regions} region${list.regions === 1 ? '' : 's'}${list.table ? ` of table ${list.table}` : ''}, read from ${FROM[list.source]}` +
          (list.source === 'regionNames' ? ` (${list.verified} checked against their MD5)` : ''),
        ...list.notes.map(n => `* ${n}`),
        ...(now
          ? [
              '',
              table(
                list.load.map((l, i) => [
                  i,
                  l.startKey,
                  l.server ?? '-',
                  l.requests ?? '-',
                  l.writes ?? '-',
                  pctOf(now.shares[i]),
                  l.storeFileMb ?? '-',
                ]),
                ['region', 'start', 'server', 'requests', 'writes', `% of ${now.what}`, 'MB'],
                [1, 2],
              ),
            ]
          : []),
        '',
        // the regions section --regions would give a design without one
        JSON.stringify({ regions: onRegions({}, list).regions }, null, 2),
      ].join('\n'),
    );
  },
  presets(_pos, opt) {
    const list = api.listPresets();
    out(opt, list, () =>
      table(
        list.map(p => [p.id, p.name ?? '']),
        ['id', 'name'],
      ),
    );
  },
  encode(pos, opt) {
    const design = loadDesign(pos[0]);
    if (opt.records !== undefined) {
      if (opt.record !== undefined) throw new CliError(EXIT.USAGE, 'give --record or --records, not both');
      const { records, where } = loadRecords(opt.records);
      const rows = [];
      engine(() => {
        const codec = new api.KeyCodec(design);
        try {
          inChunks(records, where, 'encoding', chunk => {
            const { keys, offsets } = codec.encodeAll(chunk);
            for (let i = 0; i + 1 < offsets.length; i++) {
              const k = keys.subarray(offsets[i], offsets[i + 1]);
              rows.push({ hex: hex(k), binary: api.toStringBinary(k) });
            }
          });
        } finally {
          codec.free();
        }
      });
      return out(opt, rows, () => rows.map(r => `${r.hex}\t${r.binary}`).join('\n'));
    }
    if (opt.record === undefined) throw new CliError(EXIT.USAGE, "missing --record '{...}' or --records FILE");
    let record;
    try {
      record = JSON.parse(opt.record);
    } catch (e) {
      throw new CliError(EXIT.INPUT, `--record: ${e.message}`);
    }
    const key = engine(() => api.encodeKey(design, record));
    const res = { hex: hex(key), binary: api.toStringBinary(key) };
    out(opt, res, () => `hex     ${res.hex}\nbinary  ${res.binary}`);
  },
  decode(pos, opt) {
    const design = loadDesign(pos[0]);
    const key = keyArg(pos[1], opt.hex);
    const d = engine(() => api.decodeKey(design, key));
    const layout = engine(() => api.keyLayout(design));
    const segments = d.spans.map(([a, b], i) => ({
      segment: layout[i]?.text ?? '',
      start: a,
      end: b,
      bytes: api.toStringBinary(key.subarray(a, b)),
    }));
    const res = { keyHex: hex(key), key: api.toStringBinary(key), ...d, segments };
    out(opt, res, () => {
      const lines = [`key  ${res.key}`, `hex  ${res.keyHex}`, ''];
      lines.push(
        table(
          d.fields.map(f => [f.name, JSON.stringify(f.value), f.exact ? 'yes' : 'partly', f.note ?? '']),
          ['field', 'value', 'in key', 'note'],
        ),
      );
      for (const u of d.unrecoverable) lines.push(`${u.field}: not recoverable (${u.reason})`);
      lines.push(
        '',
        table(
          segments.map(s => [s.segment, `${s.start}..${s.end}`, s.bytes]),
          ['segment', 'bytes', 'text'],
          [2],
        ),
        '',
      );
      lines.push(
        d.verified === false
          ? "NOT this design's key: its fields re-encode to other bytes"
          : d.verified
            ? 'verified: the fields re-encode to this key'
            : 'not verifiable: a field the key uses is missing, drawn at random, or kept only in part where a salt or hash reads it',
      );
      return lines.join('\n');
    });
    return d.verified === false ? EXIT.BUDGET : EXIT.OK;
  },
  layout(pos, opt) {
    const design = loadDesign(pos[0]);
    const layout = engine(() => api.keyLayout(design));
    const width = w => (w === 'variable' ? 'variable' : `${w.fixed}`);
    out(opt, layout, () =>
      table(
        layout.map((s, i) => [
          i,
          s.offset ?? '-',
          width(s.width),
          s.text + (s.conditional ? ' (some records)' : ''),
          s.encoding,
        ]),
        ['#', 'offset', 'width', 'segment', 'bytes'],
      ),
    );
  },
  compare(pos, opt) {
    if (pos.length < 2 || pos.length > 4)
      throw new CliError(EXIT.USAGE, `compare takes 2 to 4 designs, not ${pos.length}`);
    const designs = pos.map(loadDesign);
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
          ]),
          ['design', 'regions', 'hotspot', 'worst window', 'active/window', 'gini'],
        ) +
        `\n\nhotspot: busiest region / mean region in a time window, mean over ${c.windows} windows (1.00 is even)` +
        c.designs
          .flatMap((d, i) =>
            d.diagnosis.length ? ['', `${d.name || pos[i]}:`, ...d.diagnosis.map(x => `* ${x}`)] : [],
          )
          .map(x => `\n${x}`)
          .join(''),
    );
  },
  splits(pos, opt) {
    const algo = { hex: 'HexStringSplit', decimal: 'DecimalStringSplit', uniform: 'UniformSplit' }[
      pos[0]?.toLowerCase()
    ];
    if (!algo) {
      if (pos[0] === undefined)
        throw new CliError(EXIT.USAGE, 'expected hex, decimal or uniform and a region count, or a design');
      if (pos.length > 1) throw new CliError(EXIT.USAGE, `expected hex, decimal or uniform, not ${pos[0]}`);
      const design = loadDesign(pos[0]);
      return printSplits(
        opt,
        engine(() => api.layoutSplitKeys(design)),
      );
    }
    const n = Number(pos[1]);
    if (pos[1] === undefined || !Number.isInteger(n)) throw new CliError(EXIT.USAGE, 'expected a region count N');
    const o = {};
    if (opt.firstRow !== undefined) o.firstRow = opt.firstRow;
    if (opt.lastRow !== undefined) o.lastRow = opt.lastRow;
    printSplits(
      opt,
      engine(() => api.splitKeys(algo, n, o)),
    );
  },
  lint(pos, opt) {
    const design = loadDesign(pos[0]);
    const findings = engine(() => api.lintDesign(design));
    out(opt, findings, () =>
      findings.length
        ? table(
            findings.map(f => [f.severity, f.rule, f.segment ?? '-', f.message]),
            ['severity', 'rule', 'segment', 'reason'],
          )
        : 'no findings',
    );
    return findings.some(f => f.severity === 'error') ? EXIT.BUDGET : EXIT.OK;
  },
  analyze(pos, opt) {
    const list = loadRegions(opt.regions, opt.table);
    const design = onRegions(loadDesign(pos[0]), list);
    const fed = opt.records === undefined ? undefined : loadFed(design, loadRecords(opt.records));
    const r = runAnalysis(design, opt, fed);
    const reads = readPlans(fed?.design ?? design);
    // --json: the key sample as rows {keyHex, key, region} (the engine hands it over as typed
    // arrays), the form the native report serializes.
    const s = r.sample;
    const sample = Array.from(s.regions, (region, i) => {
      const k = s.keys.subarray(s.offsets[i], s.offsets[i + 1]);
      return { keyHex: hex(k), key: api.toStringBinary(k), region };
    });
    out(opt, { ...r, sample, reads, ...(list?.load?.length ? { tableLoad: list.load } : {}) }, () => {
      const m = r.metrics;
      const lines = [
        `${r.writes} writes, ${r.regions.length} regions, ${r.windows} windows of ${r.windowMs} ms`,
        `hotspot factor: overall ${m.overall.hotspotFactor.toFixed(2)}, mean per window ${m.meanHotspotFactor.toFixed(2)}, max ${m.maxHotspotFactor.toFixed(2)}`,
        `active regions per window ${m.meanActiveRegions.toFixed(1)}, empty regions ${m.overall.emptyRegions}, gini ${m.overall.gini.toFixed(3)}`,
        '',
        table(
          r.regions.map(g => [g.index, g.startKey, g.endKey, g.writes, g.rows]),
          ['region', 'start', 'end', 'writes', 'rows'],
          [1, 2],
        ),
      ];
      const now = measured(list);
      // The table's regions as they take load now beside this design's writes on them (while
      // no simulated auto-split changed the regions).
      if (now && r.regions.length === list.load.length) {
        const design = r.regions.map(g => (r.writes ? g.writes / r.writes : 0));
        const hot = argmax(design);
        lines.push(
          '',
          table(
            list.load.map((l, i) => [i, l.startKey, l.server ?? '-', pctOf(now.shares[i]), pctOf(design[i])]),
            ['region', 'start', 'server', `% of ${now.what} now`, '% of writes, this design'],
            [1, 2],
          ),
          `busiest region now: ${now.busiest} (${pctOf(now.shares[now.busiest])} % of ${now.what}); with this design: ${hot} (${pctOf(design[hot])} % of writes)`,
        );
      }
      // Per region server. On named servers (the table's placement, or the design's own) the
      // engine counted each server's writes, split daughters included; the load now is summed
      // by the server each region is on.
      if (r.servers.length > 1) {
        const nowOn = new Map();
        if (now)
          for (const [i, l] of list.load.entries()) nowOn.set(l.server, (nowOn.get(l.server) ?? 0) + now.shares[i]);
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
      if (r.diagnosis?.length) lines.push('', ...r.diagnosis.map(d => `* ${d}`));
      return lines.join('\n');
    });
  },
  reads(pos, opt) {
    const design = onRegions(loadDesign(pos[0]), loadRegions(opt.regions, opt.table));
    const plans = readPlans(design);
    const tableName = opt.shell;
    // A plan's limit is the scan's LIMIT (a get reads one row anyway). As in www/results.js.
    const limited = (cmd, n) =>
      !n || !cmd.startsWith('scan ')
        ? cmd
        : cmd.endsWith('}')
          ? `${cmd.slice(0, -1)}, LIMIT => ${n}}`
          : `${cmd}, {LIMIT => ${n}}`;
    const shell = (sc, p) =>
      limited(
        engine(() => api.shellScan(tableName, api.toBytesBinary(sc.startRow), api.toBytesBinary(sc.stopRow))),
        p.limit,
      );
    const res =
      tableName === undefined
        ? plans
        : plans.map(p => ({ ...p, scans: p.scans.map(sc => ({ ...sc, shell: shell(sc, p) })) }));
    const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
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
  },
  examples(pos, opt) {
    const design = loadDesign(pos[0]);
    const examples = design.examples ?? [];
    // What the linter's example-key rule says of each (it skips the bytes random(...) draws).
    const findings = new Map(
      engine(() => api.lintDesign(design))
        .filter(f => f.rule === 'example-key')
        .map(f => [f.example, f]),
    );
    const codec = engine(() => new api.KeyCodec(design));
    let rows;
    try {
      rows = examples.map((ex, i) => {
        let now = null,
          error = null;
        try {
          now = codec.encode(ex.record);
        } catch (e) {
          error = e.reason ?? e.message;
        }
        const recorded = ex.key != null || ex.keyBinary != null;
        const status = !recorded
          ? error
            ? 'error'
            : 'unrecorded'
          : findings.has(i)
            ? error
              ? 'error'
              : 'moved'
            : 'same';
        return {
          index: i,
          record: ex.record,
          key: ex.key ?? null,
          keyBinary: ex.keyBinary ?? null,
          keyNow: now && hex(now),
          keyBinaryNow: now && api.toStringBinary(now),
          status,
          message: findings.get(i)?.message ?? error,
        };
      });
    } finally {
      codec.free();
    }
    const failed = rows.some(r => findings.has(r.index) && !(opt.update && r.status === 'moved'));
    if (opt.update) {
      const updated = examples.map((ex, i) => {
        const r = rows[i];
        if (r.status !== 'moved') return ex;
        return {
          ...ex,
          ...(ex.key != null ? { key: r.keyNow } : {}),
          ...(ex.keyBinary != null ? { keyBinary: r.keyBinaryNow } : {}),
        };
      });
      for (const r of rows)
        if (r.status === 'error' && findings.has(r.index)) console.error(`rowkey-lab: ${r.message} (its key is kept)`);
      console.log(JSON.stringify({ ...design, examples: updated }, null, 2));
      return failed ? EXIT.BUDGET : EXIT.OK;
    }
    out(opt, rows, () => {
      if (!rows.length) return 'The design has no examples.';
      const cells = rows.map(r => [
        r.index,
        r.status,
        r.keyBinaryNow ?? '-',
        r.status === 'moved' || r.status === 'error' ? recordedText(r) : '',
      ]);
      const lines = [table(cells, ['#', 'status', 'key now', 'recorded (when not the same)'], [2, 3])];
      for (const r of rows)
        if (r.status === 'error') lines.push(findings.has(r.index) ? r.message : `example ${r.index}: ${r.message}`);
      const count = status => rows.filter(r => r.status === status && findings.has(r.index)).length;
      const [moved, broken] = [count('moved'), count('error')];
      lines.push(
        [
          moved && `${moved} of ${rows.length} examples moved (rowkey-lab examples --update rewrites their keys)`,
          broken && `${broken} the design cannot write (edit the record)`,
        ]
          .filter(Boolean)
          .join('; ') || 'every recorded key is what the design writes',
      );
      return lines.join('\n');
    });
    return failed ? EXIT.BUDGET : EXIT.OK;
  },
  check(pos, opt) {
    const maxHot = Number(opt.maxHotspot ?? 2.0);
    const maxScans = Number(opt.maxScans ?? 16);
    // A hotspot factor is busiest / mean, never below 1; a read needs at least one scan. A budget
    // under either could never pass: that is a mistake in the command, not a finding.
    if (!Number.isFinite(maxHot) || maxHot < 1)
      throw new CliError(
        EXIT.USAGE,
        `--max-hotspot must be a number of at least 1 (busiest region / mean region), not ${opt.maxHotspot}`,
      );
    if (!Number.isInteger(maxScans) || maxScans < 1)
      throw new CliError(EXIT.USAGE, `--max-scans must be a whole number of at least 1, not ${opt.maxScans}`);
    const maxServerHot = opt.maxServerHotspot === undefined ? undefined : Number(opt.maxServerHotspot);
    if (maxServerHot !== undefined && !(Number.isFinite(maxServerHot) && maxServerHot >= 1))
      throw new CliError(
        EXIT.USAGE,
        `--max-server-hotspot must be a number of at least 1 (busiest server / mean server), not ${opt.maxServerHotspot}`,
      );
    // The severities each --lint level fails on, and what an ok line says about lint.
    const LINT = {
      error: [['error'], ', no lint errors'],
      warning: [['error', 'warning'], ', no lint warnings or errors'],
      off: [[], ''],
    };
    if (!LINT[opt.lint ?? 'error'])
      throw new CliError(EXIT.USAGE, `--lint must be error, warning or off, not ${opt.lint}`);
    const [failOn, clean] = LINT[opt.lint ?? 'error'];
    if (!pos.length) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file or a preset id)');
    // Every design and the rows are read before any design is analyzed: a typo in the last
    // path fails at once, and the rows are read once for all designs.
    const list = loadRegions(opt.regions, opt.table);
    const designs = pos.map(p => onRegions(loadDesign(p), list));
    const rows = opt.records === undefined ? undefined : loadRecords(opt.records);
    const results = designs.map((design, i) => {
      const fed = rows && loadFed(design, rows);
      const r = runAnalysis(design, opt, fed);
      const reads = readPlans(fed?.design ?? design);
      const hot = r.metrics.meanHotspotFactor;
      const breaches = [];
      if (hot > maxHot) breaches.push(`hotspot factor ${hot.toFixed(2)} > ${maxHot}`);
      const serverHot = r.serverMetrics.hotspotFactor;
      const named = r.servers.some(s => s.name !== null);
      if (maxServerHot !== undefined && serverHot > maxServerHot) {
        const busiest = r.servers[r.serverMetrics.busiestRegion ?? 0];
        breaches.push(
          `server hotspot factor ${serverHot.toFixed(2)} > ${maxServerHot} (busiest: ${busiest?.name ?? `server ${busiest?.index ?? 0}`}, ${pctOf(r.serverMetrics.busiestShare)} % of the writes on ${r.servers.length} servers${named ? ' placed as the table has them' : ''})`,
        );
      }
      for (const p of reads)
        if (p.scans.length > maxScans) breaches.push(`read "${p.name}" needs ${p.scans.length} scans > ${maxScans}`);
      // The examples are key tests, failed whatever --lint says: an example whose recorded key
      // the design no longer writes is a row stored where this design will not look.
      const findings = engine(() => api.lintDesign(design));
      const examples = findings.filter(f => f.rule === 'example-key');
      breaches.push(...examples.map(f => f.message));
      const lint = findings.filter(f => f.rule !== 'example-key' && failOn.includes(f.severity));
      for (const f of lint)
        breaches.push(
          `lint ${f.severity} ${f.rule}${f.segment == null ? '' : ` (segment ${f.segment})`}: ${f.message}`,
        );
      return {
        design: pos[i],
        ok: breaches.length === 0,
        hotspotFactor: hot,
        serverHotspotFactor: serverHot,
        maxScans: Math.max(0, ...reads.map(p => p.scans.length)),
        lint,
        examples,
        breaches,
      };
    });
    const serverOk = res =>
      maxServerHot === undefined ? '' : `, server hotspot ${res.serverHotspotFactor.toFixed(2)} <= ${maxServerHot}`;
    const verdict = res =>
      res.ok
        ? `ok: hotspot ${res.hotspotFactor.toFixed(2)} <= ${maxHot}${serverOk(res)}, scans ${res.maxScans} <= ${maxScans}${clean}`
        : `FAIL:\n${res.breaches.map(b => `  ${b}`).join('\n')}`;
    if (results.length === 1) {
      const { design, ...res } = results[0];
      out(opt, res, () => verdict(res));
    } else {
      out(opt, results, () => results.map(res => `${res.design}: ${verdict(res)}`).join('\n'));
    }
    return results.every(res => res.ok) ? EXIT.OK : EXIT.BUDGET;
  },
};

function main(argv) {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(HELP.main);
    return cmd ? EXIT.OK : EXIT.USAGE;
  }
  if (!COMMANDS[cmd])
    throw new CliError(
      EXIT.USAGE,
      `unknown command ${cmd}${didYouMean(cmd, Object.keys(COMMANDS))} (see rowkey-lab --help)`,
    );
  const { pos, opt } = parseArgs(cmd, rest);
  if (opt.help) {
    console.log(HELP[cmd]);
    return EXIT.OK;
  }
  const { maxArgs: max } = USAGE[cmd];
  if (pos.length > max)
    throw new CliError(
      EXIT.USAGE,
      `${cmd} takes at most ${max} argument${max === 1 ? '' : 's'}, got ${pos.length} (unexpected: ${pos.slice(max).join(' ')})`,
    );
  return COMMANDS[cmd](pos, opt) ?? EXIT.OK;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof CliError)) {
    console.error(`rowkey-lab: ${e.stack ?? e}`);
    process.exitCode = EXIT.INPUT;
  } else {
    console.error(`rowkey-lab: ${e.message}`);
    process.exitCode = e.code;
  }
}
