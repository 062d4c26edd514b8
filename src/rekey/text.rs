//! The plan's words: what to watch and the cutover checklist, with the plan's numbers in.

use super::{FieldSource, JobSizing, RekeyOptions, ReportFigures, Source};
use crate::design::DesignDocument;

/// Seconds as people read them: `about 40 s`, `about 12 min`, `about 3.5 h`.
fn duration_text(s: f64) -> String {
    if s < 1.0 {
        "under a second".into()
    } else if s < 120.0 {
        format!("about {s:.0} s")
    } else if s < 7200.0 {
        format!("about {:.0} min", s / 60.0)
    } else {
        format!("about {:.1} h", s / 3600.0)
    }
}

/// A count with thousands separators: `36,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(super) fn warnings(
    fields: &[FieldSource],
    job: &JobSizing,
    opts: &RekeyOptions,
    new: &DesignDocument,
) -> Vec<String> {
    let mut out = Vec::new();
    for f in fields.iter().filter(|f| f.from == Source::Missing) {
        out.push(format!(
            "field `{}`: {} — give it as a column of the rows, or the new key cannot be built",
            f.field,
            f.why.as_deref().unwrap_or("no source")
        ));
    }
    if job.regions_over_hfile_limit > 0 {
        out.push(format!(
            "{} region(s) would receive more than {} HFiles for family {} (up to {}): completebulkload refuses them; pre-split into more regions or raise hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily",
            job.regions_over_hfile_limit, opts.max_hfiles, opts.family, job.max_hfiles_per_region
        ));
    }
    if job.straggler_share > 0.0 && job.reducers > 1 {
        let even = 1.0 / job.reducers as f64;
        if job.straggler_share >= 2.0 * even {
            out.push(format!(
                "region {} takes {:.1} % of the bytes ({:.1}× an even share): its reducer is the job's straggler; cut the new table by bytes",
                job.straggler + 1,
                job.straggler_share * 100.0,
                job.straggler_share / even
            ));
        }
    }
    out.push("keep the cells' timestamps: a MapReduce job writing KeyValues (HFileOutputFormat2) keeps them; hbase-connectors' Spark bulkLoad stamps every cell with one time, which collapses versions and restarts every TTL".into());
    if let Some(days) = new.ttl_seconds().map(|s| s as f64 / 86_400.0) {
        out.push(format!(
            "the table's TTL is {days:.1} days: cells older than that are dropped at the new table's first major compaction; leave time ranges about to expire out of the pre-split, or the regions they fill empty within days"
        ));
    }
    out
}

/// A salted Phoenix table is created split at its buckets (`SALT_BUCKETS`; Phoenix refuses
/// `SPLIT ON` with it): the plan's other split keys are made after the create, and a plan of
/// fewer regions than buckets gets one a bucket all the same.
pub(super) fn phoenix_salted_splits(keys: &[Vec<u8>], bounds: &[Vec<u8>], table: &str) -> String {
    let more: Vec<&Vec<u8>> = keys.iter().filter(|k| !bounds.contains(k)).collect();
    if more.is_empty() {
        return format!(
            "Phoenix creates the salted table with one region per bucket ({} regions), not the {} asked for: ask for {} regions, or merge regions after the load",
            bounds.len() + 1,
            keys.len() + 1,
            bounds.len() + 1
        );
    }
    let first = more
        .first()
        .map_or_else(String::new, |k| crate::hbase::shell::shell_split(table, k));
    format!(
        "Phoenix creates the salted table split at its {} buckets and refuses SPLIT ON with SALT_BUCKETS: make the plan's other {} split key(s) after CREATE TABLE and before the load, one HBase shell split each (the first: {first}); the splits file lists every key",
        bounds.len() + 1,
        more.len()
    )
}

pub(super) fn checklist(
    job: &JobSizing,
    opts: &RekeyOptions,
    new_report: &ReportFigures,
    keys: usize,
) -> Vec<String> {
    let size = |b: u64| crate::analyze::size_text(b as f64);
    let (old, new) = (&opts.old_table, &super::new_table(opts));
    // the shell's arguments through the quoting `create` uses; the names are valid HBase names
    // (checked with the options), so the prose's backquotes hold them too
    let q = |s: &str| crate::hbase::shell::ruby_single_quoted(s);
    let (old_snap, new_snap) = (
        super::snapshot_name(old, "_rekey"),
        super::snapshot_name(new, "_final"),
    );
    let regions = keys + 1;
    vec![
        format!("Create `{new}` pre-split into {regions} regions (this plan's create statement or SPLITS_FILE)."),
        format!("T0: start writing every put and delete to both `{old}` and `{new}` (dual writes, the new key computed by the new design)."),
        format!("After T0: snapshot `{old}` (`snapshot {}, {}`): the backfill reads the snapshot, never the live table.", q(old), q(&old_snap)),
        format!(
            "Backfill: one reducer per new region ({} reducers), {} read, {} shuffled, {} written ({} on HDFS), {} at the throughputs stated; keep every cell's timestamp.",
            job.reducers,
            size(job.bytes_read),
            size(job.bytes_shuffled),
            size(job.bytes_written),
            size(job.hdfs_bytes),
            duration_text(job.seconds)
        ),
        format!("Hold major compactions of `{new}` (or set KEEP_DELETED_CELLS) until the backfill is loaded: a dual-written delete marker must outlive the older backfilled cell it masks."),
        format!("Load the HFiles: `completebulkload` (BulkLoadHFilesTool) into `{new}`; each region receives at most {} for the family (limit {}).", hfiles(job.max_hfiles_per_region), opts.max_hfiles),
        format!("Verify before switching: `{new}` holds {} rows, each old row under its new key with its cells and timestamps (`rowkey-lab verify OLD NEW --old-rows … --new-rows …` on the two tables' exports), and each region the rows this plan gives it.", grouped(new_report.writes)),
        format!("Switch reads to `{new}`; watch it with `rowkey-lab watch` / `observe` through the new design."),
        format!("Stop the writes to `{old}`."),
        format!("If the name must stay: `disable {}`, `snapshot {}, {}`, `drop {}`, `clone_snapshot {}, {}`.", q(old), q(new), q(&new_snap), q(old), q(&new_snap), q(old)),
        format!("Drop `{old}` (and its snapshot) after your retention period; the move needs {} of HDFS while both tables exist.", size(job.space_during_move)),
    ]
}

/// `n` HFiles, in the singular for one.
fn hfiles(n: u64) -> String {
    if n == 1 {
        "1 HFile".to_string()
    } else {
        format!("{n} HFiles")
    }
}
