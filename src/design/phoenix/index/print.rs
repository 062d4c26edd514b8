//! An index printed back as `CREATE ... INDEX`, injection-proof as `CREATE TABLE` is.

use super::*;

/// Index `i` as `CREATE ... INDEX`: every name through `quote_ident`, an indexed expression
/// read and printed again, options read again by the reader's grammar, split points as
/// literals.
pub fn print_create_index(doc: &DesignDocument, i: usize) -> Result<String> {
    read_index_sql(doc, i)?;
    let (_, section) = data_table(doc)?;
    let x = section
        .indexes
        .get(i)
        .ok_or_else(|| Error::arg("index", format!("the design has no index {i}")))?;
    let q = |s: &str, member: &str| quote_ident(s).map_err(|e| bad(i, member, e.message));
    let col = |c: &IndexedColumn, member: &str| -> Result<String> {
        let fam = match &c.family {
            Some(f) => format!("{}.", q(f, &format!("{member}/family"))?),
            None => String::new(),
        };
        Ok(format!("{fam}{}", q(&c.name, &format!("{member}/name"))?))
    };
    let kind = match x.kind {
        IndexKind::Global => "INDEX",
        IndexKind::Uncovered => "UNCOVERED INDEX",
        IndexKind::Local => "LOCAL INDEX",
    };
    let table = full_name(&section.table).map_err(|e| e.at_path("/phoenix/table"))?;
    let mut cols = Vec::new();
    for (j, c) in x.columns.iter().enumerate() {
        let mut s = match &c.expression {
            // read again and printed from what was read: no text of the member's own is printed
            Some(text) => expr::parse_expression(text)
                .and_then(|(read, e)| expr::print_expression(&read, &e))
                .map_err(|e| bad(i, &format!("columns/{j}/expression"), e.message))?,
            None => col(c, &format!("columns/{j}"))?,
        };
        if c.desc {
            s.push_str(" DESC");
        }
        cols.push(s);
    }
    let mut out = format!(
        "CREATE {kind} {} ON {table} ({})",
        q(&x.name, "name")?,
        cols.join(", ")
    );
    if !x.include.is_empty() {
        let inc = (x.include.iter().enumerate())
            .map(|(j, c)| col(c, &format!("include/{j}")))
            .collect::<Result<Vec<_>>>()?;
        out.push_str(&format!(" INCLUDE ({})", inc.join(", ")));
    }
    if x.build_async {
        out.push_str(" ASYNC");
    }
    let mut options = Vec::new();
    if let Some(n) = x.salt_buckets {
        options.push(format!("SALT_BUCKETS={n}"));
    }
    for (j, o) in x.options.iter().enumerate() {
        let (printed, _) =
            table_option(o).map_err(|e| bad(i, &format!("options/{j}"), e.message))?;
        options.push(printed);
    }
    if !options.is_empty() {
        out.push(' ');
        out.push_str(&options.join(", "));
    }
    if !x.split_on.is_empty() {
        let mut pts = Vec::new();
        for (j, k) in x.split_on.iter().enumerate() {
            let b = crate::hbase::bytes::from_hex(k)
                .map_err(|e| bad(i, &format!("splitOn/{j}"), e.message))?;
            pts.push(format!("X'{}'", crate::hbase::bytes::to_hex(&b)));
        }
        out.push_str(&format!(" SPLIT ON ({})", pts.join(", ")));
    }
    out.push(';');
    Ok(out)
}
