// A key design as the readable text the editors, Recent designs and the picker show: a module of
// its own, below the views that show it (editor-view.js, recent-view.js), so neither imports the
// other for it.
import * as wasm from '../pkg/rowkey_lab.js';

const keyTexts = new WeakMap();
/** The key design in its readable text form (the JSON form only if it cannot be formatted);
 * formatted once per key object (the editors are drawn again at every change). */
export function keyAsText(k) {
  if (typeof k === 'string' || !k || typeof k !== 'object') return k;
  if (!keyTexts.has(k)) {
    let text;
    try {
      text = wasm.formatKey(k);
    } catch {
      text = JSON.stringify(k);
    }
    keyTexts.set(k, text);
  }
  return keyTexts.get(k);
}
