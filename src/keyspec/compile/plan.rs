//! The flat plan: a compiled key's top level as a list of steps run by one loop, the hash
//! written into bytes reserved for it, and MD5 buckets left for a batch to fill in later.

use super::*;

mod run;

/// One step of a [`Plan`].
#[derive(Debug, Clone)]
enum Step {
    /// Constant bytes.
    Lit(Vec<u8>),
    /// One constant byte (a separator).
    Byte(u8),
    /// `time(...)` of `ops[op]` over field `f`, in ms: the cached text when the second (or
    /// ms) is the cached one, else `ops[op]` through the interpreter.
    Time {
        op: usize,
        /// The last op this step writes: `time(t, "yyMMdd") + ":" + time(t, "HHmmss")` is
        /// one step and one cached text (`ops[op..=last]` through the interpreter otherwise).
        last: usize,
        f: usize,
        id: usize,
        milli: bool,
        fixed: Box<time::Fixed>,
    },
    /// An op written by an earlier fused [`Step::Time`]: removed before the plan runs.
    Nop,
    /// A string field as UTF-8 (other value kinds go through the interpreter).
    Str(usize),
    /// `ops[i]` through the interpreter.
    Op(usize),
    /// Reserve the width of the plan's hash ([`Fill`]), filled in after the last step.
    Hole,
    /// `md5(...)` / `md5Hex(...)` (`ops[op]`) over a source the key does not write
    /// (`md5Hex(str(order))`, `md5Hex(user + item)`): its steps write the source into a
    /// scratch buffer, then the digest goes out (no interpreter pools or generator state).
    /// Not in the `lean` (browser) wasm: there the interpreter does it (+0.45 KB gzip for a gain on the
    /// MD5-over-text designs only, against the page's weight budget).
    #[cfg(not(lean))]
    Hash { op: usize, src: Box<[Step]> },
}

/// The plan's hash: `ops[op]` over the bytes steps `from..to` write, `width` bytes reserved.
#[derive(Debug, Clone, Copy)]
struct Fill {
    op: usize,
    from: usize,
    to: usize,
    width: usize,
}

/// The top-level segments compiled into a straight list of steps run by one loop.
///
/// A hash over the rest of the key (`Src::Rest`), or over explicit segments that the key
/// also writes later (`md5Hex(user + "_" + item, 8) + "_" + user + "_" + item`,
/// `salt(phone, ...) + "_" + phone`), reserves its width, the key is written once and the
/// hash reads the bytes of its source range (steps `from..to`).
#[derive(Debug, Clone)]
pub(super) struct Plan {
    steps: Vec<Step>,
    /// The hash op and the steps whose bytes are its source.
    fill: Option<Fill>,
    /// Slots of the formatted-time cache the plan and the interpreter use.
    pub(super) times: usize,
    /// The hash is an MD5 salt whose every bucket renders in exactly its width (so filling
    /// it in cannot fail nor move the bytes after it): a batch may fill it in later, two
    /// records at a time ([`CompiledKey::encode_values_deferred`]).
    later: Option<Later>,
    /// The hash is a `String.hashCode` salt rendered as two decimal digits: filled in by
    /// [`QuickSalt::bucket`] without the interpreter's general hash and render.
    quick: Option<QuickSalt>,
    /// The quick salt's source is one string field (`salt(phone, ...) + "_" + phone`): its
    /// digits are written in place of the hole, from the field's own bytes (the same bytes
    /// the key writes later), so nothing is tracked or filled in after the loop.
    direct: Option<usize>,
}

/// A `String.hashCode` salt of at most 100 buckets rendered as `dec(2)` (the telecom key of
/// seed 000 and issue 4's benchmark) over ASCII source bytes (the Java text is then the same
/// characters), without the interpreter's general hash and render.
#[derive(Debug, Clone, Copy)]
struct QuickSalt {
    buckets: i32,
    modulo: ModMode,
}

impl QuickSalt {
    fn of(op: &Op, width: usize) -> Option<QuickSalt> {
        match op {
            Op::Salt {
                hash: SaltHash::JavaString,
                modulo,
                buckets,
                render: Render::Dec(2),
                ..
            } if width == 2 && (1..=100).contains(buckets) => Some(QuickSalt {
                buckets: *buckets,
                modulo: *modulo,
            }),
            _ => None,
        }
    }

    /// The bucket's two digits, or `None` when the general path must decide: bytes that are
    /// not ASCII, a UTF-16 value (a lone surrogate is written as `?`, hashed as itself), or a
    /// negative bucket (`Math.abs(Integer.MIN_VALUE) % n`).
    fn bucket(self, written: &[u8], values: &[FieldValue]) -> Option<[u8; 2]> {
        if values.iter().any(|v| matches!(v, FieldValue::Utf16(_))) {
            return None;
        }
        let h = hash::java_hash_ascii(written)?;
        let v = u8::try_from(java_mod(h, self.buckets, self.modulo)).ok()?;
        Some([b'0' + v / 10, b'0' + v % 10])
    }
}

/// The bucket count and render of a [`Plan`]'s MD5 salt that may be filled in later.
#[derive(Debug, Clone, Copy)]
struct Later {
    buckets: u32,
    render: Render,
    width: usize,
}

impl Later {
    fn of(op: &Op, width: usize) -> Option<Later> {
        let Op::Salt {
            hash: SaltHash::Md5,
            buckets,
            render: r,
            ..
        } = op
        else {
            return None;
        };
        let buckets = buckets.unsigned_abs().max(1);
        // Every bucket in 0..buckets renders in `width` bytes when the first and the last do
        // (decimal and hex digits only grow; the other renders have one size; `bytes(w)`
        // goes through OpenTSDB's checks and stays on the immediate path).
        if matches!(r, Render::Bytes(_)) {
            return None;
        }
        let mut b = Vec::new();
        for v in [0, i64::from(buckets) - 1] {
            b.clear();
            if render(r, v, &mut b).is_err() || b.len() != width {
                return None;
            }
        }
        Some(Later {
            buckets,
            render: *r,
            width,
        })
    }
}

/// A key written by [`CompiledKey::encode_values_deferred`] whose MD5 bucket is still to be
/// filled in: `width` bytes at `at`, the MD5 of the bytes `from..to` (offsets in the buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hole {
    at: usize,
    from: usize,
    to: usize,
}

impl Plan {
    pub(super) fn new(ops: &[Op], segs: &[Segment], times: usize) -> Option<Plan> {
        if ops.len() != segs.len() {
            return None;
        }
        let mut steps: Vec<Step> = ops.iter().enumerate().map(first_step).collect();
        let fill = match hash_range(ops, segs)? {
            Some((op, from, to)) => {
                if let Some(s) = steps.get_mut(op) {
                    *s = Step::Hole;
                }
                let width = ops.get(op).and_then(Op::width)?;
                Some(Fill {
                    op,
                    from,
                    to,
                    width,
                })
            }
            None => None,
        };
        // The other MD5s over constant bytes and string-rendered fields.
        #[cfg(not(lean))]
        for (i, step) in steps.iter_mut().enumerate() {
            if matches!(step, Step::Op(_)) {
                if let Some(src) = ops.get(i).and_then(hash_source) {
                    *step = Step::Hash { op: i, src };
                }
            }
        }
        let times = fuse_times(&mut steps, ops, fill, times);
        let fill = drop_nops(&mut steps, fill);
        let later = fill.and_then(|f| Later::of(ops.get(f.op)?, f.width));
        let quick = fill.and_then(|f| QuickSalt::of(ops.get(f.op)?, f.width));
        let direct = match (quick, fill) {
            (Some(_), Some(f)) if f.to == f.from + 1 => match steps.get(f.from) {
                Some(Step::Str(field)) => Some(*field),
                _ => None,
            },
            _ => None,
        };
        Some(Plan {
            steps,
            fill,
            times,
            later,
            quick,
            direct,
        })
    }
}

/// The step for `ops[i]` before hashes and fused times: a literal, a string field, a time
/// the cache can format, or the op through the interpreter.
fn first_step((i, op): (usize, &Op)) -> Step {
    match op {
        Op::Lit(b) => match b.as_slice() {
            [x] => Step::Byte(*x),
            _ => Step::Lit(b.clone()),
        },
        Op::Field { f, enc: Enc::Str } => Step::Str(*f),
        Op::Field {
            f,
            enc:
                Enc::Time {
                    secs: false,
                    id,
                    milli,
                    fixed: Some(fixed),
                    ..
                },
        } => Step::Time {
            op: i,
            last: i,
            f: *f,
            id: *id,
            milli: *milli,
            fixed: Box::new(fixed.clone()),
        },
        _ => Step::Op(i),
    }
}

/// The plan's hash, as (its op, the ops `from..to` whose bytes are its source): the first
/// hash over the rest of the key, or over segments the key writes again later. `None`: the
/// key has no plan (a hash over the rest that is not the only one, or has no fixed width);
/// `Some(None)`: no hash to fill in.
fn hash_range(ops: &[Op], segs: &[Segment]) -> Option<Option<(usize, usize, usize)>> {
    let mut fill = None;
    for (i, op) in ops.iter().enumerate() {
        let Some(src) = op.src() else { continue };
        match src {
            // A hash over the rest: no other hash after it may read the rest (handled by
            // the interpreter's recursion), and it must be the plan's only hole.
            Src::Rest => {
                if fill.is_some() || op.width().is_none() {
                    return None;
                }
                if ops.iter().skip(i + 1).any(|o| o.src().is_some()) {
                    return None;
                }
                return Some(Some((i, i + 1, ops.len())));
            }
            Src::Ops(_) if fill.is_none() && op.width().is_some() => {
                fill = written_again(segs, i);
            }
            Src::Ops(_) => {}
        }
    }
    Some(fill)
}

/// The hash `segs[i]`'s explicit source, where the key writes it again after the hash: the
/// first later occurrence of the same segments, as (`i`, from, to). (Evaluating them in key
/// order instead of hash-source first changes nothing but which error comes first, and
/// errors re-run the interpreter.)
fn written_again(segs: &[Segment], i: usize) -> Option<(usize, usize, usize)> {
    let of = match segs.get(i) {
        Some(Segment::Salt(s)) => s.of.as_deref(),
        Some(Segment::Hash15(h) | Segment::Md5(h)) => h.of.as_deref(),
        Some(Segment::Md5Hex(h)) => h.of.as_deref(),
        _ => None,
    };
    let of = of.filter(|o| !o.is_empty())?;
    let mut j = i + 1;
    while j + of.len() <= segs.len() {
        if segs.get(j..j + of.len()) == Some(of) {
            return Some((i, j, j + of.len()));
        }
        j += 1;
    }
    None
}

/// Remove the steps a fused run absorbed; the hash source's bounds are step indices, so they
/// move down by the removed steps before them.
fn drop_nops(steps: &mut Vec<Step>, mut fill: Option<Fill>) -> Option<Fill> {
    if let Some(f) = fill.as_mut() {
        let nops_before = |i: usize| {
            steps
                .iter()
                .take(i)
                .filter(|s| matches!(s, Step::Nop))
                .count()
        };
        f.from -= nops_before(f.from);
        f.to -= nops_before(f.to);
    }
    steps.retain(|s| !matches!(s, Step::Nop));
    fill
}

/// The source of an `md5`/`md5Hex` op as steps, when it is only constant bytes and fields
/// written as text (a string's UTF-8, `String.valueOf` of a number).
#[cfg(not(lean))]
fn hash_source(op: &Op) -> Option<Box<[Step]>> {
    let (Op::Md5 { src: Src::Ops(o) }
    | Op::Md5Hex {
        src: Src::Ops(o), ..
    }) = op
    else {
        return None;
    };
    o.iter()
        .map(|x| match x {
            Op::Lit(b) => Some(Step::Lit(b.clone())),
            Op::Field { f, enc: Enc::Str } => Some(Step::Str(*f)),
            _ => None,
        })
        .collect()
}

/// Fuse each run of `time(...)` steps over one field, with only constant bytes between them
/// and no hash-source boundary inside, into one step with one pattern and one cache slot
/// (seed 003's `time(sent, "yyMMdd") + ":" + time(sent, "HHmmss")`: a record whose second
/// differs from the last one's formats one text, not two). New cache slots are numbered from
/// `next_id`; returns the number of slots in use.
fn fuse_times(steps: &mut [Step], ops: &[Op], fill: Option<Fill>, mut next_id: usize) -> usize {
    let bounds = fill.map_or([usize::MAX; 3], |f| [f.op, f.from, f.to]);
    let toks_of = |i: usize| match ops.get(i) {
        Some(Op::Field {
            enc: Enc::Time { toks, .. },
            ..
        }) => Some(toks.clone()),
        _ => None,
    };
    let lit_of = |s: Option<&Step>| match s {
        Some(Step::Byte(b)) => Some(vec![*b]),
        Some(Step::Lit(b)) => Some(b.clone()),
        _ => None,
    };
    let mut k = 0;
    while k < steps.len() {
        // A run starts at a time step, or at constant bytes right before one (`"_" + time`).
        let tk = match (steps.get(k), steps.get(k + 1)) {
            (Some(Step::Time { .. }), _) => k,
            (Some(Step::Byte(_) | Step::Lit(_)), Some(Step::Time { .. }))
                if !bounds.contains(&(k + 1)) =>
            {
                k + 1
            }
            _ => {
                k += 1;
                continue;
            }
        };
        let Some(Step::Time { op, f, milli, .. }) = steps.get(tk) else {
            k += 1;
            continue;
        };
        let (op, f, mut milli) = (*op, *f, *milli);
        let mut toks = Vec::new();
        if tk > k {
            toks.push(Tok::Lit(lit_of(steps.get(k)).unwrap_or_default()));
        }
        toks.extend(toks_of(op).unwrap_or_default());
        let (mut last, mut lits) = (tk, Vec::new());
        let mut j = tk + 1;
        while j < steps.len() && !bounds.contains(&j) {
            match steps.get(j) {
                Some(Step::Byte(b)) => lits.push(*b),
                Some(Step::Lit(b)) => lits.extend_from_slice(b),
                Some(Step::Time {
                    op: o,
                    f: g,
                    milli: m,
                    ..
                }) if *g == f => {
                    let Some(more) = toks_of(*o) else { break };
                    if !lits.is_empty() {
                        toks.push(Tok::Lit(std::mem::take(&mut lits)));
                    }
                    toks.extend(more);
                    milli |= *m;
                    last = j;
                }
                _ => break,
            }
            j += 1;
        }
        // Constant bytes after the run (`time + ":"`) join it too.
        if !lits.is_empty() {
            toks.push(Tok::Lit(lits));
            last = j - 1;
        }
        if last > k {
            if let Some(fixed) = time::Fixed::new(&toks) {
                if let Some(s) = steps.get_mut(k) {
                    // `op..=last`: every op the step writes, for the interpreter's fallback.
                    *s = Step::Time {
                        op: k,
                        last,
                        f,
                        id: next_id,
                        milli,
                        fixed: Box::new(fixed),
                    };
                }
                next_id += 1;
                for s in steps.iter_mut().take(last + 1).skip(k + 1) {
                    *s = Step::Nop;
                }
            }
        }
        k = last.max(k) + 1;
    }
    next_id
}

#[cfg(test)]
mod plan_tests;
