//! A design document's writes as the simulator's lanes: a sample of its workload run through
//! its key, cut into quantile buckets of the key space, tells how bytes fall over the keys
//! (each bucket an equal share of the sample) and over time (a bucket written all through the
//! sample spreads; one written in a short stretch lies on a key that moves with time). Runs of
//! buckets the first sixteenth of the sample writes are then the lanes that move with time:
//! one for a time-led key, one per salt bucket for `salt + time`.

use super::keys::{KeyModel, LaneOrder, LifeWorkload};
use super::options::LifeOptions;
use super::settings::LifeSettings;
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes;
use crate::keyspec::{CompiledKey, FieldValue};

use crate::workload::{WorkloadSpec, WorkloadStream, WriteOrder, WriteSample};

/// Records sampled from the design's workload.
const SAMPLE: u64 = 50_000;
/// The most key-space buckets of a spread key.
const BUCKETS: usize = 1024;
/// A bucket written over less than this share of the sample's time moves with time.
const ORDERED_SPAN: f64 = 0.5;

/// [`table_for`]'s answer: the table's design, the options left, for an index its name and the
/// note that says so, and for an index of an expression the keys its records are written under.
pub(crate) type TableFor<'a> = (
    std::borrow::Cow<'a, DesignDocument>,
    std::borrow::Cow<'a, LifeOptions>,
    Option<(String, String)>,
    Option<IndexKeys>,
);

/// The table whose months `options` ask for, and the options without that choice: the design's
/// own table, or with `"index": NAME` the Phoenix global index `NAME` as the table it is (its
/// key led by the indexed columns, its own pre-split, an index row's value bytes per write:
/// [`crate::analyze::index_value_bytes`]), written once per data write. A local index has no
/// table of its own (its rows are in the data table's regions) and is refused, named. The
/// third: the index's name and the note that says which table it is (`None`: the design's own);
/// the fourth, for an index of an expression, each generated record's index row key as Phoenix
/// builds it ([`crate::design::phoenix::IndexEncoder`], the expression evaluated over the column
/// it reads), where the index table's own key would read the expression's placeholder field,
/// which holds no value of it. Over a user's rows (`rows`) only the data table: the rows' keys are its keys.
pub(crate) fn table_for<'a>(
    doc: &'a DesignDocument,
    options: &'a LifeOptions,
    rows: bool,
) -> Result<TableFor<'a>> {
    use std::borrow::Cow;
    let Some(name) = options.index.as_deref() else {
        return Ok((Cow::Borrowed(doc), Cow::Borrowed(options), None, None));
    };
    let bad = |msg: String| Error::new(ErrorKind::Invalid, msg).at_path("/index");
    if rows {
        return Err(bad(
            "an index's months are simulated over the design's generated workload, not over a file of rows (whose keys are the data table's)".into(),
        ));
    }
    let indexes = doc
        .phoenix
        .as_ref()
        .map(|p| p.indexes.as_slice())
        .unwrap_or_default();
    let i = indexes.iter().position(|x| x.name == name).ok_or_else(|| {
        bad(format!(
            "the design has no index {}: {}",
            crate::support::json::quote(name),
            if indexes.is_empty() {
                "it declares no Phoenix indexes (phoenix.indexes)".to_string()
            } else {
                format!(
                    "its indexes are {}",
                    indexes
                        .iter()
                        .map(|x| x.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ))
    })?;
    if indexes[i].kind == crate::design::phoenix::IndexKind::Local {
        return Err(bad(format!(
            "{name} is a local index: its rows are in the data table's regions, which the data table's months simulate (leave index out)"
        )));
    }
    let keys = if indexes[i].columns.iter().any(|c| c.expression.is_some()) {
        Some((
            crate::design::phoenix::IndexEncoder::new(doc, i, &[])?,
            doc.fields.len(),
        ))
    } else {
        None
    };
    let mut table = crate::design::phoenix::index_design(doc, i)?;
    // (a design without a workload writes the default one: the index's the same, its values
    // an index row's)
    let value_bytes = crate::analyze::index_value_bytes(doc, i);
    let mut w = table.workload.clone().unwrap_or_default();
    w.value_size = value_bytes;
    table.workload = Some(w);
    let rest = options.without_index();
    // the report says which table it simulated, as it says every setting it ran with
    let note = format!(
        "the table: the Phoenix index {name}, its key the indexed columns then the data key's others, {} bytes of value per index row{}, one index row per data write",
        value_bytes,
        if indexes[i].include.is_empty() {
            ""
        } else {
            " (its INCLUDE columns at their types' widths: estimated)"
        }
    );
    Ok((
        Cow::Owned(table),
        Cow::Owned(rest),
        Some((name.to_string(), note)),
        keys,
    ))
}

/// An index's encoder and the data design's field count (the index table's records carry its
/// expressions' placeholder fields after them, which the encoder does not take).
pub(crate) type IndexKeys = (crate::design::phoenix::IndexEncoder, usize);

/// The settings a design implies (its region servers, split policy and the table's sizes, its
/// `hbase` section: TTL, compression, cell bytes, release line, normalizer, balancer) with
/// `options` over them, checked (an error names the member out of range).
///
/// The auto-split's cluster sizes (`maxFileSize`, `memstoreFlushSize`) are the analysis's,
/// scaled so that minutes of generated writes split (the new design's 4 MiB): months of a
/// real table run at HBase's (10 GiB, 128 MiB), as the region plan does, unless `options` or
/// the table's own `MAX_FILESIZE` / `MEMSTORE_FLUSHSIZE` say otherwise (scaled_sizes_note).
pub fn settings_for_design(doc: &DesignDocument, options: &LifeOptions) -> Result<LifeSettings> {
    let mut s = LifeSettings::default();
    if let Some(layout) = &doc.regions {
        s.servers = layout.region_servers;
        if let Some(a) = &layout.auto_split {
            s.policy = a.policy.clone();
            s.split = crate::hbase::policy::SplitConfig {
                max_file_size: s.split.max_file_size,
                memstore_flush_size: s.split.memstore_flush_size,
                ..a.config.clone()
            };
        }
    }
    // A Phoenix table's options, as HBase's descriptors take them from the statement; the
    // design's own `regions` and `hbase` members, where they say the same thing, win.
    if let Some(p) = &doc.phoenix {
        s.split.table_memstore_flush_size = s.split.table_memstore_flush_size.or(p
            .number_option("MEMSTORE_FLUSHSIZE")
            .and_then(|n| i64::try_from(n).ok()));
        s.normalizer.enabled = p
            .option("NORMALIZATION_ENABLED")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    }
    s.split.table_max_file_size = doc.table_max_file_size();
    s.ttl_seconds = doc.ttl_seconds();
    if let Some(t) = &doc.hbase {
        s.compression_ratio = t.compression_ratio;
        s.family_bytes = t.family_bytes;
        s.qualifier_bytes = t.qualifier_bytes;
        s.version = t.version;
        // (on when either says so: the section's member defaults to off)
        s.normalizer.enabled |= t.normalization_enabled;
        s.normalizer.merge_min_region_size_mb = t.normalizer_merge_min_region_size_mb;
        s.normalizer.split_enabled = t.normalizer_split_enabled;
        s.normalizer.merge_enabled = t.normalizer_merge_enabled;
        s.normalizer.merge_min_region_count = t.normalizer_merge_min_region_count;
        s.normalizer.merge_min_region_age_days = f64::from(t.normalizer_merge_min_region_age_days);
        s.normalizer.target_region_size_mb = t.normalizer_target_region_size_mb;
        s.normalizer.target_region_count = t.normalizer_target_region_count;
        s.normalizer.period_seconds = t.normalizer_period_seconds;
        s.balancer.slop = t.balancer_slop;
        s.balancer.enabled = t.balancer_enabled;
        s.balancer.period_seconds = t.balancer_period_seconds;
        s.compaction.policy = t.compaction_policy;
        s.compaction.ratio = t.compaction_ratio;
        s.compaction.min_files = t.compaction_min_files;
        s.compaction.max_files = t.compaction_max_files;
        s.compaction.major_period_hours = t.major_compaction_hours;
        s.compaction.major_jitter = t.major_compaction_jitter;
        s.compaction.periodic_flush_hours = t.periodic_flush_hours;
        s.compaction.checker_seconds = t.compaction_checker_seconds;
        s.region_split_limit = t.region_split_limit;
    }
    options.apply(&mut s);
    s.validate()?;
    Ok(s)
}

/// What the months left of the design's auto-split sizes, when it sets them apart from HBase's:
/// the note a report carries, so a user who meant them for the cluster knows where to say so.
pub(crate) fn scaled_sizes_note(doc: &DesignDocument, s: &LifeSettings) -> Option<String> {
    let c = &doc.regions.as_ref()?.auto_split.as_ref()?.config;
    let base = crate::hbase::policy::SplitConfig::default();
    if c.max_file_size == base.max_file_size && c.memstore_flush_size == base.memstore_flush_size {
        return None;
    }
    let mib = |b: i64| crate::support::num_text::fixed(b as f64 / (1u64 << 20) as f64, 0);
    Some(format!(
        "the design's auto-split sizes (split at {} MiB, flush at {} MiB) size the analysis's \
         minutes of writes; the months ran with split size {} MiB and flush size {} MiB: set \
         the table's MAX_FILESIZE and MEMSTORE_FLUSHSIZE (regions.autoSplit.config's \
         tableMaxFileSize, tableMemstoreFlushSize) or life's split options for others",
        mib(c.max_file_size),
        mib(c.memstore_flush_size),
        mib(s.split.desired_max_file_size()),
        crate::support::num_text::fixed(s.flush_size() / (1u64 << 20) as f64, 0),
    ))
}

/// The design's writes: its write rate, a cell of 20 + key + family + qualifier + value bytes
/// (the sample's mean key), its key model from a sample of its workload, and its pre-split.
pub fn workload_from_design(doc: &DesignDocument, s: &LifeSettings) -> Result<LifeWorkload> {
    workload_keyed(doc, s, None)
}

/// [`workload_from_design`], each record's key built by `index` when given (an expression
/// index's: [`table_for`]'s fourth; `doc` is then the index's table, whose fields start with
/// the data design's, in its order).
pub(crate) fn workload_keyed(
    doc: &DesignDocument,
    s: &LifeSettings,
    mut index: Option<IndexKeys>,
) -> Result<LifeWorkload> {
    doc.validate()?;
    let mut spec: WorkloadSpec = doc.workload.clone().unwrap_or_default();
    spec.records = spec.records.min(SAMPLE);
    let mut ck = CompiledKey::new(&doc.key, &doc.key_fields())?;
    let mut stream = WorkloadStream::new(&spec, &doc.fields)?;
    let mut values: Vec<FieldValue> = Vec::new();
    let mut keys: Vec<Vec<u8>> = Vec::new();
    while stream.next_values(&mut values).is_some() {
        let mut k = Vec::new();
        match index.as_mut() {
            Some((enc, n)) => {
                enc.encode_values_into(values.get(..*n).unwrap_or(&values), &mut k)?
            }
            None => ck.encode_values_into(&mut k, &values)?,
        }
        keys.push(k);
    }
    if keys.is_empty() {
        return Err(
            Error::new(ErrorKind::Invalid, "the workload writes no records")
                .at_path("/workload/records"),
        );
    }
    workload_from_keys(doc, s, keys, None)
}

/// A user's rows as the design's writes: their keys in write order (`sample`, the rows
/// session's), the design's write rate and value size, and its pre-split cut at the rows
/// (`split_keys`: the session's, exact from every row); with a note that says how the rows
/// were read.
pub fn workload_from_rows(
    doc: &DesignDocument,
    s: &LifeSettings,
    sample: &WriteSample,
    split_keys: &[Vec<u8>],
) -> Result<(LifeWorkload, String)> {
    let (keys, order) = sample.keys_in_write_order()?;
    let keys: Vec<Vec<u8>> = keys.into_iter().map(<[u8]>::to_vec).collect();
    let w = workload_from_keys(doc, s, keys, Some(split_keys))?;
    let note = rows_note(&order, &w);
    Ok((w, note))
}

/// What the simulation took from a user's rows, in words: how many, in which order, and a
/// warning when rows in key order without a time column were taken as written in that order.
fn rows_note(o: &WriteOrder, w: &LifeWorkload) -> String {
    let sample = if o.rows == 1 {
        "its one row".to_string()
    } else if o.kept as u64 == o.rows {
        format!("all {} rows", o.rows)
    } else {
        format!("an even sample of {} of the {} rows", o.kept, o.rows)
    };
    let order = match (o.by_time, o.span_ms) {
        (true, Some((a, b))) if b > a => {
            let days = (b - a) as f64 / 86_400_000.0;
            let rate = o.rows as f64 / ((b - a) as f64 / 1000.0);
            // two significant digits, however small
            let places = (1.0 - rate.log10().floor()).clamp(0.0, 9.0) as usize;
            format!(
                "in the order of their time column (they span {days:.1} days: {rate:.places$} rows/s, against the design's writeRate of {:.0}/s, which the simulation writes at)",
                w.writes_per_second
            )
        }
        (true, _) => "in the order of their time column".to_string(),
        (false, _) if o.key_sorted && o.rows > 1 => "in file order, which is key order: with no time column the rows are taken as written in key order (a key that grows with time); if the file is an export sorted by key, give its time column".to_string(),
        (false, _) => "in file order (no time column)".to_string(),
    };
    format!("the user's rows: keys from {sample}, {order}")
}

/// Keys in write order as the design's writes: its write rate, a cell of 20 + key + family +
/// qualifier + value bytes (the keys' mean), the key model, and the pre-split (`split_keys`,
/// else the design's layout cut at these keys) as coordinates.
fn workload_from_keys(
    doc: &DesignDocument,
    s: &LifeSettings,
    keys: Vec<Vec<u8>>,
    split_keys: Option<&[Vec<u8>]>,
) -> Result<LifeWorkload> {
    let spec: WorkloadSpec = doc.workload.clone().unwrap_or_default();
    let mean_key = keys.iter().map(Vec::len).sum::<usize>() as f64 / keys.len().max(1) as f64;
    let cell_bytes = s
        .cell_bytes()
        .mean_key_value(mean_key, spec.value_size as f64);
    let (model, sorted) = key_model(&keys);
    let split_keys = match split_keys {
        Some(k) => k.to_vec(),
        None => doc.regions.clone().unwrap_or_default().split_keys(&keys)?,
    };
    let presplit = presplit_coordinates(&split_keys, &sorted, &model);
    Ok(LifeWorkload {
        writes_per_second: spec.write_rate,
        cell_bytes,
        keys: model.model,
        presplit,
    })
}

/// The lanes found, with where each starts on the bucket axis.
struct Found {
    model: KeyModel,
    buckets: usize,
    /// Lane `i` covers buckets `lane_starts[i]..lane_starts[i + 1]`.
    lane_starts: Vec<usize>,
}

/// Keys in write order into lanes; also the sample's keys sorted.
fn key_model(keys: &[Vec<u8>]) -> (Found, Vec<Vec<u8>>) {
    let n = keys.len();
    let buckets = (n / 16).clamp(1, BUCKETS);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys.get(a).cmp(&keys.get(b)));
    // bucket[i]: the bucket of the record written i-th; equal counts per bucket.
    let mut bucket = vec![0usize; n];
    for (rank, &i) in order.iter().enumerate() {
        if let Some(b) = bucket.get_mut(i) {
            *b = rank * buckets / n;
        }
    }
    let sorted: Vec<Vec<u8>> = order.iter().filter_map(|&i| keys.get(i).cloned()).collect();
    let found = if buckets >= 2 && moves_with_time(&bucket, buckets) {
        ordered_lanes(&bucket, buckets)
    } else {
        Found {
            model: KeyModel::uniform(buckets),
            buckets,
            lane_starts: (0..=buckets).collect(),
        }
    };
    (found, sorted)
}

/// Whether most buckets are written in a short stretch of the sample (the median bucket's
/// first-to-last write spans less than `ORDERED_SPAN` of it).
fn moves_with_time(bucket: &[usize], buckets: usize) -> bool {
    let n = bucket.len();
    let mut first = vec![usize::MAX; buckets];
    let mut last = vec![0usize; buckets];
    for (i, &b) in bucket.iter().enumerate() {
        if let (Some(f), Some(l)) = (first.get_mut(b), last.get_mut(b)) {
            *f = (*f).min(i);
            *l = (*l).max(i);
        }
    }
    let mut spans: Vec<f64> = first
        .iter()
        .zip(&last)
        .filter(|(f, _)| **f != usize::MAX)
        .map(|(f, l)| (l - f) as f64 / (n.max(2) - 1) as f64)
        .collect();
    spans.sort_by(f64::total_cmp);
    spans.get(spans.len() / 2).copied().unwrap_or(1.0) < ORDERED_SPAN
}

/// The lanes of a key that moves with time: one per run of buckets the sample's first
/// sixteenth writes, ascending when the last sixteenth lies higher.
fn ordered_lanes(bucket: &[usize], buckets: usize) -> Found {
    let n = bucket.len();
    let head = (n / 16).max(1);
    let mut touched = vec![false; buckets];
    for &b in bucket.iter().take(head) {
        if let Some(t) = touched.get_mut(b) {
            *t = true;
        }
    }
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (b, &t) in touched.iter().enumerate() {
        if !t {
            continue;
        }
        match runs.last_mut() {
            Some(r) if r.1 + 1 == b => r.1 = b,
            _ => runs.push((b, b)),
        }
    }
    let tail_mean = mean(bucket.iter().skip(n - head).copied());
    let head_mean = mean(bucket.iter().take(head).copied());
    let order = if tail_mean >= head_mean {
        LaneOrder::Ascending
    } else {
        LaneOrder::Descending
    };
    // Ascending, a lane's run is its low end, so a lane starts at its run; descending, its
    // high end, so a lane starts just after the previous lane's run.
    let mut lane_starts = vec![0usize];
    for pair in runs.windows(2) {
        if let [a, b] = pair {
            lane_starts.push(match order {
                LaneOrder::Descending => a.1 + 1,
                _ => b.0,
            });
        }
    }
    lane_starts.push(buckets);
    let weights: Vec<f64> = lane_starts
        .windows(2)
        .map(|w| match w {
            [a, b] => (b - a) as f64,
            _ => 0.0,
        })
        .collect();
    Found {
        model: KeyModel {
            weights,
            order,
            prefix_lanes: runs.len() > 1,
        },
        buckets,
        lane_starts,
    }
}

fn mean(it: impl Iterator<Item = usize>) -> f64 {
    let (mut s, mut c) = (0.0, 0.0);
    for x in it {
        s += x as f64;
        c += 1.0;
    }
    if c > 0.0 {
        s / c
    } else {
        0.0
    }
}

/// Split keys as coordinates: a spread key's by their rank among the sample's keys; a key
/// that moves with time in lanes snaps each to the nearest lane boundary (inside a lane a key
/// written later has no place yet). Points at the ends or repeated are dropped.
fn presplit_coordinates(split_keys: &[Vec<u8>], sorted: &[Vec<u8>], f: &Found) -> Vec<f64> {
    let n = sorted.len().max(1) as f64;
    let lanes = f.model.weights.len();
    let mut out: Vec<f64> = Vec::new();
    for k in split_keys {
        let rank = bytes::lower_bound(sorted, k) as f64;
        let at = rank * f.buckets as f64 / n;
        let x = if f.model.order == LaneOrder::Spread {
            at
        } else {
            // The lane boundary nearest to `at` on the bucket axis.
            let i = f
                .lane_starts
                .iter()
                .enumerate()
                .min_by(|a, b| {
                    ((*a.1 as f64) - at)
                        .abs()
                        .total_cmp(&((*b.1 as f64) - at).abs())
                })
                .map_or(0, |(i, _)| i);
            i as f64
        };
        if x > 0.0 && x < lanes as f64 && out.last().map_or(true, |l| x > *l) {
            out.push(x);
        }
    }
    out
}
