// The lab's result views other than the heatmap, drawn from `state.report` when a run ends: the
// diagnosis, the metrics (and the summary the metrics CSV exports), the reads and their HBase
// shell scans, the sorted keys (keys-view.js) and the split keys. Split from app.js, which calls
// them in turn (renderResults), and again when the table or column family name is edited.
// Every key and every piece of design text is rendered with textContent, never as HTML.

import * as wasm from '../pkg/rowkey_lab.js';
import { readOff } from '../state/io.js';
import { $, bytesText, el, fix, num, sentence, state } from '../state/lab-state.js';
import { addSummary, clearSummary, editDesign } from '../state/store.js';
import { KeysView } from './keys-view.js';

export function metric(dl, id, label, value, meaning) {
  if (dl === $('metrics')) addSummary([label, value, meaning]);
  const dt = el('dt', label);
  const dd = el('dd');
  dd.append(el('strong', value, { 'data-metric': id }), el('span', ` — ${meaning}`, { class: 'muted' }));
  dl.append(dt, dd);
}

// the report whose metrics were drawn before the linter's findings came (null: none waits)
let lintAwaited = null;
/** Do the metrics on show wait for the linter's findings on the report they show? */
export const metricsAwaitLint = () => lintAwaited !== null && lintAwaited === state.report;
export function renderMetrics() {
  lintAwaited = state.lint ? null : state.report;
  const r = state.report,
    m = r.metrics,
    o = m.overall;
  const dl = $('metrics');
  dl.replaceChildren();
  clearSummary();
  metric(dl, 'writes', 'Writes', num(r.writes), 'records analyzed from the workload.');
  // Rows against writes: a write lands in a new row, an existing row, or an existing cell.
  const perRow = r.distinctRows ? r.writes / r.distinctRows : 0;
  metric(
    dl,
    'distinctRows',
    'Rows',
    r.distinctRowsExact
      ? `${num(r.distinctRows)} distinct (every row counted)`
      : `about ${num(r.distinctRows)} distinct (±${fix(r.distinctRowsError * 100, 2)} %: 3 standard errors, 99.7 % of estimates)`,
    r.writesShareRows
      ? `${fix(perRow, 1)} writes per row: writes share rows (the row key repeats), so rows grow wide or take versions.`
      : 'about one row per write: every write makes a row of its own.',
  );
  metric(
    dl,
    'cells',
    'Cells kept',
    num(r.cells),
    r.cells < r.writes
      ? `of ${num(r.writes)} writes: the rest are versions past the column family's VERSIONS, which compactions drop.`
      : 'one per write: no write replaces a version of another.',
  );
  metric(dl, 'regions', 'Regions', String(r.regions.length), 'regions at the end (pre-split plus any splits).');
  metric(
    dl,
    'activeRegions',
    'Active regions per window',
    fix(m.meanActiveRegions, 1),
    'regions taking writes in a typical window; 1 means every write queues on one server.',
  );
  metric(
    dl,
    'hotspotFactor',
    'Hotspot factor',
    `${fix(m.meanHotspotFactor)} (max ${fix(m.maxHotspotFactor)})`,
    'busiest region ÷ mean region in a window; 1 is perfectly even.',
  );
  // Per window (what a server feels at any one time) and over the run (what the diagnosis quotes).
  metric(
    dl,
    'parallelism',
    'Effective parallelism',
    `${fix(m.meanEffectiveParallelism, 1)} per window, ${fix(o.effectiveParallelism, 1)} over the run`,
    'how many regions the load is really spread over (1 / Σ share²).',
  );
  metric(dl, 'gini', 'Gini', fix(o.gini, 3), 'inequality of total writes across regions: 0 even, 1 all in one.');
  metric(
    dl,
    'cv',
    'Coefficient of variation',
    fix(o.coefficientOfVariation, 3),
    'spread of region totals relative to their mean.',
  );
  metric(
    dl,
    'emptyRegions',
    'Empty regions',
    String(o.emptyRegions),
    'regions that took no writes in the run: a pre-split range no key of this design falls into, or a region a split left behind writes that moved on (the diagnosis tells them apart).',
  );
  // Key lengths from the sample's offsets (key i spans offsets[i]..offsets[i + 1]).
  const { offsets } = r.sample;
  const n = offsets.length - 1;
  let lo = Infinity,
    hi = 0;
  for (let i = 0; i < n; i++) {
    const len = offsets[i + 1] - offsets[i];
    lo = Math.min(lo, len);
    hi = Math.max(hi, len);
  }
  if (n > 0)
    metric(
      dl,
      'keyLength',
      'Key length',
      lo === hi ? `${lo} bytes (every sampled key)` : `${lo}–${hi} bytes (mean ${fix(offsets[n] / n, 1)})`,
      'stored in every cell of every row; shorter keys save disk and cache.',
    );
  metric(
    dl,
    'splitEvents',
    'Split events',
    String(r.splits.length),
    'regions split by the auto-split policy during the run.',
  );
  // the linter's findings on the design that ran (the worker posts them after its report; the
  // metrics are drawn again when they come)
  const list = state.lint ?? [];
  metric(
    dl,
    'lint',
    'Lint findings',
    state.lint ? String(list.length) : '…',
    state.lint
      ? list.map(f => `${f.severity} ${f.rule}: ${f.message}`).join(' · ') || 'no rule fired.'
      : 'the linter is checking the design.',
  );
  // One finding per line on the page (the CSV keeps them in one cell).
  if (list.length) {
    const ul = el('ul', '', { class: 'findings' });
    for (const f of list) {
      const li = el('li');
      li.append(el('span', f.severity, { class: `sev ${f.severity}` }), el('code', f.rule), ` ${f.message}`);
      ul.append(li);
    }
    dl.lastElementChild.lastElementChild.replaceWith(ul);
  }
}

/** The largest rows by bytes (exact, or the engine's space-saving sketch with each count's
 * bound), with each one's share of its region's writes: a row is never split, so a row holding
 * most of a region caps what a split of that region can do. */
export function renderLargestRows() {
  const r = state.report,
    box = $('largest-rows');
  const rows = r.largestRows ?? [];
  if (!rows.length) {
    box.replaceChildren(el('p', 'No rows yet.', { class: 'muted' }));
    return;
  }
  const t = el('table', undefined, { class: 'largest-rows' });
  const hr = el('tr');
  for (const h of ['row key', 'region', 'writes', 'cells kept', 'bytes', "share of its region's writes"])
    hr.append(el('th', h, { scope: 'col' }));
  t.append(hr);
  const shown = rows.slice(0, 10);
  // A sketch's count is a lower bound: shown with the most it may be (the engine's bound).
  // (the bound on a line of its own under the figure)
  const upTo = (n, bound) =>
    r.largestRowsExact || !bound ? num(n) : [`≈${num(n)}`, el('span', `≤ ${num(n + bound)}`, { class: 'bound muted' })];
  for (const w of shown) {
    const g = r.regions[w.region];
    const share = g?.writes ? w.writes / g.writes : 0;
    const tr = el('tr');
    const cells = [
      ['row key', el('code', w.key, { title: w.keyHex })],
      ['region', String(w.region)],
      ['writes', upTo(w.writes, w.writesError)],
      ['cells kept', upTo(w.cells, w.writesError)],
      ['bytes', upTo(w.bytes, w.bytesError)],
      ["share of its region's writes", `${fix(share * 100, share < 0.1 ? 1 : 0)} %`],
    ];
    for (const [label, v] of cells) {
      const td = el('td', undefined, { 'data-label': label });
      td.append(...[v].flat());
      tr.append(td);
    }
    t.append(tr);
  }
  const of = r.distinctRowsExact
    ? `${num(r.distinctRows)} rows`
    : `about ${num(r.distinctRows)} rows (±${fix(r.distinctRowsError * 100, 2)} %, 99.7 % of estimates)`;
  box.replaceChildren(
    t,
    el(
      'p',
      r.largestRowsExact
        ? `The ${shown.length} largest of ${of} by bytes written, counted exactly: every row was followed from its first write.`
        : `Estimates from a heavy-hitters sketch: the ${shown.length} largest of ${of} by bytes written. Every row with more than 1/64 of the bytes is listed; a count marked ≈ is a lower bound, at most the figure after ≤.`,
      { class: 'muted', 'data-exact': String(Boolean(r.largestRowsExact)) },
    ),
  );
}

export function renderReads() {
  const box = $('reads');
  box.replaceChildren();
  if (state.readsError) {
    box.append(el('p', state.readsError.message, { class: 'error' }));
    return;
  }
  if (!state.reads.length) {
    box.append(el('p', 'The design declares no reads.', { class: 'muted' }));
    return;
  }
  const t = el('table');
  const hr = el('tr');
  const heads = ['read', 'scans', 'regions touched', 'rows read per row returned', 'why'];
  for (const h of heads) hr.append(el('th', h, { scope: 'col' }));
  t.append(hr);
  for (const p of state.reads) {
    const tr = el('tr');
    // data-label: the column's name, shown before the value where the table is stacked (phones)
    const cells = [
      p.name,
      p.scans.length,
      p.regionsTouched,
      p.rowsReadPerRowReturned == null ? '–' : fix(p.rowsReadPerRowReturned),
      p.notes.join(' '),
    ];
    tr.append(...cells.map((v, i) => el('td', v, { 'data-label': heads[i] })));
    t.append(tr);
  }
  box.append(t);
  const n = state.reads.reduce((a, p) => a + p.scans.length, 0);
  const more = el('details', undefined, { id: 'scan-commands' });
  more.append(
    el('summary', `Scan commands: ${n} scan${n === 1 ? '' : 's'} in the HBase shell (table named under Split keys)`),
  );
  // Written only while shown: a design's reads can need thousands of scans. A re-render keeps
  // them as the user left them.
  more.addEventListener('toggle', () => {
    scansOpen = more.open;
    renderScanCommands();
  });
  more.open = scansOpen;
  box.append(more);
}

let scansOpen = false;
/** Every scan as the HBase shell runs it, on the table named under Split keys (when shown). */
export function renderScanCommands() {
  const more = $('scan-commands');
  if (!more || !scansOpen) return;
  more.replaceChildren(more.firstElementChild);
  try {
    const { table } = shellNames();
    more.append(
      copyBlock(
        'shell scans',
        state.reads
          .flatMap(p => [
            `# ${p.name}: ${p.scans.length} scan${p.scans.length === 1 ? '' : 's'}`,
            ...p.scans.map(sc => wasm.shellScan(table, hexBytes(sc.startRowHex), hexBytes(sc.stopRowHex), p.limit)),
          ])
          .join('\n'),
      ),
    );
  } catch (e) {
    more.append(el('p', e.message, { class: 'error' }));
  }
}

const hexBytes = h => Uint8Array.from(h.match(/../g) ?? [], x => parseInt(x, 16));

let keysView = null;
export function renderKeys() {
  keysView ??= new KeysView($('keys'));
  keysView.set(state.doc, state.report);
}

/** A titled block of text with its Copy button (the statements a user pastes). */
export function copyBlock(title, text) {
  const box = el('div', undefined, { class: 'copy' });
  const btn = el('button', `Copy ${title}`, { type: 'button' });
  btn.addEventListener('click', () =>
    navigator.clipboard?.writeText(text).then(
      () => {
        btn.textContent = 'Copied';
      },
      () => {},
    ),
  );
  box.append(el('h4', title), btn, el('pre', text));
  return box;
}

/** The table and column family the shell commands name: as typed above the split keys, else
 * a Phoenix table's own (its name, its columns' family or Phoenix's default `0`), else `t`, `cf`. */
export function shellNames() {
  const ph = state.doc?.phoenix;
  return {
    table: state.shell.table || ph?.table || 't',
    family: state.shell.family || ph?.columns?.find(c => c.family)?.family || (ph ? '0' : 'cf'),
  };
}

/** Split keys: how many regions (the engine's region plan, with a button that uses it), the
 * shell `create` (with the family's VERSIONS), the SPLITS_FILE and JSON; a salted Phoenix table
 * is told that Phoenix splits it itself. */
export function renderSplits() {
  const out = $('splits-out');
  out.replaceChildren();
  const { table, family } = shellNames();
  $('split-table').placeholder = table;
  $('split-family').placeholder = family;
  const versions = state.doc?.cells?.versions ?? null;
  const create = keys => wasm.shellCreate(table, family, keys, versions);
  try {
    const r = state.report;
    if (r) out.append(regionPlanBox(r));
    const presplit = state.doc?.regions?.presplit;
    // a salted Phoenix table: Phoenix makes its regions (the engine's sentence, as `splits` says it)
    const phoenix = state.doc ? wasm.phoenixRegionsNote(state.doc) : null;
    if (phoenix) {
      out.append(el('p', phoenix, { class: 'note', id: 'phoenix-splits' }));
      return;
    }
    // The split keys the report on show was cut at (over your rows: their quantiles), so the
    // copied table is the one analysed; the layout's own before any run.
    const keys = r ? r.presplitKeysHex.map(hexBytes) : wasm.layoutSplitKeys(state.doc);
    const rows = state.rows?.step === 'done' && state.rows.result ? state.rows.name : null;
    if (rows && keys.length && presplit?.kind === 'sampleQuantiles') {
      const bytes = presplit.by === 'bytes';
      const line = el(
        'p',
        `Split points from the rows of ${rows}: ${num(keys.length + 1)} regions of equal ${bytes ? 'bytes' : 'rows'}, as the analysis above used. `,
        { class: 'muted', id: 'splits-from-rows' },
      );
      // Rows or bytes: the design's own pre-split (`by`), so the analysis, Splits and the
      // copied create are cut alike.
      const by = el('select', undefined, { id: 'split-by', 'aria-label': 'split points of equal rows or bytes' });
      for (const [v, t] of [
        ['rows', 'Equal rows'],
        ['bytes', 'Equal bytes'],
      ])
        by.append(el('option', t, { value: v }));
      by.value = bytes ? 'bytes' : 'rows';
      by.addEventListener('change', () => {
        const { by: _, ...rest } = presplit;
        const next = by.value === 'bytes' ? { ...rest, by: 'bytes' } : rest;
        editDesign({ ...state.doc, regions: { ...state.doc.regions, presplit: next } });
      });
      line.append(by);
      out.append(line);
    }
    if (!keys.length)
      out.append(el('p', 'The layout has no pre-split: the table starts as one region.', { class: 'muted' }));
    else {
      out.append(
        copyBlock('shell create', create(keys)),
        copyBlock('SPLITS_FILE', wasm.splitsFile(keys)),
        copyBlock('JSON', JSON.stringify(keys.map(k => wasm.toStringBinary(k)))),
      );
    }
    // Auto-split moved the boundaries: offer the ones the run ended with as a pre-split.
    if (r?.splits.length) {
      const final = r.regions.slice(1).map(g => hexBytes(g.startKeyHex));
      out.append(
        el(
          'p',
          `The run's auto-split made ${r.splits.length} more boundaries (${r.regions.length} regions at the end); to create the table with the regions it ended with:`,
          { class: 'muted' },
        ),
        copyBlock('shell create (end of run)', create(final)),
      );
    }
  } catch (e) {
    out.append(el('p', e.message, { class: 'error' }));
  }
}

/** How many regions to create the table with: the engine's plan from what the run measured
 * (the mean sampled key), and "Use N regions" when a pre-split matches the key. The plan is the
 * speed build's (the capacity arithmetic is no part of the first load): a worker on it answers,
 * once per report; the box fills in when it has. */
let planned = { report: null, doc: null, plan: null };
function regionPlanBox(r) {
  const box = el('div', undefined, { class: 'region-plan', id: 'region-plan' });
  if (planned.report === r && planned.doc === state.doc) {
    if (planned.plan) drawPlan(box, planned.plan);
    return box;
  }
  const n = r.sample.offsets.length - 1;
  const args = {
    doc: state.doc,
    keyBytes: n > 0 ? r.sample.offsets[n] / n : 0,
    regions: r.regions.length,
    activeRegionsPerWindow: r.metrics.meanActiveRegions,
    // the run's own rate: over your rows, theirs, not the generated workload's
    writeRate: r.writeRate || null,
  };
  planned = { report: r, doc: state.doc, plan: null };
  const mine = planned;
  readOff('planRegions', args, '#engine=fast')
    .then(plan => {
      mine.plan = plan;
      if (plan && planned === mine && box.isConnected) drawPlan(box, plan);
    })
    .catch(() => {}); // (the design's own errors are the run's to show)
  return box;
}
function drawPlan(box, plan) {
  const year = plan.capacity.horizons.at(-1);
  box.replaceChildren(
    el('h4', `How many regions: ${plan.headline}`),
    el(
      'p',
      plan.capacity.timeLeading
        ? `The key leads with a time or a sequence: one region takes the writes whatever the pre-split, so ${plan.servers === 1 ? 'one region' : `one region per server (${plan.servers})`} is as good as more. Fix the key first (Advice).`
        : `A year of this workload is ${bytesText(year.keptBytes)} (${num(Math.round(plan.capacity.writeRate))} writes/s of ${num(plan.capacity.recordBytes)} bytes); at ${bytesText(plan.capacity.inputs.maxFileSize)} a region${plan.capacity.inputs.ttlDays ? ` and a TTL of ${fix(plan.capacity.inputs.ttlDays, 0)} days` : ''} that is ${num(plan.capacityRegions)} regions on ${plan.servers} server${plan.servers === 1 ? '' : 's'}, ${fix(plan.capacityRegions / plan.servers, 1)} per server (HBase's guide: 20–200 per server).`,
    ),
  );
  if (plan.presplit && !plan.matchesDesign) {
    const use = el('button', `Use ${num(plan.presplitRegions)} regions (${plan.presplit.kind})`, {
      type: 'button',
      id: 'region-plan-use',
    });
    use.addEventListener('click', () => hooks.usePresplit(plan.presplit));
    box.append(use);
  }
  if (plan.presplit?.kind === 'saltBuckets' && plan.capacityRegions !== plan.recommended)
    box.append(
      el(
        'p',
        `The key's salt has ${plan.presplitRegions} buckets: one region per bucket (a year fills ${num(plan.capacityRegions)} regions of that size; ${plan.capacityRegions > plan.recommended ? 'more regions need more buckets, or auto-split cuts the buckets' : 'fewer regions need fewer buckets'}).`,
        { class: 'muted' },
      ),
    );
  // (a plan the design's pre-split makes already: the headline says so)
  if (!plan.matchesDesign && !plan.presplit && !plan.capacity.timeLeading)
    box.append(
      el(
        'p',
        "No pre-split kind matches the key's first segment: cut the split points from your own rows (Your rows…), or from the sorted keys above.",
        { class: 'muted' },
      ),
    );
}
const hooks = { usePresplit: () => {}, useSplitSizes: () => {} };
/** `usePresplit(presplit)` makes the design's pre-split that one, `useSplitSizes(sizes)` its
 * auto-split sizes those (app.js: edits of the design). */
export const wireSplits = (usePresplit, useSplitSizes) => {
  Object.assign(hooks, { usePresplit, useSplitSizes });
};

/** An embedded chart's caption: the design's name and key, the diagnosis's first line, and a
 * link that opens the same view in the full page (a new tab). */
function renderEmbedCaption(r) {
  const cap = $('embed-caption');
  cap.hidden = false;
  const key = typeof state.doc?.key === 'string' ? state.doc.key : wasm.formatKey(state.doc.key);
  const url = new URL(location.href);
  const p = new URLSearchParams(url.hash.slice(1));
  p.delete('embed');
  p.delete('view');
  url.hash = p.toString();
  const open = el('a', 'Open in rowkey-lab', { href: url.href, target: '_blank', rel: 'noopener' });
  const line = r.diagnosis[0] ?? '';
  cap.replaceChildren(
    el('strong', state.doc?.name ?? 'A design'),
    ': ',
    el('code', key),
    el('br'),
    line && `${line[0].toUpperCase()}${line.slice(1)}. `,
    open,
  );
}

export function renderDiagnosis(r) {
  if (state.embed) renderEmbedCaption(r);
  const box = $('diagnosis');
  box.replaceChildren();
  if (!r.diagnosis.length) return;
  box.append(el('span', 'Diagnosis: ', { class: 'muted' }), el('span', sentence(r.diagnosis[0])));
  // each Phoenix index is a table of its own: its first finding beside the data table's
  const more = [
    ...r.diagnosis.slice(1).map(sentence),
    ...(r.indexes ?? [])
      .filter(x => x.report?.diagnosis.length)
      .map(x => `Index ${x.name}: ${sentence(x.report.diagnosis[0])}`),
  ];
  if (more.length) {
    const ul = el('ul', undefined, { class: 'diagnosis-more' });
    for (const d of more) ul.append(el('li', d));
    box.append(ul);
  }
  // auto-split never split this workload: the engine's sizes that would, one press away
  const sizes = r.splitSizes;
  if (sizes) {
    const use = el(
      'button',
      `Use split sizes for this workload (regions of ${bytesText(sizes.maxFileSize)}, flushes of ${bytesText(sizes.memstoreFlushSize)})`,
      {
        type: 'button',
        id: 'split-sizes-use',
        class: 'inline',
      },
    );
    use.addEventListener('click', () => hooks.useSplitSizes(sizes));
    box.append(use);
  }
}
