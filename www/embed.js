// Embed / iframe mode for index.html: `#…&embed=1&view=keys|heatmap|metrics|all`.
// Hides the page chrome (header, editor, inspector, compare, footer) and shows only the requested
// view, by a class on <body> plus rules in embed.css. The URL parameters are read once, at import
// time (the lab rewrites the hash when it saves its state; it keeps `embed` and `view`).
// `p=<preset id>` without `d=` selects that preset once the lab has listed the presets.
// The page reports its height to the embedding <rowkey-lab> element (same origin only).
const params = new URLSearchParams(location.hash.slice(1));
const search = new URLSearchParams(location.search);
const get = k => params.get(k) ?? search.get(k);
export const VIEWS = ['keys', 'heatmap', 'metrics', 'all'];
export const embed = ['1', 'true', 'yes'].includes(get('embed') ?? '');
export const view = VIEWS.includes(get('view')) ? get('view') : 'all';

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
