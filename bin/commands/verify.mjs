// verify: after a rekey, the old table's rows against the new table's, both read through the
// new key with every column both exports hold (the engine's RekeyVerifier,
// src/rekey/verify.rs, decides the columns and the type each is compared as): every
// old row under its new key once with the same cells, and nothing else. Two bounded passes:
// counts and digests per bucket, then only the differing buckets' rows (in rounds that fit
// the memory held), matched by key; the engine says which export to read next. Each export
// is read more than once: a file, not a pipe.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, printable, table } from '../lib/format.mjs';
import { inputName } from '../lib/input.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows, isRegularFile, rowsOptions } from '../lib/rows.mjs';

/** Feed every row of `file`, read through `design` (its keys), to `take(keys, offsets)`. */
async function eachSlice(design, file, opt, take) {
  const fed = s => {
    const { keys, offsets } = s.takeKeys();
    if (offsets.length > 1) take(keys, offsets);
  };
  let session = null;
  try {
    ({ session } = await analyzeRows(design, null, file, opt, undefined, true, {
      keys: true,
      digests: true,
      onSlice: fed,
    }));
    fed(session); // the last rows, read as the scan ended
  } finally {
    session?.free();
  }
}

/** One export as the verifier takes it: its rows options and what it says of its columns. */
async function exportOf(file, opt) {
  const name = inputName(file);
  if (file === '-' || !isRegularFile(file, name))
    throw new CliError(
      EXIT.INPUT,
      `${name}: not a regular file. verify reads each export more than once (a count, then the rows of the buckets that differ): save it to a file first`,
    );
  const rows = rowsOptions(opt, name);
  const handle = await api.openRowsReader(file);
  try {
    return { rows, sample: await api.rowsSample(handle, rows) };
  } finally {
    await handle.close();
  }
}

/** `--ignore COL` (repeatable) and `--columns A,B`, as the engine's VerifyOptions. */
function verifyOptions(opt) {
  const o = {};
  if (opt.ignore !== undefined) o.ignore = [opt.ignore].flat();
  if (opt.columns !== undefined) {
    o.columns = [opt.columns].flat().flatMap(c => c.split(','));
    if (o.columns.some(c => c === ''))
      throw new CliError(EXIT.USAGE, `--columns takes column names separated by commas, not ${opt.columns}`);
  }
  return o;
}

/** The report's columns, for people: what was compared as what, what was not and why. */
function columnLines(r) {
  const shown = c => (c.old === c.new ? `${c.as}` : `${c.as}: ${c.old} | ${c.new}`);
  const lines = [
    `compared (${r.compared.length}): ${r.compared.map(c => `${printable(c.column)} (${shown(c)})`).join(', ')}`,
  ];
  if (r.ignored.length) lines.push(`ignored: ${r.ignored.map(i => `${printable(i.column)} (${i.why})`).join(', ')}`);
  const ignored = new Set(r.ignored.map(i => i.column));
  for (const [list, where] of [
    [r.onlyOld, 'the old'],
    [r.onlyNew, 'the new'],
  ])
    if (list.length)
      lines.push(
        `only in ${where} export: ${list.map(printable).join(', ')}${list.every(c => ignored.has(c)) ? ' (ignored)' : ' (not equal: --ignore COL if expected)'}`,
      );
  return lines;
}

export async function verify(pos, opt) {
  if (pos.length !== 2) throw new CliError(EXIT.USAGE, 'expected the old design and the new design');
  if (opt.oldRows === undefined || opt.newRows === undefined)
    throw new CliError(EXIT.USAGE, 'verify needs --old-rows FILE and --new-rows FILE (the two tables’ exports)');
  const oldDoc = await loadDesign(pos[0]);
  const newDoc = await loadDesign(pos[1]);
  const options = verifyOptions(opt);
  const oldExport = await exportOf(opt.oldRows, opt);
  const newExport = await exportOf(opt.newRows, opt);
  const v = engine(() => new api.RekeyVerifier(oldDoc, newDoc, oldExport, newExport, options));
  try {
    const design = JSON.parse(engine(() => v.design()));
    const files = { old: opt.oldRows, new: opt.newRows };
    // the reads the engine's plan asks for (src/rekey/verify.rs next_read): both exports
    // counted, then, when buckets differ, read again a round at a time
    for (let read = engine(() => v.next()); read; read = engine(() => v.next())) {
      const { side } = read;
      await eachSlice(design, files[side], opt, (k, o) => engine(() => v.feed(side, k, o)));
    }
    const r = engine(() => v.finish());
    out(opt, r, () =>
      [
        `${r.equal ? 'equal' : 'NOT equal'}: ${r.oldRows} old rows, ${r.newRows} new rows; ${r.missing} missing, ${r.extra} extra, ${r.changed} changed (${r.differingBuckets} of ${r.buckets} buckets differ)${r.complete ? '' : '; the differing rows passed the memory held: counts are lower bounds'}`,
        ...columnLines(r),
        ...(r.first.length
          ? [
              '',
              table(
                r.first.map(d => [d.kind, printable(d.key), printable(d.fields ?? '-')]),
                ['', 'new key', 'through the new key'],
                [0, 1, 2],
              ),
            ]
          : []),
      ].join('\n'),
    );
    return r.equal ? undefined : EXIT.BUDGET;
  } finally {
    v.free();
  }
}
