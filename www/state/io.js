// State in and out of the page: copy-link, recent designs (localStorage), design JSON import and
// export, heatmap PNG and metrics CSV downloads. No network: files go through Blob URLs.
// Files and long texts are read in a worker (readOff), after a size check that needs no reading;
// the limits are the page's own, explained in docs/limits.md.

import { fromStored, makeRoom, RECENT_INLINE_MAX, RECENT_STORED_MAX } from './recent-list.js';

export { RECENT_STORED_MAX };

/** The largest design file (bytes) or pasted design (characters) the page opens. It holds a
 * design at the engine's own limit of regions (100,000 split keys: about 1.5 MiB), and opening
 * one this size makes no long task; drawing its results still does (docs/limits.md). */
export const DESIGN_MAX = 2 * 1024 * 1024;
/** The largest region text (a file's bytes, a paste's characters) the page reads. */
export const REGION_TEXT_MAX = 64 * 1024 * 1024;
/** The most text (characters) the page puts in a text box: a box with more stalls the page
 * while the browser lays it out, and on select-all (Chromium's selection sync grows with the
 * square of the text: 32 KiB 0.27 s, 64 KiB 0.8 s, 256 KiB 26 s on this page, docs/limits.md).
 * Longer designs and region texts are kept but not shown. */
export const BOX_MAX = 64 * 1024;

const RECENT_KEY = 'rowkey-lab:recent';

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

// ---- Recent designs ---------------------------------------------------------------------------
/** Ids of entries found damaged when read (their text is not a design's JSON). */
const damaged = new Set();
/** Whether the stored list as a whole could not be read (it is then set aside under
 * UNREADABLE_KEY, not overwritten, until the user forgets it). */
let listDamaged = false;
const UNREADABLE_KEY = 'rowkey-lab:recent:unreadable';

/** The stored list: `list`, the entries the page can read (see recentList), and `unread`, those
 * it cannot, as stored. Unreadable entries stay stored (a newer page may have written them) and
 * out of the list, until the user forgets them (forgetDamaged). Read again only when the stored
 * text or what is known damaged changed: the list is asked for several times per change kept,
 * and may be 2 MiB of JSON. */
let lastRead = { raw: undefined, damaged: -1, got: null };
function readStored() {
  const raw = localStorage.getItem(RECENT_KEY);
  if (raw === lastRead.raw && damaged.size === lastRead.damaged) return lastRead.got;
  const got = parseStored(raw);
  lastRead = { raw, damaged: damaged.size, got };
  return got;
}
function parseStored(raw) {
  let v = null;
  try {
    v = JSON.parse(raw ?? '[]');
  } catch {
    /* below */
  }
  if (!Array.isArray(v)) {
    listDamaged = true;
    // set aside once, before the next write replaces it
    if (localStorage.getItem(UNREADABLE_KEY) === null) localStorage.setItem(UNREADABLE_KEY, raw);
    return { list: [], unread: [] };
  }
  const list = [],
    unread = [];
  for (const r of v) {
    const e = fromStored(r);
    if (e && !damaged.has(e.id)) list.push(e);
    else unread.push(r);
  }
  return { list, unread };
}
/** Recent designs, most recent first: `{ id, at, presetId, label, edited, text, draft, base }`,
 * `text` the design's JSON, or (`draft`) what the JSON editor held that does not parse, kept as
 * typed, with `base` the JSON of the last design that did; `edited` false for a preset or a link
 * as it was opened. An entry kept in IndexedDB has `stored: true` and its `size` instead of
 * `text` (read it with recentText). Entries that cannot be read are left out (recentDamage). */
export function recentList() {
  try {
    return readStored().list;
  } catch {
    return []; // no localStorage
  }
}
/** Is `text` a design's JSON (an object)? */
const isDesign = text => {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
};
/** Every entry kept in localStorage read through once (at start, after the first render): those
 * whose design does not parse are left out from then on. Returns what recentDamage says. */
export function checkRecent() {
  for (const r of recentList())
    if (!r.stored && (!isDesign(r.draft ? r.base : r.text) || (r.draft && typeof r.text !== 'string')))
      damaged.add(r.id);
  return recentDamage();
}
/** What is left out of Recent designs as unreadable: `{ entries, list }` (the count of entries,
 * and whether the stored list as a whole could not be read). */
export function recentDamage() {
  try {
    const { unread } = readStored();
    return { entries: unread.length, list: listDamaged || localStorage.getItem(UNREADABLE_KEY) !== null };
  } catch {
    return { entries: 0, list: false };
  }
}
/** Leave the entry `id` out of Recent designs: it turned out unreadable when it was opened. */
export function markDamaged(id) {
  damaged.add(id);
}
/** The unreadable entries (and a list set aside) deleted: the user chose to forget them. */
export function forgetDamaged() {
  const { list, unread } = readStored();
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  localStorage.removeItem(UNREADABLE_KEY);
  const ids = unread.filter(r => r?.stored === true && typeof r.id === 'string').map(r => r.id);
  if (ids.length) storeDesign(null, null, ids);
  listDamaged = false;
}

/** A new entry id. */
export const newEntryId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Keep `entry` first under Recent designs, in place of the entry with its id and of any other
 * with the same text (an edited one keeps the entry edited). Returns `{ why, stored }`: `why`
 * null, or what the page should say: `{ tooLarge: characters }` or `{ refused: the browser's
 * reason }` (storage full or turned off) when it was not kept, `{ evicted: [entries] }` when
 * designs the user edited made room for it; `stored`, for an entry kept in IndexedDB, the
 * promise of that write (resolving to null, or `{ refused }`). */
export function keep(entry) {
  const size = entry.text.length + (entry.base?.length ?? 0);
  if (size > RECENT_STORED_MAX) return { why: { tooLarge: size }, stored: null };
  let before, unread;
  try {
    ({ list: before, unread } = readStored());
  } catch (e) {
    return { why: { refused: e?.name ?? String(e) }, stored: null };
  }
  const same = before.filter(r => r.id === entry.id || r.text === entry.text);
  const aside = size + entry.label.length > RECENT_INLINE_MAX;
  const first = aside
    ? { ...entry, text: undefined, base: undefined, stored: true, size }
    : { ...entry, stored: undefined, size: undefined };
  first.edited = entry.edited || same.some(r => r.edited);
  const list = [first, ...before.filter(r => !same.includes(r))];
  const evicted = makeRoom(list, first);
  const kept = list.includes(first);
  try {
    // (the entries this page cannot read stay, after the others: see readStored)
    localStorage.setItem(RECENT_KEY, JSON.stringify([...list, ...unread]));
  } catch (e) {
    return { why: { refused: e?.name ?? String(e) }, stored: null };
  }
  // The list is written before the design's own text: a reload in between finds an entry whose
  // text it cannot read, and says so. Texts no entry names any more are deleted (in the same
  // transaction, before this entry's own is written).
  const drop = before.filter(r => r.stored && !list.includes(r)).map(r => r.id);
  const put = aside && kept;
  const stored =
    put || drop.length ? storeDesign(put ? entry.id : null, { text: entry.text, base: entry.base }, drop) : null;
  return { why: evicted.length ? { evicted } : null, stored: put ? stored : null };
}

/** The JSON text of Recent designs entry `r` (`{ text, base }`): at hand, or read from
 * IndexedDB. Rejects when it cannot be read. */
export async function recentText(r) {
  if (!r.stored) return { text: r.text, base: r.base };
  const got = await designStore('readonly', s => s.get(r.id));
  if (typeof got?.text !== 'string') throw new Error('its text is not in this browser’s storage');
  return got;
}

// IndexedDB: the texts of the entries too long for localStorage, by entry id.
const DB = 'rowkey-lab',
  STORE = 'recent-designs';
let opening = null;
function designDb() {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opening;
}
/** One transaction on the store: `use(store)` makes its requests; resolves to the last one's
 * result once the transaction has committed. */
async function designStore(mode, use) {
  const db = await designDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = use(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req?.result);
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('the browser ended the write'));
  });
}
/** `record` kept under `id` (none when null), and the texts of `drop` deleted: null when done,
 * else `{ refused: the browser's reason }`. */
async function storeDesign(id, record, drop) {
  try {
    await designStore('readwrite', s => {
      for (const d of drop) s.delete(d);
      return id === null ? null : s.put(record, id);
    });
    return null;
  } catch (e) {
    return { refused: e?.name ?? String(e) };
  }
}
/** IndexedDB and the list made to agree: texts no entry names any more (another tab's list, an
 * entry forgotten) deleted, and entries whose text is not there (a write cut short, storage
 * cleared) left out as unreadable. */
export async function sweepStored() {
  const stubs = recentList().filter(r => r.stored);
  try {
    const ids = new Set(await designStore('readonly', s => s.getAllKeys()));
    for (const r of stubs) if (!ids.has(r.id)) damaged.add(r.id);
    const named = new Set(stubs.map(r => r.id));
    const drop = [...ids].filter(id => !named.has(id));
    if (drop.length) await storeDesign(null, null, drop);
  } catch {
    /* no IndexedDB: nothing kept there; opening such an entry says so */
  }
}

// readOff (one call off this thread, on an engine worker of its own) is engine/web-workers.js's,
// re-exported here for the views that import the page's I/O helpers from this module.
export { readOff } from '../engine/web-workers.js';

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
