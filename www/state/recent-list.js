// Recent designs' rules, pure (no storage, no DOM; tested in Node): how many entries and how
// much text are kept, which entry makes room for a new one, and how a stored entry is read
// (entries written by older pages included). state/io.js stores the list.

/** Recent designs: at most RECENT_MAX, the JSON of those kept in localStorage at most
 * RECENT_TOTAL_MAX characters together (localStorage holds 5 MiB or so per site, counted in
 * UTF-16). An entry longer than RECENT_INLINE_MAX is kept in IndexedDB instead (its text only;
 * the list in localStorage holds its label), up to RECENT_STORED_MAX: the largest design the
 * engine reads. When the list is full, presets and links opened as they were go first, oldest
 * first; a design the user edited goes only to make room for another one the user edited, and
 * the page says which went. A design too large to keep is said so, never dropped quietly. */
export const RECENT_MAX = 10;
export const RECENT_INLINE_MAX = 256 * 1024;
export const RECENT_TOTAL_MAX = 2 * 1024 * 1024;
export const RECENT_STORED_MAX = 16 * 1024 * 1024;

/** The characters an entry takes in localStorage. */
export const inlineSize = r => (r.stored ? 0 : r.text.length + (r.base?.length ?? 0)) + r.label.length;

/** `list` (most recent first, `first` the new entry) cut to the limits, in place; returns the
 * entries the user edited that went (the page names them). The oldest entry not edited goes
 * first; when every other one was edited, a new entry not edited gives way itself (a preset is
 * in its menu, a link in the history); else the oldest edited one goes. */
export function makeRoom(list, first, { max = RECENT_MAX, totalMax = RECENT_TOTAL_MAX } = {}) {
  const evicted = [];
  let inline = list.reduce((n, r) => n + inlineSize(r), 0);
  while (list.length > 1 && (list.length > max || inline > totalMax)) {
    let i = list.findLastIndex(r => r !== first && !r.edited);
    if (i < 0) i = !first.edited && list.includes(first) ? list.indexOf(first) : list.findLastIndex(r => r !== first);
    const [gone] = list.splice(i, 1);
    inline -= inlineSize(gone);
    if (gone.edited) evicted.push(gone);
  }
  return evicted;
}

/** A stored entry, or one written before entries had ids (`{ doc, presetId, at }`); else null.
 * An entry from before `edited` was recorded counts as edited: nothing says it is not the
 * user's own. */
export function fromStored(r) {
  if (!r || typeof r !== 'object' || (typeof r.label !== 'string' && r.doc === undefined)) return null;
  if (typeof r.id === 'string' && (typeof r.text === 'string' || (r.stored === true && r.size > 0))) {
    if (r.draft && typeof r.base !== 'string') return null;
    return { ...r, edited: r.edited !== false };
  }
  if (r.doc && typeof r.doc === 'object') {
    const at = Number(r.at) || 0;
    const label = r.doc.name ?? (typeof r.doc.key === 'string' ? r.doc.key : 'design');
    const text = JSON.stringify(r.doc);
    return { id: `r${at}`, at, presetId: r.presetId ?? '', label, text, draft: false, edited: true };
  }
  return null;
}
