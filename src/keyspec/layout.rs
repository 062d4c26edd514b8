//! The byte layout of a key design: every segment with its offset, width and encoding, for
//! the page to colour a key and for the key-length report.

use serde::{Deserialize, Serialize};

use super::ast::*;
use super::compile::{CompiledKey, Op};
use super::format::segments_text;

/// How many bytes a segment takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Width {
    /// Always this many bytes.
    Fixed(usize),
    /// Depends on the record.
    Variable,
}

impl Width {
    /// The fixed width, if any.
    pub fn fixed(self) -> Option<usize> {
        match self {
            Width::Fixed(n) => Some(n),
            Width::Variable => None,
        }
    }
}

/// One segment of the layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentLayout {
    /// A label: the field name, the literal text, or the prefix kind (`salt`, `md5Hex`).
    pub name: String,
    /// The segment kind, as in the JSON form (`str`, `long`, `salt`, `literal`, ...).
    pub kind: String,
    /// The field the segment writes, if it writes one directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Byte offset, when every segment before it has a fixed width.
    pub offset: Option<usize>,
    /// Width in bytes.
    pub width: Width,
    /// What the bytes are, in a phrase.
    pub encoding: String,
    /// The segment in the text form.
    pub text: String,
    /// Inside a `when(...)`: present only for some records.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conditional: bool,
}

fn render_phrase(r: &Render) -> String {
    match r {
        Render::Byte => "one byte".into(),
        Render::Short => "a 2-byte short".into(),
        Render::Int => "a 4-byte int".into(),
        Render::Long => "an 8-byte long".into(),
        Render::Letter => "one letter (a = 0)".into(),
        Render::Dec(w) => format!("{w} zero-padded decimal digits"),
        Render::Hex(w) => format!("{w} lowercase hex digits"),
        Render::HexUpper(w) => format!("{w} uppercase hex digits"),
        Render::Bytes(w) => format!("{w} salt bytes (OpenTSDB)"),
    }
}

fn source_phrase(of: &Option<Vec<Segment>>) -> String {
    match of {
        None => "the rest of the key".into(),
        Some(s) => segments_text(s),
    }
}

/// A segment's label, what its bytes are, and the field it writes (if it writes one).
fn describe(seg: &Segment) -> (String, String, Option<String>) {
    let field = |name: &str, encoding: String| (name.to_string(), encoding, Some(name.to_string()));
    let prefix = |name: &str, encoding: String| (name.to_string(), encoding, None);
    match seg {
        Segment::Field(a) => field(&a.field, "Bytes.toBytes of the declared type".into()),
        Segment::Str(a) => field(&a.field, "UTF-8 text (String.valueOf)".into()),
        Segment::Fixed(x) => field(&x.field, fixed_phrase(x)),
        Segment::Dec(d) => field(
            &d.field,
            format!("decimal, zero-padded to {} digits", d.width),
        ),
        Segment::Long(n)
        | Segment::Int(n)
        | Segment::Short(n)
        | Segment::Double(n)
        | Segment::Float(n) => field(&n.field, number_phrase(seg, n)),
        Segment::Bool(a) => field(&a.field, "Bytes.toBytes(boolean): ff or 00".into()),
        Segment::BigDecimal(a) => field(
            &a.field,
            "Bytes.toBytes(BigDecimal): scale then unscaled bytes".into(),
        ),
        Segment::Literal(l) => (
            crate::hbase::bytes::to_string_binary(&l.bytes),
            "constant bytes".into(),
            None,
        ),
        Segment::Salt(s) => prefix("salt", salt_phrase(s)),
        Segment::Random(r) => prefix(
            "random",
            format!(
                "random bucket 0..{} (seed {}), as {}",
                r.buckets.saturating_sub(1),
                r.seed,
                render_phrase(&r.render)
            ),
        ),
        Segment::Hash15(h) => prefix(
            "hash15",
            format!(
                "(short)(String.hashCode({}) & 0x7FFF), 2 bytes",
                source_phrase(&h.of)
            ),
        ),
        Segment::Md5(h) => prefix(
            "md5",
            format!("MD5 digest of {}, 16 bytes", source_phrase(&h.of)),
        ),
        Segment::Md5Hex(h) => prefix(
            "md5Hex",
            format!(
                "first {} {} hex characters of MD5({})",
                h.len,
                if h.upper { "uppercase" } else { "lowercase" },
                source_phrase(&h.of)
            ),
        ),
        Segment::Reverse(a) => field(
            &a.field,
            "reversed text (StringBuilder.reverse), UTF-8".into(),
        ),
        Segment::Revts(r) => field(&r.field, revts_phrase(r)),
        Segment::Time(t) => field(&t.field, time_phrase(t)),
        Segment::Bucket(b) => field(&b.field, bucket_phrase(b)),
        Segment::Dict(d) => field(
            &d.field,
            format!(
                "dictionary id ({} entries), as {}",
                d.entries.len(),
                render_phrase(&d.render.unwrap_or(Render::Long))
            ),
        ),
        Segment::Tag(d) => field(
            &d.field,
            format!(
                "record-type tag ({} types), as {}",
                d.entries.len(),
                render_phrase(&d.render.unwrap_or(Render::Byte))
            ),
        ),
        Segment::When(w) => (
            format!("when {}", w.field),
            format!("present when {} is {}", w.field, w.is.join(" or ")),
            None,
        ),
        Segment::Uid(u) => field(
            &u.field,
            match &u.entries {
                Some(e) => format!(
                    "OpenTSDB UID from a table ({} names), {} bytes big-endian",
                    e.len(),
                    u.width
                ),
                None => format!(
                    "OpenTSDB UID assigned in order of first appearance (1, 2, …), {} bytes big-endian",
                    u.width
                ),
            },
        ),
        Segment::BaseTime(a) => field(
            &a.field,
            "OpenTSDB base time: the hour in seconds (ts - ts % 3600, ms / 1000 first), 4-byte int".into(),
        ),
        Segment::Pk(k) => field(&k.field, super::phoenix::column_phrase(k)),
        Segment::Tags(t) => (
            "tags".into(),
            format!(
                "{} tag-key UIDs ({} bytes) each before its value, sorted by UID",
                t.tagk.len(),
                t.width
            ),
            None,
        ),
    }
}

fn fixed_phrase(x: &FixedSpec) -> String {
    format!(
        "text padded with 0x{:02x} on the {} to {} bytes{}",
        x.pad,
        if x.side == PadSide::Left {
            "left"
        } else {
            "right"
        },
        x.width,
        if x.overflow == Overflow::Truncate {
            ", longer values cut"
        } else {
            ""
        }
    )
}

/// `long`, `int`, `short`, `double` or `float` (which one `seg` is).
fn number_phrase(seg: &Segment, n: &NumSpec) -> String {
    let (t, w) = match seg {
        Segment::Long(_) => ("long", 8),
        Segment::Int(_) => ("int", 4),
        Segment::Short(_) => ("short", 2),
        Segment::Double(_) => ("double", 8),
        _ => ("float", 4),
    };
    let order = if n.sortable {
        ", sign flipped so bytes sort like numbers"
    } else {
        ""
    };
    format!("Bytes.toBytes({t}), {w} bytes big-endian{order}")
}

fn salt_phrase(s: &SaltSpec) -> String {
    let how = match s.hash {
        SaltHash::JavaString => format!(
            "String.hashCode({}) {}",
            source_phrase(&s.of),
            mod_phrase(s.modulo, s.buckets)
        ),
        SaltHash::Arrays => format!(
            "Arrays.hashCode({}) {}",
            source_phrase(&s.of),
            mod_phrase(s.modulo, s.buckets)
        ),
        SaltHash::Md5 => format!("MD5({}) mod {}", source_phrase(&s.of), s.buckets),
        SaltHash::Phoenix => format!(
            "Phoenix salt byte of {} ({} buckets)",
            source_phrase(&s.of),
            s.buckets
        ),
        SaltHash::Hbasewd => format!(
            "HBaseWD one-byte hash of {} ({} buckets)",
            source_phrase(&s.of),
            s.buckets
        ),
        SaltHash::Opentsdb => format!(
            "OpenTSDB salt of {} ({} buckets)",
            source_phrase(&s.of),
            s.buckets
        ),
    };
    format!("{how}, as {}", render_phrase(&s.render))
}

fn revts_phrase(r: &RevtsSpec) -> String {
    match r.div {
        Some(d) => format!(
            "Long.MAX_VALUE - {}/{d}, as {}",
            r.field,
            render_phrase(&r.render)
        ),
        None => format!(
            "Long.MAX_VALUE - {}, as {}",
            r.field,
            render_phrase(&r.render)
        ),
    }
}

fn time_phrase(t: &TimeSpec) -> String {
    format!(
        "UTC time as {}{}",
        t.pattern,
        if t.unit == TimeUnit::S {
            " (field in seconds)"
        } else {
            ""
        }
    )
}

fn bucket_phrase(b: &BucketSpec) -> String {
    match (b.modulo, b.div) {
        (Some(m), _) => format!("{} % {m}, as {}", b.field, render_phrase(&b.render)),
        (_, Some(d)) => {
            format!("floor({} / {d}), as {}", b.field, render_phrase(&b.render))
        }
        _ => "bucket".into(),
    }
}

fn mod_phrase(m: ModMode, n: u32) -> String {
    match m {
        ModMode::AbsOfMod => format!("Math.abs(h % {n})"),
        ModMode::ModOfAbs => format!("Math.abs(h) % {n}"),
        ModMode::FloorMod => format!("Math.floorMod(h, {n})"),
    }
}

pub(crate) fn kind_name(seg: &Segment) -> &'static str {
    match seg {
        Segment::Field(_) => "field",
        Segment::Str(_) => "str",
        Segment::Fixed(_) => "fixed",
        Segment::Dec(_) => "dec",
        Segment::Long(_) => "long",
        Segment::Int(_) => "int",
        Segment::Short(_) => "short",
        Segment::Double(_) => "double",
        Segment::Float(_) => "float",
        Segment::Bool(_) => "bool",
        Segment::BigDecimal(_) => "bigDecimal",
        Segment::Literal(_) => "literal",
        Segment::Salt(_) => "salt",
        Segment::Random(_) => "random",
        Segment::Hash15(_) => "hash15",
        Segment::Md5(_) => "md5",
        Segment::Md5Hex(_) => "md5Hex",
        Segment::Reverse(_) => "reverse",
        Segment::Revts(_) => "revts",
        Segment::Time(_) => "time",
        Segment::Bucket(_) => "bucket",
        Segment::Dict(_) => "dict",
        Segment::Tag(_) => "tag",
        Segment::When(_) => "when",
        Segment::Uid(_) => "uid",
        Segment::BaseTime(_) => "baseTime",
        Segment::Tags(_) => "tags",
        Segment::Pk(_) => "pk",
    }
}

fn walk(
    segs: &[Segment],
    ops: &[Op],
    offset: &mut Option<usize>,
    conditional: bool,
    out: &mut Vec<SegmentLayout>,
) {
    for (seg, op) in segs.iter().zip(ops) {
        let (name, mut encoding, field) = describe(seg);
        if let (Segment::Pk(k), Op::Pk { run, index }) = (seg, op) {
            let last = *index + 1 == run.table.columns.len();
            encoding = super::phoenix::column_phrase_at(k, Some(last));
        }
        let width = match op {
            // Each column's own bytes (the run is written by its first column).
            Op::Pk { run, index } => match run.table.columns.get(*index) {
                Some(c) if !c.nullable => {
                    super::phoenix::column_width(c).map_or(Width::Variable, Width::Fixed)
                }
                _ => Width::Variable,
            },
            _ => match op.width() {
                Some(w) => Width::Fixed(w),
                None => Width::Variable,
            },
        };
        out.push(SegmentLayout {
            name,
            kind: kind_name(seg).to_string(),
            field,
            offset: *offset,
            width,
            encoding,
            text: segments_text(std::slice::from_ref(seg)),
            conditional,
        });
        if let (Segment::When(w), Op::When { then, .. }) = (seg, op) {
            let mut inner = *offset;
            walk(&w.then, then, &mut inner, true, out);
            *offset = None;
        } else {
            *offset = match (*offset, width) {
                (Some(o), Width::Fixed(w)) => o.checked_add(w),
                _ => None,
            };
        }
    }
}

impl CompiledKey {
    /// The layout: one entry per segment, `when(...)` bodies listed right after their `when`.
    pub fn layout(&self) -> Vec<SegmentLayout> {
        let mut out = Vec::new();
        let mut offset = Some(0);
        walk(&self.spec.segments, &self.ops, &mut offset, false, &mut out);
        out
    }

    /// The key length: `(min, Some(max))` when every segment is fixed, `(min, None)` otherwise
    /// (`min` counts fixed segments only and skips conditional ones).
    pub fn key_length(&self) -> (usize, Option<usize>) {
        fn go(ops: &[Op], min: &mut usize, max: &mut Option<usize>, top: bool) {
            for op in ops {
                match (op, op.width()) {
                    (Op::When { then, .. }, _) => {
                        let mut m2 = 0usize;
                        go(then, &mut m2, max, false);
                        *max = None;
                    }
                    (_, Some(w)) => {
                        if top {
                            *min += w;
                        }
                        *max = max.and_then(|m| m.checked_add(w));
                    }
                    (_, None) => *max = None,
                }
            }
        }
        let mut min = 0usize;
        let mut max = Some(0usize);
        go(&self.ops, &mut min, &mut max, true);
        (min, max)
    }
}
