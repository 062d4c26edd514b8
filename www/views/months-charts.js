// The Months view's pictures (months-view.js), each from the engine's answer as it is (src/life:
// lifeMonths, lifeCompare): the regions month by month as bars stacked by size, the key-range ×
// month map of the regions (the heatmap's drawing: one pixel per cell, viridis, log scale; the
// region boundaries drawn over it), the region servers of one month as bars, and the events as a
// timeline of days. Each takes `lab` (the lab's helpers: `el`, `num`, `fix`, `bytesText`, `heat`)
// and the scales it shares with the other setting's (`top`), and answers a figure; hovering any of
// them shows what is under the pointer in the view's tooltip (`tip(text, event)`). Text reaches
// the DOM through textContent only. Loaded with months-view.js, never part of the first load.

const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}, text = null) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = String(text);
  return e;
};

/** The region-size bins of the engine's histogram (src/life/report.rs SIZE_BIN_EDGES), in words. */
export const SIZE_BINS = ['empty', '≤ 128 MiB', '≤ 1 GiB', '≤ 5 GiB', '≤ 10 GiB', '≤ 20 GiB', '> 20 GiB'];

/** A colour per size bin: empty regions grey (nothing there), then the heatmap's palette. */
function binColours(PALETTE) {
  const at = i => `rgb(${PALETTE[i * 3]}, ${PALETTE[i * 3 + 1]}, ${PALETTE[i * 3 + 2]})`;
  return ['#9e9e9e', ...[0, 50, 100, 150, 200, 255].map(at)];
}

/** The shared maxima of one or two views: regions, map bytes, servers' figures, the events. */
export function sharedTop(views) {
  const months = views.flatMap(v => v.report.months);
  const most = (xs, f) => xs.reduce((m, x) => Math.max(m, f(x)), 0);
  const servers = months.flatMap(m => m.servers);
  return {
    regions: most(months, m => m.regions),
    bytes: most(views, v => most(v.map.bytes, x => x)),
    serverRegions: most(servers, s => s.regions),
    serverBytes: most(servers, s => s.bytes),
    splitsPerDay: most(months, m => most(m.splitsByDay, x => x)),
    majorsPerDay: most(months, m => most(m.majorCompactionsByDay, x => x)),
    merges: most(months, m => m.merges),
    moves: most(months, m => m.moves),
    expired: most(views, v => most(dropped(v.report), x => x)),
  };
}

/** Bytes the TTL removed in each month (the report counts them since the start). */
const dropped = report => report.months.map((m, i) => m.expiredBytes - (report.months[i - 1]?.expiredBytes ?? 0));

/** A figure with its caption and the picture. */
function figure(lab, id, caption, ...parts) {
  const f = lab.el('figure', undefined, { class: 'months-fig', id });
  f.append(...parts, lab.el('figcaption', caption));
  return f;
}

/** Tooltips over `node`: `textAt(event)` (null: none). */
function hover(node, tip, textAt) {
  node.addEventListener('mousemove', e => tip(textAt(e), e));
  node.addEventListener('mouseleave', () => tip(null));
}

/** The x of a pointer event in `node`'s own units (an SVG viewBox of `width`). */
const xIn = (node, e, width) => {
  const b = node.getBoundingClientRect();
  return ((e.clientX - b.left) / Math.max(1, b.width)) * width;
};

/** Regions at each month's end, stacked by size: how many, and how big, at a glance. */
export function regionsChart(lab, side, view, top, tip) {
  const { num, el } = lab;
  const months = view.report.months;
  const W = 560,
    H = 190,
    L = 44,
    B = 18;
  const pw = W - L - 4,
    ph = H - B - 6;
  const colours = binColours(lab.heat.PALETTE);
  const max = Math.max(1, top.regions);
  const bw = pw / months.length;
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'months-svg', role: 'img' });
  const last = months.at(-1);
  s.setAttribute(
    'aria-label',
    `Regions at each month's end by size: ${months.length} months, ${last.regions} regions at the end, ${last.emptyRegions} of them empty`,
  );
  for (const [i, m] of months.entries()) {
    let y = 6 + ph;
    for (const [b, count] of m.sizeHistogram.entries()) {
      if (!count) continue;
      const h = (count / max) * ph;
      y -= h;
      s.append(
        svg('rect', {
          x: L + i * bw + bw * 0.1,
          y,
          width: Math.max(1, bw * 0.8),
          height: Math.max(0.5, h),
          fill: colours[b],
        }),
      );
    }
  }
  axisY(s, L, 6, ph, max, num);
  axisMonths(s, L, H - 4, pw, months.length);
  hover(s, tip, e => {
    const i = Math.floor((xIn(s, e, W) - L) / bw);
    const m = months[i];
    if (!m) return null;
    const parts = m.sizeHistogram.map((c, b) => (c ? `${num(c)} ${SIZE_BINS[b]}` : null)).filter(Boolean);
    return `Month ${m.month}: ${num(m.regions)} regions (${num(m.emptyRegions)} empty)\n${parts.join(', ')}\nthe largest region reached ${lab.bytesText(m.largestRegionBytes)}; ${num(m.splits)} splits, ${num(m.merges)} merges`;
  });
  const legend = el('p', undefined, { class: 'months-legend' });
  for (const [b, name] of SIZE_BINS.entries()) {
    const sw = el('span', undefined, { class: 'swatch' });
    sw.style.background = colours[b];
    legend.append(sw, el('span', `${name} `));
  }
  return figure(
    lab,
    `months-regions-${side}`,
    'Regions at each month’s end, stacked by size (one bar per month; the same scale on both sides).',
    s,
    legend,
  );
}

function axisY(s, L, y0, ph, max, num) {
  for (const f of [0, 0.5, 1]) {
    const y = y0 + ph - f * ph;
    s.append(svg('line', { x1: L - 3, x2: L, y1: y, y2: y, class: 'months-axis' }));
    s.append(svg('text', { x: L - 5, y: y + 3, 'text-anchor': 'end', class: 'months-tick' }, num(Math.round(f * max))));
  }
}

/** Month numbers under a plot `pw` wide from `L`, at most about 12 of them. */
function axisMonths(s, L, y, pw, months, width = pw / months) {
  const every = Math.max(1, Math.ceil(months / 12));
  for (let i = 0; i < months; i += every)
    s.append(
      svg('text', { x: L + (i + 0.5) * width, y, 'text-anchor': 'middle', class: 'months-tick' }, String(i + 1)),
    );
}

/** Where a map row lies in the key space, in words. */
function stretchText(map, row, fix) {
  const w = map.lanes / map.rows;
  const [lo, hi] = [row * w, (row + 1) * w];
  if (map.lanes <= 1) return `keys ${fix(lo * 100, 1)}–${fix(hi * 100, 1)} % of the key space`;
  const lane = Math.floor(lo);
  return `${map.prefixLanes ? 'prefix' : 'lane'} ${lane} of ${map.lanes}, ${fix((lo - lane) * 100, 0)}–${fix(Math.min(1, hi - lane) * 100, 0)} % of it`;
}

/** Each map's zoom, by the answer it draws (a new run is unzoomed): the months shown (`time`),
 * the stretches of the key space (`keys`), each `[a, b)` or null for all, and the keyboard's
 * cursor. */
const zooms = new WeakMap();

/** The key-range × month map: each column a month's end, each row a stretch of the key space,
 * coloured by the size of the region there (log scale, shared), region boundaries marked; zoomed
 * and read as the heatmap is (heat-zoom.js): drag across it for months, diagonally for keys too. */
export function keyMap(lab, side, view, top, tip) {
  const { el, fix, bytesText, heat } = lab;
  const map = view.map;
  if (!zooms.has(view)) zooms.set(view, { time: null, keys: null, cursor: null });
  const z = zooms.get(view);
  const [c0, c1] = z.time ?? [0, map.cols];
  const [r0, r1] = z.keys ?? [0, map.rows];
  const rows = r1 - r0,
    cols = c1 - c0;
  const wrap = el('div', undefined, { class: 'months-map' });
  const base = el('canvas', undefined, {
    id: `months-map-${side}`,
    class: 'pixel',
    role: 'img',
    tabindex: '0',
    'aria-label': `region sizes over the key space (rows, lowest keys at the top) and months (columns); months ${c0 + 1} to ${c1} of ${map.cols}${rows < map.rows ? `, ${fix((rows / map.rows) * 100, 1)} % of the key space` : ''}; drag across it to zoom the months (diagonally: the keys too); arrow keys move a cursor, + and − zoom the months around it, ] and [ the keys, R resets`,
  });
  // an empty region (0 bytes) is grey, as in the bars above: the heatmap's colour for no reading
  const cells = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const b = map.bytes[(r0 + r) * map.cols + c0 + c];
      cells[r * cols + c] = b > 0 ? b : Number.NaN;
    }
  const opts = { scale: 'log', max: Math.max(1, top.bytes) };
  heat.drawMatrix(base, { rows, cols, cells }, opts);
  // the boundaries over it: a thin line across its month at each stretch holding one
  const over = el('canvas', undefined, { class: 'months-bounds', 'aria-hidden': 'true' });
  const cw = Math.max(2, Math.floor(1200 / cols));
  const rh = Math.max(4, Math.floor(960 / rows));
  over.width = cols * cw;
  over.height = rows * rh;
  const g = over.getContext('2d');
  g.fillStyle = 'rgba(255, 255, 255, 0.7)';
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      if (map.boundaries[(r0 + r) * map.cols + c0 + c] > 0)
        g.fillRect(c * cw + (cw > 4 ? 1 : 0), r * rh, cw > 4 ? cw - 2 : cw, 1);
  const scale = el('canvas', undefined, { class: 'pixel months-scale', 'aria-hidden': 'true' });
  heat.drawMatrix(
    scale,
    { rows: 1, cols: 64, cells: Float64Array.from({ length: 64 }, (_, i) => opts.max ** (i / 63)) },
    opts,
  );
  const legend = el('p', undefined, { class: 'months-legend' });
  const grey = el('span', undefined, { class: 'swatch' });
  grey.style.background = '#9e9e9e';
  legend.append(grey, el('span', 'empty'), el('span', ' 1 byte'), scale, el('span', `${bytesText(opts.max)} (log)`));
  const brush = el('div', undefined, { class: 'brush', hidden: '' });
  wrap.append(base, over, brush);
  // the key space's labels at their place in the rows shown: prefixes, or fractions of it
  const keys = el('div', undefined, { class: 'months-keys', 'aria-hidden': 'true' });
  const at = f => (f * map.rows - r0) / rows;
  const labels =
    map.prefixLanes && map.lanes > 1 && map.lanes <= 16
      ? Array.from({ length: map.lanes }, (_, i) => [at((i + 0.5) / map.lanes), `prefix ${i}`])
      : [0, 0.25, 0.5, 0.75, 1].map(f => [f, `${fix(((r0 + f * rows) / map.rows) * 100, rows < map.rows ? 1 : 0)} %`]);
  for (const [f, text] of labels) {
    if (f < 0 || f > 1) continue;
    const k = el('span', text, { class: 'klabel' });
    k.style.top = `${f * 100}%`;
    keys.append(k);
  }
  const ticks = el('div', undefined, { class: 'months-map-ticks', 'aria-hidden': 'true' });
  const every = Math.max(1, Math.ceil(cols / 12));
  for (let c = 0; c < cols; c += every) {
    const t = el('span', String(c0 + c + 1), { class: 'tick' });
    t.style.left = `${((c + 0.5) / cols) * 100}%`;
    ticks.append(t);
  }
  const body = el('div', undefined, { class: 'months-map-body' });
  body.append(keys, wrap, ticks, legend);
  /** The cell (`r`, `c`) of the whole map in words. */
  const cellText = (r, c) => {
    const i = r * map.cols + c;
    const pctOf = x => `${fix((x / map.lanes) * 100, 2)} %`;
    const n = map.boundaries[i];
    return [
      `Month ${c + 1}, ${stretchText(map, r, fix)}`,
      `region [${pctOf(map.regionStart[i])}, ${pctOf(map.regionEnd[i])}) of the key space: ${bytesText(map.bytes[i])} on server ${map.server[i]}`,
      n ? `${n} region boundar${n === 1 ? 'y' : 'ies'} in this stretch` : 'no region boundary in this stretch',
    ].join('\n');
  };
  const order =
    map.order === 'ascending'
      ? ' The key moves up with time: lower keys hold older rows.'
      : map.order === 'descending'
        ? ' The key moves down with time: higher keys hold older rows.'
        : '';
  const fig = figure(
    lab,
    `months-keymap-${side}`,
    `The key space (rows, lowest keys at the top) month by month (columns): each stretch coloured by the size of the region holding it (log scale, the same on both sides; grey: an empty region), a white line where a region begins.${order} Drag across it to zoom the months, diagonally the keys too; on the focused map, arrows move a cursor, + and − zoom the months, ] and [ the keys; R resets.`,
    body,
  );
  /** The map drawn again at its zoom, in place, keeping the keyboard's focus on it. */
  const redraw = () => {
    const again = keyMap(lab, side, view, top, tip);
    fig.replaceWith(again);
    again.querySelector('canvas.pixel')?.focus();
  };
  heat.heatZoom(base, brush, {
    shown: () => ({ r0, r1, c0, c1, rows: map.rows, cols: map.cols }),
    zoom({ time, keys: k }) {
      if (time !== undefined) z.time = time;
      if (k !== undefined) z.keys = k;
      redraw();
    },
    reset() {
      Object.assign(z, { time: null, keys: null });
      redraw();
    },
    tip: (r, c, x, y) => tip(r === null ? null : cellText(r, c), { pageX: x, pageY: y }),
    cursor: () => z.cursor,
    setCursor: cell => {
      z.cursor = cell;
    },
    canvas: () => document.getElementById(`months-map-${side}`),
  });
  return fig;
}

/** The region servers at the end of month `month` (1-based): regions, bytes, write share. */
export function serversChart(lab, side, view, month, top, tip) {
  const { num, fix, bytesText } = lab;
  const m = view.report.months[month - 1] ?? view.report.months.at(-1);
  const n = m.servers.length;
  const row = Math.max(5, Math.min(16, 320 / n));
  const W = 560,
    L = 64,
    col = (W - L) / 3,
    H = 16 + n * row;
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'months-svg', role: 'img' });
  s.setAttribute('aria-label', `The ${n} region servers at the end of month ${m.month}: regions, bytes, write share`);
  const cols = [
    ['regions', x => x.regions, Math.max(1, top.serverRegions), v => num(v)],
    ['bytes', x => x.bytes, Math.max(1, top.serverBytes), v => bytesText(v)],
    ['write share', x => x.writeShare, 1, v => `${fix(v * 100, 1)} %`],
  ];
  for (const [k, [name, , max, text]] of cols.entries()) {
    s.append(svg('text', { x: L + k * col, y: 11, class: 'months-tick' }, `${name} (to ${text(max)})`));
  }
  for (const [i, sv] of m.servers.entries()) {
    const y = 16 + i * row;
    if (row >= 9 || i % Math.ceil(9 / row) === 0)
      s.append(svg('text', { x: L - 6, y: y + row * 0.75, 'text-anchor': 'end', class: 'months-tick' }, `server ${i}`));
    for (const [k, [, of, max]] of cols.entries())
      s.append(
        svg('rect', {
          x: L + k * col,
          y: y + row * 0.1,
          width: Math.max(of(sv) > 0 ? 1 : 0, (of(sv) / max) * (col - 8)),
          height: row * 0.8,
          class: `months-bar months-bar-${k}`,
        }),
      );
  }
  hover(s, tip, e => {
    const b = s.getBoundingClientRect();
    const i = Math.floor((((e.clientY - b.top) / b.height) * H - 16) / row);
    const sv = m.servers[i];
    return sv
      ? `Server ${i}, month ${m.month}: ${num(sv.regions)} regions (${num(sv.writtenRegions)} written), ${bytesText(sv.bytes)}, ${fix(sv.writeShare * 100, 1)} % of the month's writes`
      : null;
  });
  return figure(
    lab,
    `months-servers-${side}`,
    `The region servers at the end of month ${m.month}: regions, bytes on disk and share of the month's writes (the balancer evens region counts, not writes; the hottest server took ${fix(m.hottestServerWriteShare * 100, 1)} % of an hour's writes on average).`,
    s,
  );
}

/** The guidelines' first crossings, as the report names them. */
const CROSSINGS = {
  regionsPerServerOver200: 'over 200 regions on a server',
  memstoreBound: 'the memstore bound',
  regionOver20Gib: 'a region over 20 GiB',
  splitLimit: 'the split limit',
};

/** What happened, day by day and month by month: splits and major compactions per day; merges,
 * balancer moves and the bytes the TTL dropped per month; the first month of each guideline
 * crossed. */
export function eventsChart(lab, side, view, top, tip) {
  const { num, bytesText } = lab;
  const months = view.report.months;
  const days = months.length * 30;
  const drops = dropped(view.report);
  const W = 560,
    L = 116,
    pw = W - L - 4,
    strip = 26;
  const rows = [
    ['splits a day', months.flatMap(m => m.splitsByDay), top.splitsPerDay, 1],
    ['major compactions', months.flatMap(m => m.majorCompactionsByDay), top.majorsPerDay, 1],
    ['merges', months.map(m => m.merges), top.merges, 30],
    ['balancer moves', months.map(m => m.moves), top.moves, 30],
    ['TTL dropped', drops, top.expired, 30],
    // the engine's busy days (src/life.rs close_day: a tenth of the regions, at least 4, split or
    // major-compacted that day), a full bar each: the days the cluster's I/O peaks
    ['busy days', months.flatMap(m => m.busyByDay.map(Number)), 1, 1],
  ];
  const H = 8 + rows.length * (strip + 4) + 16;
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'months-svg', role: 'img' });
  const dx = pw / days;
  for (const [k, [name, values, max, span]] of rows.entries()) {
    const y0 = 8 + k * (strip + 4);
    s.append(svg('text', { x: L - 6, y: y0 + strip * 0.7, 'text-anchor': 'end', class: 'months-tick' }, name));
    s.append(svg('line', { x1: L, x2: L + pw, y1: y0 + strip, y2: y0 + strip, class: 'months-axis' }));
    for (const [i, v] of values.entries()) {
      if (!(v > 0)) continue;
      const h = Math.max(1, (v / Math.max(1e-9, max)) * strip);
      s.append(
        svg('rect', {
          x: L + i * span * dx,
          y: y0 + strip - h,
          width: Math.max(0.6, span * dx - (span > 1 ? 1 : 0)),
          height: h,
          class: `months-bar months-ev-${k}`,
        }),
      );
    }
  }
  const crossed = Object.entries(view.report.crossings).filter(([, m]) => m != null);
  for (const [, m] of crossed) {
    const x = L + (m - 1) * 30 * dx;
    s.append(svg('line', { x1: x, x2: x, y1: 4, y2: H - 14, class: 'months-crossing' }));
  }
  axisMonths(s, L, H - 2, pw, months.length);
  const last = months.at(-1);
  s.setAttribute(
    'aria-label',
    `Events over ${months.length} months: splits and major compactions per day, merges, balancer moves and bytes dropped by the TTL per month, busy days; ${crossed.length ? `guidelines crossed: ${crossed.map(([k, m]) => `${CROSSINGS[k]} in month ${m}`).join(', ')}` : 'no guideline crossed'}; ${last.busyDays} busy days in the last month`,
  );
  hover(s, tip, e => {
    const d = Math.floor((xIn(s, e, W) - L) / dx);
    const m = months[Math.floor(d / 30)];
    if (d < 0 || !m) return null;
    const cross = crossed.filter(([, at]) => at === m.month).map(([k]) => CROSSINGS[k]);
    const busy = m.busyByDay[d % 30] ? ' (a busy day: a tenth of the regions or more split or compacted)' : '';
    return [
      `Day ${(d % 30) + 1} of month ${m.month}: ${num(m.splitsByDay[d % 30] ?? 0)} splits, ${num(m.majorCompactionsByDay[d % 30] ?? 0)} major compactions${busy}`,
      `Month ${m.month}: ${num(m.splits)} splits (${num(m.normalizerSplits)} by the normalizer), ${num(m.merges)} merges, ${num(m.moves)} balancer moves, ${num(m.flushes)} flushes, ${num(m.minorCompactions)} minor and ${num(m.majorCompactions)} major compactions writing ${bytesText(m.compactionBytes)}, ${bytesText(drops[m.month - 1])} dropped by the TTL, ${m.busyDays} busy days`,
      ...(cross.length ? [`First crossed this month: ${cross.join(', ')}`] : []),
    ].join('\n');
  });
  return figure(
    lab,
    `months-events-${side}`,
    `What HBase did: splits and major compactions per day, merges, balancer moves and bytes the TTL dropped per month (each strip to the larger side's most), and the busy days, when a tenth of the regions or more split or compacted together; a dashed line at the start of the month a guideline was first crossed${crossed.length ? ` (${crossed.map(([k, m]) => `${CROSSINGS[k]}: month ${m}`).join('; ')})` : ': none of 200 regions a server, the memstore bound, a 20 GiB region or the split limit was (the findings above say what else the months show)'}.`,
    s,
  );
}
