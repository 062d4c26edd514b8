// encode, decode, layout: a design's row key, record by record and byte by byte.
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { hex, keyCell, out, printable, rowPrinter, table } from '../lib/format.mjs';
import { inputName } from '../lib/input.mjs';
import { loadDesign } from '../lib/io.mjs';
import { analyzeRows } from '../lib/rows.mjs';

export async function encode(pos, opt) {
  const design = await loadDesign(pos[0]);
  if (opt.records !== undefined) {
    if (opt.record !== undefined) throw new CliError(EXIT.USAGE, 'give --record or --records, not both');
    // One pass of the engine's rows reader (any format, the rows flags): each slice's keys are
    // printed before the next slice is read; a reader that has gone (`| head`) stops the reading.
    // A TSV a spreadsheet may open: the key's text never starts a formula (keyCell).
    const printer = rowPrinter(opt, r => `${r.hex}\t${keyCell(r.binary)}`);
    let count = 0;
    const stop = new AbortController();
    const print = async s => {
      const { keys, offsets } = s.takeKeys();
      const rows = [];
      for (let i = 0; i + 1 < offsets.length; i++) {
        const k = keys.subarray(offsets[i], offsets[i + 1]);
        rows.push({ hex: hex(k), binary: api.toStringBinary(k) });
      }
      count += rows.length;
      if (!(await printer.put(rows))) stop.abort();
    };
    let session = null;
    try {
      ({ session } = await analyzeRows(design, null, opt.records, opt, undefined, true, {
        keys: true,
        onSlice: print,
        signal: stop.signal,
      }));
      await print(session); // the last rows, read as the scan ended
    } catch (e) {
      if (!stop.signal.aborted) throw e;
    } finally {
      session?.free();
    }
    if (!count && !stop.signal.aborted) throw new CliError(EXIT.INPUT, `${inputName(opt.records)}: no records`);
    return printer.end();
  }
  if (opt.record === undefined) throw new CliError(EXIT.USAGE, "missing --record '{...}' or --records FILE");
  let record;
  try {
    record = JSON.parse(opt.record);
  } catch (e) {
    throw new CliError(EXIT.INPUT, `--record: ${e.message}`);
  }
  const key = engine(() => api.encodeKey(design, record));
  const res = { hex: hex(key), binary: api.toStringBinary(key) };
  out(opt, res, () => `hex     ${res.hex}\nbinary  ${res.binary}`);
}

export async function decode(pos, opt) {
  const design = await loadDesign(pos[0]);
  const key = keyArg(pos[1], opt.hex);
  const d = engine(() => api.decodeKey(design, key));
  const layout = engine(() => api.keyLayout(design));
  const segments = d.spans.map(([a, b], i) => ({
    segment: layout[i]?.text ?? '',
    start: a,
    end: b,
    bytes: api.toStringBinary(key.subarray(a, b)),
  }));
  const res = { keyHex: hex(key), key: api.toStringBinary(key), ...d, segments };
  out(opt, res, () => {
    const lines = [`key  ${res.key}`, `hex  ${res.keyHex}`, ''];
    lines.push(
      table(
        d.fields.map(f => [f.name, JSON.stringify(f.value), f.exact ? 'yes' : 'partly', f.note ?? '']),
        ['field', 'value', 'in key', 'note'],
      ),
    );
    for (const u of d.unrecoverable) lines.push(`${printable(u.field)}: not recoverable (${printable(u.reason)})`);
    lines.push(
      '',
      table(
        segments.map(s => [s.segment, `${s.start}..${s.end}`, s.bytes]),
        ['segment', 'bytes', 'text'],
        [2],
      ),
      '',
    );
    lines.push(
      d.verified === false
        ? "NOT this design's key: its fields re-encode to other bytes"
        : d.verified
          ? 'verified: the fields re-encode to this key'
          : 'not verifiable: a field the key uses is missing, drawn at random, or kept only in part where a salt or hash reads it',
    );
    return lines.join('\n');
  });
  return d.verified === false ? EXIT.BUDGET : EXIT.OK;
}

export async function layout(pos, opt) {
  const design = await loadDesign(pos[0]);
  const layout = engine(() => api.keyLayout(design));
  const width = w => (w === 'variable' ? 'variable' : `${w.fixed}`);
  out(opt, layout, () =>
    table(
      layout.map((s, i) => [
        i,
        s.offset ?? '-',
        width(s.width),
        s.text + (s.conditional ? ' (some records)' : ''),
        s.encoding,
      ]),
      ['#', 'offset', 'width', 'segment', 'bytes'],
    ),
  );
}

/** The key to decode: `<key>` as toStringBinary text, or `--hex`. */
function keyArg(text, hexText) {
  if (hexText !== undefined) {
    if (text !== undefined) throw new CliError(EXIT.USAGE, 'give the key once: <key> or --hex, not both');
    const h = String(hexText).replace(/^0x/i, '');
    const bad = h.search(/[^0-9a-fA-F]/);
    if (bad >= 0) throw new CliError(EXIT.INPUT, `--hex: "${h[bad]}" at character ${bad + 1} is not a hex digit`);
    if (h.length % 2) throw new CliError(EXIT.INPUT, `--hex: ${h.length} hex digits, not whole bytes (an even number)`);
    return Uint8Array.from(h.match(/../g) ?? [], x => parseInt(x, 16));
  }
  if (text === undefined) throw new CliError(EXIT.USAGE, 'missing <key> (as the HBase shell prints it) or --hex <hex>');
  return api.toBytesBinary(text);
}
