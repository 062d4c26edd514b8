//! Phoenix tables as design documents: [`parse_create_table`] reads a `CREATE TABLE`
//! statement into a complete design (its primary key as `pk(...)` segments after a Phoenix
//! salt, a field per key column with a generator that fits its type, `SALT_BUCKETS` as the
//! pre-split, `SPLIT ON` as explicit split keys, the rest of the statement in the `phoenix`
//! section), and [`print_create_table`] writes a design's Phoenix key back as `CREATE TABLE`.
//! The statement subset and what is left out are in `docs/phoenix.md`.

use serde::Serialize;

use super::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::phoenix::{PhoenixColumn, PhoenixType, SortOrder};
use crate::keyspec::phoenix::{declared_type, segment, table_of};
use crate::keyspec::{FieldType, KeySpec, Render, SaltHash, SaltSpec, Segment};
use crate::region::{KeyEncoding, PreSplit, RegionLayout, SaltStyle};
use crate::workload::{FieldDecl, Generator};

mod sql;
use sql::{at, expected, tokens, Cursor, Tok, T};
pub use sql::{quote_ident, quote_str};

/// The `phoenix` section of a design: what its `CREATE TABLE` says beyond the primary key,
/// kept so the statement prints back whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhoenixSection {
    /// The table name as Phoenix normalizes it (`METRICS`, `S.T`, `"my table"` kept as
    /// `my table`).
    pub table: String,
    /// The columns outside the primary key, in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<PhoenixColumnDecl>,
    /// The other table options, as `NAME=value` text (`VERSIONS=3`,
    /// `COMPRESSION='SNAPPY'`), in statement order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

/// A column outside the primary key: it does not change the row key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhoenixColumnDecl {
    /// The column name (normalized: unquoted names upper-cased).
    pub name: String,
    /// The column family (`0`, Phoenix's default, when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The declared type as written in the DDL (`VARCHAR(20)`, `INTEGER ARRAY`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// Declared `NOT NULL`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_null: bool,
}

/// Read the `phoenix` section of a design document.
pub(super) fn section(n: &crate::support::json::Node) -> crate::support::json::R<PhoenixSection> {
    use crate::support::json::{bool_, list, read_object, string};
    fn column(n: &crate::support::json::Node) -> crate::support::json::R<PhoenixColumnDecl> {
        Ok(read_object!(
            n,
            "struct PhoenixColumnDecl",
            None,
            PhoenixColumnDecl {
                name: req("name", string),
                family: opt("family", string),
                data_type: req("type", string),
                not_null: or("notNull", bool_, false),
            }
        ))
    }
    Ok(read_object!(
        n,
        "struct PhoenixSection",
        None,
        PhoenixSection {
            table: req("table", string),
            columns: or("columns", |n| list(n, column), Vec::new()),
            options: or("options", |n| list(n, string), Vec::new()),
        }
    ))
}

/// A column as the statement declares it.
struct ColumnDef {
    name: String,
    family: Option<String>,
    /// Base type name (upper case), length/precision, scale, `ARRAY`.
    type_name: String,
    len: Option<i32>,
    scale: Option<i32>,
    array: bool,
    /// The declared type as written back.
    type_text: String,
    not_null: bool,
    /// Declared `NULL` explicitly.
    null: bool,
    /// Inline `PRIMARY KEY [ASC|DESC]`.
    inline_pk: Option<SortOrder>,
    tok: Tok,
}

/// A primary-key column as the constraint names it: name, order, where.
type PkEntry = (String, SortOrder, Tok);

/// What the statement says, before it becomes a design.
struct Statement {
    table: String,
    columns: Vec<ColumnDef>,
    /// `CONSTRAINT name PRIMARY KEY (...)`: each column, its order, where it is named.
    pk: Option<(Vec<PkEntry>, Tok)>,
    salt: Option<i32>,
    options: Vec<String>,
    splits: Vec<Vec<u8>>,
    notes: Vec<String>,
}

/// Read a Phoenix `CREATE TABLE` statement into a design document. Errors are `parse`
/// errors with the line and column, saying what was expected there.
pub fn parse_create_table(sql_text: &str) -> Result<DesignDocument> {
    crate::limits::check_text_bytes(
        "",
        "a CREATE TABLE statement",
        sql_text.len(),
        crate::limits::MAX_DOCUMENT_BYTES,
    )?;
    let mut c = Cursor::new(tokens(sql_text)?);
    let st = statement(&mut c)?;
    design_of(st)
}

fn statement(c: &mut Cursor) -> Result<Statement> {
    c.kw("CREATE", "CREATE TABLE")?;
    if c.is_kw("VIEW") || c.is_kw("INDEX") || c.is_kw("LOCAL") || c.is_kw("SEQUENCE") {
        return Err(at(
            c.peek(),
            "only CREATE TABLE is read: views, indexes and sequences are not tables with their own row keys here",
        ));
    }
    c.kw("TABLE", "TABLE after CREATE")?;
    if c.eat_kw("IF") {
        c.kw("NOT", "NOT (IF NOT EXISTS)")?;
        c.kw("EXISTS", "EXISTS (IF NOT EXISTS)")?;
    }
    let (mut table, _) = c.ident("the table name")?;
    if c.eat_punct('.') {
        let (t, _) = c.ident("the table name after the schema name")?;
        table = format!("{table}.{t}");
    }
    c.punct('(', "`(` and the column definitions")?;
    let mut st = Statement {
        table,
        columns: Vec::new(),
        pk: None,
        salt: None,
        options: Vec::new(),
        splits: Vec::new(),
        notes: Vec::new(),
    };
    loop {
        if c.is_kw("CONSTRAINT") {
            let tok = c.bump();
            if let Some((_, first)) = &st.pk {
                return Err(at(
                    &tok,
                    format!(
                        "a second PRIMARY KEY constraint (the first is at line {}, column {})",
                        first.line, first.col
                    ),
                ));
            }
            c.ident("the constraint name")?;
            c.kw("PRIMARY", "PRIMARY KEY")?;
            c.kw("KEY", "KEY after PRIMARY")?;
            st.pk = Some((pk_columns(c, &mut st.notes)?, tok));
        } else {
            let col = column_def(c, &mut st.notes)?;
            if let Some(other) = st
                .columns
                .iter()
                .find(|x| x.name == col.name && x.family == col.family)
            {
                return Err(at(
                    &col.tok,
                    format!(
                        "column {} is declared twice (first at line {}, column {})",
                        col.name, other.tok.line, other.tok.col
                    ),
                ));
            }
            st.columns.push(col);
        }
        // Phoenix's grammar takes the constraint with or without a comma before it
        // (`pk_constraint: COMMA? CONSTRAINT ...`); nothing may follow it.
        if st.pk.is_none() && c.is_kw("CONSTRAINT") {
            continue;
        }
        if st.pk.is_none() && c.eat_punct(',') {
            continue;
        }
        c.punct(
            ')',
            if st.pk.is_some() {
                "`)`: the PRIMARY KEY constraint ends the column list"
            } else {
                "`,` and another column, or `)` to end the column list"
            },
        )?;
        break;
    }
    table_options(c, &mut st)?;
    c.eat_punct(';');
    if c.peek().t != T::End {
        return Err(expected(c.peek(), "the end of the statement"));
    }
    Ok(st)
}

/// `( col [ASC|DESC] [ROW_TIMESTAMP], ... )`.
fn pk_columns(c: &mut Cursor, notes: &mut Vec<String>) -> Result<Vec<(String, SortOrder, Tok)>> {
    c.punct('(', "`(` and the primary-key columns")?;
    let mut out: Vec<(String, SortOrder, Tok)> = Vec::new();
    loop {
        let (name, tok) = c.ident("a primary-key column name")?;
        if out.iter().any(|(n, _, _)| *n == name) {
            return Err(at(
                &tok,
                format!("{name} is listed twice in the primary key"),
            ));
        }
        let so = sort_order(c);
        if c.eat_kw("ROW_TIMESTAMP") {
            notes.push(format!("{name} is a ROW_TIMESTAMP column: the key bytes are the same, the cell timestamp is not modelled"));
        }
        out.push((name, so, tok));
        if c.eat_punct(',') {
            continue;
        }
        c.punct(')', "`,` and another column, or `)` to end the primary key")?;
        return Ok(out);
    }
}

fn sort_order(c: &mut Cursor) -> SortOrder {
    if c.eat_kw("DESC") {
        SortOrder::Desc
    } else {
        c.eat_kw("ASC");
        SortOrder::Asc
    }
}

/// `[family.]name TYPE[(n[, s])] [ARRAY] [NOT NULL | NULL] [PRIMARY KEY [ASC|DESC]] ...`.
fn column_def(c: &mut Cursor, notes: &mut Vec<String>) -> Result<ColumnDef> {
    let (first, tok) = c.ident("a column name or CONSTRAINT")?;
    let (family, name) = if c.eat_punct('.') {
        (Some(first), c.ident("the column name after its family")?.0)
    } else {
        (None, first)
    };
    let ty_tok = c.peek().clone();
    let T::Word(w) = &ty_tok.t else {
        return Err(expected(&ty_tok, &format!("the type of column {name}")));
    };
    c.bump();
    let mut type_name = w.to_uppercase();
    // Two-word types: `DOUBLE PRECISION` is not Phoenix; `UNSIGNED_*` are single words.
    let (mut len, mut scale) = (None, None);
    if c.eat_punct('(') {
        len = Some(c.int("a length or precision")?);
        if c.eat_punct(',') {
            scale = Some(c.int("a scale")?);
        }
        c.punct(')', "`)` after the type's length")?;
    }
    let mut array = false;
    if c.eat_kw("ARRAY") {
        array = true;
        if c.eat_punct('[') {
            if !c.is_punct(']') {
                c.int("an array length")?;
            }
            c.punct(']', "`]`")?;
        }
    } else if c.eat_punct('[') {
        array = true;
        if !c.is_punct(']') {
            c.int("an array length")?;
        }
        c.punct(']', "`]`")?;
    }
    let mut type_text = match (len, scale) {
        (Some(l), Some(s)) => format!("{type_name}({l},{s})"),
        (Some(l), None) => format!("{type_name}({l})"),
        _ => type_name.clone(),
    };
    if array {
        type_text.push_str(" ARRAY");
        type_name.push_str(" ARRAY");
    }
    let mut def = ColumnDef {
        name,
        family,
        type_name,
        len,
        scale,
        array,
        type_text,
        not_null: false,
        null: false,
        inline_pk: None,
        tok,
    };
    loop {
        if c.eat_kw("NOT") {
            c.kw("NULL", "NULL after NOT")?;
            def.not_null = true;
        } else if c.eat_kw("NULL") {
            def.null = true;
        } else if c.is_kw("PRIMARY") {
            let t = c.bump();
            c.kw("KEY", "KEY after PRIMARY")?;
            if def.inline_pk.is_some() {
                return Err(at(&t, "PRIMARY KEY is given twice for this column"));
            }
            def.inline_pk = Some(sort_order(c));
        } else if c.eat_kw("ROW_TIMESTAMP") {
            notes.push(format!("{} is a ROW_TIMESTAMP column: the key bytes are the same, the cell timestamp is not modelled", def.name));
        } else if c.is_kw("DEFAULT") {
            return Err(at(
                c.peek(),
                "DEFAULT values are not supported (the key takes every column's value from the record)",
            ));
        } else {
            return Ok(def);
        }
    }
}

/// Table options (`SALT_BUCKETS = 16, VERSIONS = 3, cf.TTL = 86400`) and `SPLIT ON (...)`.
fn table_options(c: &mut Cursor, st: &mut Statement) -> Result<()> {
    loop {
        if c.is_kw("SPLIT") && matches!(c.peek2(), T::Word(w) if w.eq_ignore_ascii_case("ON")) {
            let tok = c.bump();
            c.bump();
            if st.salt.is_some() {
                return Err(at(
                    &tok,
                    "SPLIT ON cannot be given for a salted table (Phoenix: \"Should not specify split points on salted table\"): its regions are the salt buckets",
                ));
            }
            c.punct('(', "`(` and the split points")?;
            loop {
                let t = c.bump();
                match t.t {
                    T::Str(s) => st.splits.push(s.into_bytes()),
                    _ => return Err(expected(&t, "a split point as a 'string' literal")),
                }
                if c.eat_punct(',') {
                    continue;
                }
                c.punct(')', "`,` and another split point, or `)`")?;
                break;
            }
        } else if matches!(c.peek().t, T::Word(_) | T::Quoted(_)) {
            let (mut name, tok) = c.ident("a table option")?;
            if c.eat_punct('.') {
                name = format!("{name}.{}", c.ident("the option name after its family")?.0);
            }
            c.punct('=', &format!("`=` and the value of {name}"))?;
            let v = c.bump();
            let value = match &v.t {
                T::Num(n) => n.clone(),
                T::Str(s) => quote_str(s),
                T::Word(w) => w.to_uppercase(),
                T::Punct('-') => match c.bump().t {
                    T::Num(n) => format!("-{n}"),
                    _ => return Err(expected(&v, &format!("the value of {name}"))),
                },
                _ => return Err(expected(&v, &format!("the value of {name}"))),
            };
            if name == "SALT_BUCKETS" {
                let n: i64 = value
                    .parse()
                    .map_err(|_| expected(&v, "a number of salt buckets"))?;
                match n {
                    0 => {}
                    1..=256 => st.salt = Some(n as i32),
                    _ => return Err(at(&v, format!("SALT_BUCKETS must be 0 to 256, got {n}"))),
                }
                if !st.splits.is_empty() {
                    return Err(at(
                        &tok,
                        "SALT_BUCKETS cannot be combined with SPLIT ON: a salted table's regions are its buckets",
                    ));
                }
            } else {
                st.options.push(format!("{name}={value}"));
            }
        } else {
            return Ok(());
        }
        c.eat_punct(',');
    }
}

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
    for (name, so, tok) in pk {
        // A key column has no family; `cf.A` and `A` are two columns.
        let named = |c: &&ColumnDef| c.name == *name;
        let def = (st.columns.iter().filter(named))
            .min_by_key(|c| c.family.is_some())
            .ok_or_else(|| {
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
            max_length: def.len,
            scale: def.scale,
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
fn design_of(st: Statement) -> Result<DesignDocument> {
    let pk = primary_key(&st)?;
    let (key, fields) = key_of(&st, &pk)?;
    let presplit = presplit_of(&st);
    let columns = st
        .columns
        .iter()
        .filter(|c| c.family.is_some() || !pk.iter().any(|(n, _, _)| *n == c.name))
        .map(|c| PhoenixColumnDecl {
            name: c.name.clone(),
            family: c.family.clone(),
            data_type: c.type_text.clone(),
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
    let doc = DesignDocument {
        v: super::DOCUMENT_VERSION,
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
        reads: Vec::new(),
        latest_first: false,
        examples: Vec::new(),
        phoenix: Some(PhoenixSection {
            table: st.table,
            columns,
            options: st.options,
        }),
    };
    let mut doc = doc;
    doc.reads = starter_reads(&doc);
    doc.validate()?;
    Ok(doc)
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
    let base = def.type_name.trim_end_matches(" ARRAY");
    let ty = match base {
        "INT" => Some(PhoenixType::Integer),
        other => PhoenixType::from_sql_name(other),
    };
    match ty {
        Some(t) if !def.array => Ok(t),
        _ => Err(at(
            &def.tok,
            format!(
                "primary-key column {} is {}: the row key covers {} (not arrays, JSON, BSON or the other unsigned types)",
                def.name,
                def.type_text,
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
fn field_for(c: &PhoenixColumn) -> FieldDecl {
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

/// A design's Phoenix key as `CREATE TABLE`: the key columns (their fields' names), the
/// `phoenix` section's other columns and options, `SALT_BUCKETS`, and explicit split keys
/// as `SPLIT ON`. Errors when the key is not a Phoenix primary key (segments other than one
/// `salt(N, hash=phoenix)` and `pk(...)` columns).
pub fn print_create_table(doc: &DesignDocument) -> Result<String> {
    let name = doc
        .phoenix
        .as_ref()
        .map(|p| p.table.clone())
        .or_else(|| doc.name.clone())
        .unwrap_or_else(|| "T".into());
    let Some(table) = table_of(&doc.key, &name) else {
        return Err(Error::new(
            ErrorKind::Invalid,
            "the key has no pk(...) columns: only a Phoenix primary key prints as CREATE TABLE",
        )
        .at_path("/key"));
    };
    if let Some((i, s)) =
        doc.key.segments.iter().enumerate().find(|(i, s)| {
            !(matches!(s, Segment::Pk(_)) || (*i == 0 && table.salt_buckets.is_some()))
        })
    {
        let text = crate::keyspec::format::segments_text(std::slice::from_ref(s));
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("segment {i} (`{text}`) is not part of a Phoenix key: CREATE TABLE holds only pk(...) columns after one salt(N, hash=phoenix)"),
        )
        .at_path(format!("/key/segments/{i}")));
    }
    let mut lines = Vec::new();
    for c in &table.columns {
        let null = if c.nullable { "" } else { " NOT NULL" };
        lines.push(format!(
            "    {} {}{null}",
            quote_ident(&c.name),
            declared_type(c)
        ));
    }
    for c in doc.phoenix.iter().flat_map(|p| &p.columns) {
        let fam = c
            .family
            .as_deref()
            .map(|f| format!("{}.", quote_ident(f)))
            .unwrap_or_default();
        let null = if c.not_null { " NOT NULL" } else { "" };
        lines.push(format!(
            "    {fam}{} {}{null}",
            quote_ident(&c.name),
            c.data_type
        ));
    }
    let pk: Vec<String> = table
        .columns
        .iter()
        .map(|c| match c.sort_order {
            SortOrder::Asc => quote_ident(&c.name),
            SortOrder::Desc => format!("{} DESC", quote_ident(&c.name)),
        })
        .collect();
    lines.push(format!("    CONSTRAINT pk PRIMARY KEY ({})", pk.join(", ")));
    let table_name = name
        .split('.')
        .map(quote_ident)
        .collect::<Vec<_>>()
        .join(".");
    let mut out = format!("CREATE TABLE {table_name} (\n{}\n)", lines.join(",\n"));
    let mut options = Vec::new();
    if let Some(n) = table.salt_buckets {
        options.push(format!("SALT_BUCKETS={n}"));
    }
    options.extend(doc.phoenix.iter().flat_map(|p| p.options.iter().cloned()));
    if !options.is_empty() {
        out.push(' ');
        out.push_str(&options.join(", "));
    }
    if let Some(splits) = split_on(doc)? {
        out.push_str(&format!(" SPLIT ON ({splits})"));
    }
    out.push(';');
    Ok(out)
}

/// An explicit pre-split as `SPLIT ON` literals (UTF-8 text keys only; others are an error).
fn split_on(doc: &DesignDocument) -> Result<Option<String>> {
    let Some(PreSplit::Explicit { keys, encoding }) = doc.regions.as_ref().map(|r| &r.presplit)
    else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let bytes = match encoding {
            KeyEncoding::Hex => crate::hbase::bytes::from_hex(k)?,
            KeyEncoding::StringBinary => crate::hbase::bytes::to_bytes_binary_str(k),
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            Error::new(
                ErrorKind::Invalid,
                format!("split key {i} is not UTF-8 text: SPLIT ON takes string literals"),
            )
            .at_path(format!("/regions/presplit/keys/{i}"))
        })?;
        out.push(quote_str(&text));
    }
    Ok(Some(out.join(", ")))
}

#[cfg(test)]
mod tests;
