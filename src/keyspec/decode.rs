//! Decoding a row key back into field values, and the byte span of every segment.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::compile::{CompiledKey, Enc, Op, Src};
use super::time;
use super::value::FieldValue;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes;
use crate::keyspec::FieldType;

mod boundary;
mod read;
mod verify;
mod widths;
pub use boundary::Boundary;

/// A decoded row key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decoded {
    /// The fields whose value the key gives back, in declaration order.
    pub fields: Vec<DecodedField>,
    /// The fields the key does not give back, and why.
    pub unrecoverable: Vec<Unrecoverable>,
    /// `[start, end)` of every segment, in [`layout`](super::layout()) order (an absent
    /// conditional segment has an empty span).
    pub spans: Vec<(usize, usize)>,
    /// Re-encoding the decoded values (exact or earliest-consistent) reproduces the key, hash
    /// prefixes included: `true`; it does not (a salt or hash prefix does not match, or the
    /// bytes are not canonical): `false`; not checkable because a field the key uses is not
    /// recovered, the design has a random salt, or the only segments that differ read a
    /// field the key keeps in part (a salt over the month of a key holding the year; a fixed
    /// value that begins or ends with its pad byte): absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
}

/// One recovered field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecodedField {
    /// The field name.
    pub name: String,
    /// The value as JSON (longs beyond 2^53 as decimal strings).
    pub value: Value,
    /// `false` when the key only holds part of the value (a date without the time, a
    /// timestamp divided by 1000): `value` is then the smallest value consistent with it.
    pub exact: bool,
    /// What was lost, when not exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A field the key does not give back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unrecoverable {
    /// The field name.
    pub field: String,
    /// Why: hashed (one-way), only a remainder kept, or not in the key at all.
    pub reason: String,
}

impl Decoded {
    /// The exactly recovered fields as a JSON record (what `encode` would take back).
    pub fn record(&self) -> Map<String, Value> {
        self.fields
            .iter()
            .filter(|f| f.exact)
            .map(|f| (f.name.clone(), f.value.clone()))
            .collect()
    }
}

#[derive(Clone)]
struct Got {
    value: FieldValue,
    exact: bool,
    note: Option<String>,
}

/// What follows the segments being decoded: more segments, or the end of a `when` body.
#[derive(Clone, Copy)]
enum Frame<'b> {
    Ops(&'b [Op]),
    EndWhen(usize),
}

struct Snapshot {
    got: Vec<Option<Got>>,
    spans: usize,
    lossy: Vec<Vec<String>>,
    reached: Vec<bool>,
    times: Vec<Option<(time::Parts, bool)>>,
}

/// Separator occurrences tried per segment, and decode steps per key, before giving up.
const MAX_SPLITS: usize = 64;
const MAX_STEPS: usize = 20_000;

/// A key being decoded: the values, spans and losses found so far.
struct Decoding<'a> {
    ck: &'a CompiledKey,
    key: &'a [u8],
    got: Vec<Option<Got>>,
    spans: Vec<(usize, usize)>,
    lossy: Vec<Vec<String>>,
    reached: Vec<bool>,
    times: Vec<Option<(time::Parts, bool)>>,
    steps: usize,
    /// A region boundary, not a whole key: stop where it ends (`decode_boundary`).
    prefix: bool,
    /// The segment being read runs to the boundary's end, which may cut it.
    cut: bool,
}

fn derr(pos: usize, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_offset(pos)
}

/// Number of layout entries an op list occupies (when-bodies inlined).
pub(crate) fn flat_len(ops: &[Op]) -> usize {
    ops.iter()
        .map(|o| match o {
            Op::When { then, .. } => 1 + flat_len(then),
            _ => 1,
        })
        .sum()
}

/// Whether the decoder learns field values from `enc` as it reads it: a time's parts are
/// resolved only after the whole key, and a bucket by modulo keeps no value.
fn gives_value(enc: &Enc) -> bool {
    match enc {
        Enc::Time { .. } => false,
        Enc::Bucket { modulo, div, .. } => modulo.is_none() && div.is_some(),
        _ => true,
    }
}

impl CompiledKey {
    /// The first `when(f, ...)` that tests a field no segment before it gives back (layout
    /// index, field): the decoder must know `f` to tell whether the branch was taken, so no key
    /// of the design can be decoded past it. A field given only inside another `when`'s branch
    /// does not count, as it is missing from keys that skip that branch.
    pub(crate) fn blind_when(&self) -> Option<(usize, usize)> {
        fn walk(ops: &[Op], given: &mut [bool], at: &mut usize) -> Option<(usize, usize)> {
            for o in ops {
                let here = *at;
                *at += 1;
                match o {
                    Op::When { f, then, .. } => {
                        if !given.get(*f).copied().unwrap_or(false) {
                            return Some((here, *f));
                        }
                        if let Some(x) = walk(then, &mut given.to_vec(), at) {
                            return Some(x);
                        }
                    }
                    Op::Field { f, enc } if gives_value(enc) => {
                        if let Some(g) = given.get_mut(*f) {
                            *g = true;
                        }
                    }
                    _ => {}
                }
            }
            None
        }
        walk(&self.ops, &mut vec![false; self.fields.len()], &mut 0)
    }
}

fn op_name(ck: &CompiledKey, op: &Op) -> String {
    match op {
        Op::Lit(b) => format!("literal \"{}\"", bytes::to_string_binary(b)),
        Op::Field { f, .. } | Op::When { f, .. } => {
            format!(
                "field `{}`",
                ck.fields.get(*f).map(|x| x.0.as_str()).unwrap_or("?")
            )
        }
        Op::Salt { .. } => "salt".into(),
        Op::Random { .. } => "random salt".into(),
        Op::Hash15 { .. } => "hash15 prefix".into(),
        Op::Md5 { .. } => "md5".into(),
        Op::Md5Hex { .. } => "md5Hex prefix".into(),
        Op::Pk { .. } => "Phoenix primary key".into(),
    }
}

impl Decoding<'_> {
    fn first_of<'b>(rest: &'b [Op], cont: &[Frame<'b>]) -> Option<&'b Op> {
        rest.first().or_else(|| {
            cont.iter().find_map(|c| match c {
                Frame::Ops(o) => o.first(),
                Frame::EndWhen(_) => None,
            })
        })
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            got: self.got.clone(),
            spans: self.spans.len(),
            lossy: self.lossy.clone(),
            reached: self.reached.clone(),
            times: self.times.clone(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.got = s.got;
        self.spans.truncate(s.spans);
        self.lossy = s.lossy;
        self.reached = s.reached;
        self.times = s.times;
    }

    /// Decode `ops`, then every continuation frame, from `pos` to the end of the key.
    /// A variable-width segment before a separator tries each occurrence of the separator
    /// in turn (a value may contain the separator), keeping the first that decodes.
    fn run(&mut self, ops: &[Op], cont: &[Frame], pos: usize) -> Result<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(derr(pos, "the key has too many possible splits to decode"));
        }
        if self.prefix && pos >= self.key.len() {
            return Ok(());
        }
        let Some((op, rest)) = ops.split_first() else {
            return self.run_frames(cont, pos);
        };
        if self.prefix {
            return self.run_prefix(op, rest, cont, pos);
        }
        if let Op::When { f, is, then } = op {
            return self.run_when(*f, is, then, rest, cont, pos);
        }
        if let Op::Pk { run, .. } = op {
            return self.run_pk(run, cont, pos);
        }
        let widths = self.widths(op, rest, cont, pos)?;
        let single = widths.len() == 1;
        let mut first_err: Option<Error> = None;
        for w in widths {
            let end = match pos.checked_add(w).filter(|e| *e <= self.key.len()) {
                Some(e) => e,
                None => {
                    return Err(derr(
                        pos,
                        format!(
                            "key ends at byte {}, {} needs {w} bytes from byte {pos}",
                            self.key.len(),
                            op_name(self.ck, op)
                        ),
                    ))
                }
            };
            let snap = if single { None } else { Some(self.snapshot()) };
            let part = self.key.get(pos..end).unwrap_or(&[]);
            let r = self.read(op, part, pos).and_then(|_| {
                self.spans.push((pos, end));
                self.run(rest, cont, end)
            });
            match (r, snap) {
                (Ok(()), _) => return Ok(()),
                (Err(e), None) => return Err(e),
                (Err(e), Some(s)) => {
                    self.restore(s);
                    first_err.get_or_insert(e);
                }
            }
        }
        Err(first_err.unwrap_or_else(|| derr(pos, "no way to split the key")))
    }

    /// The segments of one level are decoded: go on with the next frame, or end at the end
    /// of the key.
    fn run_frames(&mut self, cont: &[Frame], pos: usize) -> Result<()> {
        match cont.split_first() {
            None if pos == self.key.len() => Ok(()),
            None => Err(derr(
                pos,
                format!(
                    "{} unexpected bytes after the last segment, from byte {pos}",
                    self.key.len().saturating_sub(pos)
                ),
            )),
            Some((Frame::Ops(o), more)) => self.run(o, more, pos),
            Some((Frame::EndWhen(slot), more)) => {
                if let Some(s) = self.spans.get_mut(*slot) {
                    s.1 = pos;
                }
                self.run(&[], more, pos)
            }
        }
    }

    /// A Phoenix primary key (the last segments of the key): every column read by
    /// `RowKeySchema`'s rules, one span per column (its value's bytes, separators excluded).
    fn run_pk(&mut self, run: &super::phoenix::PkRun, cont: &[Frame], pos: usize) -> Result<()> {
        let columns = run.decode(&self.ck.fields, self.key, pos)?;
        let mut end = pos;
        for (f, v, span) in columns {
            if let Some(r) = self.reached.get_mut(f) {
                *r = true;
            }
            if let Some(v) = v {
                self.set(f, v, true, None, span.0)?;
            }
            self.spans.push(span);
            end = end.max(span.1);
        }
        // A variable-width column reads to the end of the key (its trailing separator too).
        if run.fixed_width().is_none()
            && run
                .table
                .columns
                .iter()
                .any(|c| !c.data_type.is_fixed_width())
        {
            end = self.key.len();
        }
        self.run_frames(cont, end)
    }

    /// `when(f, is, then)`: decode `then` when the value already decoded for `f` is one of
    /// `is`, else record its segments as empty and go on.
    fn run_when(
        &mut self,
        f: usize,
        is: &[String],
        then: &[Op],
        rest: &[Op],
        cont: &[Frame],
        pos: usize,
    ) -> Result<()> {
        let slot = self.spans.len();
        self.spans.push((pos, pos));
        let (name, ty) = self
            .ck
            .fields
            .get(f)
            .cloned()
            .unwrap_or((String::new(), FieldType::String));
        let v = self.got.get(f).cloned().flatten().ok_or_else(|| {
            derr(
                pos,
                format!("when({name}, ...) tests `{name}` before the key has given its value"),
            )
        })?;
        if is.iter().any(|s| v.value.text_eq(ty, s)) {
            let mut then_cont: Vec<Frame> = vec![Frame::EndWhen(slot), Frame::Ops(rest)];
            then_cont.extend_from_slice(cont);
            return self.run(then, &then_cont, pos);
        }
        for _ in 0..flat_len(then) {
            self.spans.push((pos, pos));
        }
        self.run(rest, cont, pos)
    }

    fn set(
        &mut self,
        f: usize,
        value: FieldValue,
        exact: bool,
        note: Option<String>,
        pos: usize,
    ) -> Result<()> {
        let (exact, note) = match self.cut {
            true => (
                false,
                Some("the region boundary may end inside this value: it starts so".to_string()),
            ),
            false => (exact, note),
        };
        if let Some(r) = self.reached.get_mut(f) {
            *r = true;
        }
        let slot = self
            .got
            .get_mut(f)
            .ok_or_else(|| Error::new(ErrorKind::IllegalState, "field index out of range"))?;
        match slot {
            Some(g) if g.exact && exact && g.value != value => {
                let name = self.ck.fields.get(f).map(|x| x.0.as_str()).unwrap_or("?");
                Err(derr(
                    pos,
                    format!("field `{name}` appears twice in the key with different values"),
                ))
            }
            Some(g) if g.exact || !exact => Ok(()),
            _ => {
                *slot = Some(Got { value, exact, note });
                Ok(())
            }
        }
    }

    fn lossy(&mut self, f: usize, why: String) {
        if let Some(r) = self.reached.get_mut(f) {
            *r = true;
        }
        if let Some(l) = self.lossy.get_mut(f) {
            if !l.contains(&why) {
                l.push(why);
            }
        }
    }
}

pub(crate) fn collect_fields(ops: &[Op], out: &mut Vec<usize>) {
    for o in ops {
        match o {
            Op::Field { f, .. } => out.push(*f),
            Op::Pk { run, index: 0 } => out.extend(run.fields.iter().copied()),
            Op::When { f, then, .. } => {
                out.push(*f);
                collect_fields(then, out);
            }
            Op::Salt {
                src: Src::Ops(s), ..
            }
            | Op::Hash15 { src: Src::Ops(s) }
            | Op::Md5 { src: Src::Ops(s) }
            | Op::Md5Hex {
                src: Src::Ops(s), ..
            } => collect_fields(s, out),
            _ => {}
        }
    }
}

fn has_random(ops: &[Op]) -> bool {
    ops.iter().any(|o| match o {
        Op::Random { .. } => true,
        Op::When { then, .. } => has_random(then),
        Op::Salt {
            src: Src::Ops(s), ..
        }
        | Op::Hash15 { src: Src::Ops(s) }
        | Op::Md5 { src: Src::Ops(s) }
        | Op::Md5Hex {
            src: Src::Ops(s), ..
        } => has_random(s),
        _ => false,
    })
}

impl CompiledKey {
    fn walk<'a>(&'a self, key: &'a [u8]) -> Result<Decoding<'a>> {
        self.walk_with(key, false)
    }

    fn walk_with<'a>(&'a self, key: &'a [u8], prefix: bool) -> Result<Decoding<'a>> {
        let n = self.fields.len();
        let mut decoding = Decoding {
            ck: self,
            key,
            got: vec![None; n],
            spans: Vec::new(),
            lossy: vec![Vec::new(); n],
            reached: vec![false; n],
            times: vec![None; n],
            steps: 0,
            prefix,
            cut: false,
        };
        decoding.run(&self.ops, &[], 0)?;
        for f in 0..n {
            if let Some(Some((p, secs))) = decoding.times.get(f).cloned() {
                // A boundary may hold a time's first parts only: what it holds, or nothing.
                let (ms, lost) = match p.resolve() {
                    Err(_) if prefix => continue,
                    r => r.map_err(|m| derr(0, m))?,
                };
                let v = if secs { ms.div_euclid(1000) } else { ms };
                let note = lost.as_ref().map(|l| {
                    format!("the key's time text has no {l}; the earliest matching time is shown")
                });
                decoding.set(f, FieldValue::Long(v), lost.is_none(), note, 0)?;
            }
        }
        Ok(decoding)
    }

    /// `[start, end)` of every segment of `key`, in [`layout`](super::layout()) order.
    pub fn segment_spans(&self, key: &[u8]) -> Result<Vec<(usize, usize)>> {
        Ok(self.walk(key)?.spans)
    }

    /// The fields (indexes into the declarations) the key reads, each once, in declaration
    /// order: what a user's rows must give.
    pub fn used_fields(&self) -> Vec<usize> {
        let mut used = Vec::new();
        collect_fields(&self.ops, &mut used);
        used.sort_unstable();
        used.dedup();
        used
    }

    /// Decode `key`: every field the key gives back, and why the others are missing.
    pub fn decode(&self, key: &[u8]) -> Result<Decoded> {
        let decoding = self.walk(key)?;
        let mut used = Vec::new();
        collect_fields(&self.ops, &mut used);
        let mut fields = Vec::new();
        let mut unrecoverable = Vec::new();
        let mut values = Vec::with_capacity(self.fields.len());
        let mut complete = true;
        let mut inexact = Vec::with_capacity(self.fields.len());
        for (i, (name, ty)) in self.fields.iter().enumerate() {
            match decoding.got.get(i).cloned().flatten() {
                Some(g) => {
                    inexact.push(!g.exact);
                    fields.push(DecodedField {
                        name: name.clone(),
                        value: g.value.to_json(*ty),
                        exact: g.exact,
                        note: g.note,
                    });
                    values.push(g.value);
                }
                None => {
                    inexact.push(false);
                    let in_key = used.contains(&i);
                    let lossy = decoding.lossy.get(i).cloned().unwrap_or_default();
                    let reason = if !lossy.is_empty() {
                        lossy.join("; ")
                    } else if in_key && !decoding.reached.get(i).copied().unwrap_or(false) {
                        "only written by a when(...) branch this key does not take".to_string()
                    } else {
                        "not part of the key".to_string()
                    };
                    if in_key {
                        complete = false;
                    }
                    unrecoverable.push(Unrecoverable {
                        field: name.clone(),
                        reason,
                    });
                    values.push(FieldValue::Null);
                }
            }
        }
        let verified = if complete && !has_random(&self.ops) {
            self.verify(key, &decoding.spans, &values, inexact, &decoding.times)
        } else {
            None
        };
        Ok(Decoded {
            fields,
            unrecoverable,
            spans: decoding.spans,
            verified,
        })
    }
}
