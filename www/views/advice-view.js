// The Advice view: the engine's design advisor (src/advise) run from the page by
// engine/advise-run.js (the candidates evaluated by a set of workers on the speed build), its
// run's buttons, progress and Cancel, and the answer drawn. Drawn here: the candidates as a scatter plot of write spread against
// read cost (the Pareto front filled, the current design and the recommendation ringed), the
// recommendation and its reasons, a chosen candidate's figures with Load and Compare, and the
// capacity and lifecycle table. Every text goes in through textContent.
// Advice belongs to the design it was asked for: a change of the design stops a run under way,
// and finished advice is shown only while the design on show is that design, or one of its
// candidates loaded from it; else a note says whose advice it was (Recent designs open it again).

// A module of its own in the built page, loaded when Advise is first pressed (advice-open.js, which
// wires the options and the buttons): it imports none of the lab's modules (it would get copies of
// them, and a state of its own); the lab hands it its one state and the functions it uses. The
// advisor's run (engine/advise-run.js) is loaded with it.
import { cancelAdvice, startAdvice } from '../engine/advise-run.js';

const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
};

let $, askMove, docText, el, fix, markOptionError, num, optionControls, state, switched;
let advice = null,
  chosen = 0,
  hooks = { load: () => {}, compare: () => {} };
// The design the advice (or the run under way) is for: its JSON text and its name, and the
// candidates loaded from the advice (their JSON text → label).
let advisedOn = null,
  running = null,
  drawnFor = null; // the design text the advice view was last drawn for

/** This view over the lab's own state and helpers (`load(doc)` puts a candidate's design on the
 * page; `compare(docs, roles)` compares them with the one on show, see run-view.js compareWith;
 * `switched`: what the status says when the design changes under a run):
 * `{ runAdvice, stop, adviceOnDesign }`. */
export function adviceView(lab) {
  ({ $, askMove, docText, el, fix, markOptionError, num, optionControls, state, switched } = lab);
  hooks = { load: lab.load, compare: lab.compare };
  return { runAdvice, stop, adviceOnDesign };
}

function stop(text) {
  cancelAdvice();
  running = null;
  // a disabled button drops the focus to <body>: the keyboard stays on the advisor's controls
  const held = document.activeElement === $('advice-cancel');
  $('advice-cancel').disabled = true;
  $('advice-run').disabled = false;
  if (held) $('advice-run').focus();
  $('advice-status').textContent = text;
}

/** Is the keyboard on the advisor's run (its Advise or Cancel button), or nowhere (<body>, where a
 * disabled button leaves it)? Then the answer, when it comes, takes the focus. */
const focusOnRun = () => {
  const a = document.activeElement;
  return !a || a === document.body || a === $('advice-run') || a === $('advice-cancel');
};

function runAdvice() {
  stop('');
  markOptionError(null, ...optionControls());
  const doc = state.doc;
  const opts = { ...state.advice };
  // the rows the page analyzed, when it did (views/rows-view.js): the candidates are counted on a
  // sample of them (the engine's rows build reads it), not on the generated workload
  const rowsRun = state.rows?.step === 'done' && state.rows.result ? state.rows.args : null;
  running = { text: docText(doc), name: doc.name ?? 'the design', loaded: new Map(), rows: rowsRun?.file.name };
  const pressed = document.activeElement === $('advice-run');
  $('advice-run').disabled = true;
  $('advice-cancel').disabled = false;
  // (the pressed button, disabled, would drop the focus to <body>)
  if (pressed) $('advice-cancel').focus();
  const progress = $('advice-progress');
  progress.value = 0;
  const rows = rowsRun ? { ...rowsRun, text: docText(doc) } : null;
  startAdvice(
    { doc, options: opts, rows },
    {
      status(text, done) {
        $('advice-status').textContent = text;
        progress.value = done;
      },
      done: ({ advice: a, candidates: total, workers: n, seconds }) =>
        drawAnswer(
          a,
          `${total} candidates × ${num(a.records)} ${rowsRun ? `rows of ${rowsRun.file.name}` : 'records'} in ${fix(seconds, 1)} s on ${n} workers (${num(Math.round((total * a.records) / seconds))} records/s).`,
        ),
      failed: drawFailure,
    },
  );
}

/** The advisor's answer `a` on show, `line` in its status. */
function drawAnswer(a, line) {
  performance.mark('rowkey-lab:advice-done');
  advice = a;
  advisedOn = running;
  chosen = a.recommended.index;
  const focus = focusOnRun();
  stop(line);
  renderAdvice();
  // the answer: its first line (the recommendation) takes the focus, and is read out
  if (focus) $('advice-answer')?.focus();
}

/** The advisor's run failed with the engine's error `e`: said in place of the answer. */
function drawFailure(e) {
  const focus = focusOnRun();
  stop('');
  // an option out of range: the engine's error at its control too
  markOptionError(e, ...optionControls());
  const error = el('p', `The advisor could not run: ${e.reason ?? e.message}`, {
    class: 'error',
    id: 'advice-answer',
    tabindex: '-1',
  });
  $('advice').replaceChildren(error);
  if (focus) error.focus();
}

// ---- drawing -------------------------------------------------------------------------------
const W = 520,
  H = 300,
  PAD = { l: 92, r: 12, t: 12, b: 40 };

/** A log scale from [lo, hi] to [a, b] (values at or below 0 sit at lo). */
function scale(lo, hi, a, b) {
  const l0 = Math.log(Math.max(lo, 1e-9)),
    l1 = Math.log(Math.max(hi, lo * 1.0001, 1e-9));
  return v => a + ((Math.log(Math.max(v, lo)) - l0) / (l1 - l0 || 1)) * (b - a);
}

/** Ticks for a log axis within [lo, hi]: 1, 2, 5 × powers of ten over a short range, powers
 * of ten (every second one over a long range) otherwise. */
function ticks(lo, hi) {
  const out = [];
  const decades = Math.log10(Math.max(hi, 1e-9) / Math.max(lo, 1e-9));
  const ks = decades > 2 ? [1] : [1, 2, 5];
  const every = decades > 6 ? 100 : 10;
  for (let p = 10 ** Math.floor(Math.log10(Math.max(lo, 1e-9))); p <= hi * 1.0001; p *= every)
    for (const k of ks) if (k * p >= lo * 0.9999 && k * p <= hi * 1.0001) out.push(k * p);
  return out.length >= 2 ? out : [lo, hi];
}

function scatter(a) {
  const pts = a.candidates.filter(c => c.metrics);
  const xs = pts.map(c => c.metrics.hotspotFactor),
    ys = pts.map(c => Math.max(1, c.metrics.readCost));
  const x0 = Math.min(1, ...xs),
    x1 = Math.max(...xs) * 1.1,
    y0 = Math.min(...ys),
    y1 = Math.max(...ys) * 1.2;
  const X = scale(x0, x1, PAD.l, W - PAD.r),
    Y = scale(y0, y1, H - PAD.b, PAD.t);
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'advice-plot',
    // one Tab stop: the arrow keys move the choice from point to point (a radio group's keys)
    role: 'radiogroup',
    'aria-label': 'candidates: write spread (hotspot factor, lower is more even) against read cost (lower is cheaper)',
  });
  const axis = svg('g', { class: 'axis-lines' });
  for (const t of ticks(x0, x1)) {
    axis.append(svg('line', { x1: X(t), x2: X(t), y1: PAD.t, y2: H - PAD.b }));
    const lab = svg('text', { x: X(t), y: H - PAD.b + 14, 'text-anchor': 'middle' });
    lab.textContent = fix(t, t < 10 ? 1 : 0);
    axis.append(lab);
  }
  for (const t of ticks(y0, y1)) {
    axis.append(svg('line', { x1: PAD.l, x2: W - PAD.r, y1: Y(t), y2: Y(t) }));
    const lab = svg('text', { x: PAD.l - 6, y: Y(t) + 4, 'text-anchor': 'end' });
    lab.textContent = num(t);
    axis.append(lab);
  }
  const xl = svg('text', { x: (PAD.l + W - PAD.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-title' });
  xl.textContent = 'hotspot factor (busiest ÷ mean region per window; 1 = even)';
  const yl = svg('text', {
    x: 12,
    y: (PAD.t + H - PAD.b) / 2,
    transform: `rotate(-90 12 ${(PAD.t + H - PAD.b) / 2})`,
    'text-anchor': 'middle',
    class: 'axis-title',
  });
  yl.textContent = 'read cost (regions × rows per row)';
  root.append(axis, xl, yl);
  // the Pareto front as a line through its points, by write spread
  const front = pts.filter(c => c.pareto).sort((p, q) => p.metrics.hotspotFactor - q.metrics.hotspotFactor);
  if (front.length > 1)
    root.append(
      svg('polyline', {
        class: 'front',
        points: front.map(c => `${X(c.metrics.hotspotFactor)},${Y(Math.max(1, c.metrics.readCost))}`).join(' '),
      }),
    );
  // drawn last, on top where points coincide: the front, the current design, the recommendation, the choice
  const rank = c =>
    (c.pareto ? 1 : 0) +
    (c.index === 0 ? 2 : 0) +
    (c.index === a.recommended.index ? 4 : 0) +
    (c.index === chosen ? 8 : 0);
  // the plot's one Tab stop: the chosen point (the first when the chosen candidate has no point)
  const tabStop = pts.some(c => c.index === chosen) ? chosen : pts[0]?.index;
  for (const c of [...pts].sort((p, q) => rank(p) - rank(q))) {
    const x = X(c.metrics.hotspotFactor),
      y = Y(Math.max(1, c.metrics.readCost));
    const cls = [
      'pt',
      c.pareto ? 'pareto' : '',
      c.index === 0 ? 'current' : '',
      c.index === a.recommended.index ? 'recommended' : '',
      c.index === chosen ? 'chosen' : '',
      onShow(c) ? 'on-show' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const g = svg('g', {
      class: cls,
      tabindex: c.index === tabStop ? 0 : -1,
      role: 'radio',
      'data-index': c.index,
      'aria-checked': String(c.index === chosen),
      'aria-label': `${c.label}: hotspot ${fix(c.metrics.hotspotFactor)}, read cost ${num(c.metrics.readCost)}, key ${fix(c.metrics.keyBytes, 1)} bytes${c.pareto ? ', on the Pareto front' : ''}${c.index === 0 ? ', the design advised on' : ''}${c.index === a.recommended.index ? ', recommended' : ''}${onShow(c) ? ', on show' : ''}`,
    });
    if (c.index === 0) g.append(svg('rect', { x: x - 7, y: y - 7, width: 14, height: 14, class: 'ring' }));
    if (c.index === a.recommended.index) g.append(svg('circle', { cx: x, cy: y, r: 10, class: 'ring' }));
    g.append(svg('circle', { cx: x, cy: y, r: 5, class: 'dot' }));
    const title = svg('title');
    title.textContent = c.label;
    g.append(title);
    root.append(g);
  }
  const pick = e => {
    const g = e.target.closest?.('g[data-index]');
    if (!g) return;
    chosen = Number(g.dataset.index);
    renderAdvice(true);
  };
  root.addEventListener('click', pick);
  // the points in the plot's order, left to right (write spread), then bottom to top (read cost)
  const order = [...pts]
    .sort((p, q) => p.metrics.hotspotFactor - q.metrics.hotspotFactor || p.metrics.readCost - q.metrics.readCost)
    .map(c => c.index);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  root.addEventListener('keydown', e => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(e);
      return;
    }
    const at = order.indexOf(chosen);
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? order.length - 1 : e.key in step ? at + step[e.key] : null;
    if (to === null || !order.length) return;
    e.preventDefault();
    chosen = order[Math.max(0, Math.min(order.length - 1, to))];
    renderAdvice(true);
  });
  return root;
}

function metricsList(mx, m12) {
  const dl = el('dl', undefined, { class: 'metrics' });
  const row = (k, v) => dl.append(el('dt', k), el('dd', v));
  row(
    'Hotspot factor',
    `${fix(mx.hotspotFactor)} per window (worst ${fix(mx.maxHotspotFactor)}; over the run ${fix(mx.hotspotFactorOverall)})`,
  );
  row('Active regions per window', `${fix(mx.activeRegionsPerWindow, 1)} of ${mx.regions} (${mx.emptyRegions} empty)`);
  row('Effective parallelism', fix(mx.effectiveParallelism, 1));
  row('Key bytes', fix(mx.keyBytes, 1));
  // the engine's months, for the few candidates it simulated (its basis says which)
  if (m12)
    row(
      `Month ${m12.month} (simulated)`,
      `${m12.emptyRegions} of ${m12.regions} regions empty; the hottest server takes ${fix(m12.hottestServerWriteShare * 100, 0)} % of an hour's writes${m12.hotServer ? ' — one hot server' : ''}`,
    );
  for (const r of mx.reads)
    row(
      `Read “${r.name}”`,
      `${r.scans} scan${r.scans === 1 ? '' : 's'}, ${r.regionsTouched} region${r.regionsTouched === 1 ? '' : 's'}` +
        (r.rowsReadPerRowReturned == null ? '' : `, ${fix(r.rowsReadPerRowReturned)} rows read per row returned`) +
        (r.fullScan ? ' — a full scan' : ''),
    );
  return dl;
}

/** Is candidate `c` the design on show: the design advised on (index 0) while it is, or a
 * candidate loaded from the advice? */
const onShow = c => docText() === (c.index === 0 ? advisedOn.text : JSON.stringify(c.design));

function detail(a) {
  const c = a.candidates.find(x => x.index === chosen) ?? a.candidates[0];
  const box = el('div', undefined, { class: 'advice-detail', id: 'advice-detail' });
  const shown = onShow(c);
  const what = [
    c.index === 0 ? 'the design advised on' : '',
    c.index === a.recommended.index ? 'recommended' : '',
    c.pareto ? 'on the Pareto front' : '',
    shown ? 'on show' : '',
  ]
    .filter(Boolean)
    .join(', ');
  box.append(el('h4', `${c.label}${what ? ` (${what})` : ''}`), el('code', c.keyText));
  if (c.changes.length) {
    const ul = el('ul');
    for (const x of c.changes) ul.append(el('li', x));
    box.append(ul);
  }
  if (c.metrics) box.append(metricsList(c.metrics, c.months));
  else box.append(el('p', c.error ?? 'not evaluated', { class: 'error' }));
  for (const f of c.flags) box.append(el('p', f, { class: 'note' }));
  const bar = el('div', undefined, { class: 'runbar' });
  const load = el('button', 'Load this design', { type: 'button', id: 'advice-load' });
  load.onclick = () => {
    // the advice stays with the candidate loaded from it
    advisedOn.loaded.set(JSON.stringify(c.design), c.label);
    hooks.load(c.design);
    // the loaded design's results take the focus (the pressed button is drawn again, gone)
    $('results-nav').scrollIntoView({ block: 'start' });
    $('results-nav').focus({ preventScroll: true });
  };
  // compared with the design on show: the one advised on, or a candidate loaded from the advice
  const loaded = advisedOn.loaded.get(docText());
  const cmp = el('button', 'Compare with the design on show', { type: 'button', id: 'advice-compare' });
  cmp.onclick = () =>
    hooks.compare(
      [c.design],
      [loaded ? `after: ${loaded}` : 'before', c.index === 0 ? 'before' : `advised: ${c.label}`],
    );
  // the move planned at once, under the comparison (views/rekey-view.js)
  const move = el('button', 'Move to this design', { type: 'button', id: 'advice-move' });
  move.onclick = () => {
    askMove(1);
    cmp.onclick();
  };
  // never the design on show against itself, nor loaded again
  cmp.disabled = shown;
  move.disabled = shown;
  load.disabled = shown || c.index === 0;
  bar.append(load, cmp, move);
  box.append(bar);
  if (shown) box.append(el('p', 'This candidate is the design on show.', { class: 'muted', id: 'advice-on-show' }));
  return box;
}

/** The input's Phoenix indexes whose own tables concentrate writes (the engine's findings):
 * each with its fixes, each checked on the same records, best first, with the changed index's
 * statement and what it costs. Null when every index spreads (or the design has none). */
function indexFindings(findings) {
  if (!findings.length) return null;
  const box = el('section', undefined, {
    class: 'advice-indexes',
    id: 'advice-indexes',
    'aria-labelledby': 'advice-indexes-h',
  });
  box.append(el('h4', 'Indexes that take the writes on few regions', { id: 'advice-indexes-h' }));
  for (const f of findings) {
    const part = el('div', undefined, { class: 'advice-index', 'data-index': f.index });
    part.append(el('p', `${f.index}: ${f.finding}`, { class: 'diagnosis' }));
    if (f.diagnosis) part.append(el('p', f.diagnosis, { class: 'muted' }));
    const ol = el('ol');
    for (const x of f.fixes) {
      const li = el(
        'li',
        `${x.change} — ${x.regions} region${x.regions === 1 ? '' : 's'}, the busiest ${fix(x.busiestShare * 100, 1)} % of a window's index writes${x.spreads ? '' : ' (still concentrated)'}`,
      );
      li.append(el('pre', x.statement));
      const costs = el('ul');
      for (const c of x.costs) costs.append(el('li', `cost: ${c}`));
      if (x.costs.length) li.append(costs);
      ol.append(li);
    }
    part.append(el('p', 'Fixes, each checked on the same records (best first):', { class: 'muted' }), ol);
    box.append(part);
  }
  return box;
}

/** The capacity of the recommendation; `plan` the engine's line for how many regions to create it with. */
function capacityTable(cap, plan) {
  const t = el('table', undefined, { class: 'capacity' });
  const heads = [
    'after',
    'data kept',
    'regions',
    'regions per server',
    'guide 20–200',
    'written regions per server',
    'empty regions',
  ];
  const hr = el('tr');
  for (const h of heads) hr.append(el('th', h, { scope: 'col' }));
  t.append(hr);
  const gb = b => `${fix(b / 2 ** 30, b < 10 * 2 ** 30 ? 1 : 0)} GiB`;
  for (const h of cap.horizons) {
    const tr = el('tr');
    for (const v of [
      `${h.months} month${h.months === 1 ? '' : 's'}`,
      gb(h.keptBytes),
      num(h.regions),
      fix(h.regionsPerServer, 1),
      h.guide,
      fix(h.activeRegionsPerServer, 1),
      num(h.emptyRegions),
    ])
      tr.append(el('td', v));
    t.append(tr);
  }
  // a phone's width scrolls the table in its box, not the page (focusable: the keyboard scrolls it)
  const wide = el('div', undefined, { class: 'wide', tabindex: '0', role: 'region', 'aria-labelledby': 'capacity-h' });
  wide.append(t);
  const box = el('div');
  box.append(
    el('h4', 'Capacity and lifecycle', { id: 'capacity-h' }),
    el(
      'p',
      `${cap.servers} region server${cap.servers === 1 ? '' : 's'}, ${num(cap.recordBytes)} bytes a record, ${num(cap.writeRate)} records/s; the memstore holds about ${fix(cap.memstoreRegionsPerServer, 0)} written regions per server. How many regions: ${plan}.`,
      { class: 'muted' },
    ),
    wide,
  );
  if (cap.cycle)
    box.append(
      el(
        'p',
        `Cyclic key (${cap.cycle.pattern}): the cycle is ${cap.cycle.cycleDays} days${cap.cycle.requiredDays == null ? '' : `, it must be at least ${cap.cycle.requiredDays} (TTL + 2 × major compaction)`}${cap.cycle.ok === false ? ': too short.' : '.'}`,
        { class: cap.cycle.ok === false ? 'note' : 'muted' },
      ),
    );
  for (const n of cap.notes) box.append(el('p', n, { class: 'muted' }));
  return box;
}

/** The design on show changed: a run for another design stops; the advice is drawn again when
 * it goes from being this design's to not, or back. */
function adviceOnDesign() {
  const text = docText();
  if (running && running.text !== text) stop(switched);
  if (!advice || text === drawnFor) return;
  const was = drawnFor !== null && forDesign(drawnFor);
  if (was || forDesign(text)) renderAdvice();
  drawnFor = text;
}
/** Is the advice for the design whose JSON is `text`: that design, or a candidate loaded from it? */
const forDesign = text => advisedOn !== null && (text === advisedOn.text || advisedOn.loaded.has(text));

/** The last advice, drawn (after a new choice, `focusChosen` keeps the keyboard on the plot);
 * when the design on show is another, a note says whose advice it is instead. */
function renderAdvice(focusChosen = false) {
  const box = $('advice');
  if (!advice) return;
  const a = advice;
  const text = docText();
  drawnFor = text;
  // whose advice is on show: the design's own ('this'), the design before's with a candidate of
  // it loaded ('before': its figures and recommendation are for that design), another's
  box.dataset.advisedOn = !forDesign(text) ? 'other' : text === advisedOn.text ? 'this' : 'before';
  if (!forDesign(text)) {
    box.replaceChildren(
      el(
        'p',
        `The advisor's last answer was for “${advisedOn.name}”, not for the design on show: run it for this design, or open “${advisedOn.name}” again (Recent designs) to see that answer.`,
        { class: 'note', id: 'advice-other' },
      ),
    );
    return;
  }
  const loaded = advisedOn.loaded.get(text);
  const whose = el(
    'p',
    loaded
      ? `Advice for “${advisedOn.name}”; the design on show is its candidate “${loaded}”, loaded from here.`
      : `Advice for the design on show, “${advisedOn.name}”.`,
    // the design before's advice: said as a note, not in passing
    { class: loaded ? 'note' : 'muted', id: 'advice-for' },
  );
  let before = null;
  if (loaded) {
    // after: the candidate on show, before: the design the advice was for
    const vs = el('button', 'Compare with the design before', { type: 'button', id: 'advice-before', class: 'inline' });
    vs.addEventListener('click', () => hooks.compare([JSON.parse(advisedOn.text)], [`after: ${loaded}`, 'before']));
    before = el('p', undefined, { class: 'runbar' });
    before.append(vs);
  }
  const rec = el('div', undefined, { class: 'advice-rec' });
  rec.append(
    el(
      'p',
      a.recommended.index === 0
        ? 'Keep the design: no candidate does better on this workload.'
        : `Recommended: ${a.recommended.label}`,
      // the answer's first line: the focus goes there when the run ends (runAdvice)
      { class: 'diagnosis', id: 'advice-answer', tabindex: '-1' },
    ),
  );
  const why = el('ul');
  for (const w of a.recommended.why) why.append(el('li', w));
  rec.append(why);
  // what Move to this design will ask of the rows, said before it is pressed (the engine's)
  if (a.recommended.moveNote) rec.append(el('p', a.recommended.moveNote, { class: 'note', id: 'advice-move-note' }));
  for (const f of a.inputFlags) rec.append(el('p', f, { class: 'note' }));
  const indexes = indexFindings(a.indexFindings ?? []);
  const legend = el(
    'p',
    `${a.candidates.length} candidates, each on ${num(a.records)} ${advisedOn?.rows ? `rows of ${advisedOn.rows}` : 'records'}; filled: on the Pareto front (no other candidate is better on write spread, read cost and key bytes at once); square: the design advised on; ring: the recommendation${loaded ? '; dark: the candidate on show' : ''}. Choose a point for its design.`,
    { class: 'muted' },
  );
  const plotWrap = el('div', undefined, { class: 'advice-grid' });
  plotWrap.append(scatter(a), detail(a));
  // Why the advisor's figures differ from the analysis's (other records, windows, divisor).
  const basis = el('p', a.basis ?? '', { class: 'muted advice-basis' });
  box.replaceChildren(
    ...[whose, before].filter(Boolean),
    rec,
    ...[indexes].filter(Boolean),
    legend,
    basis,
    plotWrap,
    capacityTable(a.capacity, a.regionPlan),
  );
  if (focusChosen) box.querySelector(`g[data-index="${chosen}"]`)?.focus();
}
