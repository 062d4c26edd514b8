//! The design a parsed `CREATE TABLE` makes: its primary key as `pk(...)` segments after the
//! salt, a field per key column with a generator that fits its type, the pre-split, starter
//! reads, and the `phoenix` section that prints the statement back.

use std::collections::{HashMap, HashSet};

use super::*;

/// The primary key the statement declares (inline or as a constraint), once.
fn primary_key(st: &Statement) -> Result<Vec<PkEntry>> {
    let end_tok = st.columns.last().map(|c| c.tok.clone());
    match (
        &st.pk,
        st.columns.iter().filter(|c| c.inline_pk.is_some()).count(),
    ) {
        (Some((_, tok)), n) if n > 0 => Err(at(
            tok,
            "the primary key is declared inline and as a constraint: declare it once",
        )),
        (Some((cols, _)), _) => Ok(cols.clone()),
        (None, 1) => Ok(st
            .columns
            .iter()
            .filter_map(|c| c.inline_pk.map(|so| (c.name.clone(), so, c.tok.clone())))
            .collect()),
        (None, 0) => {
            let msg = "a Phoenix table needs a PRIMARY KEY: a column's PRIMARY KEY or CONSTRAINT pk PRIMARY KEY (...)";
            Err(match &end_tok {
                Some(t) => at(t, msg),
                None => Error::new(ErrorKind::Parse, msg),
            })
        }
        (None, _) => {
            let t = st
                .columns
                .iter()
                .filter(|c| c.inline_pk.is_some())
                .nth(1)
                .map(|c| c.tok.clone());
            let msg = "more than one column says PRIMARY KEY: a composite key is CONSTRAINT pk PRIMARY KEY (a, b)";
            Err(match &t {
                Some(t) => at(t, msg),
                None => Error::new(ErrorKind::Parse, msg),
            })
        }
    }
}

/// The key of the primary-key columns (after the salt of `SALT_BUCKETS`) and their fields.
fn key_of(st: &Statement, pk: &[PkEntry]) -> Result<(KeySpec, Vec<FieldDecl>)> {
    let mut segments = Vec::new();
    if let Some(n) = st.salt {
        segments.push(Segment::Salt(SaltSpec {
            of: None,
            buckets: n as u32,
            hash: SaltHash::Phoenix,
            modulo: Default::default(),
            render: Render::Byte,
        }));
    }
    let mut fields = Vec::new();
    // Each name's column, one without a family first (a key column has none; `cf.A` and `A`
    // are two columns): one pass, then a lookup per key column.
    let mut by_name: HashMap<&str, &ColumnDef> = HashMap::new();
    for c in &st.columns {
        let e = by_name.entry(c.name.as_str()).or_insert(c);
        if e.family.is_some() && c.family.is_none() {
            *e = c;
        }
    }
    for (name, so, tok) in pk {
        let def = by_name.get(name.as_str()).copied().ok_or_else(|| {
            at(
                tok,
                format!("primary-key column {name} is not declared in the column list"),
            )
        })?;
        if let Some(f) = &def.family {
            return Err(at(
                &def.tok,
                format!("primary-key column {name} cannot have a column family ({f})"),
            ));
        }
        let ty = pk_type(def)?;
        let column = PhoenixColumn {
            name: name.clone(),
            data_type: ty,
            sort_order: *so,
            nullable: nullable(def, pk.len())?,
            max_length: def.ty.len,
            scale: def.ty.scale,
        };
        let seg = segment(&column);
        let probe = KeySpec {
            segments: vec![seg.clone()],
        };
        probe
            .validate()
            .map_err(|e| at(&def.tok, format!("{name}: {}", e.message)))?;
        segments.push(seg);
        fields.push(field_for(&column));
    }
    Ok((KeySpec { segments }, fields))
}

/// The pre-split: one region per salt bucket, or the `SPLIT ON` points.
fn presplit_of(st: &Statement) -> Option<PreSplit> {
    match (st.salt, st.splits.is_empty()) {
        (Some(n), _) => Some(PreSplit::SaltBuckets {
            buckets: n as u32,
            style: SaltStyle::Byte,
            width: None,
        }),
        (None, false) => Some(PreSplit::Explicit {
            keys: st
                .splits
                .iter()
                .map(|k| crate::hbase::bytes::to_hex(k))
                .collect(),
            encoding: KeyEncoding::Hex,
        }),
        (None, true) => None,
    }
}

/// The design a statement describes.
pub(super) fn design_of(st: Statement) -> Result<DesignDocument> {
    let pk = primary_key(&st)?;
    let (key, fields) = key_of(&st, &pk)?;
    let presplit = presplit_of(&st);
    let key_names: HashSet<&str> = pk.iter().map(|(n, _, _)| n.as_str()).collect();
    let columns = st
        .columns
        .iter()
        .filter(|c| c.family.is_some() || !key_names.contains(c.name.as_str()))
        .map(|c| PhoenixColumnDecl {
            name: c.name.clone(),
            family: c.family.clone(),
            data_type: c.ty.text(),
            not_null: c.not_null,
        })
        .collect();
    let mut description = format!(
        "Phoenix table {} (read from its CREATE TABLE statement).",
        st.table
    );
    for n in &st.notes {
        description.push(' ');
        description.push_str(n);
        description.push('.');
    }
    description.push(' ');
    description.push_str(&invented(&fields));
    let doc = DesignDocument {
        v: crate::design::DOCUMENT_VERSION,
        name: Some(st.table.clone()),
        description: Some(description),
        fields,
        key,
        workload: None,
        regions: presplit.map(|p| RegionLayout {
            presplit: p,
            ..RegionLayout::default()
        }),
        cells: None,
        hbase: None,
        reads: Vec::new(),
        latest_first: false,
        examples: Vec::new(),
        phoenix: Some(PhoenixSection {
            table: st.table,
            columns,
            options: st.options,
            indexes: Vec::new(),
        }),
    };
    let mut doc = doc;
    doc.reads = starter_reads(&doc);
    doc.validate()?;
    Ok(doc)
}

/// What a design read from a statement invents, said in its description: a statement gives the
/// key, not the data, so the workload and each key column's values are guesses until the user
/// sets them (the spread a heatmap shows depends on them).
fn invented(fields: &[FieldDecl]) -> String {
    let w = crate::workload::WorkloadSpec::default();
    let each: Vec<String> = fields
        .iter()
        .map(|f| {
            let what = match (&f.generator, f.field_type) {
                (Some(Generator::UniformString { length, .. }), _) => {
                    format!("random {length}-character text, almost every row a new value")
                }
                (Some(g), _) => format!("{} values", g.kind()),
                (None, FieldType::Timestamp) => "the write time".to_string(),
                (None, _) => "its type's default values".to_string(),
            };
            format!("{} {what}", f.name)
        })
        .collect();
    format!(
        "The statement gives the key, not the data: the workload ({} records at {} a second) \
         and each key column's values ({}) are invented here, so the spread shown is a guess. \
         Set each field's generator and cardinality to the table's real data, or analyze its \
         own rows.",
        w.records,
        crate::support::num_text::fixed(w.write_rate, 0),
        each.join("; ")
    )
}

/// The reads a Phoenix table is most often queried by, so that its read plans show from the
/// start: a point lookup by the whole primary key and, for a composite key, every row of one
/// value of the leading column. The values are the first record the design's workload writes.
fn starter_reads(doc: &DesignDocument) -> Vec<crate::scan::ReadPattern> {
    use crate::scan::ReadPattern;
    let pk: Vec<&str> = doc
        .key
        .segments
        .iter()
        .filter_map(|s| match s {
            Segment::Pk(p) => Some(p.field.as_str()),
            _ => None,
        })
        .collect();
    let spec = doc.workload.clone().unwrap_or_default();
    let Ok(mut stream) = crate::workload::WorkloadStream::new(&spec, &doc.fields) else {
        return Vec::new();
    };
    let mut rec = crate::workload::Record::default();
    if pk.is_empty() || !stream.next_into(&mut rec) {
        return Vec::new();
    }
    let value = |name: &str| {
        use crate::workload::FieldValue as V;
        let i = doc.fields.iter().position(|f| f.name == name)?;
        Some(match rec.values.get(i)? {
            V::Str(s) => serde_json::Value::from(s.as_str()),
            // a long beyond 2^53 as its decimal text, as records take it
            V::Long(n) if n.unsigned_abs() > 1 << 53 => serde_json::Value::from(n.to_string()),
            V::Long(n) => serde_json::Value::from(*n),
            V::Double(x) => serde_json::Value::from(*x),
            V::Bool(b) => serde_json::Value::from(*b),
        })
    };
    let record = |names: &[&str]| -> Option<serde_json::Map<String, serde_json::Value>> {
        names
            .iter()
            .map(|n| Some(((*n).to_string(), value(n)?)))
            .collect()
    };
    let mut reads = Vec::new();
    if let Some(all) = record(&pk) {
        reads.push(ReadPattern::Get {
            name: Some("one row by its primary key".into()),
            record: all,
        });
    }
    if let (true, Some(first)) = (pk.len() > 1, pk.first()) {
        if let Some(lead) = record(&[first]) {
            reads.push(ReadPattern::Prefix {
                name: Some(format!("every row of one {first}")),
                record: lead,
            });
        }
    }
    reads
}

/// Whether a key column may be NULL, as `MetaDataClient.newColumn` decides: a column of a
/// composite key unless declared `NOT NULL`; the only key column never (declaring it `NULL`
/// is Phoenix's `SINGLE_PK_MAY_NOT_BE_NULL`).
fn nullable(def: &ColumnDef, key_columns: usize) -> Result<bool> {
    if key_columns > 1 {
        return Ok(!def.not_null);
    }
    if def.null {
        return Err(at(
            &def.tok,
            format!(
                "{} is the only primary-key column and may not be NULL (Phoenix: SINGLE_PK_MAY_NOT_BE_NULL)",
                def.name
            ),
        ));
    }
    Ok(false)
}

/// The Phoenix type of a primary-key column, or where it is not one the key covers.
fn pk_type(def: &ColumnDef) -> Result<PhoenixType> {
    match PhoenixType::from_sql_name(&def.ty.name) {
        Some(t) if !def.ty.array => Ok(t),
        _ => Err(at(
            &def.tok,
            format!(
                "primary-key column {} is {}: the row key covers {} (not arrays, JSON, BSON or the other unsigned types)",
                def.name,
                def.ty.text(),
                crate::hbase::phoenix::types::ALL_TYPES
                    .iter()
                    .map(|t| t.sql_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// A DECIMAL(p, s) column's values: whole numbers with at most its `p - s` integer digits (up
/// to 18); for DECIMAL(p, p), which holds no integer digit (Phoenix counts the `0` of a
/// literal `0` as one), the tenths `0.1` to `0.9`.
fn decimal_generator(c: &PhoenixColumn) -> Generator {
    let int_digits = c.max_length.unwrap_or(18) - c.scale.unwrap_or(0);
    if int_digits <= 0 {
        return Generator::List {
            values: (1..10)
                .map(|d| serde_json::json!(format!("0.{d}")))
                .collect(),
            order: Default::default(),
        };
    }
    let max = 10i64
        .checked_pow(int_digits.min(18) as u32)
        .map_or(i64::MAX, |m| m - 1);
    Generator::UniformInt { min: 0, max }
}

/// The field a key column's values come from, with a generator that fits its type.
pub(super) fn field_for(c: &PhoenixColumn) -> FieldDecl {
    use PhoenixType as P;
    let chars = |n: Option<i32>| n.map_or(8, |n| n.clamp(1, 8) as u32);
    let (field_type, generator) = match c.data_type {
        P::Integer | P::UnsignedInt => (FieldType::Int, None),
        P::Bigint | P::UnsignedLong => (FieldType::Long, None),
        P::Smallint => (FieldType::Short, None),
        P::Tinyint => (
            FieldType::Short,
            Some(Generator::UniformInt { min: 0, max: 127 }),
        ),
        P::Float => (FieldType::Float, None),
        P::Double => (FieldType::Double, None),
        P::Decimal => (FieldType::BigDecimal, Some(decimal_generator(c))),
        P::Varchar | P::Varbinary => (
            FieldType::String,
            Some(Generator::UniformString {
                length: chars(c.max_length),
                alphabet: None,
            }),
        ),
        P::Char | P::Binary => (
            FieldType::String,
            Some(Generator::UniformString {
                length: c.max_length.map_or(1, |n| n.clamp(1, 64) as u32),
                alphabet: None,
            }),
        ),
        P::Boolean => (FieldType::Boolean, None),
        P::Date | P::Time | P::Timestamp => (FieldType::Timestamp, None),
    };
    FieldDecl {
        name: c.name.clone(),
        field_type,
        cardinality: None,
        generator,
    }
}
