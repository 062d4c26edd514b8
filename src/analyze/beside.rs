//! What every shell shows beside an analysis, composed once: the design's reads planned over
//! the table the report ends with (through Phoenix's indexes too), and a table's load now set
//! against the design's writes on the same regions. The CLI's `analyze`, the page's workers and
//! views, and Python ask these, so none plans, divides or picks a busiest region of its own.

use serde::{Serialize, Serializer};

use super::{plan_reads_through_indexes, AnalysisReport, IndexReadPlan};
use crate::design::DesignDocument;
use crate::error::{Error, Result};
use crate::region::{LoadCounter, LoadShares, RegionLoad};
use crate::scan::ReadPlan;

/// The table a report ends with, as much of it as the answers beside it read: a shell that
/// holds the report as its own object (the page's, the CLI's) hands over these members.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportTable {
    /// Each region's start key, hex, in key order (the first's empty).
    pub start_keys_hex: Vec<String>,
    /// Each region's writes, in key order.
    pub region_writes: Vec<u64>,
    /// The writes over the table.
    pub writes: u64,
    /// Each server: its name (when the design or the table names it) and the rows written to it.
    pub servers: Vec<(Option<String>, u64)>,
}

impl ReportTable {
    /// The members of `report` the answers read.
    pub fn of(report: &AnalysisReport) -> ReportTable {
        ReportTable {
            start_keys_hex: report
                .regions
                .iter()
                .map(|r| r.start_key_hex.clone())
                .collect(),
            region_writes: report.regions.iter().map(|r| r.writes).collect(),
            writes: report.writes,
            servers: report
                .servers
                .iter()
                .map(|s| (s.name.clone(), s.rows))
                .collect(),
        }
    }

    /// The split keys of the regions the table ends with: every start key but the first's.
    pub fn split_keys(&self) -> Result<Vec<Vec<u8>>> {
        self.start_keys_hex
            .iter()
            .skip(1)
            .map(|k| crate::hbase::bytes::from_hex(k))
            .collect()
    }

    /// Each region's share of the writes (0 when there were none).
    fn shares(&self) -> Vec<f64> {
        let share = |n: u64| match self.writes {
            0 => 0.0,
            w => n as f64 / w as f64,
        };
        self.region_writes.iter().map(|&n| share(n)).collect()
    }
}

/// An error as the JavaScript shells show one beside an answer: `message` (with where), then
/// its kind, reason and location, the fields a thrown engine error carries.
fn thrown<S: Serializer>(e: &Option<Error>, s: S) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let Some(e) = e else {
        return s.serialize_none();
    };
    let fields = e.fields();
    let mut m = s.serialize_map(Some(fields.len() + 1))?;
    m.serialize_entry("message", &e.to_string())?;
    for (k, v) in &fields {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

/// The design's reads over the table a report ends with ([`reads_beside`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadsBeside {
    /// One plan per read the design declares.
    pub reads: Vec<ReadPlan>,
    /// Why the reads could not be planned (`None`: they were); the report stands either way.
    #[serde(serialize_with = "thrown")]
    pub reads_error: Option<Error>,
    /// Each read through the table Phoenix would pick: a Phoenix design with indexes and reads.
    #[serde(flatten)]
    pub through_indexes: Option<IndexReadsBeside>,
}

/// Each read through the table Phoenix would pick among the data table and its indexes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexReadsBeside {
    /// One per read.
    pub index_reads: Vec<IndexReadPlan>,
    /// Why they could not be planned (`None`: they were).
    #[serde(serialize_with = "thrown")]
    pub index_reads_error: Option<Error>,
}

/// The design's reads planned over the regions `table` ends with (auto-split's daughters
/// included), and through Phoenix's indexes when the design has indexes and reads: what
/// every shell shows beside an analysis, an error in planning kept beside the report.
pub fn reads_beside(doc: &DesignDocument, table: &ReportTable) -> ReadsBeside {
    let mut beside = data_reads_beside(doc, table);
    let indexed = doc.phoenix.as_ref().is_some_and(|p| !p.indexes.is_empty());
    beside.through_indexes = (indexed && !doc.reads.is_empty())
        .then(|| {
            match table
                .split_keys()
                .and_then(|k| plan_reads_through_indexes(doc, &k))
            {
                Ok(index_reads) => IndexReadsBeside {
                    index_reads,
                    index_reads_error: None,
                },
                Err(e) => IndexReadsBeside {
                    index_reads: Vec::new(),
                    index_reads_error: Some(e),
                },
            }
        })
        .filter(|x| !x.index_reads.is_empty() || x.index_reads_error.is_some());
    beside
}

/// The data table's reads alone ([`reads_beside`] without the indexes): the page's size
/// build, which leaves Phoenix's index planner out of its first load and draws no index reads.
pub fn data_reads_beside(doc: &DesignDocument, table: &ReportTable) -> ReadsBeside {
    let planned = table.split_keys().and_then(|k| {
        crate::region::RegionMap::new(k.clone())?;
        doc.plan_reads(&k)
    });
    let (reads, reads_error) = match planned {
        Ok(r) => (r, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    ReadsBeside {
        reads,
        reads_error,
        through_indexes: None,
    }
}

/// The design's reads over the table `report` ends with ([`reads_beside`]).
pub fn reads_over(doc: &DesignDocument, report: &AnalysisReport) -> ReadsBeside {
    reads_beside(doc, &ReportTable::of(report))
}

/// A table's load now against a design's writes on the same table ([`table_now`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableNow {
    /// What the load counts: writes, or requests (reads and writes).
    pub what: LoadCounter,
    /// The load counted over the table's regions since each opened.
    pub total: u64,
    /// The region taking the largest share of the load now (the first of equals).
    pub busiest_now: usize,
    /// Each region now and with the design: when the design ran on the table's regions (no
    /// auto-split changed them), else `None`.
    pub regions: Option<Vec<RegionNow>>,
    /// The region that would take the largest share of the design's writes (with `regions`).
    pub busiest_design: Option<usize>,
    /// Each server the report names: its regions' share of the load now (summed by the server
    /// each region is on now) and its share of the design's writes.
    pub servers: Vec<ServerNow>,
}

/// One region's share of the load now and of the design's writes (its start key and server
/// are the table's `load` entry of the same index).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionNow {
    /// Its share of the load now.
    pub now: f64,
    /// Its share of the design's writes.
    pub design: f64,
}

/// One named server's share of the load now and of the design's writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerNow {
    /// The server's name.
    pub name: String,
    /// The share of the load now of the regions on it.
    pub now: f64,
    /// Its share of the design's writes.
    pub design: f64,
}

/// The table's load now (`load`, one entry per region, as `readRegions` gave it) set beside the
/// design's writes on the table its report ends with; `None` when the load counted nothing.
pub fn table_now(load: &[RegionLoad], table: &ReportTable) -> Option<TableNow> {
    let LoadShares {
        what,
        total,
        shares,
        busiest,
    } = LoadShares::of(load)?;
    let design = table.shares();
    let on_them = design.len() == load.len();
    let regions = on_them.then(|| {
        shares
            .iter()
            .zip(&design)
            .map(|(&now, &design)| RegionNow { now, design })
            .collect()
    });
    // the first of equals, as the load's busiest
    let busiest_design = on_them.then(|| {
        design.iter().enumerate().fold(0, |b, (i, &x)| {
            if design.get(b).is_some_and(|&v| x > v) {
                i
            } else {
                b
            }
        })
    });
    let now_on = |name: &str| -> f64 {
        load.iter()
            .zip(&shares)
            .filter(|(l, _)| l.server.as_deref() == Some(name))
            .fold(0.0, |a, (_, s)| a + s)
    };
    let servers = table
        .servers
        .iter()
        .filter_map(|(name, rows)| {
            let name = name.as_ref()?;
            let design = match table.writes {
                0 => 0.0,
                w => *rows as f64 / w as f64,
            };
            Some(ServerNow {
                name: name.clone(),
                now: now_on(name),
                design,
            })
        })
        .collect();
    Some(TableNow {
        what,
        total,
        busiest_now: busiest,
        regions,
        busiest_design,
        servers,
    })
}
