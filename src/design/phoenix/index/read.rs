//! `CREATE [UNCOVERED|LOCAL] INDEX` read into the design's `phoenix.indexes`, where each part
//! is (to locate a document error in the statement), and the fields an index needs.

use super::expr::print_expression;
use super::*;

/// Where the parts of a `CREATE INDEX` statement are, to locate a document error in it.
pub(in crate::design::phoenix) struct IndexToks {
    /// The index name.
    pub(in crate::design::phoenix) name: Tok,
    /// Each indexed column.
    columns: Vec<Tok>,
    /// Each included column.
    include: Vec<Tok>,
    /// The `SALT_BUCKETS` value.
    salt: Option<Tok>,
    /// `SPLIT`.
    split: Option<Tok>,
}

impl IndexToks {
    /// The token the member path `member` (below `/phoenix/indexes/{i}/`) names.
    pub(in crate::design::phoenix) fn at(&self, member: &str) -> &Tok {
        let mut parts = member.split('/');
        let (what, j) = (
            parts.next().unwrap_or(""),
            parts.next().and_then(|j| j.parse::<usize>().ok()),
        );
        match what {
            "columns" => j
                .and_then(|j| self.columns.get(j))
                .or(self.columns.first())
                .unwrap_or(&self.name),
            "include" => j
                .and_then(|j| self.include.get(j))
                .or(self.include.first())
                .unwrap_or(&self.name),
            "saltBuckets" => self.salt.as_ref().unwrap_or(&self.name),
            "splitOn" => self.split.as_ref().unwrap_or(&self.name),
            _ => &self.name,
        }
    }
}

/// `CREATE [UNCOVERED] [LOCAL] INDEX [IF NOT EXISTS] name ON table (col|expr [ASC|DESC], ...)
/// [INCLUDE (col, ...)] [ASYNC] [options] [SPLIT ON (...)]`, the cursor after `CREATE`.
pub(in crate::design::phoenix) fn read_create_index(
    c: &mut Cursor,
    table: &str,
) -> Result<(PhoenixIndex, IndexToks)> {
    let uncovered = c.eat_kw("UNCOVERED");
    let local_tok = c.peek().clone();
    let local = c.eat_kw("LOCAL");
    if uncovered && local {
        return Err(at(
            &local_tok,
            "UNCOVERED cannot be used with LOCAL (Phoenix's grammar)",
        ));
    }
    c.kw("INDEX", "INDEX")?;
    if c.eat_kw("IF") {
        c.kw("NOT", "NOT (IF NOT EXISTS)")?;
        c.kw("EXISTS", "EXISTS (IF NOT EXISTS)")?;
    }
    let (name, name_tok) = c.ident("the index name")?;
    c.kw("ON", "ON and the table name")?;
    let on_tok = c.peek().clone();
    let on = table_name(c)?;
    if on != table {
        return Err(at(
            &on_tok,
            format!(
                "the index is on {}, but the statement before it creates {}: an index here is on the table read with it",
                crate::support::json::quote(&on),
                crate::support::json::quote(table)
            ),
        ));
    }
    c.punct('(', "`(` and the indexed columns")?;
    let mut toks = IndexToks {
        name: name_tok,
        columns: Vec::new(),
        include: Vec::new(),
        salt: None,
        split: None,
    };
    let mut columns = Vec::new();
    loop {
        toks.columns.push(c.peek().clone());
        let mut col = if expr::at_call(c) {
            let (mut col, e) = expr::read_expression(c)?;
            col.expression = Some(print_expression(&col, &e)?);
            col
        } else {
            column_ref(c, "an indexed column")?
        };
        if !(c.is_punct(',') || c.is_punct(')') || c.is_kw("ASC") || c.is_kw("DESC")) {
            return Err(at(
                c.peek(),
                format!(
                    "this indexed expression is not read here: index a column by name, `col [ASC|DESC]`, or one of {}, nested, over one VARCHAR column",
                    crate::hbase::phoenix::functions::INDEX_FUNCTIONS
                ),
            ));
        }
        col.desc = sort_order(c) == SortOrder::Desc;
        columns.push(col);
        if c.eat_punct(',') {
            continue;
        }
        c.punct(
            ')',
            "`,` and another column, or `)` to end the indexed columns",
        )?;
        break;
    }
    let mut include = Vec::new();
    if c.is_kw("INCLUDE") {
        let t = c.bump();
        if uncovered {
            return Err(at(
                &t,
                "UNCOVERED indexes cannot have the INCLUDE clause (Phoenix's grammar)",
            ));
        }
        c.punct('(', "`(` and the included columns")?;
        loop {
            toks.include.push(c.peek().clone());
            include.push(column_ref(c, "an included column")?);
            if c.eat_punct(',') {
                continue;
            }
            c.punct(')', "`,` and another column, or `)`")?;
            break;
        }
    }
    if c.is_kw("WHERE") {
        return Err(at(
            c.peek(),
            "partial indexes (WHERE) are not modelled: every data row is taken to have its index row",
        ));
    }
    let build_async = c.eat_kw("ASYNC");
    let mut x = PhoenixIndex {
        name,
        kind: match (uncovered, local) {
            (true, _) => IndexKind::Uncovered,
            (_, true) => IndexKind::Local,
            _ => IndexKind::Global,
        },
        columns,
        include,
        salt_buckets: None,
        split_on: Vec::new(),
        options: Vec::new(),
        build_async,
    };
    toks.salt = index_options(c, &mut x)?;
    if c.is_kw("SPLIT") {
        toks.split = Some(c.bump());
        c.kw("ON", "ON after SPLIT")?;
        c.punct('(', "`(` and the split points")?;
        loop {
            let t = c.bump();
            let k = match t.t {
                T::Str(s) => s.into_bytes(),
                T::Hex(h) => crate::hbase::bytes::from_hex(&h)?,
                _ => {
                    return Err(expected(
                        &t,
                        "a split point as a 'string' or X'hex' literal",
                    ))
                }
            };
            x.split_on.push(crate::hbase::bytes::to_hex(&k));
            if c.eat_punct(',') {
                continue;
            }
            c.punct(')', "`,` and another split point, or `)`")?;
            break;
        }
    }
    Ok((x, toks))
}

/// `[family.]name`.
fn column_ref(c: &mut Cursor, what: &str) -> Result<IndexedColumn> {
    let (first, _) = c.ident(what)?;
    Ok(if c.eat_punct('.') {
        IndexedColumn {
            name: c.ident("the column name after its family")?.0,
            family: Some(first),
            desc: false,
            expression: None,
        }
    } else {
        IndexedColumn {
            name: first,
            family: None,
            desc: false,
            expression: None,
        }
    })
}

/// An index's options: `SALT_BUCKETS = n` into its member (its value's token returned), the
/// rest kept as text.
fn index_options(c: &mut Cursor, x: &mut PhoenixIndex) -> Result<Option<Tok>> {
    let mut salt = None;
    let starts_option = |c: &Cursor| {
        matches!(c.peek().t, T::Word(_) | T::Quoted(_))
            && !(c.is_kw("SPLIT")
                && matches!(c.peek2(), T::Word(w) if w.eq_ignore_ascii_case("ON")))
    };
    if !starts_option(c) {
        return Ok(None);
    }
    loop {
        let opt = TableOption::read(c)?;
        if opt.family.is_none() && opt.name == "SALT_BUCKETS" {
            salt = Some(opt.value_tok.clone());
            let n: i64 = (opt.number.as_deref())
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| expected(&opt.value_tok, "a number of salt buckets"))?;
            match u32::try_from(n) {
                Ok(n @ 0..=256) => x.salt_buckets = Some(n),
                _ => {
                    return Err(at(
                        &opt.value_tok,
                        format!("SALT_BUCKETS must be 0 to 256, got {n}"),
                    ))
                }
            }
        } else {
            x.options.push(opt.text()?);
        }
        if !c.eat_punct(',') {
            return Ok(salt);
        }
    }
}

/// The fields an index needs that the design does not declare: a column outside the key that
/// an index names gets one, with a generator that fits its type (its values are invented, as
/// a key column's are).
pub(in crate::design::phoenix) fn index_fields(doc: &mut DesignDocument) -> Result<()> {
    let Some(section) = doc.phoenix.clone() else {
        return Ok(());
    };
    let Some(table) = table_of(&doc.key, &section.table) else {
        return Ok(());
    };
    for x in &section.indexes {
        for c in x.columns.iter().chain(&x.include) {
            if let Ok(TableColumn::Cell(k)) = resolve(&table, &section, c) {
                if doc.field(&k.name).is_none() {
                    doc.fields.push(build::field_for(&k));
                }
            }
        }
    }
    Ok(())
}
