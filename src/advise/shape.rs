//! The shape of a key as the advisor sees it: a leading spreading prefix (a salt, a random
//! bucket, a hash or a time bucket), the body after it cut into field groups, and what the
//! document's reads fix.

use std::collections::BTreeSet;

use crate::design::DesignDocument;
use crate::keyspec::{FieldType, Segment};
use crate::scan::ReadPattern;

/// The fields a segment reads (nested sources included; a source-less hash or salt reads the
/// segments after it, which the caller sees as the body).
pub(crate) fn segment_fields(seg: &Segment, out: &mut Vec<String>) {
    use Segment as S;
    match seg {
        S::Field(f)
        | S::Str(f)
        | S::Bool(f)
        | S::BigDecimal(f)
        | S::Reverse(f)
        | S::BaseTime(f) => out.push(f.field.clone()),
        S::Fixed(f) => out.push(f.field.clone()),
        S::Dec(d) => out.push(d.field.clone()),
        S::Long(n) | S::Int(n) | S::Short(n) | S::Double(n) | S::Float(n) => {
            out.push(n.field.clone())
        }
        S::Revts(r) => out.push(r.field.clone()),
        S::Time(t) => out.push(t.field.clone()),
        S::Bucket(b) => out.push(b.field.clone()),
        S::Dict(d) | S::Tag(d) => out.push(d.field.clone()),
        S::Uid(u) => out.push(u.field.clone()),
        S::Pk(p) => out.push(p.field.clone()),
        S::When(w) => {
            out.push(w.field.clone());
            for s in &w.then {
                segment_fields(s, out);
            }
        }
        S::Tags(t) => {
            for s in &t.of {
                segment_fields(s, out);
            }
        }
        S::Salt(s) => s.of.iter().flatten().for_each(|x| segment_fields(x, out)),
        S::Hash15(h) | S::Md5(h) => h.of.iter().flatten().for_each(|x| segment_fields(x, out)),
        S::Md5Hex(h) => h.of.iter().flatten().for_each(|x| segment_fields(x, out)),
        S::Literal(_) | S::Random(_) => {}
    }
}

/// The distinct fields of `segs`, in first-appearance order.
pub(crate) fn fields_of(segs: &[Segment]) -> Vec<String> {
    let mut all = Vec::new();
    for s in segs {
        segment_fields(s, &mut all);
    }
    let mut seen = BTreeSet::new();
    all.retain(|f| seen.insert(f.clone()));
    all
}

/// A leading segment that spreads writes rather than carrying a field's value.
pub(crate) fn is_spreading_prefix(seg: &Segment) -> bool {
    matches!(
        seg,
        Segment::Salt(_)
            | Segment::Random(_)
            | Segment::Hash15(_)
            | Segment::Md5(_)
            | Segment::Md5Hex(_)
    ) || matches!(seg, Segment::Bucket(b) if b.modulo.is_some())
}

/// A key cut into its spreading prefix (with the literals right after it) and its body.
#[derive(Debug, Clone)]
pub(crate) struct KeyShape {
    /// The leading salt, random bucket, hash or time bucket, if any.
    pub prefix: Option<Segment>,
    /// The literal separators right after the prefix (`"_"` in `salt(...) + "_" + ...`).
    pub prefix_sep: Vec<Segment>,
    /// Everything after.
    pub body: Vec<Segment>,
}

impl KeyShape {
    pub fn of(segments: &[Segment]) -> KeyShape {
        let Some((first, rest)) = segments.split_first() else {
            return KeyShape {
                prefix: None,
                prefix_sep: Vec::new(),
                body: Vec::new(),
            };
        };
        if !is_spreading_prefix(first) {
            return KeyShape {
                prefix: None,
                prefix_sep: Vec::new(),
                body: segments.to_vec(),
            };
        }
        let seps = rest
            .iter()
            .take_while(|s| matches!(s, Segment::Literal(_)))
            .count();
        KeyShape {
            prefix: Some(first.clone()),
            prefix_sep: rest.get(..seps).unwrap_or_default().to_vec(),
            body: rest.get(seps..).unwrap_or_default().to_vec(),
        }
    }
}

/// A segment the advisor may move within the key: one field, no nested segments.
fn movable(seg: &Segment) -> bool {
    use Segment as S;
    matches!(
        seg,
        S::Field(_)
            | S::Str(_)
            | S::Fixed(_)
            | S::Dec(_)
            | S::Long(_)
            | S::Int(_)
            | S::Short(_)
            | S::Double(_)
            | S::Float(_)
            | S::Bool(_)
            | S::BigDecimal(_)
            | S::Reverse(_)
            | S::Revts(_)
            | S::Time(_)
            | S::Dict(_)
    ) || matches!(seg, S::Bucket(b) if b.div.is_some())
}

/// The fields each read fixes to one value: a get's, prefix's or latest read's record, a
/// range's fields equal in `from` and `to`.
pub(crate) fn fixed_by_read(r: &ReadPattern) -> BTreeSet<String> {
    match r {
        ReadPattern::Get { record, .. }
        | ReadPattern::Prefix { record, .. }
        | ReadPattern::Latest { record, .. } => record.keys().cloned().collect(),
        ReadPattern::Range { from, to, .. } => from
            .iter()
            .filter(|(k, v)| to.get(*k) == Some(*v))
            .map(|(k, _)| k.clone())
            .collect(),
    }
}

/// The fields every read fixes (every declared field when there are no reads).
pub(crate) fn fixed_by_every_read(doc: &DesignDocument) -> BTreeSet<String> {
    let mut it = doc.reads.iter().map(fixed_by_read);
    let Some(first) = it.next() else {
        return doc.fields.iter().map(|f| f.name.clone()).collect();
    };
    it.fold(first, |acc, s| acc.intersection(&s).cloned().collect())
}

/// How many distinct values a field has ([`DesignDocument::distinct_values`]); `u64::MAX`
/// when unknown.
pub(crate) fn cardinality(doc: &DesignDocument, field: &str) -> u64 {
    doc.distinct_values(field).unwrap_or(u64::MAX)
}

/// Whether `field` is a time: a `timestamp` field.
pub(crate) fn is_time_field(doc: &DesignDocument, field: &str) -> bool {
    doc.field(field)
        .is_some_and(|d| d.field_type == FieldType::Timestamp)
}

/// One field of the body with the literals that follow it.
#[derive(Debug, Clone)]
struct Group {
    segment: Segment,
    field: String,
    after: Vec<Segment>,
}

/// The body reordered by the seed-000 rule: fields every read fixes first (more reads fixing
/// it first), few-valued before many-valued, time last; `None` when the body has segments the
/// advisor does not move (tags, uids, `when`), or the order would not change.
pub(crate) fn rule_order(doc: &DesignDocument, body: &[Segment]) -> Option<Vec<Segment>> {
    let lead = body
        .iter()
        .take_while(|s| matches!(s, Segment::Literal(_)))
        .count();
    let mut groups: Vec<Group> = Vec::new();
    for seg in body.get(lead..).unwrap_or_default() {
        match seg {
            Segment::Literal(_) => groups.last_mut()?.after.push(seg.clone()),
            s if movable(s) => {
                let f = fields_of(std::slice::from_ref(s));
                groups.push(Group {
                    segment: s.clone(),
                    field: f.first()?.clone(),
                    after: Vec::new(),
                });
            }
            _ => return None,
        }
    }
    if groups.len() < 2 {
        return None;
    }
    // The separator between groups: the one literal run used between every two groups when
    // they agree, else the most common non-empty one (so a variable-width field moved into
    // the middle still ends at a separator).
    let gaps: Vec<&Vec<Segment>> = groups
        .iter()
        .take(groups.len() - 1)
        .map(|g| &g.after)
        .collect();
    let sep: Vec<Segment> = match gaps.first() {
        Some(first) if gaps.iter().all(|g| g == first) => (*first).clone(),
        _ => {
            let mut best: Option<(&Vec<Segment>, usize)> = None;
            for g in gaps.iter().filter(|g| !g.is_empty()) {
                let n = gaps.iter().filter(|h| h == &g).count();
                if best.map_or(true, |(_, m)| n > m) {
                    best = Some((g, n));
                }
            }
            best.map(|(g, _)| g.clone()).unwrap_or_default()
        }
    };
    let tail = groups.last().map(|g| g.after.clone()).unwrap_or_default();
    let reads: Vec<BTreeSet<String>> = doc.reads.iter().map(fixed_by_read).collect();
    let mut order: Vec<(usize, &Group)> = groups.iter().enumerate().collect();
    order.sort_by_key(|&(i, g)| {
        let fixing = reads.iter().filter(|r| r.contains(&g.field)).count();
        (
            is_time_field(doc, &g.field),
            std::cmp::Reverse(fixing),
            cardinality(doc, &g.field),
            i,
        )
    });
    if order.iter().enumerate().all(|(k, &(i, _))| k == i) {
        return None;
    }
    let mut out: Vec<Segment> = body.get(..lead).unwrap_or_default().to_vec();
    for (k, (_, g)) in order.iter().enumerate() {
        out.push(g.segment.clone());
        if k + 1 < order.len() {
            out.extend(sep.iter().cloned());
        }
    }
    out.extend(tail);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(json: &str) -> DesignDocument {
        DesignDocument::from_json(json).unwrap()
    }

    const VEHICLE: &str = r#"{"v": 1,
      "fields": [{"name": "engine_type", "type": "string", "cardinality": 30},
                 {"name": "vin", "type": "string", "cardinality": 2000000},
                 {"name": "ts", "type": "timestamp"}],
      "key": "vin + \"-\" + dec(ts, 13) + \"-\" + engine_type",
      "reads": [{"type": "range", "from": {"engine_type": "A", "ts": 1}, "to": {"engine_type": "A", "ts": 2}},
                {"type": "latest", "record": {"engine_type": "A", "vin": "V"}, "n": 10}]}"#;

    #[test]
    fn fixed_fields_are_those_every_read_fixes() {
        let d = doc(VEHICLE);
        // The range fixes engine_type (equal in from and to), not ts; the latest read fixes
        // engine_type and vin: both fix engine_type only.
        let f: Vec<String> = fixed_by_every_read(&d).into_iter().collect();
        assert_eq!(f, ["engine_type"]);
    }

    #[test]
    fn the_rule_order_puts_read_fixed_few_valued_fields_first_and_time_last() {
        let d = doc(VEHICLE);
        let order = rule_order(&d, &d.key.segments).unwrap();
        // engine_type: fixed by 2 reads, 30 values; vin: by 1 read; ts: time, last. The one
        // separator "-" stays between the fields.
        assert_eq!(
            key_text(&order),
            "engine_type + \"-\" + vin + \"-\" + dec(ts, 13)"
        );
        // Already in order: nothing to propose.
        assert!(rule_order(&d, &order).is_none());
    }

    fn key_text(segs: &[Segment]) -> String {
        crate::keyspec::KeySpec {
            segments: segs.to_vec(),
        }
        .to_text()
    }

    #[test]
    fn the_shape_cuts_off_a_leading_salt_and_its_separator() {
        let d = doc(
            r#"{"v": 1, "fields": [{"name": "p", "type": "string"}, {"name": "ts", "type": "timestamp"}],
               "key": "salt(p, 10, as=dec(2)) + \"_\" + p + \"_\" + long(ts)"}"#,
        );
        let s = KeyShape::of(&d.key.segments);
        assert!(matches!(s.prefix, Some(Segment::Salt(_))));
        assert_eq!(s.prefix_sep.len(), 1);
        assert_eq!(key_text(&s.body), "p + \"_\" + long(ts)");
    }
}
