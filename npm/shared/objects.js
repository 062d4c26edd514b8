// The engine's objects (AnalysisSession, KeyCodec, every class the glue exports with a free())
// with a lifecycle and a `this` a caller cannot misuse. wasm-bindgen's glue hands a method's
// `this.__wbg_ptr` to wasm unchecked: a second free(), or `[Symbol.dispose]()` (what `using`
// calls) after free(), throws "null pointer passed to rust"; a method called on an object of
// another class reads that object's memory as its own and traps (`RuntimeError: unreachable`),
// after which the module is dead. Here:
// - each class's instances are known by a brand: the glue sets `__wbg_ptr` in its constructor and
//   `__wrap` (the engine returning an object) before anything else, so `__wbg_ptr` becomes an
//   accessor of the prototype that keeps the pointer in the class's own WeakMap;
// - every method and getter checks the brand before the glue runs: a `this` of another class, a
//   plain object or none throws a TypeError (kind `illegalArgument`, path `this`) that says what
//   it got; a freed object's method throws a TypeError of kind `illegalState` naming the object
//   and the method;
// - free() and [Symbol.dispose]() may be called any number of times.
// Applied once, at import, by each entry (pkg/web, pkg/node; pkg/cjs requires pkg/node); copied
// by scripts/build-npm.sh.

/** The error of a call on a freed object: shaped like every engine error. */
function freedError(cls, member) {
  const reason = `this ${cls} was freed (free() was called): create a new one to call ${member}()`;
  return Object.assign(new TypeError(`${cls}.${member}: ${reason}`), { kind: 'illegalState', reason, path: cls });
}

/** The error of a call whose `this` is not an object of the class. */
function notThisError(cls, proto, member, self, classOf) {
  const what = describe(self, cls, proto, classOf);
  const reason = `called on ${what}, not on ${article(cls)} (a method taken off its object loses its \`this\`)`;
  return Object.assign(new TypeError(`${cls}.${member}: ${reason}`), { kind: 'illegalArgument', reason, path: 'this' });
}

const article = name => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;

/** What a wrong `this` is, for the message. */
function describe(v, cls, proto, classOf) {
  if (v === undefined || v === null) return String(v);
  if (typeof v !== 'object' && typeof v !== 'function') return `a ${typeof v}`;
  const other = classOf(v);
  if (other) return article(other);
  if (Object.prototype.isPrototypeOf.call(proto, v))
    return `an object that only inherits from ${cls} (the engine makes them: new ${cls}(...) or a function)`;
  const ctor = Object.getPrototypeOf(v)?.constructor?.name;
  return ctor && ctor !== 'Object' ? `an object of ${ctor}` : 'a plain object';
}

/** Guards every class the glue exports that has a `free()`. */
export function guardObjects(glue) {
  const classes = Object.entries(glue).filter(
    ([, cls]) => typeof cls === 'function' && typeof cls.prototype?.free === 'function',
  );
  // the pointer of every live or freed (0) object, by class
  const ptrs = new Map(classes.map(([name]) => [name, new WeakMap()]));
  const classOf = v => classes.find(([name]) => ptrs.get(name).has(v))?.[0];
  for (const [name, cls] of classes) guardClass(name, cls.prototype, ptrs.get(name), classOf);
}

function guardClass(name, proto, ptrs, classOf) {
  Object.defineProperty(proto, '__wbg_ptr', {
    get() {
      return ptrs.get(this) ?? 0;
    },
    // Set by the glue: once when the object is made, then 0 when it is freed. Nothing else may
    // point a live object at other memory.
    set(ptr) {
      const now = ptrs.get(this);
      if (now === undefined ? ptr !== 0 : ptr === 0) ptrs.set(this, ptr);
      else if (ptr !== now) throw new TypeError(`${name}: an object's pointer is the engine's to set`);
    },
  });
  // The brand, then whether it is freed, before the glue reads the pointer.
  const check = (self, member) => {
    const ptr = ptrs.get(self);
    if (ptr === undefined) throw notThisError(name, proto, member, self, classOf);
    if (ptr === 0) throw freedError(name, member);
  };
  const free = proto.free;
  function freeOnce() {
    if (!ptrs.has(this)) throw notThisError(name, proto, 'free', this, classOf);
    // the glue zeroes the pointer when it frees: a second free() has nothing to do
    if (ptrs.get(this) !== 0) free.call(this);
  }
  for (const member of Object.getOwnPropertyNames(proto)) {
    if (member === 'constructor' || member.startsWith('__')) continue;
    const d = Object.getOwnPropertyDescriptor(proto, member);
    if (member === 'free') d.value = freeOnce;
    else if (typeof d.value === 'function') {
      const method = d.value;
      d.value = {
        [member](...args) {
          check(this, member);
          return method.apply(this, args);
        },
      }[member];
    } else if (d.get || d.set) {
      const { get, set } = d;
      if (get)
        d.get = function () {
          check(this, member);
          return get.call(this);
        };
      if (set)
        d.set = function (v) {
          check(this, member);
          set.call(this, v);
        };
    } else continue;
    Object.defineProperty(proto, member, d);
  }
  // The glue sets [Symbol.dispose] to its own free(), not to the guarded one.
  if (Symbol.dispose && Object.hasOwn(proto, Symbol.dispose))
    Object.defineProperty(proto, Symbol.dispose, { value: freeOnce, writable: true, configurable: true });
}
