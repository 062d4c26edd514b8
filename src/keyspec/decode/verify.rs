//! Whether a decoded key is one the design writes: its values re-encoded and compared
//! segment by segment, so that a key is called another design's only where a segment the key
//! fixes differs, never where the key kept a field only in part.

use crate::keyspec::compile::{CompiledKey, Enc, Encoding, Op, Src};
use crate::keyspec::time;
use crate::keyspec::value::FieldValue;

/// Whether a layout entry's bytes may differ from the key's for no fault of the key, when
/// the decoded values are re-encoded: the entry reads a field the key keeps only in part,
/// in a form the key does not fix. When-bodies inlined, as [`flat_len`](super::flat_len)
/// counts; a `when` itself is `None` (its entries follow it).
fn loose(ops: &[Op], lost: &Lost, out: &mut Vec<Option<bool>>) {
    for (i, o) in ops.iter().enumerate() {
        let entry = match o {
            Op::When { then, .. } => {
                out.push(None);
                loose(then, lost, out);
                continue;
            }
            // The decoded value is the earliest the key allows; the field's own segment
            // writes the key's bytes unless the key holds the field in forms that disagree.
            Op::Field { f, .. } => lost.inexact(*f),
            _ => match o.src() {
                Some(Src::Ops(s)) => unfixed(s, lost),
                // A hash over the rest differs only where the rest does.
                Some(Src::Rest) => unfixed(ops.get(i + 1..).unwrap_or(&[]), lost),
                None => false,
            },
        };
        out.push(Some(entry));
    }
}

/// The ops in layout order (when-bodies inlined, as [`flat_len`](super::flat_len) counts).
fn flat_ops(ops: &[Op]) -> Vec<&Op> {
    let mut out = Vec::new();
    for o in ops {
        out.push(o);
        if let Op::When { then, .. } = o {
            out.extend(flat_ops(then));
        }
    }
    out
}

/// What the key lost of each field: inexact fields, and the time parts it holds.
struct Lost<'a> {
    inexact: &'a [bool],
    times: &'a [Option<(time::Parts, bool)>],
}

impl Lost<'_> {
    fn inexact(&self, f: usize) -> bool {
        self.inexact.get(f).copied().unwrap_or(false)
    }

    /// Whether the time parts the key holds of field `f` fix what `enc` writes of it (a
    /// `time(...)` of the same unit whose every part the key holds).
    fn time_fixed(&self, f: usize, enc: &Enc) -> bool {
        match (enc, self.times.get(f)) {
            (Enc::Time { toks, secs, .. }, Some(Some((parts, held)))) => {
                secs == held && toks.iter().all(|t| parts.holds(t))
            }
            _ => false,
        }
    }
}

/// Whether `ops` (a hash's source) read a field the key keeps only in part in a form the key
/// does not fix: `time(ts, "yyyyMM")` is fixed by a key holding `yyyyMMddHHmmss`; not by one
/// holding `yyyy`, and `str(ts)` by no key without the milliseconds.
fn unfixed(ops: &[Op], lost: &Lost) -> bool {
    ops.iter().any(|o| match o {
        Op::Field { f, enc } => lost.inexact(*f) && !lost.time_fixed(*f, enc),
        Op::When { f, then, .. } => lost.inexact(*f) || unfixed(then, lost),
        _ => match o.src() {
            Some(Src::Ops(s)) => unfixed(s, lost),
            _ => false,
        },
    })
}

impl CompiledKey {
    /// Whether `key` is one this design writes, given its decoded `values` (`inexact[f]`: the
    /// key keeps field `f` only in part; `times`: the time parts it holds of each field).
    /// `Some(true)`: re-encoding them writes the key. `Some(false)`: a segment the key fixes
    /// writes other bytes (a wrong salt, bytes that are not canonical). `None`: not checkable;
    /// only segments that read a field the key keeps in part differ (`salt(phone + time(ts, "yyyyMM"))`
    /// before `time(ts, "yyyy")` salts with a month the key does not hold): no key is called
    /// another design's that another value of the field would write.
    pub(super) fn verify(
        &self,
        key: &[u8],
        spans: &[(usize, usize)],
        values: &[FieldValue],
        mut inexact: Vec<bool>,
        times: &[Option<(time::Parts, bool)>],
    ) -> Option<bool> {
        let ops = flat_ops(&self.ops);
        // A fixed-width field whose bytes start (left pad) or end (right pad) with the pad
        // byte may have a value that itself begins or ends with it, read as padding
        // (`fixed(d, 14, pad="3")` of 3.25E10): for checking, the key keeps it in part.
        for (o, &(a, b)) in ops.iter().zip(spans) {
            if let Op::Field {
                f,
                enc: Enc::Fixed { pad, left, .. },
            } = o
            {
                let bytes = key.get(a..b).unwrap_or(&[]);
                let edge = if *left { bytes.first() } else { bytes.last() };
                if edge == Some(pad) {
                    if let Some(x) = inexact.get_mut(*f) {
                        *x = true;
                    }
                }
            }
        }
        let lost = &Lost {
            inexact: &inexact,
            times,
        };
        let mut rng: Vec<u64> = Vec::new();
        let mut pool = self.pool_with_uids();
        let mut encoding = Encoding {
            fields: &self.fields,
            vals: values,
            rng: &mut rng,
            pool: &mut pool,
        };
        // The value a key gives back for a field it keeps in part may be one a segment refuses
        // (too long for a fixed width) or writes in another shape; exact values cannot.
        let unsure = if lost.inexact.contains(&true) {
            None
        } else {
            Some(false)
        };
        let mut again = Vec::with_capacity(key.len());
        if encoding.seq(&self.ops, &mut again).is_err() {
            return unsure;
        }
        if again == key {
            return Some(true);
        }
        // Segment by segment: the re-encoded key's spans against the key's.
        let Ok(re) = self.walk(&again) else {
            return unsure;
        };
        let mut marks = Vec::new();
        loose(&self.ops, lost, &mut marks);
        if re.spans.len() != spans.len() || marks.len() != spans.len() {
            return unsure;
        }
        // Per entry: `Some(loose)` where its bytes differ, `None` where they match (or a `when`).
        let differ: Vec<Option<bool>> = spans
            .iter()
            .zip(&re.spans)
            .zip(&marks)
            .map(|((a, b), m)| m.filter(|_| key.get(a.0..a.1) != again.get(b.0..b.1)))
            .collect();
        // Field segments that differ: `loose` ones (the key keeps the field in part) or the
        // others.
        let fields = |loose: bool| {
            differ.iter().enumerate().any(|(i, d)| {
                let field = matches!(ops.get(i), Some(Op::Field { .. }));
                field && *d == Some(loose)
            })
        };
        // A field segment that writes other bytes than the key's although the key fixes the
        // field: not canonical, not the design's key.
        if fields(false) {
            return Some(false);
        }
        // A field's own segment that the earliest value does not write: the key holds the
        // field in forms the decoder did not reconcile, so no hash over it can be judged.
        if fields(true) {
            return None;
        }
        // A hash the key fixes that does not match: a wrong salt.
        if differ.contains(&Some(false)) {
            return Some(false);
        }
        // Only hashes over what the key lost differ: not checkable. Nothing differs segment
        // by segment, yet the bytes do: the segments do not tile the key as it is.
        if differ.contains(&Some(true)) {
            None
        } else {
            Some(false)
        }
    }
}
