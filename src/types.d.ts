// Hand-written TypeScript declarations of rowkey-lab's wasm API (no `any`). scripts/build-npm.sh
// copies this file over wasm-bindgen's generated d.ts, whose JsValue parameters are untyped.
// Every value crosses the boundary as JSON (src/wasm/mod.rs: opts / to_js / doc_arg), so the
// result shapes below are the serde shapes of the Rust types (camelCase; `Option` = `| null`
// unless the field is skipped when empty, then `?`). Every export throws a RowkeyError on bad
// input, never traps. Options objects reject unknown keys (serde deny_unknown_fields).

/* ------------------------------------------------------------------ init */

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
export interface InitOutput { readonly memory: WebAssembly.Memory }
export type SyncInitInput = BufferSource | WebAssembly.Module;

/** Browser/bundler initialisation (a no-op after the first call; the Node entry calls it at import). */
export default function __wbg_init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;
/** Installs the panic hook (called automatically). */
export function start(): void;

/* ------------------------------------------------------------------ errors */

/**
 * What went wrong, by kind. The first six are the Java exceptions HBase's own code throws for
 * the same input (`Bytes`, `RegionSplitter`, Phoenix, HBaseWD):
 * `illegalArgument` (IllegalArgumentException: an argument out of its domain, the usual kind of a
 * bad option or argument), `illegalState`, `negativeArraySize`, `indexOutOfBounds`
 * (ArrayIndexOutOfBoundsException), `arithmetic` (ArithmeticException), `numberFormat`
 * (NumberFormatException: text that should be a number is not); then `parse` (a key design,
 * design document or option could not be parsed) and `invalid` (a value does not fit its
 * declared type or width, or a key is not one the design writes), and `limit` (an input asks for
 * more than a limit checked up front: a row key past HBase's 32,767 bytes, a result too large,
 * too many keys or cells; see docs/limits.md). The Phoenix type layer adds `illegalData` (a value
 * a Phoenix type cannot hold), `dataExceedsCapacity` (a value too wide for its column, e.g. for
 * `DECIMAL(5,2)`) and `constraintViolation` (a row key breaks a table constraint, e.g. a NULL
 * primary-key column).
 */
export type ErrorKind =
  | 'illegalArgument' | 'illegalState' | 'negativeArraySize' | 'indexOutOfBounds'
  | 'arithmetic' | 'numberFormat' | 'parse' | 'invalid' | 'limit'
  | 'illegalData' | 'dataExceedsCapacity' | 'constraintViolation';

/** Every export throws an `Error` carrying the core error's pointer. */
export interface RowkeyError extends Error {
  /** What went wrong, by kind (see `ErrorKind`). */
  kind: ErrorKind;
  /** The message without the location. */
  reason: string;
  /** JSON path or argument name. */
  path?: string;
  /** Byte / UTF-16 offset. */
  offset?: number;
  /** 1-based line and column (in characters) in the text that was parsed: the key text
   * when the error is in a key design's text form (`path` "/key" in a design document),
   * otherwise the JSON text. */
  line?: number;
  column?: number;
}

/* ------------------------------------------------------------------ bytes */

export type FieldType =
  | 'string' | 'long' | 'int' | 'short' | 'double' | 'float' | 'boolean' | 'bigDecimal' | 'timestamp';
export type Bytes = Uint8Array | readonly number[];
export type SplitAlgorithm = 'HexStringSplit' | 'DecimalStringSplit' | 'UniformSplit';

export interface KeyView { hex: string; binary: string }
/** Unknown keys (typos) are an error. `regions` is 2..=4096. */
export interface InspectOptions { type: FieldType; regions: number }
export interface SplitView { algorithm: SplitAlgorithm; splitKeys: KeyView[]; region: number }
export interface Inspection {
  key: KeyView;
  length: number;
  md5Hex: string;
  hashCode: number;
  hashCodeOf: string;
  splits: SplitView[];
}

export function inspect(value: string, options: InspectOptions): Inspection;
export function toBytes(type: FieldType, value: string): Uint8Array;
export function toStringBinary(bytes: Bytes): string;
export function toBytesBinary(text: string): Uint8Array;
export function compareBytes(a: Bytes, b: Bytes): -1 | 0 | 1;
export function md5Hex(bytes: Bytes): string;
export function javaHashCode(text: string): number;
export function bytesHashCode(bytes: Bytes): number;

/* ------------------------------------------------------------------ splits */

export interface SplitKeysOptions { firstRow?: string; lastRow?: string }
/** RegionSplitter `split(n)` (n >= 2): the n-1 split keys. */
export function splitKeys(algorithm: SplitAlgorithm, regions: number, options?: SplitKeysOptions | null): Uint8Array[];
/** `Bytes.split(a, b, inclusive, num)`: `num` keys strictly between `a` and `b` plus both ends. */
export function bytesSplit(a: Bytes, b: Bytes, num: number, inclusive?: boolean): Uint8Array[];
/** The split keys `Admin.createTable(desc, start, end, numRegions)` generates. */
export function createTableSplitKeys(start: Bytes, end: Bytes, numRegions: number): Uint8Array[];
/**
 * 0-based index of the region holding `row` (`[start, end)` rule).
 *
 * `splitKeys` need not be sorted: like HBase's `Admin.createTable(desc, splitKeys)`, which
 * sorts the split keys it is given, they are sorted first, so `regionOf([[2], [1]], row)`
 * equals `regionOf([[1], [2]], row)`. An empty or a duplicate split key throws (as
 * createTable does).
 */
export function regionOf(splitKeys: readonly Bytes[], row: Bytes): number;

/* ------------------------------------------------------------------ design documents */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
/** A record: field name -> value (a long beyond 2^53 as a decimal string or a BigInt). */
export type KeyRecord = { [field: string]: JsonValue | bigint };

/** One key segment in the JSON form: `{kind: "salt", field: "phone", buckets: 64, ...}`. */
export interface Segment { kind: string; [option: string]: JsonValue }
/** The JSON form of a key design. */
export interface KeySpecJson { segments: Segment[] }

// <generated: schema>
// Written from the engine's reader tables by tests/engine/schema_docs.rs: edit the doc strings
// there (src/**/read.rs), then run scripts/schema-docs.sh.
export interface DesignDocument {
  /** The format version; must be `1`. */
  v: number;
  /** A short name for menus and titles. */
  name?: string;
  /** What the design is for, in a sentence or two. */
  description?: string;
  /** The record's [fields](#fields), in declaration order. Default: `[]`. */
  fields?: FieldDecl[];
  /** The row key design: the text form (a string) or the JSON form (an object). See [`key`](#key). */
  key: KeySpecJson | string;
  /** How many records are written, how fast, with which seed ([`workload`](#workload)). Absent: the defaults of every workload member and 100,000 records. */
  workload?: WorkloadSpec;
  /** How the table is pre-split, split as it grows, and placed on region servers ([`regions`](#regions)). Absent: one region on one server, never split. */
  regions?: RegionLayout;
  /** What a write puts into its row: its column qualifier and the column family's `VERSIONS` ([`cells`](#cells)). Absent: every write is its own cell. */
  cells?: CellSpec;
  /** The table and cluster its months of life depend on: the family's TTL, compression, the release line, the normalizer and the balancer ([`hbase`](#hbase)). Absent: HBase's defaults. */
  hbase?: TableSpec;
  /** The [reads](#reads) the table must serve; each is planned as the scans HBase would run. Default: `[]`. */
  reads?: ReadPattern[];
  /** Reads want the newest rows first; the linter then expects a reversed timestamp. Default: `false`. */
  latestFirst?: boolean;
  /** Sample records with the row key each one encodes to ([examples](#examples)). Default: `[]`. */
  examples?: Example[];
  /** An Apache Phoenix table's `CREATE TABLE` beyond its primary key: the table name, the other columns, the table options ([`phoenix`](#phoenix)). */
  phoenix?: PhoenixSection;
}
export interface FieldDecl {
  /** The field name, as the key and records use it. Not empty; unique in the document. */
  name: string;
  /** The field's type: how the key encodes it and which JSON values a record may give ([keyspec.md, Records and field types](keyspec.md#records-and-field-types)). `timestamp` is milliseconds since the epoch. */
  type: 'string' | 'long' | 'int' | 'short' | 'double' | 'float' | 'boolean' | 'bigDecimal' | 'timestamp';
  /** How many distinct values the field has in the real data. The linter's `cardinality-order` rule uses it (few-valued fields belong first), the read planner estimates rows read from it, and a string, integer or bigDecimal field without a generator draws from that many values. */
  cardinality?: number;
  /** How the analysis generates the field's values; absent, a generator chosen by the field's type (see [Generators](#generators)). */
  generator?: Generator;
}
export interface WorkloadSpec {
  /** How many records to write (100,000 when `workload` is absent). From 1 to 10,000,000,000. */
  records: number;
  /** The seed of every field's generator. Change it to see whether a result depends on luck. Default: `0`. */
  seed?: number;
  /** Records per second, more than 0 and at most 10⁹. It sets the time axis (and the `clock` generator's default rate), not a throughput limit. Default: `1000`. */
  writeRate?: number;
  /** Bytes of cell data per record besides the row key (10 MiB at most, HBase's `hbase.client.keyvalue.maxsize`). A region's size is the sum of its rows' key length + `valueSize`: it decides when [auto-split](#autosplit) splits. Bytes, or a size with a unit (`"2 KiB"`). Default: `100`. From 0 to 10,485,760. */
  valueSize?: number | string;
  /** The write time of record 0 (2021-09-07T00:00:00Z by default): milliseconds since the epoch, or an ISO-8601 date-time as records take it (`"2022-01-01T00:00:00Z"`, an offset such as `+08:00`, or a bare date at midnight UTC); the normalized document says milliseconds. The last record's time must fit in 64 bits. Default: `1630972800000`. */
  startTime?: number | string;
}
export interface RegionLayout {
  /** The split keys the table is created with ([`presplit`](#presplit)). Default: `{"kind":"none"}`. */
  presplit?: PreSplit;
  /** Automatic splitting as the regions grow ([`autoSplit`](#autosplit)). Absent: the regions stay as pre-split. */
  autoSplit?: AutoSplit;
  /** How many region servers the regions are spread over. Absent: 1, or with `assignment: {"servers": [...]}` the number of distinct names. From 1 to 10,000. */
  regionServers?: number;
  /** Which server each region goes to: a rule's name, or `{"servers": [...]}`, one server name per pre-split region (see [below](#regionservers-and-assignment)). Default: `"roundRobin"`. */
  assignment?: 'roundRobin' | 'balanced' | { servers: string[] };
}
export interface AutoSplit {
  /** The split policy. Default: `{"type":"stepping"}`. */
  policy?: SplitPolicy;
  /** The sizes the policy compares against; absent members take HBase's defaults. Default: `{}`. */
  config?: SplitConfig;
}
export interface SplitConfig {
  /** `hbase.hregion.max.filesize`: bytes (10 GiB), or a size with a unit such as `"4 MiB"`. Default: `10737418240`. */
  maxFileSize?: number | string;
  /** The table's `MAX_FILESIZE`; when above 0 it is the desired max size instead of `maxFileSize`. */
  tableMaxFileSize?: number | string;
  /** `hbase.hregion.max.filesize.jitter`: each region's size limit is moved by (u − 0.5) × jitter of itself, u one draw per region (the analysis draws it from the run's seed and the region's start key, life at each region open). 0 turns it off. Default: `0.25`. */
  jitter?: number;
  /** `hbase.hregion.memstore.flush.size`: bytes (128 MiB), or a size with a unit such as `"1 MiB"`. A region's memstore flushes at it, and only then is its size checked. Default: `134217728`. */
  memstoreFlushSize?: number | string;
  /** The table's `MEMSTORE_FLUSHSIZE`: when above 0, the flush size in place of `memstoreFlushSize` (and the initial size's base). */
  tableMemstoreFlushSize?: number | string;
  /** `hbase.increasing.policy.initial.size`. The initial size is this when above 0, else twice `tableMemstoreFlushSize` when that is above 0, else twice `memstoreFlushSize` (256 MiB). */
  initialSize?: number | string;
  /** `hbase.hregion.split.overallfiles`. Accepted; the analysis models one store per region, so it changes nothing. Default: `true`. */
  overallHregionFiles?: boolean;
}
export interface CellSpec {
  /** How the write's column qualifier is computed from its record, below. Default: `{"kind":"fixed"}`. */
  qualifier?: Qualifier;
  /** The column family's `VERSIONS` (HBase's default since 0.96): a cell keeps this many newest versions. Default: `1`. From 1 to 4,294,967,295. */
  versions?: number;
}
export interface TableSpec {
  /** The column family's `TTL` in seconds (60 s to 100 years); absent: FOREVER. Cells older than it are dropped at compactions, whole files of them before one. From 60 to 3,153,600,000. */
  ttlSeconds?: number;
  /** On-disk bytes per KeyValue byte after data block encoding and compression, 0.01 to 4 (1: none; Snappy on text is often 0.3 to 0.5). Default: `1`. */
  compressionRatio?: number;
  /** The column family name's bytes in each cell (`d`: 1). Default: `1`. From 1 to 127. */
  familyBytes?: number;
  /** The column qualifier's bytes in each cell. Default: `1`. From 0 to 65,535. */
  qualifierBytes?: number;
  /** The HBase release line, where 2.5/2.6 and 3.x differ (`overallfiles`, the balancer's cost functions). Default: `"2.6"`. */
  version?: '2.5' | '2.6' | '3';
  /** The table's `NORMALIZATION_ENABLED` (false by default: the normalizer then never touches the table). Default: `false`. */
  normalizationEnabled?: boolean;
  /** `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the Java constant is 0), so regions emptied by the TTL (0 MB) are never merged. Default: `1`. From 0 to 1,073,741,824. */
  normalizerMergeMinRegionSizeMb?: number;
  /** `hbase.regions.slop`: the balancer runs when a server is this share above or below the mean region count. From 0 to 10. Default: `0.2`. */
  balancerSlop?: number;
  /** `hbase.normalizer.split.enabled`: the normalizer's split plans (regions above twice the table's average). Default: `true`. */
  normalizerSplitEnabled?: boolean;
  /** `hbase.normalizer.merge.enabled`: the normalizer's merge plans. Default: `true`. */
  normalizerMergeEnabled?: boolean;
  /** `hbase.normalizer.merge.min.region.count`: no merge plans for a table with fewer regions. Default: `3`. From 1 to 1,000,000. */
  normalizerMergeMinRegionCount?: number;
  /** `hbase.normalizer.merge.min_region_age.days`: a region this many days old or younger (from its creation: a split or merge makes a new one) is not merged. Default: `3`. From 0 to 3,650. */
  normalizerMergeMinRegionAgeDays?: number;
  /** The table's `NORMALIZER_TARGET_REGION_SIZE_MB`: the size the normalizer aims at instead of the table's average; absent: the average. From 1 to 1,073,741,824. */
  normalizerTargetRegionSizeMb?: number;
  /** The table's `NORMALIZER_TARGET_REGION_COUNT`: the average taken as the table's size over this count; absent: over its regions. From 1 to 1,000,000. */
  normalizerTargetRegionCount?: number;
  /** `hbase.normalizer.period` in seconds (300 000 ms): how often the normalizer looks. From 1 to 604,800 (a week). Default: `300`. */
  normalizerPeriodSeconds?: number;
  /** The balancer switch (`balance_switch`; on by default). Default: `true`. */
  balancerEnabled?: boolean;
  /** `hbase.balancer.period` in seconds (300 000 ms). From 1 to 604,800. Default: `300`. */
  balancerPeriodSeconds?: number;
  /** `hbase.hregion.majorcompaction` in hours (604 800 000 ms: 7 days); 0 turns periodic major compactions off, as many production clusters do. From 0 to 87,600 (ten years). Default: `168`. */
  majorCompactionHours?: number;
  /** `hbase.hregion.majorcompaction.jitter`: each store's period is drawn within this share of it either side. From 0 to 1. Default: `0.5`. */
  majorCompactionJitter?: number;
  /** `hbase.regionserver.optionalcacheflushinterval` in hours (3 600 000 ms): a memstore whose oldest edit is this old is flushed; 0 turns the periodic flush off. From 0 to 8,760. Default: `1`. */
  periodicFlushHours?: number;
  /** `hbase.regionserver.regionSplitLimit`: no split once a server holds this many regions. Default: `1000`. From 1 to 100,000. */
  regionSplitLimit?: number;
  /** The family's compaction policy: `exploring` (the default store engine's) or `fifo` (`FIFOCompactionPolicy`: whole expired files deleted, nothing rewritten; needs a TTL). Default: `"exploring"`. */
  compactionPolicy?: 'exploring' | 'fifo';
  /** `hbase.hstore.compaction.ratio`: a file joins a minor compaction when it is at most this times the other files of its window. From 0.1 to 100. Default: `1.2`. */
  compactionRatio?: number;
  /** `hbase.hstore.compaction.min`: the fewest files a minor compaction takes. Default: `3`. From 2 to 100. */
  compactionMinFiles?: number;
  /** `hbase.hstore.compaction.max`: the most files a minor compaction takes. Default: `10`. From 2 to 100. */
  compactionMaxFiles?: number;
  /** The `CompactionChecker` chore's period in seconds (`hbase.server.thread.wakefrequency` 10 s × `hbase.server.compactchecker.interval.multiplier` 1000). From 60 to 2,592,000. Default: `10000`. */
  compactionCheckerSeconds?: number;
}
export interface Example {
  /** The record: field name → value, as [keyspec.md](keyspec.md#records-and-field-types) describes. */
  record: KeyRecord;
  /** The row key in hex (`Bytes.fromHex`: an even number of digits, either case). */
  key?: string;
  /** The row key as `Bytes.toStringBinary` prints it; compared when `key` is absent. */
  keyBinary?: string;
  /** Where the example comes from, or why it differs from its source. */
  note?: string;
}
export interface PhoenixSection {
  /** The table name as Phoenix normalizes it (`METRICS`, `S.T`; a quoted name as written). */
  table: string;
  /** The columns outside the primary key: `{name, family?, type, notNull?}`. Default: `[]`. */
  columns?: PhoenixColumnDecl[];
  /** The other table options as `NAME=value` (`VERSIONS=3`, `COMPRESSION='SNAPPY'`); `SALT_BUCKETS` is the key's salt, not an option. Default: `[]`. */
  options?: string[];
  /** The secondary indexes, in creation order (a local index's id follows its place among the local ones): `{name, kind?, columns, include?, saltBuckets?, splitOn?, options?, async?}`, at most 30. Default: `[]`. */
  indexes?: PhoenixIndex[];
}
export interface PhoenixColumnDecl {
  /** The column name. */
  name: string;
  /** Its column family; absent, Phoenix's default `0`. */
  family?: string;
  /** Its type as the DDL writes it (`VARCHAR(20)`, `INTEGER ARRAY`). */
  type: string;
  /** `NOT NULL`. Default: `false`. */
  notNull?: boolean;
}
export interface PhoenixIndex {
  /** The index name, unique among the design's indexes and not the table's. */
  name: string;
  /** `global` (covered: its rows carry the `include` columns), `uncovered` (its key only; each row read is looked up in the data table) or `local` (in the data table's regions). Default: `"global"`. */
  kind?: 'global' | 'uncovered' | 'local';
  /** The indexed columns in order, `{name, family?, desc?}`: 1 to 255 with the data key's columns the index appends. */
  columns: IndexedColumn[];
  /** The `INCLUDE` columns, `{name, family?}` (a global covered index only). Default: `[]`. */
  include?: IndexedColumn[];
  /** The index's `SALT_BUCKETS`, 0 to 256; absent: the data table's, as Phoenix salts an index of a salted table; 0: not salted. A local index takes none. From 0 to 256. */
  saltBuckets?: number;
  /** `SPLIT ON` points of an unsalted global index, each a hex string. Default: `[]`. */
  splitOn?: string[];
  /** Other index options as `NAME=value`. Default: `[]`. */
  options?: string[];
  /** `ASYNC`: the index is built later by `IndexTool`; writes are the same. Default: `false`. */
  async?: boolean;
}
export interface IndexedColumn {
  /** The column name: a primary-key column or one of `phoenix.columns`. */
  name: string;
  /** Its column family, when the column declares one. */
  family?: string;
  /** The index orders this column descending (`DESC`); in `include`, not allowed. Default: `false`. */
  desc?: boolean;
  /** An indexed expression over the column `name` (a functional index), as SQL: one of `UPPER(s)`, `LOWER(s)`, `SUBSTR(s, offset[, length])`, `TRIM(s)`, `LTRIM(s)`, `RTRIM(s)`, `LENGTH(s)` over a `VARCHAR` column, nested as Phoenix types them (`UPPER(SUBSTR(NAME, 1, 3))`); in `include`, not allowed. */
  expression?: string;
}
export interface AnalyzeOptions {
  /** Time windows over the workload's duration (the region × time matrix, per-window hotspot factors). Default: `64`. From 1 to 65,536. */
  windows?: number;
  /** Row keys in the report's sorted sample. Default: `1000`. From 0 to 100,000. */
  sampleSize?: number;
  /** Keys kept per region to estimate its middle key for auto-split. Default: `128`. From 2 to 4,096. */
  regionSampleSize?: number;
  /** Buckets of the key-space grid (the first two key bytes cut into equal ranges). Default: `256`. From 1 to 65,536. */
  gridBuckets?: number;
  /** Records read ahead to cut a `sampleQuantiles` pre-split without a sample of its own. Default: `10000`. */
  presplitSample?: number;
  /** Count a generated workload of at most a million records exactly (records fed and a user's rows always are): exact largest rows and distinct rows; false: the sketches. Default: `true`. */
  exactRows?: boolean;
}
export interface AdviseOptions {
  /** Region servers to design for; absent, the document's `regions.regionServers`. From 1 to 10,000. */
  servers?: number | null;
  /** Records generated for each candidate's evaluation (the document's workload, this many records, its seed). Default: `200000`. From 1 to 10,000,000. */
  records?: number;
  /** Time windows of each analysis. Default: `64`. From 1 to 4,096. */
  windows?: number;
  /** Native only: threads evaluating candidates (0: every core). Results do not depend on it. Default: `0`. */
  threads?: number;
  /** Capacity and lifecycle inputs. Default: `{}`. */
  capacity?: CapacityOptions;
}
export interface CapacityOptions {
  /** Bytes a record takes on disk; absent, the design's mean key length plus its workload's `valueSize`. */
  recordBytes?: number | null;
  /** Records written per second; absent, the workload's `writeRate`. */
  writeRate?: number | null;
  /** The column family's `TTL` in seconds, above 0, as the design's `hbase.ttlSeconds` and a run's life options name it; absent, the design's (else kept for ever). */
  ttlSeconds?: number | null;
  /** The TTL in days: the older name of `ttlSeconds`, kept because the advisor's documented options (and `rowkey-lab advise --ttl-days`) take it; one or the other. */
  ttlDays?: number | null;
  /** `hbase.hregion.max.filesize`, bytes. Default: `10737418240`. */
  maxFileSize?: number;
  /** `hbase.hregion.memstore.flush.size`, bytes. Default: `134217728`. */
  memstoreFlushSize?: number;
  /** A region server's heap, bytes. Default: `17179869184`. */
  heapBytes?: number;
  /** The share of the heap memstores may take (`hbase.regionserver.global.memstore.size`). Default: `0.4`. */
  memstoreShare?: number;
  /** Days between major compactions (`hbase.hregion.majorcompaction`). Default: `7`. */
  majorCompactionDays?: number;
}
export interface LifeOptions {
  /** The table simulated: a Phoenix global index's name (`phoenix.indexes`), its own table (its key, its pre-split, an index row's value bytes per data write); absent, the data table. A local index, or a run over a file of rows, is refused at `/index`. */
  index?: string;
  /** Months of 30 days; absent: 12. From 1 to 120. */
  months?: number | null;
  /** Hours per step: hours that divide a day (1, 2, 3, 4, 6, 8, 12, 24) or minutes that divide an hour, as hours (0.5, 0.25, 0.0833 for 5 minutes); absent: 1. */
  stepHours?: number | null;
  /** Region servers; absent: the design's `regions.regionServers`. From 1 to 100. */
  servers?: number | null;
  /** The seed of every draw (split jitter, major-compaction jitter); absent: 0. */
  seed?: number | null;
  /** The HBase release line, where 2.5/2.6 and 3.x differ; absent: the design's `hbase.version`. */
  version?: '2.5' | '2.6' | '3' | null;
  /** The split policy; absent: the design's `regions.autoSplit.policy`, else Stepping. */
  policy?: SplitPolicy | null;
  /** `hbase.hregion.*` sizes over the design's (`maxFileSize`, `memstoreFlushSize`, `jitter`, …, as `regions.autoSplit.config` takes them); the months run at HBase's 10 GiB and 128 MiB unless the table's own sizes or these say otherwise. */
  split?: Partial<SplitConfig> | null;
  /** `hbase.hregion.split.overallfiles`; absent or null: the version's. */
  overallHregionFiles?: boolean | null;
  /** `hbase.regionserver.regionSplitLimit`; absent: the design's `hbase.regionSplitLimit`. From 1 to 100,000. */
  regionSplitLimit?: number | null;
  /** On-disk bytes per KeyValue byte, 0.01 to 4; absent: the design's `hbase.compressionRatio`. */
  compressionRatio?: number | null;
  /** The family's `TTL` in seconds, the design's `hbase.ttlSeconds`; absent: the design's; null: FOREVER. From 60 to 3,153,600,000. */
  ttlSeconds?: number | null;
  /** Flushes and compactions over the design's `hbase` members. */
  compaction?: LifeCompactionOptions | null;
  /** The table's `NORMALIZATION_ENABLED` (the design's `hbase.normalizationEnabled`): the normalizer looks at the table; absent: the design's, else off. */
  normalizationEnabled?: boolean | null;
  /** The region normalizer over the design's `hbase` members. */
  normalizer?: LifeNormalizerOptions | null;
  /** The balancer over the design's `hbase` members. */
  balancer?: LifeBalancerOptions | null;
  /** A region server's heap in bytes, for the memstore bound; absent: 16 GiB. From 67,108,864 to 4,398,046,511,104. */
  heapBytes?: number | null;
  /** `hbase.regionserver.global.memstore.size`, 0.01 to 0.9; absent: 0.4. */
  memstoreShare?: number | null;
  /** Column families the writes fill alike (with `overallfiles` false a region splits when one store passes the size); absent: 1. From 1 to 16. */
  families?: number | null;
  /** Bytes of the family name in each cell; absent: the design's `hbase.familyBytes`. From 1 to 127. */
  familyBytes?: number | null;
  /** Bytes of the qualifier in each cell; absent: the design's `hbase.qualifierBytes`. From 0 to 65,535. */
  qualifierBytes?: number | null;
}
export interface LifeCompactionOptions {
  /** The family's compaction policy (the design's `hbase.compactionPolicy`); `fifo` needs a TTL. */
  policy?: 'exploring' | 'fifo' | null;
  /** `hbase.hstore.compaction.min` (the design's `hbase.compactionMinFiles`). From 2 to 100. */
  minFiles?: number | null;
  /** `hbase.hstore.compaction.max` (the design's `hbase.compactionMaxFiles`). From 2 to 100. */
  maxFiles?: number | null;
  /** `hbase.hstore.compaction.ratio`, 0.1 to 100 (the design's `hbase.compactionRatio`). */
  ratio?: number | null;
  /** `hbase.hregion.majorcompaction` in hours, 0 (off) to 87,600 (the design's `hbase.majorCompactionHours`). */
  majorPeriodHours?: number | null;
  /** `hbase.hregion.majorcompaction.jitter`, 0 to 1 (the design's `hbase.majorCompactionJitter`). */
  majorJitter?: number | null;
  /** `hbase.regionserver.optionalcacheflushinterval` in hours, 0 (off) to 8,760 (the design's `hbase.periodicFlushHours`). */
  periodicFlushHours?: number | null;
  /** The `CompactionChecker` chore's period in seconds, 60 to 2,592,000 (the design's `hbase.compactionCheckerSeconds`). */
  checkerSeconds?: number | null;
}
export interface LifeNormalizerOptions {
  /** The table's `NORMALIZATION_ENABLED`: the older spelling of `normalizationEnabled`, still read because the declarations documented it; one or the other. */
  enabled?: boolean | null;
  /** `hbase.normalizer.split.enabled` (the design's `hbase.normalizerSplitEnabled`). */
  splitEnabled?: boolean | null;
  /** `hbase.normalizer.merge.enabled` (the design's `hbase.normalizerMergeEnabled`). */
  mergeEnabled?: boolean | null;
  /** `hbase.normalizer.merge.min.region.count` (the design's `hbase.normalizerMergeMinRegionCount`). From 0 to 1,000,000. */
  mergeMinRegionCount?: number | null;
  /** `hbase.normalizer.merge.min_region_age.days`, 0 to 3,650 (the design's `hbase.normalizerMergeMinRegionAgeDays`). */
  mergeMinRegionAgeDays?: number | null;
  /** `hbase.normalizer.merge.min_region_size.mb`: 1 as `hbase-default.xml` ships it (the design's `hbase.normalizerMergeMinRegionSizeMb`). From 0 to 1,073,741,824. */
  mergeMinRegionSizeMb?: number | null;
  /** The table's `NORMALIZER_TARGET_REGION_SIZE_MB` (the design's `hbase.normalizerTargetRegionSizeMb`); null: unset. From 1 to 1,073,741,824. */
  targetRegionSizeMb?: number | null;
  /** The table's `NORMALIZER_TARGET_REGION_COUNT` (the design's `hbase.normalizerTargetRegionCount`); null: unset. From 1 to 1,000,000. */
  targetRegionCount?: number | null;
  /** `merge_request_max_number_of_regions`: the most regions one merge plan takes. From 2 to 10,000. */
  mergeMaxRegions?: number | null;
  /** `hbase.normalizer.period` in seconds, 1 to 604,800 (the design's `hbase.normalizerPeriodSeconds`). */
  periodSeconds?: number | null;
}
export interface LifeBalancerOptions {
  /** The balancer switch, `balance_switch` (the design's `hbase.balancerEnabled`). */
  enabled?: boolean | null;
  /** `hbase.regions.slop`, 0 to 10 (the design's `hbase.balancerSlop`). */
  slop?: number | null;
  /** `hbase.master.balancer.stochastic.minCostNeedBalance`, 0 to 1. */
  minCostNeedBalance?: number | null;
  /** `hbase.balancer.period` in seconds, 1 to 604,800 (the design's `hbase.balancerPeriodSeconds`). */
  periodSeconds?: number | null;
}
export interface LifeBudgets {
  /** The most empty regions (no store file, no memstore) at any month's end; absent: not checked. */
  maxEmptyRegions?: number | null;
  /** The most of the table's regions on one server at any month's end; absent: not checked. */
  maxRegionsPerServer?: number | null;
}
export interface RekeyOptions {
  /** The column family the cells are in (its name's bytes are in every cell): a name HBase accepts, at most 127 bytes. Default: `"cf"`. */
  family?: string;
  /** Qualifier bytes per cell; absent, from the new design's `cells` (a fixed qualifier's name, OpenTSDB's 2-byte offsets), else 1. */
  qualifierBytes?: number | null;
  /** `hbase.hregion.max.filesize`: an HFile writer rolls to a new file past it; above 0 bytes. Default: `10737418240`. */
  maxFileSize?: number;
  /** `hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily`: at least 1. Default: `32`. */
  maxHfiles?: number;
  /** HDFS replication of what is written, 1 to 10. Default: `3`. */
  replication?: number;
  /** On-disk bytes per uncompressed byte, above 0, at most 10 (1: no compression or encoding; measure yours). Default: `1`. */
  compression?: number;
  /** Tasks running at once (mappers, then reducers), 1 to 100,000: a guess unless given. Default: `8`. */
  parallelism?: number;
  /** MiB/s a map task reads and re-encodes, above 0: a guess unless given. Default: `100`. */
  readMibPerSec?: number;
  /** MiB/s a reducer sorts and writes HFiles, above 0: a guess unless given. Default: `50`. */
  writeMibPerSec?: number;
  /** The old table's name in the statements: a name HBase accepts. Default: `"t"`. */
  oldTable?: string;
  /** The new table's name; absent, the old one's with `_new`. */
  newTable?: string | null;
  /** The columns the rows have (a file's header): a field the old key does not give back can come from one of these. Absent: only the old key's fields. */
  columns?: string[] | null;
}
export interface RowsOptions {
  /** The format; by default from the file's first bytes (a binary format's magic number), else the name's extension, else JSON Lines when it starts with `{`, else CSV. */
  format?: 'csv' | 'jsonl' | 'parquet' | 'arrow' | 'arrow-stream' | null;
  /** The file's name: its extension tells the format, and messages name it. */
  name?: string | null;
  /** Field name to column name, where they differ. Default: `{}`. */
  map?: Record<string, string>;
  /** The column holding each row's write time: windows are cut by it, whatever the rows' order. Without it rows are written in arrival order at the workload's rate. */
  time?: string | null;
  /** A row whose key reads a null: `error` stops naming the row and the column, `skip` skips it and counts it per column. Default: `"error"`. */
  nulls?: 'error' | 'skip';
  /** The unit of integer times (a `timestamp` field, the time column); `auto` by magnitude. Default: `"auto"`. */
  epoch?: 'auto' | 's' | 'ms' | 'us' | 'ns';
  /** The CSV delimiter; by default a tab for `.tsv`, else the header's first of `,` tab `;` `|`. */
  delimiter?: string | null;
  /** Count a profile of the rows in the first pass (`RowsSession.profile()`). Default: `false`. */
  profile?: boolean;
  /** Most bytes of rows the first pass keeps so the analysis counts them from memory (each row's key, qualifier and time); past it the file is read again. 0 reads the file twice; by default, and at most, 256 MiB (`limits::MAX_REPLAY_BYTES`). From 0 to 268,435,456. */
  keepBytes?: number | null;
}
/** One key segment in the JSON form, as the engine reads it. */
export type SegmentSpec =
  /** The field in its type's own encoding (`Bytes.toBytes`). */
  | {
      kind: 'field';
      /** The field it writes. */
      field: string;
    }
  /** The field's value as UTF-8 text. */
  | {
      kind: 'str';
      /** The field it writes. */
      field: string;
    }
  /** The field's text padded or cut to `width` bytes. */
  | {
      kind: 'fixed';
      /** The field it writes. */
      field: string;
      /** The width in bytes, at most 32,767. */
      width: number;
      /** The padding byte. Default: `0`. */
      pad?: number;
      /** The side padded. Default: `"right"`. */
      side?: 'right' | 'left';
      /** A longer value is refused, or cut to the width. Default: `"reject"`. */
      overflow?: 'reject' | 'truncate';
    }
  /** An integer as zero-padded decimal text of `width` digits. */
  | {
      kind: 'dec';
      /** The field it writes. */
      field: string;
      /** Digits. */
      width: number;
    }
  /** The field as Java's `Bytes.toBytes(long)`; `sortable` flips the sign bit (and a negative float's bits) so the bytes sort as the numbers do. */
  | {
      kind: 'long';
      /** The field it writes. */
      field: string;
      /** Bytes that sort as the numbers do. Default: `false`. */
      sortable?: boolean;
    }
  /** The field as Java's `Bytes.toBytes(int)`; `sortable` flips the sign bit (and a negative float's bits) so the bytes sort as the numbers do. */
  | {
      kind: 'int';
      /** The field it writes. */
      field: string;
      /** Bytes that sort as the numbers do. Default: `false`. */
      sortable?: boolean;
    }
  /** The field as Java's `Bytes.toBytes(short)`; `sortable` flips the sign bit (and a negative float's bits) so the bytes sort as the numbers do. */
  | {
      kind: 'short';
      /** The field it writes. */
      field: string;
      /** Bytes that sort as the numbers do. Default: `false`. */
      sortable?: boolean;
    }
  /** The field as Java's `Bytes.toBytes(double)`; `sortable` flips the sign bit (and a negative float's bits) so the bytes sort as the numbers do. */
  | {
      kind: 'double';
      /** The field it writes. */
      field: string;
      /** Bytes that sort as the numbers do. Default: `false`. */
      sortable?: boolean;
    }
  /** The field as Java's `Bytes.toBytes(float)`; `sortable` flips the sign bit (and a negative float's bits) so the bytes sort as the numbers do. */
  | {
      kind: 'float';
      /** The field it writes. */
      field: string;
      /** Bytes that sort as the numbers do. Default: `false`. */
      sortable?: boolean;
    }
  /** A boolean as one byte (`Bytes.toBytes(boolean)`). */
  | {
      kind: 'bool';
      /** The field it writes. */
      field: string;
    }
  /** A decimal as `Bytes.toBytes(BigDecimal)`: a 4-byte scale and the unscaled value. */
  | {
      kind: 'bigDecimal';
      /** The field it writes. */
      field: string;
    }
  /** Fixed bytes: a separator or a constant prefix (one of `text` and `hex`). */
  | {
      kind: 'literal';
      /** The bytes as UTF-8 text. */
      text?: string;
      /** The bytes as hex digits. */
      hex?: string;
    }
  /** A salt bucket: a hash of other segments' bytes modulo `buckets`. */
  | {
      kind: 'salt';
      /** The segments whose bytes it hashes; absent, the segments after it. */
      of?: Segment[];
      /** How many buckets. */
      buckets: number;
      /** The hash: Java's `String.hashCode`, `Arrays.hashCode`, MD5, Phoenix's, HBaseWD's or OpenTSDB's. Default: `"javaString"`. */
      hash?: 'javaString' | 'arrays' | 'md5' | 'phoenix' | 'hbasewd' | 'opentsdb';
      /** How a negative hash becomes a bucket. Default: `"absOfMod"`. */
      mod?: 'absOfMod' | 'modOfAbs' | 'floorMod';
      /** How the bucket is written: `byte`, `short`, `int`, `long`, `letter`, or `{"dec": W}`, `{"hex": W}`, `{"hexUpper": W}`, `{"bytes": W}`. Default: `"byte"`. */
      as?: Render;
    }
  /** A random bucket drawn per write (seeded): spreads writes, costs a scan per bucket. */
  | {
      kind: 'random';
      /** How many buckets. */
      buckets: number;
      /** The seed of the draws. Default: `0`. */
      seed?: number;
      /** How the bucket is written: `byte`, `short`, `int`, `long`, `letter`, or `{"dec": W}`, `{"hex": W}`, `{"hexUpper": W}`, `{"bytes": W}`. Default: `"byte"`. */
      as?: Render;
    }
  /** `(short)(hashCode & 0x7FFF)` of the segments' text, as two bytes. */
  | {
      kind: 'hash15';
      /** The segments whose bytes it hashes; absent, the segments after it. */
      of?: Segment[];
    }
  /** The 16 bytes of the MD5 of the segments' bytes. */
  | {
      kind: 'md5';
      /** The segments whose bytes it hashes; absent, the segments after it. */
      of?: Segment[];
    }
  /** The MD5 of the segments' bytes as hex text, cut to `len` characters. */
  | {
      kind: 'md5Hex';
      /** The segments whose bytes it hashes; absent, the segments after it. */
      of?: Segment[];
      /** Hex characters kept, 1 to 32. Default: `32`. */
      len?: number;
      /** Upper-case hex digits. Default: `false`. */
      upper?: boolean;
    }
  /** The field's text reversed. */
  | {
      kind: 'reverse';
      /** The field it writes. */
      field: string;
    }
  /** A reversed timestamp, `Long.MAX_VALUE − ts` (divided by `div` first): newest first. */
  | {
      kind: 'revts';
      /** The field it writes. */
      field: string;
      /** Divide the time by this first (1000: seconds). */
      div?: number;
      /** How the number is written (as `salt`'s `as`). Default: `"long"`. */
      as?: Render;
    }
  /** A time as text in a `SimpleDateFormat` pattern. */
  | {
      kind: 'time';
      /** The field it writes. */
      field: string;
      /** The pattern, e.g. `yyyyMMddHH`. */
      pattern: string;
      /** The field's unit. Default: `"ms"`. */
      unit?: 'ms' | 's';
    }
  /** An integer field's bucket: the value modulo `mod` or divided by `div`. */
  | {
      kind: 'bucket';
      /** The field it writes. */
      field: string;
      /** The modulus. */
      mod?: number;
      /** The divisor. */
      div?: number;
      /** How the number is written (as `salt`'s `as`). Default: `"long"`. */
      as?: Render;
    }
  /** A value's id from a dictionary. */
  | {
      kind: 'dict';
      /** The field it writes. */
      field: string;
      /** Each value and its integer id. */
      entries: { [value: string]: number };
      /** How the id is written; absent, an 8-byte long. */
      as?: Render;
    }
  /** A value's id from a dictionary, as a tag. */
  | {
      kind: 'tag';
      /** The field it writes. */
      field: string;
      /** Each value and its integer id. */
      entries: { [value: string]: number };
      /** How the id is written; absent, as `dict` writes it. */
      as?: Render;
    }
  /** Segments written only for records whose field is one of `is`. */
  | {
      kind: 'when';
      /** The field it writes. */
      field: string;
      /** The values that select the segments. */
      is: string[];
      /** The segments written then. */
      then: Segment[];
    }
  /** OpenTSDB's UID: the value's id in `width` bytes. */
  | {
      kind: 'uid';
      /** The field it writes. */
      field: string;
      /** Bytes of the id (OpenTSDB's default 3). Default: `3`. */
      width?: number;
      /** Known ids; absent (or for other values), ids are numbered as values first appear. */
      entries?: { [value: string]: number };
    }
  /** OpenTSDB's base time: the timestamp cut to the hour, 4 bytes of seconds. */
  | {
      kind: 'baseTime';
      /** The field it writes. */
      field: string;
    }
  /** OpenTSDB's tags: each tag key's UID and its value's, sorted by tag key UID. */
  | {
      kind: 'tags';
      /** One `uid` segment per tag value. */
      of: Segment[];
      /** Each tag key and its UID. */
      tagk: { [value: string]: number };
      /** Bytes of each UID. Default: `3`. */
      width?: number;
    }
  /** A Phoenix primary-key column in Phoenix's own encoding. */
  | {
      kind: 'pk';
      /** The field it writes. */
      field: string;
      /** The column's SQL type. */
      type: PhoenixType;
      /** `DESC`: the bytes inverted. Default: `false`. */
      desc?: boolean;
      /** VARCHAR/CHAR/BINARY/VARBINARY length, or DECIMAL precision. */
      len?: number;
      /** DECIMAL scale. */
      scale?: number;
      /** The column may be NULL. Default: `false`. */
      nullable?: boolean;
    };
/** How a field's values are generated (`fields[].generator`). */
export type Generator =
  /** Monotonic ids, `start`, `start + step`, …: the classic hotspot when the key starts with them. Fills integer fields. */
  | {
      kind: 'sequence';
      /** The first value. Default: `0`. */
      start?: number;
      /** The step between values. Default: `1`. */
      step?: number;
    }
  /** Event times: `start + floor(i × 1000 / rate)` ms, plus a uniform jitter in [−`jitterMs`, +`jitterMs`]. With the defaults the value is the record's write time. */
  | {
      kind: 'clock';
      /** The first tick (ms or an ISO-8601 date-time); absent, the workload's `startTime`. */
      start?: number | string;
      /** Ticks per second, at most 10⁹; absent, the workload's `writeRate`. */
      rate?: number;
      /** The jitter's bound in ms, at most 10¹². Default: `0`. */
      jitterMs?: number;
    }
  /** Uniform in [`min`, `max`]: ids without skew. Fills integer fields. */
  | {
      kind: 'uniformInt';
      /** The least value. */
      min: number;
      /** The largest value, at least `min`. */
      max: number;
    }
  /** Uniform in [`min`, `max`): measurements. Fills double and float fields, integer fields (truncated), string and bigDecimal fields (Java's `Double.toString` text). */
  | {
      kind: 'uniformDouble';
      /** The least value. Default: `0`. */
      min?: number;
      /** The bound the values stay below. Default: `1`. */
      max?: number;
    }
  /** `length` characters drawn uniformly from `alphabet`: random codes, VINs, hostnames. Fills string fields. */
  | {
      kind: 'uniformString';
      /** How many characters, at most 4,096. */
      length: number;
      /** The characters drawn from; absent, `0-9A-Za-z`. */
      alphabet?: string;
    }
  /** A few very busy customers or devices: `offset` … `offset + n − 1`, rank r drawn with probability ∝ 1 / r^`s`. Fills integer fields. */
  | {
      kind: 'zipf';
      /** How many values, 1 to 2⁵³. */
      n: number;
      /** The skew, 0 (uniform) to 100. Default: `0.99`. */
      s?: number;
      /** The first value. Default: `0`. */
      offset?: number;
      /** Scatter the hot values over the range, as YCSB's `ScrambledZipfianGenerator` does. Default: `true`. */
      scramble?: boolean;
    }
  /** YCSB's `latest`: record i takes the id `offset + i − (r − 1)`, r Zipf over the `window` newest ids. Activity on recently created entities; fills integer fields. */
  | {
      kind: 'latest';
      /** The skew, as `zipf`'s. Default: `0.99`. */
      s?: number;
      /** How many of the newest ids are drawn from (1 to 2⁵³); absent, all written so far. */
      window?: number;
      /** The first id. Default: `0`. */
      offset?: number;
    }
  /** YCSB's `hotspot`: a share `hotOpFraction` of the draws falls uniformly in the first `hotSetFraction` of [`min`, `max`], the rest in the remainder. Fills integer fields. */
  | {
      kind: 'hotspot';
      /** The least value. */
      min: number;
      /** The largest value. */
      max: number;
      /** The hot share of the range, 0 to 1. Default: `0.2`. */
      hotSetFraction?: number;
      /** The share of draws that fall in it, 0 to 1. Default: `0.8`. */
      hotOpFraction?: number;
    }
  /** One of `values`, with probability ∝ its weight: a known mix. Fills any field. */
  | {
      kind: 'weighted';
      /** The values (at most 1,000,000), converted to the field's type. */
      values: JsonValue[];
      /** One weight per value, each ≥ 0, at least one > 0. */
      weights: number[];
    }
  /** A prefix followed by `digits` random digits: subscribers, a few of them busy. Fills string fields, and integer fields when every prefix is digits and a prefix plus `digits` is at most 18 digits. */
  | {
      kind: 'phone';
      /** The prefixes (at most 1,000,000). Default: `["1"]`. */
      prefixes?: string[];
      /** Digits after the prefix, at most 18. Default: `10`. */
      digits?: number;
      /** Numbers from a fixed set of this many phones (at most `prefixes` × 10^`digits`); absent, unbounded. */
      distinct?: number;
      /** The skew over the `distinct` phones (Zipf); absent, uniform. */
      s?: number;
    }
  /** A random version 4 UUID, `0f8fad5b-d9cb-469f-a165-70867728950e`. Fills string fields. */
  | {
      kind: 'uuid';
      /** No dashes. Default: `false`. */
      compact?: boolean;
      /** Upper-case hex digits. Default: `false`. */
      upperCase?: boolean;
    }
  /** One of `values`, uniformly or in turn: a fixed set. Fills any field. */
  | {
      kind: 'list';
      /** The values (1 to 1,000,000), converted to the field's type. */
      values: JsonValue[];
      /** `uniform`, or `sequential`: record i takes value i mod length. Default: `"uniform"`. */
      order?: 'uniform' | 'sequential';
    }
  /** The same value in every record: a field the key needs but that does not vary. */
  | {
      kind: 'constant';
      /** The value, converted to the field's type. */
      value: JsonValue;
    }
  /** `true` with probability `p`: flags. Fills boolean and string fields. */
  | {
      kind: 'boolean';
      /** The probability of `true`, 0 to 1. Default: `0.5`. */
      p?: number;
    };
/** The split keys a table is created with (`regions.presplit`). */
export type PreSplit =
  /** No split keys: one region. Where does auto-split take it? */
  | {
      kind: 'none';
    }
  /** The keys given: a `SPLITS` list, or an existing table's regions. */
  | {
      kind: 'explicit';
      /** The split keys, in ascending byte order (fewer than 100,000). */
      keys: string[];
      /** How the keys are spelt: `Bytes.toStringBinary` text, or two hex digits per byte. Default: `"stringBinary"`. */
      encoding?: 'stringBinary' | 'hex';
    }
  /** `RegionSplitter`'s `HexStringSplit`: `regions − 1` keys of lower-case hex digits, evenly spaced. For keys that start with MD5 hex text. */
  | {
      kind: 'hexString';
      /** How many regions (1 to 100,000; 1 gives no split keys). */
      regions: number;
      /** The first row, hex digits; absent, `00000000`. */
      firstRow?: string;
      /** The last row, hex digits (its length is the key width); absent, `FFFFFFFF`. */
      lastRow?: string;
    }
  /** `RegionSplitter`'s `DecimalStringSplit`. For keys that start with evenly spread decimal digits. */
  | {
      kind: 'decimalString';
      /** How many regions (1 to 100,000; 1 gives no split keys). */
      regions: number;
      /** The first row, decimal digits; absent, `00000000`. */
      firstRow?: string;
      /** The last row, decimal digits (its length is the key width); absent, `99999999`. */
      lastRow?: string;
    }
  /** `RegionSplitter`'s `UniformSplit`: evenly spaced raw bytes. For keys that start with random bytes (a binary hash). */
  | {
      kind: 'uniform';
      /** How many regions (1 to 100,000; 1 gives no split keys). */
      regions: number;
      /** The first row, as toStringBinary text; absent, empty. */
      firstRow?: string;
      /** The last row, as toStringBinary text; absent, eight `\xFF`. */
      lastRow?: string;
    }
  /** All `num + 2` keys of `Bytes.split(start, end, num)`, both ends included: `num + 3` regions. Over hex text it leaves empty regions (seed 001's trap). */
  | {
      kind: 'bytesSplit';
      /** The first key, as toStringBinary text. */
      start: string;
      /** The last key, as toStringBinary text. */
      end: string;
      /** Keys between them, 1 to 99,999. */
      num: number;
    }
  /** `Admin.createTable(desc, startKey, endKey, numRegions)`: `regions − 1` keys from `start` to `end`, both included. */
  | {
      kind: 'createTable';
      /** The first split key, as toStringBinary text. */
      start: string;
      /** The last split key, as toStringBinary text, after `start`. */
      end: string;
      /** How many regions, at least 3. */
      regions: number;
    }
  /** One region per salt bucket: `byte` gives `\x01` … (Phoenix's salt split points), `decimal` zero-padded text `01` …. */
  | {
      kind: 'saltBuckets';
      /** How many buckets (at most 256 as bytes, 100,000 as text). */
      buckets: number;
      /** Bytes or decimal text. Default: `"byte"`. */
      style?: 'byte' | 'decimal';
      /** Digits of a decimal bucket, up to 18; absent, the digits of `buckets − 1`. */
      width?: number;
    }
  /** The `regions − 1` quantiles of a sample of keys: regions with equal row counts for data like the sample. For keys without a uniform prefix; a key that opens with salt buckets keeps each bucket whole (each starts a region, or a region holds whole buckets). */
  | {
      kind: 'sampleQuantiles';
      /** How many regions (1 to 100,000; 1 gives no split keys). */
      regions: number;
      /** Row keys as toStringBinary text, any order; absent, the keys of the workload's first 10,000 records (or, over a file of rows, every row's key up to a million). */
      sample?: string[];
      /** `rows`: regions of equal row counts; `bytes`: of equal bytes, each key weighed with the workload's `valueSize` as the analysis counts a write. Default: `"rows"`. */
      by?: 'rows' | 'bytes';
    };
/** An auto-split policy (`regions.autoSplit.policy`). */
export type SplitPolicy =
  /** `ConstantSizeRegionSplitPolicy`: splits past the desired max size. The classic fixed rule. */
  | {
      type: 'constantSize';
    }
  /** `IncreasingToUpperBoundRegionSplitPolicy`: min(desired max size, initial size × n³), n = the table's regions on that server. HBase 0.94 to 1.x's default. */
  | {
      type: 'increasingToUpperBound';
    }
  /** `SteppingSplitPolicy`: the initial size while the region is the table's only one on its server, else the desired max size. HBase 2's default. */
  | {
      type: 'stepping';
    }
  /** `KeyPrefixRegionSplitPolicy` (deprecated): as `increasingToUpperBound`, the split point cut to its first `prefixLength` bytes. */
  | {
      type: 'keyPrefix';
      /** Bytes kept of the split point; 0 or less: no cut. */
      prefixLength: number;
    }
  /** `DelimitedKeyPrefixRegionSplitPolicy` (deprecated): as `increasingToUpperBound`, the split point cut just before the first `delimiter`. */
  | {
      type: 'delimitedKeyPrefix';
      /** The delimiter, as text; empty: no cut. */
      delimiter: string;
    }
  /** `DisabledRegionSplitPolicy`: never splits. */
  | {
      type: 'disabled';
    };
/** A read the table must serve (`reads[]`). */
export type ReadPattern =
  /** One row by its key. Give every field the key reads; a get that leaves one out is planned as a prefix scan (the notes say so). */
  | {
      type: 'get';
      /** The read's label in reports; absent, its type. */
      name?: string;
      /** The row's fields. */
      record: KeyRecord;
    }
  /** Every row whose leading key fields equal these. */
  | {
      type: 'prefix';
      /** The read's label in reports; absent, its type. */
      name?: string;
      /** The leading fields. */
      record: KeyRecord;
    }
  /** Rows from `from` (inclusive) to `to` (exclusive): two partial records that agree on the leading fields and differ in one, such as a time. */
  | {
      type: 'range';
      /** The read's label in reports; absent, its type. */
      name?: string;
      /** The first row's fields. */
      from: KeyRecord;
      /** The fields of the row the range stops before; above `from`. */
      to: KeyRecord;
    }
  /** The newest `n` rows of one entity. With a reversed timestamp right after the entity, each scan stops after `n` rows (`LIMIT`); otherwise the whole entity is read. */
  | {
      type: 'latest';
      /** The read's label in reports; absent, its type. */
      name?: string;
      /** The entity's fields. */
      record: KeyRecord;
      /** How many rows, at least 1. */
      n: number;
    };
/** A write's column qualifier, computed from its record (`cells.qualifier`). */
export type Qualifier =
  /** The same qualifier for every write. A row is one cell: a tall-narrow table, where a write to an existing row is a new version of its one value. */
  | {
      kind: 'fixed';
      /** The qualifier (informative; `""` is HBase's empty qualifier). Default: `""`. */
      name?: string;
    }
  /** The field's value. A row is one cell per value of the field (an event name as the column). */
  | {
      kind: 'field';
      /** The field whose value names the column. */
      field: string;
    }
  /** The field's time modulo `rangeMs`, in steps of `resolutionMs`. A row is one cell per step of its time range: OpenTSDB's row of one metric and hour, each second a column. */
  | {
      kind: 'timeOffset';
      /** The time field (a timestamp or integer field, ms). */
      field: string;
      /** The row's time range in ms (OpenTSDB: one hour), at least 1. Default: `3600000`. */
      rangeMs?: number;
      /** The qualifier's resolution in ms, at least 1. Default: `1000`. */
      resolutionMs?: number;
    };
// </generated: schema>
/** A Phoenix primary-key column in the key's JSON form (the text form:
 * `pk(field, DECIMAL(10, 2), desc)`). */
export type PkSegment = Extract<SegmentSpec, { kind: 'pk' }>;
/** The SQL types a Phoenix primary-key column (`pk(...)`) can have. */
export type PhoenixType =
  | 'INTEGER' | 'UNSIGNED_INT' | 'BIGINT' | 'UNSIGNED_LONG' | 'SMALLINT' | 'TINYINT'
  | 'FLOAT' | 'DOUBLE' | 'DECIMAL' | 'VARCHAR' | 'CHAR' | 'BOOLEAN' | 'DATE' | 'TIME'
  | 'TIMESTAMP' | 'VARBINARY' | 'BINARY';
/** How a salt bucket or an id is written: a name, or a width in digits or bytes. */
export type Render =
  | 'byte' | 'short' | 'int' | 'long' | 'letter'
  | { dec: number } | { hex: number } | { hexUpper: number } | { bytes: number };
/** A normalized design document, as `getPreset` and `validateDesign` return it. */
export interface NormalizedDesign extends DesignDocument { key: KeySpecJson; reads: ReadPattern[] }
/** A design as a document object or its JSON text. */
export type DesignInput = DesignDocument | string;

/** A preset as the page lists it: its design's name and description, the group of the problem it
 * shows, a label saying what it shows, a one-line why, and its twin (the preset it is best
 * compared with). */
export interface PresetEntry {
  id: string;
  name: string | null;
  description: string | null;
  group: string;
  label: string;
  why: string;
  twin: string | null;
}
/** Every preset, grouped by the problem it shows (`presets/groups/index.json`'s order). */
export function listPresets(): PresetEntry[];
/** The design document of preset `id`. */
export function getPreset(id: string): NormalizedDesign;

/* ------------------------------------------------------------------ keyspec */

/** How many bytes a segment takes: `{fixed: n}` or `"variable"`. */
export type Width = { fixed: number } | 'variable';
export interface SegmentLayout {
  /** The field name, the literal text, or the prefix kind (`salt`, `md5Hex`). */
  name: string;
  /** The segment kind, as in the JSON form (`str`, `long`, `salt`, `literal`, ...). */
  kind: string;
  /** The field the segment writes, when it writes one directly. */
  field?: string;
  /** Byte offset, when every segment before it has a fixed width. */
  offset: number | null;
  width: Width;
  /** What the bytes are, in a phrase. */
  encoding: string;
  /** The segment in the text form. */
  text: string;
  /** Present (true) inside a `when(...)`: only some records have the segment. */
  conditional?: boolean;
}
/** `[start, end)` of one segment's bytes in a key. */
export type Span = [start: number, end: number];
export interface DecodedField {
  name: string;
  /** The value as JSON (longs beyond 2^53 as decimal strings). */
  value: JsonValue;
  /** `false` when the key holds only part of the value; `value` is then the smallest consistent one. */
  exact: boolean;
  note?: string;
}
export interface Unrecoverable { field: string; reason: string }
export interface Decoded {
  fields: DecodedField[];
  unrecoverable: Unrecoverable[];
  /** `[start, end)` of every segment, in `keyLayout` order. */
  spans: Span[];
  /** Re-encoding reproduces the key; `false`: a segment the key fixes (a salt, canonical
   * bytes) does not match, so the key is not this design's. Absent when not checkable: a
   * field is missing, a random salt, or only segments over a field the key keeps in part
   * differ. */
  verified?: boolean;
}
export type Severity = 'error' | 'warning' | 'info';
/** `segment` indexes `keyLayout`; `example`, on `example-key` findings only, indexes the document's `examples`. */
export interface Finding { rule: string; severity: Severity; segment: number | null; message: string; example?: number }
export interface LintRule { id: string; reason: string }

/**
 * Reads a Phoenix `CREATE TABLE` statement into a design document: `salt(N, hash=phoenix)`
 * for `SALT_BUCKETS` and one `pk(...)` per primary-key column, a field per key column with a
 * generator for its type, the salt buckets or `SPLIT ON` points as the pre-split, the rest
 * in `phoenix`. Errors carry `line` and `column` and say what was expected there.
 */
export function parseCreateTable(sql: string): NormalizedDesign;
/** A design's Phoenix primary key as `CREATE TABLE` (throws, with the key's `path`, when
 * the key is not one: only `pk(...)` columns after at most one `salt(N, hash=phoenix)`). */
export function printCreateTable(doc: DesignInput): string;
/** Each Phoenix index of the design as the table Phoenix makes of it: its `CREATE ... INDEX`
 * and, for a global index, the split keys its table is created with (hex); `[]` without
 * indexes. */
export function indexTables(doc: DesignInput): IndexTable[];
export interface IndexTable {
  name: string;
  kind: 'global' | 'uncovered' | 'local';
  sql: string;
  /** A global index's initial split keys, hex; none for a local index. */
  splitKeysHex: string[];
}
/** Parses the text form of a key design; returns its JSON form. Errors carry `line` and `column`. */
export function parseKey(text: string): KeySpecJson;
/** Prints a key design (JSON form, or text to normalize) as the text form. */
export function formatKey(spec: KeySpecJson | string): string;
/** Validates a design document and returns it normalized; errors carry the JSON `path`. */
export function validateDesign(doc: DesignInput): NormalizedDesign;
/** The design with field `from` renamed `to` in its declaration, its key (nested segments too), its cells and the records of its reads and examples; validated. Errors: `from` not a field, `to` empty or taken. */
export function renameField(doc: DesignInput, from: string, to: string): NormalizedDesign;
/** One member of a tagged part: its key, whether the engine requires it, and what it holds. */
export interface SchemaMember {
  key: string;
  required: boolean;
  value: 'integer' | 'number' | 'boolean' | 'string' | 'time' | 'strings' | 'record' | 'phoenixType' | 'json';
  /** The value the engine takes when the member is left out, as JSON text (`"64"`,
   * `"\"right\""`); null when it is required or when leaving it out means something of its own. */
  default: string | null;
  /** The least and the largest value the engine accepts, when it checks them. */
  range: [min: number, max: number] | null;
  /** The names the member takes, when it is one of a fixed set (else empty). */
  options: string[];
}
/** One variant of a tagged part (`kind` / `type` value) and its members. */
export interface SchemaVariant { name: string; members: SchemaMember[] }
/** A function of the key language's text form. */
export interface KeyFunction { name: string; signature: string; help: string; example: string }
/** The design document's kinds and their members, as the engine reads them. */
export interface DesignSchema {
  fieldTypes: FieldType[];
  /** What a record's value of each field type is (`long`: `integer`, `timestamp`: `time`,
   * `bigDecimal`: `string`): how a form reads a record's value from its text. */
  fieldValues: { [type in FieldType]: SchemaMember['value'] };
  functions: KeyFunction[];
  /** Phoenix SQL type names (`pk(...)`'s `type`). */
  phoenixTypes: string[];
  segments: SchemaVariant[];
  generators: SchemaVariant[];
  presplits: SchemaVariant[];
  splitPolicies: SchemaVariant[];
  reads: SchemaVariant[];
  qualifiers: SchemaVariant[];
  /** Every object of the document, by its declaration's name (`WorkloadSpec`, `CellSpec`, …). */
  objects: { [name: string]: SchemaMember[] };
  /** The analysis and advisor options (`AnalyzeOptions`, `AdviseOptions`, `CapacityOptions`). */
  options: { [name: string]: SchemaMember[] };
}
/** The document's kinds and members: what a form or a completion list offers. */
export function designSchema(): DesignSchema;
/** Encodes one record with the document's key design: the row key bytes. */
export function encodeKey(doc: DesignInput, record: KeyRecord): Uint8Array;
/** Decodes a row key. */
export function decodeKey(doc: DesignInput, key: Bytes): Decoded;
/** Row keys laid end to end: key `i` is `keys.subarray(offsets[i], offsets[i + 1])` (`offsets.length` = keys + 1). */
export interface EncodedKeys { keys: Uint8Array; offsets: Uint32Array }
/**
 * A design compiled once for many records and keys. `encodeKey` / `decodeKey` read and
 * compile the whole document on every call; a codec reads only the record or the key.
 * Call `free()` (or `using`) when done.
 */
export class KeyCodec {
  constructor(doc: DesignInput);
  /** One record's row key, as `encodeKey(doc, record)`. */
  encode(record: KeyRecord): Uint8Array;
  /** Many records' row keys end to end; an error names the record (`path` `records[i].field`). */
  encodeAll(records: readonly KeyRecord[]): EncodedKeys;
  /** A row key's fields, as `decodeKey(doc, key)`. */
  decode(key: Bytes): Decoded;
  /** `[start, end)` of every segment of `key`, as `keySpans(doc, key)`. */
  spans(key: Bytes): Span[];
  free(): void;
  [Symbol.dispose](): void;
}
/** The byte layout of the key: one entry per segment. */
export function keyLayout(doc: DesignInput): SegmentLayout[];
/** `[start, end)` of every segment of `key`, in `keyLayout` order. */
export function keySpans(doc: DesignInput, key: Bytes): Span[];
/**
 * Lint findings of a design, errors first: `lintRules()` lists every rule (one of them,
 * `example-key`, holds the key to the design's `examples`).
 */
export function lintDesign(doc: DesignInput): Finding[];
/** Every lint rule with the principle behind it. */
export function lintRules(): LintRule[];

/* ------------------------------------------------------------------ analyze */

export interface LoadMetrics {
  regions: number; total: number; max: number; busiestRegion: number | null;
  hotspotFactor: number; busiestShare: number; activeRegions: number; emptyRegions: number;
  coefficientOfVariation: number; gini: number; effectiveParallelism: number;
}
export interface MatrixMetrics {
  regions: number; windows: number; perWindow: LoadMetrics[]; overall: LoadMetrics;
  loadedWindows: number; meanActiveRegions: number; meanHotspotFactor: number;
  maxHotspotFactor: number; meanEffectiveParallelism: number; minEffectiveParallelism: number;
  /** Mean over the loaded windows of the busiest region's share of the window's writes (1:
   * each window on one region); the largest of any window. */
  meanBusiestShare: number; maxBusiestShare: number;
}
/** Row-major `rows × cols` counts; `cells` crosses the boundary as a typed array. */
export interface Matrix { rows: number; cols: number; cells: Uint32Array }
export interface RegionReport {
  index: number; startKeyHex: string; startKey: string; endKeyHex: string; endKey: string;
  /** Writes (named before rows were told apart from writes; see `distinctRows`). */
  rows: number; bytes: number; writes: number;
  /** Distinct row keys: exact when `distinctRowsExact`, else a HyperLogLog estimate whose
   * relative standard error is `distinctRowsError` (6.5 %; 0 when exact). */
  distinctRows: number; distinctRowsExact: boolean; distinctRowsError: number;
  /** Cells kept (versions beyond `VERSIONS` are not); `writes` without a `cells` section. */
  cells: number;
  /** Auto-split wanted to split it, but its middle row is its first or last row. */
  unsplittable: boolean;
  createdAtMs: number | null; server: number;
}
export interface ServerReport {
  index: number;
  /** The server's name when the design places regions on named servers
   * (`regions.assignment: {servers: [...]}`, as `readRegions` gives it); else null. */
  name: string | null;
  regions: number; rows: number; bytes: number;
  /** Distinct row keys and cells kept of the regions it holds at the end (sums of their estimates). */
  distinctRows: number; cells: number;
  writesPerWindow: number[];
}
/** One of the largest rows by bytes written: exact when the report's `largestRowsExact`, else
 * counts from when the sketch took the row in (lower bounds: the true writes are at most
 * `writes + writesError`, the true bytes at most `bytes + bytesError`; both 0 when exact).
 * `key` is `toStringBinary`. */
export interface LargestRow {
  key: string; keyHex: string;
  /** The (final) region holding it. */
  region: number;
  writes: number; cells: number; bytes: number;
  writesError: number; bytesError: number;
}
/**
 * A uniform sample of the written row keys, sorted, as typed arrays: key `i` is
 * `keys.subarray(offsets[i], offsets[i + 1])` and ends up in region `regions[i]`
 * (`offsets.length === regions.length + 1`). `toStringBinary` gives a key's text.
 */
export interface KeySample { keys: Uint8Array; offsets: Uint32Array; regions: Uint32Array }
export interface SplitEvent {
  timeMs: number; splitKeyHex: string; splitKey: string;
  /** The parent's store-file bytes (KeyValue bytes × the compression ratio) at the check. */
  parentBytes: number;
  sizeToCheck: number; regionsOnServer: number; regionsAfter: number;
}
export interface Scan { startRowHex: string; startRow: string; stopRowHex: string; stopRow: string; regions: number[] }
export interface ReadPlan {
  name: string; scans: Scan[]; regionsTouched: number; rowsReadPerRowReturned: number | null; notes: string[];
  /** Rows after which each scan stops (`Scan#setLimit`; in the shell, `LIMIT => n` among the
   * options of `shellScan`'s command), when the plan counts on one: a `latest n` read whose
   * newest rows come first (a reversed timestamp). */
  limit?: number;
}
export interface AnalysisReport {
  writes: number; bytes: number;
  /** Distinct row keys: exact when `distinctRowsExact` (every row counted: records fed while
   * they fit the cap), else a HyperLogLog estimate whose relative standard error is
   * `distinctRowsError` (0 when exact). */
  distinctRows: number; distinctRowsError: number; distinctRowsExact: boolean;
  /** Writes share rows: at least 1.05 writes per distinct row (six standard errors of the
   * estimate), so the row key repeats and rows grow wide or take versions. */
  writesShareRows: boolean;
  /** Cells kept; `writes` without a `cells` section. */
  cells: number;
  /** The largest rows by bytes written, largest first (at most 32). */
  largestRows: LargestRow[];
  /** `largestRows` are the truly largest rows with exact counts; else a sketch's estimates. */
  largestRowsExact: boolean;
  writesOutsideWindows: number; startTimeMs: number; windowMs: number;
  windows: number;
  /** Writes per second over the run's time axis: the workload's rate, or your rows' own. */
  writeRate: number; regions: RegionReport[]; servers: ServerReport[];
  /** Region × window writes. */
  matrix: Matrix;
  /** Key-space bucket × window writes. */
  grid: Matrix;
  gridBuckets: number; sample: KeySample; metrics: MatrixMetrics; gridMetrics: MatrixMetrics;
  serverMetrics: LoadMetrics;
  /** The split keys the table was created with, hex, in key order: the layout's pre-split as this
   * run cut it (over your rows: their quantiles). What `create` and the SPLITS_FILE copy. */
  presplitKeysHex: string[];
  splits: SplitEvent[]; splitLimitReached: boolean;
  /** The verdict on how the writes spread, chosen once by the engine: the kind of `diagnosis[0]`. */
  spread: Spread;
  /** Plain-language findings, the verdict first: every view shows these as they are. */
  diagnosis: string[];
  /** When auto-split is on and never split this workload: sizes that would make it split (an
   * eighth of the bytes written a region, a quarter of that the flush size); else null. */
  splitSizes: SplitSizes | null;
  /** The rules auto-split followed (HBase's: checks after flushes and compactions, KeyValue
   * bytes, the largest store file's middle) and its flushes; null without auto-split. */
  autoSplit: AutoSplitRules | null;
  /** Each Phoenix secondary index of the design analyzed as the table it is, in the design's
   * order (over the generated workload, once it is all analyzed); empty without indexes, over
   * fed records, and in an index's own report. */
  indexes: IndexAnalysis[];
}
/** The index-table mutations one data-table write causes (Phoenix 5's strongly consistent
 * global indexes; a local index's writes in the data row's region). */
export interface IndexWrites {
  /** Per put of a new data row. */
  put: number;
  /** Per update that changes an indexed column (the index row moves). */
  updateIndexed: number;
  /** Per delete of a data row. */
  delete: number;
  /** Of `put`, the consistency protocol's verifying post-write (0 for uncovered and local). */
  consistencyExtra: number;
}
/** One Phoenix index of a design, analyzed. */
export interface IndexAnalysis {
  name: string;
  kind: 'global' | 'uncovered' | 'local';
  /** A global index's regions at the end of the run; 0 for a local index (the data table's). */
  regionsOfItsOwn: number;
  /** A global index's table analyzed over the same workload; null for a local index. */
  report: AnalysisReport | null;
  writes: IndexWrites;
  /** Mean bytes of one index row (key and value); an estimate when `bytesEstimated`. */
  bytesPerRow: number;
  /** Bytes written to the index over the run. */
  bytes: number;
  /** Data-table lookups each row read through the index costs (1 for an uncovered index). */
  dataLookupsPerRow: number;
  /** Mean over the loaded windows of the busiest region's share of the index's writes (a
   * local index: the data table's); the largest of any window. */
  busiestShare: number; maxBusiestShare: number;
  /** Mean hotspot factor over the loaded windows. */
  hotspotFactor: number;
  /** `bytesPerRow` and `bytes` are estimates (`estimates` says how). */
  bytesEstimated: boolean;
  /** What is estimated and how, one sentence each. */
  estimates: string[];
}
export interface AutoSplitRules {
  /** The split policy's class name (`SteppingSplitPolicy`). */
  policy: string;
  /** The memstore flush size in force, KeyValue bytes. */
  flushSize: number;
  /** `hbase.regionserver.optionalcacheflushinterval`, ms. */
  periodicFlushMs: number;
  /** What a cell adds to its row and value bytes: 20 + family + qualifier. */
  keyValueOverhead: number;
  compressionRatio: number;
  /** KeyValue bytes written, uncompressed. */
  keyValueBytes: number;
  flushes: number; compactions: number;
  /** KeyValue bytes left in memstores at the end: never looked at by a split check. */
  memstoreBytes: number;
  /** The rules, one sentence each. */
  rules: string[];
}
/** The diagnosis's verdict (engine: `spread_of`, its rule and thresholds in its doc comment). */
export type Spread = 'noWrites' | 'oneRegion' | 'hotEveryWindow' | 'movingHotspot' | 'hotRegion' | 'uneven' | 'even';
export interface SplitSizes { maxFileSize: number; memstoreFlushSize: number }
export interface ComparedDesign {
  name: string;
  /** Its row key in the text form. */
  key: string;
  regions: number; writes: number; distinctRows: number; distinctRowsError: number; cells: number;
  /** Bytes of the largest row (0 without writes). */
  largestRowBytes: number;
  /** The design's own region × window writes. */
  matrix: Matrix;
  /** Its final regions in key order, one per row of `matrix`. */
  regionKeys: ComparedRegion[];
  metrics: MatrixMetrics; gridMetrics: MatrixMetrics; grid: Matrix; diagnosis: string[];
  /** Mean bytes of the sampled row keys. */
  keyBytes: number;
  /** Each read planned over the design's final regions. */
  reads: ComparedRead[];
}
export interface ComparedRead {
  name: string; scans: number; regionsTouched: number; rowsReadPerRowReturned: number | null;
  /** A scan of it runs from the first row to the last: the read fixes no leading part of the key. */
  fullTableScan: boolean;
}
/** One compared region's key range, `toStringBinary` (empty: the table's start or end); its
 * writes over the run and the cells and bytes it keeps (what a map of cells or bytes weighs its
 * row by). */
export interface ComparedRegion { startKey: string; endKey: string; server: number; writes: number; cells: number; bytes: number }
export interface Comparison {
  gridBuckets: number; windows: number;
  /** Start of window 0 (ms since the epoch) and the window width (ms): the first design's workload. */
  startTimeMs: number; windowMs: number;
  designs: ComparedDesign[];
  /** The figures side by side, each design's against the first's, judged by the engine. */
  figures: ComparedFigure[];
}
/** One compared figure: each design's value (null: it has none, as a read only the first has),
 * its change in percent of the first's, and the verdict (`same`: within 2 %; `changed`: neither
 * way is better, as for regions and rows). The first design's change and verdict are null. */
export interface ComparedFigure {
  label: string;
  better: 'lower' | 'higher' | null;
  values: (number | null)[];
  changePercent: (number | null)[];
  verdicts: ('better' | 'worse' | 'same' | 'changed' | null)[];
}
export interface Progress { done: number; total: number; regions: number; finished: boolean }

/** Analyzes a whole design document (its workload over its region layout). */
export function analyzeDesign(doc: DesignInput, options?: AnalyzeOptions | null): AnalysisReport;

/**
 * Which engine answers: `"native"` under Node when the platform's package (the Node-API addon,
 * `rowkey-lab-linux-x64-gnu` and the like) loads, else `"wasm"` (always in browsers).
 * `ROWKEY_LAB_ENGINE=wasm|native` chooses under Node. Both give the same answers and errors.
 */
export function engine(): 'native' | 'wasm';
/** Compares 2–4 designs over the first one's workload on one grid. */
export function compareDesigns(docs: readonly DesignInput[], options?: AnalyzeOptions | null): Comparison;
/** Plans every read of the design over `splitKeys` (default: the design's pre-split). */
export function planReads(doc: DesignInput, splitKeys?: readonly Bytes[] | null): ReadPlan[];
/** Each read of a Phoenix design through the table Phoenix would pick among the data table
 * (split at `splitKeys`, default its pre-split) and its indexes: a point lookup on the data
 * table wins; else the table whose leading key columns the read binds most, then one that
 * needs no data-table lookup. `[]` without indexes. */
export function planIndexReads(doc: DesignInput, splitKeys?: readonly Bytes[] | null): IndexReadPlan[];
/** An engine error kept beside an answer: the message (with where), then the fields a thrown
 * engine error carries. */
export interface ErrorBeside {
  message: string;
  kind: ErrorKind;
  reason: string;
  path?: string;
  offset?: number;
  line?: number;
  column?: number;
}
/** The reads beside an analysis (`readsBeside`): planned over the regions the report ends with,
 * and through a Phoenix design's indexes when it has indexes and reads. */
export interface ReadsBeside {
  reads: ReadPlan[];
  /** Why the reads could not be planned (null: they were); the report stands either way. */
  readsError: ErrorBeside | null;
  indexReads?: IndexReadPlan[];
  indexReadsError?: ErrorBeside | null;
}
/** The design's reads over the regions `report` ends with (auto-split's daughters included),
 * and through Phoenix's indexes: what the page and the CLI show beside an analysis. Only the
 * report's `regions` (`startKeyHex`, `writes`), `writes` and `servers` (`name`, `rows`) are read. */
export function readsBeside(doc: DesignInput, report: AnalysisReport): ReadsBeside;
/** A table's load now against a design's writes on the table its report ends with (`tableNow`). */
export interface TableNow {
  what: 'writes' | 'requests';
  total: number;
  busiestNow: number;
  /** Each region now and with the design (its start key and server: `list.load`'s of the same
   * index); null when the design's regions are not the table's. */
  regions: { now: number; design: number }[] | null;
  busiestDesign: number | null;
  /** Each server the report names: its regions' share of the load now, its share of the writes. */
  servers: { name: string; now: number; design: number }[];
}
/** `list.load` (as `readRegions` gave it) against the design's writes in `report`; null when
 * the load counted nothing. */
export function tableNow(list: Pick<RegionList, 'load'>, report: AnalysisReport): TableNow | null;
export interface ReadThrough {
  /** The index read through; null for the data table. */
  index: string | null;
  kind: 'global' | 'uncovered' | 'local' | null;
  access: 'pointLookup' | 'rangeScan' | 'fullScan';
  /** Leading key columns (after the salt) the read binds: fixed ones, then one range. */
  boundColumns: number;
  plan: ReadPlan;
  /** Data-table lookups per row returned (1: the index does not hold the whole row). */
  dataLookupsPerRow: number;
}
export interface IndexReadPlan {
  read: string;
  chosen: ReadThrough;
  /** The read on the data table alone. */
  withoutIndex: ReadThrough;
  /** The tables considered, the data table first. */
  candidates: ReadThrough[];
}
/** The design's pre-split keys. */
export function layoutSplitKeys(doc: DesignInput): Uint8Array[];
/** Who creates a salted Phoenix table's regions, in a sentence (Phoenix itself, one per salt
 * bucket, from its DDL), or null for any other design. */
export function phoenixRegionsNote(doc: DesignInput): string | null;
/** The HBase shell line `create 'table', 'family', SPLITS => [...]`; with `versions` other
 * than 1 (the design's `cells.versions`), the family as `{NAME => 'family', VERSIONS => n}`. */
export function shellCreate(table: string, family: string, keys: readonly Bytes[], versions?: number | null): string;
/** How many regions to create a table of this design with: a year of data (at `writeRate`, the
 * report's own, else the workload's; a Phoenix TTL applied) at the production region size (the
 * table's `tableMaxFileSize`, else 10 GiB; never the in-run auto-split's) on its servers, rounded
 * up to a multiple of them (the servers alone for a key led by time), and the pre-split of that
 * count matching the key's first segment (`presplit`, null when none does; a salt's own buckets
 * decide the count). */
/** Where a field the new key reads comes from. */
export interface FieldSource {
  field: string;
  from: 'column' | 'oldKey' | 'missing';
  why: string | null;
}
/** The rekey plan (`rekeyPlan`). */
export interface RekeyPlan {
  fields: FieldSource[];
  /** Every field has a source. */
  ready: boolean;
  /** The new table's split keys, as `splits --json` gives them. */
  splitKeys: { hex: string; binary: string }[];
  regions: { startKey: string; endKey: string; rows: number; bytes: number; share: number; hfiles: number }[];
  job: {
    rows: number;
    bytesRead: number;
    bytesShuffled: number;
    bytesWritten: number;
    hdfsBytes: number;
    spaceDuringMove: number;
    reducers: number;
    maxHfilesPerRegion: number;
    regionsOverHfileLimit: number;
    straggler: number;
    stragglerShare: number;
    seconds: number;
    estimate: string;
  };
  old: RekeySide;
  new: RekeySide;
  create: string;
  splitsFile: string;
  phoenix: string | null;
  warnings: string[];
  checklist: string[];
  /** The job's text: PySpark's rekey_df, a MapReduce template (snapshot in, HFiles out), and a
   * Phoenix UPSERT SELECT when both designs are Phoenix tables. */
  jobs: { spark: string; mapreduce: string; phoenix: string | null };
  salt: {
    from: number;
    to: number;
    movedShare: number;
    reads: { name: string; scansBefore: number; scansAfter: number }[];
  } | null;
}
/** A column `verify` compared: both exports hold it, read as one type. */
export interface VerifyComparedColumn {
  column: string;
  /** The design's field that reads it, when its name is not the column's (`--map`). */
  field?: string;
  /** The type both sides were read as (`long`, `string`, `double`, `timestamp` in ms, …). */
  as: string;
  /** Its type in the old export, as the file says it (`Int64`, `text (CSV)`, `JSON integer`). */
  old: string;
  /** Its type in the new export. */
  new: string;
}
/** What `RekeyVerifier.finish()` found. */
export interface VerifyReport {
  oldRows: number;
  newRows: number;
  buckets: number;
  differingBuckets: number;
  /** Old rows with no row under their new key in the new table. */
  missing: number;
  /** New rows with no old row. */
  extra: number;
  /** The same key on both sides, another value in a column compared. */
  changed: number;
  /** No row missing, extra or changed, and no column in one export only unless ignored. */
  equal: boolean;
  /** The counts are exact (else lower bounds: the differing rows passed the memory held). */
  complete: boolean;
  first: { kind: 'missing' | 'extra' | 'changed'; key: string; keyHex: string; fields: string | null }[];
  /** Every column both exports hold, unless ignored: the key's and every other. */
  compared: VerifyComparedColumn[];
  /** The columns not compared, and why (`--ignore`, `not in --columns`). */
  ignored: { column: string; why: string }[];
  /** Columns only the old export holds (not equal unless ignored). */
  onlyOld: string[];
  /** Columns only the new export holds (not equal unless ignored). */
  onlyNew: string[];
}
/** One read `RekeyVerifier.next()` asks for. */
export interface VerifyRead {
  side: 'old' | 'new';
  buckets: number[] | null;
}
/** What a file of rows says of its columns: its first bytes, or a Parquet file's footer
 * (`rowsSample` reads it). */
export type RowsSample = { head: Uint8Array; whole: boolean } | { footer: Uint8Array; fileLength: number };
/** One table's export for `RekeyVerifier`: how its rows meet the design, what it says of its columns. */
export interface VerifyExport {
  rows?: RowsOptions;
  sample: RowsSample;
}
/** Which columns `verify` compares: every column both exports hold unless `ignore`d (a column one
 * export lacks included: it is then expected); `columns` restricts to those (and the key's). */
export interface VerifyOptions {
  ignore?: string[];
  columns?: string[] | null;
}
/** What a file of rows says of its columns (a Blob, bytes or a reader), as `RekeyVerifier` takes each export. */
export function rowsSample(source: Blob | Uint8Array | ArrayBuffer | RowsReader, rows?: RowsOptions): Promise<RowsSample>;
/** Verifying a rekey: `oldDoc` is validated (it may be just a key); `newDoc` (or just its key) is
 * fitted to the old export and every column both exports hold is compared unless `options` says
 * otherwise. Both exports read through `design()` (a rows session with keys and their rows'
 * digests: `keepKeys(true)`, or `analyzeRows`' `{keys: true, digests: true}`) as `next()` says,
 * each slice given to `feed`; when `next()` is null, `finish()`. */
export class RekeyVerifier {
  free(): void;
  [Symbol.dispose](): void;
  constructor(oldDoc: DesignInput, newDoc: DesignInput, oldExport: VerifyExport, newExport: VerifyExport, options?: VerifyOptions | null);
  /** The design both exports are read with (the new key's fields and every column compared), JSON text. */
  design(): string;
  /** The read to make next (the engine's rounds): one export, every row counted (`buckets` null)
   * or the rows of `buckets` held; null when `finish()` answers. */
  next(): VerifyRead | null;
  /** A slice of the export `next()` named (its keys with their rows' digests). */
  feed(side: 'old' | 'new', keys: Uint8Array, offsets: Uint32Array): void;
  finish(): VerifyReport;
}
/** A design on the rows, before or after. */
export interface RekeySide {
  regions: number;
  /** Over the whole run (busiest region ÷ mean). */
  hotspot: number;
  /** Per time window, averaged: the one the headline speaks of (a moving hotspot is 1.0 over the run). */
  hotspotPerWindow: number;
  effectiveParallelism: number;
  headline: string;
  /** Each Phoenix index of the design on the same rows, in its order (empty without). */
  indexes: RekeyIndexSide[];
}
/** A Phoenix index of a design on the rows, before or after (a new data key moves its indexes too). */
export interface RekeyIndexSide {
  name: string;
  kind: 'global' | 'uncovered' | 'local';
  /** Regions of its own (0 for a local index: its rows are in the data table's). */
  regions: number;
  busiestShare: number;
  hotspotPerWindow: number;
  /** Its table's diagnosis' headline (empty for a local index). */
  headline: string;
}
/** The plan for moving `oldDoc`'s table to `newDoc`'s on `oldDoc`'s generated workload (both
 * designs run its records, each on its own layout): the page's plan under Compare. */
export function rekeyOnWorkload(oldDoc: DesignInput, newDoc: DesignInput, options?: RekeyOptions | null): RekeyPlan;
/** The plan for moving the rows `oldReport` analysed under `oldDoc` to `newDoc`, whose analysis
 * of the same rows is `newReport` (each report as `analyzeDesign` or a rows session gives it). */
export function rekeyPlan(oldDoc: DesignInput, newDoc: DesignInput, oldReport: AnalysisReport, newReport: AnalysisReport, options?: RekeyOptions | null): RekeyPlan;
/** How a table is cut at the rows: `regions` regions of equal rows or bytes of the rows' keys, a
 * leading salt's buckets kept whole (absent `regions`: the design's own pre-split). */
export interface RowsCut {
  regions?: number | null;
  /** Only with `regions`; `rows` when absent. */
  by?: 'rows' | 'bytes' | null;
}
/** `doc` with the pre-split that cuts its table at the rows (`splits --records`, `rekey --records`). */
export function cutAtRows(doc: DesignInput, cut?: RowsCut | null): DesignDocument;
/** The designs a rekey's reading of the rows feeds (`[old, new cut at the rows]`) and whether
 * one reading feeds both (`apart`: why not). */
export interface RekeyReading {
  designs: [DesignDocument, DesignDocument];
  shared: boolean;
  apart: string | null;
}
/** The designs to read the rows with for a rekey plan over them (the engine's rule). */
export function rekeyReading(oldDoc: DesignInput, newDoc: DesignInput, cut?: RowsCut | null): RekeyReading;
/** What reading the rows found under one design, as `rekeyRowsPlan` takes it. */
export interface RekeyRowsSide {
  /** The design the rows were read with (the reading's `design`). */
  design: DesignInput;
  /** Its report over the rows (`finish()`). */
  report: AnalysisReport;
  /** What reading found (its `columns`). */
  stats: RowStats;
  /** `splitKeys().exact`. */
  splitKeysExact: boolean;
}
/** The rekey plan over the rows, from what one reading found under each design of
 * `rekeyReading` (`options` without `columns`: the rows' own are taken). */
export function rekeyRowsPlan(
  oldSide: RekeyRowsSide,
  newSide: RekeyRowsSide,
  options?: RekeyOptions | null,
): RekeyPlan & { splitKeysExact: boolean };
/** One region of the old table at the snapshot a series-based plan reads. */
export interface ObservedRegion {
  /** toStringBinary; `""` the table's start; null when no file gives it. */
  startKey: string | null;
  endKey: string | null;
  /** Store files and memstore, bytes; null when not read. */
  bytes: number | null;
  requestsPerSec: number | null;
  /** Sample records whose old key falls in it. */
  sampled: number;
}
/** How a series-based plan was estimated, and how far off it can be. */
export interface SeriesEstimate {
  /** The snapshot read (the end of the last interval with a rate), ms since the epoch. */
  atMs: number;
  oldRegions: ObservedRegion[];
  /** The old table's bytes. */
  bytes: number;
  /** Records of the old design's workload sampled. */
  sampled: number;
  /** Rows estimated: bytes ÷ a cell's estimated bytes. */
  rows: number;
  /** Bytes of old regions no sample record fell in (in every new region's error). */
  unplacedBytes: number;
  unplaced: string[];
  /** Per new region, how far its bytes can be off (two standard errors of the sample, plus the unplaced bytes). */
  errorBytes: number[];
  maxErrorShare: number;
  /** What the estimate assumes, in words. */
  assumptions: string[];
}
/** The rekey plan from a snapshot series (`rekeyFromSeries`): estimated, `splitKeysExact` false. */
export interface SeriesRekeyPlan extends RekeyPlan {
  splitKeysExact: false;
  estimate: SeriesEstimate;
}
/**
 * The rekey plan from the old table's snapshot series alone (`series`: what `readSeries` gives):
 * the new table cut into `regions` regions by bytes at `sample` records of the old design's
 * workload (100,000 when absent) placed in the observed regions and weighted by their sizes.
 * Estimates, with how far off they can be (`estimate`); the rows give exact ones (`rekeyRows`).
 */
export function rekeyFromSeries(
  oldDoc: DesignInput,
  newDoc: DesignInput,
  series: RegionSeries,
  regions: number,
  sample?: number | null,
  options?: RekeyOptions | null,
): SeriesRekeyPlan;
export function planRegions(doc: DesignInput, keyBytes: number, regions: number, activeRegionsPerWindow: number, writeRate?: number | null): RegionPlan;
export interface RegionPlan {
  /** Regions to create the table with: a salted key's buckets; else a year at the production
   * region size (the table's MAX_FILESIZE, else 10 GiB), TTL applied, on the servers. */
  recommended: number;
  /** The regions a year of data fills at the production region size. */
  capacityRegions: number;
  servers: number;
  presplit: PreSplit | null;
  presplitRegions: number | null;
  /** The design's pre-split already makes `recommended` regions. */
  matchesDesign: boolean;
  /** The regions the design's own pre-split makes (its create statement's). */
  designRegions: number;
  /** The plan in one line, with the design's own count where it differs. */
  headline: string;
  capacity: CapacityReport;
}
/**
 * Months of life: the design's table simulated month by month under HBase's own rules (flushes,
 * split checks by the table's policy, compactions, TTL, the normalizer, the balancer); the
 * writes fall over the key space as a sample of the design's workload shows. `options` are
 * settings over the design's own (its region servers, its auto-split policy and sizes).
 */
export function lifeDesign(doc: DesignInput, options?: LifeOptions | null): LifeReport;
/** What `lifeDesign` answers. */
export interface LifeReport {
  policy: string;
  overallHregionFiles: boolean;
  /** Regions a server can keep written: heap × memstore share / flush size. */
  memstoreBound: number;
  months: LifeMonth[];
  crossings: LifeCrossings;
  /** The regions at the end, in key order (coordinates: lane i spans [i, i + 1)). */
  regionsAtEnd: { start: number; end: number; bytes: number; server: number }[];
  /** What the run ran with, in a line (servers, split policy, split and flush sizes, TTL, normalizer, balancer, major compactions). */
  ranWith: string;
  notes: string[];
  /** The settings the run used that differ from HBase's defaults, by HBase's name (values as JSON text). */
  changedSettings: { name: string; member: string; value: string; default: string }[];
  /** The Phoenix index whose own table was simulated (the option `index`); null: the design's table. */
  table: string | null;
  /** What the months mean and what fixes them, each fix checked by simulation (null only from the Rust `simulate`). */
  diagnosis: LifeDiagnosis | null;
}
/** The months' conclusion: a headline and the findings, worst first. */
export interface LifeDiagnosis {
  /** One sentence: the worst finding and how many more, or a healthy table's figures. */
  headline: string;
  findings: LifeFinding[];
}
/** One thing the months show that a person should act on. */
export interface LifeFinding {
  kind: 'emptyRegions' | 'hotServer' | 'regionsPerServer' | 'memstoreBound' | 'largeRegion' | 'expiredOnDisk' | 'splitStorms';
  /** The first month at whose end it holds. */
  month: number;
  /** Its figure in words. */
  figure: string;
  /** What it means. */
  meaning: string;
  /** The change that fixes it, checked by simulation; null when there is none to offer. */
  fix: LifeFix | null;
}
/** A change that fixes a finding, and what the simulation says it does. */
export interface LifeFix {
  /** The change, in HBase's names. */
  change: string;
  /** The change as `LifeOptions` members, when it is a setting (null: a key or pre-split change). */
  options: LifeOptions | null;
  /** The finding's figure at the last month with the change, beside the original's. */
  checked: string;
  /** The figure at the last month without the change. */
  before: number;
  /** With it; null when not simulated. */
  after: number | null;
  /** The finding no longer holds at the last month with the change. */
  clears: boolean;
}
/** One month of the table's life. */
export interface LifeMonth {
  month: number;
  regions: number;
  /** Regions with no store file and no memstore (0 MB). */
  emptyRegions: number;
  /** Regions whose every cell has passed the TTL. */
  expiredRegions: number;
  /** Regions: empty, up to 128 MiB, 1, 5, 10, 20 GiB, above. */
  sizeHistogram: number[];
  largestRegionBytes: number;
  servers: LifeServerMonth[];
  /** The largest share of an hour's writes one server took, averaged over the month. */
  hottestServerWriteShare: number;
  /** The most regions one server had written in one hour (what the memstore bound limits). */
  maxRegionsWrittenAtOnce: number;
  splits: number;
  normalizerSplits: number;
  merges: number;
  moves: number;
  balancerRuns: number;
  balancerCost: BalancerCost;
  flushes: number;
  minorCompactions: number;
  majorCompactions: number;
  compactionBytes: number;
  maxSplitsPerDay: number;
  maxMajorCompactionsPerDay: number;
  splitsByDay: number[];
  majorCompactionsByDay: number[];
  /** Days when at least a tenth of the regions (and at least 4) split or major-compacted. */
  busyDays: number;
  /** Which days of the month were busy, by the rule of `busyDays`. */
  busyByDay: boolean[];
  writtenBytes: number;
  liveBytes: number;
  onDiskBytes: number;
  memstoreBytes: number;
  expiredBytes: number;
}
/** One region server at a month's end. */
export interface LifeServerMonth {
  regions: number;
  bytes: number;
  writeShare: number;
  writtenRegions: number;
}
/** The StochasticLoadBalancer's costs (0 to 1) and their weighted mean. */
export interface BalancerCost {
  regionCountSkew: number;
  tableSkew: number;
  storeFileTableSkew: number;
  writeRequest: number;
  storeFile: number;
  moves: number;
  total: number;
}
/** The first month (1-based) each guideline is crossed; null: not within the months. */
export interface LifeCrossings {
  regionsPerServerOver200: number | null;
  memstoreBound: number | null;
  regionOver20Gib: number | null;
  splitLimit: number | null;
}
/**
 * `lifeDesign`'s run as the page's Months view draws it: the report, the settings it ran with
 * (the design's, HBase's defaults and `options`) and the regions over the key space month by
 * month. `onMonth(done, total)` is called at each month's end (what it throws stops the run).
 */
export function lifeMonths(
  doc: DesignInput,
  options?: LifeOptions | null,
  onMonth?: ((done: number, total: number) => void) | null,
): LifeView;
/**
 * The design under two settings side by side (pre-split or not, one policy or another, TTL or
 * FIFO, the normalizer on or off): each as `lifeMonths` gives it, the figures compared and the
 * verdict in words. `onMonth(done, total)` counts the months of both runs.
 */
export function lifeCompare(
  doc: DesignInput,
  options: LifeOptions | null,
  otherOptions: LifeOptions | null,
  onMonth?: ((done: number, total: number) => void) | null,
): LifeComparison;
/** How `lifeMonthsAsync` runs: a second setting, progress, and a Stop. */
export interface LifeRun {
  /** A second setting: the answer is `lifeCompare`'s. */
  otherOptions?: LifeOptions | null;
  /** At each month's end (of both settings, with `otherOptions`); what it throws stops the run. */
  onMonth?: (done: number, total: number) => void;
  /** Ends the run, mid-month in Node (a worker thread ended), with an AbortError. */
  signal?: AbortSignal;
}
/**
 * `lifeMonths` (or, with `run.otherOptions`, `lifeCompare`) as a promise that `run.signal` stops:
 * in Node on a worker thread, ended at once (a month at the 50,000-region cap takes 25–100 s in
 * the engine, which nothing on its thread can interrupt); in a browser on this thread, stopped
 * only by an abort before it starts or what `onMonth` throws. The same answer as the sync call.
 */
export function lifeMonthsAsync(
  doc: DesignInput,
  options?: LifeOptions | null,
  run?: LifeRun & { otherOptions?: undefined },
): Promise<LifeView>;
export function lifeMonthsAsync(
  doc: DesignInput,
  options: LifeOptions | null,
  run: LifeRun & { otherOptions: LifeOptions | null },
): Promise<LifeComparison>;
/**
 * The design's simulated months (`options` as for `lifeDesign`) against `budgets`: the gate of
 * `rowkey-lab check --max-empty-regions N --max-regions-per-server N`, naming the first month
 * over each budget.
 */
export function checkLife(doc: DesignInput, options: LifeOptions | null, budgets: LifeBudgets | null): LifeCheck;
/** What `checkLife` answers. */
export interface LifeCheck {
  ok: boolean;
  months: number;
  emptyRegions: LifeMonthFigure | null;
  regionsPerServer: LifeMonthFigure | null;
  /** Each breach in words, naming its first month over and the worst. */
  breaches: string[];
  /** The months' diagnosis, so a failed gate can name the worst finding and its fix. */
  diagnosis: LifeDiagnosis | null;
}
/** One checked figure over the months. */
export interface LifeMonthFigure {
  limit: number;
  worst: number;
  worstMonth: number;
  /** The first month over the budget; null: within it every month. */
  firstMonthOver: number | null;
}
/** What `lifeMonths` answers. */
export interface LifeView {
  report: LifeReport;
  /** Every setting as the run had it. */
  settings: LifeOptions;
  map: LifeKeyMonthMap;
}
/**
 * The regions month by month over the key space: row r is the stretch of coordinates
 * [r, r + 1) × lanes / rows, column c the end of month c + 1; each array row-major (r × cols + c),
 * each cell about the region holding the stretch's middle (its bytes, server, start and end) and
 * the region boundaries inside the stretch.
 */
export interface LifeKeyMonthMap {
  rows: number;
  cols: number;
  /** Coordinates run from 0 to `lanes` (lane i spans [i, i + 1)). */
  lanes: number;
  /** The lanes are the key's prefix values (salt buckets, tenants). */
  prefixLanes: boolean;
  /** Where writes go inside a lane: `ascending`, a key that moves up with time. */
  order: 'spread' | 'ascending' | 'descending';
  bytes: number[];
  boundaries: number[];
  server: number[];
  regionStart: number[];
  regionEnd: number[];
}
/** What `lifeCompare` answers. */
export interface LifeComparison {
  a: LifeView;
  b: LifeView;
  figures: LifeComparedFigure[];
  /** A summary line, then one line per figure that differs. */
  verdict: string[];
}
/** One figure of both runs (lower is better); `better` null when within 5 % of each other. */
export interface LifeComparedFigure {
  figure: string;
  a: number;
  b: number;
  better: 'a' | 'b' | null;
}
/**
 * The HBase shell line that runs one scan of a read plan:
 * `scan 'table', {STARTROW => "\x01abc", STOPROW => "\x01abd"}` (double-quoted Ruby literals,
 * which the shell hands to `Scan` as their own bytes; an empty row is left out), or
 * `get 'table', "\x01abc"` when the range is one row (`stopRow` = `startRow` + a zero byte,
 * as the plan of a get that gives the whole key). With `limit` (a plan's `limit`), a scan
 * stops after that many rows: `LIMIT => n` joins its options.
 */
export function shellScan(table: string, startRow: Bytes, stopRow: Bytes, limit?: number | null): string;
/** The keys as a `SPLITS_FILE`: one `toStringBinary` key per line. */
export function splitsFile(keys: readonly Bytes[]): string;

/** The pre-splits `readRegions` gives, as a design's `regions.presplit` holds them. */
export type ReadPreSplit =
  | { kind: 'none' }
  | { kind: 'explicit'; keys: string[]; encoding: 'stringBinary' }
  | { kind: 'hexString' | 'decimalString' | 'uniform'; regions: number };
/** A table's current regions (`readRegions`). */
export interface RegionList {
  /** What the text was: region names (`list_regions`, `scan 'hbase:meta'`), a `create`
   * statement, a bracketed list of keys, or one key per line (`get_splits`, `SPLITS_FILE`). */
  source: 'regionNames' | 'create' | 'list' | 'lines';
  table: string | null;
  regions: number;
  presplit: ReadPreSplit;
  /** Region names whose encoded part (the MD5 of `table,start key,id`) checked out. */
  verified: number;
  /** What was skipped or looks odd: read replicas, a missing first region, edge spaces; and
   * where the load came from. */
  notes: string[];
  /** What each region takes now, in key order (one per region), when the text says:
   * `list_regions`' SERVER_NAME, SIZE and REQ, or RegionServer `/jmx` dumps pasted with the
   * region names (joined by encoded name). Empty when it does not. */
  load: RegionLoad[];
  /** Where the regions are now, as a design's `regions.assignment`: one server name per
   * region in key order, when `load` names every region's server; else null. With it the
   * analysis places the regions where the table has them (the per-server load and the split
   * policy's count of the table's regions on a server), not round-robin. */
  assignment: { servers: string[] } | null;
  /** Each region's share of the load `load` counted (writes when the text counted any, else
   * requests), when it counted any. */
  loadShares?: LoadShares;
}
export interface LoadShares { what: 'writes' | 'requests'; total: number; shares: number[]; busiest: number }
/** The design on a table's regions as `readRegions` gave them: their split points as the
 * pre-split, and their servers when the table names every region's. A placement by names the
 * design carried from another table is dropped. */
export function onTableRegions(doc: DesignInput, list: RegionList): NormalizedDesign;
/** The design fitted to your own `records` in place of its workload: their count, and a
 * `sampleQuantiles` pre-split without a sample cut at their keys (every k-th, at most 10,000). */
export function fitToRecords(doc: DesignInput, records: readonly KeyRecord[]): NormalizedDesign;

/** Limits a design is checked against (`checkDesign`); every member optional. */
export interface Budgets {
  /** Most mean per-window hotspot factor (busiest region / mean region); default 2, at least 1. */
  maxHotspot?: number;
  /** Most server hotspot factor (busiest server / mean server), when checked; at least 1. */
  maxServerHotspot?: number | null;
  /** Most scans one read may need; default 16, at least 1. */
  maxScans?: number;
  /** Which lint findings fail: 'error' (default), 'warning' (and errors) or 'off'. */
  lint?: 'error' | 'warning' | 'off';
}
export interface CheckVerdict {
  ok: boolean; hotspotFactor: number; serverHotspotFactor: number; maxScans: number;
  /** The lint findings that fail at the budget's level (example-key findings aside). */
  lint: Finding[];
  /** Recorded example keys the design no longer writes: failed whatever the lint level. */
  examples: Finding[];
  /** Every broken budget, in words. */
  breaches: string[];
}
/** The budgets with their defaults filled in; a budget that could never pass (a factor under 1,
 * 0 scans) throws an error whose `path` names the member. */
export function readBudgets(budgets?: Budgets | null): Required<Budgets>;
/** Analyzes the design's workload, plans its reads over its pre-split, and checks both. */
export function checkDesign(doc: DesignInput, budgets?: Budgets | null, options?: AnalyzeOptions | null): CheckVerdict;
/** One example's recorded key against the key the design writes now. */
export interface ExampleKey {
  index: number; record: KeyRecord; key: string | null; keyBinary: string | null;
  keyNow: string | null; keyBinaryNow: string | null;
  status: 'same' | 'moved' | 'unrecorded' | 'error';
  message: string | null;
  /** The linter flags it: a recorded key the design no longer writes. */
  failed: boolean;
}
/** Each example of the design against the key it writes now. */
export function checkExamples(doc: DesignInput): ExampleKey[];
/** The design with every moved example's key rewritten (a deliberate key change). */
export function updateExamples(doc: DesignInput): { design: NormalizedDesign; examples: ExampleKey[] };
/** One region and what it takes now. Counts are cumulative since the region opened: compare
 * their shares, not their sizes. */
export interface RegionLoad {
  /** The region's start key as toStringBinary text (empty for the first region). */
  startKey: string;
  /** Its encoded name, when the text names the region. */
  encoded: string | null;
  /** `host,port,startcode` (list_regions) or the host (a /jmx dump). */
  server: string | null;
  /** Reads and writes since the region opened (REQ, or the dump's two counters added). */
  requests: number | null;
  /** `readRequestCount` (a /jmx dump). */
  reads: number | null;
  /** `writeRequestCount` (a /jmx dump). */
  writes: number | null;
  /** Store files in MB (SIZE, or the dump's `storeFileSize`). */
  storeFileMb: number | null;
}
/**
 * A table's current regions, read from what HBase prints: `get_splits`, `list_regions`,
 * `scan 'hbase:meta'`, a `SPLITS_FILE`, a `create … SPLITS => [...]` statement, or a JSON list
 * of toStringBinary keys; with region names, also what each region takes now (`load`), from
 * `list_regions`' columns or RegionServer `/jmx` dumps in the same text. Region names are each checked against their MD5; one that does not
 * check out is an error (kind `parse`, with `line` and `column`). `table` picks one table when
 * the text has region names of several.
 */
export function readRegions(text: string, table?: string | null): RegionList;

/** A region boundary read through a design's key (`decodeBoundaries`). */
export interface Boundary {
  /** The boundary as toStringBinary text. */
  key: string;
  /** The salt or hash prefix it opens with (its digits, or its byte's value), when whole. */
  salt: string | null;
  /** The fields it holds in the key's order; `exact: false` for a value it may cut. */
  fields: DecodedField[];
  /** `salt 07 · phone=1380…`, `(first)` for the empty key, or the key's text. */
  label: string;
  /** Whether it read as this key. */
  decoded: boolean;
}
/** Region boundaries (start keys, split keys) read through the design's key, one per key:
 * decoding stops where a boundary ends. npm package only. */
export function decodeBoundaries(doc: DesignInput, keys: readonly Bytes[]): Boundary[];

/* ------------------------------------------------------------------ a table over time */

/** One file of a series: a RegionServer `/jmx` dump, `list_regions` or `status 'detailed'`
 * output, or region names alone (a `scan 'hbase:meta'`: key ranges, no load). Its time is the
 * one in its name (epoch ms, or `20261126T053600Z`), else the dump's own
 * (`java.lang:type=Runtime`), else `modifiedMs`. */
export interface SnapshotFileInput { name: string; text: string; modifiedMs?: number | null }
/** One file as read. */
export interface SeriesFile {
  name: string;
  kind: 'jmx' | 'listRegions' | 'statusDetailed' | 'regionNames';
  timeMs: number | null;
  timeFrom: 'name' | 'dump' | 'modified' | null;
  /** The snapshot it belongs to; null for key ranges only. */
  snapshot: number | null;
  servers: string[];
  /** Readings of the table's regions in it. */
  readings: number;
}
/** The files of one poll (within 5 s of each other). */
export interface SeriesSnapshot {
  timeMs: number;
  files: number[];
  regions: number;
  /** Servers seen elsewhere in the series with no dump in this snapshot. */
  missingServers: string[];
}
/** A region the series read. */
export interface SeriesRegion {
  encoded: string;
  /** toStringBinary; null when no file names the region (a dump gives encoded names only). */
  startKey: string | null;
  regionId: number | null;
  first: number;
  last: number;
  /** The split parent, or the merged regions (indexes into `regions`). */
  parents: number[];
}
/** How an interval's count was taken: `difference` exact; `reopened`, `split`, `merged` since
 * the region opened within the interval (a lower bound); `gap` no rate. */
export type Counted = 'difference' | 'reopened' | 'split' | 'merged' | 'gap';
/** One region in one interval. */
export interface RegionRate {
  region: number;
  startKey: string | null;
  endKey: string | null;
  /** Its server at the interval's end (not read there: at its last reading). */
  server: string | null;
  /** Its server has no dump at the interval's end: kept where it was last read. */
  serverMissing: boolean;
  counted: Counted;
  seconds: number | null;
  readsPerSec: number | null;
  writesPerSec: number | null;
  requestsPerSec: number | null;
  /** Store files and memstore at the interval's end (whole MB from list_regions and status);
   * null when not read, or read before HBase's region metrics were filled (storeCount 0). */
  sizeBytes: number | null;
  growthBytesPerSec: number | null;
  /** Its share of the interval's requests. */
  share: number | null;
}
/** One server's totals in one interval. */
export interface ServerRate {
  server: string;
  regions: number;
  readsPerSec: number;
  writesPerSec: number;
  requestsPerSec: number;
  share: number;
  /** No dump of it at the interval's end: its regions kept from their last readings, its
   * rates unknown (the sums are 0), not idle. */
  serverMissing: boolean;
}
/** The time between two snapshots. */
export interface SeriesInterval {
  from: number;
  fromMs: number;
  toMs: number;
  /** The regions alive at its end, in key order. */
  regions: RegionRate[];
  /** The busiest regions (indexes into `regions`), at most 5. */
  top: number[];
  servers: ServerRate[];
  /** The table's requests per second (the regions with a rate); null when none has one (a
   * missing dump: unknown, not 0). */
  requestsPerSec: number | null;
}
/** What happened to the regions between two snapshots (`snapshot`: the later one), with its
 * time, the interval it fell in, the regions its mark goes on and its sentence (every shell
 * prints `text`). */
export type RegionEvent = {
  atMs: number;
  interval: number | null;
  regions: number[];
  text: string;
} & (
  | { kind: 'split'; snapshot: number; parent: number; daughters: number[] }
  | { kind: 'merge'; snapshot: number; parents: number[]; merged: number }
  | { kind: 'move'; snapshot: number; region: number; from: string; to: string }
  | { kind: 'reopen'; snapshot: number; region: number }
  | { kind: 'gap'; snapshot: number; region: number; missingServer: string | null }
  | { kind: 'gone'; snapshot: number; region: number }
);
/** A table's regions over a series of snapshots (`readSeries`). */
export interface RegionSeries {
  table: string;
  files: SeriesFile[];
  snapshots: SeriesSnapshot[];
  regions: SeriesRegion[];
  /** Each region's row label without a design: its start key's text (`(first)` for the
   * table's first region), else the start of its encoded name and `…`. */
  labels: string[];
  intervals: SeriesInterval[];
  events: RegionEvent[];
  notes: string[];
  /** The regions at the end of the last interval with a rate (interval `snapshot - 1`) as a
   * design's `regions` (what `onTableRegions` takes): the design's region i is `regions[i]`.
   * Null when one has no key range. */
  layout: SeriesLayout | null;
}
export interface SeriesLayout {
  snapshot: number;
  regions: number[];
  presplit: ReadPreSplit;
  assignment: { servers: string[] } | null;
}
/** A series' files refused by their sizes (bytes, in order) before any is read: each within
 * 64 MiB, together within 1 GiB, at most 100,000 files; a `limit` error whose `path` is
 * `files[i]` (that file) or `files` (the series). What `observe` and the page's live table ask
 * first. npm package only. */
export function checkSeriesSizes(sizes: readonly number[]): void;
/** A table's regions over snapshots joined by encoded region name, their counters (totals
 * since each region opened) turned into rates per interval; splits, merges, moves, reopens
 * (a counter that went down) and gaps said, never guessed. Files in the order taken (a
 * folder's by name); `table` picks one table when the files name several. npm package only. */
export function readSeries(files: readonly SnapshotFileInput[], table?: string | null): RegionSeries;

/** One region of the compared interval (`againstDesign`). */
export interface ObservedRegion {
  /** Index into `RegionSeries.regions`. */
  region: number;
  startKey: string | null;
  endKey: string | null;
  /** Its start key read through the design's key (`salt 07 · host=web03…`). */
  decoded: string | null;
  /** The salt bucket its start key holds, when the key opens with one. */
  salt: string | null;
  server: string | null;
  /** Its share of the interval's writes (or requests), when it has a rate. */
  measuredShare: number | null;
  /** Its share of the design's writes on the same regions, when a prediction was given. */
  predictedShare: number | null;
  /** measuredShare / predictedShare. */
  ratio: number | null;
}
/** One server of the compared interval. */
export interface ObservedServer {
  server: string;
  regions: number;
  regionShare: number;
  measuredShare: number;
  predictedShare: number | null;
}
/** The last interval with a rate, measured against predicted. */
export interface AgainstDesign {
  /** Index into `RegionSeries.intervals`. */
  interval: number;
  fromMs: number;
  toMs: number;
  /** What the measured shares are of: writes, or requests (`list_regions`' REQ). */
  measure: 'writes' | 'requests';
  /** The design's writes on these regions, when a prediction was given. */
  predictedWrites: number | null;
  regions: ObservedRegion[];
  servers: ObservedServer[];
}
/** A live table read through a design (`againstDesign`). */
/** The design's prediction on the live map: each region's share of the design's writes times
 * the table's measured rate in each interval, in the measure per second. */
export interface PredictedMap {
  measure: 'writes' | 'requests';
  /** `rows.length × intervals.length`, row-major in `Observed.rows` order; null where the
   * region is not alive then, the interval has no rate, or the ranges do not nest. */
  regions: (number | null)[];
  /** Per server seen, a rate per interval (null: no rate). */
  servers: { server: string; rates: (number | null)[] }[];
}
export interface Observed {
  /** Each series region's start key through the design's key (null without a key range). */
  starts: (Boundary | null)[];
  /** Each region's row label: its start key read through the design's key, else its
   * `RegionSeries.labels` entry. What every view names the heatmap's rows by. */
  labels: string[];
  /** The heatmap's rows: every series region in key order (indexes into `regions`). */
  rows: number[];
  against: AgainstDesign | null;
  /** The design's prediction on the measured map's rows, intervals and unit; null without a
   * prediction on these regions. */
  predictedMap: PredictedMap | null;
  /** Where the readings and the design disagree, in words with their figures. */
  diagnosis: string[];
  /** Why a part is missing. */
  notes: string[];
}
/** A series read through `doc`'s key and its last interval with a rate set beside `predicted`:
 * the design's writes per region on `series.layout` (its analysis on
 * `onTableRegions(doc, series.layout)`), in key order; null for the readings alone. */
export function againstDesign(series: RegionSeries, doc: DesignInput, predicted?: readonly number[] | null): Observed;

/** Incremental analysis for a Web Worker: `step` until `finished` (stop calling to cancel), then `finish`. */
export class AnalysisSession {
  constructor(doc: DesignInput, options?: AnalyzeOptions | null);
  /** Analyzes up to `maxRecords` (>= 1) more records of the design's generated workload. */
  step(maxRecords: number): Progress;
  /**
   * Counts `records` (your own rows, as `encodeKey` takes them) as the next writes instead of the
   * generated workload; the n-th record of the session is written at the workload's clock
   * (`startTime + n * 1000 / writeRate` ms), so feed them in write order, in chunks of any size;
   * set the design's `workload.records` to the number you will feed, so the time windows span
   * them (writes past the workload's end are counted in the last window, as `writesOutsideWindows`).
   * `total` is the number fed. A bad record throws an error whose `path` is `records[i]` (or
   * `records[i].field`); the ones before it stay counted. A session either feeds or steps.
   */
  feed(records: readonly KeyRecord[]): Progress;
  progress(): Progress;
  /** The report over the records analyzed so far. */
  finish(): AnalysisReport;
  /** The records analyzed so far checked against `budgets`, as `checkDesign` does. */
  check(budgets?: Budgets | null): CheckVerdict;
  /**
   * A session over blocks `first..end` of the design's workload only (a block is 65,536
   * records; `blocks()` counts them): one of several, in workers, whose `partial()` counts
   * `combineAnalyses` adds up into the report one session of every block gives, byte for byte.
   */
  static forBlocks(doc: DesignInput, options: AnalyzeOptions | null | undefined, first: number, end: number): AnalysisSession;
  /** The workload's blocks that sessions can count apart (1 with auto-split, counted in one pass). */
  blocks(): number;
  /** What this session counted, as bytes for `combineAnalyses` (not with auto-split). */
  partial(): Uint8Array;
  /**
   * The second half of the blocks this session (of `forBlocks`) has not begun, `[first, end]`,
   * handed over for another session to count: this one now ends at `first`. `null` when fewer
   * than two blocks are left unbegun.
   */
  cedeHalf(): [number, number] | null;
  free(): void;
  [Symbol.dispose](): void;
}

/** What reading a file of rows found. */
export interface RowStats {
  /** Rows in the file. */
  rows: number;
  /** Rows analyzed. */
  used: number;
  /** Rows skipped for a null (`nulls: 'skip'`), by the column found null. */
  skipped: Record<string, number>;
  /** Field name to the column it read. */
  columns: Record<string, string>;
  /** The time column, when given. */
  time: string | null;
  format: 'csv' | 'jsonl' | 'parquet' | 'arrow' | 'arrow-stream' | null;
  /** The fields the key names and the design did not declare, declared from the file (`rowsDesign`). */
  inferred?: InferredField[];
}
/** A field the key names, declared from a file of rows. */
export interface InferredField {
  field: string;
  /** The column it reads. */
  column: string;
  type: FieldType;
  /** Why that type: the key's use (`the key formats it as a time`) or the column's type. */
  basis: string;
}
/**
 * `doc` with a declaration for every field its key names and does not declare, typed from the
 * file: by the key's use (a time segment: `timestamp`; `dec`/`long`/`int`/`short`: `long`; …),
 * else the column's own type (Parquet/Arrow schema, JSON values in the first rows; a CSV column is
 * text, written as its text). `sample`: a CSV's, JSON Lines' or Arrow file's first bytes (`whole`:
 * the whole file) or a Parquet file's footer and length. A design declaring them all comes back as
 * it is; the result is validated.
 */
export function rowsDesign(
  doc: DesignInput,
  rows: RowsOptions | null | undefined,
  sample: { head: Uint8Array; whole?: boolean } | { footer: Uint8Array; fileLength: number },
): { design: DesignDocument; inferred: InferredField[] };
/** One value (as text: a number's JSON form, a time as ISO 8601 in UTC) and the rows holding it. */
export interface ValueCount { value: string; rows: number }
/** What a file's rows do to the key (`rows.profile`): counts are exact while `exact`, else lower bounds. */
export interface RowsProfile {
  fields: {
    field: string;
    column: string | null;
    rows: number;
    nulls: number;
    distinct: number;
    exact: boolean;
    heaviest: ValueCount[];
    min: string | null;
    max: string | null;
    /** Share of rows not below the row before (numbers and times). */
    monotonic: number | null;
  }[];
  key: {
    keys: number;
    minLength: number;
    maxLength: number;
    meanLength: number;
    lengths: [number, number][];
    prefixes: { bytes: number; distinct: number; exact: boolean }[];
  };
}
/** The first pass over a file of rows. */
export interface RowScanSummary {
  rows: number;
  firstMs: number | null;
  lastMs: number | null;
  /** Rows whose time is earlier than the row before. */
  outOfOrder: number;
}
/** `endScan()`'s answer: the first pass's summary, and whether the engine analyzed the rows it
 * kept (they fit `limits::MAX_REPLAY_BYTES`): then `end()` follows, with no second pass. */
export interface RowScanEnd extends RowScanSummary {
  analyzed: boolean;
}
/**
 * A file of rows analyzed in two passes: `push` every chunk of the file (or, for Parquet,
 * `parquet(footer, size)` then `pushRowGroup` each), `endScan()`, the same again unless it said
 * `analyzed` (the rows fit the engine's memory cap and were counted), `end()`, then `finish()`
 * or `check()`; `free()` it. `analyzeRows` drives it for a Blob, bytes or a stream.
 */
export class RowsSession {
  constructor(doc: DesignInput, options?: AnalyzeOptions | null, rows?: RowsOptions | null);
  /** The next bytes of the file; the rows this pass has read so far. */
  push(bytes: Uint8Array): number;
  /**
   * Keep every row's key as the first pass reads it (before the first bytes), for `takeKeys()`;
   * with `digests`, each key followed by its row's 16-byte digest (how `RekeyVerifier` reads an export).
   */
  keepKeys(digests?: boolean): void;
  /** The keys of the rows read since the last call (after `keepKeys()`), as `KeyCodec.encodeAll` gives them. */
  takeKeys(): { keys: Uint8Array; offsets: Uint32Array };
  /**
   * Keep a sample of `rows` rows (default: the advisor's records; at most 1,000,000) for the
   * advisor, before the first bytes: every field the file has, the rows with the smallest hashes
   * of their values, in file order.
   */
  keepRowSample(rows?: number | null): void;
  /** After `endScan()`, once: the sample (`keepRowSample`) as bytes for `adviseDesign(doc, options, rows)`. */
  rowSample(): Uint8Array;
  /**
   * Keep an even sample of the rows' keys in write order (by `rows.time` when given, else file
   * order), before the first bytes, for `lifeMonths` / `lifeCompare` after `endScan()`.
   */
  keepWriteSample(): void;
  /** After `endScan()` (`keepWriteSample()`): `lifeMonths` with the table's writes from these rows. */
  lifeMonths(options?: LifeOptions | null, onMonth?: ((done: number, total: number) => void) | null): LifeView;
  /** After `endScan()` (`keepWriteSample()`): `checkLife` with the table's writes from these rows. */
  checkLife(options: LifeOptions | null, budgets: LifeBudgets | null): LifeCheck;
  /** After `endScan()` (`keepWriteSample()`): `lifeCompare` with the table's writes from these rows. */
  lifeCompare(
    options?: LifeOptions | null,
    otherOptions?: LifeOptions | null,
    onMonth?: ((done: number, total: number) => void) | null,
  ): LifeComparison;
  /** After `endScan()`, with `rows.profile`: what the data does to the key; else null. */
  profile(): RowsProfile | null;
  /** Bytes of footer a Parquet file ends with, from its last 8 bytes. */
  static footerLength(last8: Uint8Array): number;
  /** A Parquet file's column names, from its footer and length. */
  static parquetColumns(footer: Uint8Array, fileLength: number, rows?: RowsOptions | null): string[];
  /** A Parquet file by its footer and length: the byte ranges each row group's key columns need, and its rows. */
  parquet(
    footer: Uint8Array,
    fileLength: number,
  ): { rows: number; rowGroups: { start: number; length: number }[][]; groupRows: number[] };
  /**
   * Row group `index`: `chunks[i]` the bytes at `offsets[i]` (the ranges `parquet` gave); `rows`,
   * `[skip, take]`: only that run of its rows (readers sharing a large row group).
   */
  pushRowGroup(
    index: number,
    offsets: readonly number[],
    chunks: readonly Uint8Array[],
    rows?: readonly [number, number],
  ): number;
  endScan(): RowScanEnd;
  end(): RowStats;
  finish(): AnalysisReport;
  check(budgets?: Budgets | null): CheckVerdict;
  free(): void;
  [Symbol.dispose](): void;
}
/**
 * One reading of a file of rows for several designs (at most 4; the rekey plan's old and new):
 * the file read and converted once, each design's rows encoded and counted by its own session.
 * Driven as `RowsSession` is (`push`, or `parquet` and `pushRowGroup`; `endScan()`, the same
 * again unless it said `analyzed`; `end()`), then per design `i` (from 0) `finish(i)`,
 * `splitKeys(i)` and `stats(i)`: the ones its own `RowsSession` gives over the same rows.
 * `rowsShareable(docs)` says why designs cannot share a reading; this constructor throws it.
 */
export class SharedRowsSession {
  constructor(docs: DesignInput[], options?: AnalyzeOptions | null, rows?: RowsOptions | null);
  push(bytes: Uint8Array): number;
  parquet(
    footer: Uint8Array,
    fileLength: number,
  ): { rows: number; rowGroups: { start: number; length: number }[][]; groupRows: number[] };
  pushRowGroup(
    index: number,
    offsets: readonly number[],
    chunks: readonly Uint8Array[],
    rows?: readonly [number, number],
  ): number;
  /** Whether other readings of the same designs may read the file's chunks (`chunk`, `addChunk`). */
  chunkable(): boolean;
  chunk(): Uint8Array;
  addChunk(chunk: Uint8Array): void;
  /** Design 0's summary; `analyzed` when every design's rows were counted from memory. */
  endScan(): RowScanEnd;
  /** What reading found for design 0. */
  end(): RowStats;
  /** What reading found for design `i`, after `end()` (null before). */
  stats(i?: number): RowStats | null;
  splitKeys(i?: number): { keys: Uint8Array[]; exact: boolean; rows: number };
  finish(i?: number): AnalysisReport;
  free(): void;
  [Symbol.dispose](): void;
}
/** Why the designs `docs` cannot share one reading of a file's rows (`SharedRowsSession`): a
 * field two of them type differently, a key that numbers names in the order rows arrive; null
 * when they can. */
export function rowsShareable(docs: DesignInput[]): string | null;
/** A file read at any offset: `read` resolves to exactly `length` bytes from `start`, which the
 * reader may overwrite at its next read (the engine copies what it keeps). */
export interface RowsReader {
  size: number;
  read(start: number, length: number): Promise<Uint8Array>;
}
/** The format of a file whose first bytes are `head`, by the rules `RowsSession` reads it with. */
export function rowsFormat(rows: RowsOptions | null | undefined, head: Uint8Array): NonNullable<RowsOptions['format']>;
/**
 * The `keepBytes` of a session reading a chunk of `bytes` of a file of `total` bytes that
 * several sessions read in chunks at once: the chunk's share of the rows' cap (`rows.keepBytes`,
 * 256 MiB by default), a quarter more, at least 1 MiB.
 */
export function chunkKeptBytes(rows: RowsOptions | null | undefined, bytes: number, total: number): number;
/**
 * The column names of a CSV, JSON Lines or Arrow file whose first bytes are `head` (a CSV's
 * header, the first object's members, the schema); a Parquet file's: `RowsSession.parquetColumns`.
 */
export function rowsColumns(rows: RowsOptions | null | undefined, head: Uint8Array): string[];
/** How far a read of rows is: `done` of `total` `unit`s (bytes of the file, or of the key's
 * columns in the row groups read; or whole Parquet row groups); `total` unknown for a stream. */
export interface RowsProgress {
  pass: 'reading' | 'analyzing';
  done: number;
  total: number | undefined;
  unit: 'bytes' | 'rowGroups';
}

/**
 * Your own rows analyzed with `doc`: a Blob or File (read in slices; Parquet by row group, only
 * the key's columns), whole bytes, a random-access reader (`RowsReader`: a file handle, read
 * into one buffer), or a function returning a fresh async iterable (or ReadableStream) of chunks
 * for each of the two passes. `doc` may be just a key: the fields it names and does not declare
 * are declared from the file (`rowsDesign`; `design` is the document read with, `stats.inferred`
 * the fields so declared). `free()` the session.
 */
export function analyzeRows(
  doc: DesignInput,
  source:
    | Blob
    | Uint8Array
    | ArrayBuffer
    | RowsReader
    | ((pass: 'reading' | 'analyzing') => AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>),
  opts?: {
    options?: AnalyzeOptions | null;
    rows?: RowsOptions;
    onProgress?: (p: RowsProgress) => void;
    signal?: AbortSignal;
    /** Stop after the first pass (for `session.profile()` with `rows.profile`); `stats` is then absent. */
    scanOnly?: boolean;
    /** Keep every row's key in the first pass, for `session.takeKeys()`. */
    keys?: boolean;
    /** With `keys`: each key followed by its row's 16-byte digest, the reading `RekeyVerifier` takes. */
    digests?: boolean;
    /** Awaited after each slice of the first pass (take the keys as they come). */
    onSlice?: (session: RowsSession) => void | Promise<void>;
    /** Keep a sample of this many rows for the advisor (null: its default); `session.rowSample()`. */
    rowSample?: number | null;
    /** Keep the keys in write order for months of life (with `scanOnly`); `session.lifeMonths()`. */
    writeSample?: boolean;
  },
): Promise<{ session: RowsSession; design: DesignDocument; summary: RowScanEnd; stats?: RowStats }>;

/** `analyzeRows` over several designs at once (at most 4): the file read once for them all
 * (`SharedRowsSession`; `design` each document read with, in order). */
export function analyzeRows(
  doc: DesignInput[],
  source: Blob | Uint8Array | ArrayBuffer | RowsReader,
  opts?: { options?: AnalyzeOptions | null; rows?: RowsOptions; onProgress?: (p: RowsProgress) => void; signal?: AbortSignal },
): Promise<{ session: SharedRowsSession; design: DesignDocument[]; summary: RowScanEnd; stats: RowStats }>;

/**
 * `analyzeRows` with the file's reading spread over worker threads (Node only; `threads`, default
 * every core): `source` a file's path or a Blob, cut into chunks (Parquet row groups, runs of whole
 * lines) that workers read while this thread's engine adds them up and counts the rows: the same
 * report, byte for byte. A file that cannot be cut (small, one JSON array, Arrow IPC, rows past
 * the engine's memory cap), or a chunk's error, is read in one pass,
 * whose error then says exactly where.
 */
export function analyzeRowsParallel(
  doc: DesignInput,
  source: string | Blob | Uint8Array | ArrayBuffer | RowsReader,
  opts?: {
    options?: AnalyzeOptions | null;
    rows?: RowsOptions;
    threads?: number;
    /** Files smaller than this many bytes are read in one pass (default 8 MiB). */
    chunkFrom?: number;
    onProgress?: (p: RowsProgress) => void;
    signal?: AbortSignal;
  },
): Promise<{ session: RowsSession; design: DesignDocument; summary: RowScanEnd; stats: RowStats }>;
/** `analyzeRowsParallel` over several designs at once (at most 4): the file read once for them
 * all (`SharedRowsSession`; `design` each document read with, in order). */
export function analyzeRowsParallel(
  doc: DesignInput[],
  source: string | Blob | Uint8Array | ArrayBuffer | RowsReader,
  opts?: {
    options?: AnalyzeOptions | null;
    rows?: RowsOptions;
    threads?: number;
    chunkFrom?: number;
    onProgress?: (p: RowsProgress) => void;
    signal?: AbortSignal;
  },
): Promise<{ session: SharedRowsSession; design: DesignDocument[]; summary: RowScanEnd; stats: RowStats }>;
/**
 * The rekey plan over your rows (what `rowkey-lab rekey OLD NEW --records FILE` prints): the
 * designs `rekeyReading` names (the new one cut into `regions` regions at the rows re-encoded,
 * by rows or bytes; without `regions`, on its own pre-split) analyze the same rows, read once
 * for both where it says they can share a reading, as `analyzeRowsParallel` reads them (in one
 * pass in a browser); then `rekeyRowsPlan`. `splitKeysExact` is false when the new split keys
 * were cut at a uniform sample of the rows, not every row.
 */
export function rekeyRows(
  oldDoc: DesignInput,
  newDoc: DesignInput,
  source: string | Blob | Uint8Array | ArrayBuffer | RowsReader,
  opts?: {
    rows?: RowsOptions;
    threads?: number;
    regions?: number;
    by?: 'rows' | 'bytes';
    /** rekeyPlan's options, without `columns` (the rows' own are taken). */
    options?: RekeyOptions | null;
    signal?: AbortSignal;
  },
): Promise<RekeyPlan & { splitKeysExact: boolean }>;
/** A regular file (Node) as a `RowsReader` read into one reused buffer; `close()` it. */
export function openRowsReader(path: string): Promise<RowsReader & { close(): Promise<void> }>;

/** Progress of `analyzeDesignParallel`: records counted so far. */
export interface AnalysisProgress { done: number; total: number }
/**
 * `analyzeDesign` on worker threads under Node (`threads`, default every core; each counts a run
 * of blocks), stepping in the browser entry: the same report, byte for byte.
 */
export function analyzeDesignParallel(
  doc: DesignInput,
  options?: AnalyzeOptions | null,
  run?: { threads?: number; onProgress?: (p: AnalysisProgress) => void },
): Promise<AnalysisReport>;
/**
 * As `analyzeDesignParallel`, the finished session (for `finish()` and `check()`; `free()` it):
 * the one a single session counting the whole workload would be.
 */
export function analysisSessionParallel(
  doc: DesignInput,
  options?: AnalyzeOptions | null,
  run?: { threads?: number; onProgress?: (p: AnalysisProgress) => void },
): Promise<AnalysisSession>;
/** `blocks` cut into at most `workers` runs of consecutive blocks as even as can be: `[first, end]` each. */
export function blockRanges(blocks: number, workers: number): [number, number][];

/**
 * The session of the design's whole workload from the `partial()` counts of sessions
 * (`AnalysisSession.forBlocks`) that together counted each block once, in any order: `finish()`
 * gives the report one session of every block gives. Partials of another design or options,
 * missing or repeated blocks are refused.
 */
export function combineAnalyses(
  doc: DesignInput,
  options: AnalyzeOptions | null | undefined,
  partials: readonly Uint8Array[],
): AnalysisSession;

/** One read's cost on a candidate. */
export interface ReadCost {
  name: string; kind: 'get' | 'prefix' | 'range' | 'latest'; scans: number; regionsTouched: number;
  rowsReadPerRowReturned: number | null;
  /** The read scans the whole table (or hashed space) with a filter. */
  fullScan: boolean;
  /** regionsTouched × rows read per row returned (at least 1). */
  cost: number;
}
/** A candidate's figures on the advisor's workload. */
export interface CandidateMetrics {
  /** Per window, busiest region / mean of max(regions, targetRegions) regions; mean over windows (1 is even). */
  hotspotFactor: number;
  /** The worst window's value of the same. */
  maxHotspotFactor: number;
  /** The analyzer's busiest / mean region over the whole run. */
  hotspotFactorOverall: number;
  activeRegionsPerWindow: number; effectiveParallelism: number; regions: number; emptyRegions: number;
  /** Mean row key bytes. */
  keyBytes: number;
  records: number; reads: ReadCost[];
  /** The sum of the reads' costs. */
  readCost: number;
  /** `create 'table', 'f', SPLITS => [...]` for the candidate's pre-split. */
  createStatement: string;
  /** The busiest region's mean share of a window's writes (each index's is set beside it). */
  busiestShare: number;
  /** Each Phoenix index of the candidate over the same workload, in the design's order (an
   * index key ends with the data key's columns and takes a salted table's buckets; over a
   * user's rows, over the same sample rows); empty without indexes. */
  indexes: IndexCost[];
}
/** One Phoenix index's figures on an advisor's candidate. */
export interface IndexCost {
  name: string;
  kind: 'global' | 'uncovered' | 'local';
  /** Regions of its own (0 for a local index). */
  regions: number;
  /** Mean over the loaded windows of the busiest region's share of its writes (a local index:
   * the data table's); the largest of any window. */
  busiestShare: number; maxBusiestShare: number;
  /** Its table's verdict; null for a local index. */
  spread: Spread | null;
  /** Its table's verdict is a hotspot one (one region, hot every window, moving, hot region);
   * never for a local index, which is the data table's regions. */
  concentratesWrites: boolean;
  /** The index writes each data write causes. */
  writes: IndexWrites;
  bytesPerRow: number;
}
/** How one read is served, before or after an index fix. */
export interface ReadRoute {
  /** The index read; null: the data table. */
  through: string | null;
  access: 'pointLookup' | 'rangeScan' | 'fullScan';
  scans: number; regionsTouched: number; dataLookupsPerRow: number;
}
/** A read whose route an index fix changes. */
export interface IndexFixRead { read: string; before: ReadRoute; after: ReadRoute }
/** One change to a hot index, checked by analyzing the changed index. */
export interface IndexFix {
  fix: 'salt' | 'lead' | 'local';
  /** The change in words. */
  change: string;
  /** The changed index's `CREATE ... INDEX` statement. */
  statement: string;
  /** The changed index, as `phoenix.indexes` holds it. */
  index: PhoenixIndex;
  /** Regions of its own (0 for a local index). */
  regions: number;
  busiestShare: number; maxBusiestShare: number;
  /** Its table's verdict; null for a local index. */
  spread: Spread | null;
  /** The checked index no longer concentrates writes. */
  spreads: boolean;
  writes: IndexWrites;
  /** What it costs, one sentence each (its reads' new routes among them). */
  costs: string[];
  reads: IndexFixRead[];
}
/** A global Phoenix index of the input whose table concentrates its writes, and its fixes. */
export interface IndexFinding {
  index: string;
  kind: 'global' | 'uncovered' | 'local';
  spread: Spread;
  regions: number;
  /** The busiest region's mean share of a window's index writes, and the data table's. */
  busiestShare: number; dataBusiestShare: number;
  finding: string;
  /** The index table's diagnosis, its first sentence. */
  diagnosis: string;
  /** Checked, best first: those that spread the index (those within 5 % of the best share
   * first: salt, local, another leading column), by the share they leave; then the others. */
  fixes: IndexFix[];
}
export interface Candidate { label: string; changes: string[]; keyText: string; design: NormalizedDesign }
/** `adviseCandidates`: the input first, then its alternatives. */
export interface CandidateSet { candidates: Candidate[]; servers: number; targetRegions: number; fixedFields: string[] }
export interface EvaluatedCandidate {
  index: number; label: string; changes: string[]; keyText: string; design: NormalizedDesign;
  metrics: CandidateMetrics | null; error: string | null;
  /** On the Pareto front over (hotspotFactor, readCost, keyBytes). */
  pareto: boolean;
  /** What it breaks compared with the input. */
  flags: string[];
  /** Its table at month 12, for the input and the few candidates the recommendation is chosen among; null for the others. */
  months: CandidateMonths | null;
}
/** A candidate's table at the end of its simulated months. */
export interface CandidateMonths {
  month: number; regions: number; emptyRegions: number;
  /** The largest share of an hour's writes one server took, over the month. */
  hottestServerWriteShare: number;
  /** One server takes twice its even share or more (0.9 on 2 servers). */
  hotServer: boolean;
}
export interface Recommendation {
  /** 0: keep the input. */
  index: number; label: string; keyText: string; design: NormalizedDesign;
  /** Reasons, each `gain: …` or `cost: …` against the input. */
  why: string[];
  metrics: CandidateMetrics;
  /** What moving the input's table to it needs from the rows (a field the old key holds
   * hashed, in part or not at all), in a sentence; null when nothing, for the input itself, and
   * over a user's rows. */
  moveNote: string | null;
}
export interface CapacityHorizon {
  months: number; writtenBytes: number; keptBytes: number; regions: number; regionsPerServer: number;
  /** Against the reference guide's 20–200 regions per server. */
  guide: 'below' | 'within' | 'above';
  activeRegionsPerServer: number; emptyRegions: number;
}
export interface CycleCheck { pattern: string; cycleDays: number; requiredDays: number | null; ok: boolean | null }
export interface CapacityReport {
  servers: number; recordBytes: number; writeRate: number; inputs: CapacityOptions;
  /** After 1, 6 and 12 months. */
  horizons: CapacityHorizon[];
  /** heap × memstore share / flush size. */
  memstoreRegionsPerServer: number;
  timeLeading: boolean;
  /** Months 1–12 for a time-leading key with a TTL (regions that empty out and never merge). */
  monthly: CapacityHorizon[];
  recommendedPresplit: number; cycle: CycleCheck | null; notes: string[];
}
export interface Advice {
  recommended: Recommendation; candidates: EvaluatedCandidate[];
  /** What is wrong with the input itself. */
  inputFlags: string[];
  servers: number; targetRegions: number; records: number;
  /** How the figures were made (records, windows, the regions a hotspot factor divides by) and why they differ from the design's own analysis. */
  basis: string;
  fixedFields: string[]; capacity: CapacityReport;
  /** How many regions to create the recommended design with: the region plan's line, as the Splits view says it for that design. */
  regionPlan: string;
  /** Each global Phoenix index of the input whose table concentrates its writes, with its
   * fixes, each checked over the same records or sample rows as the candidates; empty when
   * every index spreads and without indexes. */
  indexFindings: IndexFinding[];
}
/** The design advisor in one call (one thread). `adviseDesignParallel` in the npm package fans out to worker threads. */
export function adviseDesign(doc: DesignInput, options?: AdviseOptions | null, rows?: Uint8Array | null): Advice;
/** The candidates of `doc`, for evaluation elsewhere (workers). */
export function adviseCandidates(doc: DesignInput, options?: AdviseOptions | null): CandidateSet;
/** One candidate's figures; `targetRegions` from `adviseCandidates`. */
export function evaluateCandidate(
  design: DesignInput,
  options: AdviseOptions | null | undefined,
  targetRegions: number,
  rows?: Uint8Array | null,
): CandidateMetrics;
/** The answer from evaluations in candidate order (each `evaluateCandidate`'s result or `{error}`): the same as `adviseDesign`. */
export function adviseFrom(
  doc: DesignInput,
  options: AdviseOptions | null | undefined,
  evaluations: readonly (CandidateMetrics | { error: string })[],
  rows?: Uint8Array | null,
): Advice;
/** Progress of `adviseDesignParallel`: candidates evaluated so far. */
export interface AdviseProgress { done: number; total: number; label: string }
/**
 * The design advisor with the candidates evaluated in parallel: on worker threads under Node
 * (`threads`, default every core), one after the other in the browser entry. The same answer as
 * `adviseDesign`.
 */
export function adviseDesignParallel(
  doc: DesignInput,
  options?: AdviseOptions | null,
  run?: {
    threads?: number;
    onProgress?: (p: AdviseProgress) => void;
    /** A sample of your rows (`RowsSession.rowSample()`): every candidate evaluated on it. */
    rows?: Uint8Array;
  },
): Promise<Advice>;
