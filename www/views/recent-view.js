// Recent designs: the design on show kept (localStorage, IndexedDB for large ones: state/io.js),
// the menu that opens one again, and the notes on what could not be kept or read.

import {
  forgetDamaged,
  keep,
  markDamaged,
  newEntryId,
  RECENT_STORED_MAX,
  recentDamage,
  recentList,
  recentText,
  sizeText,
} from '../state/io.js';
import { $, docText, el, state } from '../state/lab-state.js';
import { choosing, replaceDesign, stillChosen, toEntry } from '../state/store.js';
import { setCompareChoices } from './compare-view.js';
import { keyAsText } from './key-text.js';

// The design on the page is one entry under Recent designs (state.entry), written a moment after
// each change whatever its run does (still running, failed, cancelled), at once when its run
// ends, and before another design takes its place (a preset, an import, a link, a recent
// design, the table's regions) or the page goes away: switching designs loses nothing. An entry
// records whether the user edited the design (state.edited): presets and links opened as they
// were make room for those first (state/io.js keep).
const KEEP_AFTER_MS = 1000;
let draft = null, // the JSON editor's text while it does not parse, kept as typed
  keepTimer = 0,
  lastKept = '',
  keptNote = { entry: '', text: '' }; // what the keep note says, and of which design
/** The JSON editor's text while it does not parse (kept as typed), or null. */
export const draftText = () => draft;
export const setDraft = text => {
  draft = text;
};
/** The design on show kept a moment from now (KEEP_AFTER_MS). */
export function keepSoon() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(keepNow, KEEP_AFTER_MS);
}
/** The design on show kept under Recent designs now. */
export function keepNow() {
  clearTimeout(keepTimer);
  if (!state.doc) return;
  const text = draft ?? docText();
  // the name and the key: edits of one design tell apart by their keys
  const key = String(keyAsText(state.doc.key) ?? '');
  const label =
    [state.doc.name, key.length > 60 ? `${key.slice(0, 59)}…` : key].filter(Boolean).join(' · ') || 'design';
  const entry = {
    id: state.entry,
    at: Date.now(),
    presetId: state.presetId,
    label: draft === null ? label : `${label} (unfinished JSON)`,
    edited: state.edited || draft !== null,
    text,
    draft: draft !== null,
    // with a draft, the last design that parsed too: the draft is kept, and so is what it was
    ...(draft === null ? {} : { base: docText() }),
  };
  const same = `${entry.id}\n${entry.presetId}\n${entry.edited}\n${entry.label}\n${text}`;
  if (same === lastKept) return;
  const { why, stored } = keep(entry);
  lastKept = why && !why.evicted ? '' : same;
  renderKept(why, entry.id);
  renderRecent();
  stored?.then(refused => {
    if (!refused) return;
    if (lastKept === same) lastKept = '';
    renderKept(refused, entry.id);
  });
}
/** `doc`, a design compared with the one on show that no picker offers (an advised candidate,
 * the design before), kept under Recent designs as `label`, so that the link can name it
 * (`cmp=recent:<id>`): its entry's id, or null when it could not be kept. */
export function keepAside(doc, label) {
  const entry = {
    id: newEntryId(),
    at: Date.now(),
    presetId: '',
    label,
    edited: false,
    text: docText(doc),
    draft: false,
  };
  const { why } = keep(entry);
  if (why && !why.evicted) return null;
  renderRecent();
  return entry.id;
}
/** Another design takes this one's place: this one is kept as it is, the next goes to the entry
 * `entry` (a Recent design opened again), else to a new one. */
export function branch(entry = null) {
  const other = entry !== state.entry;
  if (other) keepNow();
  draft = null;
  // the comparison was this design's: the next one has none until it is compared
  toEntry(entry ?? newEntryId(), other ? { compared: [] } : {});
}
const quoted = r => `“${r.label}” (${new Date(r.at).toLocaleString('en')})`;
/** Says when the design could not be kept under Recent designs, and why, or which designs the
 * user edited it made room for: that note stays while this design (`entry`) is on show. */
function renderKept(why, entry) {
  const note = $('keep-note');
  let text = '';
  if (why?.tooLarge)
    text = `This design's JSON is ${sizeText(why.tooLarge)}, more than Recent designs keep (${sizeText(RECENT_STORED_MAX)}): export the JSON to keep it.`;
  else if (why?.refused)
    text = `Recent designs could not be saved (the browser refused: ${why.refused}): export the JSON to keep this design.`;
  else if (why?.evicted) {
    const n = why.evicted.length;
    text = `Recent designs were full: to keep this design, ${n === 1 ? 'the oldest one you edited' : `the ${n} oldest ones you edited`}, ${why.evicted.map(quoted).join(', ')}, ${n === 1 ? 'is' : 'are'} no longer among them. Export a design's JSON to keep it for good.`;
  } else if (keptNote.entry === entry && keptNote.text.startsWith('Recent designs were full')) return;
  keptNote = { entry, text };
  note.hidden = !text;
  note.textContent = text;
}
/** Says which entries of Recent designs could not be read, and are left out; offers to forget them. */
function renderDamage() {
  const { entries, list } = recentDamage();
  const note = $('recent-note');
  note.hidden = !entries && !list;
  if (!entries && !list) return note.replaceChildren();
  const forget = el('button', entries + (list ? 1 : 0) === 1 ? 'Forget it' : 'Forget them', {
    type: 'button',
    id: 'recent-forget',
  });
  forget.onclick = () => {
    forgetDamaged();
    renderRecent();
  };
  const what = [
    list
      ? 'The list of Recent designs in this browser’s storage could not be read: it is set aside, and designs from now on are kept again.'
      : '',
    entries
      ? `${entries === 1 ? 'One design' : `${entries} designs`} under Recent designs could not be read (damaged in this browser’s storage, or written by another version of the page) and ${entries === 1 ? 'is' : 'are'} left out.`
      : '',
  ];
  note.replaceChildren(what.filter(Boolean).join(' '), ' ', forget);
}
/** The Recent designs menu (and the compare picker's Recent designs) from the stored list. */
export function renderRecent() {
  const sel = $('recent');
  const list = recentList();
  setCompareChoices({ recent: recentChoices() });
  sel.replaceChildren(
    el('option', list.length ? `(${list.length} recent)` : '(none yet)', { value: '' }),
    ...list.map((r, i) =>
      el('option', `${r.label} — ${new Date(r.at).toLocaleString('en')}`, {
        value: String(i),
      }),
    ),
  );
  renderDamage();
}
/** A recent design back on the page. One that did not parse goes back into the JSON editor as
 * it was typed, over the last design of it that did (which does not run until the text parses).
 * One kept in IndexedDB is read first; one that cannot be read is left out, with a note. */
export async function openRecent(r) {
  const t = choosing();
  let got;
  try {
    got = await recentText(r);
    if (!isDesignText(r.draft ? got.base : got.text)) throw new Error('not a design');
  } catch {
    markDamaged(r.id);
    renderRecent();
    return;
  }
  // (read from IndexedDB: another design may have been chosen meanwhile, and stays)
  if (!stillChosen(t)) return;
  const text = r.draft ? got.base : got.text;
  const doc = JSON.parse(text);
  replaceDesign(doc, {
    text,
    own: false,
    presetId: r.presetId ?? '',
    edited: r.edited,
    entry: r.id,
    later: true,
    draft: r.draft ? got.text : null,
  });
}
/** Is `text` a design's JSON (an object)? */
export function isDesignText(text) {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

// ---- the compare picker's choices ---------------------------------------------------------------
/** The picker's values: a preset's id, or RECENT and a Recent designs entry's id. */
export const RECENT = 'recent:';
/** Recent designs the picker offers: every one that parses, but the design on show. */
export const recentChoices = () =>
  recentList()
    .filter(r => !r.draft && r.id !== state.entry)
    .map(r => ({ value: `${RECENT}${r.id}`, label: r.label }));
