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

export interface FieldDecl {
  name: string;
  type: FieldType;
  cardinality?: number;
  generator?: JsonObject;
}
/**
 * A record with the row key it is stored under: `key` in hex (checked when read), else
 * `keyBinary` as `Bytes.toStringBinary` prints it. `lintDesign`'s `example-key` rule names every
 * example the key does not write.
 */
export interface Example { record: JsonObject; key?: string; keyBinary?: string; note?: string }
export type ReadPattern =
  | { type: 'get'; name?: string | null; record: JsonObject }
  | { type: 'prefix'; name?: string | null; record: JsonObject }
  | { type: 'range'; name?: string | null; from: JsonObject; to: JsonObject }
  | { type: 'latest'; name?: string | null; record: JsonObject; n: number };
/**
 * A design document (v1), described in docs/design-document.md (the key language in docs/keyspec.md). As input
 * `key` may be the text form; results (`getPreset`, `validateDesign`) give the JSON form.
 * Unknown keys are an error, reported with their JSON path.
 */
export interface DesignDocument {
  v: number;
  name?: string;
  description?: string;
  fields: FieldDecl[];
  key: KeySpecJson | string;
  workload?: JsonObject;
  regions?: JsonObject;
  /** What a write puts into its row: `{qualifier?: Qualifier, versions?: number}`; absent,
   * every write is its own cell. */
  cells?: CellSpec;
  reads?: ReadPattern[];
  latestFirst?: boolean;
  examples?: Example[];
  /** A Phoenix table's `CREATE TABLE` beyond its primary key (`parseCreateTable` writes it,
   * `printCreateTable` prints it back). */
  phoenix?: PhoenixSection;
}
/** The `phoenix` section: the table name (as Phoenix normalizes it), the columns outside
 * the primary key and the other table options (`VERSIONS=3`, `COMPRESSION='SNAPPY'`). */
export interface PhoenixSection { table: string; columns?: PhoenixColumnDecl[]; options?: string[] }
/** A column outside the primary key: its family (absent: Phoenix's default `0`), its type as
 * the DDL writes it (`VARCHAR(20)`, `INTEGER ARRAY`), `NOT NULL`. */
export interface PhoenixColumnDecl { name: string; family?: string; type: string; notNull?: boolean }
/** The SQL types a Phoenix primary-key column (`pk(...)`) can have. */
export type PhoenixType =
  | 'INTEGER' | 'UNSIGNED_INT' | 'BIGINT' | 'UNSIGNED_LONG' | 'SMALLINT' | 'TINYINT'
  | 'FLOAT' | 'DOUBLE' | 'DECIMAL' | 'VARCHAR' | 'CHAR' | 'BOOLEAN' | 'DATE' | 'TIME'
  | 'TIMESTAMP' | 'VARBINARY' | 'BINARY';
/** A Phoenix primary-key column in the key's JSON form: `{kind: "pk", field, type, desc?,
 * len?, scale?, nullable?}` (the text form: `pk(field, DECIMAL(10, 2), desc)`); a `type`, so
 * it is a `Segment`. */
export type PkSegment = {
  kind: 'pk';
  field: string;
  type: PhoenixType;
  desc?: boolean;
  /** VARCHAR/CHAR/BINARY/VARBINARY length, or DECIMAL precision. */
  len?: number;
  /** DECIMAL scale. */
  scale?: number;
  nullable?: boolean;
};
/** A write's column qualifier, computed from its record. */
export type Qualifier =
  | { kind: 'fixed'; name?: string }
  | { kind: 'field'; field: string }
  | { kind: 'timeOffset'; field: string; rangeMs?: number; resolutionMs?: number };
/** The `cells` section: the qualifier (default one fixed qualifier) and the column family's
 * `VERSIONS` (default 1): versions of a cell beyond it are not kept. */
export interface CellSpec { qualifier?: Qualifier; versions?: number }
/** A normalized design document, as `getPreset` and `validateDesign` return it. */
export interface NormalizedDesign extends DesignDocument { key: KeySpecJson; reads: ReadPattern[] }
/** A design as a document object or its JSON text. */
export type DesignInput = DesignDocument | string;

export interface PresetEntry { id: string; name: string | null; description: string | null }
/** Every preset, sorted by id. */
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
}
/** One variant of a tagged part (`kind` / `type` value) and its members. */
export interface SchemaVariant { name: string; members: SchemaMember[] }
/** A function of the key language's text form. */
export interface KeyFunction { name: string; signature: string; help: string; example: string }
/** The design document's kinds and their members, as the engine reads them. */
export interface DesignSchema {
  fieldTypes: FieldType[];
  functions: KeyFunction[];
  /** Phoenix SQL type names (`pk(...)`'s `type`). */
  phoenixTypes: string[];
  segments: SchemaVariant[];
  generators: SchemaVariant[];
  presplits: SchemaVariant[];
  splitPolicies: SchemaVariant[];
  reads: SchemaVariant[];
  qualifiers: SchemaVariant[];
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

/** Unknown keys are an error. */
export interface AnalyzeOptions {
  windows?: number;
  sampleSize?: number;
  regionSampleSize?: number;
  gridBuckets?: number;
  presplitSample?: number;
  /** Count the generated rows exactly while they fit the cap (fed records always are). */
  exactRows?: boolean;
}
export interface LoadMetrics {
  regions: number; total: number; max: number; busiestRegion: number | null;
  hotspotFactor: number; busiestShare: number; activeRegions: number; emptyRegions: number;
  coefficientOfVariation: number; gini: number; effectiveParallelism: number;
}
export interface MatrixMetrics {
  regions: number; windows: number; perWindow: LoadMetrics[]; overall: LoadMetrics;
  loadedWindows: number; meanActiveRegions: number; meanHotspotFactor: number;
  maxHotspotFactor: number; meanEffectiveParallelism: number; minEffectiveParallelism: number;
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
  timeMs: number; splitKeyHex: string; splitKey: string; parentBytes: number;
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
  /** Cells kept; `writes` without a `cells` section. */
  cells: number;
  /** The largest rows by bytes written, largest first (at most 32). */
  largestRows: LargestRow[];
  /** `largestRows` are the truly largest rows with exact counts; else a sketch's estimates. */
  largestRowsExact: boolean;
  writesOutsideWindows: number; startTimeMs: number; windowMs: number;
  windows: number; regions: RegionReport[]; servers: ServerReport[];
  /** Region × window writes. */
  matrix: Matrix;
  /** Key-space bucket × window writes. */
  grid: Matrix;
  gridBuckets: number; sample: KeySample; metrics: MatrixMetrics; gridMetrics: MatrixMetrics;
  serverMetrics: LoadMetrics; splits: SplitEvent[]; splitLimitReached: boolean; diagnosis: string[];
}
export interface ComparedDesign {
  name: string; regions: number; writes: number; distinctRows: number; distinctRowsError: number; cells: number;
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
export interface ComparedRead { name: string; scans: number; regionsTouched: number; rowsReadPerRowReturned: number | null }
/** One compared region's key range, `toStringBinary` (empty: the table's start or end); its
 * writes over the run and the cells and bytes it keeps (what a map of cells or bytes weighs its
 * row by). */
export interface ComparedRegion { startKey: string; endKey: string; server: number; writes: number; cells: number; bytes: number }
export interface Comparison {
  gridBuckets: number; windows: number;
  /** Start of window 0 (ms since the epoch) and the window width (ms): the first design's workload. */
  startTimeMs: number; windowMs: number;
  designs: ComparedDesign[];
}
export interface Progress { done: number; total: number; regions: number; finished: boolean }

/** Analyzes a whole design document (its workload over its region layout). */
export function analyzeDesign(doc: DesignInput, options?: AnalyzeOptions | null): AnalysisReport;
/** Compares 2–4 designs over the first one's workload on one grid. */
export function compareDesigns(docs: readonly DesignInput[], options?: AnalyzeOptions | null): Comparison;
/** Plans every read of the design over `splitKeys` (default: the design's pre-split). */
export function planReads(doc: DesignInput, splitKeys?: readonly Bytes[] | null): ReadPlan[];
/** The design's pre-split keys. */
export function layoutSplitKeys(doc: DesignInput): Uint8Array[];
/** The HBase shell line `create 'table', 'family', SPLITS => [...]`. */
export function shellCreate(table: string, family: string, keys: readonly Bytes[]): string;
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

/** How a file of rows meets a design (`RowsSession`, `analyzeRows`, the CLI's `--records`). */
export interface RowsOptions {
  /** By default from the file's first bytes, else `name`'s extension, else CSV. */
  format?: 'csv' | 'jsonl' | 'parquet' | 'arrow' | 'arrow-stream';
  /** The file's name: its extension, and messages. */
  name?: string;
  /** Field name to column name, where they differ. */
  map?: Record<string, string>;
  /** The column of each row's write time: windows span its first to last, whatever the order. */
  time?: string;
  /** A row whose key reads a null: `error` (the default, naming row and column) or `skip` (counted). */
  nulls?: 'error' | 'skip';
  /** The unit of integer times; `auto` (the default) by magnitude. */
  epoch?: 'auto' | 's' | 'ms' | 'us' | 'ns';
  /** The CSV delimiter (default: the header's most frequent of `,` tab `;` `|`). */
  delimiter?: string;
  /** Count a profile in the first pass (`RowsSession.profile()`). */
  profile?: boolean;
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
}
/** One value and the rows holding it. */
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
/**
 * A file of rows analyzed in two passes: `push` every chunk of the file (or, for Parquet,
 * `parquet(footer, size)` then `pushRowGroup` each), `endScan()`, the same again, `end()`, then
 * `finish()` or `check()`; `free()` it. `analyzeRows` drives it for a Blob, bytes or a stream.
 */
export class RowsSession {
  constructor(doc: DesignInput, options?: AnalyzeOptions | null, rows?: RowsOptions | null);
  /** The next bytes of the file; the rows this pass has read so far. */
  push(bytes: Uint8Array): number;
  /** After `endScan()`, with `rows.profile`: what the data does to the key; else null. */
  profile(): RowsProfile | null;
  /** Bytes of footer a Parquet file ends with, from its last 8 bytes. */
  static footerLength(last8: Uint8Array): number;
  /** A Parquet file by its footer and length: the byte ranges each row group's key columns need. */
  parquet(footer: Uint8Array, fileLength: number): { rows: number; rowGroups: { start: number; length: number }[][] };
  /** Row group `index`: `chunks[i]` the bytes at `offsets[i]` (the ranges `parquet` gave). */
  pushRowGroup(index: number, offsets: readonly number[], chunks: readonly Uint8Array[]): number;
  endScan(): RowScanSummary;
  end(): RowStats;
  finish(): AnalysisReport;
  check(budgets?: Budgets | null): CheckVerdict;
  free(): void;
  [Symbol.dispose](): void;
}
/** The format of a file whose first bytes are `head`, by the rules `RowsSession` reads it with. */
export function rowsFormat(rows: RowsOptions | null | undefined, head: Uint8Array): NonNullable<RowsOptions['format']>;
/**
 * Your own rows analyzed with `doc`: a Blob or File (read in slices; Parquet by row group, only
 * the key's columns), whole bytes, or a function returning a fresh async iterable (or
 * ReadableStream) of chunks for each of the two passes. `free()` the session.
 */
export function analyzeRows(
  doc: DesignInput,
  source:
    | Blob
    | Uint8Array
    | ArrayBuffer
    | ((pass: 'reading' | 'analyzing') => AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>),
  opts?: {
    options?: AnalyzeOptions | null;
    rows?: RowsOptions;
    onProgress?: (p: { pass: 'reading' | 'analyzing'; done: number; total: number | undefined }) => void;
    signal?: AbortSignal;
    /** Stop after the first pass (for `session.profile()` with `rows.profile`); `stats` is then absent. */
    scanOnly?: boolean;
  },
): Promise<{ session: RowsSession; summary: RowScanSummary; stats?: RowStats }>;

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

/** Capacity inputs for `adviseDesign` (every member optional; HBase's defaults). */
export interface CapacityOptions {
  /** Bytes per record, key + value (default: the design's mean key + `valueSize`). */
  recordBytes?: number | null;
  /** Records per second (default: the workload's `writeRate`). */
  writeRate?: number | null;
  /** The column family's TTL in days (default: none, kept forever). */
  ttlDays?: number | null;
  /** `hbase.hregion.max.filesize` (10 GiB). */
  maxFileSize?: number;
  /** `hbase.hregion.memstore.flush.size` (128 MiB). */
  memstoreFlushSize?: number;
  /** The region server heap (16 GiB). */
  heapBytes?: number;
  /** `hbase.regionserver.global.memstore.size` (0.4). */
  memstoreShare?: number;
  /** `hbase.hregion.majorcompaction` in days (7). */
  majorCompactionDays?: number;
}
/** Options of the design advisor; unknown members are errors. */
export interface AdviseOptions {
  /** Region servers to design for (default: the design's `regions.regionServers`). */
  servers?: number | null;
  /** Records each candidate is evaluated on (200,000). */
  records?: number;
  /** Time windows per analysis (64). */
  windows?: number;
  /** Native only: evaluation threads (0: every core); wasm evaluates on one. */
  threads?: number;
  capacity?: CapacityOptions;
}
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
}
export interface Recommendation {
  /** 0: keep the input. */
  index: number; label: string; keyText: string; design: NormalizedDesign;
  /** Reasons, each `gain: …` or `cost: …` against the input. */
  why: string[];
  metrics: CandidateMetrics;
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
}
/** The design advisor in one call (one thread). `adviseDesignParallel` in the npm package fans out to worker threads. */
export function adviseDesign(doc: DesignInput, options?: AdviseOptions | null): Advice;
/** The candidates of `doc`, for evaluation elsewhere (workers). */
export function adviseCandidates(doc: DesignInput, options?: AdviseOptions | null): CandidateSet;
/** One candidate's figures; `targetRegions` from `adviseCandidates`. */
export function evaluateCandidate(design: DesignInput, options: AdviseOptions | null | undefined, targetRegions: number): CandidateMetrics;
/** The answer from evaluations in candidate order (each `evaluateCandidate`'s result or `{error}`): the same as `adviseDesign`. */
export function adviseFrom(doc: DesignInput, options: AdviseOptions | null | undefined, evaluations: readonly (CandidateMetrics | { error: string })[]): Advice;
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
  run?: { threads?: number; onProgress?: (p: AdviseProgress) => void },
): Promise<Advice>;
