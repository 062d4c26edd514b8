// Your own rows on the page: a CSV, Parquet, JSON Lines or Arrow IPC file opened, dropped on the
// page or pasted as text; the design's key runs over its rows and every view shows the report.
// Loaded (with its CSS) when a file of rows is first opened or the panel first shown: never part
// of the page's first load. Step by step:
// 1. the file's format and column names, from the engine (a worker of its own reads the file's
//    first bytes, or a Parquet file's footer: engine/rows-calls.js);
// 2. the mapping proposed: each field to the column of its name (the engine's own rule, which
//    also binds a field the user leaves as proposed), the time column (that of the first
//    timestamp field), nulls as the engine's default (an error); each editable; the first pass
//    alone (a scan) gives the profile of the rows under that mapping;
// 3. "Analyze these rows": the page's run (engine/runs.js: one worker, progress, Cancel) reads
//    the file in the worker, two passes; the report takes the place of the generated
//    workload's in every view, the profile beside it. A change of the design runs it again on
//    the same rows; "Back to the generated workload" closes the file.
// The File is handed to the worker (structured clone: a handle); the worker reads it in slices.
// Nothing is sent anywhere; a link carries the design alone (io-view.js says so).
// `state.rows` holds it all: the file, the mapping, the step, the scan and the result, and the
// three hooks the page calls (`runArgs`, `analyzed`, `failed`; see app.js and run-view.js).
// In the built page this is a module of its own beside page.js (scripts/build-page.mjs), so it
// imports none of the lab's modules (it would get copies of them, and a `state` of its own): the
// lab hands it its one state and the functions it uses (rowsView, from io-view.js).

let $, boxMax, el, num, readOff, rerun, sizeText, state, warmRows, setRows, patchRows, declareFields;
/** This view over the lab's own state and helpers: `{ openRows, showRows }`. */
export function rowsView(lab) {
  ({ $, boxMax, el, num, readOff, rerun, sizeText, state, warmRows, setRows, patchRows, declareFields } = lab);
  return { openRows, showRows };
}
const fix = (x, d) => x.toFixed(d);
const when = ms => new Date(ms).toISOString().replace('.000Z', 'Z');

const NO_COLUMN = '';

// ---- the panel ----------------------------------------------------------------------------
let drawn = false;
/** The panel's fixed parts (once): what it is for, a file to open, a box to paste rows in. */
function drawPanel() {
  if (drawn) return;
  drawn = true;
  // (the single file has every sheet inline: scripts/build-single.mjs)
  if (!document.documentElement.hasAttribute('data-single'))
    document.head.append(
      el('link', undefined, { rel: 'stylesheet', href: new URL('./rows-view.css', import.meta.url).href }),
    );
  const file = el('input', undefined, { id: 'rows-file', type: 'file' });
  file.addEventListener('change', () => {
    const f = file.files[0];
    file.value = '';
    if (f) openRows(f);
  });
  const open = el('label', 'Open a file ', { class: 'filebtn' });
  open.append(file);
  const close = el('button', 'Close', { id: 'rows-close', type: 'button' });
  close.addEventListener('click', closeRows);
  const paste = el('textarea', undefined, {
    id: 'rows-paste',
    rows: '5',
    spellcheck: 'false',
    'aria-label': 'rows to analyze: CSV with a header line, or JSON Lines',
    placeholder: 'carrier,flight,tailnum,time_hour\nUA,1545,N14228,2013-01-01 10:00:00+00:00',
  });
  // A paste longer than a text box keeps (BOX_MAX, docs/limits.md) never goes into the box: the
  // browser would lay out all of it on the page's thread (16 MiB: one 20 s task at 5 GB). It is
  // opened at once as a file of its own, read in the worker like any file.
  paste.addEventListener('paste', e => {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (text.length <= boxMax) return;
    e.preventDefault();
    paste.value = '';
    openRows(new File([text], 'the pasted rows', { type: 'text/plain' }));
  });
  const read = el('button', 'Read the pasted rows', { id: 'rows-paste-read', type: 'button' });
  read.addEventListener('click', () => {
    if (paste.value.trim()) openRows(new File([paste.value], 'the pasted rows', { type: 'text/plain' }));
  });
  const pasteBox = el('details', undefined, { id: 'rows-paste-box' });
  pasteBox.append(el('summary', 'Paste rows (CSV or JSON Lines)'), paste, read);
  const bar = el('div', undefined, { class: 'runbar' });
  bar.append(open, close);
  // Cancel (the run bar's, app.js) stops a run over the rows too: the mapping is offered again
  $('cancel').addEventListener('click', () => {
    const r = state.rows;
    if (r?.step !== 'running') return;
    patchRows({ step: r.result ? 'done' : 'mapping' });
    status('Cancelled.');
    renderMapping();
  });
  // above the results: the diagnosis, the heatmap and the other views draw the rows' report
  const box = el('section', undefined, { id: 'rows-box', 'aria-labelledby': 'rows-h', hidden: '' });
  $('diagnosis').before(box);
  box.append(
    el('h3', 'Your rows', { id: 'rows-h' }),
    el(
      'p',
      'Open a CSV, Parquet, JSON Lines or Arrow IPC file, drop one on the page, or paste rows: the design’s key runs over them, and every view shows what they do to the regions. The file is read in this browser and never leaves it.',
      { id: 'rows-intro', class: 'muted' },
    ),
    bar,
    pasteBox,
    el('p', undefined, { id: 'rows-status', class: 'status', role: 'status' }),
    el('pre', undefined, { id: 'rows-error', class: 'error', role: 'alert', hidden: '' }),
    el('div', undefined, { id: 'rows-source' }),
    el('div', undefined, { id: 'rows-map' }),
    el('div', undefined, { id: 'rows-profile' }),
  );
}

/** The panel shown (the toolbar's "Your rows…"), with nothing open yet. */
export function showRows() {
  drawPanel();
  $('rows-box').hidden = false;
  $('rows-box').scrollIntoView({ block: 'nearest' });
  $('rows-file').focus();
}

function status(text) {
  $('rows-status').textContent = text;
}
/** The engine's error, as it wrote it; the control its path names (`map/<field>`, `time`) marked. */
function showRowsError(e) {
  const box = $('rows-error');
  box.hidden = !e;
  box.textContent = e ? e.message : '';
  for (const s of $('rows-map').querySelectorAll('select')) s.removeAttribute('aria-invalid');
  const at = e?.path && $('rows-map').querySelector(`select[data-path="${CSS.escape(e.path)}"]`);
  at?.setAttribute('aria-invalid', 'true');
}

// ---- the named changes on state.rows --------------------------------------------------------
let reading = null;
/** A file of rows opened (picked, dropped or pasted): its columns asked of the engine, then the
 * mapping proposed and the rows scanned for their profile. */
export async function openRows(file) {
  drawPanel();
  reading?.cancel();
  setRows({
    file,
    name: file.name,
    size: file.size,
    format: '',
    columns: [],
    map: {},
    time: NO_COLUMN,
    nulls: 'error',
    step: 'columns',
    scan: null,
    result: null,
    runArgs,
    analyzed,
    failed,
  });
  $('rows-box').hidden = false;
  showRowsError(null);
  renderSource();
  renderMapping();
  renderProfile();
  status(`Reading the columns of ${file.name}…`);
  const mine = state.rows;
  const read = readOff('rowsColumns', { file, rows: { name: file.name }, doc: state.doc });
  reading = read;
  let got;
  try {
    got = await read;
  } catch (e) {
    if (e.name === 'AbortError' || state.rows !== mine) return;
    status('');
    showRowsError(e);
    return;
  }
  if (state.rows !== mine) return;
  // a design that is just a key: its fields declared from the file, before the mapping is proposed
  declared(got.inferred);
  patchRows({
    format: got.format,
    columns: got.columns,
    step: 'mapping',
    nullsOffered: got.nulls.names,
    nulls: got.nulls.default,
    ...propose(got.columns),
  });
  status('');
  renderSource();
  renderMapping();
  scan();
}

/** The null policies in words (their names and the default are the engine's). */
const NULL_WORDS = { error: 'stop with an error', skip: 'skip the row and count it' };

/** The mapping proposed for `columns`: each field to the column of its name; the time column,
 * that of the design's first timestamp field. */
function propose(columns) {
  const map = {};
  for (const f of state.doc.fields ?? []) map[f.name] = columns.includes(f.name) ? f.name : NO_COLUMN;
  const ts = (state.doc.fields ?? []).find(f => f.type === 'timestamp' && map[f.name]);
  return { map, time: ts ? map[ts.name] : NO_COLUMN };
}

/** The mapping changed by the user (a field's column, the time column, the null policy). */
function setMapping(patch) {
  patchRows(patch);
  renderMapping();
  scan();
}

/** The rows options the engine takes (RowsOptions): the map only where a field's column has
 * another name. */
function rowsOptions(r = state.rows) {
  const map = {};
  for (const [f, c] of Object.entries(r.map)) if (c && c !== f) map[f] = c;
  const o = { name: r.name, map, nulls: r.nulls };
  if (r.time) o.time = r.time;
  return o;
}

/** The first pass alone, under the mapping shown: the rows' profile, or the engine's error (a
 * field without its column, a null, a value of the wrong type: row, column and value). */
async function scan() {
  const mine = state.rows;
  reading?.cancel();
  showRowsError(null);
  status(`Profiling ${mine.name}…`);
  const under = profileKey();
  const read = readOff('rowsScan', { file: mine.file, doc: state.doc, rows: rowsOptions(), options: runOptions() });
  reading = read;
  try {
    const got = await read;
    if (state.rows !== mine) return;
    patchRows({ scan: { ...got, under } });
    // the run's worker readies itself for these rows while the user checks the mapping
    warmRows();
    status(`${num(got.summary.rows)} rows make keys. Check the mapping, then analyze them.`);
  } catch (e) {
    if (e.name === 'AbortError' || state.rows !== mine) return;
    patchRows({ scan: null });
    status('');
    showRowsError(e);
  }
  renderProfile();
}

const runOptions = () => ({ windows: state.windows, sampleSize: state.sampleSize });

/** What the page's run (app.js's analyze) adds to its arguments to run the design over the
 * rows, `{ file, rows }` (and the rows are then running); null before "Analyze these rows" (the
 * generated workload runs). */
function runArgs() {
  const r = state.rows;
  if (r.step !== 'running' && r.step !== 'done') return null;
  reading?.cancel();
  patchRows({ step: 'running' });
  showRowsError(null);
  status(`Analyzing ${r.name}…`);
  renderMapping();
  // the args kept for the advisor, which runs on the rows analyzed (advice-view.js); the profile
  // on show is this design's over these rows: the run leaves it out, and so shares the file's
  // reading among workers (a profile is counted in one pass)
  patchRows({ args: { file: r.file, rows: rowsOptions(r) }, under: profileKey() });
  return { ...r.args, profile: r.scan?.under !== r.under };
}

/** What a profile depends on: the design and the rows' options. */
const profileKey = () => JSON.stringify([state.doc, rowsOptions()]);
/** "Analyze these rows": the design runs again, over them. */
function analyzeRows() {
  patchRows({ step: 'running' });
  rerun();
}

/** A run's answer (run-view.js): over the rows, their stats and profile; the generated
 * workload's (the rows not analyzed yet), nothing to add. */
function analyzed(name, answer) {
  const r = state.rows;
  if (name !== 'analyzeRows' || !r) return;
  // (open: {}, closed for the results)
  patchRows({ step: 'done', open: {}, result: { stats: answer.stats, summary: answer.summary } });
  // a key typed over the file's columns: the fields it reads, declared from them as the run did
  if (answer.stats?.inferred?.length) declared(answer.stats.inferred);
  // (a run without the profile leaves the one on show, which is this design's)
  if (answer.profile) patchRows({ scan: { summary: answer.summary, profile: answer.profile, under: r.under } });
  status('');
  renderSource();
  renderMapping();
  renderProfile();
}

/** The fields the engine declared from the file for the design's key (`inferred`), put in the
 * design (store.js declareFields), and what each was declared as and why, said with the file. */
function declared(inferred) {
  if (!inferred?.length || !declareFields(inferred)) return;
  const map = { ...state.rows.map };
  for (const i of inferred) if (i.column !== i.field) map[i.field] = i.column;
  patchRows({ declared: inferred.map(i => `${i.field} as ${i.type} (${i.basis})`), map });
  renderSource();
}

/** A run failed: true when it was over the rows and the error is theirs (not the design's,
 * which names a member of it: /key, /fields/…), shown here as the engine wrote it. */
function failed(e) {
  const r = state.rows;
  if (r?.step !== 'running') return false;
  patchRows({ step: 'done', result: null });
  status('');
  renderSource();
  renderMapping();
  if (String(e.path ?? '').startsWith('/')) return false;
  showRowsError(e);
  return true;
}

/** The file closed: the design runs on its generated workload again. */
function closeRows() {
  reading?.cancel();
  const had = state.rows?.step === 'done' || state.rows?.step === 'running';
  setRows(null);
  $('rows-box').hidden = true;
  for (const id of ['rows-source', 'rows-map', 'rows-profile']) $(id).replaceChildren();
  showRowsError(null);
  status('');
  if (had) rerun();
}

// ---- drawing ------------------------------------------------------------------------------
/** Where the rows come from, and (when a report over them is on show) that the results are
 * theirs. */
function renderSource() {
  const r = state.rows,
    box = $('rows-source');
  // what the panel is for, until a file is open (the note on the results then says the rest)
  $('rows-intro').hidden = !!r;
  if (!r) return box.replaceChildren();
  const what = [r.name, r.format?.toUpperCase(), sizeText(r.size), r.columns.length && `${r.columns.length} columns`]
    .filter(Boolean)
    .join(' · ');
  const parts = [el('p', what, { class: 'rows-file' })];
  if (r.declared)
    parts.push(
      el('p', `The key’s fields, declared from ${r.name} into the design: ${r.declared.join('; ')}.`, {
        id: 'rows-declared',
        class: 'note',
      }),
    );
  const s = r.result?.stats;
  if (r.step === 'done' && s) {
    const skipped = Object.entries(s.skipped ?? {})
      .map(([c, n]) => `${num(n)} with a null in ${c}`)
      .join(', ');
    const order = s.time ? `windows by the time in ${s.time}` : 'windows by the rows’ order in the file';
    const banner = el(
      'p',
      `The results below are from your file ${r.name}: ${num(s.rows)} rows (${sizeText(r.size)}), ${num(s.used)} analyzed${skipped ? `, skipped: ${skipped}` : ''}; ${order}. The file was read in this browser and never left it.`,
      { id: 'rows-banner', class: 'note rows-banner' },
    );
    const back = el('button', 'Back to the generated workload', { type: 'button' });
    back.addEventListener('click', closeRows);
    banner.append(' ', back);
    parts.push(banner);
  }
  box.replaceChildren(...parts);
}

/** The mapping: a column per field, the time column, the null policy; "Analyze these rows". */
function renderMapping() {
  const r = state.rows,
    box = $('rows-map');
  if (!r || r.step === 'columns') return box.replaceChildren();
  const table = el('table', undefined, { class: 'rows-mapping' });
  const head = el('tr');
  for (const h of ['field', 'type', 'column']) head.append(el('th', h, { scope: 'col' }));
  table.append(head);
  for (const f of state.doc.fields ?? []) {
    const sel = columnSelect(r.map[f.name] ?? NO_COLUMN, r.columns.includes(f.name) ? null : '(no column)', {
      id: `rows-field-${f.name}`,
      'aria-label': `column of the field ${f.name}`,
      'data-path': `map/${f.name}`,
      'data-field': f.name,
    });
    sel.addEventListener('change', () => setMapping({ map: { ...state.rows.map, [f.name]: sel.value } }));
    const tr = el('tr');
    const td = el('td');
    td.append(sel);
    tr.append(el('th', f.name, { scope: 'row' }), el('td', f.type ?? ''), td);
    table.append(tr);
  }
  const time = columnSelect(r.time, '(none: the rows’ order in the file)', { id: 'rows-time', 'data-path': 'time' });
  time.addEventListener('change', () => setMapping({ time: time.value }));
  // the engine's null policies (RowsOptions' `nulls`), each in words
  const nulls = el('select', undefined, { id: 'rows-nulls' });
  for (const name of r.nullsOffered ?? [r.nulls]) nulls.append(el('option', NULL_WORDS[name] ?? name, { value: name }));
  nulls.value = r.nulls;
  nulls.addEventListener('change', () => setMapping({ nulls: nulls.value }));
  const go = el('button', r.step === 'done' ? 'Analyze again' : 'Analyze these rows', {
    id: 'rows-run',
    type: 'button',
  });
  go.disabled = r.step === 'running';
  go.addEventListener('click', analyzeRows);
  const label = (text, control) => {
    const l = el('label', `${text} `);
    l.append(control);
    return l;
  };
  const bar = el('div', undefined, { class: 'runbar' });
  bar.append(label('Write time from', time), label('A null in a key field:', nulls), go);
  // (a re-render after a change keeps the control the user is on focused)
  const on = document.activeElement?.closest?.('#rows-map') && document.activeElement.id;
  box.replaceChildren(
    part('map', 'Fields from columns', [
      el('p', 'Each field reads the column of its name unless you choose another.', { class: 'muted' }),
      table,
      bar,
    ]),
  );
  if (on) $(on)?.focus();
}

/** A part of the panel the user may close (`which`: `map` or `profile`): open while the rows are
 * being set up, closed once their report is on show (the results come first), as the user
 * left it after that. */
function part(which, title, children) {
  const r = state.rows;
  r.open ??= {};
  const d = el('details', undefined, { id: `rows-${which}-part` });
  d.open = r.open[which] ?? r.step !== 'done';
  d.addEventListener('toggle', () => {
    r.open[which] = d.open;
  });
  d.append(el('summary', title), ...children);
  return d;
}

/** A select of the file's columns, `value` chosen; `none`, when given, the label of no column. */
function columnSelect(value, none, attrs) {
  const s = el('select', undefined, attrs);
  if (none !== null) s.append(el('option', none, { value: NO_COLUMN }));
  for (const c of state.rows.columns) s.append(el('option', c, { value: c }));
  s.value = value;
  return s;
}

/** A value as the profile shows it, `after` it (its count): a line breaks only before a time's
 * `T` (2013-01-01 / T10:00:00Z), never inside a value's text otherwise, unless it is longer
 * than its column. */
function valueNode(value, after = '') {
  const m = /^(-?\d{4,}-\d\d-\d\d)(T.*)$/.exec(value);
  const s = el('span');
  if (m) s.append(el('span', m[1], { class: 'whole' }), el('wbr'), el('span', m[2] + after, { class: 'whole' }));
  else s.textContent = value + after;
  return s;
}

/** The profile: per field its rows, nulls, distinct values, heaviest values, range and order;
 * per key its lengths and distinct prefixes; the time span the scan found. */
function renderProfile() {
  const box = $('rows-profile'),
    p = state.rows?.scan?.profile;
  if (!p) return box.replaceChildren();
  const sum = state.rows.scan.summary;
  const t = el('table', undefined, { class: 'rows-profile' });
  const head = el('tr');
  for (const h of ['field (column)', 'rows', 'nulls', 'distinct', 'heaviest values', 'min', 'max', 'in order'])
    head.append(el('th', h, { scope: 'col' }));
  t.append(head);
  // (the engine writes every value as shown: a time as ISO 8601 in UTC)
  for (const f of p.fields) {
    const tr = el('tr');
    const heavy = el('span');
    for (const [i, v] of f.heaviest.slice(0, 5).entries())
      heavy.append(...(i ? [', '] : []), valueNode(v.value, `\u00a0×${num(v.rows)}`));
    const cells = [
      ['rows', num(f.rows)],
      ['nulls', num(f.nulls)],
      ['distinct', `${num(f.distinct)}${f.exact ? '' : '+ (counting stopped)'}`],
      ['heaviest values', heavy],
      ['min', f.min == null ? '–' : valueNode(f.min)],
      ['max', f.max == null ? '–' : valueNode(f.max)],
      ['in order', f.monotonic == null ? '–' : `${fix(f.monotonic * 100, 1)} %`],
    ];
    tr.append(el('th', f.column && f.column !== f.field ? `${f.field} (${f.column})` : f.field, { scope: 'row' }));
    for (const [label, v] of cells) {
      const td = el('td', typeof v === 'string' ? v : undefined, { 'data-label': label });
      if (typeof v !== 'string') td.append(v);
      tr.append(td);
    }
    t.append(tr);
  }
  // (on a narrow screen the table scrolls sideways, not the page)
  const wide = el('div', undefined, { class: 'rows-wide' });
  wide.append(t);
  const k = p.key;
  const lengths = k.lengths.map(([len, n]) => `${len} B ×${num(n)}`).join(', ');
  const prefixes = k.prefixes.map(x => `${x.bytes}: ${num(x.distinct)}${x.exact ? '' : '+'}`).join(' · ');
  const span =
    sum.firstMs != null
      ? ` Write times from ${when(sum.firstMs)} to ${when(sum.lastMs)}; ${num(sum.outOfOrder)} rows earlier than the row before.`
      : '';
  box.replaceChildren(
    part('profile', `Profile of the rows: ${p.fields.length} fields, ${num(k.keys)} keys`, [
      el('p', `${num(sum.rows)} rows make keys (a row skipped for a null makes none).${span}`, { class: 'muted' }),
      wide,
      el(
        'p',
        `Keys: ${num(k.keys)}, ${k.minLength}–${k.maxLength} bytes (mean ${fix(k.meanLength, 1)}); by length: ${lengths}.`,
        { id: 'rows-key-lengths' },
      ),
      el('p', `Distinct key prefixes by length in bytes: ${prefixes}.`, { id: 'rows-key-prefixes' }),
      el(
        'p',
        'In order: the share of rows whose value is not below the row before (100 % for a time or a sequence written in order). “+”: more distinct values than the engine counts exactly.',
        { class: 'muted' },
      ),
    ]),
  );
}
