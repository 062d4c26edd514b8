// A Phoenix table as the design: a pasted CREATE TABLE read by the engine (parseCreateTable: its
// primary key as pk(...) segments, SALT_BUCKETS or SPLIT ON as the pre-split, a field per key
// column), and the design on show printed back as CREATE TABLE when its key is a Phoenix
// primary key (printCreateTable). Errors are the engine's, at their line and column.
// The statement is read in a worker (state/io.js readOff), never on the page's thread: a table of
// tens of thousands of columns takes the engine seconds. A statement longer than the box shows
// (BOX_MAX) is kept aside unshown, as the table-regions box does.

import * as wasm from '../pkg/rowkey_lab.js';
import { BOX_MAX, copyText, DESIGN_MAX, readOff, sizeText } from '../state/io.js';
import { $, clip, docText, el, lineWithCaret, state } from '../state/lab-state.js';

/** The longest statement (characters) the page reads: the engine's limit for a document. */
export const STATEMENT_MAX = 16 * 1024 * 1024;

/** `use(doc, text)` puts a design read from the statement on the page (the one before is kept);
 * `text` is its JSON, written by the worker. */
export function wirePhoenix(use) {
  const box = $('phoenix-sql');
  const status = $('phoenix-status');
  const err = $('phoenix-error');
  // the statement when it is not in the box: a paste too long to show there, as a Blob
  let aside = null,
    reading = null;
  const say = text => {
    status.textContent = text;
  };
  const showError = text => {
    err.textContent = text;
    err.hidden = !text;
    if (text) box.setAttribute('aria-invalid', 'true');
    else box.removeAttribute('aria-invalid');
  };
  box.addEventListener('paste', e => {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (text.length <= BOX_MAX) return;
    e.preventDefault();
    reading?.cancel();
    showError('');
    if (text.length > STATEMENT_MAX) {
      say('');
      showError(
        `Not read: the pasted statement is ${sizeText(text.length)}; the page reads statements of up to ${sizeText(STATEMENT_MAX)}.`,
      );
      return;
    }
    aside = { file: new Blob([text], { type: 'text/plain' }), size: text.length };
    box.value = '';
    box.placeholder = `The pasted statement (${sizeText(text.length)}) is too long to show here: “Use this table” reads it. Typing here drops it.`;
    say(`The pasted statement, ${sizeText(text.length)}: ready to read.`);
  });
  box.addEventListener('input', () => {
    if (!aside) return;
    aside = null;
    box.placeholder = '';
    say('');
  });
  $('phoenix-apply').addEventListener('click', async () => {
    reading?.cancel();
    const sql = aside ? null : box.value;
    const design = state.entry;
    showError('');
    say(aside ? `Reading the pasted statement (${sizeText(aside.size)})… ` : 'Reading the statement… ');
    const stop = el('button', 'Stop', { type: 'button', id: 'phoenix-stop' });
    stop.addEventListener('click', () => {
      reading?.cancel();
      say('Stopped: the design on show stays.');
    });
    status.append(stop);
    const read = readOff('parseCreateTable', { sql, file: aside?.file ?? null, max: DESIGN_MAX }, '#engine=fast');
    reading = read;
    let got;
    try {
      got = await read;
    } catch (e) {
      if (e.name === 'AbortError') return;
      say('');
      // the line (cut around the column by the worker: the statement may be one long line)
      showError(
        e.line
          ? `${clip(e.reason ?? e.message)}\nline ${e.line}, column ${e.column}:\n${lineWithCaret(e.source ?? '', 1, e.sourceColumn ?? 1)}`
          : clip(e.reason ?? e.message),
      );
      return;
    } finally {
      if (reading === read) reading = null;
    }
    if (got.tooLarge) {
      say('');
      showError(
        `The design read from this statement would be ${sizeText(got.tooLarge)} of JSON; the page opens designs of up to ${sizeText(DESIGN_MAX)}.`,
      );
      return;
    }
    // another design was put on the page while the statement was read: it stays
    if (state.entry !== design) return say('Not used: another design was opened while the statement was read.');
    // what the engine read, and what it had to invent (a statement gives the key, not the data)
    say(got.doc.description ?? `Read: ${got.doc.name ?? 'the table'}.`);
    use(got.doc, got.text);
  });
  $('phoenix-copy').addEventListener('click', async () => {
    let ddl = $('phoenix-ddl').textContent;
    try {
      ddl ||= wasm.printCreateTable(state.doc);
    } catch (e) {
      say(`Not copied: ${clip(e.reason ?? e.message)}`);
      return;
    }
    const ok = await copyText(ddl);
    say(ok ? 'CREATE TABLE copied.' : 'Select the statement to copy it.');
  });
}

/** The design as CREATE TABLE, shown when its key is a Phoenix primary key. A design longer than
 * a box shows (a table of tens of thousands of columns: printing it takes the engine a fifth of
 * a second, and its megabyte of lines would stall the page) is printed only when copied. */
export function renderPhoenix() {
  let ddl = null;
  let refused = null;
  const big = state.doc && docText().length > BOX_MAX;
  try {
    ddl = state.doc && !big ? wasm.printCreateTable(state.doc) : null;
  } catch (e) {
    // A Phoenix table the printer refuses (an option or type that is not Phoenix's grammar, a
    // name Phoenix cannot write) says why at its path; any other key has nothing to print.
    if (state.doc?.phoenix != null) refused = `${e.path ? `${e.path}: ` : ''}${clip(e.reason ?? e.message)}`;
  }
  const unshown = big && state.doc.phoenix != null;
  $('phoenix-out').hidden = !ddl && !unshown && !refused;
  $('phoenix-ddl').textContent = ddl ?? '';
  $('phoenix-ddl').hidden = !ddl;
  $('phoenix-copy').hidden = Boolean(refused);
  $('phoenix-unshown').hidden = !unshown && !refused;
  $('phoenix-unshown').textContent = refused
    ? `No CREATE TABLE is printed for this design: ${refused}`
    : unshown
      ? `This design's CREATE TABLE is too long to show here (its JSON is ${sizeText(docText().length)}): the button copies it.`
      : '';
}
