// The lab's way into the advisor: its options' controls and its buttons, wired from the start,
// and the Advice view (advice-view.js, with the advisor's run) loaded when Advise is first
// pressed, with the lab's helpers handed to it: a module of its own in the built page, no part of
// the first load.

import { $, docText, el, fix, num, SPEED_ONLY, state } from '../state/lab-state.js';
import { askMove, setAdvice } from '../state/store.js';
import { markOptionError, renderOption, typedOption } from './design-form.js';

const optionControls = () => [$('advice-servers'), $('advice-records')];
/** The status when the design on show changes under a run, or while the view loads for a press. */
const SWITCHED = 'Stopped: the design changed while the advisor ran. Run it again for the design on show.';

let hooks = { load: () => {}, compare: () => {} };
let view = null;
/** The design (its JSON text) Advise was pressed for while the view was loading, until it runs. */
let pressed = null;
/** The view, loaded once, over the lab's one state and helpers; a load that failed is tried again
 * at the next press, and said meanwhile. */
const adviceView = () =>
  (view ??= import('./advice-view.js')
    .then(m =>
      m.adviceView({
        $,
        askMove,
        docText,
        el,
        fix,
        markOptionError,
        num,
        optionControls,
        state,
        switched: SWITCHED,
        ...hooks,
      }),
    )
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
  // Advise runs for the design on show when pressed: a change of design while the view loads
  // drops the press (adviceOnDesign says so), and a second press meanwhile is the same one
  $('advice-run').addEventListener('click', () => {
    const asked = docText();
    pressed = asked;
    adviceView().then(
      v => {
        if (pressed !== asked) return;
        pressed = null;
        v.runAdvice();
      },
      () => {
        pressed = null;
      },
    );
  });
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

/** The design on show changed: a press still waiting for the view is dropped, said at once; the
 * view, once loaded, stops a run for another design and draws its advice again when it goes from
 * being this design's to not, or back. */
export function adviceOnDesign() {
  if (pressed !== null && pressed !== docText()) {
    pressed = null;
    $('advice-status').textContent = SWITCHED;
  }
  view?.then(
    v => v.adviceOnDesign(),
    () => {},
  );
}
