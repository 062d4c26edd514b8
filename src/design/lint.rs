//! The design linter: findings with a rule id, a severity, the segment they point at and a
//! one-line reason that cites the principle behind the rule.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::design::{DesignDocument, FieldType};
use crate::keyspec::*;
use crate::region::PreSplit;
use crate::scan::ReadPattern;
use crate::workload::Generator;

mod evidence;
mod examples;
mod phoenix;
mod rules;

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
    ("phoenix-desc-separator", "a DESC variable-width Phoenix key column before the last: inverted bytes and an ff separator"),
    ("phoenix-leading-date", "a Phoenix primary key that starts with a DATE/TIME/TIMESTAMP (or counting) column without SALT_BUCKETS: one region takes all writes"),
    ("phoenix-salted-range", "a salted Phoenix table: every range read runs one scan per salt bucket"),
    ("salt-skew", "measured on a sample of the workload: the salt fills its buckets unevenly where another hash over the same source does not"),
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
/// What every rule reads: the document, its compiled key and the key's top-level segments in
/// order, with their widths.
struct Subject<'a> {
    doc: &'a DesignDocument,
    ck: &'a CompiledKey,
    flat: Vec<Flat<'a>>,
}

impl Subject<'_> {
    /// The declared type of field `name`.
    fn field_type(&self, name: &str) -> Option<FieldType> {
        self.doc.field(name).map(|f| f.field_type)
    }
}

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
pub(crate) fn field_of(seg: &Segment) -> Option<&str> {
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
        Segment::Uid(u) => &u.field,
        Segment::BaseTime(a) => &a.field,
        Segment::Pk(k) => &k.field,
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
    let segments = ck.segments().to_vec();
    flatten(&segments, &widths, &mut 0, &mut flat, true);
    let subject = Subject { doc, ck: &ck, flat };
    for rule in [
        rules::monotonic_leading,
        rules::key_length,
        rules::boundaries,
        rules::when_before_field,
        rules::segment_rules,
        rules::cardinality_order,
        rules::latest_first,
        rules::hash_only,
        phoenix::desc_separator,
        phoenix::leading_date,
        phoenix::salted_range,
        evidence::salt_skew,
    ] {
        rule(&subject, &mut out);
    }
    drop(subject);
    out.extend(example_findings(doc, &mut ck));

    // Errors, then warnings, then infos, each in the order found: a stable sort by severity
    // without compiling one more sort into the wasm.
    let mut sorted = Vec::with_capacity(out.len());
    for s in [Severity::Error, Severity::Warning, Severity::Info] {
        sorted.extend(out.iter().filter(|f| f.severity == s).cloned());
    }
    sorted
}

/// Whether `doc`'s key leads with a timestamp or sequence (the `monotonic-leading` rule alone):
/// what the analysis's diagnosis needs of the lint, without the rules that cost more (the
/// `salt-skew` evidence runs the workload through the key).
pub fn leads_with_time(doc: &DesignDocument) -> bool {
    let Ok(ck) = CompiledKey::new(&doc.key, &doc.key_fields()) else {
        return false;
    };
    let widths: Vec<Width> = ck.layout().iter().map(|l| l.width).collect();
    let mut flat = Vec::new();
    let segments = ck.segments().to_vec();
    flatten(&segments, &widths, &mut 0, &mut flat, true);
    let subject = Subject { doc, ck: &ck, flat };
    let mut out = Vec::new();
    rules::monotonic_leading(&subject, &mut out);
    out.iter().any(|f| f.rule == "monotonic-leading")
}

/// The `example-key` findings alone, on `doc`'s compiled key: what [`lint`] reports of the
/// examples, without the other rules.
pub(crate) fn example_findings(doc: &DesignDocument, ck: &mut CompiledKey) -> Vec<Finding> {
    let layout = ck.layout();
    let mut out = Vec::new();
    examples::check(doc, ck, &layout, &mut out);
    out
}
