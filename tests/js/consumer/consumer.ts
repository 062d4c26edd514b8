// Typed consumer of the package: `tsc --noEmit --strict` over this file (tests/js/npm/npm.test.mjs,
// from a folder where the packed tarball is installed) checks the hand-written declarations
// (src/types.d.ts, shipped as pkg/web/rowkey_lab.d.ts and pkg/node/index.d.ts). It is only
// type-checked, never run.
import init, {
  type AnalysisReport,
  AnalysisSession,
  analyzeDesign,
  type Comparison,
  compareBytes,
  compareDesigns,
  type Decoded,
  type DesignDocument,
  decodeKey,
  type EncodedKeys,
  type ErrorKind,
  encodeKey,
  type Finding,
  formatKey,
  getPreset,
  type Inspection,
  inspect,
  KeyCodec,
  type KeySample,
  type KeySpecJson,
  keyLayout,
  keySpans,
  type LintRule,
  layoutSplitKeys,
  lintDesign,
  lintRules,
  listPresets,
  md5Hex,
  type NormalizedDesign,
  type PhoenixSection,
  type PkSegment,
  type PresetEntry,
  type Progress,
  parseCreateTable,
  parseKey,
  planReads,
  printCreateTable,
  type ReadPlan,
  type RegionList,
  type RegionLoad,
  type RowkeyError,
  readRegions,
  regionOf,
  type SegmentLayout,
  type Span,
  shellCreate,
  shellScan,
  splitKeys,
  splitsFile,
  toBytesBinary,
  toStringBinary,
  validateDesign,
  type Width,
} from 'rowkey-lab';

// Exhaustive over the declared kinds: tsc fails here if a kind is added without a case.
const blame = (k: ErrorKind): string => {
  switch (k) {
    case 'parse':
    case 'invalid':
    case 'illegalData':
    case 'dataExceedsCapacity':
    case 'constraintViolation':
      return 'input';
    case 'numberFormat':
    case 'illegalArgument':
    case 'negativeArraySize':
    case 'indexOutOfBounds':
    case 'arithmetic':
      return 'argument';
    case 'illegalState':
      return 'state';
    case 'limit':
      return 'size';
    default: {
      const none: never = k;
      return none;
    }
  }
};

const width = (w: Width): string => (w === 'variable' ? 'variable' : `${w.fixed} bytes`);

export async function main(): Promise<string> {
  await init();
  const presets: PresetEntry[] = listPresets();
  const doc: NormalizedDesign = getPreset(presets[0].id);
  const keys: Uint8Array[] = splitKeys('HexStringSplit', 16, { firstRow: '0', lastRow: 'f' });
  const info: Inspection = inspect('13412341234', { type: 'string', regions: 16 });
  const order: -1 | 0 | 1 = compareBytes(keys[0], keys[1]);
  const region: number = regionOf([keys[1], keys[0]], [0x31]);

  const own: DesignDocument = { v: 1, fields: [{ name: 'phone', type: 'string' }], key: 'phone + "_"' };
  const spec: KeySpecJson = parseKey('phone + "_"');
  const text: string = formatKey(spec);
  const normal: NormalizedDesign = validateDesign(JSON.stringify(own));
  const key: Uint8Array = encodeKey(own, { phone: '13412341234' });
  const decoded: Decoded = decodeKey(own, key);
  const spans: Span[] = keySpans(own, key);
  const layout: SegmentLayout[] = keyLayout(doc);
  const findings: Finding[] = lintDesign(doc);
  const rules: LintRule[] = lintRules();
  using codec = new KeyCodec(own);
  const one: Uint8Array = codec.encode({ phone: '13412341234' });
  const many: EncodedKeys = codec.encodeAll([{ phone: '1' }, { phone: 2n }]);
  const back: Decoded = codec.decode(many.keys.subarray(many.offsets[0], many.offsets[1]));
  const codecSpans: Span[] = codec.spans(one);
  const table: NormalizedDesign = parseCreateTable('CREATE TABLE t (a VARCHAR PRIMARY KEY) SALT_BUCKETS = 4');
  const phoenix: PhoenixSection | undefined = table.phoenix;
  const column: PkSegment = { kind: 'pk', field: 'A', type: 'VARCHAR', desc: true };
  const ddl: string = printCreateTable({ v: 1, fields: [{ name: 'A', type: 'string' }], key: { segments: [column] } });

  const report: AnalysisReport = analyzeDesign(doc, { windows: 16 });
  const cells: Uint32Array = report.matrix.cells;
  const sample: KeySample = report.sample;
  const firstKey: string = toStringBinary(sample.keys.subarray(sample.offsets[0], sample.offsets[1]));
  const lastRegion: number = sample.regions[sample.regions.length - 1];
  const plans: ReadPlan[] = planReads(doc, layoutSplitKeys(doc));
  const shell: string = shellCreate('t', 'cf', layoutSplitKeys(doc)) + splitsFile(keys);
  const scans: string[] = planReads(doc).flatMap(p =>
    p.scans.map(s => shellScan('t', toBytesBinary(s.startRow), toBytesBinary(s.stopRow))),
  );
  const cmp: Comparison = compareDesigns([doc, normal], null);
  const current: RegionList = readRegions('Total number of splits = 3\n01\n02\n', null);
  const onTable: AnalysisReport = analyzeDesign(
    {
      ...doc,
      regions: { presplit: current.presplit, ...(current.assignment ? { assignment: current.assignment } : {}) },
    },
    null,
  );
  const serverNames: string[] = onTable.servers.map(s => s.name ?? `server ${s.index}`);
  const placed: string[] | undefined = current.assignment?.servers;
  const checked: number = current.verified + (current.presplit.kind === 'explicit' ? current.presplit.keys.length : 0);
  const busiest: RegionLoad | undefined = current.load.reduce<RegionLoad | undefined>(
    (a, l) => ((l.requests ?? 0) > (a?.requests ?? 0) ? l : a),
    undefined,
  );
  const where: string = `${busiest?.startKey ?? ''} on ${busiest?.server ?? 'an unknown server'}, ${busiest?.storeFileMb ?? 0} MB`;

  using session = new AnalysisSession(doc, { sampleSize: 10 });
  let p: Progress = session.progress();
  while (!p.finished) p = session.step(10_000);
  const partial: AnalysisReport = session.finish();
  using fed = new AnalysisSession(doc, null);
  const fedProgress: Progress = fed.feed([{ phone: '13412341234', ts: '2021-09-07T08:30:00Z' }]);

  let pointer = '';
  try {
    validateDesign({ v: 1, fields: [], key: '(' });
  } catch (e) {
    const err = e as RowkeyError;
    pointer = `${blame(err.kind)} ${err.path ?? ''} ${err.line ?? ''}:${err.column ?? ''}`;
  }
  return [
    md5Hex(new Uint8Array([97])),
    toStringBinary(keys[0]),
    info.md5Hex,
    order,
    region,
    text,
    decoded.fields.map(f => `${f.name}=${String(f.value)}${f.exact ? '' : '~'}`).join(','),
    spans.map(([s, e]) => e - s).join(','),
    layout.map(l => width(l.width)).join(','),
    findings.map(f => `${f.severity}:${f.rule}@${f.segment ?? '-'}`).join(','),
    rules.length,
    report.metrics.meanHotspotFactor.toFixed(2),
    cells.length,
    firstKey,
    lastRegion,
    plans.map(r => `${r.name}:${r.scans.length}:${r.rowsReadPerRowReturned ?? '-'}`).join(','),
    shell.length,
    cmp.designs.map(d => d.metrics.overall.gini).join(','),
    partial.writes,
    fedProgress.total,
    pointer,
    back.fields.length,
    codecSpans.length,
    phoenix?.table ?? '-',
    ddl,
    scans.length,
    serverNames.join(','),
    placed?.join(',') ?? '-',
    checked,
    where,
  ].join(' ');
}
