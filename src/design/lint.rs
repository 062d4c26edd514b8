//! The design linter: findings with a rule id, a severity, the segment they point at and a
//! one-line reason that cites the principle behind the rule.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::design::{DesignDocument, FieldType};
use crate::keyspec::*;
use crate::region::PreSplit;
use crate::scan::ReadPattern;
use crate::workload::Generator;

mod examples;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    /// The design cannot work as written (it does not compile, or keys cannot be split).
    Error,
    /// The design works but hurts the cluster or the reads.
    Warning,
    /// Worth knowing; often intended.
    Info,
}

/// One piece of advice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The rule id (see [`RULES`]).
    pub rule: Cow<'static, str>,
    /// How serious it is.
    pub severity: Severity,
    /// The segment it points at: an index into [`CompiledKey::layout`].
    pub segment: Option<usize>,
    /// One line: what is wrong and the principle behind it.
    pub message: String,
    /// The index in the document's `examples` of the example it is about (`example-key`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<usize>,
}

/// Every rule id with a one-line summary.
pub const RULES: &[(&str, &str)] = &[
    ("invalid", "the design does not compile against its field declarations"),
    ("monotonic-leading", "the first segment grows (or shrinks) with every write: one region takes all writes"),
    ("key-length", "the key is longer than 16 bytes (seed 000: every cell repeats the row key)"),
    ("key-alignment", "a fixed-length key that is not a multiple of 8 bytes (seed 000)"),
    ("ambiguous-boundary", "a variable-width segment followed by more segments without a separator"),
    ("separator-in-field", "a separator byte that can occur inside the variable-width field before it"),
    ("unpadded-decimal", "numbers written as decimal text without zero padding sort as text: \"10\" < \"9\""),
    ("signed-order", "two's-complement numbers: negative values sort after positive ones"),
    ("bucket-region-mismatch", "a salt's bucket count does not match the declared number of regions"),
    ("cardinality-order", "a field with more distinct values ahead of one with fewer (seed 000: engine_type before vin)"),
    ("latest-first", "reads want the newest rows first but the timestamp is not reversed"),
    ("random-salt", "a random salt: a get must try every bucket"),
    ("hash-only", "a field that only appears inside a one-way hash cannot be read back from the key"),
    ("when-before-field", "a when(...) that tests a field before the key gives it: keys cannot be decoded"),
    ("example-key", "an example's recorded row key is not what the design writes for its record: rows stored under it are out of reach"),
];

fn finding(
    rule: &'static str,
    severity: Severity,
    segment: Option<usize>,
    message: String,
) -> Finding {
    Finding {
        rule: Cow::Borrowed(rule),
        severity,
        segment,
        message,
        example: None,
    }
}

/// A segment in layout order, with what the linter needs to know about it.
struct Flat<'a> {
    idx: usize,
    seg: &'a Segment,
    width: Width,
}

fn flatten<'a>(
    segs: &'a [Segment],
    widths: &[Width],
    next: &mut usize,
    out: &mut Vec<Flat<'a>>,
    top: bool,
) {
    for seg in segs {
        let idx = *next;
        *next += 1;
        let width = widths.get(idx).copied().unwrap_or(Width::Variable);
        if top {
            out.push(Flat { idx, seg, width });
        }
        if let Segment::When(w) = seg {
            flatten(&w.then, widths, next, out, false);
        }
    }
}

/// The field a segment writes directly (not through a hash).
fn field_of(seg: &Segment) -> Option<&str> {
    Some(match seg {
        Segment::Field(a)
        | Segment::Str(a)
        | Segment::Bool(a)
        | Segment::BigDecimal(a)
        | Segment::Reverse(a) => &a.field,
        Segment::Fixed(x) => &x.field,
        Segment::Dec(d) => &d.field,
        Segment::Long(n)
        | Segment::Int(n)
        | Segment::Short(n)
        | Segment::Double(n)
        | Segment::Float(n) => &n.field,
        Segment::Revts(r) => &r.field,
        Segment::Time(t) => &t.field,
        Segment::Bucket(b) => &b.field,
        Segment::Dict(d) | Segment::Tag(d) => &d.field,
        _ => return None,
    })
}

fn text(seg: &Segment) -> String {
    crate::keyspec::format::segments_text(std::slice::from_ref(seg))
}

/// The region count the document's pre-split declares.
fn declared_regions(doc: &DesignDocument) -> Option<u64> {
    let r = doc.regions.as_ref()?;
    Some(match &r.presplit {
        PreSplit::None => 1,
        PreSplit::Explicit { keys, .. } => keys.len() as u64 + 1,
        PreSplit::HexString { regions, .. }
        | PreSplit::DecimalString { regions, .. }
        | PreSplit::Uniform { regions, .. }
        | PreSplit::CreateTable { regions, .. }
        | PreSplit::SampleQuantiles { regions, .. } => u64::from(*regions),
        PreSplit::BytesSplit { num, .. } => u64::from(*num) + 3,
        PreSplit::SaltBuckets { buckets, .. } => u64::from(*buckets),
    })
}

fn decimal_digits(n: u64) -> u32 {
    n.checked_ilog10().map_or(1, |d| d + 1)
}

/// Can this variable-width segment's bytes contain `b`?
fn may_contain(seg: &Segment, ty: Option<FieldType>, b: u8) -> bool {
    let numeric_text = |t: FieldType| match t {
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp => {
            b.is_ascii_digit() || b == b'-'
        }
        FieldType::Double | FieldType::Float => b.is_ascii_digit() || b"-.EInfityNa".contains(&b),
        FieldType::BigDecimal => b.is_ascii_digit() || b"-.E+".contains(&b),
        FieldType::Boolean => b"truefals".contains(&b),
        FieldType::String => true,
    };
    match (seg, ty) {
        (Segment::Str(_) | Segment::Reverse(_) | Segment::Field(_), Some(t))
            if t != FieldType::BigDecimal =>
        {
            numeric_text(t)
        }
        _ => true,
    }
}

/// Lint a whole design document.
pub fn lint(doc: &DesignDocument) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut ck = match CompiledKey::new(&doc.key, &doc.key_fields()) {
        Ok(c) => c,
        Err(e) => {
            out.push(finding("invalid", Severity::Error, None, e.to_string()));
            return out;
        }
    };
    let layout = ck.layout();
    let widths: Vec<Width> = layout.iter().map(|l| l.width).collect();
    let mut flat = Vec::new();
    flatten(&doc.key.segments, &widths, &mut 0, &mut flat, true);
    let ty = |name: &str| doc.field(name).map(|f| f.field_type);

    // monotonic-leading: the first segment that is not a constant.
    if let Some(first) = flat.iter().find(|f| !matches!(f.seg, Segment::Literal(_))) {
        let name = field_of(first.seg);
        let decl = name.and_then(|n| doc.field(n));
        // A timestamp, or a generator that counts up (or down): every new row sorts at one end.
        let sequential = decl.is_some_and(|d| {
            d.field_type == FieldType::Timestamp
                || matches!(
                    d.generator,
                    Some(Generator::Sequence { .. } | Generator::Clock { .. })
                )
        });
        let keeps_order = !matches!(
            first.seg,
            Segment::Reverse(_) | Segment::Dict(_) | Segment::Tag(_)
        ) && !matches!(first.seg, Segment::Bucket(b) if b.modulo.is_some());
        if sequential && keeps_order {
            out.push(finding(
                "monotonic-leading",
                Severity::Warning,
                Some(first.idx),
                format!(
                    "the key starts with `{}`, which moves in one direction with every write, so all writes land in one region (a hotspot): lead with a salt, a hash or a well-spread field",
                    text(first.seg)
                ),
            ));
        }
    }

    // key-length and key-alignment.
    let (min, max) = ck.key_length();
    match max {
        Some(n) if n > 16 => out.push(finding(
            "key-length",
            Severity::Warning,
            None,
            format!("every key is {n} bytes; keep row keys at most 16 bytes, because every cell stores its row key again (seed 000)"),
        )),
        None if min > 16 => out.push(finding(
            "key-length",
            Severity::Warning,
            None,
            format!("keys are at least {min} bytes; keep row keys at most 16 bytes, because every cell stores its row key again (seed 000)"),
        )),
        None => out.push(finding(
            "key-length",
            Severity::Info,
            None,
            format!("keys have a variable length (at least {min} bytes); fixed-width keys make prefix scans and split points predictable"),
        )),
        _ => {}
    }
    if let Some(n) = max {
        if n % 8 != 0 {
            out.push(finding(
                "key-alignment",
                Severity::Info,
                None,
                format!("every key is {n} bytes, not a multiple of 8; seed 000 recommends 8-byte alignment for 64-bit systems"),
            ));
        }
    }

    // ambiguous-boundary / separator-in-field.
    for (i, f) in flat.iter().enumerate() {
        if f.width != Width::Variable || matches!(f.seg, Segment::When(_)) {
            continue;
        }
        let Some(next) = flat.get(i + 1) else {
            continue;
        };
        match next.seg {
            Segment::Literal(l) if !l.bytes.is_empty() => {
                let t = field_of(f.seg).and_then(ty);
                if let Some(&b) = l.bytes.iter().find(|&&b| may_contain(f.seg, t, b)) {
                    let ascii = if (0x20..0x7f).contains(&b) {
                        format!("`{}`", char::from(b))
                    } else {
                        format!("0x{b:02x}")
                    };
                    out.push(finding(
                        "separator-in-field",
                        Severity::Warning,
                        Some(next.idx),
                        format!(
                            "the separator byte {ascii} can occur inside `{}`: a value containing it splits the key in the wrong place (ambiguous decoding, prefix scans that match other rows); use a byte the field cannot hold, or a fixed width",
                            text(f.seg)
                        ),
                    ));
                }
            }
            _ => {
                let tail_fixed = flat.iter().skip(i + 1).all(|g| g.width != Width::Variable);
                out.push(finding(
                    "ambiguous-boundary",
                    if tail_fixed { Severity::Warning } else { Severity::Error },
                    Some(f.idx),
                    format!(
                        "`{}` has a variable width and `{}` follows it without a separator: {}",
                        text(f.seg),
                        text(next.seg),
                        if tail_fixed {
                            "a prefix scan for one value also matches longer values that start with it (\"web1\" finds \"web10\"); add a separator or a fixed width"
                        } else {
                            "the boundary cannot be found again, so the key cannot be decoded or scanned by prefix; add a separator or a fixed width"
                        }
                    ),
                ));
            }
        }
    }

    // when-before-field: the decoder reads a `when`'s field to know whether the branch is there.
    if let Some((idx, f)) = ck.blind_when() {
        let name = ck.fields.get(f).map_or("?", |x| x.0.as_str());
        out.push(finding(
            "when-before-field",
            Severity::Error,
            Some(idx),
            format!("`when({name}, ...)` tests `{name}` before any segment gives it back: no key can be decoded past it; write `{name}` in the key before the when"),
        ));
    }

    // unpadded-decimal and bucket-region-mismatch, random-salt, signed-order.
    let regions = declared_regions(doc);
    for f in &flat {
        let seg = f.seg;
        if let Segment::Str(a) | Segment::Reverse(a) = seg {
            if matches!(
                ty(&a.field),
                Some(
                    FieldType::Long
                        | FieldType::Int
                        | FieldType::Short
                        | FieldType::Timestamp
                        | FieldType::Double
                        | FieldType::Float
                        | FieldType::BigDecimal
                )
            ) && matches!(seg, Segment::Str(_))
            {
                out.push(finding(
                    "unpadded-decimal",
                    Severity::Warning,
                    Some(f.idx),
                    format!("`{}` writes a number as decimal text without zero padding, so keys sort as text (\"10\" < \"9\"); use dec({}, N) or a binary encoding", text(seg), a.field),
                ));
            }
        }
        let (buckets, render) = match seg {
            Segment::Salt(s) => (Some(u64::from(s.buckets)), Some(s.render)),
            Segment::Random(r) => (Some(u64::from(r.buckets)), Some(r.render)),
            Segment::Bucket(b) => (b.modulo.and_then(|m| u64::try_from(m).ok()), Some(b.render)),
            _ => (None, None),
        };
        if let (Some(n), Some(Render::Dec(w))) = (buckets, render) {
            let need = decimal_digits(n.saturating_sub(1));
            if need > w {
                out.push(finding(
                    "unpadded-decimal",
                    Severity::Warning,
                    Some(f.idx),
                    format!("`{}` has {n} buckets but dec({w}) holds {w} digits; bucket {} would not fit, and decimal text only sorts when zero-padded to one width", text(seg), n.saturating_sub(1)),
                ));
            }
        }
        if let (Segment::Salt(_) | Segment::Random(_), Some(n), Some(r)) = (seg, buckets, regions) {
            if n != r {
                out.push(finding(
                    "bucket-region-mismatch",
                    Severity::Warning,
                    Some(f.idx),
                    format!(
                        "`{}` spreads writes over {n} buckets but the table declares {r} regions; pre-split one region per bucket (split keys at each bucket prefix), or some regions take {} buckets and others none",
                        text(seg),
                        if n > r { "several" } else { "no" }
                    ),
                ));
            }
        }
        if let Segment::Random(_) = seg {
            out.push(finding(
                "random-salt",
                Severity::Info,
                Some(f.idx),
                format!("`{}` is random: writes spread evenly, but a get or scan must try every bucket because the salt cannot be recomputed from the record (seed 001: hashing, unlike salting, keeps reads predictable)", text(seg)),
            ));
        }
        let signed = match seg {
            Segment::Long(n)
            | Segment::Int(n)
            | Segment::Short(n)
            | Segment::Double(n)
            | Segment::Float(n)
                if !n.sortable =>
            {
                ty(&n.field)
            }
            Segment::Field(a) => ty(&a.field),
            _ => None,
        };
        match signed {
            Some(FieldType::Long | FieldType::Int | FieldType::Short) => out.push(finding(
                "signed-order",
                Severity::Info,
                Some(f.idx),
                format!("`{}` is two's complement: if the field can be negative, negatives sort after every positive value; use the sortable form (sign bit flipped) for signed data", text(seg)),
            )),
            Some(FieldType::Double | FieldType::Float | FieldType::BigDecimal) => out.push(finding(
                "signed-order",
                Severity::Warning,
                Some(f.idx),
                format!("`{}` writes raw IEEE/BigDecimal bytes, which do not sort numerically (negatives after positives, and in reverse); use the sortable form for ordered scans", text(seg)),
            )),
            _ => {}
        }
    }

    // cardinality-order: fewer distinct values first (seed 000).
    let cards: Vec<(usize, &str, u64, String)> = flat
        .iter()
        .filter(|f| !matches!(f.seg, Segment::Salt(_) | Segment::Random(_)))
        .filter_map(|f| {
            let name = field_of(f.seg)?;
            let c = doc.field(name)?.cardinality?;
            Some((f.idx, name, c, text(f.seg)))
        })
        .collect();
    for (j, (idx, name, c, t)) in cards.iter().enumerate() {
        if let Some((_, pname, pc, pt)) = cards
            .iter()
            .take(j)
            .find(|(_, pn, pc, _)| pc > c && pn != name)
        {
            out.push(finding(
                "cardinality-order",
                Severity::Warning,
                Some(*idx),
                format!(
                    "`{pt}` ({pname}: {pc} values) comes before `{t}` ({name}: {c} values); put fields with few, enumerable values first and many-valued ones (ids, timestamps) last, so scans by the small field stay contiguous (seed 000: engine_type before vin)"
                ),
            ));
        }
    }

    // latest-first: newest rows first needs a reversed timestamp.
    let latest = doc.latest_first
        || doc
            .reads
            .iter()
            .any(|r| matches!(r, ReadPattern::Latest { .. }));
    if latest {
        let reversed: Vec<&str> = flat
            .iter()
            .filter_map(|f| match f.seg {
                Segment::Revts(r) => Some(r.field.as_str()),
                _ => None,
            })
            .collect();
        for f in &flat {
            let Some(name) = field_of(f.seg) else {
                continue;
            };
            if ty(name) != Some(FieldType::Timestamp) || reversed.contains(&name) {
                continue;
            }
            if matches!(f.seg, Segment::Bucket(b) if b.modulo.is_some()) {
                continue;
            }
            out.push(finding(
                "latest-first",
                Severity::Warning,
                Some(f.idx),
                format!("reads want the newest rows first, but `{}` sorts oldest first; write revts({name}) (Long.MAX_VALUE - ts) so a scan meets the newest row first", text(f.seg)),
            ));
        }
    }

    // hash-only: fields the key hashes but never writes in the clear.
    let mut clear: Vec<&str> = Vec::new();
    let mut all: Vec<&str> = Vec::new();
    fn visit<'a>(
        segs: &'a [Segment],
        clear: &mut Vec<&'a str>,
        hashed: &mut Vec<(&'a str, String)>,
        in_hash: Option<String>,
    ) {
        for s in segs {
            match s {
                Segment::Salt(x) => {
                    if let Some(of) = &x.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::Hash15(h) | Segment::Md5(h) => {
                    if let Some(of) = &h.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::Md5Hex(h) => {
                    if let Some(of) = &h.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::When(w) => visit(&w.then, clear, hashed, in_hash.clone()),
                other => {
                    if let Some(f) = field_of(other) {
                        match &in_hash {
                            Some(h) => hashed.push((f, h.clone())),
                            None => {
                                if !matches!(other, Segment::Bucket(b) if b.modulo.is_some()) {
                                    clear.push(f);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let mut hashed = Vec::new();
    visit(&doc.key.segments, &mut clear, &mut hashed, None);
    for (f, h) in &hashed {
        if !clear.contains(f) && !all.contains(f) {
            all.push(f);
            out.push(finding(
                "hash-only",
                Severity::Info,
                None,
                format!("`{f}` only appears inside `{h}`: a hash is one-way, so the key alone cannot give it back; store it in a column too (seed 004)"),
            ));
        }
    }

    examples::check(doc, &mut ck, &layout, &mut out);

    // Errors, then warnings, then infos, each in the order found: a stable sort by severity
    // without compiling one more sort into the wasm.
    let mut sorted = Vec::with_capacity(out.len());
    for s in [Severity::Error, Severity::Warning, Severity::Info] {
        sorted.extend(out.iter().filter(|f| f.severity == s).cloned());
    }
    sorted
}
