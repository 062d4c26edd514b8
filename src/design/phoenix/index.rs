//! Phoenix secondary indexes in the design: the `phoenix.indexes` members, their checks (each
//! error at its member's path), `CREATE [UNCOVERED|LOCAL] INDEX` read into them and printed
//! from them, and each index as the table it is ([`index_shape`], [`index_design`]): its key
//! as `salt(N, hash=phoenix)` and `pk(...)` segments with the types Phoenix gives its columns,
//! its own pre-split, the data table's fields and workload.
//!
//! Phoenix's rules, from apache/phoenix `6d9ec471`: the grammar is `PhoenixSQL.g`'s
//! `create_index_node` (`UNCOVERED` and `LOCAL` exclusive, `INCLUDE` refused on `UNCOVERED`);
//! an index without `SALT_BUCKETS` takes the data table's, `SALT_BUCKETS=0` unsalts it, a local
//! index is never salted (`MetaDataClient.createTable`); `phoenix.index.maxIndexesPerTable`
//! is 30 (`QueryServicesOptions`).

use super::ddl::{table_option, type_decl, TableOption};
use super::*;
use crate::hbase::phoenix::functions::IndexExpression;
use crate::hbase::phoenix::index::{
    index_column_type, index_pk, IndexColumn, IndexKeyShape, IndexSource, FIRST_LOCAL_INDEX_ID,
};
use crate::hbase::phoenix::PhoenixTable;
use crate::support::json::{u32_, unit};

mod encode;
mod expr;
mod print;
mod read;
mod table;
pub use encode::{data_spans, IndexEncoder};
pub use print::print_create_index;
pub(super) use read::{index_fields, read_create_index, IndexToks};
use table::shape_of;
pub use table::{index_design, index_key_spec, index_shape};

/// `phoenix.index.maxIndexesPerTable`'s default: Phoenix refuses more (`TOO_MANY_INDEXES`).
pub const MAX_INDEXES: usize = 30;
/// The most columns an index's key may have (indexed plus the data key's others): a design's
/// key holds at most 256 segments, one of them the salt. Phoenix itself sets no lower bound.
pub const MAX_INDEX_KEY_COLUMNS: usize = 255;

/// What kind of index, as Phoenix's `IndexType` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IndexKind {
    /// A global index (`CREATE INDEX`): a table of its own, its rows holding the `INCLUDE`
    /// columns, so a query it covers reads only the index.
    Global,
    /// A global uncovered index (`CREATE UNCOVERED INDEX`): a table of its own holding only
    /// its key; every row a query reads through it is looked up again in the data table.
    Uncovered,
    /// A local index (`CREATE LOCAL INDEX`): rows in the data table's own regions, under
    /// shadow column families (`L#0`), keyed by the region's start key and the index id.
    Local,
}

/// The index kinds by name.
pub const INDEX_KINDS: [(&str, IndexKind); 3] = [
    ("global", IndexKind::Global),
    ("uncovered", IndexKind::Uncovered),
    ("local", IndexKind::Local),
];

fn index_kind(n: &crate::support::json::Node) -> crate::support::json::R<IndexKind> {
    unit(n, &INDEX_KINDS)
}

/// A column an index names: `[family.]name`, or an indexed expression over it (a functional
/// index: `UPPER(name)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexedColumn {
    /// The column name (normalized: unquoted names upper-cased); of an expression, the column
    /// it reads.
    pub name: String,
    /// Its column family, for a column outside the key declared with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// `DESC` (indexed columns only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub desc: bool,
    /// An indexed expression over the column, as SQL (`UPPER(NAME)`, `SUBSTR(NAME, 1, 3)`: see
    /// `expr.rs` for the functions read); indexed columns only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
}

impl IndexedColumn {
    /// How the index column is said: its expression, else its name.
    pub fn label(&self) -> &str {
        self.expression.as_deref().unwrap_or(&self.name)
    }
}

crate::support::json::object_reader! {
    /// A column an index names.
    pub(crate) fn indexed_column(n) -> IndexedColumn; "struct IndexedColumn";
    /// An index column's members, as [`indexed_column`] reads them.
    table INDEXED_COLUMN;
    IndexedColumn {
        /// The column name: a primary-key column or one of `phoenix.columns`.
        name: req("name", string),
        /// Its column family, when the column declares one.
        family: opt("family", string),
        /// The index orders this column descending (`DESC`); in `include`, not allowed.
        desc: or("desc", bool_, false) = "false",
        /// An indexed expression over the column `name` (a functional index), as SQL: one of
        /// `UPPER(s)`, `LOWER(s)`, `SUBSTR(s, offset[, length])`, `TRIM(s)`, `LTRIM(s)`,
        /// `RTRIM(s)`, `LENGTH(s)` over a `VARCHAR` column, nested as Phoenix types them
        /// (`UPPER(SUBSTR(NAME, 1, 3))`); in `include`, not allowed.
        expression: opt("expression", string),
    }
}

/// A secondary index on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhoenixIndex {
    /// The index name (normalized as Phoenix normalizes it), unique in the design.
    pub name: String,
    /// Global (covered), uncovered or local.
    pub kind: IndexKind,
    /// The indexed columns, in order.
    pub columns: Vec<IndexedColumn>,
    /// The `INCLUDE` columns a global index's rows carry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<IndexedColumn>,
    /// The index's own `SALT_BUCKETS`; absent: the data table's (`0`: not salted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt_buckets: Option<u32>,
    /// `SPLIT ON` points of an unsalted global index, as hex.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split_on: Vec<String>,
    /// Other index options, each `NAME=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// `ASYNC`: built later by the `IndexTool` MapReduce job, not at creation.
    #[serde(default, rename = "async", skip_serializing_if = "std::ops::Not::not")]
    pub build_async: bool,
}

crate::support::json::object_reader! {
    /// A secondary index.
    pub(crate) fn index(n) -> PhoenixIndex; "struct PhoenixIndex";
    /// An index's members, as [`index()`] reads them.
    table PHOENIX_INDEX;
    PhoenixIndex {
        /// The index name, unique among the design's indexes and not the table's.
        name: req("name", string),
        /// `global` (covered: its rows carry the `include` columns), `uncovered` (its key only;
        /// each row read is looked up in the data table) or `local` (in the data table's
        /// regions).
        kind: or("kind", index_kind, IndexKind::Global) = r#""global""# of INDEX_KINDS,
        /// The indexed columns in order, `{name, family?, desc?}`: 1 to 255 with the data
        /// key's columns the index appends.
        columns: req("columns", |n| list(n, indexed_column)),
        /// The `INCLUDE` columns, `{name, family?}` (a global covered index only).
        include: or("include", |n| list(n, indexed_column), Vec::new()) = "[]",
        /// The index's `SALT_BUCKETS`, 0 to 256; absent: the data table's, as Phoenix salts an
        /// index of a salted table; 0: not salted. A local index takes none.
        salt_buckets: opt("saltBuckets", u32_) in 0 ..= 256,
        /// `SPLIT ON` points of an unsalted global index, each a hex string.
        split_on: or("splitOn", |n| list(n, string), Vec::new()) = "[]",
        /// Other index options as `NAME=value`.
        options: or("options", |n| list(n, string), Vec::new()) = "[]",
        /// `ASYNC`: the index is built later by `IndexTool`; writes are the same.
        build_async: or("async", bool_, false) = "false",
    }
}

/// An error at `/phoenix/indexes/{i}/{member}`.
fn bad(i: usize, member: &str, msg: impl Into<String>) -> Error {
    let path = if member.is_empty() {
        format!("/phoenix/indexes/{i}")
    } else {
        format!("/phoenix/indexes/{i}/{member}")
    };
    Error::new(ErrorKind::Invalid, msg).at_path(path)
}

/// A column of the data table as an index sees it.
#[derive(Debug, Clone)]
pub(crate) enum TableColumn {
    /// The primary-key column at this position (salt excluded).
    Key(usize, PhoenixColumn),
    /// A column outside the key: its type, length, scale and whether it is NOT NULL.
    Cell(PhoenixColumn),
}

/// Column `c` of the data table found by name, its type not yet read: a key column (no
/// family) or one of `phoenix.columns`.
enum Named<'a> {
    Key(usize, &'a PhoenixColumn),
    Cell(&'a PhoenixColumnDecl),
}

impl Named<'_> {
    fn name(&self) -> &str {
        match self {
            Named::Key(_, k) => &k.name,
            Named::Cell(d) => &d.name,
        }
    }
}

/// Column `c` by name. The design's checks stop here: a column's declared type is SQL text,
/// read (by the statement grammar) where the index is used, as `phoenix.columns` types and
/// options are where the table is printed; so reading a design never needs the SQL grammar,
/// and every build of the engine (the page's first one has no SQL reader) gives the same
/// answer for the same document.
fn named<'a>(
    table: &'a PhoenixTable,
    section: &'a PhoenixSection,
    c: &IndexedColumn,
) -> Result<Named<'a>> {
    if c.family.is_none() {
        if let Some((i, k)) = table
            .columns
            .iter()
            .enumerate()
            .find(|(_, k)| k.name == c.name)
        {
            return Ok(Named::Key(i, k));
        }
    }
    section
        .columns
        .iter()
        .find(|d| d.name == c.name && (c.family.is_none() || d.family == c.family))
        .map(Named::Cell)
        .ok_or_else(|| {
            let shown = match &c.family {
                Some(f) => format!("{f}.{}", c.name),
                None => c.name.clone(),
            };
            Error::new(
                ErrorKind::Invalid,
                format!(
                    "column {} does not exist in {}: an index names a primary-key column or one of phoenix.columns",
                    crate::support::json::quote(&shown),
                    section.table
                ),
            )
        })
}

/// Column `c` of the data table with its type: a key column (no family) or one of
/// `phoenix.columns`, whose declared type must be one an index key takes.
pub(crate) fn resolve(
    table: &PhoenixTable,
    section: &PhoenixSection,
    c: &IndexedColumn,
) -> Result<TableColumn> {
    let decl = match named(table, section, c)? {
        Named::Key(i, k) => return Ok(TableColumn::Key(i, k.clone())),
        Named::Cell(d) => d,
    };
    let ty = type_decl(&decl.data_type, &decl.name)?;
    let data_type = match PhoenixType::from_sql_name(&ty.name) {
        Some(t) if !ty.array => t,
        _ => {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "column {} is {}: an index key here takes the types a Phoenix row key does ({}), not arrays, JSON, BSON or the other unsigned types (Phoenix: CANNOT_INDEX_COLUMN_ON_TYPE for some of them)",
                    c.name,
                    ty.text(),
                    crate::hbase::phoenix::types::ALL_TYPES
                        .iter()
                        .map(|t| t.sql_name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
    };
    Ok(TableColumn::Cell(PhoenixColumn {
        name: decl.name.clone(),
        data_type,
        sort_order: SortOrder::Asc,
        nullable: !decl.not_null,
        max_length: ty.len,
        scale: ty.scale,
    }))
}

/// The data table of a design with indexes: its Phoenix key and its `phoenix` section.
fn data_table(doc: &DesignDocument) -> Result<(PhoenixTable, &PhoenixSection)> {
    let section = doc.phoenix.as_ref().ok_or_else(|| {
        Error::new(ErrorKind::Invalid, "the design has no phoenix section").at_path("/phoenix")
    })?;
    let table = table_of(&doc.key, &section.table).ok_or_else(|| {
        Error::new(
            ErrorKind::Invalid,
            "indexes need a Phoenix primary key: the key has no pk(...) columns",
        )
        .at_path("/phoenix/indexes")
    })?;
    Ok((table, section))
}

/// Check every index of the section against the design's key: names, kinds, columns (each
/// existing, of a type an index key takes, named once), `INCLUDE`, salting and split points.
pub(crate) fn validate_indexes(doc: &DesignDocument) -> Result<()> {
    let Some(section) = &doc.phoenix else {
        return Ok(());
    };
    if section.indexes.is_empty() {
        return Ok(());
    }
    let (table, _) = data_table(doc)?;
    if section.indexes.len() > MAX_INDEXES {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{} indexes: Phoenix allows {MAX_INDEXES} on a table (phoenix.index.maxIndexesPerTable; TOO_MANY_INDEXES)",
                section.indexes.len()
            ),
        )
        .at_path(format!("/phoenix/indexes/{MAX_INDEXES}")));
    }
    let mut names = HashSet::new();
    for (i, x) in section.indexes.iter().enumerate() {
        if x.name.is_empty() {
            return Err(bad(i, "name", "the index name is empty"));
        }
        if x.name == section.table || !names.insert(x.name.as_str()) {
            return Err(bad(
                i,
                "name",
                format!(
                    "{} is already the name of {} (Phoenix: TABLE_ALREADY_EXIST)",
                    crate::support::json::quote(&x.name),
                    if x.name == section.table {
                        "the table"
                    } else {
                        "another index"
                    }
                ),
            ));
        }
        validate_index(&table, section, i, x)?;
    }
    Ok(())
}

fn validate_index(
    table: &PhoenixTable,
    section: &PhoenixSection,
    i: usize,
    x: &PhoenixIndex,
) -> Result<()> {
    if x.columns.is_empty() {
        return Err(bad(i, "columns", "an index needs at least one column"));
    }
    if let Some(n) = x.salt_buckets.filter(|&n| n > 256) {
        return Err(bad(
            i,
            "saltBuckets",
            format!("{n}: Phoenix takes 0 to 256 salt buckets (INVALID_BUCKET_NUM)"),
        ));
    }
    let mut seen = HashSet::new();
    let mut key_columns = 0;
    for (j, c) in x.columns.iter().enumerate() {
        let member = format!("columns/{j}");
        let col = named(table, section, c).map_err(|e| bad(i, &member, e.message))?;
        // an expression is an index column of its own: an index on (UPPER(NAME), NAME) is two
        let indexed = c.expression.as_deref().unwrap_or(col.name());
        if !seen.insert(indexed.to_string()) {
            return Err(bad(i, &member, format!("{indexed} is indexed twice")));
        }
        if matches!(col, Named::Key(..)) && c.expression.is_none() {
            key_columns += 1;
        }
    }
    let total = x.columns.len() + table.columns.len() - key_columns;
    if total > MAX_INDEX_KEY_COLUMNS {
        return Err(bad(
            i,
            &format!("columns/{}", MAX_INDEX_KEY_COLUMNS.min(x.columns.len() - 1)),
            format!("the index key would have {total} columns (its {} indexed and the data key's others); at most {MAX_INDEX_KEY_COLUMNS}", x.columns.len()),
        ));
    }
    for (j, c) in x.include.iter().enumerate() {
        let member = format!("include/{j}");
        if x.kind == IndexKind::Uncovered {
            return Err(bad(
                i,
                &member,
                "an uncovered index has no INCLUDE columns (Phoenix: \"UNCOVERED indexes cannot have the INCLUDE clause\")",
            ));
        }
        if c.desc {
            return Err(bad(i, &member, "an INCLUDE column has no order (desc)"));
        }
        if c.expression.is_some() {
            return Err(bad(
                i,
                &format!("{member}/expression"),
                "an INCLUDE column is a column, not an expression",
            ));
        }
        let col = named(table, section, c).map_err(|e| bad(i, &member, e.message))?;
        if seen.contains(col.name()) {
            return Err(bad(
                i,
                &member,
                format!(
                    "{} is both indexed and included (Phoenix: COLUMN_EXIST_IN_DEF)",
                    col.name()
                ),
            ));
        }
    }
    let inherited = table.salt_buckets.is_some() && x.salt_buckets.is_none();
    if x.kind == IndexKind::Local {
        if x.salt_buckets.is_some() || !x.split_on.is_empty() {
            return Err(bad(
                i,
                if x.salt_buckets.is_some() {
                    "saltBuckets"
                } else {
                    "splitOn"
                },
                "a local index lives in the data table's regions: it takes no SALT_BUCKETS or SPLIT ON of its own",
            ));
        }
    } else if !x.split_on.is_empty() && (x.salt_buckets.unwrap_or(0) > 0 || inherited) {
        return Err(bad(
            i,
            "splitOn",
            "SPLIT ON cannot be given for a salted index (Phoenix: \"Should not specify split points on salted table\"); an index of a salted table is salted unless SALT_BUCKETS=0",
        ));
    }
    for (j, k) in x.split_on.iter().enumerate() {
        crate::hbase::bytes::from_hex(k).map_err(|e| bad(i, &format!("splitOn/{j}"), e.message))?;
    }
    Ok(())
}

/// Index `i`'s SQL text read: each indexed and included column's declared type (one an index
/// key takes) and each option (one `NAME=value`, not `SALT_BUCKETS`). What uses an index (its
/// key, its analysis, its `CREATE INDEX`) reads these first, so each refusal is at its member.
pub(crate) fn read_index_sql(doc: &DesignDocument, i: usize) -> Result<()> {
    let (table, section) = data_table(doc)?;
    let x = section
        .indexes
        .get(i)
        .ok_or_else(|| Error::arg("index", format!("the design has no index {i}")))?;
    for (j, c) in x.columns.iter().enumerate() {
        match &c.expression {
            Some(text) => expr::resolve_expression(&table, section, c, text)
                .map(drop)
                .map_err(|e| bad(i, &format!("columns/{j}/expression"), e.message))?,
            None => resolve(&table, section, c)
                .map(drop)
                .map_err(|e| bad(i, &format!("columns/{j}"), e.message))?,
        }
    }
    // A covered column is stored, not indexed: any type Phoenix declares (arrays too).
    for (j, c) in x.include.iter().enumerate() {
        let read = match named(&table, section, c) {
            Ok(Named::Cell(d)) => type_decl(&d.data_type, &d.name).map(drop),
            Ok(Named::Key(..)) => Ok(()),
            Err(e) => Err(e),
        };
        read.map_err(|e| bad(i, &format!("include/{j}"), e.message))?;
    }
    for (j, o) in x.options.iter().enumerate() {
        let (_, opt) = table_option(o).map_err(|e| bad(i, &format!("options/{j}"), e.message))?;
        if opt.family.is_none() && opt.name == "SALT_BUCKETS" {
            return Err(bad(
                i,
                &format!("options/{j}"),
                "SALT_BUCKETS is the index's saltBuckets member, not an option",
            ));
        }
    }
    Ok(())
}
