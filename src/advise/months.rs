//! The candidates' months: each of the few candidates the recommendation is chosen among,
//! simulated for 12 months as the capacity figures are ([`super::lifecycle`]: the production
//! sizes, 6-hour steps), and read at month 12 beside today's figures: its regions, the empty
//! ones, and the hottest server's share of an hour's writes. A simulation costs up to a few
//! tenths of a second natively, so only the input, the [`MONTHS_CANDIDATES`] evaluated
//! candidates with the lowest write spread that keep the design's gets, and the pick when it
//! is not among them are simulated; the basis says so.

use serde::Serialize;

use super::capacity::CapacityOptions;
use super::evaluate::CandidateMetrics;
use super::lifecycle;
use crate::design::DesignDocument;
use crate::error::Result;
use crate::support::num_text::fixed;

/// Candidates simulated besides the input.
pub const MONTHS_CANDIDATES: usize = 4;

/// A candidate's table at the end of its simulated months.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateMonths {
    /// The month read (12).
    pub month: u32,
    /// Regions at its end.
    pub regions: u32,
    /// Of those, regions holding no byte (a TTL's emptied regions, pre-split ranges no key
    /// falls in).
    pub empty_regions: u32,
    /// The largest share of an hour's writes one server took, over the month: 1 / servers
    /// when the writes spread, 1 when one server takes them all.
    pub hottest_server_write_share: f64,
    /// One server is hot ([`crate::life::hot_share`] of the servers): the months' hot-server
    /// finding.
    pub hot_server: bool,
}

/// `design` (evaluated as `m`) simulated for 12 months on `servers` with the advisor's capacity
/// inputs: the write rate and record size as the capacity figures take them.
pub fn candidate_months(
    design: &DesignDocument,
    m: &CandidateMetrics,
    opts: &CapacityOptions,
    servers: u32,
) -> Result<CandidateMonths> {
    let workload = design.workload.clone().unwrap_or_default();
    let record_bytes = opts.record_bytes.unwrap_or_else(|| {
        (m.key_bytes.max(0.0).round() as u64).saturating_add(workload.value_size)
    });
    let rate = opts.write_rate.unwrap_or(workload.write_rate);
    let inputs = lifecycle::Inputs {
        max_file_size: opts.max_file_size,
        memstore_flush_size: opts.memstore_flush_size,
        ttl_days: opts
            .ttl_days
            .or_else(|| super::regions::table_ttl_days(design)),
        heap_bytes: opts.heap_bytes,
        memstore_share: opts.memstore_share,
        major_compaction_days: opts.major_compaction_days,
    };
    let servers = servers.max(1);
    let r = lifecycle::simulate(design, &inputs, servers, rate, Some(record_bytes))?;
    let last = r.months.last().cloned().unwrap_or_default();
    Ok(CandidateMonths {
        month: last.month,
        regions: last.regions,
        empty_regions: last.empty_regions,
        hottest_server_write_share: last.hottest_server_write_share,
        hot_server: servers > 1
            && last.hottest_server_write_share >= crate::life::hot_share(servers),
    })
}

/// The candidates simulated: the input and the [`MONTHS_CANDIDATES`] `eligible` ones (in
/// candidate order of their write spread, lowest first) other than it.
pub fn chosen(hotspots: &[(usize, f64)]) -> Vec<usize> {
    let mut order: Vec<(usize, f64)> = hotspots.iter().copied().filter(|c| c.0 != 0).collect();
    order.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let mut out = vec![0];
    out.extend(order.iter().take(MONTHS_CANDIDATES).map(|c| c.0));
    out
}

/// The months' reason against the input's, when they differ: `gain: at month 12 the hottest
/// server takes 13 % of an hour's writes instead of 100 %; 0 of 36 regions empty instead of 8
/// of 9`.
pub fn reason(base: &CandidateMonths, m: &CandidateMonths) -> Option<String> {
    let mut parts = Vec::new();
    let (h, hb) = (
        m.hottest_server_write_share,
        base.hottest_server_write_share,
    );
    let mut gains = 0i32;
    if (h - hb).abs() > 0.05 {
        gains += if h < hb { 1 } else { -1 };
        parts.push(format!(
            "the hottest server takes {} % of an hour's writes instead of {} %",
            fixed(h * 100.0, 0),
            fixed(hb * 100.0, 0)
        ));
    }
    if m.empty_regions != base.empty_regions {
        gains += if m.empty_regions < base.empty_regions {
            1
        } else {
            -1
        };
        parts.push(format!(
            "{} of {} regions empty instead of {} of {}",
            m.empty_regions, m.regions, base.empty_regions, base.regions
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let word = match gains {
        g if g > 0 => "gain:",
        g if g < 0 => "cost:",
        _ => "months:",
    };
    Some(format!("{word} at month {} {}", m.month, parts.join("; ")))
}
