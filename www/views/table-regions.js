// "Try the design on a table's current regions": what the HBase shell printed for a table
// (get_splits, list_regions, a hbase:meta scan, a SPLITS_FILE, a create statement), read by the
// engine (readRegions) in a worker, becomes the design's pre-split (onTableRegions). The rest of
// the design stays; the design before is under Recent designs. The text is pasted into the box
// or opened from a file; a text longer than the box shows (BOX_MAX) is kept aside unshown, and
// one longer than REGION_TEXT_MAX is refused before it is read.

import * as wasm from '../pkg/rowkey_lab.js';
import { BOX_MAX, DESIGN_MAX, REGION_TEXT_MAX, readOff, sizeText } from '../state/io.js';
import { $, el, num, offsetOf, state } from '../state/lab-state.js';

// The last list read whose text said what each region takes now (`load`), while the design
// still runs on its regions.
let current = null;

/** ", on the N servers that hold them now" when the text names every region's server. */
function placedOn(list) {
  const n = new Set(list.assignment?.servers ?? []).size;
  return n ? `, on the ${n === 1 ? 'one server' : `${n} servers`} that hold${n === 1 ? 's' : ''} them now` : '';
}

const FROM = {
  regionNames: 'region names',
  create: 'a create statement',
  list: 'a list of keys',
  lines: 'one key per line',
};

/** Wire the box; `apply(doc)` puts the design on the table's regions in place of the design
 * before, and `compareWith([doc], roles)` compares it with the design before. */
export function wireTableRegions(apply, compareWith) {
  const box = $('regions-text'),
    status = $('regions-status');
  // The region text when it is not in the box: a file, or a paste too long to show there (as a
  // Blob: the worker reads it, and the page sends it no copy of the text).
  let aside = null,
    reading = null;
  const say = (text, cls = 'muted') => {
    status.className = cls;
    status.textContent = text;
  };
  const setAside = a => {
    aside = a;
    box.value = '';
    box.removeAttribute('aria-invalid');
    box.placeholder = `${a.name} (${sizeText(a.size)}) is too long to show here: “Use these regions” reads it. Typing here drops it.`;
    say(`${a.name}, ${sizeText(a.size)}: ready to read.`);
  };
  const tooLong = n => n > REGION_TEXT_MAX;
  const refuse = (what, n) =>
    say(
      `Not read: ${what} is ${sizeText(n)}; the page reads region text of up to ${sizeText(REGION_TEXT_MAX)}.`,
      'error',
    );
  box.addEventListener('paste', e => {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (text.length <= BOX_MAX) return;
    e.preventDefault();
    if (tooLong(text.length)) refuse('the pasted text', text.length);
    else setAside({ file: new Blob([text], { type: 'text/plain' }), name: 'The pasted text', size: text.length });
  });
  box.addEventListener('input', () => {
    if (!aside) return;
    aside = null;
    box.placeholder = '';
    say('');
  });
  const openFile = f => {
    if (tooLong(f.size)) refuse(f.name, f.size);
    else setAside({ file: f, name: f.name, size: f.size });
  };
  $('regions-file').addEventListener('change', () => {
    const f = $('regions-file').files[0];
    $('regions-file').value = '';
    if (f) openFile(f);
  });
  $('table-regions').addEventListener('drop', e => {
    const f = e.dataTransfer?.files[0];
    if (!f) return;
    e.preventDefault();
    openFile(f);
  });

  $('regions-apply').addEventListener('click', async () => {
    reading?.cancel();
    const text = aside ? null : box.value;
    if (text !== null && tooLong(text.length)) return refuse('the text', text.length);
    const before = state.doc;
    say(`Reading ${aside ? `${aside.name} (${sizeText(aside.size)})` : 'the regions'}… `);
    const stop = el('button', 'Stop', { type: 'button', id: 'regions-stop' });
    stop.addEventListener('click', () => {
      reading?.cancel();
      say('Stopped: the design keeps the regions it had.');
    });
    status.append(stop);
    const read = readOff(
      'readRegions',
      {
        text,
        file: aside?.file ?? null,
        table: $('regions-table').value.trim() || null,
        doc: before,
        max: DESIGN_MAX,
      },
      '#engine=fast',
    );
    reading = read;
    let got;
    try {
      got = await read;
    } catch (e) {
      if (e.name !== 'AbortError') showReadError(e, aside);
      return;
    } finally {
      if (reading === read) reading = null;
    }
    if (got.tooLarge) {
      say(
        `${num(got.regions)} regions read, but the design on them would be ${sizeText(got.tooLarge)} of JSON; the page opens designs of up to ${sizeText(DESIGN_MAX)}.`,
        'error',
      );
      return;
    }
    const list = got.list;
    showRead(list, before);
    current = list.load.length ? list : null;
    $('regions-load').replaceChildren();
    // Named for where it runs, so Recent designs and Compare tell the two apart.
    const where = ` — on ${list.table ? `table ${list.table}'s` : "a table's"} current regions`;
    apply({ ...got.doc, name: String(before.name ?? 'design').split(' — on ')[0] + where });
  });

  /** The engine's error, at its line and column: the caret on the spot in the box, or the line
   * itself when the text is not in the box. */
  function showReadError(e, from) {
    const at = e.line ? `line ${e.line}, column ${e.column}` : '';
    // "Line 2, column 5: …" of the box's text; "meta.txt, line 2, column 5: …" of a file
    const where = from ? [from.name, at].filter(Boolean).join(', ') : at.replace(/^l/, 'L');
    const why = e.line ? e.reason : (e.reason ?? e.message);
    say(`${where ? `${where}: ` : ''}${why}${e.source ? `\n${e.source}` : ''}`, 'error');
    if (from) return;
    box.setAttribute('aria-invalid', 'true');
    if (e.line) {
      const i = offsetOf(box.value, e.line, e.column);
      box.focus();
      box.setSelectionRange(i, Math.min(box.value.length, i + 1));
    } else if (e.path === 'table') $('regions-table').focus();
  }

  /** What was read, and the button to compare with the design before. */
  function showRead(list, before) {
    box.removeAttribute('aria-invalid');
    const checked = list.source === 'regionNames' ? ` (${list.verified} checked against their MD5)` : '';
    status.className = 'muted';
    const vs = el('button', 'Compare with the design before', { type: 'button', id: 'regions-compare' });
    vs.addEventListener('click', () => compareWith([before], ["on the table's regions", 'before']));
    status.replaceChildren(
      el(
        'p',
        `${list.regions} region${list.regions === 1 ? '' : 's'}${list.table ? ` of table ${list.table}` : ''} read from ${FROM[list.source]}${checked}: the design now runs on them${placedOn(list)}.`,
      ),
      ...list.notes.map(n => el('p', n)),
      vs,
    );
  }
}

/** Each region's share of the table's load now (the writes a /jmx dump counted, or
 * list_regions' REQ, which counts reads too) beside its share of this design's writes, after a
 * run on those regions; nothing when the design has left them (another pre-split, an
 * auto-split that made more regions). */
export function renderTableLoad() {
  const box = $('regions-load'),
    r = state.report;
  const onThem = current && r && JSON.stringify(state.doc?.regions?.presplit) === JSON.stringify(current.presplit);
  if (!onThem) {
    box.replaceChildren();
    return;
  }
  // The load now against this design's writes, from the engine (tableNow: the CLI's too).
  const t = wasm.tableNow(current, r);
  if (!t?.regions) {
    box.replaceChildren();
    return;
  }
  const { what, total, busiestNow: hotNow, busiestDesign: hotDesign } = t;
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
  const rows = t.regions.map((g, i) => {
    const tr = el('tr', undefined, i === hotNow || i === hotDesign ? { class: 'hot' } : {});
    tr.append(
      el('td', i),
      el('td', current.load[i].startKey || '(first)'),
      el('td', current.load[i].server ?? '–'),
      bar(g.now, 'now'),
      bar(g.design, 'design'),
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
  // server each region is on (tableNow's servers).
  const byServer = t.servers.map(s => `${s.name} ${pctText(s.now)} now, ${pctText(s.design)} with this design`);
  box.replaceChildren(
    el(
      'p',
      `The table now: region ${hotNow} takes ${pctText(t.regions[hotNow].now)} of its ${what} (${num(total)} counted since each region opened). This design: region ${hotDesign} would take ${pctText(t.regions[hotDesign].design)} of its writes.`,
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
