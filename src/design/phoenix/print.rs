//! A design's Phoenix key written back as `CREATE TABLE` ([`print_create_table`]), the
//! other direction from [`parse_create_table`].
//!
//! Nothing from the design is copied into the statement as it stands: names go through
//! [`quote_ident`], string literals through [`quote_str`], and a column's type and a table
//! option are read again by the reader's own grammar and printed as read (`ddl.rs`). A value
//! that cannot be printed that way is an error naming its place in the document, so a design
//! that arrives by a link or a file cannot make the statement end early or hold a second one.

use super::ddl::{column_type, table_option};
use super::*;

/// A design's Phoenix key as `CREATE TABLE`: the key columns (their fields' names), the
/// `phoenix` section's other columns and options, `SALT_BUCKETS`, and explicit split keys
/// as `SPLIT ON`, then each index's `CREATE INDEX` on its own line. Errors when the key is not a Phoenix primary key (segments other than one
/// `salt(N, hash=phoenix)` and `pk(...)` columns), and, at the value's path, when a name, a
/// type or an option is not one Phoenix SQL can hold.
pub fn print_create_table(doc: &DesignDocument) -> Result<String> {
    let (name, name_path) = match (&doc.phoenix, &doc.name) {
        (Some(p), _) => (p.table.clone(), "/phoenix/table"),
        (None, Some(n)) => (n.clone(), "/name"),
        (None, None) => ("T".to_string(), "/name"),
    };
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
    let first_pk = usize::from(table.salt_buckets.is_some());
    let mut lines = Vec::new();
    let mut pk = Vec::new();
    for (i, c) in table.columns.iter().enumerate() {
        let path = format!("/key/segments/{}", i + first_pk);
        let ident = quote_ident(&c.name).map_err(|e| e.at_path(path))?;
        let null = if c.nullable { "" } else { " NOT NULL" };
        lines.push(format!("    {ident} {}{null}", declared_type(c)));
        pk.push(match c.sort_order {
            SortOrder::Asc => ident,
            SortOrder::Desc => format!("{ident} DESC"),
        });
    }
    for (i, c) in doc.phoenix.iter().flat_map(|p| &p.columns).enumerate() {
        lines.push(column_line(c, i)?);
    }
    lines.push(format!("    CONSTRAINT pk PRIMARY KEY ({})", pk.join(", ")));
    let table_name = full_name(&name).map_err(|e| e.at_path(name_path))?;
    let mut out = format!("CREATE TABLE {table_name} (\n{}\n)", lines.join(",\n"));
    let mut options = Vec::new();
    if let Some(n) = table.salt_buckets {
        options.push(format!("SALT_BUCKETS={n}"));
    }
    for (i, text) in doc.phoenix.iter().flat_map(|p| &p.options).enumerate() {
        options.push(option_text(text, i)?);
    }
    if !options.is_empty() {
        out.push(' ');
        out.push_str(&options.join(", "));
    }
    if let Some(splits) = split_on(doc)? {
        // What the reader refuses, the printer never writes: Phoenix pre-splits a salted
        // table at its buckets and refuses SPLIT ON with SALT_BUCKETS.
        if table.salt_buckets.is_some() {
            return Err(Error::new(
                ErrorKind::Invalid,
                "a salted Phoenix table is split at its salt buckets, and Phoenix refuses SPLIT ON \
                 with SALT_BUCKETS (\"Should not specify split points on salted table\"): use the \
                 saltBuckets pre-split, or take salt(...) out of the key",
            )
            .at_path("/regions/presplit"));
        }
        out.push_str(&format!(" SPLIT ON ({splits})"));
    }
    out.push(';');
    for i in 0..doc.phoenix.as_ref().map_or(0, |p| p.indexes.len()) {
        out.push('\n');
        out.push_str(&super::print_create_index(doc, i)?);
    }
    Ok(out)
}

/// One column outside the key: `[family.]name TYPE [NOT NULL]`.
fn column_line(c: &PhoenixColumnDecl, i: usize) -> Result<String> {
    let at = |field: &str| format!("/phoenix/columns/{i}/{field}");
    let fam = match &c.family {
        Some(f) => format!("{}.", quote_ident(f).map_err(|e| e.at_path(at("family")))?),
        None => String::new(),
    };
    let name = quote_ident(&c.name).map_err(|e| e.at_path(at("name")))?;
    let ty = column_type(&c.data_type, &c.name).map_err(|e| e.at_path(at("type")))?;
    let null = if c.not_null { " NOT NULL" } else { "" };
    Ok(format!("    {fam}{name} {ty}{null}"))
}

/// Table option `i` as Phoenix's grammar reads it, or why it cannot be printed.
fn option_text(text: &str, i: usize) -> Result<String> {
    let path = format!("/phoenix/options/{i}");
    let (printed, opt) = table_option(text).map_err(|e| e.at_path(&path))?;
    if opt.family.is_none() && opt.name == "SALT_BUCKETS" {
        return Err(Error::new(
            ErrorKind::Invalid,
            "SALT_BUCKETS is not an option of the phoenix section: it is the key's salt(N, hash=phoenix) segment",
        )
        .at_path(path));
    }
    Ok(printed)
}

/// A full table name `schema.table` (split at its first `.`, as Phoenix's `SchemaUtil` splits
/// one) or `table`, each name quoted as needed; `:` is refused in both, as Phoenix refuses it.
pub(crate) fn full_name(name: &str) -> Result<String> {
    let parts = match name.split_once('.') {
        Some((schema, table)) => vec![schema, table],
        None => vec![name],
    };
    let mut out = Vec::new();
    for p in parts {
        if p.contains(':') {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "the table name {} holds `:`, which Phoenix refuses in a table or schema name",
                    crate::support::json::quote(name)
                ),
            ));
        }
        out.push(quote_ident(p)?);
    }
    Ok(out.join("."))
}

/// An explicit pre-split as `SPLIT ON` literals: a key that is UTF-8 text without control
/// characters other than those `quote_str` escapes as a `'string'`, any other as `X'hex'`.
fn split_on(doc: &DesignDocument) -> Result<Option<String>> {
    let Some(PreSplit::Explicit { keys, encoding }) = doc.regions.as_ref().map(|r| &r.presplit)
    else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let bytes = match encoding {
            KeyEncoding::Hex => crate::hbase::bytes::from_hex(k)
                .map_err(|e| e.at_path(format!("/regions/presplit/keys/{i}")))?,
            KeyEncoding::StringBinary => crate::hbase::bytes::to_bytes_binary_str(k),
        };
        let printable = |s: &str| {
            s.chars()
                .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t' | '\u{8}' | '\u{c}'))
        };
        out.push(match std::str::from_utf8(&bytes) {
            Ok(text) if printable(text) => quote_str(text),
            _ => format!("X'{}'", crate::hbase::bytes::to_hex(&bytes)),
        });
    }
    Ok(Some(out.join(", ")))
}

/// Who creates a salted Phoenix table's regions, in a sentence: Phoenix itself, one per salt
/// bucket, from its `CREATE TABLE … SALT_BUCKETS`, not an HBase shell `create` with split keys
/// (which would make a table Phoenix does not know). `None` for any other design. The Splits
/// view and `splits` say it with the same words.
pub fn salted_regions_note(doc: &DesignDocument) -> Option<String> {
    doc.phoenix.as_ref()?;
    match doc.regions.as_ref().map(|r| &r.presplit) {
        Some(crate::region::PreSplit::SaltBuckets { buckets, .. }) => Some(format!(
            "Phoenix splits a salted table itself: CREATE TABLE … SALT_BUCKETS = {buckets} creates its {buckets} regions (one per bucket). Create it with its DDL in Phoenix, not from the HBase shell."
        )),
        _ => None,
    }
}
