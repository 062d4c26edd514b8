// "Move the table to another design", under Compare: the engine's rekey plan
// (src/rekey.rs, `rowkey-lab rekey`) from the design on show to a compared one, on the
// user's rows when a file of them was analyzed (the rows worker's rekeyRows: both designs over
// the file, the new table cut into the regions asked at the rows re-encoded, by rows or bytes —
// the composition the CLI runs, engine/rekey.js), else on the design on show's workload (both
// designs run its records, as Compare runs them, on the speed build); drawn as it is: where each field of the new key comes
// from, the new table's regions and split keys, the job sized, the create statement to copy,
// what to watch, and the cutover checklist with the numbers in. Text reaches the DOM through
// textContent (el) only. Loaded when a comparison is drawn (compare-view.js), a module of its own
// in the built page, never part of the first load: it imports none of the lab's modules and gets
// their helpers from compare-view.js, as rows-view.js and observe-view.js do.

let bytesText, copyBlock, el, fix, num, readOff;

const FROM = { column: 'a column of the rows', oldKey: 'the old key', missing: 'nowhere' };

/** The panel for the comparison of `docs` (the design on show first), named by `roles`; `lab`:
 * the lab's helpers (`bytesText`, `copyBlock`, `el`, `fix`, `num`, `readOff`), `rows`, the file
 * of rows last analyzed (`{file, rows}`, the rows worker's arguments) or undefined, and `plan`,
 * the index of a compared design whose move is planned at once (the advisor's "Move to this
 * design"). */
export function rekeyPanel(docs, roles, lab) {
  ({ bytesText, copyBlock, el, fix, num, readOff } = lab);
  const rows = lab.rows;
  const box = el('section', undefined, { id: 'rekey', 'aria-labelledby': 'rekey-h' });
  const out = el('div', undefined, { id: 'rekey-out' });
  const status = el('p', undefined, { id: 'rekey-status', class: 'status', role: 'status' });
  const bar = el('div', undefined, { class: 'runbar' });
  // over a file of rows: the new table's regions, cut at the rows re-encoded by rows or bytes
  const count = el('input', undefined, {
    id: 'rekey-count',
    type: 'number',
    min: '1',
    max: '10000',
    step: '1',
    // left empty: the new design's own pre-split, as `rowkey-lab rekey` without --regions (a
    // salt's buckets, a pre-split's count); the plan then says how many regions that is
    value: '',
    placeholder: 'its own',
  });
  const by = el('select', undefined, { id: 'rekey-by' });
  for (const [v, t] of [
    ['rows', 'equal rows'],
    ['bytes', 'equal bytes'],
  ])
    by.append(el('option', t, { value: v }));
  const cut = el('p', undefined, { class: 'rekey-cut' });
  cut.append(
    el('label', 'New table’s regions ', { for: 'rekey-count' }),
    count,
    ' (empty: the new design’s own pre-split; a number: ',
    el('label', 'cut at ', { for: 'rekey-by' }),
    by,
    ` of your rows (${rows?.rows?.name ?? 'the file'}) re-encoded).`,
  );
  let asking = null;
  for (const [i, doc] of docs.entries()) {
    if (!i) continue;
    const b = el('button', `Plan the move to ${roles[i] ?? `design ${i + 1}`}`, {
      type: 'button',
      class: 'rekey-go',
      'data-index': String(i),
    });
    b.addEventListener('click', async () => {
      asking?.cancel();
      const regions = count.value.trim() === '' ? undefined : Number(count.value);
      if (rows && regions !== undefined && !(Number.isInteger(regions) && regions >= 1 && regions <= 10000)) {
        status.textContent = 'The new table’s regions: a whole number from 1 to 10,000.';
        count.focus();
        return;
      }
      status.textContent = rows
        ? `Planning the move: both designs over ${rows.rows?.name ?? 'your rows'}…`
        : 'Planning the move: both designs over the same records…';
      out.replaceChildren();
      const ask = rows
        ? readOff('rekeyRows', {
            oldDoc: docs[0],
            newDoc: doc,
            ...rows,
            regions,
            by: regions === undefined ? undefined : by.value,
          })
        : readOff('rekeyPlan', { oldDoc: docs[0], newDoc: doc }, '#engine=fast');
      asking = ask;
      try {
        const p = await ask;
        if (asking !== ask) return;
        status.textContent = p ? '' : 'The plan needs the engine’s speed build, which this page has not loaded.';
        if (p) {
          out.replaceChildren(...plan(p, roles[0] ?? 'this design', roles[i] ?? `design ${i + 1}`));
          out.querySelector('h4')?.focus();
        }
      } catch (e) {
        if (e.name !== 'AbortError' && asking === ask) status.textContent = `Not planned: ${e.message}`;
      }
    });
    bar.append(b);
    if (lab.plan === i) queueMicrotask(() => b.click());
  }
  box.append(
    el('h3', 'Move the table to another design', { id: 'rekey-h' }),
    el(
      'p',
      rows
        ? 'A row key cannot be changed in place: the move is a new table, pre-split, filled by a bulk load from the old one while writes continue, then switched to. The plan sizes it on your rows, as `rowkey-lab rekey OLD NEW --records FILE --regions N` does.'
        : 'A row key cannot be changed in place: the move is a new table, pre-split, filled by a bulk load from the old one while writes continue, then switched to. The plan sizes it on this design’s workload (open a file of your rows under Rows to plan on them; or `rowkey-lab rekey OLD NEW --records FILE`).',
      { class: 'muted' },
    ),
    ...(rows ? [cut] : []),
    bar,
    status,
    out,
  );
  return box;
}

const regionsText = n => `${num(n)} region${n === 1 ? '' : 's'}`;

/** The plan's parts, as the CLI prints them. */
function plan(p, oldName, newName) {
  const j = p.job;
  const table = (head, rows, id) => {
    const t = el('table', undefined, { id, class: 'rekey-table' });
    const tr = el('tr');
    for (const h of head) tr.append(el('th', h, { scope: 'col' }));
    t.append(tr);
    for (const r of rows) {
      const row = el('tr');
      for (const c of r) row.append(el('td', String(c)));
      t.append(row);
    }
    return t;
  };
  const list = (items, id, tag = 'ol') => {
    const l = el(tag, undefined, { id });
    for (const x of items) l.append(el('li', x));
    return l;
  };
  return [
    el('h4', `From ${oldName} to ${newName}`, { tabindex: '-1' }),
    el(
      'p',
      // the engine's headlines, with their own figures (a bare hotspot factor beside one could
      // say otherwise: per window it is noisy on few rows, over the run 1.0 for a moving hotspot)
      `${oldName}, ${regionsText(p.old.regions)}: ${p.old.headline}. ${newName}, ${regionsText(p.new.regions)}: ${p.new.headline}.`,
    ),
    ...(p.splitKeysExact === false
      ? [
          el('p', 'The new split keys are cut at a uniform sample of a million rows, not every row.', {
            id: 'rekey-sampled',
          }),
        ]
      : []),
    el(
      'p',
      p.ready
        ? 'Every field of the new key has a source:'
        : 'Not ready: a field of the new key has no source (give it as a column of the rows):',
      { id: 'rekey-ready' },
    ),
    table(
      ['field', 'from', 'why not'],
      p.fields.map(f => [f.field, FROM[f.from] ?? f.from, f.why ?? '']),
      'rekey-fields',
    ),
    el(
      'p',
      `The job: ${num(j.rows)} rows; ${bytesText(j.bytesRead)} read, ${bytesText(j.bytesWritten)} written (${bytesText(j.hdfsBytes)} on HDFS); ${num(j.reducers)} reducers, one per new region; at most ${num(j.maxHfilesPerRegion)} HFile${j.maxHfilesPerRegion === 1 ? '' : 's'} a region; the straggler, region ${j.straggler + 1}, takes ${fix(j.stragglerShare * 100, 1)} % of the bytes.`,
      { id: 'rekey-job' },
    ),
    table(
      ['region', 'start key', 'rows', 'KeyValue bytes', '%', 'HFiles'],
      p.regions.map((r, i) => [
        i + 1,
        r.startKey || '(first)',
        num(r.rows),
        bytesText(r.bytes),
        fix(r.share * 100, 1),
        r.hfiles,
      ]),
      'rekey-regions',
    ),
    copyBlock('create of the new table', p.create),
    ...(p.phoenix ? [copyBlock('Phoenix CREATE TABLE', p.phoenix)] : []),
    el('h4', 'The job'),
    copyBlock('Spark job (rowkey_lab.spark.rekey_df)', p.jobs.spark),
    copyBlock('MapReduce template (compile against your HBase)', p.jobs.mapreduce),
    ...(p.jobs.phoenix ? [copyBlock('Phoenix UPSERT SELECT', p.jobs.phoenix)] : []),
    el('h4', 'Watch'),
    list(p.warnings, 'rekey-warnings', 'ul'),
    el('h4', 'The cutover'),
    list(p.checklist, 'rekey-checklist'),
  ];
}
