// Months: what HBase itself does to the design's table over months (issue 58), simulated by the
// engine (src/life: splits by the table's policy after flushes and compactions, compactions, TTL,
// the normalizer, the balancer) in an engine worker on the speed build (`lifeMonths`,
// engine/worker.js), with progress at each month's end and Stop (the worker ended). One setting,
// or two side by side (pre-split or not, one policy or another, TTL or FIFO, the normalizer on or
// off), which the engine runs and compares in one call (`lifeCompare`: its figures and verdict
// are drawn as they are). Drawn by months-charts.js: the regions by size over the months, the
// key-range × month map, the region servers of a chosen month, the events as a timeline.
// The settings are the state's (`state.life`, changed through store.js setLife); the results
// are this view's own. Loaded when the lab's "Simulate months…" is first used (months-open.js),
// a module of its own in the built page: it imports none of the lab's modules and gets their
// helpers from months-open.js, as rekey-view.js and observe-view.js do. Text reaches the DOM
// through textContent (el) only.

import { eventsChart, keyMap, regionsChart, serversChart, sharedTop } from './months-charts.js';

let lab;

/** The settings a form offers: each member's control (the empty choice: the design's or
 * HBase's, which the engine fills in). */
const SELECTS = {
  policy: [
    ['', 'the design’s'],
    ['stepping', 'Stepping'],
    ['increasingToUpperBound', 'IncreasingToUpperBound'],
    ['constantSize', 'ConstantSize'],
    ['disabled', 'Disabled'],
  ],
  compaction: [
    ['', 'Exploring'],
    ['fifo', 'FIFO (needs a TTL)'],
  ],
  normalizer: [
    ['', 'the design’s'],
    ['on', 'on'],
    ['off', 'off'],
  ],
  version: [
    ['', 'the design’s'],
    ['2.5', '2.5'],
    ['2.6', '2.6'],
    ['3', '3.x'],
  ],
};
const NUMBERS = [
  ['months', 'Months', '1', '120'],
  ['servers', 'Region servers', '1', '100'],
  ['ttlDays', 'TTL, days', '0.001', null],
];
const LABELS = { policy: 'Split policy', compaction: 'Compaction', normalizer: 'Normalizer', version: 'HBase' };
/** The engine's member (an error's path) -> the form's control. */
const MEMBERS = {
  '/months': 'months',
  '/servers': 'servers',
  '/ttlSeconds': 'ttlDays',
  '/policy': 'policy',
  '/compaction/policy': 'compaction',
  '/version': 'version',
  '/index': 'index',
};

/** The view's own: the run under way (`readOff`'s answer) and the last answer drawn. */
const view = { running: null, got: null, sides: [], ranFor: null };

/** The panel drawn into #months and focused; `helpers`: the lab's (see months-open.js). With
 * `simulate` (a link's settings), drawn afresh from the state's settings and simulated. */
export function openMonths(helpers, { simulate: now = false } = {}) {
  lab = helpers;
  const { $, el } = lab;
  if (now) {
    view.running?.cancel();
    $('months-box')?.remove();
  }
  if (!$('months-box')) drawPanel($, el);
  $('months-open').parentElement.hidden = true;
  if (now) simulate();
  else $('months-run').focus();
}

function drawPanel($, el) {
  // (the single file has every sheet inline: scripts/build-single.mjs)
  if (!document.documentElement.hasAttribute('data-single'))
    document.head.append(
      el('link', undefined, { rel: 'stylesheet', href: new URL('./months-view.css', import.meta.url).href }),
    );
  const box = el('div', undefined, { id: 'months-box' });
  const forms = el('div', undefined, { class: 'months-forms' });
  forms.append(settingForm('a'), settingForm('b'));
  const both = el('input', undefined, { id: 'months-compare', type: 'checkbox' });
  both.checked = lab.state.life.compare;
  both.addEventListener('change', () => {
    lab.setLife({ compare: both.checked });
    $('months-setting-b').hidden = !both.checked;
  });
  const bothLabel = el('label', ' Side by side with a second setting (B)', { class: 'months-both' });
  bothLabel.prepend(both);
  // the writes: the user's rows when a file of them was analyzed (their keys in write order),
  // else the design's generated workload
  const over = el('input', undefined, { id: 'months-rows', type: 'checkbox' });
  over.checked = lab.state.life.overRows !== false;
  over.addEventListener('change', () => lab.setLife({ overRows: over.checked }));
  const overLabel = el('label', undefined, { class: 'months-both', id: 'months-rows-label' });
  overLabel.append(over, el('span', undefined, { id: 'months-rows-text' }));
  const runBtn = el('button', 'Simulate', { id: 'months-run', type: 'button' });
  const stop = el('button', 'Stop', { id: 'months-stop', type: 'button', disabled: '' });
  runBtn.addEventListener('click', simulate);
  stop.addEventListener('click', () => view.running?.cancel());
  const bar = el('div', undefined, { class: 'runbar' });
  bar.append(
    runBtn,
    stop,
    el('progress', undefined, { id: 'months-progress', max: '1', value: '0', 'aria-label': 'months simulated' }),
    el('span', undefined, { id: 'months-status', class: 'status', role: 'status' }),
  );
  box.append(
    overLabel,
    bothLabel,
    forms,
    bar,
    el('pre', undefined, { id: 'months-error', class: 'error', role: 'alert', hidden: '' }),
    el('div', undefined, { id: 'months-out' }),
    el('div', undefined, { id: 'months-tip', class: 'tooltip', hidden: '' }),
  );
  $('months').append(box);
  $('months-setting-b').hidden = !lab.state.life.compare;
  rowsChoice();
}

/** One setting's form (`side` a or b), drawn from the state. */
function settingForm(side) {
  const { el } = lab;
  const f = el('fieldset', undefined, { id: `months-setting-${side}`, class: 'months-setting' });
  f.append(el('legend', `Setting ${side.toUpperCase()}`));
  const values = lab.state.life[side];
  const changed = (key, v) => lab.setLife({ [side]: { ...lab.state.life[side], [key]: v === '' ? undefined : v } });
  for (const [key, text, min, max] of NUMBERS) {
    const input = el('input', undefined, {
      id: `months-${side}-${key}`,
      type: 'number',
      min,
      step: key === 'ttlDays' ? 'any' : '1',
      placeholder: key === 'ttlDays' ? 'the design’s' : 'default',
      ...(max ? { max } : {}),
    });
    input.value = values[key] ?? '';
    input.addEventListener('input', () => changed(key, input.value));
    const l = el('label', `${text} `);
    l.append(input);
    f.append(l);
  }
  // the table: the data table, or a Phoenix global index's own (a local index has none)
  const indexes = tables();
  view.tables = indexes.join('\n');
  if (indexes.length) {
    const sel = el('select', undefined, { id: `months-${side}-index` });
    sel.append(
      el('option', 'the data table', { value: '' }),
      ...indexes.map(x => el('option', `index ${x}`, { value: x })),
    );
    // (an index the design no longer has: the data table)
    sel.value = indexes.includes(values.index) ? values.index : '';
    sel.addEventListener('change', () => changed('index', sel.value));
    const l = el('label', 'Table ');
    l.append(sel);
    f.append(l);
  }
  for (const [key, options] of Object.entries(SELECTS)) {
    const sel = el('select', undefined, { id: `months-${side}-${key}` });
    for (const [v, t] of options) sel.append(el('option', t, { value: v }));
    sel.value = values[key] ?? '';
    sel.addEventListener('change', () => changed(key, sel.value));
    const l = el('label', `${LABELS[key]} `);
    l.append(sel);
    f.append(l);
  }
  return f;
}

/** A setting as the engine's options: only what was given (numbers as typed: the engine says
 * which is out of range). */
function optionsOf(v) {
  const n = x => (x === undefined ? undefined : Number.isFinite(Number(x)) ? Number(x) : x);
  const o = {
    months: n(v.months),
    servers: n(v.servers),
    ttlSeconds: v.ttlDays === undefined ? undefined : Math.round(Number(v.ttlDays) * 86400),
    policy: v.policy ? { type: v.policy } : undefined,
    compaction: v.compaction ? { policy: v.compaction } : undefined,
    normalizationEnabled: v.normalizer ? v.normalizer === 'on' : undefined,
    version: v.version || undefined,
    index: v.index || undefined,
  };
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
}

/** Run the simulation (both settings when compared) in a worker on the speed build. */
async function simulate() {
  const { $, docText } = lab;
  view.running?.cancel();
  const life = lab.state.life;
  const args = { doc: docText(), options: optionsOf(life.a) };
  const ranFor = args.doc;
  if (life.compare) args.otherOptions = optionsOf(life.b);
  // over the rows last analyzed (their file and options, as the rekey plan takes them)
  const rows = life.overRows !== false ? lab.state.rows?.args : undefined;
  rowsChoice();
  for (const c of document.querySelectorAll('#months-box [aria-invalid]')) c.removeAttribute('aria-invalid');
  $('months-error').hidden = true;
  $('months-progress').value = 0;
  let at = null;
  const on = (event, d) => {
    if (event !== 'progress') return;
    if (d.text) {
      // the file's reading, before the months
      $('months-progress').value = d.done / d.total;
      $('months-status').textContent = d.text;
      return;
    }
    at = d;
    $('months-progress').value = d.done / d.total;
    $('months-status').textContent = `Month ${d.done} of ${d.total}${life.compare ? ' (both settings)' : ''}…`;
  };
  $('months-status').textContent = rows
    ? `Simulating: the keys of ${rows.file.name} in write order, then month by month…`
    : 'Simulating: the design’s writes sampled, then month by month…';
  const run = rows
    ? lab.readOff('lifeRows', { ...rows, ...args }, undefined, on)
    : lab.readOff('lifeMonths', args, '#engine=fast', on);
  view.running = run;
  // the keyboard on Simulate follows the run: to Stop while it runs, to the answer when it comes
  const pressed = document.activeElement === $('months-run');
  running(true);
  if (pressed) $('months-stop').focus();
  try {
    const got = await run;
    if (view.running !== run) return;
    if (!got) {
      $('months-status').textContent = 'The months need the engine’s speed build, which this page has not loaded.';
      return;
    }
    view.got = got;
    view.ranFor = ranFor;
    view.sides = got.a ? [got.a, got.b] : [got];
    const last = view.sides[0].report.months.length;
    if (!(life.month >= 1 && life.month <= last)) lab.setLife({ month: last });
    $('months-status').textContent =
      `${view.sides.map(v => `${v.report.months.length} months`).join(' and ')} simulated${rows ? ` with the writes of ${rows.file.name}` : ''}.`;
    $('months-progress').value = 1;
    const onRun = [$('months-run'), $('months-stop'), document.body, null].includes(document.activeElement);
    draw();
    // (the design may have changed while it ran)
    designChanged();
    if (onRun) document.querySelector('#months-out .months-headline')?.focus();
  } catch (e) {
    if (view.running !== run) return;
    if (e.name === 'AbortError') {
      $('months-status').textContent = at
        ? `Stopped after month ${at.done} of ${at.total}.`
        : 'Stopped before the first month.';
      return;
    }
    $('months-status').textContent = '';
    showError(e);
  } finally {
    if (view.running === run) {
      view.running = null;
      running(false);
    }
  }
}

/** The design on show changed (months-open.js monthsOnDesign), or a run ended: the months on
 * show are marked as the design before's (dimmed, and said)
 * until simulated again, and the settings' Table choices are the new design's indexes. */
export function designChanged() {
  const { $ } = lab;
  if (!$('months-box')) return;
  const text = lab.docText();
  const stale = view.got !== null && view.ranFor !== text;
  $('months-out').classList.toggle('months-stale', stale);
  const note = $('months-stale');
  if (stale && !note)
    $('months-out').before(
      lab.el('p', 'These months are of the design before your last change: Simulate again for the design on show.', {
        id: 'months-stale',
        class: 'note',
        role: 'status',
      }),
    );
  if (!stale) note?.remove();
  // the Table choices follow the design's global indexes (a form redrawn keeps its values)
  const names = tables().join('\n');
  if (names !== view.tables)
    for (const side of ['a', 'b']) {
      const old = $(`months-setting-${side}`);
      const f = settingForm(side);
      f.hidden = old.hidden;
      old.replaceWith(f);
    }
}

/** The names of the design's global indexes (a local index has no table of its own). */
const tables = () => (lab.state.doc?.phoenix?.indexes ?? []).filter(x => x.kind !== 'local').map(x => x.name);

/** The choice of the rows last analyzed as the writes, as the page holds them now: shown once a
 * file of rows was analyzed, naming it and the order its keys are taken in. */
function rowsChoice() {
  const args = lab.state.rows?.args;
  lab.$('months-rows-label').hidden = !args;
  if (!args) return;
  const order = args.rows?.time ? `in the order of their time column (${args.rows.time})` : 'in the file’s order';
  lab.$('months-rows-text').textContent = ` The writes of your rows (${args.file.name}), ${order}`;
}

/** The run's buttons: Stop while it runs, Simulate otherwise. */
function running(on) {
  // (a disabled button drops the focus to <body>: Stop's passes back to Simulate)
  const held = !on && document.activeElement === lab.$('months-stop');
  lab.$('months-run').disabled = on;
  lab.$('months-stop').disabled = !on;
  if (held) lab.$('months-run').focus();
  lab.$('months-box').dataset.run = on ? 'running' : 'done';
}

/** The engine's error, the control it names marked. */
function showError(e) {
  const { $ } = lab;
  const path = String(e.path ?? '');
  const side = path.startsWith('otherOptions') ? 'b' : 'a';
  const key = MEMBERS[path.replace(/^(otherOptions|options)/, '')];
  const control = key && $(`months-${side}-${key}`);
  control?.setAttribute('aria-invalid', 'true');
  $('months-error').textContent = `Not simulated: ${e.message}${control ? ` (setting ${side.toUpperCase()})` : ''}`;
  $('months-error').hidden = false;
  control?.focus();
}

/** The view's tooltip, beside the pointer (`text` null: hidden). */
function tip(text, e) {
  const box = lab.$('months-tip');
  if (!text) {
    box.hidden = true;
    return;
  }
  lab.heat.showTooltip(box, text, e.pageX, e.pageY);
}

/** The answer drawn: the comparison's verdict, then each setting's pictures side by side. */
function draw() {
  const { $, el } = lab;
  const out = $('months-out');
  const parts = [];
  const got = view.got;
  if (got.a) parts.push(verdict(got));
  const month = el('select', undefined, { id: 'months-month' });
  const months = Math.max(...view.sides.map(v => v.report.months.length));
  for (let m = 1; m <= months; m++) month.append(el('option', `month ${m}`, { value: String(m) }));
  month.value = String(lab.state.life.month);
  month.addEventListener('change', () => {
    lab.setLife({ month: Number(month.value) });
    drawServers();
    $('months-month').focus();
  });
  const pick = el('label', 'Region servers at the end of ');
  pick.append(month);
  const bar = el('div', undefined, { class: 'runbar' });
  bar.append(pick);
  const top = sharedTop(view.sides);
  const sides = el('div', undefined, { class: `months-sides${view.sides.length > 1 ? ' two' : ''}` });
  for (const [i, v] of view.sides.entries()) {
    const side = 'ab'[i];
    const col = el('section', undefined, {
      class: 'months-side',
      id: `months-side-${side}`,
      'aria-label': `Setting ${side.toUpperCase()}`,
    });
    col.append(
      el('h4', view.sides.length > 1 ? `${side.toUpperCase()}: ${settingsText(v)}` : settingsText(v)),
      el('p', summaryText(v), { class: 'months-summary' }),
      conclusions(v),
      regionsChart(lab, side, v, top, tip),
      keyMap(lab, side, v, top, tip),
      el('div', undefined, { class: 'months-servers-slot' }),
      eventsChart(lab, side, v, top, tip),
      notes(v),
    );
    sides.append(col);
  }
  parts.push(bar, sides);
  out.replaceChildren(...parts);
  drawServers();
}

/** Each side's servers at the chosen month. */
function drawServers() {
  const top = sharedTop(view.sides);
  for (const [i, v] of view.sides.entries()) {
    const slot = document.querySelector(`#months-side-${'ab'[i]} .months-servers-slot`);
    slot?.replaceChildren(serversChart(lab, 'ab'[i], v, lab.state.life.month, top, tip));
  }
}

/** The settings a run had, in words: the engine's line (split and flush sizes, TTL, …), whatever
 * the form left to it. */
function settingsText(v) {
  const s = v.settings;
  return `${v.report.table ? `Index ${v.report.table}: ` : ''}${s.months} months: ${v.report.ranWith}, ${s.compaction.policy === 'fifo' ? 'FIFO' : 'Exploring'} compaction, HBase ${s.version}`;
}

/** The last month and the guidelines in one line. */
function summaryText(v) {
  const { num, bytesText } = lab;
  const m = v.report.months.at(-1);
  const most = Math.max(...m.servers.map(x => x.regions));
  return `After month ${m.month}: ${num(m.regions)} regions (${num(m.emptyRegions)} empty), at most ${num(most)} on one server, ${bytesText(m.onDiskBytes)} on disk (${bytesText(m.liveBytes)} within the TTL), the largest region reached ${bytesText(m.largestRegionBytes)} in the month.`;
}

/** What the engine concludes from a run, as it words it: the headline, then each finding (worst
 * first) with its fix and what simulating that fix gave. */
function conclusions(v) {
  const { el } = lab;
  const d = v.report.diagnosis;
  const box = el('section', undefined, { class: 'months-diagnosis', 'aria-label': 'What it concludes' });
  if (!d) return box;
  // (the answer's first line: the focus goes there when a run asked for by Simulate ends)
  box.append(el('p', d.headline, { class: 'months-headline', tabindex: '-1' }));
  if (!d.findings.length) return box;
  const ul = el('ul', undefined, { class: 'months-findings' });
  for (const f of d.findings) {
    const li = el('li');
    li.append(el('strong', f.figure), `: ${f.meaning}`);
    if (f.fix) {
      const fix = el('p', undefined, { class: 'months-fix' });
      fix.append(el('span', 'Fix: ', { class: 'months-fix-label' }), f.fix.change, el('br'), f.fix.checked);
      li.append(fix);
    }
    ul.append(li);
  }
  box.append(ul);
  return box;
}

/** The engine's notes on a run: the rules applied, what it leaves out. */
function notes(v) {
  const { el } = lab;
  const d = el('details', undefined, { class: 'months-notes' });
  d.append(el('summary', 'How it was simulated'));
  const ul = el('ul');
  for (const n of v.report.notes) ul.append(el('li', n));
  d.append(ul);
  return d;
}

/** The comparison as the engine words it, and its figures. */
function verdict(c) {
  const { el, fix, num } = lab;
  const box = el('section', undefined, { id: 'months-verdict', 'aria-label': 'A against B' });
  const [summary, ...lines] = c.verdict;
  box.append(el('p', summary, { class: 'months-verdict-head' }));
  const t = el('table', undefined, { class: 'months-figures' });
  const head = el('tr');
  for (const h of ['figure (lower is better)', 'A', 'B']) head.append(el('th', h, { scope: 'col' }));
  t.append(head);
  for (const f of c.figures) {
    const tr = el('tr');
    const v = x => (Number.isInteger(x) ? num(x) : fix(x, 2));
    tr.append(el('th', f.figure, { scope: 'row' }));
    for (const side of ['a', 'b']) tr.append(el('td', v(f[side]), f.better === side ? { class: 'better' } : {}));
    t.append(tr);
  }
  const ul = el('ul');
  for (const l of lines) ul.append(el('li', l));
  box.append(ul, t);
  return box;
}
