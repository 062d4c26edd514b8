// <rowkey-lab> custom element: one script tag on a docs page,
//   <script type="module" src="https://…/rowkey-lab-element.js"></script>
//   <rowkey-lab preset="seed000-telecom" view="heatmap" height="420"></rowkey-lab>
// Attributes: preset (a preset id), design (a design document as JSON or base64url JSON; wins
// over preset), view (keys | heatmap | metrics | all; default all), height (px number or a CSS
// length; default: follow the content's height). It renders an iframe of index.html
// (next to this script) in embed mode: `#v=1&d=…&p=…&view=…&embed=1`. Attribute changes rebuild
// the iframe. Design text only travels in the URL; it is never parsed as HTML here.
// With a height, the view fits it (the heatmap is drawn as tall as the frame leaves room for,
// embed.js); without one, `?size=content` asks the page for its own height, which the element
// then follows.
const PAGE = new URL('./index.html', import.meta.url);
const VIEWS = ['keys', 'heatmap', 'metrics', 'all'];

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The design attribute as base64url JSON, or null when absent or invalid. */
export function designParam(value) {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (v.startsWith('{')) {
    try {
      return toBase64Url(JSON.stringify(JSON.parse(v)));
    } catch {
      return null;
    }
  }
  return /^[A-Za-z0-9_-]+={0,2}$/.test(v) ? v.replace(/=+$/, '') : null;
}

/** The iframe URL for a set of attributes. */
export function embedUrl({ preset, design, view, height }, base = PAGE) {
  const p = new URLSearchParams({ v: '1' });
  const d = designParam(design);
  if (d) p.set('d', d);
  if (preset) p.set('p', preset);
  p.set('view', VIEWS.includes(view) ? view : 'all');
  p.set('embed', '1');
  const u = new URL(base);
  if (!cssHeight(height)) u.searchParams.set('size', 'content');
  u.hash = p.toString();
  return u.href;
}

function cssHeight(h) {
  if (h == null || h === '') return null;
  return /^\d+(\.\d+)?$/.test(h.trim()) ? `${h.trim()}px` : h.trim();
}

export class RowkeyLab extends HTMLElement {
  static observedAttributes = ['preset', 'design', 'view', 'height'];
  #frame = null;
  #pending = false;
  #onMessage = ev => {
    if (!this.#frame || ev.source !== this.#frame.contentWindow) return;
    if (ev.origin !== PAGE.origin && ev.origin !== 'null') return;
    const d = ev.data;
    if (d?.type === 'rowkey-lab:height' && Number.isFinite(d.height) && !this.hasAttribute('height')) {
      this.#frame.style.height = `${Math.min(Math.max(d.height, 100), 5000)}px`;
    }
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = new CSSStyleSheet();
    style.replaceSync(
      ':host{display:block;contain:content}iframe{display:block;width:100%;height:400px;border:0;color-scheme:normal}',
    );
    root.adoptedStyleSheets = [style];
  }
  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    this.#schedule();
  }
  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
  }
  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === 'height') this.#applyHeight();
    // (a height given or taken away: the page fits the frame, or sets the height)
    this.#schedule();
  }
  /** The iframe (for tests and hosts that want to listen to it). */
  get frame() {
    return this.#frame;
  }

  #schedule() {
    if (this.#pending || !this.isConnected) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#render();
    });
  }
  #applyHeight() {
    if (!this.#frame) return;
    const h = cssHeight(this.getAttribute('height'));
    if (h) this.#frame.style.height = h;
  }
  #render() {
    const url = embedUrl({
      preset: this.getAttribute('preset'),
      design: this.getAttribute('design'),
      view: this.getAttribute('view'),
      height: this.getAttribute('height'),
    });
    if (this.#frame?.dataset.src === url) return;
    // A new iframe per change: only the fragment differs, which would not reload the page.
    const f = document.createElement('iframe');
    // No `sandbox`: the page needs scripts and its own origin (module scripts, the module worker),
    // and sandbox="allow-scripts allow-same-origin" protects nothing (Chromium warns about it).
    // The framed page is this site's own index.html under its strict CSP; the host page's
    // attributes only reach it as URL-fragment data, rendered as text.
    f.setAttribute('referrerpolicy', 'no-referrer');
    f.setAttribute('title', `rowkey-lab: ${this.getAttribute('view') || 'all'}`);
    f.setAttribute('loading', 'lazy');
    f.dataset.src = url;
    f.src = url;
    if (this.#frame) this.#frame.replaceWith(f);
    else this.shadowRoot.append(f);
    this.#frame = f;
    this.#applyHeight();
  }
}

if (!customElements.get('rowkey-lab')) customElements.define('rowkey-lab', RowkeyLab);
