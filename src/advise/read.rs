//! Reading the advisor's options from a JSON tree: every member optional, unknown members
//! are errors that name them.

use super::capacity::CapacityOptions;
use super::AdviseOptions;
use crate::support::json::{f64_, read_object, u32_, u64_, Node, R};

/// [`AdviseOptions`].
pub fn advise_options(n: &Node) -> R<AdviseOptions> {
    let d = AdviseOptions::default();
    Ok(read_object!(
        n,
        "struct AdviseOptions",
        None,
        AdviseOptions {
            servers: opt("servers", u32_),
            records: or("records", u64_, d.records),
            windows: or("windows", u32_, d.windows),
            threads: or("threads", u32_, d.threads),
            capacity: or("capacity", capacity_options, d.capacity),
        }
    ))
}

/// [`CapacityOptions`].
pub fn capacity_options(n: &Node) -> R<CapacityOptions> {
    let d = CapacityOptions::default();
    Ok(read_object!(
        n,
        "struct CapacityOptions",
        None,
        CapacityOptions {
            record_bytes: opt("recordBytes", u64_),
            write_rate: opt("writeRate", f64_),
            ttl_days: opt("ttlDays", f64_),
            max_file_size: or("maxFileSize", u64_, d.max_file_size),
            memstore_flush_size: or("memstoreFlushSize", u64_, d.memstore_flush_size),
            heap_bytes: or("heapBytes", u64_, d.heap_bytes),
            memstore_share: or("memstoreShare", f64_, d.memstore_share),
            major_compaction_days: or("majorCompactionDays", f64_, d.major_compaction_days),
        }
    ))
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
