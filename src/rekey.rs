//! Rekey: the move from the key a table has to the key it should have. A row key cannot be
//! changed in place, so a rekey is a new table, pre-split and filled by a bulk load from the
//! old one while writes continue (`docs/rekey.md`). The plan is computed from what the engine
//! already knows byte for byte: both designs, and both designs' analyses of the same rows (the
//! new one cut at split points from those rows re-encoded, by rows or by bytes). It checks that
//! every field the new key reads can be had, sizes the job as HBase's bulk-load tools will run
//! it (one reducer per new region, HFiles rolled at `hbase.hregion.max.filesize`, at most 32 a
//! region and family), and prints the statements and the cutover checklist with the numbers in.
//!
//! The figures are exact over the rows given (their KeyValue bytes as HBase counts a cell:
//! 20 + row + family + qualifier + value); the time is an estimate from throughputs the caller
//! gives or the defaults [`RekeyOptions`] states.

use serde::Serialize;

use crate::analyze::AnalysisReport;
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::to_string_binary;

mod fields;
mod figures;
mod jobs;
pub(crate) mod read;
pub mod rows;
mod salt;
pub mod series;
mod text;
pub mod verify;

pub use fields::{field_sources, FieldSource, Source};
pub use figures::{
    DiagnosisFigures, IndexFigures, MetricsFigures, OverallFigures, RegionFigures, ReportFigures,
};
pub use jobs::Jobs;
pub use rows::{cut_at_rows, rekey_over_rows, RekeyReading, RowsCut, RowsRekeyPlan, RowsSide};
#[cfg(feature = "rows")]
pub use rows::{rekey_reading, rekey_rows, FileRows, RekeyRows, RowsInto};
pub use salt::{moved_share, salt_what_if, ReadChange, SaltWhatIf};
pub use series::{rekey_from_series, SeriesEstimate, SeriesRekeyPlan};

/// `KeyValue`'s fixed bytes per cell: key length 4, value length 4, row length 2, family
/// length 1, timestamp 8, type 1 (`KeyValue.KEYVALUE_INFRASTRUCTURE_SIZE` + the key's fixed
/// part).
pub const KEY_VALUE_FIXED: u64 = crate::hbase::store::KEY_VALUE_FIXED;

/// What the job sizing assumes; every member has a default (HBase's, or a stated guess).
/// Read from JSON by `rekey::read::rekey_options` (also serde's `Deserialize`, through it).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RekeyOptions {
    /// The column family the cells are in (its name's bytes are in every cell).
    pub family: String,
    /// Qualifier bytes per cell; absent, from the new design's `cells` (a fixed qualifier's
    /// name, OpenTSDB's 2-byte offsets) or 1.
    pub qualifier_bytes: Option<u32>,
    /// `hbase.hregion.max.filesize`: an HFile writer rolls to a new file past it (10 GiB).
    pub max_file_size: u64,
    /// `hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily` (32).
    pub max_hfiles: u32,
    /// HDFS replication of what is written (3).
    pub replication: u32,
    /// On-disk bytes per uncompressed byte (1: no compression or encoding; measure yours).
    pub compression: f64,
    /// Tasks running at once (mappers, then reducers): 8 unless given.
    pub parallelism: u32,
    /// MiB/s a map task reads and re-encodes (100 unless given).
    pub read_mib_per_sec: f64,
    /// MiB/s a reducer sorts and writes HFiles (50 unless given).
    pub write_mib_per_sec: f64,
    /// The tables' names in the statements.
    pub old_table: String,
    /// The new table's name; absent, the old one's with `_new`.
    pub new_table: Option<String>,
    /// The columns the rows have (a file's header): a field the old key does not give back
    /// can come from one of these. Absent: only the old key's fields.
    pub columns: Option<Vec<String>>,
}

impl Default for RekeyOptions {
    fn default() -> Self {
        RekeyOptions {
            family: "cf".into(),
            qualifier_bytes: None,
            max_file_size: 10 * (1 << 30),
            max_hfiles: 32,
            replication: 3,
            compression: 1.0,
            parallelism: 8,
            read_mib_per_sec: 100.0,
            write_mib_per_sec: 50.0,
            old_table: "t".into(),
            new_table: None,
            columns: None,
        }
    }
}

/// A split key as `splits --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitKey {
    /// Two hex digits a byte.
    pub hex: String,
    /// `Bytes.toStringBinary` text.
    pub binary: String,
}

/// One region of the new table, as the bulk load fills it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewRegion {
    /// Its start key (toStringBinary; empty: the table's start).
    pub start_key: String,
    /// Its end key (empty: the table's end).
    pub end_key: String,
    /// Rows (writes) it receives.
    pub rows: u64,
    /// KeyValue bytes it receives, uncompressed.
    pub bytes: u64,
    /// Its share of the bytes.
    pub share: f64,
    /// HFiles its reducer writes for the family: ⌈bytes / maxFileSize⌉ (0 for no rows).
    pub hfiles: u64,
}

/// The job, sized before it runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSizing {
    /// Rows moved.
    pub rows: u64,
    /// KeyValue bytes read from the old table (its row keys), uncompressed.
    pub bytes_read: u64,
    /// Bytes shuffled: the new cells, once (the sort by the new key).
    pub bytes_shuffled: u64,
    /// KeyValue bytes written to the new table, uncompressed.
    pub bytes_written: u64,
    /// Bytes on HDFS after the load: written × compression × replication.
    pub hdfs_bytes: u64,
    /// HDFS bytes both tables hold while the move runs (the old table's and the new one's).
    pub space_during_move: u64,
    /// Reducers (MapReduce) or partitions (Spark): one per new region.
    pub reducers: usize,
    /// The most HFiles a region receives for the family.
    pub max_hfiles_per_region: u64,
    /// Regions over `hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily`: the load
    /// refuses them.
    pub regions_over_hfile_limit: usize,
    /// The region with the most bytes (index into the plan's regions).
    pub straggler: usize,
    /// Its share of the bytes.
    pub straggler_share: f64,
    /// Seconds the job takes, estimated: the map phase (bytes read over `parallelism` tasks at
    /// `readMibPerSec`) then the reduce phase (the written bytes over `parallelism` reducers at
    /// `writeMibPerSec`, and never less than the straggler's own bytes at that rate).
    pub seconds: f64,
    /// How [`seconds`](Self::seconds) was estimated, with the throughputs used.
    pub estimate: String,
}

/// A design on the same rows, before or after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SideSummary {
    /// Regions at the end of its run.
    pub regions: usize,
    /// Its hotspot factor over the whole run (busiest region ÷ mean).
    pub hotspot: f64,
    /// Its hotspot factor per time window, averaged: what the text shows beside the headline,
    /// which speaks of the windows too (a moving hotspot has 1.0 over the run).
    pub hotspot_per_window: f64,
    /// Its effective parallelism.
    pub effective_parallelism: f64,
    /// Its diagnosis' headline.
    pub headline: String,
    /// Each of its Phoenix indexes on the same rows, in the design's order (empty without).
    pub indexes: Vec<IndexSummary>,
}

/// A Phoenix index of a design on the same rows, before or after: an index key ends with the
/// data key's columns and takes a salted table's buckets, so a new data key moves its indexes
/// too.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexSummary {
    /// The index name.
    pub name: String,
    /// Its kind.
    pub kind: crate::design::phoenix::IndexKind,
    /// Regions of its own (0 for a local index: its rows are in the data table's).
    pub regions: usize,
    /// Mean over the windows of the busiest region's share of its writes.
    pub busiest_share: f64,
    /// Its hotspot factor per time window, averaged.
    pub hotspot_per_window: f64,
    /// Its table's diagnosis' headline (a local index: empty, the data table's is its own).
    pub headline: String,
}

/// The plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RekeyPlan {
    /// Where each field the new key reads comes from.
    pub fields: Vec<FieldSource>,
    /// Every field has a source: the job can run.
    pub ready: bool,
    /// The new table's split keys (the new design's pre-split over the rows).
    pub split_keys: Vec<SplitKey>,
    /// The new table's regions as the load fills them.
    pub regions: Vec<NewRegion>,
    /// The job.
    pub job: JobSizing,
    /// The old design on the rows.
    pub old: SideSummary,
    /// The new design on the same rows.
    pub new: SideSummary,
    /// The HBase shell's `create` of the new table.
    pub create: String,
    /// The split keys as an HBase shell SPLITS_FILE.
    pub splits_file: String,
    /// Phoenix's `CREATE TABLE … SPLIT ON` when the new design is a Phoenix table.
    pub phoenix: Option<String>,
    /// What to watch: timestamps, TTL, fields the old key cannot give, HFile limits.
    pub warnings: Vec<String>,
    /// The cutover, step by step, with the numbers in.
    pub checklist: Vec<String>,
    /// When both keys open with a salt of different bucket counts: what changing it moves.
    pub salt: Option<SaltWhatIf>,
    /// The job's text for Spark, MapReduce (a template) and Phoenix.
    pub jobs: Jobs,
}

/// Qualifier bytes per cell of `doc`'s cells.
fn qualifier_bytes(doc: &DesignDocument, opts: &RekeyOptions) -> u64 {
    use crate::design::Qualifier;
    if let Some(q) = opts.qualifier_bytes {
        return u64::from(q);
    }
    match doc.cells.as_ref().map(|c| &c.qualifier) {
        Some(Qualifier::Fixed { name }) => name.len() as u64,
        Some(Qualifier::TimeOffset { .. }) => 2,
        _ => 1,
    }
}

/// KeyValue bytes of `rows` writes whose row and value bytes (as the analysis counts them) are
/// `bytes`.
fn kv_bytes(rows: u64, bytes: u64, per_cell: u64) -> u64 {
    bytes.saturating_add(rows.saturating_mul(per_cell))
}

fn check(opts: &RekeyOptions) -> Result<()> {
    let bad = |what: &str, why: &str| Err(Error::arg(what, format!("{what}: {why}")));
    // the names go into the printed statements (shell, Spark, Java, Phoenix): only names
    // HBase accepts, which no statement's quoting can be broken by
    use crate::hbase::names::{family_name_error, table_name_error};
    let named = |what: &str, (at, why): (usize, String)| {
        Err(Error::arg(what, format!("{what}: {why}")).at_offset(at))
    };
    if let Some(e) = family_name_error(&opts.family) {
        return named("family", e);
    }
    // a KeyValue holds its family's length in a signed byte (KeyValue.checkParameters)
    if opts.family.len() > 127 {
        return bad("family", "a column family name of at most 127 bytes");
    }
    if let Some(e) = table_name_error(&opts.old_table) {
        return named("oldTable", e);
    }
    if let Some(e) = opts.new_table.as_deref().and_then(table_name_error) {
        return named("newTable", e);
    }
    if opts.max_file_size == 0 {
        return bad("maxFileSize", "more than 0 bytes");
    }
    if opts.max_hfiles == 0 {
        return bad("maxHfiles", "at least 1");
    }
    if !(1..=10).contains(&opts.replication) {
        return bad("replication", "1 to 10");
    }
    if !(opts.compression.is_finite() && opts.compression > 0.0 && opts.compression <= 10.0) {
        return bad("compression", "a factor above 0, at most 10");
    }
    if !(1..=100_000).contains(&opts.parallelism) {
        return bad("parallelism", "1 to 100,000 tasks");
    }
    for (what, v) in [
        ("readMibPerSec", opts.read_mib_per_sec),
        ("writeMibPerSec", opts.write_mib_per_sec),
    ] {
        if !(v.is_finite() && v > 0.0 && v <= 1e6) {
            return bad(what, "MiB/s above 0, at most 1,000,000");
        }
    }
    Ok(())
}

/// The throughputs and parallelism are the defaults (a guess to replace with measured ones).
fn assumed(opts: &RekeyOptions) -> bool {
    let d = RekeyOptions::default();
    opts.parallelism == d.parallelism
        && opts.read_mib_per_sec == d.read_mib_per_sec
        && opts.write_mib_per_sec == d.write_mib_per_sec
}

fn side(r: &ReportFigures) -> SideSummary {
    SideSummary {
        regions: r.regions.len(),
        hotspot: r.metrics.overall.hotspot_factor,
        hotspot_per_window: r.metrics.mean_hotspot_factor,
        effective_parallelism: r.metrics.overall.effective_parallelism,
        headline: r.diagnosis.first().cloned().unwrap_or_default(),
        indexes: r
            .indexes
            .iter()
            .map(|x| IndexSummary {
                name: x.name.clone(),
                kind: x.kind,
                regions: x.regions_of_its_own,
                busiest_share: x.busiest_share,
                hotspot_per_window: x.hotspot_factor,
                headline: x
                    .report
                    .as_ref()
                    .and_then(|t| t.diagnosis.first().cloned())
                    .unwrap_or_default(),
            })
            .collect(),
    }
}

/// The plan for moving the rows `old_report` analysed under `old` to `new`, whose analysis of
/// the same rows is `new_report` (its regions: the new table's, cut by its pre-split).
pub fn rekey_plan(
    old: &DesignDocument,
    new: &DesignDocument,
    old_report: &AnalysisReport,
    new_report: &AnalysisReport,
    opts: &RekeyOptions,
) -> Result<RekeyPlan> {
    rekey_plan_from(old, new, &old_report.into(), &new_report.into(), opts)
}

/// [`rekey_plan`] on the old design's generated workload: both designs run the same records
/// (the new one takes the old one's workload, as a comparison runs its designs), each on its
/// own layout. What the page plans from Compare, where no file of rows is open.
pub fn rekey_on_workload(
    old: &DesignDocument,
    new: &DesignDocument,
    analyze: &crate::analyze::AnalyzeOptions,
    opts: &RekeyOptions,
) -> Result<RekeyPlan> {
    let mut on_old = new.clone();
    if old.workload.is_some() {
        on_old.workload = old.workload.clone();
    }
    // The new table is its create statement's regions, one reducer each: the analysis's
    // auto-split (sized to split minutes of writes) would plan regions the create never makes.
    if let Some(r) = on_old.regions.as_mut() {
        r.auto_split = None;
    }
    let a = crate::analyze::analyze(old, analyze)?;
    let b = crate::analyze::analyze(&on_old, analyze).map_err(|e| {
        let at = format!("newDoc{}", e.location.path.as_deref().unwrap_or_default());
        e.at_path(at)
    })?;
    rekey_plan(old, &on_old, &a, &b, opts)
}

/// [`rekey_plan`] from the figures of the two reports ([`ReportFigures`]).
pub fn rekey_plan_from(
    old: &DesignDocument,
    new: &DesignDocument,
    old_report: &ReportFigures,
    new_report: &ReportFigures,
    opts: &RekeyOptions,
) -> Result<RekeyPlan> {
    check(opts)?;
    if old_report.writes != new_report.writes {
        return Err(Error::new(
            ErrorKind::IllegalArgument,
            format!(
                "the two analyses are of different rows: {} writes under the old design, {} under the new",
                old_report.writes, new_report.writes
            ),
        ));
    }
    let fields = field_sources(old, new, opts.columns.as_deref())?;
    let ready = fields.iter().all(|f| f.from != Source::Missing);
    let family = opts.family.len() as u64;
    let per_new = KEY_VALUE_FIXED + family + qualifier_bytes(new, opts);
    let per_old = KEY_VALUE_FIXED + family + qualifier_bytes(old, opts);
    let written = kv_bytes(new_report.writes, new_report.bytes, per_new);
    let read = kv_bytes(old_report.writes, old_report.bytes, per_old);
    let regions: Vec<NewRegion> = new_report
        .regions
        .iter()
        .map(|r| {
            let bytes = kv_bytes(r.writes, r.bytes, per_new);
            NewRegion {
                start_key: r.start_key.clone(),
                end_key: r.end_key.clone(),
                rows: r.writes,
                bytes,
                share: if written > 0 {
                    bytes as f64 / written as f64
                } else {
                    0.0
                },
                hfiles: bytes.div_ceil(opts.max_file_size),
            }
        })
        .collect();
    let job = job_sizing(&regions, new_report.writes, read, written, opts);
    let keys: Vec<Vec<u8>> = new_report
        .presplit_keys_hex
        .iter()
        .map(|h| crate::hbase::bytes::from_hex(h))
        .collect::<Result<_>>()?;
    let split_keys = keys
        .iter()
        .map(|k| SplitKey {
            hex: crate::hbase::bytes::to_hex(k),
            binary: to_string_binary(k),
        })
        .collect();
    let versions = new.cells.as_ref().map(|c| c.versions).filter(|&v| v != 1);
    let create =
        crate::hbase::shell::shell_create_with(&new_table(opts), &opts.family, versions, &keys)?;
    let splits_file = crate::hbase::shell::splits_file(&keys)?;
    let bounds = new.bucket_bounds();
    let phoenix = new.phoenix.as_ref().and_then(|_| {
        let mut doc = new.clone();
        let layout = doc.regions.get_or_insert_with(Default::default);
        // Phoenix splits a salted table at its buckets itself and refuses SPLIT ON with it
        layout.presplit = if bounds.is_empty() {
            crate::region::PreSplit::Explicit {
                keys: keys.iter().map(|k| to_string_binary(k)).collect(),
                encoding: crate::region::KeyEncoding::StringBinary,
            }
        } else {
            crate::region::PreSplit::None
        };
        crate::design::phoenix::print_create_table(&doc).ok()
    });
    let salt = salt_what_if(old, new)?;
    let jobs = jobs::jobs(
        old,
        new,
        &keys,
        &opts.old_table,
        &new_table(opts),
        &opts.family,
    );
    let mut warnings = text::warnings(&fields, &job, opts, new);
    if phoenix.is_some() && !bounds.is_empty() && keys != bounds {
        // the split is made on the Phoenix table's own HBase table
        let table = new
            .phoenix
            .as_ref()
            .map_or_else(|| new_table(opts), |p| p.table.clone());
        warnings.push(text::phoenix_salted_splits(&keys, &bounds, &table));
    }
    let checklist = text::checklist(&job, opts, new_report, keys.len());
    Ok(RekeyPlan {
        fields,
        ready,
        split_keys,
        regions,
        job,
        old: side(old_report),
        new: side(new_report),
        create,
        splits_file,
        phoenix,
        warnings,
        checklist,
        salt,
        jobs,
    })
}

/// The move's job over the new table's `regions`: `rows` rows, `read` KeyValue bytes read from
/// the old table, `written` written to the new, sized by the throughputs and parallelism of
/// `opts` (the largest region's reducer is the floor of the reduce).
fn job_sizing(
    regions: &[NewRegion],
    rows: u64,
    read: u64,
    written: u64,
    opts: &RekeyOptions,
) -> JobSizing {
    let (straggler, top) = regions
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.bytes.cmp(&b.1.bytes).then(b.0.cmp(&a.0)))
        .map_or((0, 0), |(i, r)| (i, r.bytes));
    let max_hfiles = regions.iter().map(|r| r.hfiles).max().unwrap_or(0);
    let over = regions
        .iter()
        .filter(|r| r.hfiles > u64::from(opts.max_hfiles))
        .count();
    let on_disk = |b: u64| (b as f64 * opts.compression * f64::from(opts.replication)) as u64;
    let mib = (1u64 << 20) as f64;
    let par = f64::from(
        opts.parallelism
            .min(u32::try_from(regions.len()).unwrap_or(u32::MAX))
            .max(1),
    );
    let map_s = read as f64 / mib / (opts.read_mib_per_sec * f64::from(opts.parallelism));
    let reduce_s = (written as f64 / mib / (opts.write_mib_per_sec * par))
        .max(top as f64 / mib / opts.write_mib_per_sec);
    JobSizing {
        rows,
        bytes_read: read,
        bytes_shuffled: written,
        bytes_written: written,
        hdfs_bytes: on_disk(written),
        space_during_move: on_disk(written).saturating_add(on_disk(read)),
        reducers: regions.len(),
        max_hfiles_per_region: max_hfiles,
        regions_over_hfile_limit: over,
        straggler,
        straggler_share: regions.get(straggler).map_or(0.0, |r| r.share),
        seconds: map_s + reduce_s,
        estimate: format!(
            "map: {read} bytes read by {p} tasks at {r} MiB/s each; reduce: {written} bytes by {n} reducers at {w} MiB/s each, at least the largest region's {top} bytes at {w} MiB/s (throughputs {given})",
            p = opts.parallelism,
            r = opts.read_mib_per_sec,
            n = par,
            w = opts.write_mib_per_sec,
            given = if assumed(opts) { "assumed: give yours" } else { "given" },
        ),
    }
}

/// The name of a snapshot of `table`: the table's with `suffix`, its namespace's `:` as `_`
/// (a snapshot name is a table qualifier alone: HBase refuses `:` in it).
pub(super) fn snapshot_name(table: &str, suffix: &str) -> String {
    format!("{}{suffix}", table.replace(':', "_"))
}

/// The new table's name: given, or the old one's with `_new`.
pub(super) fn new_table(opts: &RekeyOptions) -> String {
    opts.new_table
        .clone()
        .unwrap_or_else(|| format!("{}_new", opts.old_table))
}
