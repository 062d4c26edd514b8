// The design as forms: fields, key segments, workload, regions, reads and cells, each control bound to one member
// of the design document by its JSON path (`data-path`, the path the engine's errors name).
// The kinds a form offers (field types, generator kinds and their members, pre-splits, split
// policies, read types, qualifier kinds), each member's value kind, default (the hint), range
// and fixed names come from the engine (`designSchema`), never from a list kept here. A value
// out of range is passed as typed: the engine's error lands on the control.
// A form edit changes only its member, on a copy of the document: everything else in the
// document (members the forms do not show, the key, the examples) stays as it was, so the
// JSON editor and the forms show the same design both ways. Text goes in via textContent.

import { getAt, setAt } from '../state/json-path.js';
import { $, bytesText, el, fix, num, state, when } from '../state/lab-state.js';
import { keyChecksHere } from './key-editor.js';

let schema = null;
let onEdit = () => {};

let parseKey = () => ({ segments: [] });
let renameField = null;

/** The schema (from the engine), the function a form edit hands the new document to, the
 * engine's key parser (a key kept as text is edited in its JSON form) and its field renamer
 * (a new name carried through the key, reads, examples and cells). */
export function wireForms(designSchema, edit, keyParser, renamer) {
  schema = designSchema;
  onEdit = edit;
  parseKey = keyParser;
  renameField = renamer;
  const box = $('design-forms');
  box.addEventListener('change', e => commit(e.target));
  box.addEventListener('click', e => {
    const b = e.target.closest('button[data-act]');
    if (b) act(b);
  });
  // a toggled section stays as the user left it when the forms are drawn again
  box.addEventListener(
    'toggle',
    e => {
      const id = e.target.dataset.section;
      if (!id) return;
      openSections[id] = e.target.open;
      // the key section was not redrawn while closed: show the key as it is now. The focus goes
      // back to its summary only when it was there (the user opened it): a section the page
      // opened (an engine error at one of its controls) leaves the focus where the user is
      // typing, the key editor included.
      if (id === 'key' && e.target.open && drawn && drawn.key !== state.doc?.key) {
        drawn = null;
        refocus = e.target.contains(document.activeElement) ? id : null;
        renderForms();
      }
    },
    true,
  );
}

// ---- the document, path by path (state/json-path.js) -----------------------------------
const clone = v => (v === undefined ? v : structuredClone(v));
const get = getAt;
const set = setAt;

/** `doc` with its key in the JSON form when `path` is under /key and the key is text: the key
 * form edits segments (the text's comments and spacing give way to the engine's printing). */
function keyed(doc, path) {
  if (!path.startsWith('/key') || typeof doc.key !== 'string') return doc;
  return { ...doc, key: parseKey(doc.key) };
}

/** A control's text as the member's value; `{error}` when it is not one. Empty: the member
 * is left out (the engine's default applies). */
function parseValue(kind, text, fieldType) {
  const t = text.trim();
  if (t === '') return undefined;
  switch (kind) {
    case 'boolean':
      // anything but true or false is kept as typed, for the engine to refuse
      return t === 'true' ? true : t === 'false' ? false : t;
    case 'fieldName':
    case 'phoenixType':
      return t;
    case 'integer':
    case 'number': {
      // kept as typed when it is not a plain decimal number (`0x10`, `1_000`) or an integer
      // past 2^53: the engine names the member and what it expects
      const n = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(t) ? Number(t) : Number.NaN;
      return Number.isFinite(n) && (kind === 'number' || Number.isSafeInteger(n)) ? n : t;
    }
    case 'bytes':
      // bytes stay a number; a size with a unit (`4 MiB`) is text for the engine to read
      return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : t;
    case 'time':
      // epoch milliseconds stay a number; any other text is an instant for the engine to read
      return /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : t;
    case 'strings':
      return t.split(',').map(s => s.trim());
    case 'json':
      try {
        return JSON.parse(t);
      } catch (e) {
        return { error: `not JSON: ${e.message}` };
      }
    case 'field':
      // a record's value, read as the engine's kind for the field's type (schema.fieldValues)
      return parseValue(schema.fieldValues?.[fieldType] ?? 'string', text);
    default:
      return t;
  }
}
/** A member's value as the text its control shows. */
function showValue(kind, v) {
  if (v === undefined || v === null) return '';
  if (kind === 'strings' && Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function commit(input) {
  const path = input.dataset.path;
  if (!path || !state.doc || !(input.tagName === 'INPUT' || input.tagName === 'SELECT')) return;
  let value;
  if (input.dataset.tag) return retag(input);
  if (input.type === 'checkbox') {
    // a part switched on that is already there keeps what it holds (`on` is only its start)
    if (input.checked && input.dataset.on && get(state.doc, path) !== undefined) return;
    value = input.checked ? (input.dataset.on ? JSON.parse(input.dataset.on) : true) : undefined;
  } else value = parseValue(input.dataset.kind, input.value, input.dataset.fieldType);
  if (value && typeof value === 'object' && 'error' in value && !Array.isArray(value)) {
    markInvalid(input, value.error);
    return;
  }
  const renamed = renamedDoc(path, value);
  if (renamed) return onEdit(renamed);
  const doc = keyed(state.doc, path);
  const next = set(doc, path, value);
  if (next !== state.doc) onEdit(next);
}

/** A field's new name carried through the document by the engine, or null when `path` is not
 * a field's name or the engine refuses (a name already taken: the plain edit then shows the
 * engine's error at the control). */
function renamedDoc(path, value) {
  const m = /^\/fields\/(\d+)\/name$/.exec(path);
  const from = m && state.doc.fields?.[Number(m[1])]?.name;
  if (!from || !renameField || typeof value !== 'string' || !value || value === from) return null;
  try {
    return renameField(state.doc, from, value);
  } catch {
    return null;
  }
}

/** A new kind for a tagged part (`kind` / `type`): the members both kinds have are kept. */
function retag(select) {
  const path = select.dataset.path,
    tag = select.dataset.tag,
    table = schema[select.dataset.table];
  const doc = keyed(state.doc, path);
  if (!select.value) return onEdit(set(doc, path, undefined));
  const old = get(doc, path) ?? {};
  const variant = table.find(v => v.name === select.value);
  const next = { [tag]: select.value };
  for (const m of variant.members) if (m.key in old) next[m.key] = old[m.key];
  onEdit(set(doc, path, next));
}

function act(button) {
  const { act: what, list: path } = button.dataset;
  const doc = keyed(state.doc, path);
  const list = get(doc, path) ?? [];
  const i = Number(button.dataset.index);
  let next = clone(list);
  if (what === 'add-field') {
    let n = list.length + 1;
    while (list.some(f => f.name === `field${n}`)) n++;
    // no generator: the engine's default for the type applies (the form shows none chosen)
    next.push({ name: `field${n}`, type: 'string' });
    focusAfter = `${path}/${list.length}/name`;
  } else if (what === 'add-read') {
    const first = doc.fields?.[0]?.name;
    next.push({ type: 'prefix', name: `read ${list.length + 1}`, record: first ? { [first]: '' } : {} });
    focusAfter = `${path}/${list.length}/name`;
  } else if (what === 'add-segment') {
    next.push({ kind: 'literal', text: '_' });
    focusAfter = `${path}/${list.length}`;
  } else if (what === 'remove') next.splice(i, 1);
  else if (what === 'up' && i > 0) [next[i - 1], next[i]] = [next[i], next[i - 1]];
  else if (what === 'down' && i < next.length - 1) [next[i + 1], next[i]] = [next[i], next[i + 1]];
  else return;
  if (what === 'up' || what === 'down') focusAfter = `${path}/${what === 'up' ? i - 1 : i + 1}#${what}`;
  if (!next.length && path === '/reads') next = undefined;
  onEdit(set(doc, path, next));
}

// ---- drawing -----------------------------------------------------------------------------
const openSections = { fields: true, key: false, workload: false, regions: false, reads: false, cells: false };
let focusAfter = null;
let uid = 0;

/** A schema member's default (JSON text) as the hint a control shows when it is empty. */
function hintOf(member) {
  if (member?.default == null) return undefined;
  const d = JSON.parse(member.default);
  return typeof d === 'string' ? (d === '' ? '(empty)' : d) : typeof d === 'object' ? JSON.stringify(d) : String(d);
}
/** A schema member's range as words, for the control's title: "1 to 65536". */
function rangeOf(member) {
  if (!member?.range) return undefined;
  const [min, max] = member.range;
  return `${min} to ${max}`;
}
/** The member `key` of the engine's object table `name` (`WorkloadSpec`, `CellSpec`, …). */
const memberOf = (name, key) => schema.objects?.[name]?.find(m => m.key === key);

/** A labelled control for the member at `path`, of kind `kind` (a SchemaMember's value);
 * `member` (the schema's) gives its hint, range and fixed names. */
function control(label, path, kind, value, { required = false, fieldType, member } = {}) {
  const id = `f${++uid}`;
  const wrap = el('div', undefined, { class: 'fctl' });
  const lab = el('label', label, { for: id });
  if (required) lab.append(el('span', ' *', { class: 'req', 'aria-hidden': 'true' }));
  let input;
  const names = member?.options ?? [];
  if (kind === 'phoenixType' || kind === 'fieldName') {
    const options = kind === 'phoenixType' ? schema.phoenixTypes : (state.doc.fields ?? []).map(f => f.name);
    input = el('select', undefined, { id });
    if (!options.includes(value)) input.append(el('option', value ?? '(choose)', { value: value ?? '' }));
    for (const o of options) input.append(el('option', o, { value: o }));
    input.value = value ?? '';
  } else if (names.length && (value === undefined || typeof value === 'string')) {
    // one of the engine's names; left out, the engine's default (named in the first option)
    input = el('select', undefined, { id });
    const hint = hintOf(member);
    input.append(el('option', hint ? `(default: ${hint})` : '(default)', { value: '' }));
    if (value !== undefined && !names.includes(value)) input.append(el('option', value, { value }));
    for (const o of names) input.append(el('option', o, { value: o }));
    input.value = value ?? '';
    kind = 'string';
  } else if (kind === 'boolean') {
    // three states: a member left out takes the engine's default, which may be either
    input = el('select', undefined, { id });
    const hint = hintOf(member);
    for (const [v, t] of [
      ['', hint ? `(default: ${hint})` : '(default)'],
      ['true', 'true'],
      ['false', 'false'],
    ])
      input.append(el('option', t, { value: v }));
    input.value = value === true ? 'true' : value === false ? 'false' : '';
  } else {
    input = el('input', undefined, { id, spellcheck: 'false', autocomplete: 'off' });
    input.value = showValue(kind, value);
    if (kind === 'integer' || kind === 'number')
      input.setAttribute('inputmode', kind === 'integer' ? 'numeric' : 'decimal');
    const ph = hintOf(member) ?? PLACEHOLDER[kind];
    if (ph) input.placeholder = ph;
  }
  // the engine's range, said; a value past it is still passed on, and refused by the engine
  const range = rangeOf(member);
  if (range) {
    input.title = range;
    [input.dataset.min, input.dataset.max] = member.range.map(String);
  }
  if (required) input.setAttribute('aria-required', 'true');
  Object.assign(input.dataset, { path, kind });
  if (fieldType) input.dataset.fieldType = fieldType;
  wrap.append(lab, input);
  // a size or an instant in a person's units beside the number the document keeps
  const human = humanValue(kind, value ?? (member?.default != null ? Number(member.default) : undefined));
  if (human) {
    const note = el('small', `= ${human}`, { class: 'unit-note', id: `${id}-u` });
    input.setAttribute('aria-describedby', note.id);
    wrap.append(note);
  }
  return wrap;
}
/** A byte count of a KiB or more in binary units, an epoch-ms instant as UTC text; else null. */
function humanValue(kind, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  if (kind === 'time') return when(v);
  return kind === 'bytes' && v >= 1024 ? bytesText(v) : null;
}

/** What an empty control of a kind holds, when the engine gives no default. */
const PLACEHOLDER = {
  bytes: 'bytes, or 4 MiB',
  time: '2021-09-01T00:00:00Z',
  strings: 'a, b, c',
  json: 'JSON',
};

/** An option's control outside the forms (`#windows`, `#sample-size`, `#advice-records`, …;
 * `data-option` names the option of the engine's `name`, `AnalyzeOptions` or `AdviseOptions`)
 * drawn from the state's `value`, or the engine's default when it is undefined; its `min` and
 * `max` are the engine's (the browser marks a value past them, it never changes one). */
export function renderOption(input, name, value) {
  const member = schema?.options?.[name]?.find(m => m.key === input.dataset.option);
  if (member?.range) [input.min, input.max] = member.range;
  input.value = value ?? (member?.default ? JSON.parse(member.default) : '');
}
/** The engine's error `e` (null: none) on the one of the option controls `inputs` its path
 * names (`records`, `options.records`); the others' marks cleared. */
export function markOptionError(e, ...inputs) {
  const key = String(e?.path).replace(/^options\./, '');
  for (const input of inputs) {
    for (const a of ['aria-invalid', 'aria-describedby']) input.removeAttribute(a);
    $(`${input.id}-err`)?.remove();
    if (input.dataset.option === key) markInvalid(input, e.reason ?? e.message, input.closest('label'));
  }
}
/** An option control's value as typed: a number, or undefined when empty (the engine's
 * default); text that is not a number is passed on for the engine to refuse, at the option. */
export function typedOption(input) {
  const t = input.value.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** A control for member `key` of the engine's object `name` at `path`, its kind, whether it
 * is required, its hint and range all the engine's. */
function memberControl(label, name, key, path, value) {
  const member = memberOf(name, key);
  return control(label, path, member?.value ?? 'json', value, { required: member?.required, member });
}

/** A select of a tagged part's kinds (`table` in the schema) for the part at `path`. */
function kindSelect(label, path, tableName, tag, current, { none } = {}) {
  const id = `f${++uid}`;
  const sel = el('select', undefined, { id });
  Object.assign(sel.dataset, { path, tag, table: tableName });
  if (none) sel.append(el('option', none, { value: '' }));
  for (const v of schema[tableName]) sel.append(el('option', v.name, { value: v.name }));
  sel.value = current ?? '';
  const wrap = el('div', undefined, { class: 'fctl' });
  wrap.append(el('label', label, { for: id }), sel);
  return wrap;
}
/** The tables whose `field` member names one of the design's fields. */
const FIELD_TABLES = new Set(['segments', 'qualifiers']);
/** The members of a tagged part's current kind, one control each. */
function variantMembers(tableName, tag, path, part) {
  const variant = schema[tableName].find(v => v.name === part?.[tag]);
  if (!variant) return [];
  return variant.members.map(m =>
    m.value === 'record'
      ? recordGrid(m.key, `${path}/${m.key}`, part[m.key])
      : control(
          m.key,
          `${path}/${m.key}`,
          // a segment's or a qualifier's field is one of the design's fields
          FIELD_TABLES.has(tableName) && m.key === 'field' && m.value === 'string' ? 'fieldName' : m.value,
          part[m.key],
          { required: m.required, member: m },
        ),
  );
}
/** A record (field name -> value): one control per field of the design, empty = not set. */
function recordGrid(label, path, record) {
  const box = el('fieldset', undefined, { class: 'record' });
  box.append(el('legend', label));
  const fields = state.doc.fields ?? [];
  for (const f of fields)
    box.append(control(f.name, `${path}/${f.name}`, 'field', record?.[f.name], { fieldType: f.type }));
  // values for names the design has no field for are kept, and shown so they can be fixed
  for (const [k, v] of Object.entries(record ?? {}))
    if (!fields.some(f => f.name === k)) box.append(control(`${k} (no such field)`, `${path}/${k}`, 'json', v));
  return box;
}
function selectControl(label, path, options, current) {
  const id = `f${++uid}`;
  const sel = el('select', undefined, { id });
  sel.dataset.path = path;
  sel.dataset.kind = 'string';
  for (const [value, text] of options) sel.append(el('option', text, { value }));
  sel.value = current ?? '';
  const wrap = el('div', undefined, { class: 'fctl' });
  wrap.append(el('label', label, { for: id }), sel);
  return wrap;
}
function listButtons(path, i, n, what) {
  const bar = el('div', undefined, { class: 'fbtns' });
  const b = (act, text, label, disabled = false) => {
    const x = el('button', text, { type: 'button', 'aria-label': label, title: label });
    Object.assign(x.dataset, { act, list: path, index: String(i) });
    x.disabled = disabled;
    bar.append(x);
  };
  b('up', '↑', `move ${what} up`, i === 0);
  b('down', '↓', `move ${what} down`, i === n - 1);
  b('remove', '✕', `remove ${what}`);
  return bar;
}
function section(id, title, count, ...body) {
  const d = el('details', undefined, { class: 'fsection' });
  d.dataset.section = id;
  d.open = openSections[id];
  d.append(el('summary', count === null ? title : `${title} (${count})`), ...body);
  return d;
}

function fieldsSection(doc) {
  const fields = doc.fields ?? [];
  const rows = fields.map((f, i) => {
    const p = `/fields/${i}`;
    const box = el('fieldset', undefined, { class: 'frow' });
    box.append(el('legend', f.name || `field ${i + 1}`));
    const types = schema.fieldTypes.map(t => [t, t]);
    box.append(
      memberControl('name', 'FieldDecl', 'name', `${p}/name`, f.name),
      selectControl('type', `${p}/type`, types, f.type),
      memberControl('cardinality (distinct values)', 'FieldDecl', 'cardinality', `${p}/cardinality`, f.cardinality),
      kindSelect('generator', `${p}/generator`, 'generators', 'kind', f.generator?.kind, { none: '(none)' }),
      ...variantMembers('generators', 'kind', `${p}/generator`, f.generator),
      listButtons('/fields', i, fields.length, `field ${f.name}`),
    );
    return box;
  });
  const add = el('button', 'Add a field', { type: 'button' });
  Object.assign(add.dataset, { act: 'add-field', list: '/fields' });
  return section('fields', 'Fields', fields.length, ...rows, add);
}

/** The key as a list of segments (its JSON form): each segment's kind and its members, from
 * the engine's schema; a Phoenix primary key's columns (pk) with their type, order, length. */
function keySection(doc) {
  if (!keyChecksHere(doc.key))
    return section(
      'key',
      'Key segments',
      null,
      el('p', 'The key is too long to list here segment by segment: edit it in the editor above.', {
        class: 'muted',
      }),
    );
  let segments = [];
  try {
    segments = typeof doc.key === 'string' ? parseKey(doc.key).segments : (doc.key?.segments ?? []);
  } catch {
    return section(
      'key',
      'Key segments',
      null,
      el('p', 'The key does not parse: fix it in the editor above.', { class: 'muted' }),
    );
  }
  const rows = segments.map((seg, i) => {
    const p = `/key/segments/${i}`;
    const box = el('fieldset', undefined, { class: 'frow' });
    box.append(el('legend', `${i + 1}. ${seg.kind}${seg.field ? ` ${seg.field}` : ''}`));
    box.append(
      kindSelect('kind', p, 'segments', 'kind', seg.kind),
      ...variantMembers('segments', 'kind', p, seg),
      listButtons('/key/segments', i, segments.length, `segment ${i + 1}`),
    );
    return box;
  });
  const add = el('button', 'Add a segment', { type: 'button' });
  Object.assign(add.dataset, { act: 'add-segment', list: '/key/segments' });
  return section('key', 'Key segments', segments.length, ...rows, add);
}

function workloadSection(doc) {
  const w = doc.workload ?? {};
  const box = el('div', undefined, { class: 'fgrid' });
  const c = (label, key) => memberControl(label, 'WorkloadSpec', key, `/workload/${key}`, w[key]);
  box.append(
    c('records', 'records'),
    c('write rate (records/s)', 'writeRate'),
    c('start time', 'startTime'),
    c('seed', 'seed'),
    c('value size (bytes)', 'valueSize'),
  );
  const note = el('p', undefined, { class: 'muted', id: 'workload-note' });
  renderWorkloadNote(note);
  return section('workload', 'Workload', null, box, note);
}

/** The workload in a person's units, from the last run: how long the writes take, how many
 * bytes they are, and what a day at this rate writes. */
export function renderWorkloadNote(note = $('workload-note')) {
  const r = state.report;
  if (!note || !r?.writes) return;
  const rate = Number(state.doc?.workload?.writeRate ?? memberOf('WorkloadSpec', 'writeRate')?.default);
  const seconds = r.writes / rate;
  const each = r.bytes / r.writes;
  const [v, unit] =
    seconds < 120
      ? [seconds, 'second']
      : seconds < 3600
        ? [seconds / 60, 'minute']
        : seconds < 172800
          ? [seconds / 3600, 'hour']
          : [seconds / 86400, 'day'];
  const whole = Math.abs(v - Math.round(v)) < 0.05;
  const span = `${fix(v, whole ? 0 : 1)} ${unit}${whole && Math.round(v) === 1 ? '' : 's'}`;
  note.textContent = `${num(r.writes)} writes at ${num(rate)} a second: ${span} of writes, ${bytesText(r.bytes)} (${fix(each, 0)} bytes each, key and value); a day at this rate writes ${bytesText(rate * each * 86400)}.`;
}

function regionsSection(doc) {
  const r = doc.regions ?? {};
  const pre = el('div', undefined, { class: 'fgrid' });
  pre.append(
    kindSelect('pre-split', '/regions/presplit', 'presplits', 'kind', r.presplit?.kind, { none: '(one region)' }),
    ...variantMembers('presplits', 'kind', '/regions/presplit', r.presplit),
  );
  const cluster = el('div', undefined, { class: 'fgrid' });
  cluster.append(
    memberControl('region servers', 'RegionLayout', 'regionServers', '/regions/regionServers', r.regionServers),
  );
  if (r.assignment && typeof r.assignment === 'object')
    cluster.append(
      el('p', `assignment: ${r.assignment.servers?.length ?? 0} regions placed by name (edit in the JSON)`, {
        class: 'muted',
      }),
    );
  else cluster.append(memberControl('assignment', 'RegionLayout', 'assignment', '/regions/assignment', r.assignment));
  const auto = el('div', undefined, { class: 'fgrid' });
  const a = r.autoSplit;
  const on = el('div', undefined, { class: 'fctl' });
  const box = el('input', undefined, { type: 'checkbox', id: `f${++uid}` });
  box.checked = a !== undefined;
  Object.assign(box.dataset, { path: '/regions/autoSplit', on: '{}' });
  on.append(el('label', 'simulate auto-split', { for: box.id }), box);
  auto.append(on);
  if (a) {
    auto.append(
      kindSelect('policy', '/regions/autoSplit/policy', 'splitPolicies', 'type', a.policy?.type, {
        none: `(default: ${hintOf(memberOf('AutoSplit', 'policy'))})`,
      }),
      ...variantMembers('splitPolicies', 'type', '/regions/autoSplit/policy', a.policy),
      memberControl(
        'max file size (bytes)',
        'SplitConfig',
        'maxFileSize',
        '/regions/autoSplit/config/maxFileSize',
        a.config?.maxFileSize,
      ),
      memberControl(
        'memstore flush size (bytes)',
        'SplitConfig',
        'memstoreFlushSize',
        '/regions/autoSplit/config/memstoreFlushSize',
        a.config?.memstoreFlushSize,
      ),
    );
  }
  return section(
    'regions',
    'Regions',
    null,
    el('h4', 'Pre-split'),
    pre,
    el('h4', 'Cluster'),
    cluster,
    el('h4', 'Auto-split'),
    auto,
  );
}

function readsSection(doc) {
  const reads = doc.reads ?? [];
  const rows = reads.map((r, i) => {
    const p = `/reads/${i}`;
    const box = el('fieldset', undefined, { class: 'frow' });
    box.append(el('legend', r.name || `read ${i + 1}`));
    box.append(
      control('name', `${p}/name`, 'string', r.name, {
        member: schema.reads.find(v => v.name === r.type)?.members.find(m => m.key === 'name'),
      }),
      kindSelect('type', p, 'reads', 'type', r.type),
      ...variantMembers('reads', 'type', p, r).filter(
        c => c.querySelector?.('[data-path]')?.dataset.path !== `${p}/name`,
      ),
      listButtons('/reads', i, reads.length, `read ${r.name ?? i + 1}`),
    );
    return box;
  });
  const add = el('button', 'Add a read', { type: 'button' });
  Object.assign(add.dataset, { act: 'add-read', list: '/reads' });
  return section('reads', 'Reads', reads.length, ...rows, add);
}

/** What one write puts into its row (`cells`): the column qualifier, computed from the record
 * (a kind of the engine's with its members), and the versions a cell keeps. Without the
 * section every write is a cell of its own. */
function cellsSection(doc) {
  const c = doc.cells;
  const box = el('div', undefined, { class: 'fgrid' });
  const on = el('div', undefined, { class: 'fctl' });
  const check = el('input', undefined, { type: 'checkbox', id: `f${++uid}` });
  check.checked = c !== undefined;
  Object.assign(check.dataset, { path: '/cells', on: '{}' });
  on.append(el('label', 'writes share cells (a cells section)', { for: check.id }), check);
  box.append(on);
  if (c && typeof c === 'object')
    box.append(
      kindSelect('qualifier', '/cells/qualifier', 'qualifiers', 'kind', c.qualifier?.kind, {
        none: `(default: ${hintOf(memberOf('CellSpec', 'qualifier'))})`,
      }),
      ...variantMembers('qualifiers', 'kind', '/cells/qualifier', c.qualifier),
      memberControl('versions (VERSIONS)', 'CellSpec', 'versions', '/cells/versions', c.versions),
    );
  return section(
    'cells',
    'Cells',
    null,
    el(
      'p',
      "What one write puts into its row: the column qualifier, computed from the record, and the versions a cell keeps (the column family's VERSIONS). Writes with the same row key and qualifier are versions of one cell. Without this section every write is a cell of its own.",
      { class: 'muted' },
    ),
    box,
  );
}

let drawTimer = 0;
/** The forms from the state's document, drawn in the next task: after a change that a Tab
 * made, the focus has moved on and the control it moved to keeps it (by its path). */
export function renderForms() {
  clearTimeout(drawTimer);
  drawTimer = setTimeout(drawForms, 0);
}
// The parts of the document the forms were last drawn from. Typing the key makes a new document
// with the same fields, workload, regions, reads and cells objects: then only the key section (when
// open) needs the new key, and with it closed the forms need nothing at all.
let drawn = null,
  refocus = null;
// A design opened again (a link, a preset, Recent designs) is a new object with the same content:
// its parts are compared as JSON before the forms are rebuilt (tens of milliseconds of the main
// thread while the analysis workers start).
const samePart = (x, y) => x === y || JSON.stringify(x) === JSON.stringify(y);
const sameParts = (a, b) =>
  a &&
  b &&
  ['fields', 'workload', 'regions', 'reads', 'cells'].every(k => samePart(a[k], b[k])) &&
  (samePart(a.key, b.key) || !openSections.key);
function drawForms() {
  const box = $('design-forms');
  if (!box || !schema || !state.doc) return;
  const same = focusAfter === null && sameParts(drawn, state.doc);
  drawn = state.doc;
  if (same) return;
  const active = document.activeElement;
  const keep = box.contains(active) ? (active.dataset.path ?? null) : null;
  const doc = state.doc;
  uid = 0;
  box.replaceChildren(
    fieldsSection(doc),
    keySection(doc),
    workloadSection(doc),
    regionsSection(doc),
    readsSection(doc),
    cellsSection(doc),
  );
  if (refocus) box.querySelector(`details[data-section="${refocus}"] > summary`)?.focus();
  refocus = null;
  const want = focusAfter ?? keep;
  focusAfter = null;
  if (want) {
    const [path, act] = want.split('#');
    const target = act
      ? box.querySelector(
          `button[data-act="${act}"][data-list="/${path.split('/')[1]}"][data-index="${path.split('/')[2]}"]`,
        )
      : box.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (target) {
      target.closest('details').open = true;
      target.focus();
    }
  }
}

/** An engine error at `path` under the control for that member (or the nearest part of it
 * the forms show); false when no control shows it. */
export function markFormError(e) {
  const box = $('design-forms');
  if (!box) return false;
  for (const x of box.querySelectorAll('[aria-invalid]')) x.removeAttribute('aria-invalid');
  for (const x of box.querySelectorAll('.ferr')) x.remove();
  if (!e?.path) return false;
  let path = String(e.path);
  while (path) {
    const target = box.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (target) {
      markInvalid(target, e.reason ?? e.message);
      return true;
    }
    path = path.slice(0, path.lastIndexOf('/'));
  }
  return false;
}
/** `input` marked invalid, `message` after it (after `after`, when given: its label). */
function markInvalid(input, message, after) {
  input.setAttribute('aria-invalid', 'true');
  const id = `${input.id}-err`;
  input.parentElement.querySelector('.ferr')?.remove();
  const note = el('span', message, { class: 'ferr error', id, role: 'alert' });
  if (after) after.after(note);
  else input.parentElement.append(note);
  input.setAttribute('aria-describedby', id);
  const d = input.closest('details');
  if (d) {
    d.open = true;
    openSections[d.dataset.section] = true;
  }
}
