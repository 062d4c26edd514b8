//! Reading the advisor's options from a JSON tree: every member optional, unknown members
//! are errors that name them.

use super::capacity::CapacityOptions;
use super::{AdviseOptions, DEFAULT_RECORDS, MAX_ADVISE_WINDOWS, MAX_RECORDS};
use crate::region::MAX_SERVERS;
use crate::support::json::{f64_, object_reader, u32_, u64_};

object_reader! {
    /// [`AdviseOptions`].
    pub fn advise_options(n) -> AdviseOptions; "struct AdviseOptions";
    /// The advisor's options, as [`advise_options`] reads them.
    table ADVISE_OPTIONS;
    AdviseOptions {
        /// Region servers to design for; absent, the document's `regions.regionServers`.
        servers: opt("servers", u32_) in 1 ..= MAX_SERVERS,
        /// Records generated for each candidate's evaluation (the document's workload, this
        /// many records, its seed).
        records: or("records", u64_, DEFAULT_RECORDS) = "200000" in 1 ..= MAX_RECORDS,
        /// Time windows of each analysis.
        windows: or("windows", u32_, AdviseOptions::default().windows) = "64" in 1 ..= MAX_ADVISE_WINDOWS,
        /// Native only: threads evaluating candidates (0: every core). Results do not depend
        /// on it.
        threads: or("threads", u32_, 0) = "0",
        /// Capacity and lifecycle inputs.
        capacity: or("capacity", capacity_options, CapacityOptions::default()) = "{}",
    }
}

object_reader! {
    /// [`CapacityOptions`].
    pub fn capacity_options(n) -> CapacityOptions; "struct CapacityOptions";
    /// The capacity inputs, as [`capacity_options`] reads them.
    table CAPACITY_OPTIONS;
    {
        /// Bytes a record takes on disk; absent, the design's mean key length plus its
        /// workload's `valueSize`.
        record_bytes: opt("recordBytes", u64_),
        /// Records written per second; absent, the workload's `writeRate`.
        write_rate: opt("writeRate", f64_),
        /// The column family's `TTL` in seconds, above 0, as the design's `hbase.ttlSeconds`
        /// and a run's life options name it; absent, the design's (else kept for ever).
        ttl_seconds: opt("ttlSeconds", u64_),
        /// The TTL in days: the older name of `ttlSeconds`, kept because the advisor's
        /// documented options (and `rowkey-lab advise --ttl-days`) take it; one or the other.
        ttl_days: opt("ttlDays", f64_),
        /// `hbase.hregion.max.filesize`, bytes.
        max_file_size: or("maxFileSize", u64_, CapacityOptions::default().max_file_size) = "10737418240",
        /// `hbase.hregion.memstore.flush.size`, bytes.
        memstore_flush_size: or("memstoreFlushSize", u64_, CapacityOptions::default().memstore_flush_size) = "134217728",
        /// A region server's heap, bytes.
        heap_bytes: or("heapBytes", u64_, CapacityOptions::default().heap_bytes) = "17179869184",
        /// The share of the heap memstores may take (`hbase.regionserver.global.memstore.size`).
        memstore_share: or("memstoreShare", f64_, CapacityOptions::default().memstore_share) = "0.4",
        /// Days between major compactions (`hbase.hregion.majorcompaction`).
        major_compaction_days: or("majorCompactionDays", f64_, CapacityOptions::default().major_compaction_days) = "7",
    } => CapacityOptions {
        record_bytes,
        write_rate,
        ttl_days: match (ttl_seconds, ttl_days) {
            (Some(_), Some(_)) => {
                return Err(n.error("give the TTL once: ttlSeconds (HBase's, in seconds) or ttlDays, not both").key("ttlSeconds"));
            }
            (Some(0), None) => return Err(n.error("the TTL must be above 0 seconds").key("ttlSeconds")),
            (Some(s), None) => Some(s as f64 / 86_400.0),
            (None, days) => days,
        },
        max_file_size,
        memstore_flush_size,
        heap_bytes,
        memstore_share,
        major_compaction_days,
    }
}

/// The options of an analysis, of the advisor, of a table's months (and their gate's budgets)
/// and of a rekey, by their TypeScript names; with the rows readers (feature `rows`), how a
/// file of rows meets the design too.
#[cfg(not(feature = "rows"))]
pub const OPTIONS: &[(&str, &[crate::support::json::Member])] = &[
    ("AnalyzeOptions", crate::analyze::read::ANALYZE_OPTIONS),
    ("AdviseOptions", ADVISE_OPTIONS),
    ("CapacityOptions", CAPACITY_OPTIONS),
    ("LifeOptions", crate::life::read::LIFE_OPTIONS),
    ("LifeCompactionOptions", crate::life::read::LIFE_COMPACTION),
    ("LifeNormalizerOptions", crate::life::read::LIFE_NORMALIZER),
    ("LifeBalancerOptions", crate::life::read::LIFE_BALANCER),
    ("LifeBudgets", crate::life::read::LIFE_BUDGETS),
    ("RekeyOptions", crate::rekey::read::REKEY_OPTIONS),
];
/// The options of an analysis, of the advisor, of a table's months (and their gate's budgets)
/// and of a rekey, by their TypeScript names; with the rows readers (feature `rows`), how a
/// file of rows meets the design too.
#[cfg(feature = "rows")]
pub const OPTIONS: &[(&str, &[crate::support::json::Member])] = &[
    ("AnalyzeOptions", crate::analyze::read::ANALYZE_OPTIONS),
    ("AdviseOptions", ADVISE_OPTIONS),
    ("CapacityOptions", CAPACITY_OPTIONS),
    ("LifeOptions", crate::life::read::LIFE_OPTIONS),
    ("LifeCompactionOptions", crate::life::read::LIFE_COMPACTION),
    ("LifeNormalizerOptions", crate::life::read::LIFE_NORMALIZER),
    ("LifeBalancerOptions", crate::life::read::LIFE_BALANCER),
    ("LifeBudgets", crate::life::read::LIFE_BUDGETS),
    ("RekeyOptions", crate::rekey::read::REKEY_OPTIONS),
    ("RowsOptions", crate::rows::read::ROWS_OPTIONS),
];

/// The engine's whole schema: the document's kinds and objects, and the options of an
/// analysis and of the advisor with their defaults and ranges. The page's forms and controls
/// and the generated declarations take every default and limit from it.
pub fn schema() -> crate::design::schema::Schema {
    crate::design::schema::Schema {
        options: OPTIONS,
        ..crate::design::schema::schema()
    }
}

crate::support::json::deserialize_through! {
    AdviseOptions => advise_options,
    CapacityOptions => capacity_options,
}

/// Evaluations handed back by workers, in candidate order: each a [`super::CandidateMetrics`] or
/// `{"error": "why"}`. Errors name the evaluation (`evaluations[3]`) and its member.
pub fn evaluations(
    text: &str,
) -> crate::error::Result<Vec<crate::error::Result<super::CandidateMetrics>>> {
    use crate::error::{Error, ErrorKind};
    let bad = |at: String, msg: String| Error::new(ErrorKind::Invalid, msg).at_path(at);
    // The crate's own reader: its numbers are `str::parse::<f64>`'s, exact, so figures that
    // went out as JSON come back bit for bit (serde_json's default float parsing may be off
    // by one unit in the last place).
    let list = match crate::support::json::parse(text)?.to_value() {
        serde_json::Value::Array(list) => list,
        _ => return Err(bad("evaluations".into(), "expected an array".into())),
    };
    list.into_iter()
        .enumerate()
        .map(|(i, v)| match v.get("error") {
            Some(serde_json::Value::String(e)) => {
                Ok(Err(Error::new(ErrorKind::Invalid, e.clone())))
            }
            _ => serde_json::from_value(v)
                .map(Ok)
                .map_err(|e| bad(format!("evaluations[{i}]"), e.to_string())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::schema::tests::{defaults_read_back, ranges_hold, read_with};
    use crate::design::DesignDocument;
    use serde_json::{json, Map, Value};

    #[test]
    fn the_options_tables_hold_their_defaults() {
        let none = Map::new;
        let n = defaults_read_back(
            "AnalyzeOptions",
            crate::analyze::read::ANALYZE_OPTIONS,
            none(),
            crate::analyze::read::analyze_options,
        ) + defaults_read_back("AdviseOptions", ADVISE_OPTIONS, none(), advise_options)
            + defaults_read_back(
                "CapacityOptions",
                CAPACITY_OPTIONS,
                none(),
                capacity_options,
            )
            + defaults_read_back(
                "RekeyOptions",
                crate::rekey::read::REKEY_OPTIONS,
                none(),
                crate::rekey::read::rekey_options,
            );
        // (a run's life options have none: absent, each leaves the design's value)
        assert_eq!(n, 6 + 4 + 5 + 9);
        // `…::default()` is what native callers get; an empty object what the shells send
        let empty = json!({});
        assert_eq!(
            read_with(crate::analyze::read::analyze_options, &empty),
            Ok(format!("{:?}", crate::analyze::AnalyzeOptions::default()))
        );
        assert_eq!(
            read_with(advise_options, &empty),
            Ok(format!("{:?}", AdviseOptions::default()))
        );
    }

    #[test]
    fn the_ttl_is_hbase_s_in_seconds_and_the_days_are_still_taken() {
        let read = |v: Value| read_with(capacity_options, &v);
        let days = |v: Value| {
            let n = crate::support::json::parse(&v.to_string()).map_err(|e| e.to_string())?;
            capacity_options(&n)
                .map(|o| o.ttl_days)
                .map_err(|e| e.pointer())
        };
        assert_eq!(days(json!({"ttlSeconds": 172_800})), Ok(Some(2.0)));
        assert_eq!(days(json!({"ttlDays": 2})), Ok(Some(2.0)));
        assert_eq!(days(json!({})), Ok(None));
        // one setting, given once; a TTL of 0 s is none HBase takes
        assert_eq!(
            days(json!({"ttlSeconds": 86_400, "ttlDays": 1})),
            Err("/ttlSeconds".to_string())
        );
        assert_eq!(
            days(json!({"ttlSeconds": 0})),
            Err("/ttlSeconds".to_string())
        );
        assert!(read(json!({"ttlSeconds": 1.5})).is_err());
    }

    /// Where the engine refuses option `key` of `name` set to `v` (its error's path).
    fn checked(name: &str, key: &str, v: Value) -> Result<(), String> {
        let path = |e: crate::error::Error| Err(e.location.path.unwrap_or_default());
        let text = json!({ key: v }).to_string();
        let node = crate::support::json::parse(&text).map_err(|e| e.to_string())?;
        let parse =
            |e: crate::support::json::DeError| e.into_error(crate::error::ErrorKind::Parse, &text);
        match name {
            "AnalyzeOptions" => {
                let opts = match crate::analyze::read::analyze_options(&node) {
                    Ok(o) => o,
                    Err(e) => return path(parse(e)),
                };
                let doc = DesignDocument::from_json(
                    r#"{"v": 1, "fields": [{"name": "a", "type": "long"}], "key": "long(a)",
                        "workload": {"records": 10}}"#,
                )
                .map_err(|e| e.to_string())?;
                crate::analyze::analyze(&doc, &opts)
                    .map(|_| ())
                    .or_else(path)
            }
            "AdviseOptions" => match advise_options(&node) {
                Ok(o) => o.validate().or_else(path),
                Err(e) => path(parse(e)),
            },
            "LifeOptions" | "LifeCompactionOptions" | "LifeNormalizerOptions" => {
                let options = match name {
                    "LifeCompactionOptions" => json!({ "compaction": { key: v } }),
                    "LifeNormalizerOptions" => json!({ "normalizer": { key: v } }),
                    _ => json!({ key: v }),
                };
                let doc = DesignDocument::from_json(
                    r#"{"v": 1, "fields": [{"name": "a", "type": "long"}], "key": "long(a)"}"#,
                )
                .map_err(|e| e.to_string())?;
                crate::life::LifeOptions::from_json(&options.to_string())
                    .and_then(|o| crate::life::settings_for_design(&doc, &o))
                    .map(|_| ())
                    .or_else(path)
            }
            #[cfg(feature = "rows")]
            "RowsOptions" => match crate::rows::read::rows_options(&node) {
                Ok(o) => o.kept_bytes().map(|_| ()).or_else(path),
                Err(e) => path(parse(e)),
            },
            _ => panic!("no check for the ranges of {name}: add one here"),
        }
    }

    #[test]
    fn the_options_ranges_are_what_the_engine_accepts() {
        // windows, sample sizes, grid, the advisor's records, windows and servers, a run's
        // life options (8 of its own, 2 of compactions, 5 of the normalizer) and, with the rows
        // readers, the bytes of rows a first pass keeps
        let rows = usize::from(cfg!(feature = "rows"));
        assert_eq!(ranges_hold(OPTIONS, checked), 4 + 3 + 8 + 2 + 5 + rows);
        assert_eq!(schema().options.len(), 3 + 6 + rows);
    }
}
