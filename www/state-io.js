// State in and out of the page: copy-link, recent designs (localStorage), design JSON import and
// export, heatmap PNG and metrics CSV downloads. No network: files go through Blob URLs.
// Files and long texts are read in a worker (readOff), after a size check that needs no reading;
// the limits are the page's own, explained in docs/limits.md.

import { startWorker } from './boot.js';

/** The largest design file (bytes) or pasted design (characters) the page opens. It holds a
 * design at the engine's own limit of regions (100,000 split keys: about 1.5 MiB), and opening
 * one this size makes no long task; drawing its results still does (docs/limits.md). */
export const DESIGN_MAX = 2 * 1024 * 1024;
/** The largest region text (a file's bytes, a paste's characters) the page reads. */
export const REGION_TEXT_MAX = 64 * 1024 * 1024;
/** The most text (characters) the page puts in a text box: a box with more stalls the page
 * while the browser lays it out. Longer designs and region texts are kept but not shown. */
export const BOX_MAX = 256 * 1024;

const RECENT_KEY = 'rowkey-lab:recent';
/** Recent designs: at most this many, each of at most RECENT_ENTRY_MAX characters, all of
 * them together at most RECENT_TOTAL_MAX (localStorage holds 5 MiB or so per site, counted in
 * UTF-16; the oldest go first). A design too large to keep is said so, never dropped quietly. */
const RECENT_MAX = 10;
export const RECENT_ENTRY_MAX = 1024 * 1024;
const RECENT_TOTAL_MAX = 2 * 1024 * 1024;

/** `n` bytes or characters as people read them: "812 B", "37 KiB", "2.4 MiB". */
export function sizeText(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.ceil(n / 1024)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Offer `blob` as a download named `name`. */
export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

/** Recent designs, most recent first: `{ id, at, presetId, label, text, draft, base }`, `text`
 * the design's JSON, or (`draft`) what the JSON editor held that does not parse, kept as typed,
 * with `base` the JSON of the last design that did. */
export function recentList() {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(v) ? v.map(fromStored).filter(r => r !== null) : [];
  } catch {
    return [];
  }
}
/** A stored entry, or one written before entries had ids (`{ doc, presetId, at }`); else null. */
function fromStored(r) {
  if (typeof r?.id === 'string' && typeof r.text === 'string' && (!r.draft || typeof r.base === 'string')) return r;
  if (r?.doc && typeof r.doc === 'object') {
    const at = Number(r.at) || 0;
    const label = r.doc.name ?? (typeof r.doc.key === 'string' ? r.doc.key : 'design');
    return { id: `r${at}`, at, presetId: r.presetId ?? '', label, text: JSON.stringify(r.doc), draft: false };
  }
  return null;
}

/** A new entry id. */
export const newEntryId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Keep `entry` first under Recent designs, in place of the entry with its id and of any other
 * with the same text. Returns null when kept, else why not: `{ tooLarge: characters }` or
 * `{ refused: the browser's reason }` (storage full or turned off). */
export function keep(entry) {
  const size = r => r.text.length + (r.base?.length ?? 0) + r.label.length;
  if (size(entry) > RECENT_ENTRY_MAX) return { tooLarge: size(entry) };
  const list = [entry, ...recentList().filter(r => r.id !== entry.id && r.text !== entry.text)];
  let n = 0;
  for (let total = 0; n < Math.min(list.length, RECENT_MAX); n++) {
    total += size(list[n]);
    if (total > RECENT_TOTAL_MAX) break;
  }
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, Math.max(1, n))));
    return null;
  } catch (e) {
    return { refused: e?.name ?? String(e) };
  }
}

/** One read off this thread (a design file, a table's region text) by a worker of its own, so
 * that a run under way neither waits for it nor is held up by it. Resolves to the worker's
 * answer, rejects with its error (`{ message, … }`, `cancelled` when cancel() ended it). */
export function readOff(message) {
  const w = startWorker();
  let settle;
  const answer = new Promise((resolve, reject) => {
    settle = (data, failed) => {
      w.terminate();
      (failed ? reject : resolve)(data);
    };
  });
  w.onmessage = ({ data }) => settle(data.kind === 'error' ? data.error : data, data.kind === 'error');
  w.onerror = e => settle({ message: e.message || 'the reader stopped' }, true);
  w.postMessage({ id: 0, ...message });
  return Object.assign(answer, { cancel: () => settle({ message: 'cancelled', cancelled: true }, true) });
}

/** Copy `text` to the clipboard; false when the browser refuses. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A PNG of a pixel canvas scaled up by whole pixels (no smoothing), at least ~`min` px wide. */
export function canvasPng(src, min = 768) {
  const kx = Math.max(1, Math.ceil(min / src.width)),
    ky = Math.max(1, Math.ceil(min / 2 / src.height));
  const c = document.createElement('canvas');
  c.width = src.width * kx;
  c.height = src.height * ky;
  const ctx = c.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(src, 0, 0, c.width, c.height);
  return new Promise((resolve, reject) =>
    c.toBlob(b => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

const csvCell = v => {
  const s = v == null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const csvLine = cells => cells.map(csvCell).join(',');

/** The metrics of a report as CSV: summary metrics, then one line per time window. */
export function metricsCsv(report, summary) {
  const lines = [csvLine(['metric', 'value', 'meaning'])];
  for (const [name, value, meaning] of summary) lines.push(csvLine([name, value, meaning]));
  lines.push('');
  const cols = [
    'window',
    'startTime',
    'total',
    'max',
    'busiestRegion',
    'hotspotFactor',
    'busiestShare',
    'activeRegions',
    'emptyRegions',
    'gini',
    'coefficientOfVariation',
    'effectiveParallelism',
  ];
  lines.push(csvLine(cols));
  report.metrics.perWindow.forEach((w, i) => {
    lines.push(
      csvLine([i, new Date(report.startTimeMs + i * report.windowMs).toISOString(), ...cols.slice(2).map(k => w[k])]),
    );
  });
  return `${lines.join('\n')}\n`;
}
