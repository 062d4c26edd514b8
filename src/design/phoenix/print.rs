//! A design's Phoenix key written back as `CREATE TABLE` ([`print_create_table`]), the
//! other direction from [`parse_create_table`].

use super::*;

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
