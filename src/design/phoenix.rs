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
use crate::support::json::{bool_, list, string};
use crate::workload::{FieldDecl, Generator};

mod build;
use build::design_of;
mod ddl;
use ddl::{TableOption, TypeDecl};
pub(crate) mod index;
pub use index::{
    data_spans, index_design, index_key_spec, index_shape, print_create_index, IndexEncoder,
    IndexKind, IndexedColumn, PhoenixIndex, INDEX_KINDS, MAX_INDEXES, MAX_INDEX_KEY_COLUMNS,
};
pub(crate) use index::{validate_indexes, INDEXED_COLUMN, PHOENIX_INDEX};
mod lexer;
mod print;
pub(crate) use print::full_name;
pub use print::{print_create_table, salted_regions_note};
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
    /// The other table options, each one `NAME=value` (`VERSIONS=3`, `COMPRESSION='SNAPPY'`,
    /// `CF.TTL=86400`) as Phoenix's grammar takes it, in statement order; anything else is
    /// refused when printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The table's secondary indexes (`CREATE INDEX`), in creation order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<PhoenixIndex>,
}

impl PhoenixSection {
    /// The value of the table option `name` (case-insensitive; a family's `CF.NAME` too), its
    /// quotes taken off: what HBase's table and family descriptors are given from the
    /// statement (`TTL`, `MAX_FILESIZE`, `MEMSTORE_FLUSHSIZE`, `NORMALIZATION_ENABLED`). A plain
    /// split of the kept `NAME=value` text, not the SQL reader (which stays out of the page's
    /// first wasm: docs/bench-size.md).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().find_map(|o| {
            let (n, value) = o.split_once('=')?;
            let n = n.trim();
            let n = n.rsplit_once('.').map_or(n, |(_, n)| n).trim_matches('"');
            n.eq_ignore_ascii_case(name)
                .then(|| value.trim().trim_matches('\''))
        })
    }

    /// A whole-number option (`TTL`, `MAX_FILESIZE`, `MEMSTORE_FLUSHSIZE`) above 0; `None`
    /// when the table does not set it or sets something else (`TTL = 'FOREVER'`).
    pub fn number_option(&self, name: &str) -> Option<u64> {
        self.option(name)?.parse().ok().filter(|&n| n > 0)
    }
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
    /// The declared type, one Phoenix type as a statement writes it (`VARCHAR(20)`,
    /// `DECIMAL(10,2)`, `INTEGER ARRAY`); anything else is refused when printed.
    #[serde(rename = "type")]
    pub data_type: String,
    /// Declared `NOT NULL`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_null: bool,
}

crate::support::json::object_reader! {
    /// A column outside the primary key.
    pub(super) fn column(n) -> PhoenixColumnDecl; "struct PhoenixColumnDecl";
    /// A `phoenix.columns` entry's members, as [`column()`] reads them.
    table PHOENIX_COLUMN;
    PhoenixColumnDecl {
        /// The column name.
        name: req("name", string),
        /// Its column family; absent, Phoenix's default `0`.
        family: opt("family", string),
        /// Its type as the DDL writes it (`VARCHAR(20)`, `INTEGER ARRAY`).
        data_type: req("type", string),
        /// `NOT NULL`.
        not_null: or("notNull", bool_, false) = "false",
    }
}

crate::support::json::object_reader! {
    /// Read the `phoenix` section of a design document.
    pub(super) fn section(n) -> PhoenixSection; "struct PhoenixSection";
    /// The `phoenix` members, as [`section`] reads them.
    table PHOENIX;
    PhoenixSection {
        /// The table name as Phoenix normalizes it (`METRICS`, `S.T`; a quoted name as written).
        table: req("table", string),
        /// The columns outside the primary key: `{name, family?, type, notNull?}`.
        columns: or("columns", |n| list(n, column), Vec::new()) = "[]",
        /// The other table options as `NAME=value` (`VERSIONS=3`, `COMPRESSION='SNAPPY'`);
        /// `SALT_BUCKETS` is the key's salt, not an option.
        options: or("options", |n| list(n, string), Vec::new()) = "[]",
        /// The secondary indexes, in creation order (a local index's id follows its place
        /// among the local ones): `{name, kind?, columns, include?, saltBuckets?, splitOn?,
        /// options?, async?}`, at most 30.
        indexes: or("indexes", |n| list(n, index::index), Vec::new()) = "[]",
    }
}

/// A column as the statement declares it.
struct ColumnDef {
    name: String,
    family: Option<String>,
    ty: TypeDecl,
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
    let table = st.table.clone();
    let mut indexes: Vec<PhoenixIndex> = Vec::new();
    let mut where_: Vec<index::IndexToks> = Vec::new();
    while c.peek().t != T::End {
        c.kw("CREATE", "CREATE INDEX or the end of the statement")?;
        if !(c.is_kw("INDEX") || c.is_kw("LOCAL") || c.is_kw("UNCOVERED")) {
            return Err(expected(
                c.peek(),
                "INDEX after CREATE, or the end of the statement: one CREATE TABLE per text, then its indexes",
            ));
        }
        let (x, toks) = index::read_create_index(&mut c, &table)?;
        let tok = &toks.name;
        if x.name == table || indexes.iter().any(|y| y.name == x.name) {
            return Err(at(
                tok,
                format!(
                    "{} is already the name of {} (Phoenix: TABLE_ALREADY_EXIST)",
                    crate::support::json::quote(&x.name),
                    if x.name == table {
                        "the table"
                    } else {
                        "another index"
                    }
                ),
            ));
        }
        indexes.push(x);
        where_.push(toks);
        if !c.eat_punct(';') && c.peek().t != T::End {
            return Err(expected(c.peek(), "`;` and the next statement, or the end"));
        }
    }
    let mut doc = design_of(st)?;
    if !indexes.is_empty() {
        if let Some(p) = doc.phoenix.as_mut() {
            p.indexes = indexes;
        }
        index::index_fields(&mut doc)?;
        // A bad index is located in the statement: the member its path names. Its SQL text
        // (column types, options) is read as any use of the index reads it.
        let checked = doc.validate().and_then(|()| {
            (0..doc.phoenix.as_ref().map_or(0, |p| p.indexes.len()))
                .try_for_each(|i| index::read_index_sql(&doc, i))
        });
        checked.map_err(|e| {
            let path = e.location.path.clone().unwrap_or_default();
            let Some(rest) = path.strip_prefix("/phoenix/indexes/") else {
                return e;
            };
            let (i, member) = rest.split_once('/').unwrap_or((rest, ""));
            match i.parse::<usize>().ok().and_then(|i| where_.get(i)) {
                Some(t) => at(t.at(member), &e.message),
                None => e,
            }
        })?;
    }
    Ok(doc)
}

fn statement(c: &mut Cursor) -> Result<Statement> {
    c.kw("CREATE", "CREATE TABLE")?;
    if c.is_kw("INDEX") || c.is_kw("LOCAL") || c.is_kw("UNCOVERED") {
        return Err(at(
            c.peek(),
            "CREATE INDEX is read after its table's CREATE TABLE, in the same text: the index key is built from the table's",
        ));
    }
    if c.is_kw("VIEW") || c.is_kw("SEQUENCE") {
        return Err(at(
            c.peek(),
            "only CREATE TABLE and CREATE INDEX are read: views and sequences are not tables with their own row keys here",
        ));
    }
    c.kw("TABLE", "TABLE after CREATE")?;
    if c.eat_kw("IF") {
        c.kw("NOT", "NOT (IF NOT EXISTS)")?;
        c.kw("EXISTS", "EXISTS (IF NOT EXISTS)")?;
    }
    let table = table_name(c)?;
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
    split_on(c, &mut st)?;
    if !c.eat_punct(';') && c.peek().t != T::End {
        return Err(expected(
            c.peek(),
            "the end of the statement (`;`, then CREATE INDEX statements may follow)",
        ));
    }
    Ok(st)
}

/// `[schema.]name`, as Phoenix's `from_table_name` takes it (no `:` in either name). The
/// design keeps the full name `schema.name`, which Phoenix's `SchemaUtil` splits at its first
/// `.`; a name whose split would differ (a schema name with a `.`, or a quoted table name
/// with one and no schema) is refused rather than printed back as another table.
fn table_name(c: &mut Cursor) -> Result<String> {
    let (first, tok) = c.ident("the table name")?;
    let (schema, table, tok) = if c.eat_punct('.') {
        let (t, ttok) = c.ident("the table name after the schema name")?;
        (Some((first, tok)), t, ttok)
    } else {
        (None, first, tok)
    };
    for (name, tok) in schema.iter().map(|(n, t)| (n, t)).chain([(&table, &tok)]) {
        if name.contains(':') {
            return Err(at(
                tok,
                format!(
                    "the table or schema name {} holds `:`, which Phoenix refuses (\"Table or schema name cannot contain colon\")",
                    crate::support::json::quote(name)
                ),
            ));
        }
    }
    match schema {
        Some((s, stok)) if s.contains('.') => Err(at(
            &stok,
            format!(
                "the schema name {} holds `.`: a design keeps the table's full name schema.table, which would split at its first `.` into another schema",
                crate::support::json::quote(&s)
            ),
        )),
        Some((s, _)) => Ok(format!("{s}.{table}")),
        None if table.contains('.') => Err(at(
            &tok,
            format!(
                "the table name {} holds `.` and has no schema: a design keeps the full name, which would split at its first `.` into a schema and a table",
                crate::support::json::quote(&table)
            ),
        )),
        None => Ok(table),
    }
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

/// `[family.]name TYPE [NOT NULL | NULL] [PRIMARY KEY [ASC|DESC] [ROW_TIMESTAMP]]`, in
/// Phoenix's order (its `column_def`; `DEFAULT` is refused where it may stand).
fn column_def(c: &mut Cursor, notes: &mut Vec<String>) -> Result<ColumnDef> {
    let (first, tok) = c.ident("a column name or CONSTRAINT")?;
    let (family, name) = if c.eat_punct('.') {
        (Some(first), c.ident("the column name after its family")?.0)
    } else {
        (None, first)
    };
    let ty = TypeDecl::read(c, &name)?;
    let mut def = ColumnDef {
        name,
        family,
        ty,
        not_null: false,
        null: false,
        inline_pk: None,
        tok,
    };
    if c.eat_kw("NOT") {
        c.kw("NULL", "NULL after NOT")?;
        def.not_null = true;
    } else if c.eat_kw("NULL") {
        def.null = true;
    }
    let no_default = |c: &Cursor| {
        if c.is_kw("DEFAULT") {
            return Err(at(
                c.peek(),
                "DEFAULT values are not supported (the key takes every column's value from the record)",
            ));
        }
        Ok(())
    };
    no_default(c)?;
    if c.eat_kw("PRIMARY") {
        c.kw("KEY", "KEY after PRIMARY")?;
        def.inline_pk = Some(sort_order(c));
        if c.eat_kw("ROW_TIMESTAMP") {
            notes.push(format!("{} is a ROW_TIMESTAMP column: the key bytes are the same, the cell timestamp is not modelled", def.name));
        }
        no_default(c)?;
    }
    Ok(def)
}

/// Table options, Phoenix's `fam_properties`: `SALT_BUCKETS = 16, VERSIONS = 3, cf.TTL =
/// 86400`, separated by commas.
fn table_options(c: &mut Cursor, st: &mut Statement) -> Result<()> {
    let starts_option = |c: &Cursor| {
        matches!(c.peek().t, T::Word(_) | T::Quoted(_))
            && !(c.is_kw("SPLIT")
                && matches!(c.peek2(), T::Word(w) if w.eq_ignore_ascii_case("ON")))
    };
    if !starts_option(c) {
        return Ok(());
    }
    loop {
        let opt = TableOption::read(c)?;
        if opt.family.is_none() && opt.name == "SALT_BUCKETS" {
            let n: i64 = (opt.number.as_deref())
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| expected(&opt.value_tok, "a number of salt buckets"))?;
            match n {
                0 => {}
                1..=256 => st.salt = Some(n as i32),
                _ => {
                    return Err(at(
                        &opt.value_tok,
                        format!("SALT_BUCKETS must be 0 to 256, got {n}"),
                    ))
                }
            }
        } else {
            st.options.push(opt.text()?);
        }
        if !c.eat_punct(',') {
            return Ok(());
        }
    }
}

/// `SPLIT ON ('a', X'00ff', ...)`: string literals (their UTF-8 bytes) and hex literals.
fn split_on(c: &mut Cursor, st: &mut Statement) -> Result<()> {
    if !c.is_kw("SPLIT") {
        return Ok(());
    }
    let tok = c.bump();
    c.kw("ON", "ON after SPLIT")?;
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
            T::Hex(h) => st.splits.push(crate::hbase::bytes::from_hex(&h)?),
            _ => {
                return Err(expected(
                    &t,
                    "a split point as a 'string' or X'hex' literal",
                ))
            }
        }
        if c.eat_punct(',') {
            continue;
        }
        return c.punct(')', "`,` and another split point, or `)`");
    }
}

#[cfg(test)]
mod tests;
