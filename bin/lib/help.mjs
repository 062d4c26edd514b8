// The help texts: `rowkey-lab --help` (main) and `rowkey-lab <command> --help`. docs/cli.md is
// written from them (scripts/cli-doc.mjs).
import { LIMITS, mib } from './input.mjs';

/** Each command's help, and the overview as `main`. */
export const HELP = {
  main: `rowkey-lab <command> [options]

Commands:
  encode <design> --record '{...}'     encode one record to its row key
  encode <design> --records FILE       encode many (CSV, JSON Lines, Parquet, Arrow)
  decode <design> <key> | --hex H      the fields of a row key, segment by segment
  layout <design>                      the key's byte layout: offset, width, encoding
  splits hex|decimal|uniform <N>       the N-1 split keys of RegionSplitter's algorithm
  splits <design> [--create TABLE]     the design's pre-split keys (SPLITS_FILE lines, or
                                       the HBase shell's create statement)
  analyze <design> [--records F] [--json]
                                       run the design's workload (or your rows: CSV, JSON
                                       Lines, Parquet, Arrow): regions, hotspots, reads
  profile <design> --records F         what your rows do to the key: per field its nulls,
                                       distinct and heaviest values, order; per key its
                                       lengths and distinct prefixes
  reads <design> [--shell TABLE]       each read's scans (start and stop rows, regions), or
                                       the HBase shell scan commands that run them
  lint <design> [--json]               lint findings of a design
  examples <design> [--update]         the design's examples: the key each record gets now
                                       against the one recorded (--update: the design with
                                       the keys rewritten, on stdout)
  check <design>... [--max-hotspot F] [--max-server-hotspot F] [--max-scans N] [--lint LEVEL]
                   [--max-empty-regions N] [--max-regions-per-server N] [--json]
                                       exit 1 when a design breaks a budget or has a lint
                                       error (for CI)
  compare <design> <design> [...]      2-4 designs' skew side by side, one workload
  advise <design> [--servers N] [--records N] [--json]
                                       candidate keys, salts and pre-splits evaluated on
                                       every core: the Pareto front, a recommendation
                                       with its reasons, capacity and lifecycle
  life <design> [--months N] [--servers N] [--policy P] [--ttl T] [--normalizer]
       [--records FILE [--time COL]]   months of the table under HBase's own rules:
                                       splits, flushes, compactions, TTL, balancer,
                                       normalizer; regions, sizes and empty regions;
                                       the writes of your rows with --records
  regions <FILE> [--table T]           a table's current regions, read from get_splits,
                                       list_regions, a hbase:meta scan, a SPLITS_FILE or a
                                       create statement, as a design's pre-split
  observe DIR|FILE... [<design>]       a live table's regions over time from snapshots
                                       (RegionServer /jmx dumps, list_regions, status
                                       'detailed'): reads/s, writes/s and growth per
                                       interval; splits, moves, reopens and gaps; beside
                                       the design's share of writes
  rekey <old> <new> --records FILE [--regions N] [--by rows|bytes]
                                       the move from the old design's table to the
                                       new one's: split points from the rows re-encoded,
                                       the job sized, the statements and the cutover
  rekey <old> <new> --series FILE... --regions N
                                       the same, estimated from the old table's
                                       snapshots alone (observe's files)
  verify <old> <new> --old-rows F --new-rows F
                                       after a rekey: every old row in the new table
                                       under its new key, once, with every cell
  watch URL... --out DIR [--every 60s] poll RegionServers' /jmx and write timestamped
                                       snapshots for observe
  presets [--json]                     list the built-in presets
  create-table <design> [--json]       a Phoenix design's CREATE TABLE statement

<design> is a design document (JSON file path), a Phoenix CREATE TABLE statement (a .sql
file: its primary key, SALT_BUCKETS and SPLIT ON become the design) or a preset id (see
\`rowkey-lab presets\`).
analyze, check and reads take --regions FILE [--table T]: the design on a table's current
regions (what \`regions FILE\` reads) instead of its own pre-split. FILE - is stdin.
Every command takes --help and --json (machine-readable output on stdout).
rowkey-lab --version says the version and the engine that runs: the native one when the
platform's package (rowkey-lab-linux-x64-gnu, ...) is installed, else WebAssembly;
ROWKEY_LAB_ENGINE=wasm|native chooses.
Text from your files and servers (names, values, a dump's server) is printed with the
characters a terminal acts on (controls, ESC sequences, bidi overrides) as \\xNN escapes,
as keys are; --json gives it as it is, JSON-escaped.
Inputs are read as UTF-8 text (binary data or another encoding is refused at its byte
offset) up to a cap: a design ${mib(LIMITS.design.bytes)}, region text ${mib(LIMITS.regions.bytes)}, one record ${mib(LIMITS.record.bytes)}; --records FILE
is read as a stream, of any length (docs/limits.md).

Exit codes:
  0  success
  1  check: a budget is exceeded; lint: a finding of severity "error"; decode: the key is
     not one the design writes (its fields encode to other bytes, e.g. another salt);
     examples: an example's recorded key is not what the design writes for its record
  2  usage error (unknown command or option, missing or extra argument)
  3  input error (unreadable, binary or too large input, invalid design, bad record or key,
     engine error)`,
  encode: `rowkey-lab encode <design> --record '<json>' [--json]
rowkey-lab encode <design> --records FILE|- [--format F] [--map F=C]... [--nulls error|skip] [--json]
Encodes one record (JSON object of field values) with the design's key and prints the key
as hex and as Bytes.toStringBinary; with --records, every row of FILE in any format analyze
--records reads (CSV, JSON Lines or a JSON array, Parquet, Arrow IPC; the same flags), one
key per line in the file's order: hex, a tab, toStringBinary (a TSV a spreadsheet can open:
a key whose text would start with =, +, - or @ has that first character as its escape, \\x3D,
\\x2B, \\x2D or \\x40, so it is never read as a formula, and decode and the HBase shell read the
same bytes; --json gives the text unchanged). Read once, by the engine's rows
reader, each slice's keys printed before the next is read: FILE is never held whole. A bad
row is named by its line or row and column and stops the run (exit 3), after the keys of the
rows before it; --nulls skip leaves out rows with a null in a key field.`,
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
rowkey-lab splits <design> --records FILE --regions N [--by rows|bytes] [--map F=C]... [--nulls skip] [--create TABLE]
Prints the N-1 split keys of HexStringSplit / DecimalStringSplit / UniformSplit as HBase's
RegionSplitter computes them, or a design's pre-split keys (its regions layout: salt
buckets, a split algorithm, sample quantiles), one per line in Bytes.toStringBinary: the
format of the HBase shell's SPLITS_FILE.
  --records FILE  with --regions N: the keys that cut your rows (any format analyze reads)
                  into N regions of equal rows, from every row's key encoded as HBase stores
                  it: exact while the rows fit the memory kept for them (--keep-mib, 256 MiB:
                  about eight million 16-byte keys); beyond, a uniform sample of a million
                  rows, said on stderr. A key that opens with salt buckets keeps each bucket
                  whole: every bucket starts a region (the rest go to the heaviest buckets),
                  or, with fewer regions than buckets, each region holds whole buckets
  --by bytes      regions of equal bytes instead of rows (each row weighed as the analysis
                  counts its write: its key and the design's valueSize); default rows
  --create TABLE  print the shell statement instead: create 'TABLE', 'F', SPLITS => [...]
                  (a Phoenix design's indexes: each CREATE INDEX after it, as a comment)
  --family F      its column family (default cf)`,
  rekey: `rowkey-lab rekey <old> <new> --records FILE [--regions N [--by rows|bytes]] [--family F] [--table T] [--new-table T] [--parallelism N] [--read-mib-s X] [--write-mib-s X] [--compression X] [--max-file-size BYTES] [--job spark|mapreduce|phoenix] [--json]
Plans the move of a table from the old design's key to the new one's, on the old table's rows
(FILE, any format analyze reads): where each field of the new key comes from (a column, or the
old key when it gives the field back whole); the new table's split keys from the rows
re-encoded with the new key (--regions N: N regions of equal rows, or bytes with --by bytes,
salt buckets kept whole; without it, the new design's own pre-split); per new region its rows, KeyValue bytes (20 + row
+ family + qualifier + value a cell) and the HFiles its reducer writes (rolled at
--max-file-size, 10 GiB; more than 32 refused by completebulkload); the job's bytes read,
shuffled and written, its straggler and an estimated time (--parallelism 8 tasks,
--read-mib-s 100 and --write-mib-s 50 unless given); the create statement, SPLITS_FILE and a
Phoenix design's SPLIT ON; what to watch (timestamps, TTL); and the cutover checklist with the
numbers in. --json: the plan, its split keys as \`splitKeys\` in the shape \`splits --json\` uses.

rowkey-lab rekey <old> <new> --series FILE... --regions N [--table T] [--sample N] [the job's options] [--json]
Without the rows: the old table as a snapshot series shows it (FILE...: RegionServer /jmx dumps,
list_regions or status 'detailed' output, a folder of them; what observe reads), its regions'
sizes and requests at the last interval with a rate. The new split keys (N regions by bytes),
the job and the checklist are ESTIMATES: the old design's workload (--sample N records, default
100,000) stands for the rows, each record placed in the observed region its old key falls in and
weighted by that region's bytes, so a region's rows are taken as spread within its range as the
generators put them. Each new region's bytes come with how far off they can be (two standard
errors of the sample, plus regions no record reached); how far the generators are from the real
rows is not bounded: plan from the rows before the load. --json adds \`estimate\`.
  --family F      the column family (default cf)
  --table T, --new-table T   the tables' names in the statements (default t, T_new): names
                  HBase takes ([namespace:]name, of a-z A-Z 0-9 _ - .); with
                  --series, --table T is also the table the files are read for
  --job P         print only the job's text for path P: spark (rekey_df at the new split
                  keys), mapreduce (a snapshot -> HFiles -> completebulkload template to
                  compile against your HBase) or phoenix (UPSERT SELECT, both Phoenix tables)`,
  verify: `rowkey-lab verify <old> <new> --old-rows FILE --new-rows FILE [--ignore COL]... [--columns A,B] [--map F=C]... [--nulls skip] [--json]
After a rekey, compares the old table's rows with the new table's (exports in any format analyze
reads), both read through the new design: each row as its new key (a Phoenix primary key
too) and a digest of every column both exports hold, the key's and every other, whether or
not the design declares it (an empty cell is a value). Equal when every old row is in the new
table once under its new key with the same values, nothing else is, and no column is in one
export only; else the rows missing from the new table, the extra ones and the changed ones
(same key, another value), the first differences named by their new key. The output says
which columns were compared (and as what type), which were ignored and why, and which are in
one export only. A column whose type differs between the exports (an integer and its text,
ms and µs) is compared as values, or refused with its name. Two passes of bounded memory:
counts and order-free digests in 4,096 buckets of the new key's hash, then only the rows of
the buckets that differ, matched by key; each export is read more than once, so it must be a
file (not stdin or a pipe). Exit 1 when not equal.
  --ignore COL    leave column COL out (repeatable): a column one export lacks is then expected
  --columns A,B   compare only these columns (and the new key's); the rest are ignored`,
  analyze: `rowkey-lab analyze <design> [--windows N] [--records FILE [--format F] [--map F=C]... [--time COL] [--nulls error|skip]] [--threads N] [--json]
Runs the design's workload over its region layout and prints per-region writes, hotspot
metrics, the diagnosis and read costs. A Phoenix design's indexes are analyzed as the tables
they are, over the same workload or the same rows (--records: each global index's table
counted in the reading that counts the data table's): each one's regions, its busiest
region's share of a window's writes beside the data table's, its writes per data
put/update/delete and bytes (estimates marked ≈), and each read through the table Phoenix
would pick beside the data table alone. Progress goes to stderr when stderr is a terminal.
  --threads N     worker threads counting the generated workload (default: every core), each
                  a run of its blocks of 65,536 records, or reading --records FILE's chunks
                  (row groups, runs of lines, each with its Phoenix index keys); the result
                  does not depend on it
  --records FILE  your own rows instead of the generated workload: CSV (with a header),
                  JSON Lines or one JSON array of objects, Parquet, or Arrow IPC; the format
                  from --format, else the file's first bytes, else its extension. Columns meet
                  the design's fields by name (--map FIELD=COLUMN where they differ); a
                  field the key names and the design does not declare is declared from the
                  file (a time segment's a timestamp, dec/long/int/short's a long, else the
                  column's own type; a CSV column is text), printed with why. Read
                  once, the rows kept in memory for the analysis (see --keep-mib), else in two
                  passes (the rows' count and time span, then the analysis), never whole: a
                  Parquet file by row group, only the key's columns (FILE - is copied to a
                  temporary file). A sampleQuantiles pre-split is cut at these rows' keys.
  --format F      csv, jsonl, parquet, arrow or arrow-stream
  --map F=C       field F reads column C (repeat for more fields)
  --time COLUMN   the column of each row's write time: windows span its first to last time,
                  whatever the rows' order. Without it row n is written at the workload's
                  clock (startTime + n * 1000 / writeRate ms), in the file's order
  --nulls P       a row whose key reads a null (an empty CSV field): error (the default,
                  naming row and column) or skip (counted per column in the report)
  --epoch U       the unit of integer times: s, ms, us or ns (default: by magnitude)
  --delimiter C   the CSV delimiter (default: the header's most frequent of , tab ; |)
  --keep-mib N    memory for the rows kept between the passes (default and most 256): rows
                  that fit are read once, counted from memory; 0 reads the file twice
  --regions FILE  the table's current regions instead of the design's pre-split (see
                  \`regions\`); when FILE also says what each region takes now (list_regions'
                  REQ, /jmx dumps), each region's share now is shown beside this design's`,
  life: `rowkey-lab life <design> [--records FILE [--time COL] [--map F=C]...] [--index NAME] [--months N] [--servers N] [--policy P] [--ttl T] [--normalizer] [--set MEMBER=VALUE]... [--json]
Simulates the design's table month by month under HBase's own rules: a memstore flush each time
it reaches the flush size, or after an hour (each one store file), split checks after flushes
and compactions by the split policy (n = the
table's regions on the server, a seeded jitter), the split point at the middle of the largest
store file, daughters that cannot split before compacting, minor and periodic major
compactions, TTL, the normalizer and the balancer. The writes fall over the key space as a
sample of the design's workload shows (a time-led key writes only its last region). Prints
first what the months mean: a headline, then each finding worst first (empty regions, one hot
server, regions per server, ...) with the month it starts, what it means and the change that
fixes it, checked by simulating that change (docs/life.md#what-it-concludes). Then per month:
regions, empty regions, splits, merges, balancer moves, the largest region (its peak in the
month), bytes on disk and within the TTL, the hottest server's share of each hour's writes;
then the first month each guideline is crossed (200 regions per server, the memstore bound,
20 GiB regions, the split limit).
  --index NAME     the months of Phoenix global index NAME's own table (its key, its pre-split,
                   an index row per data write) instead of the data table's
  --months N       months of 30 days, 1 to 120 (default 12)
  --servers N      region servers (default: the design's regionServers)
  --policy P       stepping (HBase's default), increasing, constant, disabled, keyPrefix:N or
                   delimitedKeyPrefix:D (default: the design's autoSplit policy, else stepping)
  --ttl T          the family's TTL: seconds, or a number with s, m, h or d (30d)
  --normalizer     NORMALIZATION_ENABLED on the table (off by default, as in HBase)
  --normalizer-split on|off
                   hbase.normalizer.split.enabled (on): split plans for regions over twice
                   the table's average
  --normalizer-merge on|off
                   hbase.normalizer.merge.enabled (on): merge plans for small regions
  --merge-min-size-mb N
                   hbase.normalizer.merge.min_region_size.mb (1: regions the TTL empties, 0 MB,
                   never merge; 0 merges them)
  --merge-min-age-days N
                   hbase.normalizer.merge.min_region_age.days (3)
  --normalizer-period S
                   hbase.normalizer.period in seconds (300)
  --balancer on|off
                   the balancer switch (on)
  --major-compaction-hours H
                   hbase.hregion.majorcompaction in hours (168; 0 turns periodic majors off)
  --periodic-flush-hours H
                   hbase.regionserver.optionalcacheflushinterval in hours (1; 0: off)
  --compaction exploring|fifo
                   the family's compaction policy (fifo needs --ttl)
  --split-limit N  hbase.regionserver.regionSplitLimit (1000)
  --set MEMBER=VALUE
                   any member of the design's hbase section (docs/design-document.md), e.g.
                   --set compactionRatio=1.5 --set normalizerTargetRegionSizeMb=4096; repeatable
  --hbase V        2.5, 2.6 (default) or 3: where the release lines differ
  --compression R  on-disk bytes per KeyValue byte (default 1: none)
  --step-hours N   hours per simulated step (default 1): 1 to 24 dividing a day, or 0.5, 0.25,
                   0.0833 (5 minutes), to measure what the hour approximates
  --seed N         the seed of the split and major-compaction jitter (default 0)
  --records FILE   your own rows (any format analyze reads, its flags: --time COL, --map F=C,
                   --format, --nulls, --epoch, --delimiter) instead of the generated workload:
                   how their keys fall over the key space, in the order of --time COL (else
                   file order; rows in key order with no time column are taken as written so,
                   and a note says so), at the design's writeRate and valueSize
--json: the engine's report: {policy, months: [{month, regions, emptyRegions, sizeHistogram,
servers, splits, merges, moves, ...}], crossings, regionsAtEnd, notes}.`,
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
  check: `rowkey-lab check <design>... [--max-hotspot F] [--max-server-hotspot F] [--max-scans N] [--lint LEVEL] [--max-empty-regions N] [--max-regions-per-server N] [--months N] [--servers N] [--ttl T] [--windows N] [--records FILE] [--regions FILE] [--threads N] [--json]
Analyzes each design (its workload, or --records FILE as for analyze) and fails (exit 1) when
any design breaks a budget:
  --max-hotspot F  the mean per-window hotspot factor (busiest region / mean region) exceeds F
  --max-server-hotspot F
                   the busiest region server's writes over the run exceed F times the mean
                   server's (not checked unless given; with --regions FILE naming each
                   region's server, the servers are the table's own)
  --max-scans N    any read pattern needs more than N scans
  --lint LEVEL     a lint finding is at LEVEL or worse: error, warning, or off (none counts)
  --max-empty-regions N
                   the design's table, simulated month by month as \`life\` does, has more than
                   N empty regions at a month's end (the first such month is named)
  --max-regions-per-server N
                   the simulated table has more than N of its regions on one server at a
                   month's end
The months take \`life\`'s options: --months N, --servers N, --policy P, --ttl T, --normalizer,
--normalizer-split, --normalizer-merge, --merge-min-size-mb, --merge-min-age-days,
--normalizer-period, --balancer, --major-compaction-hours, --periodic-flush-hours, --compaction,
--split-limit, --set MEMBER=VALUE, --hbase V, --compression R, --step-hours N, --seed N (given
only with a --max-*-regions* budget).
With --records FILE the months take the writes of those rows (their keys in write order, by
--time COL), as \`life --records\` simulates them; the file is read once more for them.
It fails (exit 1) also when one of the design's "examples" has a key (hex, or keyBinary) that the key
design does not write for its record: a key change that moves rows already stored under the
old keys (bytes a random(...) segment draws are not compared).
--threads N counts each generated workload on N worker threads, as for analyze.
Defaults: --max-hotspot 2.0, --max-scans 16, --lint error (what makes \`lint\` exit 1).
--json: {ok, hotspotFactor, serverHotspotFactor, maxScans, lint, examples, breaches, life}: "lint"
the findings counted under --lint, "examples" the example-key findings (each with its "example"
index), "breaches" every reason for the failure as text; "life" (with a months budget) the
months' own verdict {ok, months, emptyRegions, regionsPerServer, breaches}, each figure {limit,
worst, worstMonth, firstMonthOver}; "ok" is false when either fails.
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
regions per window, Gini of the whole run, the distinct rows and cells the same writes make
in each design, and each design's diagnosis. --json adds each design's region matrix, the
per-window metrics and a shared key-space grid (writes per key-space bucket and window).`,
  advise: `rowkey-lab advise <design> [--servers N] [--records N | --records FILE [--sample N]
                  [--format F] [--map F=C]... [--time COL] [--nulls error|skip]] [--windows N]
                  [--threads N] [--ttl T] [--json]
Generates alternatives of the design (salt or not, bucket count, hash, a salt over only the
fields every read fixes, the field order, the time encoding, the pre-split that matches the
key's prefix and its region count), runs each through the analyzer on the same workload and
plans its reads, and prints every candidate (write spread, regions written per window, empty
regions, key bytes, scans per read), the Pareto front, one recommendation with its reasons
(each a gain or a cost against the input) and the capacity after 1, 6 and 12 months. Progress
on stderr. --json prints {recommended: {design, why, metrics, ...}, candidates: [{label,
design, metrics, pareto, flags, ...}], inputFlags, capacity, ...}; every design is a whole
design document.
  --servers N   region servers to design for (default: the design's regionServers)
  --records N   records each candidate is evaluated on (default 200000)
  --records FILE  your own rows instead (CSV, JSON Lines, Parquet, Arrow; the flags as for
                analyze): one pass keeps a sample of them, the rows with the smallest hashes
                of their values, in file order, and every candidate is evaluated on it
  --sample N    rows of FILE in that sample (default 200000, at most 1000000)
  --windows N   time windows of each analysis (default 64)
  --threads N   worker threads (default: every core); the answer does not depend on it
  --ttl T       the column family's TTL, for the lifecycle (regions that empty out, the
                cycle of a cyclic key): seconds, or a number with s, m, h or d (30d), as
                for life; default: the design's hbase.ttlSeconds
  --ttl-days D  the TTL in days: the older spelling of --ttl, still taken
See docs/advise.md.`,
  presets: `rowkey-lab presets [--json]
Lists the built-in preset ids with their names.`,
  'create-table': `rowkey-lab create-table <design> [--json]
Prints the Phoenix CREATE TABLE statement of a design whose key is a Phoenix primary key
(pk(...) columns, after at most one salt(N, hash=phoenix)): the key columns with their types,
NOT NULL and sort order, the design's other Phoenix columns and table options, SALT_BUCKETS,
and SPLIT ON for an explicit pre-split. A .sql <design> prints back normalized (unquoted
names upper-cased). Exit 3 when the key is not a Phoenix primary key. --json: {"sql": ...}.`,
  profile: `rowkey-lab profile <design> --records FILE [--format F] [--map F=C]... [--nulls skip|error] [--json]
Reads your rows once (CSV, JSON Lines or a JSON array, Parquet, Arrow IPC; the options as for
analyze, but a null in a key field is counted, not an error, unless --nulls error) and prints,
per field the design declares, the rows, nulls (rows skipped for a null in a key field count as
their column's), distinct values and the heaviest, min, max and the share
of rows in order; then the keys' lengths and the distinct key prefixes of 1 to 16 bytes. Counts
are exact up to 2^20 distinct values per field or prefix length, else shown as "> N".`,
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
  observe: `rowkey-lab observe DIR|FILE... [<design>] [--table T] [--windows N] [--threads N] [--html FILE] [--json]
A live table's regions over time. HBase keeps each region's counters only as totals since the
region opened; two snapshots a minute apart give its rates over that minute. Each FILE (or
every file of DIR, by name) is one snapshot of one RegionServer or of the whole table:
  a RegionServer's /jmx (curl 'http://RS:16030/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=*'):
      readRequestCount, writeRequestCount, storeFileSize and memStoreSize of each region
      (bean sub=Regions), named by its encoded name
  list_regions output: SERVER_NAME, SIZE and REQ (reads and writes together)
  status 'detailed' output: readRequestsCount, writeRequestsCount, storefileSizeMB and
      memstoreSizeMB of each region on each live server
  region names alone (a scan 'hbase:meta', list_regions): the regions' key ranges, which a
      /jmx dump does not give; each name is checked against its MD5
A file's time is the one in its name (20261126T053600Z, or 13 digits of epoch ms, UTC), else a
full /jmx dump's own (java.lang:type=Runtime: StartTime + Uptime), else the file's modification
time; files within 5 s of each other are one snapshot (one poll of several servers). Each
server's times must rise in the order given: the same time twice, or a clock going backwards,
is an error.
Per interval: each region's reads/s, writes/s, requests/s, share, size and growth, its key
range and server; the busiest regions; per-server sums. What happened between snapshots is
said, never guessed: a split or a merge (the new regions count since they opened), a move to
another server or a reopen (a counter that went down: counted since the reopen, never a
negative rate), a gap (a region not read, or a server's dump missing: no rate).
With <design> (the last argument, when it is a preset id, a .sql file or a .json design), each
region's start key is read through the design's key ("salt 07 · host=web03…", a value the
boundary may cut ending in …), and the design runs on the regions of the last interval with
rates: its share of writes in each region beside the share measured in that interval, the
ratio, each server's shares beside its share of the regions, and a diagnosis in words where
they disagree (a hot salt bucket and its input's value count, a hot range that moves along the
key, a server out of proportion), each with its figures.
  --table T     the table to read when the files have regions of several
  --html FILE   also write a self-contained HTML report (inline CSS and SVG, no script, no
                network): the heatmaps of writes/s, reads/s and size, the busiest regions,
                the events, and the design's comparison and diagnosis
  --windows N   the design's analysis windows
  --threads N   the design's analysis threads`,
  watch: `rowkey-lab watch URL... --out DIR [--every 60s] [--timeout 10s] [--retries 2] [--count N]
Polls each RegionServer's /jmx every interval and writes each answer to DIR as
<time>-<host>_<port>.json (time in UTC, 20261126T053600.123Z), the files \`observe DIR\` reads.
Only the URLs given are contacted. A URL without a path (http://rs1:16030, or rs1:16030) gets
/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=* (each region's counters, and the
server's name). A server that does not answer within --timeout, answers an HTTP error or
something that is not a /jmx dump is tried again --retries times, then said on stderr and
skipped for that poll: observe reports its dump as missing, never guesses it. Polls start
every --every from the first, however long one takes; a file is written whole, then renamed
into place. Runs until interrupted, or --count polls; exit 3 when any poll of a server failed.
  --out DIR      where the snapshots go (made when missing)
  --every D      between polls: 60s (also 500ms, 5m, 1h; a plain number is seconds)
  --timeout D    for one answer: 10s
  --retries N    more tries after a failed one: 2
  --count N      polls to make, then exit`,
};
