// The page's state in the URL hash, read by boot.js (to start the first run before the rest of
// the page has loaded) and by lab-state.js (to restore and save it). No DOM, no engine.
//
//   #v=1&d=<base64url design JSON>&p=<preset id>&w=<windows>&s=<sample keys>
//     &scale=linear&rows=servers&color=abs&cap=<writes/s>&bright=<-6…6>&zoom=<c0>-<c1>&keys=<r0>-<r1>
//     &cmp=<design>,<design>…  (the designs last compared with this one: preset ids, or
//       `recent:<id>`, an entry of Recent designs in this browser; the page compares again)
//     &life=<base64url JSON: the Months view's settings { a, b, compare }> (written once Months
//       is opened; the page opens Months and simulates them again)
//     (&embed=1&view=… for the iframe mode, kept as they are)
//   w and s are written only when the user set them, and read as given: the engine has their
//   defaults and ranges (designSchema's AnalyzeOptions).
//
// A design whose link would be longer than LINK_MAX is not written into it: the hash then has
// `k=<id>` instead of `d=`, the design's entry under Recent designs in this browser (state/io.js),
// so that a reload still opens it; such a link means nothing in another browser, and the page
// says so (the copy-link control says to export the JSON instead).
//
// `v` versions the whole hash. Version 1 had only d, p, w and s; every parameter after them is
// optional with the old behaviour as its default, so a version-1 link without them still opens
// exactly as before, and an older page simply ignores them.

export const VERSION = '1';
/** The longest link the page writes, in characters: Chromium's address bar shows at most 32 KiB
 * of a URL (kMaxURLDisplayChars; it refuses URLs over 2 MiB outright), and a longer link cannot
 * be seen whole where people look at links (see docs/limits.md). */
export const LINK_MAX = 32 * 1024;
export const HEAT_DEFAULTS = Object.freeze({
  scale: 'log',
  view: 'regions',
  measure: 'writes',
  mode: 'relative',
  capacity: 100,
  brightness: 0,
  zoom: null,
  keys: null,
  // the table the heatmap draws: a Phoenix index's name, or null for the data table
  table: null,
});

/** Designs a link compares with the one on show, at most (the engine compares 2–4 in all), and
 * the shape of each: a preset's id, or `recent:` and a Recent designs entry's id. */
export const COMPARE_MAX = 3;
const COMPARE_VALUE = /^(recent:)?[\w.-]{1,100}$/;

export function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function fromBase64Url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, c => c.charCodeAt(0)));
}
/** An analysis option's parameter (`w=`, `s=`) as the link gives it: a number, or its text when
 * it is not one; absent, undefined (the engine's default). Never clamped: a value the engine
 * refuses is its error at the option's control, so a bad link is reported, not quietly changed. */
const option = v => (v === null ? undefined : v.trim() !== '' && Number.isFinite(+v) ? +v : v);
const clampNum = (v, lo, hi, dflt) => {
  const n = Number(v);
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : dflt;
};

/** Heatmap settings from URL parameters; anything absent or malformed keeps its default. */
export function readHeat(p) {
  const h = { ...HEAT_DEFAULTS };
  if (p.get('scale') === 'linear') h.scale = 'linear';
  if (p.get('rows') === 'servers') h.view = 'servers';
  if (['cells', 'bytes'].includes(p.get('measure'))) h.measure = p.get('measure');
  if (p.get('color') === 'abs') h.mode = 'absolute';
  const cap = Number(p.get('cap') ?? NaN);
  if (cap > 0 && cap <= 1e12) h.capacity = cap;
  // the brightness slider's steps: -6…6 by 0.5
  if (p.has('bright')) h.brightness = Math.round(clampNum(p.get('bright'), -6, 6, 0) * 2) / 2;
  const z = /^(\d+)-(\d+)$/.exec(p.get('zoom') ?? '');
  if (z && Number(z[2]) > Number(z[1])) h.zoom = [Number(z[1]), Number(z[2])];
  const k = /^(\d+)-(\d+)$/.exec(p.get('keys') ?? '');
  if (k && Number(k[2]) > Number(k[1])) h.keys = [Number(k[1]), Number(k[2])];
  // an index's name (the design's own, checked against its indexes when a report is shown)
  const t = p.get('table');
  if (t && t.length <= 256) h.table = t;
  return h;
}

/** The Months view's settings a link carries (`life=`): `{ a, b, compare }`, each setting an
 * object of the form's members as typed (the engine reads and checks them when it simulates:
 * a bad value is its located error at the control); null when absent or unreadable. */
export function readLife(p) {
  if (!p.has('life')) return null;
  let life;
  try {
    life = JSON.parse(fromBase64Url(p.get('life')));
  } catch {
    return null;
  }
  const setting = x => (x && typeof x === 'object' && !Array.isArray(x) ? x : {});
  if (!life || typeof life !== 'object' || Array.isArray(life)) return null;
  return { a: setting(life.a), b: setting(life.b), compare: life.compare === true };
}

/** Everything the hash says (`doc` null when it holds no readable design; `problem` says why
 * a design it carries could not be read, so the page can say so instead of silently showing
 * another design). */
export function readHash(hash = location.hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const heat = readHeat(p);
  const windows = option(p.get('w'));
  const sampleSize = option(p.get('s'));
  const presetId = p.get('p') ?? '';
  const kept = p.has('d') ? null : p.get('k');
  let doc = null,
    problem = null;
  if (p.has('d') && p.get('v') !== VERSION) {
    problem = `This link's design is in link format v=${p.get('v') ?? '(none)'}; this page reads v=${VERSION}`;
  } else if (p.has('d')) {
    try {
      doc = JSON.parse(fromBase64Url(p.get('d')));
    } catch {
      doc = null;
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) doc = null;
    if (!doc) problem = "This link's design could not be read (the link may have been cut off)";
  }
  const compare = (p.get('cmp') ?? '')
    .split(',')
    .filter(v => COMPARE_VALUE.test(v))
    .slice(0, COMPARE_MAX);
  return {
    doc,
    kept,
    problem,
    presetId,
    windows,
    sampleSize,
    heat,
    compare,
    life: readLife(p),
    embed: p.get('embed'),
    view: p.get('view'),
  };
}

/** The hash for a state (`embed`/`view` carried over so that an embedded page stays embedded):
 * the design's JSON `text` in `d=`, or (text null) the Recent designs entry `kept` in `k=`. */
export function writeHash(
  { presetId, windows, sampleSize, heat, compare, life, embed, view },
  { text = null, kept = null } = {},
) {
  const p = new URLSearchParams({ v: VERSION });
  if (text !== null) p.set('d', toBase64Url(text));
  else if (kept) p.set('k', kept);
  if (presetId) p.set('p', presetId);
  if (windows !== undefined) p.set('w', String(windows));
  if (sampleSize !== undefined) p.set('s', String(sampleSize));
  if (heat) {
    if (heat.scale !== HEAT_DEFAULTS.scale) p.set('scale', heat.scale);
    if (heat.view !== HEAT_DEFAULTS.view) p.set('rows', heat.view);
    if (heat.measure !== HEAT_DEFAULTS.measure) p.set('measure', heat.measure);
    if (heat.mode !== HEAT_DEFAULTS.mode) p.set('color', 'abs');
    if (heat.capacity !== HEAT_DEFAULTS.capacity) p.set('cap', String(heat.capacity));
    if (heat.brightness !== HEAT_DEFAULTS.brightness) p.set('bright', String(heat.brightness));
    if (heat.zoom) p.set('zoom', `${heat.zoom[0]}-${heat.zoom[1]}`);
    if (heat.keys) p.set('keys', `${heat.keys[0]}-${heat.keys[1]}`);
    if (heat.table) p.set('table', heat.table);
  }
  if (compare?.length) p.set('cmp', compare.join(','));
  if (life?.open) {
    const { a, b, compare: both } = life;
    p.set('life', toBase64Url(JSON.stringify(both ? { a, b, compare: true } : { a })));
  }
  if (embed) p.set('embed', embed);
  if (view) p.set('view', view);
  return `#${p}`;
}

/** The hash for a state whose design is the JSON `text`, with `base` (the URL before the hash)
 * no longer than LINK_MAX: `{ hash, fits }`; when the design does not fit, `hash` names its
 * Recent designs entry `kept` instead and `length` says how long the link would have been. */
export function linkHash(state, text, base, kept) {
  // at least 4 base64 characters for every 3 bytes, and at least a byte for every character:
  // a design that cannot fit is not encoded at all
  let length = base.length + Math.ceil((text.length * 4) / 3);
  if (length <= LINK_MAX) {
    const hash = writeHash(state, { text });
    length = base.length + hash.length;
    if (length <= LINK_MAX) return { hash, fits: true, length };
  }
  return { hash: writeHash(state, { kept }), fits: false, length };
}

/** The first run the hash asks for: a design, or a preset the engine looks up (`presetId` null:
 * the default preset, which pkg/presets.js names). */
export function firstRequest(hash = location.hash) {
  const s = readHash(hash);
  const options = { windows: s.windows, sampleSize: s.sampleSize };
  if (s.doc) return { doc: s.doc, options };
  return { presetId: s.presetId || null, options };
}
