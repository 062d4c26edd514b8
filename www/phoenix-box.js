// A Phoenix table as the design: a pasted CREATE TABLE read by the engine (parseCreateTable: its
// primary key as pk(...) segments, SALT_BUCKETS or SPLIT ON as the pre-split, a field per key
// column), and the design on show printed back as CREATE TABLE when its key is a Phoenix
// primary key (printCreateTable). Errors are the engine's, at their line and column.
import { $, state } from './lab-state.js';
import * as wasm from './pkg/rowkey_lab.js';
import { copyText } from './state-io.js';

/** `use(doc)` puts a design read from the statement on the page (the one before is kept). */
export function wirePhoenix(use) {
  $('phoenix-apply').addEventListener('click', () => {
    const sql = $('phoenix-sql').value;
    const err = $('phoenix-error');
    let doc;
    try {
      doc = wasm.parseCreateTable(sql);
    } catch (e) {
      const line = sql.split('\n')[(e.line ?? 1) - 1] ?? '';
      err.textContent = e.line
        ? `${e.reason ?? e.message}\nline ${e.line}, column ${e.column}:\n${line}\n${' '.repeat(Math.max(0, e.column - 1))}^`
        : (e.reason ?? e.message);
      err.hidden = false;
      $('phoenix-sql').setAttribute('aria-invalid', 'true');
      $('phoenix-status').textContent = '';
      return;
    }
    err.hidden = true;
    $('phoenix-sql').removeAttribute('aria-invalid');
    $('phoenix-status').textContent = `Read: ${doc.name ?? 'the table'}.`;
    use(doc);
  });
  $('phoenix-copy').addEventListener('click', async () => {
    const ok = await copyText($('phoenix-ddl').textContent);
    $('phoenix-status').textContent = ok ? 'CREATE TABLE copied.' : 'Select the statement to copy it.';
  });
}

/** The design as CREATE TABLE, shown when its key is a Phoenix primary key. */
export function renderPhoenix() {
  let ddl = null;
  try {
    ddl = state.doc ? wasm.printCreateTable(state.doc) : null;
  } catch {
    /* not a Phoenix key: nothing to print */
  }
  $('phoenix-out').hidden = !ddl;
  $('phoenix-ddl').textContent = ddl ?? '';
}
