// Hand-written TypeScript declarations of rowkey-lab's wasm API (no `any`). scripts/build-npm.sh
// copies this file over wasm-bindgen's generated d.ts, whose JsValue parameters are untyped.
// Exports marked "(keyspec)" / "(analyze)" exist once those bindings are merged; each throws a
// RowkeyError on bad input, never traps.

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

/** Every export throws an `Error` carrying the core error's pointer. */
export interface RowkeyError extends Error {
  /** Error kind, e.g. "Argument", "Invalid", "Parse". */
  kind: string;
  /** The message without the location. */
  reason: string;
  /** JSON path or argument name. */
  path?: string;
  /** Byte / UTF-16 offset. */
  offset?: number;
  line?: number;
  column?: number;
}

/* ------------------------------------------------------------------ bytes */

export type FieldType =
  | 'string' | 'long' | 'int' | 'short' | 'double' | 'float' | 'boolean' | 'bigDecimal' | 'timestamp';
export type Bytes = Uint8Array | readonly number[];
export type SplitAlgorithm = 'HexStringSplit' | 'DecimalStringSplit' | 'UniformSplit';

export interface KeyView { hex: string; binary: string }
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
export function splitKeys(algorithm: SplitAlgorithm, regions: number, options?: SplitKeysOptions | null): Uint8Array[];
export function bytesSplit(a: Bytes, b: Bytes, num: number, inclusive?: boolean): Uint8Array[];
export function createTableSplitKeys(start: Bytes, end: Bytes, numRegions: number): Uint8Array[];
export function regionOf(splitKeys: readonly Bytes[], row: Bytes): number;

/* ------------------------------------------------------------------ golden vectors */

export interface VectorVerdict { verdict: 'pass' | 'fail' | 'cannotRun'; func: string; detail: string | null }
/** Runs one golden-vector JSON line (only in builds with the `vectors` feature; the npm build has it). */
export function runVector(line: string): VectorVerdict;

/* ------------------------------------------------------------------ design documents */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type KeyRecord = { [field: string]: JsonValue };

export interface FieldDecl {
  name: string;
  type: FieldType;
  [option: string]: JsonValue | undefined;
}
export interface Example { record: KeyRecord; key?: string; note?: string }
/** A design document (v1). Workload, regions and reads are documented in docs/keyspec.md. */
export interface DesignDocument {
  v: number;
  name?: string | null;
  description?: string | null;
  fields: FieldDecl[];
  key: string;
  workload?: { [option: string]: JsonValue } | null;
  regions?: { [option: string]: JsonValue } | null;
  reads?: Array<{ [option: string]: JsonValue }>;
  latestFirst?: boolean;
  examples?: Example[];
}
/** A design as a document object or its JSON text. */
export type DesignInput = DesignDocument | string;

export interface PresetEntry { id: string; name: string | null; description: string | null }
export function listPresets(): PresetEntry[];
export function getPreset(id: string): DesignDocument;

/* ------------------------------------------------------------------ keyspec */

export interface SegmentLayout {
  index: number;
  /** Source text of the segment. */
  text?: string;
  field?: string | null;
  /** Fixed width in bytes, or null when variable. */
  width: number | null;
  [extra: string]: JsonValue | undefined;
}
export interface KeySpan { segment: number; start: number; end: number; field?: string | null }
export interface EncodedKey { hex: string; binary: string; bytes: Uint8Array; spans?: KeySpan[] }
export interface DecodedKey { record: KeyRecord; [extra: string]: JsonValue | KeyRecord | undefined }
export type Severity = 'error' | 'warning' | 'info';
export interface Finding { rule: string; severity: Severity; segment: number | null; message: string }
export interface LintRule { id: string; summary: string }

/** (keyspec) Parses key-spec text; returns its syntax tree. */
export function parseKey(key: string): { [node: string]: JsonValue };
/** (keyspec) Canonical formatting of key-spec text. */
export function formatKey(key: string): string;
/** (keyspec) Checks a design; throws the first error with its pointer. */
export function validateDesign(design: DesignInput): DesignDocument;
/** (keyspec) Encodes one record to its row key. */
export function encodeKey(design: DesignInput, record: KeyRecord): EncodedKey;
/** (keyspec) Decodes a row key back to a record. */
export function decodeKey(design: DesignInput, key: Bytes | string): DecodedKey;
/** (keyspec) The byte layout of each segment. */
export function keyLayout(design: DesignInput): SegmentLayout[];
/** (keyspec) Which bytes of a key each segment produced. */
export function keySpans(design: DesignInput, record: KeyRecord): KeySpan[];
/** (keyspec) Lint findings of a design. */
export function lintDesign(design: DesignInput): Finding[];
/** (keyspec) Every lint rule. */
export function lintRules(): LintRule[];

/* ------------------------------------------------------------------ analyze */

export interface AnalyzeOptions {
  windows?: number;
  sampleSize?: number;
  regionSampleSize?: number;
  gridBuckets?: number;
  presplitSample?: number;
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
/** Row-major region × window counts (typed array across the boundary). */
export interface Matrix { rows: number; cols: number; cells: Uint32Array | number[] }
export interface RegionReport {
  index: number; startKeyHex: string; startKey: string; endKeyHex: string; endKey: string;
  rows: number; bytes: number; writes: number; createdAtMs: number | null; server: number;
}
export interface ServerReport { index: number; regions: number; rows: number; bytes: number; writesPerWindow: number[] | Uint32Array }
export interface SampleKey { keyHex: string; key: string; region: number }
export interface SplitEvent {
  timeMs: number; splitKeyHex: string; splitKey: string; parentBytes: number;
  sizeToCheck: number; regionsOnServer: number; regionsAfter: number;
}
export interface Scan { startRowHex: string; startRow: string; stopRowHex: string; stopRow: string; regions: number[] }
export interface ReadPlan {
  name: string; scans: Scan[]; regionsTouched: number; rowsReadPerRowReturned: number | null; notes: string[];
}
export interface AnalysisReport {
  writes: number; bytes: number; writesOutsideWindows: number; startTimeMs: number; windowMs: number;
  windows: number; regions: RegionReport[]; servers: ServerReport[]; matrix: Matrix; grid: Matrix;
  gridBuckets: number; sample: SampleKey[]; metrics: MatrixMetrics; gridMetrics: MatrixMetrics;
  serverMetrics: LoadMetrics; splits: SplitEvent[]; splitLimitReached: boolean; diagnosis: string[];
  /** Read plans, when the binding includes them. */
  reads?: ReadPlan[];
  lint?: Finding[];
}
export interface Progress { done: number; total: number; regions: number; finished: boolean }

/** (analyze) Whole-document analysis. */
export function analyzeDesign(design: DesignInput, options?: AnalyzeOptions | null): AnalysisReport;
/** (analyze) Compares two designs cell by cell on the key-space grid. */
export function compareDesigns(a: DesignInput, b: DesignInput, options?: AnalyzeOptions | null): { [k: string]: JsonValue };
/** (analyze) The scans each read pattern issues. */
export function planReads(design: DesignInput, splitKeys?: readonly Bytes[] | null): ReadPlan[];
/** (analyze) The design's pre-split keys. */
export function layoutSplitKeys(design: DesignInput): Uint8Array[];
/** (analyze) `create 't', 'cf', SPLITS => [...]` for the HBase shell. */
export function shellCreate(design: DesignInput, options?: { table?: string; family?: string } | null): string;
/** (analyze) A splits file (one `toStringBinary` key per line) for `SPLITS_FILE`. */
export function splitsFile(design: DesignInput): string;

/** (analyze) Chunked analysis: step until finished (stop to cancel), then finish. */
export class AnalysisSession {
  constructor(design: DesignInput, options?: AnalyzeOptions | null);
  step(records: number): Progress;
  progress(): Progress;
  finish(): AnalysisReport;
  free(): void;
  [Symbol.dispose](): void;
}
