// The heatmap's mouse and keyboard, one copy for every map of the page: the lab's heatmap,
// Compare's maps, the live table's measured and predicted maps and the Months map. A drag across
// a map zooms its columns (time), diagonally its rows (keys) too; hovering names the cell under
// the pointer; on a focused map the arrows move a cursor (past the edge of a zoomed range the
// range moves with it), + and − halve and double the columns around it, ] and [ the rows, and R
// (or Backspace) resets. Each view keeps its ranges where its state lives and says which maps
// share them (Compare's time is every map's; the live table's rows are both maps'): this module
// only turns pointer and keys into absolute ranges and cells.

import { CURSOR_STEPS, cellPoint, ZOOM_KEYS, zoomedRange } from './heat-axes.js';

/** The drag under way (one pointer: one drag on the page), ended by the window's mouseup. */
let drag = null;
let listening = false;

/** The cell of a map under a pointer event, in shown cells (clamped; `inside` when on it). */
function cellAt(canvas, ev, { r0, r1, c0, c1 }) {
  const box = canvas.getBoundingClientRect();
  const rows = r1 - r0,
    cols = c1 - c0;
  const col = Math.floor(((ev.clientX - box.left) / Math.max(1, box.width)) * cols);
  const row = Math.floor(((ev.clientY - box.top) / Math.max(1, box.height)) * rows);
  return {
    row: Math.min(rows - 1, Math.max(0, row)),
    col: Math.min(cols - 1, Math.max(0, col)),
    inside: row >= 0 && row < rows && col >= 0 && col < cols,
  };
}

/** The rectangle a drag covers, in shown cells: columns [a, b], rows [ra, rb]. */
function covered(from, to) {
  return {
    a: Math.min(from.col, to.col),
    b: Math.max(from.col, to.col),
    ra: Math.min(from.row, to.row),
    rb: Math.max(from.row, to.row),
  };
}

function dragEnd(ev) {
  const d = drag;
  if (!d) return;
  drag = null;
  d.brush.hidden = true;
  const { a, b, ra, rb } = covered(d.from, cellAt(d.canvas, ev, d.range));
  if (b <= a && rb <= ra) return;
  const { r0, c0 } = d.range;
  d.view.zoom({
    ...(b > a ? { time: [c0 + a, c0 + b + 1] } : {}),
    ...(rb > ra ? { keys: [r0 + ra, r0 + rb + 1] } : {}),
  });
}

/**
 * Wires `canvas` and its `brush` (a box over it, shown while dragging) to `view`:
 * - `shown()`: `{ r0, r1, c0, c1, rows, cols }`, the shown ranges of all `rows` × `cols` cells;
 * - `zoom({ time, keys })`: new absolute ranges `[a, b)` (null: all; absent: unchanged), for the
 *   view to keep and draw;
 * - `reset()`: every range back to all, drawn;
 * - `tip(row, col, x, y)`: the tooltip of absolute cell (`row`, `col`) at page point (`x`, `y`);
 *   `tip(null)` hides it;
 * - `cursor()` and `setCursor(cell)`: the keyboard's cursor, an absolute `[row, col]` or null;
 * - `canvas()` (optional): the map's canvas after a zoom, when drawing makes a new one.
 */
export function heatZoom(canvas, brush, view) {
  if (!listening) {
    window.addEventListener('mouseup', dragEnd);
    listening = true;
  }
  canvas.addEventListener('mousemove', ev => {
    const range = view.shown();
    const at = cellAt(canvas, ev, range);
    if (drag?.canvas === canvas) {
      const { a, b, ra, rb } = covered(drag.from, at);
      const rows = range.r1 - range.r0,
        cols = range.c1 - range.c0;
      brush.hidden = false;
      brush.style.left = `${(a / cols) * 100}%`;
      brush.style.width = `${((b - a + 1) / cols) * 100}%`;
      // a drag over two rows or more zooms the rows too
      const keys = rb > ra;
      brush.style.top = keys ? `${(ra / rows) * 100}%` : '0';
      brush.style.height = keys ? `${((rb - ra + 1) / rows) * 100}%` : '100%';
    }
    if (at.inside) view.tip(range.r0 + at.row, range.c0 + at.col, ev.pageX, ev.pageY);
    else view.tip(null);
  });
  canvas.addEventListener('mousedown', ev => {
    if (ev.button !== 0) return;
    const range = view.shown();
    if (range.r1 <= range.r0 || range.c1 <= range.c0) return;
    ev.preventDefault();
    drag = { canvas, brush, view, range, from: cellAt(canvas, ev, range) };
  });
  canvas.addEventListener('mouseleave', () => {
    if (!drag) view.tip(null);
  });
  canvas.addEventListener('blur', () => view.tip(null));
  canvas.addEventListener('keydown', ev => key(ev, view, canvas));
}

/** A key on a focused map: see heatZoom. */
function key(ev, view, canvas) {
  if (ev.key === 'r' || ev.key === 'R' || ev.key === 'Backspace') {
    ev.preventDefault();
    view.reset();
    view.tip(null);
    return;
  }
  const zoom = ZOOM_KEYS[ev.key],
    step = CURSOR_STEPS[ev.key];
  const { r0, r1, c0, c1, rows, cols } = view.shown();
  if ((!zoom && !step) || r1 <= r0 || c1 <= c0) return;
  ev.preventDefault();
  // the cursor in the map as shown (another result or zoom may have left it outside)
  const [cr, cc] = view.cursor() ?? [r0, c0];
  let row = Math.min(r1 - 1, Math.max(r0, cr)),
    col = Math.min(c1 - 1, Math.max(c0, cc));
  if (zoom?.[0] === 'time') view.zoom({ time: zoomedRange([c0, c1], cols, col, zoom[1]) });
  else if (zoom) view.zoom({ keys: zoomedRange([r0, r1], rows, row, zoom[1]) });
  else {
    row = Math.min(rows - 1, Math.max(0, row + step[0]));
    col = Math.min(cols - 1, Math.max(0, col + step[1]));
    const pan = {
      ...(col < c0 || col >= c1 ? { time: [c0 + step[1], c1 + step[1]] } : {}),
      ...(row < r0 || row >= r1 ? { keys: [r0 + step[0], r1 + step[0]] } : {}),
    };
    if (pan.time || pan.keys) view.zoom(pan);
  }
  // the cursor stays on its cell (its row and column) as the ranges change around it
  const now = view.shown();
  row = Math.min(now.r1 - 1, Math.max(now.r0, row));
  col = Math.min(now.c1 - 1, Math.max(now.c0, col));
  view.setCursor([row, col]);
  const on = view.canvas?.() ?? canvas;
  view.tip(row, col, ...cellPoint(on, row - now.r0, col - now.c0, now.r1 - now.r0, now.c1 - now.c0));
}
