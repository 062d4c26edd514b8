//! Compiling a [`KeySpec`] against the field declarations, and the encoder.
//!
//! Compilation resolves field names to positions and checks every segment against its
//! field's type once, so encoding a record is a straight walk over pre-checked operations:
//! the analyzer encodes millions of records through [`CompiledKey::encode_into`].

use serde_json::{Map, Value};

use super::ast::*;
use super::time::{self, Tok};
use super::value::{missing, FieldValue};
use crate::bytes;
use crate::design::{FieldDecl, FieldType};
use crate::error::{Error, ErrorKind, Result};
use crate::hash;
use crate::salt::{hbasewd::OneByteSimpleHash, opentsdb, phoenix};

mod plan;
pub(crate) use plan::Hole;
use plan::Plan;

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
        entries: Vec<(String, i64)>,
        render: Render,
    },
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
}

impl Op {
    fn src(&self) -> Option<&Src> {
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
            },
            Op::Salt { render, .. } | Op::Random { render, .. } => render_width(render),
            Op::Hash15 { .. } => 2,
            Op::Md5 { .. } => 16,
            Op::Md5Hex { len, .. } => *len,
            Op::When { .. } => return None,
        })
    }
}

pub(crate) fn render_width(r: &Render) -> usize {
    match r {
        Render::Byte | Render::Letter => 1,
        Render::Short => 2,
        Render::Int => 4,
        Render::Long => 8,
        Render::Dec(w) | Render::Hex(w) | Render::HexUpper(w) | Render::Bytes(w) => *w as usize,
    }
}

/// Write `v` as `r`. Java casts keep the low bits; decimal and hex must fit their width.
pub(crate) fn render(r: &Render, v: i64, out: &mut Vec<u8>) -> Result<()> {
    match r {
        Render::Byte => out.push(v as u8),
        Render::Letter => match u8::try_from(v) {
            Ok(n) if n < 26 => out.push(b'a' + n),
            _ => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("{v} has no letter: `as=letter` writes 0..25 as a..z"),
                ))
            }
        },
        Render::Short => out.extend_from_slice(&bytes::to_bytes_short(v as i16)),
        Render::Int => out.extend_from_slice(&bytes::to_bytes_int(v as i32)),
        Render::Long => out.extend_from_slice(&bytes::to_bytes_long(v)),
        // `dec(2)` salts: two digits from a constant-size copy.
        Render::Dec(w) if *w >= 2 && (0..100).contains(&v) => {
            out.extend(std::iter::repeat(b'0').take(*w as usize - 2));
            out.extend_from_slice(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]);
        }
        Render::Dec(w) | Render::Hex(w) | Render::HexUpper(w) => {
            let w = *w as usize;
            // Fast path without allocating: a non-negative number whose digits fit the width.
            let mut buf = [0u8; 20];
            let digits: &[u8] = match r {
                Render::Dec(_) if v >= 0 => super::value::digits(v as u64, &mut buf),
                Render::Dec(_) => &[],
                Render::Hex(_) => hex_digits(v as u64, b"0123456789abcdef", &mut buf),
                _ => hex_digits(v as u64, b"0123456789ABCDEF", &mut buf),
            };
            if !digits.is_empty() && digits.len() <= w {
                out.extend(std::iter::repeat(b'0').take(w - digits.len()));
                out.extend_from_slice(digits);
                return Ok(());
            }
            let s = match r {
                Render::Dec(_) if v < 0 => {
                    // String.format("%0Nd", v): the sign counts towards the width.
                    let digits = v.unsigned_abs().to_string();
                    format!("-{:0>width$}", digits, width = w.saturating_sub(1))
                }
                Render::Dec(_) => format!("{v:0w$}"),
                Render::Hex(_) => format!("{:0w$x}", v as u64),
                _ => format!("{:0w$X}", v as u64),
            };
            if s.len() > w {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{v} needs {} characters but {} has {w}: widen it, or the key's width and order break",
                        s.len(),
                        super::format::render_text(r)
                    ),
                ));
            }
            out.extend_from_slice(s.as_bytes());
        }
        Render::Bytes(w) => {
            let m = i32::try_from(v).map_err(|_| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("{v} does not fit the 32-bit salt of bytes({w})"),
                )
            })?;
            out.extend_from_slice(&opentsdb::salt_bytes(m, *w as i32)?);
        }
    }
    Ok(())
}

/// The hex digits of `n` (at least one), without allocating.
fn hex_digits<'a>(mut n: u64, alphabet: &[u8; 16], buf: &'a mut [u8; 20]) -> &'a [u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = alphabet[(n & 15) as usize];
        }
        n >>= 4;
        if n == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..).unwrap_or(&[])
}

/// Read back what [`render`] wrote (`b` has exactly the render width).
pub(crate) fn unrender(r: &Render, b: &[u8]) -> std::result::Result<i64, String> {
    let fixed = |n: usize| -> std::result::Result<[u8; 8], String> {
        let mut a = [0u8; 8];
        if b.len() != n {
            return Err(format!("expected {n} bytes, found {}", b.len()));
        }
        for (dst, src) in a.iter_mut().skip(8 - n).zip(b) {
            *dst = *src;
        }
        Ok(a)
    };
    Ok(match r {
        Render::Byte => i64::from(b.first().copied().ok_or("expected 1 byte")?),
        Render::Letter => match b.first() {
            Some(c @ b'a'..=b'z') => i64::from(c - b'a'),
            _ => {
                return Err(format!(
                    "expected a letter a..z, found `{}`",
                    bytes::to_string_binary(b)
                ))
            }
        },
        Render::Short => i64::from(i64::from_be_bytes(fixed(2)?) as i16),
        Render::Int => i64::from(i64::from_be_bytes(fixed(4)?) as i32),
        Render::Long => i64::from_be_bytes(fixed(8)?),
        Render::Dec(_) => {
            let s = std::str::from_utf8(b).map_err(|_| "expected decimal digits".to_string())?;
            if !s
                .bytes()
                .enumerate()
                .all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-'))
            {
                return Err(format!(
                    "expected decimal digits, found `{}`",
                    bytes::to_string_binary(b)
                ));
            }
            s.parse().map_err(|_| format!("`{s}` is not a number"))?
        }
        Render::Hex(_) | Render::HexUpper(_) => {
            let s = std::str::from_utf8(b).map_err(|_| "expected hex digits".to_string())?;
            u64::from_str_radix(s, 16).map_err(|_| {
                format!(
                    "expected hex digits, found `{}`",
                    bytes::to_string_binary(b)
                )
            })? as i64
        }
        Render::Bytes(w) => {
            let n = (*w as usize).min(4);
            let tail = b.get(b.len().saturating_sub(n)..).unwrap_or(&[]);
            let mut a = [0u8; 8];
            for (dst, src) in a.iter_mut().skip(8 - tail.len()).zip(tail) {
                *dst = *src;
            }
            i64::from(i64::from_be_bytes(a) as i32)
        }
    })
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

fn seg_err(path: &str, seg: &Segment, msg: impl std::fmt::Display) -> Error {
    let text = super::format::segments_text(std::slice::from_ref(seg));
    Error::new(ErrorKind::Invalid, format!("`{text}`: {msg}")).at_path(path.to_string())
}

struct Compiler<'a> {
    fields: &'a [FieldDecl],
    seeds: Vec<u64>,
    times: usize,
}

fn is_int(t: FieldType) -> bool {
    matches!(
        t,
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp
    )
}

impl Compiler<'_> {
    fn field(&self, path: &str, seg: &Segment, name: &str) -> Result<(usize, FieldType)> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| self.fields.get(i).map(|f| (i, f.field_type)))
            .ok_or_else(|| {
                let known: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
                seg_err(
                    path,
                    seg,
                    format!(
                        "no field named `{name}` is declared (declared: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                )
            })
    }

    fn ops(&mut self, segs: &[Segment], path: &str) -> Result<Vec<Op>> {
        segs.iter()
            .enumerate()
            .map(|(i, s)| self.op(s, &format!("{path}/{i}")))
            .collect()
    }

    fn src(&mut self, of: &Option<Vec<Segment>>, path: &str) -> Result<Src> {
        match of {
            None => Ok(Src::Rest),
            Some(segs) => Ok(Src::Ops(self.ops(segs, &format!("{path}/of"))?)),
        }
    }

    fn op(&mut self, seg: &Segment, path: &str) -> Result<Op> {
        let need = |ok: bool, t: FieldType, what: &str| -> Result<()> {
            if ok {
                Ok(())
            } else {
                Err(seg_err(
                    path,
                    seg,
                    format!(
                        "the field is declared {}, this segment needs {what}",
                        t.name()
                    ),
                ))
            }
        };
        let fop = |f: usize, enc: Enc| Ok(Op::Field { f, enc });
        match seg {
            Segment::Literal(l) => Ok(Op::Lit(l.bytes.clone())),
            Segment::Field(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                fop(
                    f,
                    match t {
                        FieldType::String => Enc::Str,
                        FieldType::Long | FieldType::Timestamp => Enc::Long(false),
                        FieldType::Int => Enc::Int(false),
                        FieldType::Short => Enc::Short(false),
                        FieldType::Double => Enc::Double(false),
                        FieldType::Float => Enc::Float(false),
                        FieldType::Boolean => Enc::Bool,
                        FieldType::BigDecimal => Enc::BigDecimal,
                    },
                )
            }
            Segment::Str(a) => fop(self.field(path, seg, &a.field)?.0, Enc::Str),
            Segment::Reverse(a) => fop(self.field(path, seg, &a.field)?.0, Enc::Reverse),
            Segment::Bool(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                need(t == FieldType::Boolean, t, "a boolean")?;
                fop(f, Enc::Bool)
            }
            Segment::BigDecimal(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                need(
                    t == FieldType::BigDecimal || is_int(t),
                    t,
                    "a bigDecimal or an integer",
                )?;
                fop(f, Enc::BigDecimal)
            }
            Segment::Long(n) | Segment::Int(n) | Segment::Short(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(is_int(t), t, "an integer (long, int, short or timestamp)")?;
                fop(
                    f,
                    match seg {
                        Segment::Long(_) => Enc::Long(n.sortable),
                        Segment::Int(_) => Enc::Int(n.sortable),
                        _ => Enc::Short(n.sortable),
                    },
                )
            }
            Segment::Double(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(
                    matches!(t, FieldType::Double | FieldType::Float),
                    t,
                    "a double or float",
                )?;
                fop(f, Enc::Double(n.sortable))
            }
            Segment::Float(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(t == FieldType::Float, t, "a float")?;
                fop(f, Enc::Float(n.sortable))
            }
            Segment::Fixed(x) => {
                let f = self.field(path, seg, &x.field)?.0;
                fop(
                    f,
                    Enc::Fixed {
                        width: x.width as usize,
                        pad: x.pad,
                        left: x.side == PadSide::Left,
                        truncate: x.overflow == Overflow::Truncate,
                    },
                )
            }
            Segment::Dec(d) => {
                let (f, t) = self.field(path, seg, &d.field)?;
                need(is_int(t), t, "an integer")?;
                fop(
                    f,
                    Enc::Dec {
                        width: d.width as usize,
                    },
                )
            }
            Segment::Revts(r) => {
                let (f, t) = self.field(path, seg, &r.field)?;
                need(is_int(t), t, "a timestamp or integer")?;
                fop(
                    f,
                    Enc::Revts {
                        div: r.div,
                        render: r.render,
                    },
                )
            }
            Segment::Time(x) => {
                let (f, t) = self.field(path, seg, &x.field)?;
                need(is_int(t), t, "a timestamp")?;
                let toks = time::parse_pattern(&x.pattern).map_err(|m| seg_err(path, seg, m))?;
                let id = self.times;
                self.times += 1;
                fop(
                    f,
                    Enc::Time {
                        milli: toks.contains(&Tok::Milli),
                        fixed: time::Fixed::new(&toks),
                        toks,
                        secs: x.unit == TimeUnit::S,
                        id,
                    },
                )
            }
            Segment::Bucket(b) => {
                let (f, t) = self.field(path, seg, &b.field)?;
                need(is_int(t), t, "a timestamp or integer")?;
                fop(
                    f,
                    Enc::Bucket {
                        modulo: b.modulo,
                        div: b.div,
                        render: b.render,
                    },
                )
            }
            Segment::Dict(d) | Segment::Tag(d) => {
                let f = self.field(path, seg, &d.field)?.0;
                let default = if matches!(seg, Segment::Tag(_)) {
                    Render::Byte
                } else {
                    Render::Long
                };
                fop(
                    f,
                    Enc::Dict {
                        entries: d.entries.clone(),
                        render: d.render.unwrap_or(default),
                    },
                )
            }
            Segment::When(w) => {
                let f = self.field(path, seg, &w.field)?.0;
                Ok(Op::When {
                    f,
                    is: w.is.clone(),
                    then: self.ops(&w.then, &format!("{path}/then"))?,
                })
            }
            Segment::Salt(s) => {
                let src = self.src(&s.of, path)?;
                let buckets =
                    i32::try_from(s.buckets).map_err(|_| seg_err(path, seg, "too many buckets"))?;
                let wd = match s.hash {
                    SaltHash::Hbasewd => Some(
                        OneByteSimpleHash::new(buckets)
                            .map_err(|e| seg_err(path, seg, e.message))?,
                    ),
                    _ => None,
                };
                Ok(Op::Salt {
                    src,
                    hash: s.hash,
                    modulo: s.modulo,
                    buckets,
                    render: s.render,
                    wd,
                })
            }
            Segment::Random(r) => {
                let id = self.seeds.len();
                self.seeds.push(r.seed);
                Ok(Op::Random {
                    id,
                    buckets: r.buckets,
                    render: r.render,
                })
            }
            Segment::Hash15(h) => Ok(Op::Hash15 {
                src: self.src(&h.of, path)?,
            }),
            Segment::Md5(h) => Ok(Op::Md5 {
                src: self.src(&h.of, path)?,
            }),
            Segment::Md5Hex(h) => Ok(Op::Md5Hex {
                src: self.src(&h.of, path)?,
                len: h.len as usize,
                upper: h.upper,
            }),
        }
    }
}

impl CompiledKey {
    /// Check `spec` against `fields` and prepare it for encoding. Errors carry the segment's
    /// path (`segments/2`, `segments/0/of/1`) and name the field.
    pub fn new(spec: &KeySpec, fields: &[FieldDecl]) -> Result<CompiledKey> {
        spec.validate()?;
        let mut c = Compiler {
            fields,
            seeds: Vec::new(),
            times: 0,
        };
        let ops = c.ops(&spec.segments, "segments")?;
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
        Ok(CompiledKey {
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
        })
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
                Some(v) => FieldValue::from_json(
                    &FieldDecl {
                        name: name.clone(),
                        field_type: *ty,
                        cardinality: None,
                        generator: None,
                    },
                    v,
                )?,
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
        let mut cx = Cx {
            fields: &self.fields,
            vals: values,
            rng: &mut self.rng,
            pool: &mut self.pool,
        };
        let r = cx.seq(&self.ops, out);
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
}

/// A `time(...)` segment's last output: a clock repeats the same second many times.
#[derive(Debug, Clone, Default)]
struct TimeCache {
    /// Seconds (or ms when the pattern prints them) of the cached text; `None`: empty.
    key: Option<i64>,
    len: usize,
    text: [u8; time::FIXED],
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

/// Encoding context for one record.
pub(crate) struct Cx<'a> {
    pub fields: &'a [(String, FieldType)],
    pub vals: &'a [FieldValue],
    pub rng: &'a mut [u64],
    pub pool: &'a mut Pool,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The text a Java-string hash reads: UTF-16 code units, or ASCII bytes (the same
/// characters, one unit each).
#[derive(Clone, Copy)]
enum Text<'a> {
    Units(&'a [u16]),
    Ascii(&'a [u8]),
}

impl Text<'_> {
    /// Java's `String.hashCode()` of the text.
    fn hash_code(self) -> i32 {
        match self {
            Text::Units(u) => hash::java_string_hash_code(u),
            Text::Ascii(b) => hash::java_hash_of(b.iter().map(|&c| i32::from(c)), 0),
        }
    }
}

/// A big-endian number (an MD5 digest) modulo `n`, 32 bits at a time: the same value as
/// `u128::from_be_bytes(d) % n` without a 128-bit division.
fn mod_be(d: &[u8; 16], n: u32) -> u64 {
    let n = u64::from(n.max(1));
    let mut w = [0u64; 4];
    for (x, c) in w.iter_mut().zip(d.chunks_exact(4)) {
        let mut b = [0u8; 4];
        b.copy_from_slice(c);
        *x = u64::from(u32::from_be_bytes(b));
    }
    let [w0, w1, w2, w3] = w;
    if n.is_power_of_two() {
        // 2^k divides 2^32: only the last word's low bits count.
        return w3 & (n - 1);
    }
    // The first two words as one u64, then one division per word (r < n <= 2^32).
    let r = ((w0 << 32) | w1) % n;
    let r = ((r << 32) | w2) % n;
    ((r << 32) | w3) % n
}

fn java_mod(h: i32, n: i32, m: ModMode) -> i64 {
    i64::from(match m {
        ModMode::AbsOfMod => h.wrapping_rem(n).wrapping_abs(),
        ModMode::ModOfAbs => h.wrapping_abs().wrapping_rem(n),
        ModMode::FloorMod => h.rem_euclid(n.max(1)),
    })
}

fn field_err(field: &str, msg: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("field `{field}`: {}", msg.into()),
    )
    .at_path(field.to_string())
}

impl<'a> Cx<'a> {
    fn value(&self, f: usize) -> Result<(&'a FieldValue, FieldType, &'a str)> {
        let fields: &'a [(String, FieldType)] = self.fields;
        let vals: &'a [FieldValue] = self.vals;
        let (name, ty) = fields
            .get(f)
            .ok_or_else(|| Error::new(ErrorKind::IllegalState, "field index out of range"))?;
        match vals.get(f) {
            Some(FieldValue::Null) | None => Err(missing(name)),
            Some(v) => Ok((v, *ty, name.as_str())),
        }
    }

    fn long(&self, f: usize) -> Result<(i64, &'a str)> {
        match self.value(f)? {
            (FieldValue::Long(n), _, name) => Ok((*n, name)),
            (other, _, name) => Err(field_err(
                name,
                format!("expected an integer value, got {other:?}"),
            )),
        }
    }

    pub(crate) fn seq(&mut self, ops: &[Op], out: &mut Vec<u8>) -> Result<()> {
        for (i, op) in ops.iter().enumerate() {
            if let Some(Src::Rest) = op.src() {
                let rest = ops.get(i + 1..).unwrap_or(&[]);
                return self.prefixed(op, rest, out);
            }
            self.op(op, out)?;
        }
        Ok(())
    }

    /// A hash segment over every segment after it: reserve the prefix's width, write the rest
    /// once, hash the bytes just written and fill the prefix in (no second pass over the
    /// values, no move of the rest when the prefix has its declared width).
    fn prefixed(&mut self, op: &Op, rest: &[Op], out: &mut Vec<u8>) -> Result<()> {
        let pos = out.len();
        let reserve = op.width().unwrap_or(0);
        out.resize(pos + reserve, 0);
        let start = pos + reserve;
        let mut saved = self.pool.words();
        if !self.rng.is_empty() {
            saved.extend_from_slice(self.rng);
        }
        let r = self.seq(rest, out);
        let mut prefix = self.pool.bytes();
        let r = r.and_then(|_| {
            let written = out.get(start..).unwrap_or(&[]);
            self.hash_into(op, rest, written, &saved, &mut prefix)
        });
        if r.is_ok() {
            match out.get_mut(pos..start) {
                Some(slot) if slot.len() == prefix.len() => slot.copy_from_slice(&prefix),
                _ => {
                    out.splice(pos..start, prefix.iter().copied());
                }
            }
        }
        self.pool.put_bytes(prefix);
        self.pool.put_words(saved);
        r
    }

    /// Hash `written`, the bytes `src` wrote with the random generators at `rng_before`.
    /// Java-string hashes read the bytes themselves when they are ASCII and no value is
    /// UTF-16 (the text is then the same characters); otherwise the text is rebuilt from the
    /// values, exactly as before.
    fn hash_into(
        &mut self,
        op: &Op,
        src: &[Op],
        written: &[u8],
        rng_before: &[u64],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        // ASCII bytes are the text, unless a value is UTF-16 with a lone surrogate (written
        // as `?`, hashed as the surrogate): such records take the exact path below.
        let utf16 = self.vals.iter().any(|v| matches!(v, FieldValue::Utf16(_)));
        if !op.wants_text() || (!utf16 && written.is_ascii()) {
            return self.prefix(op, written, Text::Ascii(written), out);
        }
        let mut after = self.pool.words();
        after.extend_from_slice(self.rng);
        self.rng.copy_from_slice(rng_before);
        let units = self.text(src);
        self.rng.copy_from_slice(&after);
        self.pool.put_words(after);
        let units = units?;
        let r = self.prefix(op, written, Text::Units(&units), out);
        self.pool.put_units(units);
        r
    }

    /// The Java string a hash sees for `ops`, without advancing the random generators.
    fn text(&mut self, ops: &[Op]) -> Result<Vec<u16>> {
        let saved = if self.rng.is_empty() {
            Vec::new()
        } else {
            self.rng.to_vec()
        };
        let mut units = self.pool.units();
        let mut pending = self.pool.bytes();
        let r = self.text_into(ops, &mut units, &mut pending);
        units.extend(String::from_utf8_lossy(&pending).encode_utf16());
        self.pool.put_bytes(pending);
        for (dst, src) in self.rng.iter_mut().zip(saved) {
            *dst = src;
        }
        r.map(|_| units)
    }

    fn text_into(&mut self, ops: &[Op], units: &mut Vec<u16>, pending: &mut Vec<u8>) -> Result<()> {
        for (i, op) in ops.iter().enumerate() {
            match op {
                Op::Field { f, enc: Enc::Str } => {
                    let (v, ty, name) = self.value(*f)?;
                    units.extend(String::from_utf8_lossy(pending).encode_utf16());
                    pending.clear();
                    v.push_units(ty, name, units)?;
                }
                Op::When { f, is, then } => {
                    if self.when(*f, is)? {
                        self.text_into(then, units, pending)?;
                    }
                }
                _ if matches!(op.src(), Some(Src::Rest)) => {
                    return self.seq(ops.get(i..).unwrap_or(&[]), pending);
                }
                _ => self.op(op, pending)?,
            }
        }
        Ok(())
    }

    fn when(&self, f: usize, is: &[String]) -> Result<bool> {
        let (v, ty, _) = self.value(f)?;
        Ok(is.iter().any(|s| v.text_eq(ty, s)))
    }

    fn source_bytes(&mut self, src: &[Op]) -> Result<Vec<u8>> {
        let mut b = self.pool.bytes();
        self.seq(src, &mut b)?;
        Ok(b)
    }

    /// Compute a hash segment from its source (`bytes` / `units` already evaluated).
    fn prefix(&mut self, op: &Op, bytes: &[u8], text: Text<'_>, out: &mut Vec<u8>) -> Result<()> {
        match op {
            Op::Salt {
                hash: h,
                modulo,
                buckets,
                render: r,
                wd,
                ..
            } => {
                let n = *buckets;
                match h {
                    SaltHash::JavaString => render(r, java_mod(text.hash_code(), n, *modulo), out),
                    SaltHash::Arrays => {
                        render(r, java_mod(hash::arrays_hash_code(bytes), n, *modulo), out)
                    }
                    SaltHash::Md5 => {
                        let d = hash::md5(bytes);
                        render(r, mod_be(&d, n.unsigned_abs().max(1)) as i64, out)
                    }
                    SaltHash::Phoenix => {
                        out.push(phoenix::salt_for(bytes, n)?);
                        Ok(())
                    }
                    SaltHash::Hbasewd => {
                        match wd {
                            Some(w) => out.push(w.prefix(bytes)),
                            None => out
                                .push(crate::salt::hbasewd::one_byte_simple_hash_prefix(bytes, n)?),
                        }
                        Ok(())
                    }
                    SaltHash::Opentsdb => {
                        let mut m = hash::arrays_hash_code(bytes).wrapping_rem(n);
                        if m < 0 {
                            m = m.wrapping_neg();
                        }
                        let w = match r {
                            Render::Bytes(w) => *w as i32,
                            _ => 1,
                        };
                        out.extend_from_slice(&opentsdb::salt_bytes(m, w)?);
                        Ok(())
                    }
                }
            }
            Op::Hash15 { .. } => {
                let h = (text.hash_code() & 0x7FFF) as i16;
                out.extend_from_slice(&bytes::to_bytes_short(h));
                Ok(())
            }
            Op::Md5 { .. } => {
                let d = hash::md5(bytes);
                out.extend_from_slice(&d);
                Ok(())
            }
            Op::Md5Hex { len, upper, .. } => {
                // MD5Hash.getMD5AsHex, written straight into the key: two hex digits per
                // digest byte, first `len` characters (the same bytes as the core's String).
                let d = hash::md5(bytes);
                let digits: &[u8; 16] = if *upper {
                    b"0123456789ABCDEF"
                } else {
                    b"0123456789abcdef"
                };
                // Into a stack buffer, then one copy: a per-byte `extend` through an iterator
                // chain cost about a third of the MD5 itself in `cargo bench --bench keyspec`.
                let mut hex = [0u8; 32];
                for (pair, &x) in hex.chunks_exact_mut(2).zip(d.iter()) {
                    if let [hi, lo] = pair {
                        *hi = digits[usize::from(x >> 4)];
                        *lo = digits[usize::from(x & 15)];
                    }
                }
                out.extend_from_slice(hex.get(..*len).unwrap_or(&hex));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn op(&mut self, op: &Op, out: &mut Vec<u8>) -> Result<()> {
        match op {
            Op::Lit(b) => {
                out.extend_from_slice(b);
                Ok(())
            }
            Op::Field { f, enc } => self.field(*f, enc, out),
            Op::Random {
                id,
                buckets,
                render: r,
            } => {
                let state = self.rng.get_mut(*id).ok_or_else(|| {
                    Error::new(ErrorKind::IllegalState, "random segment out of range")
                })?;
                let v = splitmix(state) % u64::from((*buckets).max(1));
                render(r, v as i64, out)
            }
            Op::When { f, is, then } => {
                if self.when(*f, is)? {
                    self.seq(then, out)?;
                }
                Ok(())
            }
            Op::Salt { src, .. }
            | Op::Hash15 { src }
            | Op::Md5 { src }
            | Op::Md5Hex { src, .. } => {
                let ops = match src {
                    Src::Ops(o) => o.as_slice(),
                    Src::Rest => &[],
                };
                let mut saved = self.pool.words();
                if !self.rng.is_empty() {
                    saved.extend_from_slice(self.rng);
                }
                let bytes = self.source_bytes(ops);
                let r = bytes.and_then(|bytes| {
                    if op.wants_text() {
                        // A Java-string hash never advanced the generators of its source.
                        self.rng.copy_from_slice(&saved);
                    }
                    let r = self.hash_into(op, ops, &bytes, &saved, out);
                    self.pool.put_bytes(bytes);
                    r
                });
                self.pool.put_words(saved);
                r
            }
        }
    }

    fn field(&mut self, f: usize, enc: &Enc, out: &mut Vec<u8>) -> Result<()> {
        match enc {
            Enc::Str => {
                let (v, ty, name) = self.value(f)?;
                v.push_text(ty, name, out)
            }
            Enc::Fixed {
                width,
                pad,
                left,
                truncate,
            } => {
                let mut text = self.pool.bytes();
                let (v, ty, name) = self.value(f)?;
                v.push_text(ty, name, &mut text)?;
                if text.len() > *width {
                    if !*truncate {
                        return Err(field_err(
                            name,
                            format!("value is {} bytes, fixed width is {width} (use overflow=truncate to cut it)", text.len()),
                        ));
                    }
                    text.truncate(*width);
                }
                let padn = width - text.len();
                if *left {
                    out.extend(std::iter::repeat(*pad).take(padn));
                    out.extend_from_slice(&text);
                } else {
                    out.extend_from_slice(&text);
                    out.extend(std::iter::repeat(*pad).take(padn));
                }
                self.pool.put_bytes(text);
                Ok(())
            }
            Enc::Dec { width } => {
                let (n, name) = self.long(f)?;
                if n < 0 {
                    return Err(field_err(
                        name,
                        format!("dec(...) writes non-negative numbers, got {n}"),
                    ));
                }
                let mut buf = [0u8; 20];
                let s = super::value::digits(n.unsigned_abs(), &mut buf);
                if s.len() > *width {
                    return Err(field_err(
                        name,
                        format!("{n} has {} digits, dec width is {width}", s.len()),
                    ));
                }
                out.extend(std::iter::repeat(b'0').take(width - s.len()));
                out.extend_from_slice(s);
                Ok(())
            }
            Enc::Long(sortable) => {
                let (n, _) = self.long(f)?;
                let n = if *sortable { n ^ i64::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_long(n));
                Ok(())
            }
            Enc::Int(sortable) => {
                let (n, name) = self.long(f)?;
                let n = i32::try_from(n)
                    .map_err(|_| field_err(name, format!("{n} does not fit an int")))?;
                let n = if *sortable { n ^ i32::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_int(n));
                Ok(())
            }
            Enc::Short(sortable) => {
                let (n, name) = self.long(f)?;
                let n = i16::try_from(n)
                    .map_err(|_| field_err(name, format!("{n} does not fit a short")))?;
                let n = if *sortable { n ^ i16::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_short(n));
                Ok(())
            }
            Enc::Double(sortable) | Enc::Float(sortable) => {
                let (v, ty, name) = self.value(f)?;
                let d = match v {
                    FieldValue::Double(d) => *d,
                    other => {
                        return Err(field_err(name, format!("expected a number, got {other:?}")))
                    }
                };
                if matches!(enc, Enc::Float(_)) {
                    let bits = (d as f32).to_bits();
                    let bits = if !*sortable {
                        bits
                    } else if bits >> 31 == 1 {
                        !bits
                    } else {
                        bits ^ (1 << 31)
                    };
                    out.extend_from_slice(&bits.to_be_bytes());
                } else {
                    let d = if ty == FieldType::Float {
                        f64::from(d as f32)
                    } else {
                        d
                    };
                    let bits = d.to_bits();
                    let bits = if !*sortable {
                        bits
                    } else if bits >> 63 == 1 {
                        !bits
                    } else {
                        bits ^ (1 << 63)
                    };
                    out.extend_from_slice(&bits.to_be_bytes());
                }
                Ok(())
            }
            Enc::Bool => match self.value(f)? {
                (FieldValue::Bool(b), _, _) => {
                    out.extend_from_slice(&bytes::to_bytes_boolean(*b));
                    Ok(())
                }
                (other, _, name) => Err(field_err(
                    name,
                    format!("expected true or false, got {other:?}"),
                )),
            },
            Enc::BigDecimal => match self.value(f)? {
                (FieldValue::Decimal(d), _, _) => {
                    out.extend_from_slice(&bytes::to_bytes_big_decimal(d));
                    Ok(())
                }
                (FieldValue::Long(n), _, _) => {
                    let d = bytes::BigDecimal::new((*n).into(), 0);
                    out.extend_from_slice(&bytes::to_bytes_big_decimal(&d));
                    Ok(())
                }
                (other, _, name) => Err(field_err(
                    name,
                    format!("expected a decimal, got {other:?}"),
                )),
            },
            Enc::Reverse => {
                let (v, ty, name) = self.value(f)?;
                let mut units = Vec::new();
                v.push_units(ty, name, &mut units)?;
                out.extend_from_slice(&bytes::reverse_string(&units));
                Ok(())
            }
            Enc::Revts { div, render: r } => {
                let (n, _) = self.long(f)?;
                let x = match div {
                    Some(d) => n.wrapping_div(*d),
                    None => n,
                };
                render(r, i64::MAX.wrapping_sub(x), out)
            }
            Enc::Time {
                toks,
                secs,
                id,
                milli,
                fixed,
            } => {
                let (n, name) = self.long(f)?;
                let ms = if *secs {
                    n.checked_mul(1000)
                        .ok_or_else(|| field_err(name, format!("{n} seconds is out of range")))?
                } else {
                    n
                };
                // The text depends on the second only (or the ms when it prints them).
                let key = if *milli { ms } else { ms.div_euclid(1000) };
                let at = out.len();
                if let Some(c) = self.pool.times.get(*id) {
                    if c.key == Some(key) {
                        // The whole buffer (a constant-size copy), then cut to the text.
                        out.extend_from_slice(&c.text);
                        out.truncate(at + c.len);
                        return Ok(());
                    }
                }
                let civil = time::civil_cached(ms, &mut self.pool.day)
                    .map_err(|e| field_err(name, e.message))?;
                let Some(fixed) = fixed else {
                    // Wider than the cache: formatted every time.
                    time::push_civil(toks, &civil, out);
                    return Ok(());
                };
                let (text, len) = (fixed.render(&civil), fixed.len());
                out.extend_from_slice(&text);
                out.truncate(at + len);
                if self.pool.times.len() <= *id {
                    self.pool.times.resize(*id + 1, TimeCache::default());
                }
                if let Some(c) = self.pool.times.get_mut(*id) {
                    *c = TimeCache {
                        key: Some(key),
                        len,
                        text,
                    };
                }
                Ok(())
            }
            Enc::Bucket {
                modulo,
                div,
                render: r,
            } => {
                let (n, _) = self.long(f)?;
                let b = match (modulo, div) {
                    (Some(m), _) => n.wrapping_rem(*m),
                    (None, Some(d)) => n.div_euclid((*d).max(1)),
                    (None, None) => n,
                };
                render(r, b, out)
            }
            Enc::Dict { entries, render: r } => {
                let (v, ty, name) = self.value(f)?;
                match entries.iter().find(|(k, _)| v.text_eq(ty, k)) {
                    Some((_, id)) => render(r, *id, out),
                    None => {
                        let mut t = Vec::new();
                        v.push_text(ty, name, &mut t)?;
                        let known: Vec<&str> =
                            entries.iter().take(8).map(|(k, _)| k.as_str()).collect();
                        Err(field_err(
                            name,
                            format!(
                                "\"{}\" is not in the table ({}{})",
                                String::from_utf8_lossy(&t),
                                known.join(", "),
                                if entries.len() > 8 { ", …" } else { "" }
                            ),
                        ))
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod render_tests {
    use super::*;

    /// The `dec(w)` fast path for 0..100 against `String.format("%0wd")` and its width check.
    #[test]
    fn dec_fast_path_matches_format() {
        for w in 0..6u32 {
            for v in -120i64..=120 {
                let mut out = b"x".to_vec();
                let r = render(&Render::Dec(w), v, &mut out);
                let s = if v < 0 {
                    format!(
                        "-{:0>width$}",
                        v.unsigned_abs(),
                        width = (w as usize).saturating_sub(1)
                    )
                } else {
                    format!("{v:0width$}", width = w as usize)
                };
                if s.len() > w as usize {
                    assert!(r.is_err(), "w={w} v={v}");
                } else {
                    assert!(r.is_ok(), "w={w} v={v}");
                    assert_eq!(out, [b"x".as_slice(), s.as_bytes()].concat(), "w={w} v={v}");
                }
            }
        }
    }
}
