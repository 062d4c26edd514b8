//! Running the plan: one loop over the steps per record, the hash into its reserved bytes, and
//! the MD5 buckets a batch fills in later (four at a time in SIMD lanes in the Node wasm).

#[cfg(not(lean))]
use super::super::interp::Text;
use super::*;

#[cfg(not(lean))]
use crate::hbase::hash::md5_pair;
/// The `lean` wasm never defers a bucket ([`CompiledKey::defers_md5`]): one after the other.
#[cfg(lean)]
fn md5_pair(x: &[u8], y: &[u8]) -> [[u8; 16]; 2] {
    [hash::md5(x), hash::md5(y)]
}

/// Append `b` to `out`. In the Node wasm, 8 to 16 bytes go as two overlapping 8-byte
/// moves: V8 compiles a variable-length `memory.copy` to a call into the runtime, which
/// costs more than the copy (a phone number field, 11 bytes, per record).
#[inline(always)]
fn put(out: &mut Vec<u8>, b: &[u8]) {
    #[cfg(all(target_arch = "wasm32", not(lean)))]
    if let (Some(head), Some(tail)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        if b.len() <= 16 {
            let end = out.len() + b.len();
            out.extend_from_slice(head);
            out.truncate(end - 8);
            out.extend_from_slice(tail);
            return;
        }
    }
    out.extend_from_slice(b);
}

impl CompiledKey {
    /// [`encode_values_into`](Self::encode_values_into), except that a plan's MD5 salt (see
    /// [`Plan::later`]) is left as a hole, returned, for [`fill_holes`](Self::fill_holes):
    /// the key's bytes are then final but for that hole. Errors are exactly those of
    /// `encode_values_into` (the deferred hash cannot fail).
    pub(crate) fn encode_values_deferred(
        &mut self,
        out: &mut Vec<u8>,
        values: &[FieldValue],
    ) -> Result<Option<Hole>> {
        self.encode_values_deferred_if(out, values, true)
    }

    pub(in crate::keyspec::compile) fn encode_values_deferred_if(
        &mut self,
        out: &mut Vec<u8>,
        values: &[FieldValue],
        defer: bool,
    ) -> Result<Option<Hole>> {
        if values.len() != self.fields.len() {
            return Err(Error::arg(
                "values",
                format!(
                    "expected {} values (one per declared field), got {}",
                    self.fields.len(),
                    values.len()
                ),
            ));
        }
        let start = out.len();
        let hole = self.encode_any_length(out, values, defer)?;
        let len = out.len() - start;
        if len > crate::limits::MAX_ROW_LENGTH {
            out.truncate(start);
            crate::limits::check_row_length("key", len)?;
        }
        Ok(hole)
    }

    /// The key appended to `out`, by the plan when there is one, whatever its length.
    fn encode_any_length(
        &mut self,
        out: &mut Vec<u8>,
        values: &[FieldValue],
        defer: bool,
    ) -> Result<Option<Hole>> {
        let start = out.len();
        if self.plan.is_some() {
            if let Ok(hole) = self.run_plan(out, values, defer) {
                return Ok(hole);
            }
            // Errors come from the interpreter, in its order of evaluation.
            out.truncate(start);
        }
        self.interpret(out, values).map(|_| None)
    }

    /// True when [`encode_values_deferred`](Self::encode_values_deferred) leaves an MD5
    /// bucket to fill in later (for every record the plan encodes). Never in the `lean`
    /// (browser) wasm: the batch path and the two-lane MD5 cost ~3.8 kB gzip there (~1.8 kB
    /// for the batch code alone); it keeps the one-at-a-time path, which the native tests
    /// compare the batches against. The Node wasm (feature `fast`) batches like native.
    pub(crate) fn defers_md5(&self) -> bool {
        !cfg!(lean) && self.plan.as_ref().is_some_and(|p| p.later.is_some())
    }

    /// Fill in the MD5 buckets [`encode_values_deferred`](Self::encode_values_deferred) left
    /// in `keys`, two at a time ([`hash::md5_pair`]; four in the Node wasm): the same bytes the
    /// immediate path writes.
    pub(crate) fn fill_holes(&mut self, keys: &mut [u8], holes: &[Hole]) -> Result<()> {
        let Some(later) = self.plan.as_ref().and_then(|p| p.later) else {
            return match holes {
                [] => Ok(()),
                _ => Err(Error::new(ErrorKind::IllegalState, "no deferred hash")),
            };
        };
        // The Node wasm: four at a time in SIMD lanes ([`hash::md5_quad`]), the rest in pairs.
        #[cfg(all(target_arch = "wasm32", not(lean)))]
        let holes = {
            let mut quads = holes.chunks_exact(4);
            for q in quads.by_ref() {
                if let [w, x, y, z] = q {
                    let msg = |h: &Hole| keys.get(h.from..h.to).unwrap_or(&[]);
                    let d = hash::md5_quad([msg(w), msg(x), msg(y), msg(z)]);
                    for (h, d) in [w, x, y, z].into_iter().zip(&d) {
                        self.put_bucket(keys, later, h.at, d)?;
                    }
                }
            }
            quads.remainder()
        };
        let mut pairs = holes.chunks_exact(2);
        for pair in pairs.by_ref() {
            if let [x, y] = pair {
                let [dx, dy] = md5_pair(
                    keys.get(x.from..x.to).unwrap_or(&[]),
                    keys.get(y.from..y.to).unwrap_or(&[]),
                );
                self.put_bucket(keys, later, x.at, &dx)?;
                self.put_bucket(keys, later, y.at, &dy)?;
            }
        }
        for x in pairs.remainder() {
            let d = hash::md5(keys.get(x.from..x.to).unwrap_or(&[]));
            self.put_bucket(keys, later, x.at, &d)?;
        }
        Ok(())
    }

    /// The bucket of digest `d` rendered into `keys[at..at + width]`.
    fn put_bucket(&mut self, keys: &mut [u8], later: Later, at: usize, d: &[u8; 16]) -> Result<()> {
        let v = mod_be(d, later.buckets) as i64;
        let slot = keys.get_mut(at..at + later.width);
        match (slot, later.render) {
            // Two-digit buckets without a `memcpy` call (as the immediate path).
            (Some([a, b]), Render::Dec(2)) if (0..100).contains(&v) => {
                (*a, *b) = (b'0' + (v / 10) as u8, b'0' + (v % 10) as u8);
                Ok(())
            }
            (Some(slot), r) => {
                self.head.clear();
                render(&r, v, &mut self.head)?;
                if slot.len() != self.head.len() {
                    return Err(Error::new(ErrorKind::IllegalState, "bucket width"));
                }
                slot.copy_from_slice(&self.head);
                Ok(())
            }
            (None, _) => Err(Error::new(ErrorKind::IllegalState, "hole out of range")),
        }
    }

    /// Run the [`Plan`]: one loop over the steps, then the hash into its reserved bytes.
    fn run_plan(
        &mut self,
        out: &mut Vec<u8>,
        values: &[FieldValue],
        defer: bool,
    ) -> Result<Option<Hole>> {
        let CompiledKey {
            fields,
            ops,
            rng,
            pool,
            plan,
            head,
            ..
        } = self;
        let Some(plan) = plan.as_ref() else {
            return Err(Error::new(ErrorKind::IllegalState, "no plan"));
        };
        let mut encoding = Encoding {
            fields,
            vals: values,
            rng,
            pool,
        };
        let mut hole = Hole {
            at: 0,
            from: 0,
            to: 0,
        };
        let (src_from, src_to, width) = match (plan.fill, plan.direct) {
            (Some(f), None) => (f.from, f.to, f.width),
            (Some(f), Some(_)) => (usize::MAX, usize::MAX, f.width),
            (None, _) => (usize::MAX, usize::MAX, 0),
        };
        for (k, step) in plan.steps.iter().enumerate() {
            if k == src_from {
                hole.from = out.len();
            }
            if k == src_to {
                hole.to = out.len();
            }
            match step {
                Step::Lit(b) => put(out, b),
                Step::Byte(b) => out.push(*b),
                Step::Nop => {}
                Step::Time {
                    op,
                    last,
                    f,
                    id,
                    milli,
                    fixed,
                } => {
                    // The interpreter's `time(...)` without its lookups (same text, same
                    // cache); anything it would reject goes to the interpreter for the error.
                    if !cached_time(&mut encoding, *f, *id, *milli, fixed, out) {
                        run_ops(&mut encoding, ops.get(*op..=*last), out)?;
                    }
                }
                Step::Str(f) => match values.get(*f) {
                    Some(FieldValue::Str(s)) => put(out, s.as_bytes()),
                    _ => encoding.field(*f, &Enc::Str, out)?,
                },
                #[cfg(not(lean))]
                Step::Hash { op, src } => hash_step(&mut encoding, ops.get(*op), src, head, out)?,
                Step::Op(i) => match ops.get(*i) {
                    Some(op) => encoding.op(op, out)?,
                    None => return Err(Error::new(ErrorKind::IllegalState, "op out of range")),
                },
                Step::Hole => match (plan.direct, plan.quick) {
                    // Anything but ASCII text (rare) goes to the interpreter.
                    (Some(f), Some(q)) => match values.get(f) {
                        Some(FieldValue::Str(s)) => match q.bucket(s.as_bytes(), values) {
                            Some(d) => out.extend_from_slice(&d),
                            None => return Err(quick_miss()),
                        },
                        _ => return Err(quick_miss()),
                    },
                    _ => hole.at = reserve(out, width),
                },
            }
        }
        // A source that ends the key ends after the last step; one that starts there is empty
        // (a salt over the rest with nothing after it hashes no bytes, not its own hole).
        if src_from == plan.steps.len() {
            hole.from = out.len();
        }
        if src_to == plan.steps.len() {
            hole.to = out.len();
        }
        if defer && plan.later.is_some() {
            return Ok(Some(hole));
        }
        let Some(fill) = plan.fill else {
            return Ok(None);
        };
        if plan.direct.is_some() {
            return Ok(None);
        }
        fill_hole(&mut encoding, ops, plan.quick, fill, hole, head, out)?;
        Ok(None)
    }
}

/// A fused `time(...)` step from its cache slot; `false` when the interpreter must write it
/// (a value that is not a long, or a time the cache cannot format).
#[inline(always)]
fn cached_time(
    encoding: &mut Encoding,
    f: usize,
    id: usize,
    milli: bool,
    fixed: &time::Fixed,
    out: &mut Vec<u8>,
) -> bool {
    let Some(FieldValue::Long(ms)) = encoding.vals.get(f) else {
        return false;
    };
    let key = if milli { *ms } else { ms.div_euclid(1000) };
    let Pool { times, day, .. } = &mut *encoding.pool;
    times
        .get_mut(id)
        .is_some_and(|c| c.push(key, *ms, fixed, day, out).is_ok())
}

/// `ops` (a fused step's run of ops) through the interpreter.
#[inline(always)]
fn run_ops(encoding: &mut Encoding, ops: Option<&[Op]>, out: &mut Vec<u8>) -> Result<()> {
    let Some(ops) = ops else {
        return Err(Error::new(ErrorKind::IllegalState, "op out of range"));
    };
    for op in ops {
        encoding.op(op, out)?;
    }
    Ok(())
}

/// An `md5`/`md5Hex` step: its source's steps into `head`, then the digest out.
#[cfg(not(lean))]
#[inline(always)]
fn hash_step(
    encoding: &mut Encoding,
    op: Option<&Op>,
    src: &[Step],
    head: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<()> {
    head.clear();
    for s in src.iter() {
        match s {
            Step::Lit(b) => head.extend_from_slice(b),
            Step::Str(f) => match encoding.vals.get(*f) {
                Some(FieldValue::Str(s)) => head.extend_from_slice(s.as_bytes()),
                _ => encoding.field(*f, &Enc::Str, head)?,
            },
            _ => return Err(Error::new(ErrorKind::IllegalState, "hash source")),
        }
    }
    match op {
        Some(o) => encoding.prefix(o, head, Text::Ascii(head), out),
        None => Err(Error::new(ErrorKind::IllegalState, "op out of range")),
    }
}

/// Reserve `width` zero bytes for the plan's hash; returns where they start. A constant-size
/// zero run cut to the width (`resize` calls `memset`).
#[inline(always)]
fn reserve(out: &mut Vec<u8>, width: usize) -> usize {
    let hole = out.len();
    if width <= 32 {
        out.extend_from_slice(&[0; 32]);
        out.truncate(hole + width);
    } else {
        out.resize(hole + width, 0);
    }
    hole
}

/// The plan's hash over the bytes `hole.from..hole.to` written into its reserved bytes at
/// `hole.at`: the quick salt's two digits when it takes them, else the interpreter's hash.
#[inline(always)]
fn fill_hole(
    encoding: &mut Encoding,
    ops: &[Op],
    quick: Option<QuickSalt>,
    fill: Fill,
    hole: Hole,
    head: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let Hole { at, from, to } = hole;
    if let Some(q) = quick {
        if let Some(d) = out.get(from..to).and_then(|w| q.bucket(w, encoding.vals)) {
            if let Some(slot) = out.get_mut(at..at + 2) {
                slot.copy_from_slice(&d);
                return Ok(());
            }
        }
    }
    let i = fill.op;
    let (Some(op), Some(written)) = (ops.get(i), out.get(from..to)) else {
        return Err(Error::new(ErrorKind::IllegalState, "plan out of range"));
    };
    let src: &[Op] = match op.src() {
        Some(Src::Ops(o)) => o,
        _ => ops.get(i + 1..).unwrap_or(&[]),
    };
    head.clear();
    encoding.hash_into(op, src, written, &[], head)?;
    let end = at + fill.width;
    match (out.get_mut(at..end), head.as_slice()) {
        // Two-digit buckets, whole MD5 hex and raw digests without a `memcpy` call.
        (Some([a, b]), &[x, y]) => (*a, *b) = (x, y),
        (Some(slot), _) if slot.len() == head.len() => copy_const(slot, head),
        _ => {
            out.splice(at..end, head.iter().copied());
        }
    }
    Ok(())
}

/// A record the direct quick salt does not take: the caller re-runs the interpreter.
fn quick_miss() -> Error {
    Error::new(ErrorKind::IllegalState, "not a quick salt record")
}

/// `dst.copy_from_slice(src)` (equal lengths), with a constant-size copy for the common
/// hash widths (a variable-length copy is a call to `memmove`).
#[inline]
fn copy_const(dst: &mut [u8], src: &[u8]) {
    fn fixed<const N: usize>(dst: &mut [u8], src: &[u8]) -> bool {
        match (<&mut [u8; N]>::try_from(dst), <&[u8; N]>::try_from(src)) {
            (Ok(d), Ok(s)) => {
                *d = *s;
                true
            }
            _ => false,
        }
    }
    if !(fixed::<32>(dst, src) || fixed::<16>(dst, src) || fixed::<8>(dst, src)) {
        dst.copy_from_slice(src);
    }
}
