// The lab's way into the advisor: its options' controls and its buttons, wired from the start,
// and the Advice view (advice-view.js, with the advisor's run) loaded when Advise is first
// pressed, with the lab's helpers handed to it: a module of its own in the built page, no part of
// the first load.

import { $, docText, el, fix, num, SPEED_ONLY, state } from '../state/lab-state.js';
import { askMove, setAdvice } from '../state/store.js';
import { markOptionError, renderOption, typedOption } from './design-form.js';

const optionControls = () => [$('advice-servers'), $('advice-records')];

let hooks = { load: () => {}, compare: () => {} };
let view = null;
/** The view, loaded once, over the lab's one state and helpers; a load that failed is tried again
 * at the next press, and said meanwhile. */
const adviceView = () =>
  (view ??= import('./advice-view.js')
    .then(m => m.adviceView({ $, askMove, docText, el, fix, markOptionError, num, optionControls, state, ...hooks }))
    .catch(e => {
      view = null;
      $('advice-status').textContent = `The advisor could not be loaded: ${e.message}`;
      throw e;
    }));

/** `load(doc)` puts a candidate's design on the page; `compare(docs, roles)` compares them with
 * the one on show (see run-view.js compareWith). */
export function wireAdvice(load, compare) {
  hooks = { load, compare };
  // the options as typed, drawn from the state with the engine's ranges and defaults
  for (const input of optionControls()) {
    renderOption(input, 'AdviseOptions', state.advice[input.dataset.option]);
    input.addEventListener('input', () => setAdvice({ [input.dataset.option]: typedOption(input) }));
  }
  $('advice-run').addEventListener('click', () =>
    adviceView().then(
      v => v.runAdvice(),
      () => {},
    ),
  );
  // the single file has the size build alone: said where the advisor is offered, not when clicked
  if (document.documentElement.hasAttribute('data-single')) {
    $('advice-run').disabled = true;
    $('advice-status').textContent = `The advisor ${SPEED_ONLY} (rowkey-lab advise).`;
  }
  // (Cancel is enabled only by a run, which loaded the view)
  $('advice-cancel').addEventListener('click', () =>
    view?.then(
      v => v.stop('Cancelled.'),
      () => {},
    ),
  );
}

/** The design on show changed: the view, once loaded, stops a run for another design and draws
 * its advice again when it goes from being this design's to not, or back. */
export const adviceOnDesign = () =>
  view?.then(
    v => v.adviceOnDesign(),
    () => {},
  );
