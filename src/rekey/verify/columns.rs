//! Which columns a verification compares, and as what: every column both exports hold, the
//! key's and every other (a design usually declares only what its key reads, and a cell
//! changed in the move must not pass as equal), unless the user says otherwise (`ignore`,
//! `columns`). A column one export holds and the other does not is named, and the exports
//! are not equal unless it is ignored.
//!
//! Each compared column is read on both sides as one type, decided here from the two
//! exports' types ([`compare_as`]), so values are compared and not the bytes of two
//! encodings: an integer against its text as text, ms against µs as instants (in ms), a CSV's
//! text as the other side's type. Two types with no common value (a boolean and a number) are
//! refused, the column named. The columns compared become the fields of the design both
//! exports are read through ([`verify_design`]), so each row's digest covers them.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{ComparedColumn, IgnoredColumn, VerifyColumns};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;
use crate::rows::{export_columns, ExportColumn, FileSample, RowsOptions, ValueKind};
use crate::workload::FieldDecl;

/// What the user says about the columns: `--ignore COL` (repeatable) and `--columns A,B`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyOptions {
    /// Columns not compared, a column one export lacks included (it is then expected).
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Compare only these columns (and the new key's, which make the key); the rest ignored.
    #[serde(default)]
    pub columns: Option<Vec<String>>,
}

/// One export as the plan sees it: how its rows meet the design and what it says of its
/// columns (its first bytes, or its schema).
pub struct ExportSample<'a> {
    /// How the file's rows meet the design (its name for messages, its format, the map).
    pub rows: &'a RowsOptions,
    /// Its first bytes or its schema.
    pub sample: FileSample<'a>,
}

/// The type both sides of a column are read as, from each export's, or why none serves.
/// The rule is the same whichever side is which.
pub fn compare_as(old: ValueKind, new: ValueKind) -> std::result::Result<FieldType, &'static str> {
    use ValueKind as K;
    let own = |k: K| match k {
        K::Integer => FieldType::Long,
        K::Float => FieldType::Double,
        K::Boolean => FieldType::Boolean,
        K::Time => FieldType::Timestamp,
        K::Decimal => FieldType::BigDecimal,
        _ => FieldType::String,
    };
    let (a, b) = if old <= new { (old, new) } else { (new, old) };
    Ok(match (a, b) {
        (K::Unsupported, _) | (_, K::Unsupported) => {
            return Err("a list, a map, a struct or binary: not read as one value")
        }
        (x, y) if x == y => own(x),
        // one side tells nothing (CSV text, a column of nulls): the other side's type
        (K::CsvText | K::Unknown, y) => own(y),
        (x, K::CsvText | K::Unknown) => own(x),
        // a number and its text: the text the number writes (`String.valueOf(long)`)
        (K::Text, K::Integer) => FieldType::String,
        // text and a float, a boolean, a time or a decimal: the text read as that type
        (K::Text, y) => own(y),
        (K::Integer, K::Float) => FieldType::Double,
        (K::Integer, K::Time) => FieldType::Timestamp,
        (K::Integer, K::Decimal) => FieldType::BigDecimal,
        _ => return Err("no common value: compare them as one type"),
    })
}

/// `doc` fitted to the old export (a design that is just a key has its key's fields declared
/// from it, as `analyze --records` does), then the plan of the columns over both exports.
pub fn verify_design(
    doc: DesignDocument,
    old: ExportSample<'_>,
    new: ExportSample<'_>,
    opts: &VerifyOptions,
) -> Result<(DesignDocument, VerifyColumns)> {
    let old_cols = export_columns(old.rows, clone_sample(&old.sample))?;
    let new_cols = export_columns(new.rows, clone_sample(&new.sample))?;
    let (doc, _) = crate::rows::declare_from_file(doc, old.rows, old.sample)?;
    plan(&doc, old.rows, &old_cols, &new_cols, opts)
}

fn clone_sample<'a>(s: &FileSample<'a>) -> FileSample<'a> {
    match s {
        FileSample::Head { bytes, whole } => FileSample::Head {
            bytes,
            whole: *whole,
        },
        FileSample::Schema(s) => FileSample::Schema(s),
    }
}

fn refuse(message: String) -> Error {
    Error::new(ErrorKind::IllegalArgument, message)
}

/// The design both exports are read through and what it compares: the key and its fields as
/// `doc` declares them, then every other column compared, as a field of its own (named as the
/// column) typed by [`compare_as`]. Nothing else of `doc` (workload, cells, reads, regions):
/// they do not change a key or a value read.
pub fn plan(
    doc: &DesignDocument,
    rows: &RowsOptions,
    old: &[ExportColumn],
    new: &[ExportColumn],
    opts: &VerifyOptions,
) -> Result<(DesignDocument, VerifyColumns)> {
    let column_of = |field: &str| rows.map.get(field).cloned().unwrap_or_else(|| field.into());
    // the fields the key reads (not every declared field: a design may declare its cells too)
    let used = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?.used_fields();
    let key_fields: BTreeSet<String> = used
        .iter()
        .filter_map(|&i| doc.fields.get(i))
        .map(|f| f.name.clone())
        .collect();
    let key_columns: BTreeSet<String> = key_fields.iter().map(|f| column_of(f)).collect();
    check_named(&key_columns, old, new, opts)?;
    let in_old = |c: &str| old.iter().find(|x| x.name == c);
    let in_new = |c: &str| new.iter().find(|x| x.name == c);
    let why_left_out = |c: &str| -> Option<&'static str> {
        if key_columns.contains(c) {
            None
        } else if opts.ignore.iter().any(|x| x == c) {
            Some("--ignore")
        } else if opts
            .columns
            .as_ref()
            .is_some_and(|l| !l.iter().any(|x| x == c))
        {
            Some("not in --columns")
        } else {
            None
        }
    };
    let mut out = VerifyColumns::default();
    // every column by name, the old export's order first
    let mut names: Vec<&str> = old.iter().map(|x| x.name.as_str()).collect();
    for x in new {
        if !names.contains(&x.name.as_str()) {
            names.push(&x.name);
        }
    }
    let mut fields: Vec<FieldDecl> = Vec::new();
    // the design's fields that read a column (by its name or the map), by column
    let declared = |c: &str| doc.fields.iter().find(|f| column_of(&f.name) == c);
    for c in names {
        let (a, b) = (in_old(c), in_new(c));
        let why = why_left_out(c);
        match (a, b) {
            (Some(_), None) => out.only_old.push(c.to_string()),
            (None, Some(_)) => out.only_new.push(c.to_string()),
            _ => {}
        }
        let left_out = why.is_some() || a.is_none() || b.is_none();
        if let Some(f) = declared(c).filter(|f| left_out && rows.map.contains_key(&f.name)) {
            // the map names the field, so the design must keep it, and one side cannot read it
            return Err(refuse(format!(
                "--map {}={c} reads a column that is not compared (ignored, or in one export only): leave the map out",
                f.name
            ))
            .at_path(format!("map/{}", f.name)));
        }
        if let Some(why) = why {
            out.ignored.push(IgnoredColumn {
                column: c.to_string(),
                why: why.to_string(),
            });
            continue;
        }
        let (Some(a), Some(b)) = (a, b) else {
            continue;
        };
        if c.is_empty() {
            return Err(refuse(
                "a column with no name in both exports: it cannot be read by name; --ignore \"\" to leave it out".into(),
            ));
        }
        let (field, as_type) = match declared(c) {
            // a field of the design reads it: its declared type, as the key was written with
            Some(f) => (f.name.clone(), f.field_type),
            None => {
                if doc.field(c).is_some() {
                    return Err(refuse(format!(
                        "column `{c}` has the name of the design's field `{c}`, which reads column `{}` (--map): --ignore {c}, or rename one",
                        column_of(c)
                    ))
                    .at_path("ignore"));
                }
                let t = compare_as(a.kind, b.kind).map_err(|why| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!(
                            "column `{c}` is {} in the old export and {} in the new: {why}; --ignore {c} to leave it out",
                            a.shown, b.shown
                        ),
                    )
                    .at_path(format!("columns/{c}"))
                })?;
                (c.to_string(), t)
            }
        };
        fields.push(FieldDecl {
            name: field.clone(),
            field_type: as_type,
            cardinality: None,
            generator: None,
        });
        out.compared.push(ComparedColumn {
            column: c.to_string(),
            field: (field != c).then_some(field),
            as_type: as_type.name().to_string(),
            old: a.shown.clone(),
            new: b.shown.clone(),
        });
    }
    // the key's fields the exports do not hold as columns (none: checked above), then the rest
    for f in &doc.fields {
        if key_fields.contains(&f.name) && !fields.iter().any(|d| d.name == f.name) {
            fields.push(f.clone());
        }
    }
    let design = DesignDocument {
        v: doc.v,
        name: None,
        description: None,
        fields,
        key: doc.key.clone(),
        workload: None,
        regions: None,
        cells: None,
        hbase: None,
        reads: Vec::new(),
        latest_first: false,
        examples: Vec::new(),
        phoenix: None,
    };
    Ok((design, out))
}

/// The columns the user named (`ignore`, `columns`) and those the new key reads, checked
/// against the exports: a name neither holds is a typo, said rather than ignored; a key column
/// cannot be ignored, and both exports must hold it.
fn check_named(
    key_columns: &BTreeSet<String>,
    old: &[ExportColumn],
    new: &[ExportColumn],
    opts: &VerifyOptions,
) -> Result<()> {
    let in_old = |c: &str| old.iter().find(|x| x.name == c);
    let in_new = |c: &str| new.iter().find(|x| x.name == c);
    // names the user gave that neither export holds: a typo, said rather than ignored
    let named = opts.ignore.iter().chain(opts.columns.iter().flatten());
    for c in named {
        if in_old(c).is_none() && in_new(c).is_none() {
            let all: BTreeSet<&str> = old.iter().chain(new).map(|x| x.name.as_str()).collect();
            return Err(refuse(format!(
                "no column `{c}` in either export (columns: {})",
                all.into_iter().collect::<Vec<_>>().join(", ")
            ))
            .at_path(if opts.ignore.contains(c) {
                "ignore"
            } else {
                "columns"
            }));
        }
        if key_columns.contains(c) && opts.ignore.contains(c) {
            return Err(refuse(format!(
                "`{c}` is read by the new key: it makes each row's key, so it is always compared"
            ))
            .at_path("ignore"));
        }
    }
    for c in key_columns {
        for (side, cols) in [("old", old), ("new", new)] {
            if !cols.iter().any(|x| &x.name == c) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "the new key reads column `{c}`, which the {side} export does not have"
                    ),
                )
                .at_path(format!("{side}Rows")));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ValueKind as K;

    #[test]
    fn one_type_per_pair_whichever_side_is_which() {
        let kinds = [
            K::CsvText,
            K::Text,
            K::Integer,
            K::Float,
            K::Boolean,
            K::Time,
            K::Decimal,
            K::Unknown,
            K::Unsupported,
        ];
        for a in kinds {
            for b in kinds {
                assert_eq!(compare_as(a, b), compare_as(b, a), "{a:?} {b:?}");
            }
        }
        assert_eq!(compare_as(K::Integer, K::Text), Ok(FieldType::String));
        assert_eq!(compare_as(K::Integer, K::Time), Ok(FieldType::Timestamp));
        assert_eq!(compare_as(K::CsvText, K::Float), Ok(FieldType::Double));
        assert_eq!(compare_as(K::Unknown, K::Unknown), Ok(FieldType::String));
        assert!(compare_as(K::Boolean, K::Integer).is_err());
        assert!(compare_as(K::Float, K::Time).is_err());
        assert!(compare_as(K::Text, K::Unsupported).is_err());
    }

    fn col(name: &str, kind: ValueKind) -> ExportColumn {
        ExportColumn {
            name: name.into(),
            kind,
            shown: format!("{kind:?}"),
        }
    }

    #[test]
    fn a_mapped_field_reads_its_column_and_a_map_to_a_column_left_out_is_refused() {
        let text = r#"{"v": 1, "key": "a", "fields": [{"name": "a", "type": "string"}, {"name": "n", "type": "long"}]}"#;
        let doc = DesignDocument::from_json(text).unwrap();
        let rows = RowsOptions {
            map: [("n".to_string(), "count".to_string())].into(),
            ..RowsOptions::default()
        };
        let both = [col("a", K::Text), col("count", K::Integer)];
        let (d, cols) = plan(&doc, &rows, &both, &both, &VerifyOptions::default()).unwrap();
        let names: Vec<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "n"]);
        assert_eq!(cols.compared[1].field.as_deref(), Some("n"));
        let e = plan(&doc, &rows, &both, &both[..1], &VerifyOptions::default()).unwrap_err();
        assert!(e.message.contains("--map n=count"), "{e}");
    }
}
