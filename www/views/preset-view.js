// The preset picker: the presets grouped by the problem they show (pkg/presets.js, from
// presets/groups/index.json), the one on show explained in a line, with a button that compares
// it with its twin (the bad design beside its fix, or the fix beside the bad one), and "New
// design" (a blank design: two fields, one region that splits as it grows).

import { blankDesign, getPreset, listPresets, presetWhy } from '../pkg/presets.js';
import { $, el, state } from '../state/lab-state.js';
import { choosing, replaceDesign, setCompared, stillChosen } from '../state/store.js';
import { comparePressed, setComparePicks } from './compare-view.js';

const presets = listPresets();
const byId = new Map(presets.map(p => [p.id, p]));

/** The picker's options (one group per problem) and its listeners; `compareTwin(ids)` runs the
 * comparison of the design on show with those. */
export function wirePresets(compareTwin) {
  const groups = new Map();
  for (const p of presets) {
    if (!groups.has(p.group)) groups.set(p.group, el('optgroup', null, { label: p.group }));
    groups.get(p.group).append(el('option', p.label, { value: p.id }));
  }
  $('preset').append(...groups.values());
  $('preset').addEventListener('change', async e => {
    const id = e.target.value;
    if (!id) return;
    const t = choosing();
    const doc = await getPreset(id);
    if (stillChosen(t)) replaceDesign(doc, { own: false, presetId: id, later: true });
  });
  $('new-design').addEventListener('click', async () => {
    const t = choosing();
    const doc = await blankDesign();
    if (stillChosen(t)) replaceDesign(doc, { later: true });
  });
  $('preset-twin').addEventListener('click', e => {
    comparePressed(e.currentTarget);
    setCompared(setComparePicks([e.currentTarget.value]));
    compareTwin();
  });
}

/** The picker and the line under it, for the design on show. */
export function renderPreset() {
  $('preset').value = state.presetId;
  const p = byId.get(state.presetId);
  $('preset-about').hidden = !p;
  if (!p) return;
  $('preset-why').textContent = presetWhy(p.id) ?? '';
  const twin = byId.get(p.twin);
  $('preset-twin').hidden = !twin;
  if (twin) {
    $('preset-twin').value = twin.id;
    $('preset-twin').textContent = `Compare with “${twin.label}”`;
  }
}

/** The compare picker's presets: each by its label, in its group. */
export const presetChoices = () => presets.map(p => ({ value: p.id, label: p.label, group: p.group }));
