// Typed consumer of the package: `tsc --noEmit --strict` over this file checks the hand-written
// declarations (src/types.d.ts, shipped as pkg/web/rowkey_lab.d.ts).
import init, { md5Hex, listPresets, getPreset, splitKeys, inspect, toStringBinary, compareBytes,
  type Inspection, type PresetEntry, type DesignDocument, type AnalysisReport, type Finding } from 'rowkey-lab';

export async function main(): Promise<string> {
  await init();
  const presets: PresetEntry[] = listPresets();
  const doc: DesignDocument = getPreset(presets[0].id);
  const keys: Uint8Array[] = splitKeys('HexStringSplit', 16, { firstRow: '0', lastRow: 'f' });
  const info: Inspection = inspect('13412341234', { type: 'string', regions: 16 });
  const order: -1 | 0 | 1 = compareBytes(keys[0], keys[1]);
  const report: AnalysisReport | null = null;
  const findings: Finding[] = [];
  return [md5Hex(new Uint8Array([97])), doc.key, toStringBinary(keys[0]), info.md5Hex, order,
    report === null, findings.length].join(' ');
}
