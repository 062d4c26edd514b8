// "Try the design on a table's current regions": what the HBase shell printed for a table
// (get_splits, list_regions, a hbase:meta scan, a SPLITS_FILE, a create statement), read by the
// engine (readRegions), becomes the design's pre-split. The rest of the design stays; the design
// before is under Recent designs (every finished run is remembered).
import * as wasm from './pkg/rowkey_lab.js';
import { $, el, state, offsetOf } from './lab-state.js';

/** Wire the box; `changed()` is called after the design took the table's regions, and
 * `compareWith(doc)` compares it with the design as it was before. */
export function wireTableRegions(changed, compareWith) {
  const text = $('regions-text'), status = $('regions-status');
  $('regions-apply').addEventListener('click', () => {
    let list;
    try { list = wasm.readRegions(text.value, $('regions-table').value.trim() || null); } catch (e) {
      text.setAttribute('aria-invalid', 'true');
      status.className = 'error';
      status.textContent = e.line ? `Line ${e.line}, column ${e.column}: ${e.reason}` : e.reason ?? e.message;
      if (e.line) {
        // the caret on the spot the engine names
        const at = offsetOf(text.value, e.line, e.column);
        text.focus();
        text.setSelectionRange(at, Math.min(text.value.length, at + 1));
      } else if (e.path === 'table') $('regions-table').focus();
      return;
    }
    text.removeAttribute('aria-invalid');
    const FROM = { regionNames: 'region names', create: 'a create statement', list: 'a list of keys', lines: 'one key per line' };
    const checked = list.source === 'regionNames' ? ` (${list.verified} checked against their MD5)` : '';
    status.className = 'muted';
    const before = state.doc;
    // Named for where it runs, so Recent designs and Compare tell the two apart.
    const where = ` — on ${list.table ? `table ${list.table}'s` : "a table's"} current regions`;
    const name = String(before.name ?? 'design').split(' — on ')[0] + where;
    const vs = el('button', 'Compare with the design before', { type: 'button', id: 'regions-compare' });
    vs.addEventListener('click', () => compareWith(before));
    status.replaceChildren(
      el('p', `${list.regions} region${list.regions === 1 ? '' : 's'}${list.table ? ` of table ${list.table}` : ''} read from ${FROM[list.source]}${checked}: the design now runs on them.`),
      ...list.notes.map(n => el('p', n)), vs);
    state.doc = { ...before, name, regions: { ...(before.regions ?? {}), presplit: list.presplit } };
    changed();
  });
}
