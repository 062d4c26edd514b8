// profile: what a file's rows do to the design's key — per field its rows, nulls, distinct and
// heaviest values, range and order; per key its lengths and distinct prefixes (the engine's
// RowsSession with rows.profile, its first pass only).
import { CliError, EXIT } from '../lib/errors.mjs';
import { out, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';

export async function profile(pos, opt) {
  if (opt.records === undefined) throw new CliError(EXIT.USAGE, 'profile needs --records FILE (your rows)');
  const design = await loadDesign(pos[0]);
  // A profile counts nulls rather than stopping at the first (--nulls error asks for that).
  const run = await analyzeRows(
    design,
    undefined,
    opt.records,
    { ...opt, profile: true, nulls: opt.nulls ?? 'skip' },
    undefined,
    true,
  );
  let p;
  try {
    p = run.session.profile();
  } finally {
    run.session.free();
  }
  const n = v => (v.exact ? String(v.distinct) : `> ${v.distinct}`);
  out(opt, p, () =>
    [
      table(
        p.fields.map(f => [
          f.field,
          f.column ?? '-',
          f.rows,
          f.nulls,
          n(f),
          f.heaviest
            .slice(0, 3)
            .map(h => `${h.value} (${h.rows})`)
            .join(', '),
          f.min ?? '-',
          f.max ?? '-',
          f.monotonic === null ? '-' : `${(f.monotonic * 100).toFixed(1)} %`,
        ]),
        ['field', 'column', 'rows', 'nulls', 'distinct', 'heaviest', 'min', 'max', 'in order'],
        [0, 1, 5, 6, 7],
      ),
      '',
      `${p.key.keys} keys of ${p.key.minLength}..${p.key.maxLength} bytes (mean ${p.key.meanLength.toFixed(1)})`,
      `distinct prefixes by length: ${p.key.prefixes.map(x => `${x.bytes}:${x.exact ? x.distinct : `>${x.distinct}`}`).join(' ')}`,
    ].join('\n'),
  );
}
