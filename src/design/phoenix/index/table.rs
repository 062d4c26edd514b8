//! Each index as the table it is: its key as Phoenix builds it ([`index_shape`]), that key in
//! the key language ([`index_key_spec`]: `salt(N, hash=phoenix)` and a `pk(...)` per column,
//! typed as Phoenix types an index's columns), and the index as a design of its own
//! ([`index_design`]: its pre-split, the data table's fields and workload, a placeholder field
//! per indexed expression). Apart from the
//! members' reading and checks: this is what the analysis and the encoder build on.

use super::*;

/// Index `i`'s key as Phoenix builds it (see [`crate::hbase::phoenix::index`]).
pub fn index_shape(doc: &DesignDocument, i: usize) -> Result<IndexKeyShape> {
    Ok(shape_of(doc, i)?.0)
}

/// The fields index `i`'s key names that the data design does not declare: one per indexed
/// expression, named by it (`UPPER(NAME)`), typed as its result. Placeholders, so the index's
/// key compiles (decode, layout, read plans over its regions): the index's rows are keyed by
/// [`IndexEncoder`], from the column the expression reads, never from these fields' values.
fn expression_fields(doc: &DesignDocument, i: usize) -> Result<Vec<crate::workload::FieldDecl>> {
    let (shape, data_columns, _) = shape_of(doc, i)?;
    let mut out = Vec::new();
    for (c, col) in shape.columns.iter().zip(&data_columns) {
        if let IndexSource::Expression { .. } = c.source {
            if doc.field(&c.name).is_some() {
                return Err(bad(
                    i,
                    "columns",
                    format!(
                        "a field is named {}, as the indexed expression is: rename the field",
                        crate::support::json::quote(&c.name)
                    ),
                ));
            }
            out.push(super::super::build::field_for(col));
        }
    }
    Ok(out)
}

/// An index column's value as the encoder builds it: a cell's column, or an expression over
/// a column (its source column, the expression).
pub(super) type Source = (PhoenixColumn, Option<IndexExpression>);

/// Index `i`'s key; for each of its columns, the data column it comes from (an expression:
/// its result, named by the expression); and for each cell or expression column in key order,
/// the column its value is read from and the expression over it.
pub(super) fn shape_of(
    doc: &DesignDocument,
    i: usize,
) -> Result<(IndexKeyShape, Vec<PhoenixColumn>, Vec<Source>)> {
    read_index_sql(doc, i)?;
    let (table, section) = data_table(doc)?;
    let x = section
        .indexes
        .get(i)
        .ok_or_else(|| Error::arg("index", format!("the design has no index {i}")))?;
    let mut indexed = Vec::with_capacity(x.columns.len());
    let mut cells = Vec::new();
    let mut sources = Vec::new();
    for (j, c) in x.columns.iter().enumerate() {
        let sort_order = if c.desc {
            SortOrder::Desc
        } else {
            SortOrder::Asc
        };
        if let Some(text) = &c.expression {
            let at = |e: Error| bad(i, &format!("columns/{j}/expression"), e.message);
            let (src, e) = expr::resolve_expression(&table, section, c, text).map_err(at)?;
            let name = expr::print_expression(c, &e).map_err(at)?;
            let data_type = e.data_type().map_err(at)?;
            let nullable = e.nullable(src.nullable);
            indexed.push(IndexColumn {
                name: name.clone(),
                source: IndexSource::Expression {
                    data_type,
                    nullable,
                },
                sort_order,
            });
            cells.push(PhoenixColumn {
                name,
                data_type,
                sort_order: SortOrder::Asc,
                nullable,
                max_length: e.max_length(src.max_length),
                scale: None,
            });
            sources.push((src, Some(e)));
            continue;
        }
        let col =
            resolve(&table, section, c).map_err(|e| bad(i, &format!("columns/{j}"), e.message))?;
        indexed.push(match col {
            TableColumn::Key(p, k) => IndexColumn {
                name: k.name,
                source: IndexSource::DataPk(p),
                sort_order,
            },
            TableColumn::Cell(k) => {
                let x = IndexColumn {
                    name: k.name.clone(),
                    source: IndexSource::Cell {
                        data_type: k.data_type,
                        nullable: k.nullable,
                    },
                    sort_order,
                };
                sources.push((k.clone(), None));
                cells.push(k);
                x
            }
        });
    }
    let columns = index_pk(&table, &indexed);
    let mut cells = cells.into_iter();
    let data_columns = columns
        .iter()
        .map(|c| match &c.source {
            IndexSource::DataPk(p) => table.columns.get(*p).cloned(),
            IndexSource::Cell { .. } | IndexSource::Expression { .. } => cells.next(),
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad(i, "columns", "an index column has no data column"))?;
    let local_index_id = match x.kind {
        IndexKind::Local => {
            let n = (section.indexes.iter().take(i))
                .filter(|y| y.kind == IndexKind::Local)
                .count();
            Some(FIRST_LOCAL_INDEX_ID.saturating_add(i16::try_from(n).unwrap_or(i16::MAX)))
        }
        _ => None,
    };
    let salt_buckets = match (x.kind, x.salt_buckets) {
        (IndexKind::Local, _) | (_, Some(0)) => None,
        (_, Some(n)) => i32::try_from(n).ok(),
        (_, None) => table.salt_buckets,
    };
    let shape = IndexKeyShape {
        data: table,
        columns,
        salt_buckets,
        local_index_id,
    };
    Ok((shape, data_columns, sources))
}

/// The key of global index `i` as the key language writes it: `salt(N, hash=phoenix)` when the
/// index is salted, then a `pk(...)` per index column with its type in the index (a nullable
/// `INTEGER` is `DECIMAL` there) and the index's order. It reads back (decode, layout) an index
/// key as [`crate::hbase::phoenix::index::build_row_key`] writes it.
pub fn index_key_spec(doc: &DesignDocument, i: usize) -> Result<KeySpec> {
    let (shape, data_columns, _) = shape_of(doc, i)?;
    let mut segments = Vec::new();
    if let Some(n) = shape.salt_buckets {
        segments.push(Segment::Salt(SaltSpec {
            of: None,
            buckets: u32::try_from(n).unwrap_or(1),
            hash: SaltHash::Phoenix,
            modulo: Default::default(),
            render: Render::Byte,
        }));
    }
    for (c, col) in shape.columns.iter().zip(&data_columns) {
        let t = index_column_type(col.nullable, col.data_type);
        let converted = t != col.data_type;
        segments.push(segment(&PhoenixColumn {
            name: c.name.clone(),
            data_type: t,
            sort_order: c.sort_order,
            nullable: col.nullable,
            // A DECIMAL converted from a fixed-width type has no precision (Phoenix passes the
            // data column's, which INTEGER and the like do not have); a CHAR's VARCHAR keeps
            // its length.
            max_length: if converted && t == PhoenixType::Decimal {
                None
            } else {
                col.max_length
            },
            scale: if converted { None } else { col.scale },
        }));
    }
    Ok(KeySpec { segments })
}

/// Index `i` as a design of its own: the data design's fields and workload, the index key
/// ([`index_key_spec`]), its own pre-split (its salt buckets or `SPLIT ON` points; a local
/// index: the data table's regions), no reads, cells or examples, no `phoenix` section.
pub fn index_design(doc: &DesignDocument, i: usize) -> Result<DesignDocument> {
    let shape = index_shape(doc, i)?;
    let (_, section) = data_table(doc)?;
    let x = section
        .indexes
        .get(i)
        .ok_or_else(|| Error::arg("index", format!("the design has no index {i}")))?;
    // A local index's rows land in the data row's region: counted over the data key.
    let key = match x.kind {
        IndexKind::Local => doc.key.clone(),
        _ => index_key_spec(doc, i)?,
    };
    let regions = match (x.kind, shape.salt_buckets) {
        (IndexKind::Local, _) => doc.regions.clone(),
        (_, Some(n)) => Some(RegionLayout {
            presplit: PreSplit::SaltBuckets {
                buckets: u32::try_from(n).unwrap_or(1),
                style: SaltStyle::Byte,
                width: None,
            },
            ..doc.regions.clone().unwrap_or_default()
        }),
        (_, None) if !x.split_on.is_empty() => Some(RegionLayout {
            presplit: PreSplit::Explicit {
                keys: x.split_on.clone(),
                encoding: KeyEncoding::Hex,
            },
            ..doc.regions.clone().unwrap_or_default()
        }),
        (_, None) => Some(RegionLayout {
            presplit: PreSplit::None,
            ..doc.regions.clone().unwrap_or_default()
        }),
    };
    let mut fields = doc.fields.clone();
    fields.extend(expression_fields(doc, i)?);
    Ok(DesignDocument {
        name: Some(x.name.clone()),
        fields,
        description: Some(format!(
            "{} index {} on {}",
            match x.kind {
                IndexKind::Global => "global",
                IndexKind::Uncovered => "uncovered global",
                IndexKind::Local => "local",
            },
            x.name,
            section.table
        )),
        key,
        regions,
        reads: Vec::new(),
        examples: Vec::new(),
        cells: None,
        phoenix: None,
        latest_first: false,
        ..doc.clone()
    })
}
