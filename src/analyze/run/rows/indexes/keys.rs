//! Every row's key of a reading in the table of one index of a Phoenix design
//! (`rowkey_lab.index_keys`, Spark's `with_index_key`), and an index found by its name.

use super::*;

/// The position of the index named `name` among `doc`'s Phoenix indexes; an error at `index`
/// naming those it has.
pub fn index_position(doc: &DesignDocument, name: &str) -> Result<usize> {
    let indexes = doc.phoenix.as_ref().map_or(&[][..], |p| &p.indexes[..]);
    indexes.iter().position(|x| x.name == name).ok_or_else(|| {
        let names: Vec<String> = indexes.iter().map(|x| format!("`{}`", x.name)).collect();
        Error::arg(
            "index",
            match names.is_empty() {
                true => format!("no index `{name}`: the design has no Phoenix indexes"),
                false => format!("no index `{name}`: the design's are {}", names.join(", ")),
            },
        )
    })
}

/// Every row's key of a reading, in the table of one index (`rowkey_lab.index_keys`, Spark's
/// `with_index_key`): the keys end to end, where each ends.
struct IndexKeys {
    encoder: IndexEncoder,
    keys: Vec<u8>,
    ends: Vec<u32>,
}

impl RowSink for IndexKeys {
    /// Append the row's index key; an error leaves the keys as they were.
    fn row(&mut self, values: &[FieldValue], _: Option<i64>) -> Result<()> {
        let start = self.keys.len();
        let built = self.encoder.encode_values_into(values, &mut self.keys);
        let end = built.and_then(|()| {
            u32::try_from(self.keys.len()).map_err(|_| {
                Error::new(
                    ErrorKind::Limit,
                    "the index keys of these rows passed 4 GiB: encode them in smaller parts",
                )
            })
        });
        match end {
            Ok(end) => {
                self.ends.push(end);
                Ok(())
            }
            Err(e) => {
                self.keys.truncate(start);
                Err(e)
            }
        }
    }
}

/// The index keys of index `name` of `doc` over a reading: the fields with its columns
/// required of the rows ([`analysis_fields`]' shape), and the sink that keeps the keys.
fn index_keys_of(doc: &DesignDocument, name: &str) -> Result<(AnalysisFields, IndexKeys)> {
    doc.validate()?;
    let i = index_position(doc, name)?;
    let local = doc
        .phoenix
        .as_ref()
        .and_then(|p| p.indexes.get(i))
        .is_some_and(|x| x.kind == IndexKind::Local);
    // a local index's rows start with their data region's start key: the table as created
    let split_keys = match local {
        true => super::super::initial_split_keys(doc)?,
        false => Vec::new(),
    };
    let encoder = IndexEncoder::new(doc, i, &split_keys)?;
    let sink = IndexKeys {
        encoder,
        keys: Vec::new(),
        ends: Vec::new(),
    };
    Ok((fields_read(doc, |j, _| j == i)?, sink))
}

/// Every row's key in the table of index `name` of `doc` (Phoenix's `IndexMaintainer` row key,
/// the bytes the index table stores), over Arrow batches: the keys
/// end to end, the `rows + 1` offsets from 0 where each starts and ends, and the rows (0-based)
/// a `nulls: skip` left out. A local index's keys start with the data region's start key of
/// the table as created (its pre-split).
pub fn encode_index_batches(
    doc: &DesignDocument,
    name: &str,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
) -> Result<(Vec<u8>, Vec<u32>, Vec<u64>)> {
    let ((fields, used, readers), mut sink) = index_keys_of(doc, name)?;
    let (_, skipped) = crate::rows::batch_rows_skipped(batches, &fields, &used, rows, &mut sink)
        .map_err(|e| readers_error(&readers, e))?;
    let mut offsets = Vec::with_capacity(sink.ends.len() + 1);
    offsets.push(0);
    offsets.append(&mut sink.ends);
    Ok((sink.keys, offsets, skipped))
}
