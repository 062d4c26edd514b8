// "Try the design on a table's current regions": what the HBase shell printed for a table
// (get_splits, list_regions, a hbase:meta scan, a SPLITS_FILE, a create statement), read by the
// engine (readRegions), becomes the design's pre-split. The rest of the design stays; the design
// before is under Recent designs (every finished run is remembered).

import { $, el, num, offsetOf, state } from './lab-state.js';
import * as wasm from './pkg/rowkey_lab.js';

// The last list read whose text said what each region takes now (`load`), while the design
// still runs on its regions.
let current = null;

/** ", on the N servers that hold them now" when the text names every region's server. */
function placedOn(list) {
  const n = new Set(list.assignment?.servers ?? []).size;
  return n ? `, on the ${n === 1 ? 'one server' : `${n} servers`} that hold${n === 1 ? 's' : ''} them now` : '';
}

/** Wire the box; `changed()` is called after the design took the table's regions, and
 * `compareWith(doc)` compares it with the design as it was before. */
export function wireTableRegions(changed, compareWith) {
  const text = $('regions-text'),
    status = $('regions-status');
  $('regions-apply').addEventListener('click', () => {
    let list;
    try {
      list = wasm.readRegions(text.value, $('regions-table').value.trim() || null);
    } catch (e) {
      text.setAttribute('aria-invalid', 'true');
      status.className = 'error';
      status.textContent = e.line ? `Line ${e.line}, column ${e.column}: ${e.reason}` : (e.reason ?? e.message);
      if (e.line) {
        // the caret on the spot the engine names
        const at = offsetOf(text.value, e.line, e.column);
        text.focus();
        text.setSelectionRange(at, Math.min(text.value.length, at + 1));
      } else if (e.path === 'table') $('regions-table').focus();
      return;
    }
    text.removeAttribute('aria-invalid');
    const FROM = {
      regionNames: 'region names',
      create: 'a create statement',
      list: 'a list of keys',
      lines: 'one key per line',
    };
    const checked = list.source === 'regionNames' ? ` (${list.verified} checked against their MD5)` : '';
    status.className = 'muted';
    const before = state.doc;
    // Named for where it runs, so Recent designs and Compare tell the two apart.
    const where = ` — on ${list.table ? `table ${list.table}'s` : "a table's"} current regions`;
    const name = String(before.name ?? 'design').split(' — on ')[0] + where;
    const vs = el('button', 'Compare with the design before', { type: 'button', id: 'regions-compare' });
    vs.addEventListener('click', () => compareWith(before));
    status.replaceChildren(
      el(
        'p',
        `${list.regions} region${list.regions === 1 ? '' : 's'}${list.table ? ` of table ${list.table}` : ''} read from ${FROM[list.source]}${checked}: the design now runs on them${placedOn(list)}.`,
      ),
      ...list.notes.map(n => el('p', n)),
      vs,
    );
    // The engine's rule (onTableRegions): the table's split points, and its servers when the
    // text names every region's.
    const onThem = wasm.onTableRegions(before, list);
    state.doc = { ...onThem, name };
    current = list.load.length ? list : null;
    $('regions-load').replaceChildren();
    changed();
  });
}

/** Each region's share of the table's load now (the writes a /jmx dump counted, or
 * list_regions' REQ, which counts reads too) beside its share of this design's writes, after a
 * run on those regions; nothing when the design has left them (another pre-split, an
 * auto-split that made more regions). */
export function renderTableLoad() {
  const box = $('regions-load'),
    r = state.report;
  const onThem =
    current &&
    r &&
    JSON.stringify(state.doc?.regions?.presplit) === JSON.stringify(current.presplit) &&
    r.regions.length === current.load.length;
  if (!onThem) {
    box.replaceChildren();
    return;
  }
  const load = current.load;
  // Each region's share of the counted load, from the engine (list.loadShares).
  if (!current.loadShares) {
    box.replaceChildren();
    return;
  }
  const { what, total, shares: now, busiest: hotNow } = current.loadShares;
  const design = r.regions.map(g => (r.writes ? g.writes / r.writes : 0));
  const hotDesign = design.reduce((b, x, i) => (x > design[b] ? i : b), 0);
  const bar = (x, cls) => {
    const track = el('span', undefined, { class: 'track' }),
      fill = el('span', undefined, { class: cls });
    fill.style.width = `${(x * 100).toFixed(1)}%`;
    track.append(fill);
    const cell = el('div', undefined, { class: 'share' });
    cell.append(el('span', `${(x * 100).toFixed(1)} %`), track);
    const td = el('td');
    td.append(cell);
    return td;
  };
  const head = el('tr');
  for (const h of [
    '#',
    'Start key',
    'Server',
    `Now: share of ${what}${what === 'requests' ? ' (reads and writes)' : ''}`,
    'This design: share of writes',
  ])
    head.append(el('th', h));
  const rows = load.map((l, i) => {
    const tr = el('tr', undefined, i === hotNow || i === hotDesign ? { class: 'hot' } : {});
    tr.append(
      el('td', i),
      el('td', l.startKey || '(first)'),
      el('td', l.server ?? '–'),
      bar(now[i], 'now'),
      bar(design[i], 'design'),
    );
    return tr;
  });
  const table = el('table', undefined, {
    class: 'load',
    'aria-label': "each region's share of the load now and of this design's writes",
  });
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
  table.tBodies[0].append(...rows);
  const pctText = x => `${(x * 100).toFixed(1)} %`;
  // A hot spot is felt per region server. The engine placed the regions on the servers the
  // text names (list.assignment) and counted each one's writes; the load now is summed by the
  // server each region is on.
  const nowOn = new Map();
  for (const [i, l] of load.entries()) nowOn.set(l.server, (nowOn.get(l.server) ?? 0) + now[i]);
  const byServer = r.servers
    .filter(s => s.name !== null)
    .map(
      s =>
        `${s.name} ${pctText(nowOn.get(s.name) ?? 0)} now, ${pctText(r.writes ? s.rows / r.writes : 0)} with this design`,
    );
  box.replaceChildren(
    el(
      'p',
      `The table now: region ${hotNow} takes ${pctText(now[hotNow])} of its ${what} (${num(total)} counted since each region opened). This design: region ${hotDesign} would take ${pctText(design[hotDesign])} of its writes.`,
    ),
    table,
    ...(byServer.length > 1
      ? [
          el('p', `By region server, as the table places its regions now: ${byServer.join('; ')}.`, {
            id: 'regions-by-server',
          }),
        ]
      : []),
  );
}
