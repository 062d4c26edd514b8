//! The keys of a user's rows: every row's key (`encode --records`, Python's `encode`, Spark's
//! `encode_df`) and the split keys that cut them into regions of equal rows or bytes, exact
//! from every key or from a sort done elsewhere (Spark's).

use super::super::*;
use crate::rows::RowScan;

use super::super::row_fields;

/// Every row's key of `batches`, as `encode --records` gives them: the keys end to end and
/// where each ends (`rows + 1` offsets from 0), and what reading found.
pub fn encode_batches(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
) -> Result<(Vec<u8>, Vec<u32>, crate::rows::RowStats)> {
    let Some(first) = batches.first() else {
        return Err(Error::new(ErrorKind::Invalid, "no record batches"));
    };
    encode_stream(
        doc,
        rows,
        (&first.schema(), batches.iter().map(|b| Ok(b.clone()))),
    )
}

/// [`encode_batches`] over batches as a stream hands them over, each encoded and dropped
/// before the next is read: memory holds the keys and one batch, and a stream that does not
/// end stops at the keys' 4 GiB. `schema` is the stream's.
pub fn encode_stream(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    (schema, batches): (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<arrow_array::RecordBatch>>,
    ),
) -> Result<(Vec<u8>, Vec<u32>, crate::rows::RowStats)> {
    stream_keys(doc, rows, (schema, batches), false)
}

/// [`encode_stream`] with each key followed by its row's 16-byte digest
/// ([`crate::keyspec::row_digest`]): how a rekey's verifier reads a table's export.
pub fn encode_stream_with_digests(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    (schema, batches): (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<arrow_array::RecordBatch>>,
    ),
) -> Result<(Vec<u8>, Vec<u32>, crate::rows::RowStats)> {
    stream_keys(doc, rows, (schema, batches), true)
}

fn stream_keys(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    (schema, batches): (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<arrow_array::RecordBatch>>,
    ),
    digests: bool,
) -> Result<(Vec<u8>, Vec<u32>, crate::rows::RowStats)> {
    let (fields, used, mut scan) = key_scan(doc, digests)?;
    let stats = crate::rows::stream_rows(schema, batches, &fields, &used, rows, &mut scan)?;
    let (keys, offsets) = scan.take_keys();
    Ok((keys, offsets, stats))
}

/// The design's fields as a reader takes them and a scan that keeps every row's key (and its
/// digest, with `digests`).
fn key_scan(
    doc: &DesignDocument,
    digests: bool,
) -> Result<(crate::rows::FieldList, Vec<usize>, RowScan)> {
    let (fields, used) = row_fields(doc)?;
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let scan = RowScan::new(Some(key));
    Ok((
        fields,
        used,
        if digests {
            scan.with_digests()
        } else {
            scan.with_keys()
        },
    ))
}

/// [`encode_batches`], and the rows (0-based) a `nulls: skip` left out, so a caller can keep
/// each key beside its own row.
pub fn encode_batches_skipped(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
) -> Result<(Vec<u8>, Vec<u32>, Vec<u64>)> {
    let (fields, used, mut scan) = key_scan(doc, false)?;
    let (_, skipped) = crate::rows::batch_rows_skipped(batches, &fields, &used, rows, &mut scan)?;
    let (keys, offsets) = scan.take_keys();
    Ok((keys, offsets, skipped))
}

/// The split keys that cut the rows of `batches` into `regions` regions of equal rows: every
/// row's key, sorted and cut as a `sampleQuantiles` pre-split cuts its sample, with HBase's
/// rules for split keys (no empty key, no repeat). Exact at any row count: every key is held.
pub fn split_batches(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
    regions: u32,
) -> Result<Vec<Vec<u8>>> {
    let (keys, offsets, _) = encode_batches(doc, rows, batches)?;
    split_keys_of(doc, &keys, &offsets, regions, crate::region::SplitBy::Rows)
}

/// The split keys that cut rows whose keys are `keys` (end to end, `offsets` as
/// [`encode_stream`] gives them) into `regions` regions of equal rows or bytes: what
/// [`split_batches`] and [`split_batches_by_bytes`] cut, for keys encoded from a stream.
pub fn split_keys_of(
    doc: &DesignDocument,
    keys: &[u8],
    offsets: &[u32],
    regions: u32,
    by: crate::region::SplitBy,
) -> Result<Vec<Vec<u8>>> {
    let mut all: Vec<&[u8]> = key_slices(keys, offsets).collect();
    match by {
        crate::region::SplitBy::Rows => {
            let all: Vec<Vec<u8>> = all.into_iter().map(<[u8]>::to_vec).collect();
            split_sample(doc, &all, regions)
        }
        crate::region::SplitBy::Bytes => {
            all.sort_unstable();
            cut_sorted_by_bytes(doc, &all, regions)
        }
    }
}

/// Each key of keys laid end to end with their `offsets` (`rows + 1`, from 0), as
/// [`encode_batches`] gives them.
fn key_slices<'a>(keys: &'a [u8], offsets: &'a [u32]) -> impl Iterator<Item = &'a [u8]> {
    offsets.windows(2).filter_map(|w| match w {
        [a, b] => keys.get(*a as usize..*b as usize),
        _ => None,
    })
}

/// A row's bytes as the analysis counts its write: its key and the workload's `valueSize`
/// (the default's when the design has no workload), so split points by bytes cut the regions
/// the report's bytes would show even.
pub fn write_bytes(doc: &DesignDocument, key_len: usize) -> u64 {
    let value_size = doc.workload.as_ref().map_or_else(
        || crate::workload::WorkloadSpec::default().value_size,
        |w| w.value_size,
    );
    (key_len as u64).saturating_add(value_size)
}

/// The split keys that cut the rows of `batches` into `regions` regions of equal bytes
/// ([`write_bytes`] per row): every key sorted, the cut ranks of
/// [`byte_cut_ranks`](crate::region::byte_cut_ranks), then cut with HBase's rules for split
/// keys as [`split_sample`] cuts (no empty key, no repeat). Exact: every key is held.
pub fn split_batches_by_bytes(
    doc: &DesignDocument,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
    regions: u32,
) -> Result<Vec<Vec<u8>>> {
    let (keys, offsets, _) = encode_batches(doc, rows, batches)?;
    split_keys_of(doc, &keys, &offsets, regions, crate::region::SplitBy::Bytes)
}

/// [`split_batches_by_bytes`]'s cut of keys already sorted.
fn cut_sorted_by_bytes(
    doc: &DesignDocument,
    sorted: &[&[u8]],
    regions: u32,
) -> Result<Vec<Vec<u8>>> {
    if sorted.is_empty() {
        return Err(Error::new(ErrorKind::Invalid, "no rows to cut"));
    }
    if regions == 0 {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a table has at least one region",
        ));
    }
    let bounds = doc.bucket_bounds();
    let keys =
        crate::region::cut_sorted_keys(sorted, &|k| write_bytes(doc, k.len()), regions, &bounds);
    crate::hbase::split::verify_split_keys(keys)
}

/// The split keys that cut `sample` (row keys, in any order) into `regions` regions of equal
/// rows, as a `sampleQuantiles` pre-split of `doc`'s layout cuts them (salt buckets kept
/// whole), with HBase's rules for split keys. Every key of a table gives its exact split
/// points; so does a cut's [`cut_summary`](crate::region::cut_summary).
pub fn split_sample(
    doc: &DesignDocument,
    sample: &[Vec<u8>],
    regions: u32,
) -> Result<Vec<Vec<u8>>> {
    if sample.is_empty() {
        return Err(Error::new(ErrorKind::Invalid, "no rows to cut"));
    }
    let layout = crate::region::RegionLayout {
        presplit: crate::region::PreSplit::SampleQuantiles {
            regions,
            sample: None,
            by: crate::region::SplitBy::Rows,
        },
        ..doc.regions.clone().unwrap_or_default()
    };
    // by rows: no row's bytes are weighed
    layout.split_keys_in(sample, 0, &doc.bucket_bounds())
}

/// Each salt bucket's rows and bytes ([`write_bytes`]) among `keys` (one bucket without a
/// salt): what a sort done elsewhere (Spark) sums, per bucket, before it picks its cuts.
pub fn bucket_weights<'a>(
    doc: &DesignDocument,
    keys: impl IntoIterator<Item = &'a [u8]>,
) -> Vec<(u64, u64)> {
    let bounds = doc.bucket_bounds();
    let buckets = crate::region::Buckets::new(&bounds);
    let mut out = vec![(0u64, 0u64); bounds.len() + 1];
    for k in keys {
        if let Some((n, w)) = out.get_mut(buckets.of(k)) {
            *n += 1;
            *w = w.saturating_add(write_bytes(doc, k.len()));
        }
    }
    out
}

/// The cut of `doc`'s rows into `regions` regions whose salt buckets weigh `weights` (rows or
/// bytes, one entry a bucket, summed by [`bucket_weights`] over every row): where each cut
/// inside a bucket falls ([`CutTarget`](crate::region::CutTarget)), for a sort done elsewhere
/// to pick its keys. An error when the weights are not one a bucket.
pub fn cut_targets(
    doc: &DesignDocument,
    weights: &[u64],
    regions: u32,
) -> Result<Vec<crate::region::CutTarget>> {
    Ok(checked_plan(doc, weights, regions)?.1.targets)
}

/// The key's bucket starts and the plan of the cut, the weights checked (one a bucket) and the
/// region count (at least one): what [`cut_targets`] and [`cut_picked`] both start from.
fn checked_plan(
    doc: &DesignDocument,
    weights: &[u64],
    regions: u32,
) -> Result<(Vec<Vec<u8>>, crate::region::CutPlan)> {
    let bounds = doc.bucket_bounds();
    if weights.len() != bounds.len() + 1 {
        return Err(Error::arg(
            "weights",
            format!(
                "{} weights for a key of {} salt bucket(s): one a bucket",
                weights.len(),
                bounds.len() + 1
            ),
        ));
    }
    if regions == 0 {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a table has at least one region",
        ));
    }
    let plan = crate::region::plan_cut(weights, regions);
    Ok((bounds, plan))
}

/// The split keys of the cut [`cut_targets`] plans, from the keys a sort picked: the smallest
/// row's key and the key at each target (`picks`, by target index; a target no row fell on
/// left out), with HBase's rules for split keys. Every bucket start the plan takes is a split
/// key whatever was picked.
pub fn cut_picked(
    doc: &DesignDocument,
    weights: &[u64],
    regions: u32,
    smallest: Option<&[u8]>,
    picks: &std::collections::HashMap<usize, Vec<u8>>,
) -> Result<Vec<Vec<u8>>> {
    let (bounds, plan) = checked_plan(doc, weights, regions)?;
    if smallest.is_none() && weights.iter().all(|&w| w == 0) {
        return Err(Error::new(ErrorKind::Invalid, "no rows to cut"));
    }
    let at: Vec<Option<&[u8]>> = (0..plan.targets.len())
        .map(|t| picks.get(&t).map(Vec::as_slice))
        .collect();
    crate::hbase::split::verify_split_keys(crate::region::assemble_cut(
        &bounds, &plan, smallest, &at,
    ))
}
