//! The index rows of a design's records, keyed as Phoenix's `IndexMaintainer` keys them.

use super::*;

/// The index rows of a design's records: each record's data row key (the design's own key),
/// then [`crate::hbase::phoenix::index::build_row_key`] over it and the record's values of the
/// index's columns outside the data key (an indexed expression's: the expression of the
/// column it reads).
pub struct IndexEncoder {
    data: crate::keyspec::CompiledKey,
    shape: IndexKeyShape,
    /// The shape worked out once (each column's conversion, the salt).
    plan: crate::hbase::phoenix::index::IndexKeyPlan,
    /// Each cell or expression column's field position, the column its value is read from
    /// (ascending, as stored), its field type and the expression over it.
    cells: Vec<(usize, PhoenixColumn, FieldType, Option<IndexExpression>)>,
    /// The data table's split keys (a local index's rows start with their region's start key).
    split_keys: Vec<Vec<u8>>,
    data_key: Vec<u8>,
    /// Where each data key column is in `data_key`.
    spans: Vec<(usize, usize)>,
    cell_bytes: Vec<Vec<u8>>,
}

impl IndexEncoder {
    /// The encoder of index `i` of `doc`, the data table split at `split_keys` (sorted; used by
    /// a local index only). A column outside the key needs a field of its name to give its
    /// values (one read from `CREATE INDEX` has one).
    pub fn new(doc: &DesignDocument, i: usize, split_keys: &[Vec<u8>]) -> Result<IndexEncoder> {
        doc.validate()?;
        let (shape, _, sources) = shape_of(doc, i)?;
        let fields = doc.key_fields();
        let data = crate::keyspec::CompiledKey::new(&doc.key, &fields)?;
        let mut cells = Vec::new();
        for (col, e) in sources {
            let pos = (doc.fields.iter().position(|f| f.name == col.name)).ok_or_else(|| {
                bad(
                    i,
                    "columns",
                    format!(
                        "no field gives column {} its values: declare a field named {}",
                        col.name,
                        crate::support::json::quote(&col.name)
                    ),
                )
            })?;
            let ty = doc
                .fields
                .get(pos)
                .map_or(FieldType::String, |f| f.field_type);
            cells.push((pos, col, ty, e));
        }
        Ok(IndexEncoder {
            data,
            plan: crate::hbase::phoenix::index::IndexKeyPlan::new(&shape)?,
            shape,
            cells,
            split_keys: split_keys.to_vec(),
            data_key: Vec::new(),
            spans: Vec::new(),
            cell_bytes: Vec::new(),
        })
    }

    /// The index's key shape.
    pub fn shape(&self) -> &IndexKeyShape {
        &self.shape
    }

    /// The data row key of the last record encoded.
    pub fn data_key(&self) -> &[u8] {
        &self.data_key
    }

    /// Append the index row key of the record with `values` (in field order) to `out`.
    pub fn encode_values_into(
        &mut self,
        values: &[crate::keyspec::FieldValue],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let mut data_key = std::mem::take(&mut self.data_key);
        let mut spans = std::mem::take(&mut self.spans);
        data_key.clear();
        let built = self
            .data
            .encode_values_into(&mut data_key, values)
            .and_then(|()| data_spans(&self.shape, &data_key, &mut spans))
            .and_then(|()| self.encode_from_data_key(values, &data_key, &spans, out));
        self.data_key = data_key;
        self.spans = spans;
        built
    }

    /// Append to `out` the index row key of the record with `values` (in field order) whose
    /// data row key, already built, is `data_key` with its columns at `spans` ([`data_spans`]):
    /// what a reading of many rows calls, the data key built and split once for all the
    /// table's indexes. Nothing is allocated for the key itself; a cell column's stored bytes
    /// are converted from its value.
    pub fn encode_from_data_key(
        &mut self,
        values: &[crate::keyspec::FieldValue],
        data_key: &[u8],
        spans: &[(usize, usize)],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let null = crate::keyspec::FieldValue::Null;
        self.cell_bytes.resize_with(self.cells.len(), Vec::new);
        for ((pos, col, ty, e), slot) in self.cells.iter().zip(self.cell_bytes.iter_mut()) {
            let v = values.get(*pos).unwrap_or(&null);
            let pv = crate::keyspec::phoenix::to_phoenix(col, *ty, v)?;
            let stored = crate::hbase::phoenix::assign_value(col, pv.as_ref())?;
            // an indexed expression: the bytes Phoenix's evaluation leaves (whatever it answers)
            *slot = match e {
                Some(e) => e.evaluate(&stored)?.0,
                None => stored,
            };
        }
        let region = self.shape.local_index_id.map(|_| {
            let r = self
                .split_keys
                .partition_point(|k| k.as_slice() <= data_key);
            let start = r.checked_sub(1).and_then(|p| self.split_keys.get(p));
            let end = self.split_keys.get(r);
            (
                start.map_or(&[][..], Vec::as_slice),
                end.map_or(&[][..], Vec::as_slice),
            )
        });
        self.plan
            .build_into(data_key, spans, &self.cell_bytes, region, out)
    }

    /// The index row key of one JSON record (field name to value, as keys take them).
    pub fn encode_json(
        &mut self,
        fields: &[crate::keyspec::Field],
        record: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Vec<u8>> {
        let values = fields
            .iter()
            .map(|f| match record.get(&f.name) {
                Some(v) => crate::keyspec::FieldValue::from_json(&f.name, f.field_type, v),
                None => Ok(crate::keyspec::FieldValue::Null),
            })
            .collect::<Result<Vec<_>>>()?;
        let mut out = Vec::new();
        self.encode_values_into(&values, &mut out)?;
        Ok(out)
    }
}

/// Where each column of `shape`'s data table is in `data_key` (one of the table's row keys),
/// written to `spans`: what [`IndexEncoder::encode_from_data_key`] copies the data key's
/// columns from, shared by every index of the table.
pub fn data_spans(
    shape: &IndexKeyShape,
    data_key: &[u8],
    spans: &mut Vec<(usize, usize)>,
) -> Result<()> {
    crate::hbase::phoenix::decode::column_spans(&shape.data, data_key, spans).map(|_| ())
}
