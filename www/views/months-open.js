// The lab's way into Months (months-view.js, with its pictures in months-charts.js): the button
// that loads the view, a module of its own in the built page, and hands it the lab's helpers (the
// one state and its named change, the worker call, the heatmap's drawing and zoom), so the view imports
// none of the lab's modules and is no part of the first load.

import { readOff } from '../state/io.js';
import { $, bytesText, docText, el, fix, num, SPEED_ONLY, state } from '../state/lab-state.js';
import { setLife } from '../state/store.js';
import { showTooltip } from './heat-axes.js';
import { heatZoom } from './heat-zoom.js';
import { drawMatrix, PALETTE } from './heatmap.js';

/** The lab's helpers for the view. */
const helpers = () => ({
  $,
  bytesText,
  docText,
  el,
  fix,
  num,
  readOff,
  setLife,
  state,
  heat: { drawMatrix, heatZoom, PALETTE, showTooltip },
});

/** Months opened: the view loaded (once) and drawn; its settings go into the link from now on. */
export const openMonths = () =>
  import('./months-view.js').then(m => {
    m.openMonths(helpers());
    setLife({ open: true });
  });

/** A link that carries Months' settings (`state.life.open`): the view drawn from them and
 * simulated, as the page showed it when the link was copied. */
export const monthsFromLink = () =>
  state.life.open ? import('./months-view.js').then(m => m.openMonths(helpers(), { simulate: true })) : null;

/** The design on show changed: the Months view, when it was opened, says whether its months are
 * still the design's (months-view.js designChanged). */
export const monthsOnDesign = () => (state.life.open ? import('./months-view.js').then(m => m.designChanged()) : null);

/** The lab's "Simulate months…" button. */
export function wireMonths() {
  $('months-open').addEventListener('click', openMonths);
  // the single file has the size build alone: said where Months is offered, not when clicked
  if (document.documentElement.hasAttribute('data-single')) {
    $('months-open').disabled = true;
    $('months-open').after(
      el('span', ` Months of life ${SPEED_ONLY} (rowkey-lab life).`, { class: 'status', id: 'months-single' }),
    );
  }
}
