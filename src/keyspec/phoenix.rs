//! Apache Phoenix primary keys in the key language: `pk(field, TYPE, desc)` segments, byte for
//! byte what `PTableImpl.newKey` writes (see [`crate::hbase::phoenix`]; `tests/engine/phoenix_key.rs`
//! rebuilds every recorded `phoenix.rowkey` vector through a design document).
//!
//! Consecutive `pk(...)` segments are one primary key (a *run*): a separator after each
//! variable-width column depends on the column before it, and trailing NULL columns are
//! dropped with their separators, so the run is encoded as a whole by its first segment (the
//! others write no bytes of their own). The run ends the key; at most a
//! `salt(N, hash=phoenix)` over the rest may come before it, which is Phoenix's
//! `SALT_BUCKETS = N` (the salt byte over the rest of the key is exactly
//! `SaltingUtil.getSaltingByte`).

mod values;

use super::ast::*;
use super::value::FieldValue;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::phoenix::{
    assign_value, decode_row_key, new_key, PhoenixColumn, PhoenixTable, PhoenixType, SortOrder,
};
use crate::keyspec::FieldType;
pub(crate) use values::{from_phoenix, to_phoenix};

/// A compiled primary key: the table the run describes and the field each column reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PkRun {
    /// The columns (named after their fields), salt buckets when a Phoenix salt precedes.
    pub(crate) table: PhoenixTable,
    /// The field index of each column.
    pub(crate) fields: Vec<usize>,
}

/// One column read back: its field, its value (`None`: NULL) and `[start, end)` in the key.
pub(crate) type PkColumnRead = (usize, Option<FieldValue>, (usize, usize));

/// The column a `pk(...)` segment declares.
pub fn column(k: &PkSpec) -> PhoenixColumn {
    PhoenixColumn {
        name: k.field.clone(),
        data_type: k.data_type,
        sort_order: if k.desc {
            SortOrder::Desc
        } else {
            SortOrder::Asc
        },
        nullable: k.nullable,
        max_length: k.len,
        scale: k.scale,
    }
}

/// The `pk(...)` segment of a column (the inverse of [`column()`]).
pub fn segment(c: &PhoenixColumn) -> Segment {
    Segment::Pk(PkSpec {
        field: c.name.clone(),
        data_type: c.data_type,
        desc: c.sort_order == SortOrder::Desc,
        len: c.max_length,
        scale: c.scale,
        nullable: c.nullable,
    })
}

/// The key's Phoenix table: its `pk(...)` columns, and `SALT_BUCKETS` when a
/// `salt(N, hash=phoenix)` over the rest precedes them. `None` when the key has no `pk(...)`.
pub fn table_of(spec: &KeySpec, name: &str) -> Option<PhoenixTable> {
    let first = spec
        .segments
        .iter()
        .position(|s| matches!(s, Segment::Pk(_)))?;
    let columns = spec
        .segments
        .get(first..)?
        .iter()
        .filter_map(|s| match s {
            Segment::Pk(k) => Some(column(k)),
            _ => None,
        })
        .collect();
    let salt_buckets = first
        .checked_sub(1)
        .and_then(|i| spec.segments.get(i))
        .and_then(phoenix_salt);
    Some(PhoenixTable {
        name: name.to_string(),
        columns,
        salt_buckets,
        row_key_order_optimizable: true,
    })
}

/// The bucket count of a `salt(N, hash=phoenix)` over the rest of the key.
pub(crate) fn phoenix_salt(s: &Segment) -> Option<i32> {
    match s {
        Segment::Salt(SaltSpec {
            of: None,
            hash: SaltHash::Phoenix,
            buckets,
            ..
        }) => i32::try_from(*buckets).ok(),
        _ => None,
    }
}

fn invalid(path: &str, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_path(path.to_string())
}

/// Where `pk(...)` may stand: only at the top level, as one run that ends the key. Each
/// column's own declaration is checked too (a length for CHAR/BINARY, DECIMAL's scale).
pub(crate) fn validate(segs: &[Segment], path: &str, top: bool) -> Result<()> {
    let mut run: Option<usize> = None;
    for (i, s) in segs.iter().enumerate() {
        let p = format!("{path}/{i}");
        match s {
            Segment::Pk(k) => {
                if !top {
                    return Err(invalid(
                        &p,
                        "pk(...) is a Phoenix primary-key column: it stands at the top level of the key, not inside another segment",
                    ));
                }
                if let Some(start) = run {
                    if start + 1 < i && !matches!(segs.get(i - 1), Some(Segment::Pk(_))) {
                        return Err(invalid(
                            &p,
                            "the pk(...) columns must follow each other: a Phoenix primary key is one run of columns",
                        ));
                    }
                }
                // Phoenix writes its salt byte and its primary key, nothing else: a key with
                // another prefix (a Java-hash salt, a literal) is no Phoenix table, and its
                // reads could not be planned as Phoenix's.
                if run.is_none() {
                    let salted = i == 1 && segs.first().and_then(phoenix_salt).is_some();
                    if i > 0 && !salted {
                        return Err(invalid(
                            &p,
                            "a Phoenix primary key starts the row key, after at most Phoenix's salt byte: only salt(N, hash=phoenix) may come before the pk(...) columns",
                        ));
                    }
                }
                run.get_or_insert(i);
                validate_column(k, &p)?;
            }
            _ if run.is_some() => {
                return Err(invalid(
                    &p,
                    "nothing may follow the pk(...) columns: a Phoenix primary key ends the row key (put a salt(N, hash=phoenix) before it)",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

fn validate_column(k: &PkSpec, p: &str) -> Result<()> {
    let t = k.data_type;
    let needs_len = matches!(t, PhoenixType::Char | PhoenixType::Binary);
    let takes_len = needs_len || matches!(t, PhoenixType::Varchar | PhoenixType::Varbinary);
    match (k.len, t) {
        (None, _) if needs_len => Err(invalid(
            p,
            format!(
                "{}: {} needs a length, e.g. {}(10)",
                k.field,
                t.sql_name(),
                t.sql_name()
            ),
        )),
        (Some(n), _) if n < 1 => Err(invalid(
            p,
            format!("{}: the length must be at least 1, got {n}", k.field),
        )),
        (Some(n), PhoenixType::Decimal) if n > 38 => Err(invalid(
            p,
            format!("{}: DECIMAL precision must be 1 to 38, got {n}", k.field),
        )),
        (Some(_), _) if !takes_len && t != PhoenixType::Decimal => Err(invalid(
            p,
            format!("{}: {} takes no length", k.field, t.sql_name()),
        )),
        _ => match k.scale {
            Some(_) if t != PhoenixType::Decimal => Err(invalid(
                p,
                format!("{}: only DECIMAL takes a scale", k.field),
            )),
            Some(s) if k.len.is_none() || Some(s) > k.len => Err(invalid(
                p,
                format!(
                    "{}: DECIMAL's scale needs a precision at least as large (DECIMAL(p, s), s <= p), got scale {s}",
                    k.field
                ),
            )),
            _ => Ok(()),
        },
    }
}

/// Whether a field of type `f` can hold a value of Phoenix type `t`, and what it needs.
pub(crate) fn accepts(t: PhoenixType, f: FieldType) -> std::result::Result<(), &'static str> {
    use PhoenixType as P;
    let int = matches!(
        f,
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp
    );
    let ok = match t {
        P::Integer | P::UnsignedInt | P::Bigint | P::UnsignedLong | P::Smallint | P::Tinyint => int,
        P::Float | P::Double => matches!(f, FieldType::Double | FieldType::Float),
        P::Decimal => int || f == FieldType::BigDecimal,
        P::Varchar | P::Char | P::Varbinary | P::Binary => f == FieldType::String,
        P::Boolean => f == FieldType::Boolean,
        P::Date | P::Time => int,
        P::Timestamp => int || f == FieldType::BigDecimal,
    };
    if ok {
        return Ok(());
    }
    Err(match t {
        P::Float | P::Double => "a double or float field",
        P::Decimal => "a bigDecimal or integer field",
        P::Varchar | P::Char | P::Varbinary | P::Binary => "a string field",
        P::Boolean => "a boolean field",
        P::Date | P::Time => "a timestamp or integer field (epoch milliseconds)",
        P::Timestamp => {
            "a timestamp or integer field (epoch milliseconds), or a bigDecimal of epoch seconds"
        }
        _ => "an integer field (long, int, short or timestamp)",
    })
}

impl PkRun {
    /// A one-column run, before the compiled key links its runs (`compile::link`).
    pub(crate) fn single(k: &PkSpec, f: usize) -> PkRun {
        PkRun {
            table: PhoenixTable {
                name: "T".into(),
                columns: vec![column(k)],
                salt_buckets: None,
                row_key_order_optimizable: true,
            },
            fields: vec![f],
        }
    }

    /// Whether every key has the same width: every column fixed-width and NOT NULL.
    pub(crate) fn fixed_width(&self) -> Option<usize> {
        self.table.columns.iter().try_fold(0usize, |acc, c| {
            (!c.nullable).then_some(())?;
            acc.checked_add(column_width(c)?)
        })
    }

    /// The key bytes of the run (`PTableImpl.newKey` without the salt byte, which the salt
    /// segment before writes): each value assigned as `UPSERT` assigns it, then joined.
    pub(crate) fn encode(
        &self,
        fields: &[(String, FieldType)],
        vals: &[FieldValue],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let mut assigned = Vec::with_capacity(self.fields.len());
        for (c, &f) in self.table.columns.iter().zip(&self.fields) {
            let ty = fields.get(f).map_or(FieldType::String, |x| x.1);
            let v = vals.get(f).unwrap_or(&FieldValue::Null);
            let pv = to_phoenix(c, ty, v)?;
            assigned.push(assign_value(c, pv.as_ref())?);
        }
        let key = new_key(&self.table, &assigned)?;
        let salted = usize::from(self.table.salt_buckets.is_some());
        out.extend_from_slice(key.get(salted..).unwrap_or(&[]));
        Ok(())
    }

    /// The run's bytes (the key after any salt byte) back to each column's value and
    /// `[start, end)` in `key` (`at`: where the run starts).
    pub(crate) fn decode(
        &self,
        fields: &[(String, FieldType)],
        key: &[u8],
        at: usize,
    ) -> Result<Vec<PkColumnRead>> {
        let table = PhoenixTable {
            salt_buckets: None,
            ..self.table.clone()
        };
        let d = decode_row_key(&table, key.get(at..).unwrap_or(&[])).map_err(|e| shift(e, at))?;
        let mut out = Vec::with_capacity(d.columns.len());
        for ((dc, &f), c) in d.columns.iter().zip(&self.fields).zip(&table.columns) {
            let ty = fields.get(f).map_or(FieldType::String, |x| x.1);
            let v = match &dc.value {
                Some(v) => Some(from_phoenix(c, ty, v).map_err(|e| e.at_offset(at + dc.offset))?),
                None => None,
            };
            out.push((f, v, (at + dc.offset, at + dc.offset + dc.length)));
        }
        Ok(out)
    }
}

fn shift(e: Error, at: usize) -> Error {
    match e.location.offset {
        Some(o) => e.at_offset(o + at),
        None => e.at_offset(at),
    }
}

/// A column's own width when it is fixed (CHAR/BINARY: their length).
pub(crate) fn column_width(c: &PhoenixColumn) -> Option<usize> {
    if !c.data_type.is_fixed_width() {
        return None;
    }
    c.data_type
        .byte_size()
        .or_else(|| c.max_length.and_then(|m| usize::try_from(m).ok()))
}

/// What a `pk(...)` column's bytes are, for the layout.
pub(crate) fn column_phrase(k: &PkSpec) -> String {
    column_phrase_at(k, None)
}

/// What a `pk(...)` column's bytes are, knowing whether it is the key's last column
/// (`last`: `None` when not known): the separator it is followed by.
pub(crate) fn column_phrase_at(k: &PkSpec, last: Option<bool>) -> String {
    use PhoenixType as P;
    let c = column(k);
    let what = match k.data_type {
        P::Integer | P::Bigint | P::Smallint | P::Tinyint => "big-endian, sign bit flipped",
        P::UnsignedInt | P::UnsignedLong => "big-endian, never negative",
        P::Float | P::Double => "IEEE-754 bits made sortable",
        P::Decimal => "Phoenix base-100 decimal (exponent byte, digit pairs)",
        P::Varchar => "UTF-8 text",
        P::Char => "UTF-8 text of single-byte characters, padded with spaces",
        P::Boolean => "one byte, 01 for true",
        P::Date | P::Time => "epoch milliseconds, 8 bytes, sign bit flipped",
        P::Timestamp => "epoch milliseconds (8 bytes) then nanoseconds below the millisecond (4)",
        P::Varbinary => "raw bytes",
        P::Binary => "raw bytes padded with 00",
    };
    let width = match column_width(&c) {
        Some(w) => format!("{w} bytes"),
        None => match (last, k.desc) {
            (Some(true), false) => {
                "variable width, the rest of the key (the last column has no separator)".into()
            }
            (Some(true), true) => {
                "variable width, then ff (a DESC last column ends with one)".into()
            }
            (Some(false), false) => "variable width, then the separator 00".into(),
            (Some(false), true) => "variable width, then the separator ff (00 after a NULL)".into(),
            (None, _) => "variable width, then a separator: 00 (ff after a DESC value)".into(),
        },
    };
    format!(
        "Phoenix {} {}: {what}; {width}{}{}",
        declared_type(&c),
        c.sort_order.name(),
        if k.desc { "; every byte inverted" } else { "" },
        if k.nullable {
            "; nullable (a trailing NULL is dropped)"
        } else {
            ""
        },
    )
}

/// The type as the DDL spells it: `VARCHAR(20)`, `DECIMAL(10,2)`, `INTEGER`.
pub fn declared_type(c: &PhoenixColumn) -> String {
    match (c.max_length, c.scale) {
        (Some(l), Some(s)) => format!("{}({l},{s})", c.data_type.sql_name()),
        (Some(l), None) => format!("{}({l})", c.data_type.sql_name()),
        _ => c.data_type.sql_name().to_string(),
    }
}

impl PkRun {
    /// The key bytes of the first `m` columns alone, as `PTableImpl.newKey` writes a key that
    /// ends there (no salt byte; the last column's separator only when it is a DESC
    /// variable-width value): what a scan bound on the leading columns starts with. The
    /// values of those columns must be given.
    pub(crate) fn leading_bytes(
        &self,
        fields: &[(String, FieldType)],
        vals: &[FieldValue],
        m: usize,
    ) -> Result<Vec<u8>> {
        if m == 0 {
            return Ok(Vec::new());
        }
        let part = PkRun {
            table: PhoenixTable {
                columns: self.table.columns.iter().take(m).cloned().collect(),
                salt_buckets: None,
                ..self.table.clone()
            },
            fields: self.fields.iter().take(m).copied().collect(),
        };
        let mut out = Vec::new();
        part.encode(fields, vals, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::keyspec::{CompiledKey, Field, FieldType, FieldValue, KeySpec, Width};

    fn fields() -> Vec<Field> {
        vec![
            Field::new("host", FieldType::String),
            Field::new("ts", FieldType::Timestamp),
            Field::new("metric", FieldType::Int),
        ]
    }

    const KEY: &str = "salt(4, hash=phoenix) + pk(host, VARCHAR(20)) + pk(ts, DATE, desc) + pk(metric, INTEGER, nullable)";

    #[test]
    fn text_and_json_forms_round_trip() {
        let spec = KeySpec::parse_text(KEY).unwrap();
        assert_eq!(KeySpec::parse_text(&spec.to_text()).unwrap(), spec);
        assert_eq!(KeySpec::from_json(&spec.to_json()).unwrap(), spec);
        assert!(spec
            .to_json()
            .contains(r#"{"kind":"pk","field":"ts","type":"DATE","desc":true}"#));
        let d = KeySpec::parse_text("pk(p, DECIMAL(10, 2), desc)").unwrap();
        assert_eq!(d.to_text(), "pk(p, DECIMAL(10, 2), desc)");
    }

    #[test]
    fn encodes_like_new_key() {
        let spec = KeySpec::parse_text(KEY).unwrap();
        let mut ck = CompiledKey::new(&spec, &fields()).unwrap();
        let key = ck
            .encode_values(&[
                FieldValue::Str("ab".into()),
                FieldValue::Long(1),
                FieldValue::Long(7),
            ])
            .unwrap();
        // "ab" 00 | DATE 1 = 80 00..01, inverted = 7f ff ff ff ff ff ff fe | INTEGER 7 = 80 00 00 07
        let rest = [
            0x61, 0x62, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x80, 0, 0, 7,
        ];
        let salt = crate::hbase::salt::phoenix::salt_for(&rest, 4).unwrap();
        assert_eq!(key.first(), Some(&salt));
        assert_eq!(key.get(1..), Some(&rest[..]));
        // Phoenix refuses a NULL fixed-width column where the key ends, nullable or not.
        let e = ck
            .encode_values(&[
                FieldValue::Str("ab".into()),
                FieldValue::Long(1),
                FieldValue::Null,
            ])
            .unwrap_err();
        assert_eq!(e.message, "T.metric may not be null");
        let d = ck.decode(&key).unwrap();
        assert_eq!(d.verified, Some(true));
        assert_eq!(d.spans, vec![(0, 1), (1, 3), (4, 12), (12, 16)]);
    }

    #[test]
    fn layout_shows_each_column() {
        let spec = KeySpec::parse_text(KEY).unwrap();
        let l = CompiledKey::new(&spec, &fields()).unwrap().layout();
        let w: Vec<(Width, Option<usize>)> = l.iter().map(|x| (x.width, x.offset)).collect();
        assert_eq!(
            w,
            vec![
                (Width::Fixed(1), Some(0)),
                (Width::Variable, Some(1)),
                (Width::Fixed(8), None),
                (Width::Variable, None),
            ]
        );
        assert_eq!(l[1].kind, "pk");
        assert!(
            l[1].encoding.contains("then the separator 00"),
            "{}",
            l[1].encoding
        );
        assert!(
            l[2].encoding.contains("8 bytes; every byte inverted"),
            "{}",
            l[2].encoding
        );
        let spec = KeySpec::parse_text("pk(host, VARCHAR, desc)").unwrap();
        let l = CompiledKey::new(&spec, &fields()).unwrap().layout();
        assert!(
            l[0].encoding.contains("then ff (a DESC last column"),
            "{}",
            l[0].encoding
        );
    }

    #[test]
    fn misplaced_and_mistyped_columns_are_refused() {
        let e = KeySpec::parse_text("pk(host, VARCHAR) + \"_\"").unwrap_err();
        assert!(e.message.contains("nothing may follow"), "{e}");
        assert_eq!(e.location.line, Some(1));
        let e = KeySpec::parse_text("pk(host, VARCHAR) + long(ts) + pk(ts, DATE)").unwrap_err();
        assert!(e.message.contains("nothing may follow"), "{e}");
        let e = KeySpec::parse_text("md5(pk(host, VARCHAR)) + pk(ts, DATE)").unwrap_err();
        assert!(e.message.contains("top level"), "{e}");
        let e = KeySpec::parse_text("pk(host, CHAR)").unwrap_err();
        assert!(e.message.contains("needs a length"), "{e}");
        let e = KeySpec::parse_text("pk(host, TEXT)").unwrap_err();
        assert!(e.message.contains("unknown Phoenix type `TEXT`"), "{e}");
        let spec = KeySpec::parse_text("pk(ts, VARCHAR)").unwrap();
        let e = CompiledKey::new(&spec, &fields()).unwrap_err();
        assert!(
            e.message.contains("a VARCHAR column needs a string field"),
            "{e}"
        );
    }
}
