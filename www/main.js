// The page: plain ES module, one state object, render from it. Only calls the engine and draws.

import { firstResult, startLab } from './app.js';
import init, { inspect } from './pkg/rowkey_lab.js';
import { $, el } from './state/lab-state.js';
import { keyNodes } from './views/keys-view.js';

// The bytes inspector's own state, its form drawn from it (keyed by the controls' names) and
// changed by their input; not in the URL hash, which belongs to the lab's design.
const state = { value: '13412341234', type: 'string', regions: 16 };

function renderSplit(s) {
  const box = el('section', undefined, { 'data-algorithm': s.algorithm });
  box.append(el('h3', `${s.algorithm} — region ${s.region + 1} of ${s.splitKeys.length + 1}`));
  // focusable, so the keyboard can scroll a long table too
  const wrap = el('div', undefined, { class: 'scroll', tabindex: '0', 'aria-label': `${s.algorithm} regions` });
  const table = el('table');
  const head = el('tr');
  for (const h of ['#', 'start key', 'end key']) head.append(el('th', h, { scope: 'col' }));
  const thead = el('thead');
  thead.append(head);
  table.append(thead);
  const body = el('tbody');
  const n = s.splitKeys.length + 1;
  // A region's start or end key cell; the first region has no start key, the last no end key.
  const key = (k, none) => {
    if (!k) return el('td', none);
    const td = el('td', undefined, { class: 'key' });
    td.append(keyNodes(k.binary));
    return td;
  };
  let hitRow = null;
  for (let i = 0; i < n; i++) {
    const tr = el('tr');
    if (i === s.region) {
      tr.className = 'hit';
      hitRow = tr;
    }
    tr.append(el('td', String(i + 1)), key(s.splitKeys[i - 1], '(first)'), key(s.splitKeys[i], '(last)'));
    body.append(tr);
  }
  table.append(body);
  wrap.append(table);
  box.append(wrap);
  return { box, wrap, hitRow };
}

function render() {
  let r;
  try {
    r = inspect(state.value, { type: state.type, regions: state.regions });
  } catch (e) {
    $('error').textContent = e.message;
    $('error').hidden = false;
    return;
  }
  $('error').hidden = true;
  $('result').hidden = false;
  $('out-hex').textContent = r.key.hex;
  $('out-len').textContent = `${r.length} byte${r.length === 1 ? '' : 's'}`;
  $('out-binary').textContent = r.key.binary;
  $('out-md5').textContent = r.md5Hex;
  $('out-hash').textContent = String(r.hashCode);
  $('out-hash-kind').textContent = r.hashCodeOf;
  const views = r.splits.map(renderSplit);
  $('splits').replaceChildren(...views.map(v => v.box));
  for (const v of views) if (v.hitRow) v.wrap.scrollTop = Math.max(0, v.hitRow.offsetTop - v.wrap.clientHeight / 2);
}

async function main() {
  const form = $('inspect-form');
  for (const k in state) form.elements[k].value = state[k];
  await init();
  performance.mark('rowkey-lab:engine-ready');
  startLab().catch(e => {
    $('status').textContent = `The lab failed to start: ${e.message}`;
  });
  // The inspector is below the lab: it waits until the lab's first result is drawn (or a second
  // at most), so that it does not hold up the first render.
  await Promise.race([firstResult, new Promise(r => setTimeout(r, 1000))]);
  $('status').textContent = '';
  form.addEventListener('input', ({ target: t }) => {
    state[t.name] = t.name === 'regions' ? Number(t.value) : t.value;
    render();
  });
  form.addEventListener('submit', e => e.preventDefault());
  render();
}

main().catch(e => {
  $('status').textContent = `The engine failed to load: ${e.message}`;
});
