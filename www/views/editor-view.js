// The design's editors: the row key (its text, checked as it is typed, and its byte layout), the
// JSON editor, the forms, the analysis options, the error box that points at the spot, and the
// note on examples whose recorded keys the key no longer writes. Drawn from the state; a box the
// user is typing in keeps its text.

import * as wasm from '../pkg/rowkey_lab.js';
import { BOX_MAX, sizeText } from '../state/io.js';
import { $, clip, docText, el, lineWithCaret, offsetOf, STALE, state } from '../state/lab-state.js';
import { designInvalid, replaceDesign } from '../state/store.js';
import { markFormError, markOptionError, renderForms, renderOption } from './design-form.js';
import {
  focusKeyAt,
  KEY_HERE_MAX,
  keyChecksHere,
  keyEditorFocused,
  renderChips,
  showKeyError,
  syncKeyEditor,
} from './key-editor.js';
import { keyAsText } from './key-text.js';
import { toHex } from './keys-view.js';
import { renderPreset } from './preset-view.js';
import { branch, draftText } from './recent-view.js';

/** The engine's error `e` (null: none) at its place: the form's control, the key's spot, the
 * JSON editor's line and column, and the box under the editor. */
export function showError(e) {
  markFormError(e);
  markOptionError(e, $('windows'), $('sample-size'));
  const box = $('design-error');
  for (const id of ['key-text', 'doc-json']) $(id).removeAttribute('aria-invalid');
  $('goto-error').hidden = true;
  if (!e) {
    showKeyError(null);
    box.hidden = true;
    box.textContent = '';
    return;
  }
  // The text the line and column count in: the design document as the JSON editor holds it
  // (e.in), or the key text (errors under /key).
  const where = e.in ?? (String(e.path ?? '').startsWith('/key') ? 'key-text' : null);
  const located = e.line && e.column && where;
  // With the caret drawn below, the reason is enough (the message's own "(line …, column …)"
  // would say it twice); engine messages often start with the JSON path: name it only once.
  const msg = clip(located && e.reason ? e.reason : e.message);
  let text = e.path && !msg.includes(e.path) ? `${msg} (at ${e.path})` : msg;
  const inKey = located && where === 'key-text';
  // the key editor underlines the spot itself: the box then names the line and column only
  const underlined = inKey && showKeyError(text, offsetOf($(where).value, e.line, e.column));
  if (!inKey) showKeyError(null);
  if (located) {
    const source = $(where).value;
    text += underlined
      ? ` (line ${e.line}, column ${e.column}, underlined in the key)`
      : `\nline ${e.line}, column ${e.column}:\n${lineWithCaret(source, e.line, e.column)}`;
    $(where).setAttribute('aria-invalid', 'true');
    const go = $('goto-error');
    go.hidden = false;
    go.onclick = () => {
      const at = offsetOf(source, e.line, e.column);
      if (inKey && focusKeyAt(at)) return;
      const ta = $(where);
      ta.closest('details')?.setAttribute('open', '');
      ta.focus();
      ta.setSelectionRange(at, Math.min(source.length, at + 1));
    };
  }
  box.textContent = text;
  box.hidden = false;
  $('diagnosis').textContent = '';
}

/** The JSON editor's text as typed, when it does not parse: the engine's error at its line and
 * column (the design that runs is checked in the worker, see worker.js's designOf). */
export function checkTyped() {
  try {
    wasm.validateDesign(draftText() ?? docText());
  } catch (e) {
    designInvalid(STALE());
    showError({ message: e.message, reason: e.reason, line: e.line, column: e.column, path: e.path, in: 'doc-json' });
  }
}

/** Parse the key text as it is typed; a parse error is shown at its line and column and the
 * (slower) analysis is not started. Returns true when the text parses. */
export function parseTyped() {
  const text = state.doc?.key;
  // a key in its JSON form, or one too long to check here: the run checks it, in its worker
  if (typeof text !== 'string' || !keyChecksHere(text)) return true;
  try {
    wasm.parseKey(text);
  } catch (e) {
    designInvalid(STALE());
    showError({ message: e.reason ?? e.message, line: e.line, column: e.column, path: '/key' });
    return false;
  }
  return true;
}

// Does the JSON editor hold the design on show (the one that runs)? Not when the design is
// longer than a text box holds (BOX_MAX): the editor then says so instead.
let jsonShown = true;
/** The JSON editor's text when it holds the design on show (for errors at its lines), else null. */
export const editorText = () => (jsonShown ? $('doc-json').value : null);
/** The editors from the state; a box the user is typing in keeps its text, unless the design was
 * `replaced` (another design took its place: the box shows it wherever the cursor was). */
export function renderEditor(replaced = false) {
  const typing = id => !replaced && (document.activeElement === $(id) || (id === 'key-text' && keyEditorFocused()));
  if (!typing('key-text')) {
    const key = keyAsText(state.doc?.key) ?? '';
    $('key-text').value = key;
    syncKeyEditor(key);
  }
  renderLayout();
  if (!typing('doc-json')) {
    // the text typed there that did not parse goes to Recent designs before it is replaced
    if (draftText() !== null) branch();
    const text = docText();
    jsonShown = text.length <= BOX_MAX;
    // (assigned only when it differs: a new value lays the text out again)
    const json = jsonShown ? JSON.stringify(state.doc, null, 2) : '';
    if ($('doc-json').value !== json) $('doc-json').value = json;
    $('doc-json').readOnly = !jsonShown;
    $('json-note').hidden = jsonShown;
    $('json-note').textContent = jsonShown
      ? ''
      : `This design's JSON is ${sizeText(text.length)}, longer than the editor here shows (${sizeText(BOX_MAX)}): the page would stall drawing it. Export the JSON to edit it elsewhere, then import it again; the row key above stays editable.`;
  }
  renderForms();
  renderKeyNote();
  renderPreset();
  renderOptions(typing);
}
/** The analysis options' controls, from the state (a box being typed in keeps its text). */
export function renderOptions(typing = () => false) {
  for (const id of ['windows', 'sample-size'])
    if (!typing(id)) renderOption($(id), 'AnalyzeOptions', state[$(id).dataset.option]);
}

/** The key's byte layout under the editor (kept as it was while the design does not compile);
 * a key too long to lay out here is laid out by the run's worker (its message 'layout'). */
function renderLayout() {
  if (!keyChecksHere(state.doc?.key)) return renderChips(null);
  try {
    renderChips(wasm.keyLayout(state.doc) ?? []);
  } catch {
    renderChips(null); // the error is shown where it is
  }
}

/** Says when the key is too long to be checked as it is typed (see KEY_HERE_MAX). */
function renderKeyNote() {
  const key = state.doc?.key;
  const note = $('key-note');
  const here = keyChecksHere(key);
  note.hidden = here;
  note.textContent = here
    ? ''
    : `This key is ${sizeText(typeof key === 'string' ? key.length : JSON.stringify(key).length)}, longer than the page checks as you type (${sizeText(KEY_HERE_MAX)}): it is checked, and its bytes laid out, in the worker when it runs, a moment after you stop typing.`;
}

/** The design's examples whose recorded row key this key no longer writes (the linter's
 * `example-key` findings, `moved`, which the worker posts before a run), named under the key
 * editor as it is typed: such a change leaves the rows already stored under the old keys out
 * of reach, which the heatmap cannot show. */
export function showExamples(moved) {
  const box = $('examples-note');
  box.replaceChildren();
  box.hidden = !moved.length;
  if (!moved.length) return;
  const recorded = (state.doc.examples ?? []).filter(ex => ex.key != null || ex.keyBinary != null).length;
  const what = `${moved.length} of the design's ${recorded} example${recorded === 1 ? '' : 's'}`;
  const list = el('details');
  list.append(el('summary', 'which, and what the key writes now'));
  const ul = el('ul');
  for (const f of moved) ul.append(el('li', f.message.replace(/; rows stored under .*$/, '')));
  list.append(ul);
  const rewrite = el('button', 'Write the new keys into the examples', { type: 'button' });
  rewrite.onclick = rewriteExamples;
  box.append(
    el('strong', `This key writes other bytes for ${what}.`),
    el(
      'span',
      ' Rows already stored under their keys would be out of reach of its gets and scans: a deliberate change needs the table rewritten, and the examples updated. ',
    ),
    rewrite,
    list,
  );
}

/** The key change is deliberate: every example that records a key gets the one this design
 * writes (`key` in hex, `keyBinary` as toStringBinary, whichever it had), so the exported design
 * passes `rowkey-lab check`. A record the design cannot write keeps its key and stays named;
 * the design before is under Recent designs. */
function rewriteExamples() {
  const doc = state.doc;
  const examples = (doc.examples ?? []).map(ex => {
    if (ex.key == null && ex.keyBinary == null) return ex;
    let k;
    try {
      k = wasm.encodeKey(doc, ex.record);
    } catch {
      return ex;
    }
    return {
      ...ex,
      ...(ex.key != null ? { key: toHex(k) } : {}),
      ...(ex.keyBinary != null ? { keyBinary: wasm.toStringBinary(k) } : {}),
    };
  });
  replaceDesign({ ...doc, examples });
}
