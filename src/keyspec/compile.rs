//! Compiling a [`KeySpec`] against the field declarations, and the encoder.
//!
//! Compilation resolves field names to positions and checks every segment against its
//! field's type once, so encoding a record is a straight walk over pre-checked operations:
//! the analyzer encodes millions of records through [`CompiledKey::encode_values_into`].

use serde_json::{Map, Value};

use super::ast::*;
use super::time::{self, Tok};
use super::value::{missing, FieldValue};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes;
use crate::hbase::hash;
use crate::hbase::salt::{hbasewd::OneByteSimpleHash, opentsdb, phoenix};
use crate::keyspec::{Field, FieldType};

mod compiler;
mod interp;
mod plan;
mod render;
mod tables;
use compiler::Compiler;
pub(crate) use interp::Encoding;
use interp::{java_mod, mod_be};
pub(crate) use plan::Hole;
use plan::Plan;
pub use render::bucket_bounds;
pub(crate) use render::{render, render_width, unrender};
pub(crate) use tables::{NameTable, UidTable};

/// How one field is written.
#[derive(Debug, Clone)]
pub(crate) enum Enc {
    Str,
    Fixed {
        width: usize,
        pad: u8,
        left: bool,
        truncate: bool,
    },
    Dec {
        width: usize,
    },
    Long(bool),
    Int(bool),
    Short(bool),
    Double(bool),
    Float(bool),
    Bool,
    BigDecimal,
    Reverse,
    Revts {
        div: Option<i64>,
        render: Render,
    },
    Time {
        toks: Vec<Tok>,
        secs: bool,
        /// This segment's slot in the formatted-time cache ([`Pool`]).
        id: usize,
        /// The pattern prints milliseconds (so the cache is keyed by ms, not seconds).
        milli: bool,
        /// The pattern compiled (`None`: wider than the cache, formatted token by token).
        fixed: Option<time::Fixed>,
    },
    Bucket {
        modulo: Option<i64>,
        div: Option<i64>,
        render: Render,
    },
    Dict {
        entries: NameTable,
        render: Render,
    },
    /// `uid(f, W, [table])`: a table, or UIDs assigned in order of first appearance.
    Uid {
        width: u32,
        entries: Option<NameTable>,
    },
    /// `baseTime(f)`: `Internal.baseTime` as a 4-byte int.
    BaseTime,
}

/// Where a hash reads from.
#[derive(Debug, Clone)]
pub(crate) enum Src {
    /// Every segment after the hash, at the same level.
    Rest,
    /// Explicit segments (not written to the key themselves).
    Ops(Vec<Op>),
}

/// One compiled segment.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    Lit(Vec<u8>),
    Field {
        f: usize,
        enc: Enc,
    },
    Salt {
        src: Src,
        hash: SaltHash,
        modulo: ModMode,
        buckets: i32,
        render: Render,
        wd: Option<OneByteSimpleHash>,
    },
    Random {
        id: usize,
        buckets: u32,
        render: Render,
    },
    Hash15 {
        src: Src,
    },
    Md5 {
        src: Src,
    },
    Md5Hex {
        src: Src,
        len: usize,
        upper: bool,
    },
    When {
        f: usize,
        is: Vec<String>,
        then: Vec<Op>,
    },
    /// Column `index` of a Phoenix primary key: the first column writes the whole run
    /// (separators and trailing NULLs depend on every column), the others write nothing.
    Pk {
        run: std::sync::Arc<super::phoenix::PkRun>,
        index: usize,
    },
}

impl Op {
    pub(crate) fn src(&self) -> Option<&Src> {
        match self {
            Op::Salt { src, .. }
            | Op::Hash15 { src }
            | Op::Md5 { src }
            | Op::Md5Hex { src, .. } => Some(src),
            _ => None,
        }
    }

    /// Hashes over Java strings read UTF-16 text; the others read bytes.
    fn wants_text(&self) -> bool {
        matches!(
            self,
            Op::Salt {
                hash: SaltHash::JavaString,
                ..
            } | Op::Hash15 { .. }
        )
    }

    /// Bytes this segment always takes, or `None` when it varies per record.
    pub(crate) fn width(&self) -> Option<usize> {
        Some(match self {
            Op::Lit(b) => b.len(),
            Op::Field { enc, .. } => match enc {
                Enc::Str | Enc::Reverse | Enc::BigDecimal => return None,
                Enc::Fixed { width, .. } | Enc::Dec { width } => *width,
                Enc::Long(_) | Enc::Double(_) => 8,
                Enc::Int(_) | Enc::Float(_) => 4,
                Enc::Short(_) => 2,
                Enc::Bool => 1,
                Enc::Revts { render, .. }
                | Enc::Bucket { render, .. }
                | Enc::Dict { render, .. } => render_width(render),
                Enc::Time { toks, .. } => toks.iter().map(Tok::width).sum(),
                Enc::Uid { width, .. } => *width as usize,
                Enc::BaseTime => 4,
            },
            Op::Salt { render, .. } | Op::Random { render, .. } => render_width(render),
            Op::Hash15 { .. } => 2,
            Op::Md5 { .. } => 16,
            Op::Md5Hex { len, .. } => *len,
            Op::When { .. } => return None,
            Op::Pk { run, index: 0 } => return run.fixed_width(),
            Op::Pk { .. } => 0,
        })
    }
}

/// A key design compiled against its field declarations: encode, decode and lay out keys.
#[derive(Debug, Clone)]
pub struct CompiledKey {
    pub(crate) fields: Vec<(String, FieldType)>,
    pub(crate) ops: Vec<Op>,
    pub(crate) spec: KeySpec,
    seeds: Vec<u64>,
    rng: Vec<u64>,
    scratch: Vec<FieldValue>,
    pool: Pool,
    /// The top level as a flat list of steps, when it has no `random(...)` and at most one
    /// hash whose bytes come from the key itself (see [`Plan`]); `None`: the interpreter.
    plan: Option<Plan>,
    /// The hash prefix of the plan, computed before it is copied into its reserved bytes.
    head: Vec<u8>,
}

impl CompiledKey {
    /// Whether this key was compiled from `spec` over `fields` (so it encodes a record as a
    /// key compiled from them does).
    #[cfg(feature = "rows")]
    pub(crate) fn is_compiled_from(&self, spec: &KeySpec, fields: &[Field]) -> bool {
        self.spec == *spec
            && self.fields.len() == fields.len()
            && (self.fields.iter().zip(fields))
                .all(|((n, t), f)| *n == f.name && *t == f.field_type)
    }

    /// Check `spec` against `fields` and prepare it for encoding. Errors carry the segment's
    /// path (`segments/2`, `segments/0/of/1`) and name the field.
    pub fn new(spec: &KeySpec, fields: &[Field]) -> Result<CompiledKey> {
        spec.validate()?;
        // `tags(...)` is laid out, encoded and decoded as its expansion (literal tag-key UIDs
        // and values in UID order); its values are checked first where the user wrote them,
        // so errors carry the design's own paths.
        let expanded;
        let spec = if super::opentsdb::has_tags(&spec.segments) {
            Compiler {
                fields,
                seeds: Vec::new(),
                times: 0,
            }
            .ops(&spec.segments, "segments")?;
            expanded = KeySpec {
                segments: super::opentsdb::expand(&spec.segments),
            };
            &expanded
        } else {
            spec
        };
        let mut c = Compiler {
            fields,
            seeds: Vec::new(),
            times: 0,
        };
        let mut ops = c.ops(&spec.segments, "segments")?;
        link(&spec.segments, &mut ops);
        let plan = if c.seeds.is_empty() {
            Plan::new(&ops, &spec.segments, c.times)
        } else {
            None
        };
        // Every `time(...)` cache slot exists from the start (the plan's fused steps have
        // their own, past the interpreter's).
        let slots = plan.as_ref().map_or(c.times, |p| p.times);
        let pool = Pool {
            times: vec![TimeCache::default(); slots],
            ..Pool::default()
        };
        let key = CompiledKey {
            plan,
            head: Vec::new(),
            fields: fields
                .iter()
                .map(|f| (f.name.clone(), f.field_type))
                .collect(),
            ops,
            spec: spec.clone(),
            rng: c.seeds.clone(),
            seeds: c.seeds,
            scratch: Vec::new(),
            pool,
        };
        // Every key the design writes is at least this long: past HBase's row limit, none can
        // be written (each key built is checked too, for the variable-length ones).
        let (min, _) = key.key_length();
        crate::limits::check_row_length("segments", min)?;
        Ok(key)
    }

    /// The field names and types, in the order [`encode_values_into`](Self::encode_values_into) expects.
    pub fn field_names(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().map(|(n, _)| n.as_str())
    }

    /// The position of field `name` in a value slice.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|(n, _)| n == name)
    }

    /// Restart every `random(...)` segment's generator from its seed.
    pub fn reset_random(&mut self) {
        self.rng.clone_from(&self.seeds);
    }

    /// Restart every `random(...)` segment's generator from `mix` of its seed: the analysis
    /// restarts them at each block of records (as the workload restarts its own), so a block
    /// counted apart on another worker draws what one pass draws there.
    pub fn reseed_random(&mut self, mix: impl Fn(u64) -> u64) {
        for (state, seed) in self.rng.iter_mut().zip(&self.seeds) {
            *state = mix(*seed);
        }
    }

    /// Whether the key has a `random(...)` segment.
    pub fn has_random(&self) -> bool {
        !self.seeds.is_empty()
    }

    /// The segments as laid out, encoded and decoded: the design's own, with every
    /// `tags(...)` replaced by its tag-key UIDs and values in UID order. Layout entries index
    /// these.
    pub fn segments(&self) -> &[Segment] {
        &self.spec.segments
    }

    /// Forget the UIDs `uid(f, W)` segments assigned, so the next record starts again at 1.
    pub fn reset_uids(&mut self) {
        self.pool.uids.clear();
        self.pool.uid_bytes = 0;
    }

    /// The name field `f`'s `uid(...)` assigned UID `id` to, if any.
    pub(crate) fn assigned_uid(&self, f: usize, id: i64) -> Option<&[u8]> {
        self.pool.uids.get(f)?.name(id)
    }

    /// A scratch pool that knows the UIDs assigned so far (re-encoding a decoded key).
    pub(crate) fn pool_with_uids(&self) -> Pool {
        Pool {
            uids: self.pool.uids.clone(),
            uid_bytes: self.pool.uid_bytes,
            ..Pool::default()
        }
    }

    /// Convert a JSON record into values indexed like the field declarations.
    pub fn values_from_json(&self, record: &Map<String, Value>) -> Result<Vec<FieldValue>> {
        let mut out = Vec::with_capacity(self.fields.len());
        self.fill_values(record, &mut out)?;
        Ok(out)
    }

    fn fill_values(&self, record: &Map<String, Value>, out: &mut Vec<FieldValue>) -> Result<()> {
        out.clear();
        for (name, ty) in &self.fields {
            let v = match record.get(name) {
                Some(v) => FieldValue::from_json(name, *ty, v)?,
                None => FieldValue::Null,
            };
            out.push(v);
        }
        Ok(())
    }

    /// Encode one JSON record, appending the row key to `out`.
    pub fn encode_json_into(
        &mut self,
        out: &mut Vec<u8>,
        record: &Map<String, Value>,
    ) -> Result<()> {
        let mut vals = std::mem::take(&mut self.scratch);
        let r = self
            .fill_values(record, &mut vals)
            .and_then(|_| self.encode_values_into(out, &vals));
        self.scratch = vals;
        r
    }

    /// Encode `records` one after the other, appending each row key to `keys` and its end
    /// offset to `ends`. An error is located at the record (`records[i].field`); the keys of
    /// the records before it stay appended.
    pub fn encode_all(
        &mut self,
        records: &[Map<String, Value>],
        keys: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        for (i, r) in records.iter().enumerate() {
            self.encode_json_into(keys, r)
                .map_err(|e| at_record(e, i))?;
            ends.push(keys.len());
        }
        Ok(())
    }

    /// Encode one JSON record into a new row key.
    pub fn encode_json(&mut self, record: &Map<String, Value>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_json_into(&mut out, record)?;
        Ok(out)
    }

    /// Encode one record given as typed values (indexed like the field declarations),
    /// appending the row key to `out`. On error `out` is left as it was.
    pub fn encode_values_into(&mut self, out: &mut Vec<u8>, values: &[FieldValue]) -> Result<()> {
        self.encode_values_deferred_if(out, values, false)
            .map(|_| ())
    }

    fn interpret(&mut self, out: &mut Vec<u8>, values: &[FieldValue]) -> Result<()> {
        let start = out.len();
        let mut encoding = Encoding {
            fields: &self.fields,
            vals: values,
            rng: &mut self.rng,
            pool: &mut self.pool,
        };
        let r = encoding.seq(&self.ops, out);
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    /// [`encode_values_into`](Self::encode_values_into) into a new vector.
    pub fn encode_values(&mut self, values: &[FieldValue]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_values_into(&mut out, values)?;
        Ok(out)
    }
}

/// `e`, raised for record `i` of a list, located at that record: `records[i]`, then the
/// field in it (`records[3].phone`).
pub fn at_record(e: Error, i: usize) -> Error {
    let path = match e.location.path.as_deref() {
        Some(p) => format!("records[{i}].{p}"),
        None => format!("records[{i}]"),
    };
    e.at_path(path)
}

/// Reusable scratch buffers, so encoding a record allocates nothing in the steady state.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pool {
    b: Vec<Vec<u8>>,
    u: Vec<Vec<u16>>,
    w: Vec<Vec<u64>>,
    /// The last text each `time(...)` segment wrote, by segment id.
    times: Vec<TimeCache>,
    /// The last day `time(...)` broke down.
    day: time::DayCache,
    /// UIDs `uid(f, W)` assigned so far, by field index.
    pub(crate) uids: Vec<UidTable>,
    /// Bytes of names the `uids` tables keep.
    pub(crate) uid_bytes: usize,
}

/// A `time(...)` segment's last output: a clock repeats the same second many times.
#[derive(Debug, Clone, Default)]
struct TimeCache {
    /// Seconds (or ms when the pattern prints them) of the cached text; `None`: empty.
    key: Option<i64>,
    len: usize,
    text: [u8; time::FIXED],
}

impl TimeCache {
    /// Append the text of `ms` (`key`: its second, or ms when the pattern prints them),
    /// formatting it only when `key` is not the cached one. On error nothing changes.
    fn push(
        &mut self,
        key: i64,
        ms: i64,
        fixed: &time::Fixed,
        day: &mut time::DayCache,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        if self.key != Some(key) {
            let civil = time::civil_cached(ms, day)?;
            *self = TimeCache {
                key: Some(key),
                len: fixed.len(),
                text: fixed.render(&civil),
            };
        }
        // The whole buffer (a constant-size copy; a variable length calls `memmove`), then
        // cut to the text.
        let at = out.len();
        out.extend_from_slice(&self.text);
        out.truncate(at + self.len);
        Ok(())
    }
}

impl Pool {
    fn bytes(&mut self) -> Vec<u8> {
        let mut v = self.b.pop().unwrap_or_default();
        v.clear();
        v
    }
    fn units(&mut self) -> Vec<u16> {
        let mut v = self.u.pop().unwrap_or_default();
        v.clear();
        v
    }
    fn put_bytes(&mut self, v: Vec<u8>) {
        if self.b.len() < 16 {
            self.b.push(v);
        }
    }
    fn put_units(&mut self, v: Vec<u16>) {
        if self.u.len() < 16 {
            self.u.push(v);
        }
    }
    fn words(&mut self) -> Vec<u64> {
        let mut v = self.w.pop().unwrap_or_default();
        v.clear();
        v
    }
    fn put_words(&mut self, v: Vec<u64>) {
        if self.w.len() < 16 {
            self.w.push(v);
        }
    }
}

/// The runs of `ops` (compiled one column each) joined: the first `pk` op of the run gets
/// every column and the salt of a `salt(N, hash=phoenix)` just before it.
fn link(segs: &[Segment], ops: &mut [Op]) {
    use super::phoenix::{phoenix_salt, PkRun};
    use crate::hbase::phoenix::PhoenixTable;
    use std::sync::Arc;
    let Some(first) = segs.iter().position(|s| matches!(s, Segment::Pk(_))) else {
        return;
    };
    let mut table = PhoenixTable {
        name: "T".into(),
        columns: Vec::new(),
        salt_buckets: first
            .checked_sub(1)
            .and_then(|i| segs.get(i))
            .and_then(phoenix_salt),
        row_key_order_optimizable: true,
    };
    let mut fields = Vec::new();
    for op in ops.iter().skip(first) {
        if let Op::Pk { run, .. } = op {
            table.columns.extend(run.table.columns.iter().cloned());
            fields.extend(run.fields.iter().copied());
        }
    }
    let run = Arc::new(PkRun { table, fields });
    for (i, op) in ops.iter_mut().skip(first).enumerate() {
        if let Op::Pk { .. } = op {
            *op = Op::Pk {
                run: run.clone(),
                index: i,
            };
        }
    }
}
