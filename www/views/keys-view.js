// The sorted-keys view: the key sample in HBase order, virtualized (only the rows in view exist
// in the DOM), each key's segments coloured by the design's layout (keyLayout, and KeyCodec.spans), the
// region and server on each row, a region boundary line, and the decoded record on hover
// (KeyCodec.decode -> the row's title). All text goes through textContent.
import * as wasm from '../pkg/rowkey_lab.js';

export const ROW_H = 22;
const OVERSCAN = 8;
const SEGMENT_CLASSES = 8; // seg-0 … seg-7 in style.css (colour-blind-safe Okabe–Ito hues)

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
export const toHex = bytes => Array.from(bytes, b => HEX[b]).join('');

// Bytes.toStringBinary, one byte at a time (checked against the engine's version per key).
const PRINTABLE = new Set(Array.from(' `~!@#$%^&*()-_=+[]{}|;:\'",.<>/?', c => c.charCodeAt(0)));
const BYTE_TEXT = Array.from({ length: 256 }, (_, b) =>
  (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || PRINTABLE.has(b)
    ? String.fromCharCode(b)
    : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`,
);
function binaryText(bytes, a, b) {
  let t = '';
  for (let i = a; i < b; i++) t += BYTE_TEXT[bytes[i]];
  return t;
}

/**
 * A key's toStringBinary text as nodes, each space (byte 0x20, which toStringBinary prints as
 * itself) kept and marked: HTML would drop a leading one, and an unmarked one is easy to miss,
 * so a key starting with the salt byte 0x20 would look a byte shorter. Copying gives the text.
 */
export function keyNodes(text) {
  const f = document.createDocumentFragment();
  text.split(' ').forEach((part, i) => {
    if (i) f.append(el('span', ' ', 'sp'));
    if (part) f.append(part);
  });
  return f;
}

function fieldText(f) {
  const v = typeof f.value === 'object' ? JSON.stringify(f.value) : String(f.value);
  return `${f.name} = ${v}${f.exact === false ? ' (approximate)' : ''}`;
}

export class KeysView {
  /** `root`: an element to fill (scroller + legend are created inside it). */
  constructor(root) {
    this.root = root;
    this.legend = el('ul', undefined, 'legend');
    this.legend.setAttribute('aria-label', 'key segments');
    this.scroller = el('div', undefined, 'vscroll');
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'table');
    this.scroller.setAttribute('aria-label', 'sorted key sample');
    this.head = el('div', undefined, 'krow khead');
    this.head.setAttribute('role', 'row');
    for (const [t, c] of [
      ['region', 'kreg'],
      ['server', 'ksrv'],
      ['toStringBinary', 'kkey'],
      ['hex', 'khex'],
    ]) {
      const h = el('span', t, c);
      h.setAttribute('role', 'columnheader');
      this.head.append(h);
    }
    this.spacer = el('div', undefined, 'vspacer');
    this.rowsBox = el('div', undefined, 'vrows');
    this.spacer.append(this.rowsBox);
    this.scroller.append(this.head, this.spacer);
    this.count = el('p', '', 'muted');
    root.replaceChildren(this.legend, this.scroller, this.count);
    this.sample = { keys: new Uint8Array(0), offsets: Uint32Array.of(0), regions: new Uint32Array(0) };
    this.cache = new Map();
    this.frame = 0;
    this.scroller.addEventListener('scroll', () => {
      if (!this.frame)
        this.frame = requestAnimationFrame(() => {
          this.frame = 0;
          this.draw();
        });
    });
    // the decoded record as the row's tooltip, decoded on first hover
    this.rowsBox.addEventListener('mouseover', ev => {
      const row = ev.target.closest?.('.krow');
      if (row && !row.title) row.title = this.title(Number(row.dataset.index));
    });
    this.scroller.addEventListener('keydown', ev => {
      const page = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_H) - 1) * ROW_H;
      const by = { ArrowDown: ROW_H, ArrowUp: -ROW_H, PageDown: page, PageUp: -page }[ev.key];
      if (by) {
        this.scroller.scrollTop += by;
        ev.preventDefault();
      } else if (ev.key === 'Home') {
        this.scroller.scrollTop = 0;
        ev.preventDefault();
      } else if (ev.key === 'End') {
        this.scroller.scrollTop = this.scroller.scrollHeight;
        ev.preventDefault();
      }
    });
  }

  /** Show a report's sample for `doc`. */
  set(doc, report) {
    this.doc = doc;
    // The design compiled once for every row drawn (keySpans and decodeKey compile it per call:
    // a second for a large design's visible rows).
    this.codec?.free();
    try {
      this.codec = new wasm.KeyCodec(doc);
    } catch {
      this.codec = null;
    }
    this.sample = report.sample;
    this.regions = report.regions;
    // boundaries made by auto-split events, by the new region's start key
    this.splitAt = new Map((report.splits ?? []).map(sp => [sp.splitKeyHex, sp]));
    this.cache.clear();
    let layout = [];
    try {
      layout = wasm.keyLayout(doc) ?? [];
    } catch {
      /* the legend is optional */
    }
    this.layout = layout;
    this.legend.replaceChildren(
      ...layout.map((s, i) => {
        const li = el('li', undefined, `seg-${i % SEGMENT_CLASSES}`);
        li.append(el('span', '', 'swatch'), el('span', s.name || s.kind));
        li.title = `${s.text ?? ''} — ${s.encoding ?? ''}`;
        return li;
      }),
    );
    const n = this.sample.regions.length;
    this.spacer.style.height = `${n * ROW_H}px`;
    this.count.textContent = `${n.toLocaleString('en')} sampled keys; hover a row for the decoded record.`;
    this.scroller.scrollTop = 0;
    this.draw();
  }

  info(i) {
    let v = this.cache.get(i);
    if (v) return v;
    // The sample is typed arrays (report.sample): key i is keys[offsets[i]..offsets[i + 1]].
    const { keys, offsets } = this.sample;
    const bytes = keys.subarray(offsets[i], offsets[i + 1]);
    let spans = null;
    try {
      spans = this.codec ? this.codec.spans(bytes) : null;
    } catch {
      spans = null;
    }
    const text = wasm.toStringBinary(bytes);
    const jsText = binaryText(bytes, 0, bytes.length) === text;
    v = { bytes, hex: toHex(bytes), text, spans, jsText, title: null };
    if (this.cache.size > 4000) this.cache.clear();
    this.cache.set(i, v);
    return v;
  }

  /** The decoded record, computed when a row is first hovered. */
  title(i) {
    const info = this.info(i);
    if (info.title === null) {
      try {
        if (!this.codec) throw new Error('the design does not compile');
        const d = this.codec.decode(info.bytes);
        info.title = d.fields.map(fieldText).join('\n');
        if (d.unrecoverable?.length) info.title += `\nnot recoverable from the key: ${d.unrecoverable.join(', ')}`;
      } catch (e) {
        info.title = `cannot decode: ${e.message}`;
      }
    }
    return info.title;
  }

  segmented(cls, info, hex) {
    const cell = el('span', undefined, cls);
    const text = (a, b) =>
      hex
        ? info.hex.slice(a * 2, b * 2)
        : info.jsText
          ? binaryText(info.bytes, a, b)
          : wasm.toStringBinary(info.bytes.subarray(a, b));
    const spans = info.spans;
    const piece = (t, cls) => {
      const e = el('span', undefined, cls);
      e.append(hex ? t : keyNodes(t));
      return e;
    };
    if (!spans?.length) {
      cell.append(hex ? info.hex : keyNodes(info.text));
      return cell;
    }
    let at = 0;
    spans.forEach(([a, b], k) => {
      if (a > at) cell.append(piece(text(at, a)));
      if (b > a) cell.append(piece(text(a, b), `seg seg-${k % SEGMENT_CLASSES}`));
      at = Math.max(at, b);
    });
    if (at < info.bytes.length) cell.append(piece(text(at, info.bytes.length)));
    return cell;
  }

  draw() {
    const { regions: reg } = this.sample;
    const n = reg.length;
    const top = this.scroller.scrollTop;
    const h = this.scroller.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
    const last = Math.min(n, Math.ceil((top + h) / ROW_H) + OVERSCAN);
    const rows = [];
    for (let i = first; i < last; i++) {
      const region = reg[i];
      const info = this.info(i);
      const boundary = i > 0 && reg[i - 1] !== region;
      const split = boundary ? this.splitAt.get(this.regions?.[region]?.startKeyHex) : undefined;
      const row = el('div', undefined, split ? 'krow boundary split' : boundary ? 'krow boundary' : 'krow');
      row.setAttribute('role', 'row');
      row.style.top = `${i * ROW_H}px`;
      const server = this.regions?.[region]?.server;
      const cell = el('span', split ? `${region} ✂` : region, 'kreg');
      if (split) {
        cell.title = `region ${region} starts at a boundary made by an auto-split at ${new Date(split.timeMs).toISOString()}`;
        row.dataset.splitTimeMs = String(split.timeMs);
      }
      row.append(
        cell,
        el('span', server ?? '–', 'ksrv'),
        this.segmented('kkey', info, false),
        this.segmented('khex', info, true),
      );
      for (const c of row.children) c.setAttribute('role', 'cell');
      row.dataset.index = String(i);
      rows.push(row);
    }
    this.rowsBox.replaceChildren(...rows);
  }
}
