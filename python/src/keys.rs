//! Row keys across the boundary: every row's key (`encode`), split keys cut from every key
//! (exact) or from Spark's sort, the bytes a run of sorted keys weighs, each key's region, and
//! the shell's texts of split keys. The rules are the engine's (`rowkey_lab::analyze`,
//! `rowkey_lab::region`, `rowkey_lab::hbase::shell`).

use arrow_array::RecordBatch;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use rowkey_lab::analyze as engine;
use rowkey_lab::error::Error;
use rowkey_lab::region::SplitBy;

use crate::arrow::{batches, each_key, stream};
use crate::design::{design, design_for, design_of, rows_options};
use crate::errors::{core, detached, py_error};

/// `encode(design, source, rows)`: every row's key as `(keys, offsets)`, the keys end to end
/// and the `rows + 1` little-endian u32 offsets where each starts and ends.
#[pyfunction]
#[pyo3(signature = (design_json, source, rows_json=None))]
fn encode<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let rows = rows_options(py, rows_json)?;
    // Batch by batch, each encoded and dropped before the next is read: a stream that does not
    // end stops at the keys' limit instead of holding every batch until memory runs out.
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let doc = design_for(py, design_json, &schema, &rows)?;
    let (keys, offsets, _) = core(
        py,
        detached(py, || engine::encode_stream(&doc, &rows, (&schema, reader))),
    )?;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    Ok((PyBytes::new(py, &keys), PyBytes::new(py, &offsets)))
}

/// Keys as Python takes them: the keys end to end, their offsets (little-endian u32s) and the
/// rows skipped (little-endian u64s): `encode_skipped`'s and `index_keys`' answer.
fn keys_out<'py>(
    py: Python<'py>,
    keys: &[u8],
    offsets: &[u32],
    skipped: &[u64],
) -> (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
) {
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let skipped: Vec<u8> = skipped.iter().flat_map(|o| o.to_le_bytes()).collect();
    (
        PyBytes::new(py, keys),
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &skipped),
    )
}

/// `encode_skipped(design, source, rows)`: `encode`'s keys and offsets, and the rows (0-based,
/// little-endian u64s) a `nulls: skip` left out, so each key can sit beside its own row.
#[pyfunction]
#[pyo3(signature = (design_json, source, rows_json=None))]
fn encode_skipped<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    let (keys, offsets, skipped) = core(
        py,
        detached(py, || engine::encode_batches_skipped(&doc, &rows, &batches)),
    )?;
    Ok(keys_out(py, &keys, &offsets, &skipped))
}

/// `index_keys(design, index, source, rows)`: every row's key in the table of the Phoenix
/// index named `index` (the engine's `encode_index_batches`: `IndexMaintainer`'s row key), as
/// `encode_skipped` gives the data keys: `(keys, offsets, skipped)`.
#[pyfunction]
#[pyo3(signature = (design_json, index, source, rows_json=None))]
fn index_keys<'py>(
    py: Python<'py>,
    design_json: &str,
    index: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    let (keys, offsets, skipped) = core(
        py,
        detached(py, || {
            engine::encode_index_batches(&doc, index, &rows, &batches)
        }),
    )?;
    Ok(keys_out(py, &keys, &offsets, &skipped))
}

/// `split_points(design, source, regions, rows, by)`: the keys that cut the rows into
/// `regions` regions of equal rows (`by="rows"`) or equal bytes (`"bytes"`: each row its key
/// and the design's value size), from every row's key (exact), as bytes in order. The stream is
/// read batch by batch: memory holds the keys and one batch.
#[pyfunction]
#[pyo3(signature = (design_json, source, regions, rows_json=None, by="rows"))]
fn split_points<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    regions: u32,
    rows_json: Option<&str>,
    by: &str,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let by = if by_rows(py, by)? {
        SplitBy::Rows
    } else {
        SplitBy::Bytes
    };
    let rows = rows_options(py, rows_json)?;
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let doc = design_for(py, design_json, &schema, &rows)?;
    let keys = core(
        py,
        detached(py, || {
            let (keys, offsets, _) = engine::encode_stream(&doc, &rows, (&schema, reader))?;
            engine::split_keys_of(&doc, &keys, &offsets, regions, by)
        }),
    )?;
    Ok(keys.iter().map(|k| PyBytes::new(py, k)).collect())
}

/// `buckets(design)`: how many salt buckets the key opens with (1 without a salt): a cut of
/// its rows keeps each bucket whole.
#[pyfunction]
fn buckets(py: Python<'_>, design_json: &str) -> PyResult<usize> {
    Ok(design(py, design_json)?.bucket_bounds().len() + 1)
}

/// `bucket_weights(design, source)`: each salt bucket's `(rows, bytes)` among the keys of
/// `source`'s first column (a row's bytes: its key's length and the design's value size): a
/// sorted partition's weight, bucket by bucket.
#[pyfunction]
fn bucket_weights(
    py: Python<'_>,
    design_json: &str,
    source: &Bound<'_, PyAny>,
) -> PyResult<Vec<(u64, u64)>> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let mut keys: Vec<Vec<u8>> = Vec::new();
    core(
        py,
        each_key(&batches, |k, _| {
            keys.push(k.to_vec());
            Ok(())
        }),
    )?;
    Ok(engine::bucket_weights(&doc, keys.iter().map(Vec::as_slice)))
}

/// `cut_ranks(design, weights, regions)`: where the cuts of rows weighing `weights` a bucket
/// (rows, every row weighing one) fall, as ranks of the sorted keys (what Spark picks from its
/// sort for `cut_picked`), in target order.
#[pyfunction]
fn cut_ranks(
    py: Python<'_>,
    design_json: &str,
    weights: Vec<u64>,
    regions: u32,
) -> PyResult<Vec<u64>> {
    let doc = design(py, design_json)?;
    let targets = core(py, engine::cut_targets(&doc, &weights, regions))?;
    Ok(targets.iter().map(|t| t.rank()).collect())
}

/// `target_cuts(design, weights, regions, before, source)`: the cuts (`cut_ranks`' targets,
/// by bytes or rows) that fall among the sorted keys of `source`'s first column, the rows
/// ahead of them weighing `before`: `(cuts, after)`, each cut `(target, index)`, and the
/// weight up to the last of these rows.
#[pyfunction]
#[pyo3(signature = (design_json, weights, regions, before, source, by="bytes"))]
fn target_cuts(
    py: Python<'_>,
    design_json: &str,
    weights: Vec<u64>,
    regions: u32,
    before: u64,
    source: &Bound<'_, PyAny>,
    by: &str,
) -> PyResult<(Vec<(usize, u64)>, u64)> {
    let doc = design(py, design_json)?;
    let targets = core(py, engine::cut_targets(&doc, &weights, regions))?;
    let batches = batches(py, source)?;
    let by_rows = by_rows(py, by)?;
    let mut sizes = Vec::new();
    core(
        py,
        each_key(&batches, |k, _| {
            sizes.push(if by_rows {
                1
            } else {
                engine::write_bytes(&doc, k.len())
            });
            Ok(())
        }),
    )?;
    let after = sizes.iter().fold(before, |t, s| t.saturating_add(*s));
    let cuts = rowkey_lab::region::target_cuts(before, &sizes, &targets);
    Ok((cuts, after))
}

/// `cut_picked(design, weights, regions, smallest, picks)`: the split keys of the cut
/// `cut_ranks` plans, from the smallest key and the keys picked at its targets (`picks`:
/// target index to key), with HBase's rules for split keys and every salt bucket start the
/// cut takes.
#[pyfunction]
fn cut_picked<'py>(
    py: Python<'py>,
    design_json: &str,
    weights: Vec<u64>,
    regions: u32,
    smallest: Option<Vec<u8>>,
    picks: std::collections::HashMap<usize, Vec<u8>>,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let doc = design(py, design_json)?;
    let keys = core(
        py,
        engine::cut_picked(&doc, &weights, regions, smallest.as_deref(), &picks),
    )?;
    Ok(keys.iter().map(|k| PyBytes::new(py, k)).collect())
}

/// `"rows"` or `"bytes"`, else an error that names `by`.
fn by_rows(py: Python<'_>, by: &str) -> PyResult<bool> {
    match by {
        "rows" => Ok(true),
        "bytes" => Ok(false),
        _ => Err(py_error(
            py,
            &Error::arg("by", format!("by=\"{by}\"; expected \"rows\" or \"bytes\"")),
        )),
    }
}

/// `shell_create(table, family, keys)`: the HBase shell's `create 'table', 'family', SPLITS =>
/// [...]` for split keys.
#[pyfunction]
fn shell_create(py: Python<'_>, table: &str, family: &str, keys: Vec<Vec<u8>>) -> PyResult<String> {
    if table.is_empty() {
        return Err(py_error(
            py,
            &Error::arg("table", "the table name is empty"),
        ));
    }
    core(
        py,
        rowkey_lab::hbase::shell::shell_create(table, family, &keys),
    )
}

/// `regions_of(split_keys, source)`: the region index of each key of `source`'s first column
/// (binary, large binary or binary view) in the table pre-split at `split_keys` (HBase's
/// `[start, end)` rule, its byte order), as little-endian u32s.
#[pyfunction]
fn regions_of<'py>(
    py: Python<'py>,
    split_keys: Vec<Vec<u8>>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let map = core(py, rowkey_lab::region::RegionMap::new(split_keys))?;
    let batches = batches(py, source)?;
    let out = core(py, detached(py, || key_regions(&map, &batches)))?;
    Ok(PyBytes::new(py, &out))
}

/// Each key's region (see `regions_of`); a null key or a column of another type is an error.
fn key_regions(
    map: &rowkey_lab::region::RegionMap,
    batches: &[RecordBatch],
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    each_key(batches, |k, _| {
        let r = u32::try_from(map.region_of(k)).unwrap_or(u32::MAX);
        out.extend_from_slice(&r.to_le_bytes());
        Ok(())
    })?;
    Ok(out)
}

/// `to_string_binary(key)`: HBase's `Bytes.toStringBinary` of a key.
#[pyfunction]
fn to_string_binary(key: &[u8]) -> String {
    rowkey_lab::hbase::bytes::to_string_binary(key)
}

/// `splits_file(keys)`: the SPLITS_FILE text of split keys, the engine's (the CLI's `splits`
/// writes the same): a key's leading and trailing spaces as `\x20`, which the shell's `strip`
/// of each line keeps.
#[pyfunction]
fn splits_file(py: Python<'_>, keys: Vec<Vec<u8>>) -> PyResult<String> {
    core(py, rowkey_lab::hbase::shell::splits_file(&keys))
}

/// This module's functions on the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(encode_skipped, m)?)?;
    m.add_function(wrap_pyfunction!(index_keys, m)?)?;
    m.add_function(wrap_pyfunction!(split_points, m)?)?;
    m.add_function(wrap_pyfunction!(to_string_binary, m)?)?;
    m.add_function(wrap_pyfunction!(splits_file, m)?)?;
    m.add_function(wrap_pyfunction!(buckets, m)?)?;
    m.add_function(wrap_pyfunction!(bucket_weights, m)?)?;
    m.add_function(wrap_pyfunction!(cut_ranks, m)?)?;
    m.add_function(wrap_pyfunction!(target_cuts, m)?)?;
    m.add_function(wrap_pyfunction!(cut_picked, m)?)?;
    m.add_function(wrap_pyfunction!(shell_create, m)?)?;
    m.add_function(wrap_pyfunction!(regions_of, m)?)?;
    Ok(())
}
