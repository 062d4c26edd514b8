//! Phoenix tables as design documents: [`parse_create_table`] reads a `CREATE TABLE`
//! statement into a complete design (its primary key as `pk(...)` segments after a Phoenix
//! salt, a field per key column with a generator that fits its type, `SALT_BUCKETS` as the
//! pre-split, `SPLIT ON` as explicit split keys, the rest of the statement in the `phoenix`
//! section), and [`print_create_table`] writes a design's Phoenix key back as `CREATE TABLE`.
//! The statement subset and what is left out are in `docs/phoenix.md`.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::phoenix::{PhoenixColumn, PhoenixType, SortOrder};
use crate::keyspec::phoenix::{declared_type, segment, table_of};
use crate::keyspec::{FieldType, KeySpec, Render, SaltHash, SaltSpec, Segment};
use crate::region::{KeyEncoding, PreSplit, RegionLayout, SaltStyle};
use crate::workload::{FieldDecl, Generator};

mod build;
use build::design_of;
mod print;
pub use print::print_create_table;
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
    // Each (family, name) declared so far and its index: a hash lookup per column, so a
    // statement of many columns reads in linear time.
    let mut declared: HashMap<(Option<String>, String), usize> = HashMap::new();
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
            let key = (col.family.clone(), col.name.clone());
            if let Some(other) = declared.get(&key).and_then(|&i| st.columns.get(i)) {
                return Err(at(
                    &col.tok,
                    format!(
                        "column {} is declared twice (first at line {}, column {})",
                        col.name, other.tok.line, other.tok.col
                    ),
                ));
            }
            declared.insert(key, st.columns.len());
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
    let mut seen = HashSet::new();
    loop {
        let (name, tok) = c.ident("a primary-key column name")?;
        if !seen.insert(name.clone()) {
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

#[cfg(test)]
mod tests;
