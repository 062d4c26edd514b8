// The reading calls of the engine's worker (worker.js): a design file, a table's regions as the
// HBase shell printed them, a Phoenix CREATE TABLE. They run in a worker of their own (readOff in
// state/io.js), never on the page's first load: worker.js imports this module when first asked.
// The readers of HBase's text and of Phoenix DDL are the speed build's (the size build leaves
// them out of the first load): a worker on the size build loads the speed build for them.

/** `E` when it has the readers, else the speed build (cached by the browser: the counting workers
 * load it after the first render). The single-file page has no speed build: it says so. */
async function withReaders(E) {
  if (E.readRegions) return E;
  let fast;
  try {
    fast = await import('../pkg/fast/rowkey_lab.js');
    await fast.default();
  } catch {
    throw Object.assign(
      new Error(
        "reading a table's regions or a CREATE TABLE needs the page's speed build, which this copy of the page (the single file) does not have: open the served page, or use the CLI (rowkey-lab regions, rowkey-lab phoenix)",
      ),
      { kind: 'unsupported' },
    );
  }
  return fast;
}

/** A design file (a File), parsed here: `{ doc, text }` (text: the design's JSON, compact). */
export async function readDesign({ file }) {
  // File.text() keeps a UTF-8 byte order mark (some Windows editors write one); JSON.parse refuses it.
  const doc = JSON.parse((await file.text()).replace(/^\uFEFF/, ''));
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a design document (a JSON object)');
  return { doc, text: JSON.stringify(doc) };
}

/** A table's regions as the HBase shell printed them (`text`, or a File) read by the engine, and
 * `doc` on them (onTableRegions): `{ list, doc }`, or `{ regions, tooLarge }` (the length of
 * that design's JSON) when it would be longer than `max`. An error at a line of a file
 * carries that line, which the page cannot show otherwise. */
export async function readTableRegions(engine, { text, file, table, doc, max }) {
  const E = await withReaders(engine);
  const source = text ?? (await file.text());
  let list;
  try {
    list = E.readRegions(source, table);
  } catch (e) {
    if (file && e.line) e.source = source.split('\n', e.line)[e.line - 1]?.slice(0, 200) ?? '';
    throw e;
  }
  const onThem = E.onTableRegions(doc, list);
  const length = JSON.stringify(onThem).length;
  if (length > max) return { regions: list.regions, tooLarge: length };
  return { list, doc: onThem };
}

/** A Phoenix CREATE TABLE (`sql`, or a File) read by the engine: `{ doc, text }` (text: the
 * design's JSON), or `{ tooLarge }` (the length of that JSON) when it is longer than `max`. An
 * error at a line carries that line as `source`, cut to 240 characters around the column
 * (`sourceColumn`, 1-based, in it): the statement may be a megabyte on one line. */
export async function readCreateTable(engine, { sql, file, max }) {
  const E = await withReaders(engine);
  const text = sql ?? (await file.text());
  let doc;
  try {
    doc = E.parseCreateTable(text);
  } catch (e) {
    if (e.line && e.column) {
      const line = text.split('\n', e.line)[e.line - 1] ?? '';
      const from = Math.max(0, e.column - 121);
      Object.assign(e, { source: line.slice(from, from + 240), sourceColumn: e.column - from });
    }
    throw e;
  }
  const json = JSON.stringify(doc);
  return json.length > max ? { tooLarge: json.length } : { doc, text: json };
}
