//! The snapshots of a series into the table's regions with their key ranges (each file read,
//! grouped into snapshots, each region's readings), then each interval's rates and events
//! ([`Build`], `build.rs`), the layout a design is set beside and what the events say.

use std::collections::{BTreeSet, HashMap};

use super::build::{layout, Build};
use super::read::{FileRead, Named, Reading, Seen, Server};
use super::snapshots::{check_order, group, pick_table, richer, snapshot_infos};
use super::{
    file_error, FileKind, Interval, RegionEvent, RegionSeries, SeriesEvent, SeriesFile,
    SeriesRegion, Snapshot, SnapshotFile,
};
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::to_string_binary;

pub(super) fn series(
    files: &[SnapshotFile<'_>],
    read: Vec<FileRead>,
    table: Option<&str>,
) -> Result<RegionSeries> {
    let table = pick_table(&read, table)?;
    require_times(files, &read)?;
    check_order(files, &read)?;
    let groups = group(&read);
    if groups.len() < 2 {
        return Err(Error::arg(
            "files",
            format!(
                "{} snapshot(s) with load: a rate needs two or more, taken at different times",
                groups.len()
            ),
        ));
    }
    let mut notes: Vec<String> = read
        .iter()
        .zip(files)
        .flat_map(|(f, sf)| f.notes.iter().map(move |n| format!("{}: {n}", sf.name)))
        .collect();
    let catalog = table_catalog(&read, &table);
    let mut readings = Readings::default();
    let mut series_files = series_files(files, &read);
    for (k, g) in groups.iter().enumerate() {
        let mut at: HashMap<usize, Seen> = HashMap::new();
        for &i in g {
            let (Some(f), Some(sf)) = (read.get(i), series_files.get_mut(i)) else {
                continue;
            };
            sf.snapshot = Some(k);
            let Some((time_ms, _)) = f.time else { continue };
            let ours: Vec<&Reading> = f.readings.iter().filter(|r| r.table == table).collect();
            sf.readings = u32::try_from(ours.len()).unwrap_or(u32::MAX);
            if ours.is_empty() && !f.readings.is_empty() {
                let others: BTreeSet<&str> = f.readings.iter().map(|r| r.table.as_str()).collect();
                let others: Vec<String> = others.iter().map(|t| format!("`{t}`")).collect();
                notes.push(format!(
                    "{}: no region of table `{table}` (its regions are of {}): not mixed in",
                    sf.name,
                    others.join(", ")
                ));
            }
            for r in ours {
                readings.add(&mut at, k, r, time_ms, &catalog);
            }
        }
        readings.seen.push(at);
    }
    let Readings {
        regions,
        seen,
        doubled,
        ..
    } = readings;
    if doubled > 0 {
        notes.push(format!("{doubled} reading(s) of a region already read in the same snapshot (a region that moved between two servers' dumps, or list_regions beside dumps): the one with reads and writes kept"));
    }
    let unnamed = regions.iter().filter(|r| r.start_key.is_none()).count();
    if unnamed > 0 {
        notes.push(format!("{unnamed} region(s) have no key range: no file names them (a /jmx dump gives only encoded names; add list_regions or a scan of hbase:meta)"));
    }
    let starts: Vec<Option<Vec<u8>>> = regions
        .iter()
        .map(|r| catalog.get(r.encoded.as_str()).map(|n| n.start.clone()))
        .collect();
    let snapshots = snapshot_infos(&groups, &read, &seen);
    let mut b = Build {
        regions,
        starts,
        seen,
        snapshots,
        events: Vec::new(),
        unfilled: BTreeSet::new(),
    };
    let intervals: Vec<Interval> = (1..groups.len()).map(|k| b.interval(k)).collect();
    // The last interval with a rate: its regions are the ones to set the design beside.
    let measured = super::measured_interval(&intervals);
    let layout = measured.and_then(|i| intervals.get(i).and_then(|iv| layout(i + 1, iv)));
    if layout.is_none() {
        notes.push("no layout for a design: no interval has a rate, or at the end of the last that has one a region has no key range or the table's first region was not read".into());
    }
    let events = said(b.events, &b.regions, &b.snapshots);
    let labels = b.regions.iter().map(SeriesRegion::label).collect();
    Ok(RegionSeries {
        layout,
        table,
        files: series_files,
        snapshots: b.snapshots,
        labels,
        regions: b.regions,
        intervals,
        events,
        notes,
    })
}

/// Each event with its time, the regions it marks and its sentence.
fn said(
    events: Vec<RegionEvent>,
    regions: &[SeriesRegion],
    snapshots: &[Snapshot],
) -> Vec<SeriesEvent> {
    let key = |i: usize| match regions.get(i) {
        Some(SeriesRegion {
            start_key: Some(k), ..
        }) if k.is_empty() => "(first)".to_owned(),
        Some(SeriesRegion {
            start_key: Some(k), ..
        }) => k.clone(),
        Some(r) => format!("{}…", r.encoded.get(..8).unwrap_or(&r.encoded)),
        None => "?".to_owned(),
    };
    let keys = |v: &[usize]| v.iter().map(|&i| key(i)).collect::<Vec<_>>().join(", ");
    events
        .into_iter()
        .map(|event| {
            let (snapshot, marked, text) = match &event {
                RegionEvent::Split {
                    snapshot,
                    parent,
                    daughters,
                } => (
                    *snapshot,
                    daughters.clone(),
                    format!("split: {} into {}", key(*parent), keys(daughters)),
                ),
                RegionEvent::Merge {
                    snapshot,
                    parents,
                    merged,
                } => (
                    *snapshot,
                    vec![*merged],
                    format!("merge: {} into {}", keys(parents), key(*merged)),
                ),
                RegionEvent::Move {
                    snapshot,
                    region,
                    from,
                    to,
                } => (
                    *snapshot,
                    vec![*region],
                    format!(
                        "move: {} from {from} to {to} (counters restart)",
                        key(*region)
                    ),
                ),
                RegionEvent::Reopen { snapshot, region } => (
                    *snapshot,
                    vec![*region],
                    format!(
                        "reopen: {} (a counter went down, or its server restarted)",
                        key(*region)
                    ),
                ),
                RegionEvent::Gap {
                    snapshot,
                    region,
                    missing_server,
                } => (
                    *snapshot,
                    vec![*region],
                    match missing_server {
                        Some(s) => format!(
                            "gap: {} not read (no dump of {s}: kept where it was)",
                            key(*region)
                        ),
                        None => format!("gap: {} not read", key(*region)),
                    },
                ),
                RegionEvent::Gone { snapshot, region } => (
                    *snapshot,
                    vec![*region],
                    format!("gone: {} (no successor seen)", key(*region)),
                ),
            };
            SeriesEvent {
                at_ms: snapshots.get(snapshot).map_or(0, |s| s.time_ms),
                interval: snapshot.checked_sub(1),
                regions: marked,
                text,
                event,
            }
        })
        .collect()
}

/// Every file has a time, but a file of region names alone (it only names regions).
fn require_times(files: &[SnapshotFile<'_>], read: &[FileRead]) -> Result<()> {
    for (i, f) in read.iter().enumerate() {
        if f.kind != FileKind::RegionNames && f.time.is_none() {
            let name = files.get(i).map_or("", |f| f.name);
            return Err(file_error(i, name, ErrorKind::Invalid, "no time: put it in the file's name (epoch ms, or 20261126T053600Z), or give the file's modification time".into()));
        }
    }
    Ok(())
}

/// The catalog: every region name of `table` the files give, by encoded name.
fn table_catalog<'a>(read: &'a [FileRead], table: &str) -> HashMap<&'a str, &'a Named> {
    let mut catalog: HashMap<&str, &Named> = HashMap::new();
    for n in read.iter().flat_map(|f| &f.names) {
        if n.table == table {
            catalog.entry(n.encoded.as_str()).or_insert(n);
        }
    }
    catalog
}

/// What the series says of each file (its snapshot and readings are filled in as it is read).
fn series_files(files: &[SnapshotFile<'_>], read: &[FileRead]) -> Vec<SeriesFile> {
    files
        .iter()
        .zip(read)
        .map(|(f, r)| SeriesFile {
            name: f.name.to_owned(),
            kind: r.kind,
            time_ms: r.time.map(|t| t.0),
            time_from: r.time.map(|t| t.1),
            snapshot: None,
            servers: r.servers.iter().map(Server::name).collect(),
            readings: 0,
        })
        .collect()
}

/// The table's regions as the snapshots read them: each region once (by encoded name), the
/// snapshots it was seen in, and its reading in each.
#[derive(Default)]
struct Readings {
    regions: Vec<SeriesRegion>,
    index: HashMap<String, usize>,
    seen: Vec<HashMap<usize, Seen>>,
    /// Readings of a region already read in the same snapshot.
    doubled: usize,
}

impl Readings {
    /// Reading `r` of snapshot `k` (taken at `time_ms`) into that snapshot's readings `at`: a
    /// region read twice in one snapshot keeps the richer reading.
    fn add(
        &mut self,
        at: &mut HashMap<usize, Seen>,
        k: usize,
        r: &Reading,
        time_ms: u64,
        catalog: &HashMap<&str, &Named>,
    ) {
        let n = self.regions.len();
        let ri = *self.index.entry(r.encoded.clone()).or_insert(n);
        if ri == n {
            let named = catalog.get(r.encoded.as_str());
            self.regions.push(SeriesRegion {
                encoded: r.encoded.clone(),
                start_key: named.map(|n| to_string_binary(&n.start)),
                region_id: named.map(|n| n.id),
                first: k,
                last: k,
                parents: Vec::new(),
            });
        }
        if let Some(reg) = self.regions.get_mut(ri) {
            reg.last = k;
        }
        let new = Seen {
            reading: r.clone(),
            time_ms,
        };
        match at.get(&ri) {
            Some(old) => {
                self.doubled += 1;
                if richer(&new.reading, &old.reading) {
                    at.insert(ri, new);
                }
            }
            None => {
                at.insert(ri, new);
            }
        }
    }
}
