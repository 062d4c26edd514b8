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
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let skipped: Vec<u8> = skipped.iter().flat_map(|o| o.to_le_bytes()).collect();
    Ok((
        PyBytes::new(py, &keys),
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &skipped),
    ))
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
    let by = match by {
        "rows" => SplitBy::Rows,
        "bytes" => SplitBy::Bytes,
        _ => {
            return Err(py_error(
                py,
                &Error::arg("by", format!("by=\"{by}\"; expected \"rows\" or \"bytes\"")),
            ))
        }
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

/// `key_bytes(design, source)`: the bytes of the rows whose keys are `source`'s first column
/// (each its key's length and the design's value size): a sorted partition's weight.
#[pyfunction]
fn key_bytes(py: Python<'_>, design_json: &str, source: &Bound<'_, PyAny>) -> PyResult<u64> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let mut total = 0u64;
    core(
        py,
        each_key(&batches, |k, _| {
            total = total.saturating_add(engine::write_bytes(&doc, k.len()));
            Ok(())
        }),
    )?;
    Ok(total)
}

/// `byte_cuts(design, before, total, regions, source)`: the cuts by bytes
/// (`rowkey_lab::region::byte_cut_ranks`) that fall among the sorted keys of `source`'s first
/// column, the rows ahead of them weighing `before` bytes of `total`: `(cuts, after)`, each cut
/// `(j, index)`, and the bytes up to the last of these rows.
#[pyfunction]
fn byte_cuts(
    py: Python<'_>,
    design_json: &str,
    before: u64,
    total: u64,
    regions: u32,
    source: &Bound<'_, PyAny>,
) -> PyResult<(Vec<(u32, u64)>, u64)> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let mut sizes = Vec::new();
    core(
        py,
        each_key(&batches, |k, _| {
            sizes.push(engine::write_bytes(&doc, k.len()));
            Ok(())
        }),
    )?;
    let after = sizes.iter().fold(before, |t, s| t.saturating_add(*s));
    let cuts = rowkey_lab::region::byte_cut_ranks(before, sizes, total, regions);
    Ok((cuts, after))
}

/// `quantile_ranks(rows, regions)`: the ranks of the sorted keys that start regions 1.. of
/// equal rows (what Spark picks from its sort for `cut_sample`).
#[pyfunction]
fn quantile_ranks(rows: u64, regions: u32) -> Vec<u64> {
    rowkey_lab::region::quantile_ranks(rows, regions)
}

/// `cut_sample(design, sample, regions)`: the split keys that cut `sample` (row keys) into
/// `regions` regions of equal rows, with HBase's rules for split keys.
#[pyfunction]
fn cut_sample<'py>(
    py: Python<'py>,
    design_json: &str,
    sample: Vec<Vec<u8>>,
    regions: u32,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let doc = design(py, design_json)?;
    let keys = core(
        py,
        detached(py, || engine::split_sample(&doc, &sample, regions)),
    )?;
    Ok(keys.iter().map(|k| PyBytes::new(py, k)).collect())
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
    m.add_function(wrap_pyfunction!(split_points, m)?)?;
    m.add_function(wrap_pyfunction!(to_string_binary, m)?)?;
    m.add_function(wrap_pyfunction!(splits_file, m)?)?;
    m.add_function(wrap_pyfunction!(quantile_ranks, m)?)?;
    m.add_function(wrap_pyfunction!(key_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(byte_cuts, m)?)?;
    m.add_function(wrap_pyfunction!(cut_sample, m)?)?;
    m.add_function(wrap_pyfunction!(shell_create, m)?)?;
    m.add_function(wrap_pyfunction!(regions_of, m)?)?;
    Ok(())
}
