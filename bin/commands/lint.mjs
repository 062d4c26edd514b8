// lint, examples: a design's lint findings; its examples' keys now against the ones recorded.
import * as api from '../../pkg/node/index.js';
import { EXIT, engine } from '../lib/errors.mjs';
import { out, printable, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';

export async function lint(pos, opt) {
  const design = await loadDesign(pos[0]);
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

export async function examples(pos, opt) {
  const design = await loadDesign(pos[0]);
  // Each example against the key the design writes now, by the engine's rule (the linter's
  // example-key finding; it skips the bytes random(...) draws).
  const rows = engine(() => api.checkExamples(design));
  const failed = rows.some(r => r.failed && !(opt.update && r.status === 'moved'));
  if (opt.update) {
    // The engine's rewrite of the moved keys; the rest of the document stays as written.
    const { examples } = engine(() => api.updateExamples(design)).design;
    for (const r of rows)
      if (r.status === 'error' && r.failed) console.error(`rowkey-lab: ${printable(r.message)} (its key is kept)`);
    console.log(JSON.stringify({ ...design, examples }, null, 2));
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
      if (r.status === 'error') lines.push(r.failed ? r.message : `example ${r.index}: ${r.message}`);
    const count = status => rows.filter(r => r.status === status && r.failed).length;
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
