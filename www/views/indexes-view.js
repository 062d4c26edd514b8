// The design's Phoenix secondary indexes, each the table it is, as the engine analyzed them over
// the same workload or the same rows of a file (`report.indexes`): a global index's own regions and the busiest one's share
// of each window's writes beside the data table's, the index rows each data put / update of an
// indexed column / delete writes, the bytes (estimates marked ≈, the engine's sentence saying
// how), the data-table lookups a row read through the index costs, and each index's diagnosis.
// A global index's name shows its table on the heatmap (the Table picker). Loaded by run-view.js
// after a run of a design with indexes only: no part of the first load.

import { $, bytesText, el, fix, num, pct, sentence, state } from '../state/lab-state.js';
import { setView, showTable } from '../state/store.js';
import { renderHeatmap } from './heatmap-view.js';

/** Draws the indexes of the run on show (or hides the section when the design has none). */
export function renderIndexes() {
  const r = state.report;
  const declared = state.doc?.phoenix?.indexes?.length ?? 0;
  const box = $('indexes');
  for (const e of [$('indexes-h'), box, document.querySelector('#results-nav [data-to="indexes-h"]')])
    if (e) e.hidden = !declared;
  box.replaceChildren();
  if (!declared) return;
  if (!r.indexes?.length) {
    box.append(
      el(
        'p',
        `${declared} index(es) not analyzed by this build of the page (its first, smallest engine); run the design again once the page has loaded, or use the CLI's analyze.`,
        { class: 'muted' },
      ),
    );
    return;
  }
  const m = r.metrics;
  const approx = (x, v) => (x.bytesEstimated ? `≈${v}` : v);
  const table = el('table', undefined, { class: 'deltas indexes-table' });
  const head = el('tr');
  for (const h of [
    'table',
    'kind',
    'regions',
    'busiest % mean',
    'busiest % max',
    'hotspot',
    'writes put / upd / del',
    'bytes per row',
    'bytes',
    'lookups per row',
  ])
    head.append(el('th', h, { scope: 'col' }));
  table.append(head);
  const row = cells => {
    const tr = el('tr');
    const th = el('th', undefined, { scope: 'row' });
    th.append(cells[0]);
    tr.append(th, ...cells.slice(1).map(c => el('td', c)));
    return tr;
  };
  table.append(
    row([
      `${state.doc?.phoenix?.table ?? 'data table'} (data)`,
      '',
      num(r.regions.length),
      pct(m.meanBusiestShare),
      pct(m.maxBusiestShare),
      fix(m.meanHotspotFactor),
      '',
      '',
      bytesText(r.bytes),
      '',
    ]),
  );
  for (const x of r.indexes) {
    // a global index's name shows its own table on the heatmap
    const name = x.report ? el('button', x.name, { type: 'button', class: 'inline', 'data-index': x.name }) : x.name;
    if (x.report) name.addEventListener('click', () => showOnMap(x.name));
    table.append(
      row([
        name,
        x.kind,
        x.kind === 'local' ? "the data table's" : num(x.regionsOfItsOwn),
        pct(x.busiestShare),
        pct(x.maxBusiestShare),
        fix(x.hotspotFactor),
        `${x.writes.put} / ${x.writes.updateIndexed} / ${x.writes.delete}`,
        approx(x, fix(x.bytesPerRow, 1)),
        approx(x, bytesText(x.bytes)),
        String(x.dataLookupsPerRow),
      ]),
    );
  }
  const wrap = el('div', undefined, { class: 'table-wrap' });
  wrap.append(table);
  box.append(
    wrap,
    el(
      'p',
      "Busiest %: the busiest region's share of a time window's writes, mean and largest over the windows; hotspot: the busiest region ÷ the mean one. Writes: the index rows one data put, one update of an indexed column and one delete write (Phoenix 5's consistent global indexes write an unverified row before the data and a verifying one after). Lookups per row: the data-table reads a row read through the index costs. An index's name shows its table on the heatmap.",
      { class: 'muted' },
    ),
  );
  const notes = el('ul', undefined, { class: 'diagnosis-more' });
  for (const x of r.indexes) {
    for (const d of x.report?.diagnosis ?? []) notes.append(el('li', `${x.name}: ${sentence(d)}`));
    for (const e of x.estimates) notes.append(el('li', `≈ ${x.name}: ${sentence(e)}`, { class: 'muted' }));
  }
  if (notes.childElementCount) box.append(notes);
}

/** Index `name`'s table on the heatmap, scrolled to. */
function showOnMap(name) {
  showTable(name);
  setView({}); // the link says which table
  renderHeatmap();
  $('heat-h').scrollIntoView({ block: 'start' });
}
