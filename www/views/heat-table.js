// The heatmap as a table, for a screen reader or anyone who wants the numbers: the rows and
// windows on show (the zoom applies), each cell the count the map colours. A map wider than a
// table can be read adds windows up into at most MAX_COLS columns, and lists at most MAX_ROWS
// rows; the caption says so. Imported when the table is first opened (heatmap-view.js).

import { el, num, state, when } from '../state/lab-state.js';
import { spanText } from './heat-axes.js';

const MAX_COLS = 24;
const MAX_ROWS = 200;

/** The table of `shown` (heatmap-view.js shownMatrix) into `box`. */
export function renderHeatTable(box, shown, noun) {
  const r = state.shown,
    servers = state.heat.view === 'servers';
  const { m, c0, r0 } = shown;
  const group = Math.ceil(m.cols / MAX_COLS);
  const cols = Math.ceil(m.cols / group),
    rows = Math.min(m.rows, MAX_ROWS);
  const t = el('table', undefined, { class: 'heat-table' });
  const parts = [
    `${noun} per ${servers ? 'server' : 'region'} and ${group > 1 ? `${group} windows` : 'window'} of ${spanText(r.windowMs / 1000)}`,
    group > 1 ? `, windows added up ${group} at a time` : '',
    rows < m.rows ? `; the first ${rows} of ${m.rows} rows` : '',
  ];
  t.append(el('caption', parts.join('')));
  const head = el('tr');
  head.append(el('th', servers ? 'server' : 'region (start key)', { scope: 'col' }));
  for (let g = 0; g < cols; g++)
    head.append(el('th', when(r.startTimeMs + (c0 + g * group) * r.windowMs).slice(11, 19), { scope: 'col' }));
  t.append(head);
  for (let i = 0; i < rows; i++) {
    const tr = el('tr');
    const row = r0 + i;
    const name = servers
      ? (r.servers[row]?.name ?? `server ${row}`)
      : `${row}: ${r.regions[row]?.startKey || '(first)'}`;
    tr.append(el('th', name, { scope: 'row' }));
    for (let g = 0; g < cols; g++) {
      let sum = 0;
      for (let c = g * group; c < Math.min(m.cols, (g + 1) * group); c++) sum += m.cells[i * m.cols + c];
      tr.append(el('td', num(Math.round(sum))));
    }
    t.append(tr);
  }
  box.replaceChildren(t);
}
