// verify: after a rekey, the old table's rows against the new table's, both read through the
// new design, each key with its row's digest (the engine's RekeyVerifier,
// src/advise/rekey/verify.rs): every old row under its
// new key once with its fields, and nothing else. Two bounded passes: counts and digests per
// bucket, then only the differing buckets' rows (in rounds that fit the memory held),
// matched by key.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, printable, table } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';

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

export async function verify(pos, opt) {
  if (pos.length !== 2) throw new CliError(EXIT.USAGE, 'expected the old design and the new design');
  if (opt.oldRows === undefined || opt.newRows === undefined)
    throw new CliError(EXIT.USAGE, 'verify needs --old-rows FILE and --new-rows FILE (the two tables’ exports)');
  await loadDesign(pos[0]); // checked: the rekey's old design
  const newDoc = await loadDesign(pos[1]);
  const v = engine(() => new api.RekeyVerifier(newDoc));
  try {
    const design = JSON.parse(engine(() => v.design()));
    const files = [
      ['old', opt.oldRows],
      ['new', opt.newRows],
    ];
    for (const [side, file] of files) await eachSlice(design, file, opt, (k, o) => engine(() => v.count(side, k, o)));
    // the differing buckets, in rounds that each fit the memory held: both files read again
    // per round (one round unless the differences pass 256 MiB of rows)
    for (const round of engine(() => v.rounds())) {
      engine(() => v.holdIn(round));
      for (const [side, file] of files) await eachSlice(design, file, opt, (k, o) => engine(() => v.hold(side, k, o)));
      engine(() => v.settle());
    }
    const r = engine(() => v.finish());
    out(opt, r, () =>
      [
        `${r.equal ? 'equal' : 'NOT equal'}: ${r.oldRows} old rows, ${r.newRows} new rows; ${r.missing} missing, ${r.extra} extra, ${r.changed} changed (${r.differingBuckets} of ${r.buckets} buckets differ)${r.complete ? '' : '; the differing rows passed the memory held: counts are lower bounds'}`,
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
