// A design document member by its JSON path (`/key/segments/0/name`, as the engine's errors name
// members): read, or set in a copy. Pure (tested in Node); the forms edit the document with it.

/** The path's steps: property names, and array indices as numbers. */
const steps = path =>
  path
    .split('/')
    .slice(1)
    .map(s => (/^\d+$/.test(s) ? Number(s) : s));

/** The member of `doc` at `path` (undefined when it or a parent is absent). */
export function getAt(doc, path) {
  let v = doc;
  for (const k of steps(path)) v = v?.[k];
  return v;
}

/** A copy of `doc` with the member at `path` set to `value` (removed when undefined; an array's
 * item removed closes the gap); the objects on the way are created when missing. Removing what
 * is not there returns `doc` itself. */
export function setAt(doc, path, value) {
  if (value === undefined && getAt(doc, path) === undefined) return doc;
  const keys = steps(path);
  const out = structuredClone(doc);
  let o = out;
  for (const k of keys.slice(0, -1)) {
    if (o[k] === null || typeof o[k] !== 'object') o[k] = {};
    o = o[k];
  }
  const last = keys[keys.length - 1];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(last, 1);
    else delete o[last];
  } else o[last] = value;
  return out;
}
