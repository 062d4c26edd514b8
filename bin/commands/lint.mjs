// lint, examples: a design's lint findings; its examples' keys now against the ones recorded.
import * as api from '../../pkg/node/index.js';
import { EXIT, engine } from '../lib/errors.mjs';
import { hex, out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';

export function lint(pos, opt) {
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
}

export function examples(pos, opt) {
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
}

/** An example's recorded key as the shell prints it (its `keyBinary` when it has no hex `key`). */
const recordedText = r => (r.key != null ? api.toStringBinary(Buffer.from(r.key, 'hex')) : r.keyBinary);
