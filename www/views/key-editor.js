// The row key's editor: CodeMirror 6 (www/pkg/codemirror.js, loaded after the first render)
// over the key textarea, which stays the one place the key text lives: an edit here is written
// to it with an `input` event (app.js reacts as to typing), and a key app.js puts there is
// shown here. The language's highlighting, completion (field names, the engine's functions and
// their options) and help come from the engine's schema (`designSchema().functions`) and the
// design's fields; errors are the engine's, underlined at their line and column.
import { $, el, state } from '../state/lab-state.js';

let cm = null,
  view = null,
  functions = [],
  sqlTypes = [],
  fromOutside = null;

/** The longest key (characters of its text, or of its JSON form) the page checks and lays out on
 * its own thread as it is typed. A longer one (a dict or uid table of thousands of entries)
 * would hold up every keystroke: it is checked, and its bytes laid out, by the run's worker. */
export const KEY_HERE_MAX = 64 * 1024;
const keyJsonLength = new WeakMap();
/** Is `key` (a design's key: text, or its JSON form) short enough to check here as it is typed? */
export function keyChecksHere(key) {
  if (typeof key === 'string') return key.length <= KEY_HERE_MAX;
  if (!key || typeof key !== 'object') return true;
  if (!keyJsonLength.has(key)) keyJsonLength.set(key, JSON.stringify(key).length);
  return keyJsonLength.get(key) <= KEY_HERE_MAX;
}

const isWord = c => /\w/.test(c);
/** The name (`[A-Za-z_]\w*`) that ends at `end` in `text`, or null; scanned back from `end`
 * without copying the text (a regular expression anchored at the end of a slice backtracks
 * over every start: a key of one 64 KiB word took 5 s, of 1 MiB half an hour). */
function nameBefore(text, end) {
  let from = end;
  while (from > 0 && isWord(text[from - 1])) from--;
  while (from < end && /\d/.test(text[from])) from++;
  return from < end ? text.slice(from, end) : null;
}

/** The function whose argument list holds `pos` in `text`, or the word at `pos`. */
function callAt(text, pos) {
  let depth = 0;
  for (let i = pos - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')' || c === ']') depth++;
    else if (c === '(' || c === '[') {
      if (depth === 0 && c === '(') {
        let end = i;
        while (end > 0 && /\s/.test(text[end - 1])) end--;
        const name = nameBefore(text, end);
        if (name) return name;
      }
      if (depth > 0) depth--;
    }
  }
  return nameBefore(text, pos);
}
const fnNamed = name => functions.find(f => f.name === name || f.name.toLowerCase() === name);

/** The key language's tokens: comments, strings, numbers, functions, fields, options. */
function keyLanguage() {
  return cm.StreamLanguage.define({
    name: 'rowkey',
    token(stream) {
      if (stream.eatSpace()) return null;
      if (stream.match('#')) {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.peek() === '"') {
        stream.next();
        for (let c = stream.next(); c != null; c = stream.next()) {
          if (c === '\\') stream.next();
          else if (c === '"') break;
        }
        return 'string';
      }
      if (stream.match(/^0x[0-9a-fA-F_]+/) || stream.match(/^\d[\d_]*/)) return 'number';
      const word = stream.match(/^[A-Za-z_]\w*/);
      if (word) {
        const w = word[0];
        // a call: a function, or a Phoenix type with its length (VARCHAR(11)) inside pk(...)
        if (stream.match(/^\s*\(/, false))
          return fnNamed(w) ? 'keyword' : sqlTypes.includes(w) ? 'typeName' : 'invalid';
        if (sqlTypes.includes(w)) return 'typeName';
        if (stream.match(/^\s*=/, false)) return 'propertyName';
        if ((state.doc?.fields ?? []).some(f => f.name === w)) return 'variableName';
        return 'atom';
      }
      const c = stream.next();
      if (c === '+' || c === '=') return 'operator';
      return 'punctuation';
    },
  });
}

/** Completion: field names and functions at a word; a function's options after `name(…, `. */
function complete(ctx) {
  const word = ctx.matchBefore(/[A-Za-z_]\w*/);
  if (!word && !ctx.explicit) return null;
  const from = word ? word.from : ctx.pos;
  const text = ctx.state.doc.toString();
  const inCall = callAt(text, from);
  const fn = inCall ? fnNamed(inCall) : null;
  const options = (state.doc?.fields ?? []).map(f => ({
    label: f.name,
    type: 'variable',
    detail: f.type,
    boost: 2,
  }));
  if (fn) {
    for (const m of fn.signature.matchAll(/([A-Za-z]+)=([^,)\]]*)/g))
      options.push({ label: `${m[1]}=`, type: 'property', detail: m[2] || '', info: `${fn.name} option`, boost: 1 });
  }
  for (const f of functions)
    options.push({
      label: f.name,
      type: 'function',
      detail: f.signature,
      info: f.help,
      apply: `${f.name}(`,
    });
  return { from, options, validFor: /^\w*$/ };
}

/** The help under the caret: the function it is in (or on), its signature and what it does. */
function showHelp(v) {
  const box = $('key-help');
  if (!box) return;
  const pos = v.state.selection.main.head;
  const fn = fnNamed(callAt(v.state.doc.toString(), pos) ?? '');
  box.replaceChildren();
  if (fn) box.append(el('code', fn.signature), ` ${fn.help}`);
  box.hidden = !fn;
  markChip(v.state.doc.toString(), pos);
}

/** The index of the top-level segment (between `+` outside brackets and strings) at `pos`. */
function segmentAt(text, pos) {
  let depth = 0,
    seg = 0,
    inStr = false;
  for (let i = 0; i < pos && i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '+' && depth === 0) seg++;
  }
  return seg;
}
function markChip(text, pos) {
  const chips = $('key-chips');
  if (!chips) return;
  const i = segmentAt(text, pos);
  for (const c of chips.children) c.classList.toggle('at', c.dataset.segment === String(i));
}

/** The key's byte layout as chips: name, offset, width, encoding, coloured as the sorted keys
 * (style.css's seg-N classes); null: the key does not compile, the last layout stays, dimmed. */
export function renderChips(layout) {
  const box = $('key-chips');
  if (!box) return;
  box.classList.toggle('stale', layout === null);
  if (layout === null) return;
  box.replaceChildren(
    ...layout.map((s, i) => {
      const width = s.width === 'variable' ? 'var' : `${s.width.fixed} B`;
      const chip = el('li', undefined, {
        class: `chip seg-${i % 8}`,
        'data-segment': String(i),
        title: `${s.text}: ${s.encoding}`,
      });
      chip.append(
        el('b', s.name || s.kind),
        el('span', `${s.offset === null ? 'after a variable part' : `byte ${s.offset}`} · ${width}`),
        el('small', s.encoding),
      );
      return chip;
    }),
  );
  if (view) markChip(view.state.doc.toString(), view.state.selection.main.head);
}

/** Loads CodeMirror and puts the editor over the key textarea. */
export async function mountKeyEditor(schemaFunctions, phoenixTypes = []) {
  functions = schemaFunctions;
  sqlTypes = phoenixTypes;
  const ta = $('key-text');
  if (!ta || view) return;
  cm = await import('../pkg/codemirror.js');
  fromOutside = cm.Annotation.define();
  const t = cm.tags;
  // Colours are the page's custom properties (style.css), which reach into the shadow root.
  const highlight = cm.HighlightStyle.define([
    { tag: t.keyword, color: 'var(--k-fn)', fontWeight: '600' },
    { tag: t.variableName, color: 'var(--k-field)' },
    { tag: [t.propertyName, t.atom], color: 'var(--k-opt)' },
    { tag: t.string, color: 'var(--k-str)' },
    { tag: t.number, color: 'var(--k-num)' },
    { tag: t.typeName, color: 'var(--k-num)', fontWeight: '600' },
    { tag: t.comment, color: 'var(--muted)', fontStyle: 'italic' },
    { tag: t.invalid, color: 'var(--err)', textDecoration: 'underline wavy' },
  ]);
  const theme = cm.EditorView.theme({
    // a long key (a dict of thousands of entries) scrolls inside the editor: the notes and the
    // errors below it stay in view, and CodeMirror draws only the lines in view
    '&': {
      font: '14px/1.5 ui-monospace, monospace',
      color: 'var(--fg)',
      backgroundColor: 'var(--code)',
      maxHeight: '18em',
    },
    '.cm-scroller': { overflow: 'auto' },
    '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '1px' },
    '.cm-content': { caretColor: 'var(--fg)', minHeight: '3em' },
    '.cm-tooltip': { backgroundColor: 'var(--bg)', color: 'var(--fg)', border: '1px solid var(--line)' },
    '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--bg)' },
    '.cm-completionInfo': { maxWidth: '24rem', whiteSpace: 'normal' },
    '.cm-completionDetail': { fontStyle: 'normal', color: 'var(--muted)', marginLeft: '1em' },
    '.cm-diagnostic-error': { borderLeftColor: 'var(--err)' },
  });
  // In a shadow root: CodeMirror's own styles go in as a constructed style sheet there, which
  // the page's CSP (style-src 'self', no inline <style>) allows.
  const host = el('div', undefined, { class: 'key-cm', id: 'key-cm' });
  ta.after(host);
  const root = host.attachShadow({ mode: 'open' });
  view = new cm.EditorView({
    parent: root,
    root,
    state: cm.EditorState.create({
      doc: ta.value,
      extensions: [
        cm.history(),
        cm.closeBrackets(),
        cm.bracketMatching(),
        keyLanguage(),
        cm.syntaxHighlighting(highlight),
        theme,
        cm.autocompletion({ override: [complete], icons: false }),
        cm.EditorView.lineWrapping,
        cm.keymap.of([
          ...cm.closeBracketsKeymap,
          ...cm.completionKeymap,
          ...cm.defaultKeymap,
          ...cm.historyKeymap,
          ...cm.lintKeymap,
        ]),
        cm.EditorView.contentAttributes.of({
          'aria-label': 'Row key (key language; Ctrl-Space completes field names and functions)',
          'aria-describedby': 'key-help',
        }),
        cm.EditorView.updateListener.of(u => {
          if (u.docChanged && !u.transactions.some(tr => tr.annotation(fromOutside))) {
            ta.value = u.state.doc.toString();
            ta.dispatchEvent(new Event('input', { bubbles: true }));
          }
          if (u.docChanged || u.selectionSet || u.focusChanged) showHelp(u.view);
        }),
      ],
    }),
  });
  // the textarea stays (tests, forms and the URL read it), out of sight and of the tab order
  ta.hidden = true;
  ta.closest('label')?.setAttribute('for', '');
  document.body.dataset.keyEditor = 'ready';
}

/** Does the editor have the focus (the user is typing the key)? */
export const keyEditorFocused = () => view?.hasFocus ?? false;

/** The key's `text` (the state's) into the editor, when it shows another. */
export function syncKeyEditor(text) {
  if (!view) return;
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromOutside.of(true) });
}

/** An engine error at a line and column of the key (1-based), underlined with its message;
 * none when `e` is null. */
export function showKeyError(e, offset) {
  if (!view) return false;
  const len = view.state.doc.length;
  if (!e) {
    view.dispatch(cm.setDiagnostics(view.state, []));
    return true;
  }
  const from = Math.min(offset, len);
  // the word (or character) at the spot, at least one character when the key has any
  const word = /^[\w.]+|^./.exec(view.state.doc.sliceString(from, Math.min(len, from + 64)));
  const to = Math.min(len, from + (word ? word[0].length : 0));
  view.dispatch(
    cm.setDiagnostics(view.state, [
      { from: to > from ? from : Math.max(0, from - 1), to: Math.max(to, from), severity: 'error', message: e },
    ]),
  );
  return true;
}

/** The caret at `offset`, in the editor. */
export function focusKeyAt(offset) {
  if (!view) return false;
  const at = Math.min(offset, view.state.doc.length);
  view.dispatch({ selection: { anchor: at, head: Math.min(view.state.doc.length, at + 1) }, scrollIntoView: true });
  view.focus();
  return true;
}
