// The engine's objects (AnalysisSession, KeyCodec) with a lifecycle a caller cannot misuse:
// wasm-bindgen's glue makes a second free() or a call after free() throw "null pointer passed to
// rust", with no `kind`. Here free() may be called any number of times, and a method of a freed
// object throws a RowkeyError of kind `illegalState` that names the object and the method.
// Applied once, at import, by each entry (pkg/web, pkg/node); copied by scripts/build-npm.sh.

/** The error a freed object's method throws: shaped like every engine error. */
function freedError(cls, member) {
  const reason = `this ${cls} was freed (free() was called): create a new one to call ${member}()`;
  return Object.assign(new Error(`${cls}.${member}: ${reason}`), { kind: 'illegalState', reason, path: cls });
}

/** Guards every class the glue exports that has a `free()`. */
export function guardObjects(glue) {
  for (const [name, cls] of Object.entries(glue)) {
    if (typeof cls !== 'function' || typeof cls.prototype?.free !== 'function') continue;
    const proto = cls.prototype;
    for (const member of Object.getOwnPropertyNames(proto)) {
      if (member === 'constructor' || member.startsWith('__')) continue;
      const d = Object.getOwnPropertyDescriptor(proto, member);
      if (member === 'free') {
        const free = d.value;
        // The glue zeroes __wbg_ptr when it frees; a second free() has nothing to do.
        d.value = function freeOnce() {
          if (this.__wbg_ptr) free.call(this);
        };
      } else if (typeof d.value === 'function') {
        const method = d.value;
        d.value = function (...args) {
          if (!this.__wbg_ptr) throw freedError(name, member);
          return method.apply(this, args);
        };
      } else if (d.get) {
        const get = d.get;
        d.get = function () {
          if (!this.__wbg_ptr) throw freedError(name, member);
          return get.call(this);
        };
      } else continue;
      Object.defineProperty(proto, member, d);
    }
  }
}
