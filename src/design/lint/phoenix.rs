//! The Phoenix primary-key rules, one function each: a DESC variable-width column, a leading
//! DATE/TIME/TIMESTAMP column, a salted table's range reads.

use super::*;
use crate::hbase::phoenix::PhoenixType;

/// The `pk(...)` columns of the key, with their layout index.
fn columns<'a>(s: &'a Subject) -> impl Iterator<Item = (usize, &'a PkSpec)> {
    s.flat.iter().filter_map(|f| match f.seg {
        Segment::Pk(k) => Some((f.idx, k)),
        _ => None,
    })
}

/// The `SALT_BUCKETS` of the key: a `salt(N, hash=phoenix)` right before its columns.
fn salt_buckets(s: &Subject) -> Option<i32> {
    let first = s
        .flat
        .iter()
        .position(|f| matches!(f.seg, Segment::Pk(_)))?;
    let before = first.checked_sub(1).and_then(|i| s.flat.get(i))?;
    crate::keyspec::phoenix::phoenix_salt(before.seg)
}

/// phoenix-desc-separator: a DESC VARCHAR, VARBINARY or DECIMAL column before the last one
/// ends with an `ff` separator.
pub(super) fn desc_separator(s: &Subject, out: &mut Vec<Finding>) {
    let all: Vec<(usize, &PkSpec)> = columns(s).collect();
    let Some((_, rest)) = all.split_last() else {
        return;
    };
    for (idx, k) in rest {
        let var = matches!(
            k.data_type,
            PhoenixType::Varchar | PhoenixType::Varbinary | PhoenixType::Decimal
        );
        if k.desc && var {
            out.push(finding(
                "phoenix-desc-separator",
                Severity::Info,
                Some(*idx),
                format!(
                    "`{}` is a DESC {} column: its value is inverted and ends with an ff separator (00 in tables created before Phoenix 4.7, which sort differently), and a value holding 00 (ff once inverted) cannot be split back out of the key; an ASC column, or a fixed-width type, keeps the boundary unambiguous",
                    text(&Segment::Pk((*k).clone())),
                    k.data_type.sql_name()
                ),
            ));
        }
    }
}

/// phoenix-leading-date: the first key column of an unsalted table is a DATE, TIME or
/// TIMESTAMP (or a field that counts up): every write goes to the last region.
pub(super) fn leading_date(s: &Subject, out: &mut Vec<Finding>) {
    if salt_buckets(s).is_some() {
        return;
    }
    let Some((idx, k)) = columns(s).next() else {
        return;
    };
    let first_seg = s.flat.first().map(|f| f.idx);
    if first_seg != Some(idx) {
        return;
    }
    let time = matches!(
        k.data_type,
        PhoenixType::Date | PhoenixType::Time | PhoenixType::Timestamp
    );
    let counting = s.doc.field(&k.field).is_some_and(|d| {
        d.field_type == FieldType::Timestamp
            || matches!(
                d.generator,
                Some(Generator::Sequence { .. } | Generator::Clock { .. })
            )
    });
    if time || counting {
        out.push(finding(
            "phoenix-leading-date",
            Severity::Warning,
            Some(idx),
            format!(
                "the primary key starts with `{}`, which grows with every write{}: all writes land in the last region (a hotspot); salt the table (SALT_BUCKETS = N) or lead with a well-spread column",
                k.field,
                if k.desc { " (DESC only moves the hotspot to the first region)" } else { "" }
            ),
        ));
    }
}

/// phoenix-salted-range: a salted table serves each range or prefix read with one scan per
/// salt bucket.
pub(super) fn salted_range(s: &Subject, out: &mut Vec<Finding>) {
    let Some(n) = salt_buckets(s) else {
        return;
    };
    let ranges: Vec<String> = s
        .doc
        .reads
        .iter()
        .filter(|r| !matches!(r, ReadPattern::Get { .. }))
        .map(ReadPattern::name)
        .collect();
    if ranges.is_empty() {
        return;
    }
    out.push(finding(
        "phoenix-salted-range",
        Severity::Info,
        s.flat.first().map(|f| f.idx),
        format!(
            "SALT_BUCKETS = {n}: each range read ({}) runs {n} scans, one per bucket, and merges them; the salt spreads writes at that price (fewer buckets, or a leading column the reads always fix, costs fewer scans)",
            ranges.join(", ")
        ),
    ));
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::design::phoenix::parse_create_table;
    use crate::design::{lint, DesignDocument};

    fn rules(doc: &DesignDocument) -> Vec<(String, Option<usize>)> {
        lint(doc)
            .into_iter()
            .filter(|f| {
                f.rule.starts_with("phoenix-")
                    || f.rule == "monotonic-leading"
                    || f.rule == "ambiguous-boundary"
            })
            .map(|f| (f.rule.to_string(), f.segment))
            .collect()
    }

    #[test]
    fn desc_variable_width_column_before_the_last() {
        let doc = parse_create_table(
            "CREATE TABLE t (a VARCHAR NOT NULL, b DECIMAL(5,2) NOT NULL, c VARCHAR NOT NULL, d BIGINT NOT NULL \
             CONSTRAINT pk PRIMARY KEY (a DESC, b DESC, c, d))",
        )
        .unwrap();
        // a and b (layout entries 0 and 1); c is ASC; no separator rule of the plain key fires.
        assert_eq!(
            rules(&doc),
            vec![
                ("phoenix-desc-separator".into(), Some(0)),
                ("phoenix-desc-separator".into(), Some(1))
            ]
        );
        // The last column has no separator after it (only a trailing ff): not flagged.
        let doc = parse_create_table("CREATE TABLE t (a VARCHAR PRIMARY KEY DESC)").unwrap();
        assert_eq!(rules(&doc), vec![]);
    }

    #[test]
    fn leading_date_without_salt() {
        let doc = parse_create_table(
            "CREATE TABLE t (ts DATE NOT NULL, host VARCHAR NOT NULL CONSTRAINT pk PRIMARY KEY (ts, host))",
        )
        .unwrap();
        assert_eq!(rules(&doc), vec![("phoenix-leading-date".into(), Some(0))]);
        let mut doc = parse_create_table(
            "CREATE TABLE t (ts DATE NOT NULL, host VARCHAR NOT NULL CONSTRAINT pk PRIMARY KEY (ts, host)) SALT_BUCKETS=4",
        )
        .unwrap();
        // (its starter read of one TS fans out to the 4 buckets: the salted-range rule's case)
        doc.reads.clear();
        assert_eq!(rules(&doc), vec![]);
        let doc = parse_create_table(
            "CREATE TABLE t (ts DATE NOT NULL, host VARCHAR NOT NULL CONSTRAINT pk PRIMARY KEY (host, ts))",
        )
        .unwrap();
        assert_eq!(rules(&doc), vec![]);
    }

    #[test]
    fn salted_range_reads_fan_out() {
        let mut doc = parse_create_table(
            "CREATE TABLE t (host VARCHAR NOT NULL, ts DATE NOT NULL CONSTRAINT pk PRIMARY KEY (host, ts)) SALT_BUCKETS=8",
        )
        .unwrap();
        // The statement's starter reads: the get pins its bucket, every row of one host does not.
        let f = lint(&doc);
        let r = f.iter().find(|f| f.rule == "phoenix-salted-range").unwrap();
        assert!(r.message.contains("runs 8 scans"), "{}", r.message);
        assert!(r.message.contains("every row of one HOST"), "{}", r.message);
        doc.reads.clear();
        assert_eq!(rules(&doc), vec![]);
        let json = doc.to_json().replacen(
            "\"reads\": []",
            r#""reads": [{"type": "range", "name": "one host's day", "from": {"HOST": "a", "TS": 0}, "to": {"HOST": "a", "TS": 86400000}}]"#,
            1,
        );
        doc = DesignDocument::from_json(&json).unwrap();
        let f = lint(&doc);
        let r = f.iter().find(|f| f.rule == "phoenix-salted-range").unwrap();
        assert!(r.message.contains("runs 8 scans"), "{}", r.message);
        assert!(r.message.contains("one host's day"), "{}", r.message);
    }
}
