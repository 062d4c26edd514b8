// A Phoenix table as the design: a pasted CREATE TABLE read by the engine (parseCreateTable: its
// primary key as pk(...) segments, SALT_BUCKETS or SPLIT ON as the pre-split, a field per key
// column), and the design on show printed back as CREATE TABLE when its key is a Phoenix
// primary key (printCreateTable). Errors are the engine's, at their line and column.
// The statement is read in a worker (state/io.js readOff), never on the page's thread: a table of
// tens of thousands of columns takes the engine seconds. A statement longer than the box shows
// (BOX_MAX) is kept aside unshown, as the table-regions box does. The printer is the speed
// build's too (18 KB of gzip the first load does without): a worker on it prints the design
// on show, once per design, when its key has a primary-key segment or it names a Phoenix table.

import * as wasm from '../pkg/rowkey_lab.js';
import { BOX_MAX, copyText, DESIGN_MAX, readOff, sizeText } from '../state/io.js';
import { $, clip, docText, el, lineWithCaret, state } from '../state/lab-state.js';
import { keyChecksHere } from './key-editor.js';

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
      ddl ||= await printOff(state.doc);
    } catch (e) {
      say(`Not copied: ${clip(e.reason ?? e.message)}`);
      return;
    }
    if (!ddl) return say('Not copied: this page has no printer of Phoenix statements.');
    const ok = await copyText(ddl);
    say(ok ? 'CREATE TABLE copied.' : 'Select the statement to copy it.');
  });
}

/** The design printed as CREATE TABLE by a worker on the speed build (null where the page has
 * the size build alone, the single-file page). */
const printOff = doc => readOff('printCreateTable', { doc }, '#engine=fast');

/** The last design asked for and what its printer said. */
let printed = { doc: undefined, ddl: null, refused: null };

/** The design as CREATE TABLE, shown when its key is a Phoenix primary key. A design longer than
 * a box shows (a table of tens of thousands of columns: printing it takes the engine a fifth of
 * a second, and its megabyte of lines would stall the page) is printed only when copied.
 * A key whose segments, as the engine lays them out here, hold no `pk` segment, in a design that
 * names no Phoenix table, has nothing to print: no worker is started for it. */
export function renderPhoenix() {
  const doc = state.doc;
  const big = doc && docText().length > BOX_MAX;
  if (printed.doc !== doc) {
    const mine = { doc, ddl: null, refused: null };
    printed = mine;
    if (doc && !big && (doc.phoenix != null || mayBePhoenix(doc)))
      printOff(doc)
        .then(ddl => {
          mine.ddl = ddl;
          // the size build alone (the single-file page) has no printer
          if (ddl === null && doc.phoenix != null)
            mine.refused = 'this page has no printer of Phoenix statements; the full page prints it';
        })
        // A Phoenix table the printer refuses (an option or type that is not Phoenix's grammar,
        // a name Phoenix cannot write) says why at its path; any other key has nothing to print.
        .catch(e => {
          if (doc.phoenix != null) mine.refused = `${e.path ? `${e.path}: ` : ''}${clip(e.reason ?? e.message)}`;
        })
        .finally(() => {
          if (printed === mine) showPrinted(big);
        });
  }
  showPrinted(big);
}

/** Whether the key has a primary-key segment (a key too long to lay out here: perhaps). */
function mayBePhoenix(doc) {
  if (!keyChecksHere(doc.key)) return true;
  try {
    return (wasm.keyLayout(doc) ?? []).some(s => s.kind === 'pk');
  } catch {
    return false; // a key that does not compile prints nothing
  }
}

/** The Phoenix box as `printed` and the design's size say. */
function showPrinted(big) {
  const { ddl, refused } = printed;
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
