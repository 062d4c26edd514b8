//! The files of a series into snapshots: the table they are of, each source's order in time
//! (the same time twice, a clock going backwards), the files of one poll grouped, and what
//! each snapshot lacks (servers with no dump in it).

use std::collections::{BTreeSet, HashMap};

use super::read::{FileRead, Reading, Seen};
use super::{file_error, FileKind, Snapshot, SnapshotFile, POLL_SPREAD_MS};
use crate::error::{Error, ErrorKind, Result};

/// The table of a series: the one given, or the only one the files name besides `hbase:`'s.
pub(super) fn pick_table(read: &[FileRead], table: Option<&str>) -> Result<String> {
    // The tables named by region names first: a RegionServer's dump holds every table on it.
    let mut tables: BTreeSet<&str> = read
        .iter()
        .flat_map(|f| f.names.iter().map(|n| n.table.as_str()))
        .filter(|t| !t.starts_with("hbase:"))
        .collect();
    if tables.is_empty() || table.is_some() {
        tables.extend(
            read.iter()
                .flat_map(|f| f.readings.iter().map(|r| r.table.as_str())),
        );
        tables.retain(|t| !t.starts_with("hbase:"));
    }
    let list = || {
        tables
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match table.map(|t| t.strip_prefix("default:").unwrap_or(t)) {
        Some(t) if tables.contains(t) => Ok(t.to_owned()),
        Some(t) => Err(Error::arg(
            "table",
            format!(
                "the files have no region of table `{t}`; they name {}",
                list()
            ),
        )),
        None if tables.len() == 1 => Ok(tables
            .iter()
            .next()
            .map_or_else(String::new, |t| (*t).to_owned())),
        None if tables.is_empty() => Err(Error::arg(
            "files",
            "the files name no table's regions besides HBase's own",
        )),
        None => Err(Error::arg(
            "table",
            format!(
                "the files have regions of {} tables ({}): say which table to read",
                tables.len(),
                list()
            ),
        )),
    }
}

/// What a file covers: a server's host, or the whole table.
fn source_keys(f: &FileRead) -> Vec<String> {
    if f.whole {
        vec![String::from("\0whole")]
    } else {
        f.servers.iter().map(|s| s.host.clone()).collect()
    }
}

/// Along the order given, each source's times must rise: the same time twice is the same
/// snapshot given twice, an earlier one a clock gone backwards.
pub(super) fn check_order(files: &[SnapshotFile<'_>], read: &[FileRead]) -> Result<()> {
    let mut last: HashMap<String, (usize, u64)> = HashMap::new();
    for (i, f) in read.iter().enumerate() {
        let Some((t, _)) = f.time else { continue };
        for key in source_keys(f) {
            if let Some(&(j, before)) = last.get(&key) {
                let (name, prev) = (
                    files.get(i).map_or("", |f| f.name),
                    files.get(j).map_or("", |f| f.name),
                );
                let who = if f.whole {
                    "the whole table".to_owned()
                } else {
                    format!("server {key}")
                };
                if t == before {
                    return Err(file_error(i, name, ErrorKind::Invalid, format!("two snapshots of {who} with the same time ({t} ms) as {prev}: the same snapshot given twice, or times that do not tell them apart")));
                }
                if t < before {
                    return Err(file_error(i, name, ErrorKind::Invalid, format!("the clock goes backwards: {who} at {t} ms, after {prev} at {before} ms (files are read in the order given; a folder's by name)")));
                }
            }
            last.insert(key, (i, t));
        }
    }
    Ok(())
}

/// The timed files grouped into snapshots: a new one when a file is more than
/// [`POLL_SPREAD_MS`] after the first of the current one, or covers a source it already has.
pub(super) fn group(read: &[FileRead]) -> Vec<Vec<usize>> {
    let mut timed: Vec<(u64, usize)> = read
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind != FileKind::RegionNames)
        .filter_map(|(i, f)| f.time.map(|(t, _)| (t, i)))
        .collect();
    timed.sort_unstable();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let (mut start, mut keys) = (0u64, BTreeSet::new());
    for (t, i) in timed {
        let mine = read.get(i).map(source_keys).unwrap_or_default();
        let fresh = out.is_empty()
            || t.saturating_sub(start) > POLL_SPREAD_MS
            || mine.iter().any(|k| keys.contains(k));
        if fresh {
            out.push(Vec::new());
            start = t;
            keys.clear();
        }
        keys.extend(mine);
        if let Some(g) = out.last_mut() {
            g.push(i);
        }
    }
    out
}

/// Whether `a` has more of the counters than `b` (a dump's reads and writes beat
/// `list_regions`' REQ).
pub(super) fn richer(a: &Reading, b: &Reading) -> bool {
    let n = |r: &Reading| usize::from(r.reads.is_some()) + usize::from(r.writes.is_some());
    n(a) >= n(b)
}

/// Each snapshot's time, files and the servers seen elsewhere with no dump in it.
pub(super) fn snapshot_infos(
    groups: &[Vec<usize>],
    read: &[FileRead],
    seen: &[HashMap<usize, Seen>],
) -> Vec<Snapshot> {
    let all: BTreeSet<&str> = read
        .iter()
        .filter(|f| f.kind == FileKind::Jmx)
        .flat_map(|f| f.servers.iter().map(|s| s.host.as_str()))
        .collect();
    groups
        .iter()
        .zip(seen)
        .map(|(g, at)| {
            let files: Vec<&FileRead> = g.iter().filter_map(|&i| read.get(i)).collect();
            let whole = files.iter().any(|f| f.whole);
            let here: BTreeSet<&str> = files
                .iter()
                .flat_map(|f| f.servers.iter().map(|s| s.host.as_str()))
                .collect();
            Snapshot {
                time_ms: files
                    .iter()
                    .filter_map(|f| f.time.map(|t| t.0))
                    .min()
                    .unwrap_or(0),
                files: g.clone(),
                regions: u32::try_from(at.len()).unwrap_or(u32::MAX),
                missing_servers: if whole {
                    Vec::new()
                } else {
                    all.difference(&here).map(|s| (*s).to_owned()).collect()
                },
            }
        })
        .collect()
}
