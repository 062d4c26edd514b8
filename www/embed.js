// Embed / iframe mode for index.html: `#…&embed=1&view=keys|heatmap|metrics|all`.
// Hides the page chrome (header, editor, inspector, compare, footer) and shows only the requested
// view, by a class on <body> plus rules in embed.css. The URL parameters are read once, at import
// time (the lab rewrites the hash when it saves its state; it keeps `embed` and `view`).
// `p=<preset id>` without `d=` selects that preset once the lab has listed the presets.
// The page reports its height to the embedding <rowkey-lab> element (same origin only).
// Its size: in a frame of a fixed height (an iframe, or <rowkey-lab height=…>) the heatmap view
// draws its map as tall as the frame leaves room for, so the view fits without a scroll bar; with
// `?size=content` (<rowkey-lab> without a height, which follows the page's height) the map keeps
// its own height.
const params = new URLSearchParams(location.hash.slice(1));
const search = new URLSearchParams(location.search);
const get = k => params.get(k) ?? search.get(k);
export const VIEWS = ['keys', 'heatmap', 'metrics', 'all'];
export const embed = ['1', 'true', 'yes'].includes(get('embed') ?? '');
export const view = VIEWS.includes(get('view')) ? get('view') : 'all';
/** Does the view fit the frame (the heatmap's height is what the frame leaves)? */
export const fitsFrame = embed && view === 'heatmap' && get('size') !== 'content';
// the shortest map drawn in a small frame (a scroll bar then, rather than no map)
const MIN_MAP = 80;

/** The heatmap's height in px: `natural` on the page, or the height that makes the view fill its
 * frame (`map`, the canvas drawn at its current height, and the rest of the view measured). */
export function heatHeight(natural, map) {
  if (!fitsFrame) return natural;
  const rest = document.body.getBoundingClientRect().height - map.getBoundingClientRect().height;
  return Math.max(MIN_MAP, Math.floor(window.innerHeight - rest));
}

/** Calls `redraw` when the view no longer fills its frame: the frame resized (a host's new
 * height), or the text around the map changed (a caption, a summary). A redraw that fits leaves
 * the body's height as it is, so it ends there. */
export function whenFrameResized(redraw) {
  if (!fitsFrame) return;
  let queued = false;
  const check = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const h = document.body.getBoundingClientRect().height;
      if (Math.abs(h - window.innerHeight) > 1) redraw();
    });
  };
  window.addEventListener('resize', check);
  new ResizeObserver(check).observe(document.body);
}

/** Tag each block of #results with the view it belongs to (a block starts at each <h3>). */
function tagParts(results) {
  const groups = [];
  for (const child of results.children) {
    if (child.tagName === 'H3' || groups.length === 0) groups.push([]);
    groups[groups.length - 1].push(child);
  }
  for (const g of groups) {
    const has = sel => g.some(e => e.matches(sel) || e.querySelector(sel));
    const part = has('#heatmap') ? 'heatmap' : has('#metrics') ? 'metrics' : has('#keys') ? 'keys' : 'other';
    for (const e of g) e.dataset.embedPart = part;
  }
}

function selectPreset(id) {
  const sel = document.getElementById('preset');
  if (!sel) return;
  const pick = () => {
    if (![...sel.options].some(o => o.value === id)) return false;
    if (sel.value !== id) {
      sel.value = id;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    }
    return true;
  };
  if (pick()) return;
  const mo = new MutationObserver(() => {
    if (pick()) mo.disconnect();
  });
  mo.observe(sel, { childList: true });
}

function reportHeight() {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const h = Math.ceil(document.documentElement.scrollHeight);
    if (h === last) return;
    last = h;
    try {
      window.parent.postMessage(
        { type: 'rowkey-lab:height', height: h },
        location.origin === 'null' ? '*' : location.origin,
      );
    } catch {
      /* cross-origin parent */
    }
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

function start() {
  if (!embed) return;
  document.body.classList.add('embed', `embed-view-${view}`);
  document.body.dataset.embedView = view;
  const results = document.getElementById('results');
  if (results) tagParts(results);
  if (get('p') && !get('d')) selectPreset(get('p'));
  reportHeight();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
