//! The answer in words: what a candidate breaks or risks against the input (its flags, the
//! input's own, a salt whose hash spreads worse than another), and the recommendation's
//! reasons, each naming what it gains and what it costs. Apart from the policy that picks the
//! recommendation (`answer.rs`), which reads the flags but not the sentences.

use super::Evaluated;
use crate::advise::evaluate::{scans, CandidateMetrics};
use crate::support::num_text::fixed;

fn quote(s: &str) -> String {
    format!("'{s}'")
}

/// What `m` breaks compared with the input's `base`.
pub(super) fn flags(base: &CandidateMetrics, m: &CandidateMetrics) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut breaks_get = false;
    for (b, r) in base.reads.iter().zip(&m.reads) {
        let base_ok = b.scans == 1 && !b.full_scan;
        if r.kind == "get" && base_ok && (r.scans > 1 || r.full_scan) {
            breaks_get = true;
            out.push(if r.full_scan {
                format!("turns the get {} into a full-table scan", quote(&r.name))
            } else {
                format!("turns the get {} into {}", quote(&r.name), scans(r.scans))
            });
        } else if r.full_scan && !b.full_scan {
            out.push(format!(
                "the {} {} becomes a full-table scan",
                r.kind,
                quote(&r.name)
            ));
        }
    }
    out.extend(newly_hot_indexes(base, m).map(|(b, x)| {
        format!(
            "the index {} concentrates its writes: its busiest region takes {} % of a window's index writes instead of {} %",
            x.name,
            fixed(x.busiest_share * 100.0, 0),
            fixed(b.busiest_share * 100.0, 0)
        )
    }));
    (out, breaks_get)
}

/// The indexes of `m` that concentrate writes where the input's same index does not (with the
/// input's).
pub(super) fn newly_hot_indexes<'a>(
    base: &'a CandidateMetrics,
    m: &'a CandidateMetrics,
) -> impl Iterator<Item = (&'a crate::advise::IndexCost, &'a crate::advise::IndexCost)> {
    m.indexes.iter().filter_map(|x| {
        let b = base.indexes.iter().find(|b| b.name == x.name)?;
        (x.concentrates_writes && !b.concentrates_writes).then_some((b, x))
    })
}

/// What is wrong with the input itself.
pub(super) fn input_flags(m: &CandidateMetrics) -> Vec<String> {
    let mut out = Vec::new();
    for r in &m.reads {
        if r.kind == "get" && (r.scans > 1 || r.full_scan) {
            out.push(format!(
                "the get {} is not one row's lookup: it needs {}{}",
                quote(&r.name),
                scans(r.scans),
                if r.full_scan {
                    " over the whole table"
                } else {
                    ""
                }
            ));
        } else if r.full_scan {
            out.push(format!(
                "the {} {} scans the whole table",
                r.kind,
                quote(&r.name)
            ));
        }
    }
    if m.empty_regions > 0 {
        out.push(format!(
            "{} of its {} regions take no write",
            m.empty_regions, m.regions
        ));
    }
    out
}

/// The input's salt spreads unevenly where another hash over the same buckets does not (a
/// Java string hash over digit text sums the digits): the measured spread of both.
pub(super) fn skewed_salt(list: &[Evaluated], base: &CandidateMetrics) -> Option<String> {
    use crate::keyspec::Segment;
    let input = list.first()?;
    let (Segment::Salt(salt), rest) = input.design.key.segments.split_first()? else {
        return None;
    };
    let better = list
        .iter()
        .skip(1)
        .filter_map(|c| {
            let (Segment::Salt(s), r) = c.design.key.segments.split_first()? else {
                return None;
            };
            let same = s.buckets == salt.buckets && s.render == salt.render && r == rest;
            (same && s.hash != salt.hash).then_some((s.hash, c.metrics.as_ref()?))
        })
        .min_by(|a, b| a.1.hotspot_factor.total_cmp(&b.1.hotspot_factor))?;
    (base.hotspot_factor > 1.25 * better.1.hotspot_factor).then(|| {
        format!(
            "the salt's {} hash spreads unevenly over its {} buckets: hotspot {}, where a {} hash over the same buckets gives {}",
            crate::advise::presplit::hash_name(salt.hash),
            salt.buckets,
            fixed(base.hotspot_factor, 2),
            crate::advise::presplit::hash_name(better.0),
            fixed(better.1.hotspot_factor, 2)
        )
    })
}

/// The recommendation's reasons against the input.
pub(super) fn reasons(
    label: &str,
    base: &CandidateMetrics,
    m: &CandidateMetrics,
    same: bool,
    flags: &[String],
) -> Vec<String> {
    let mut why = Vec::new();
    if same {
        why.push(format!(
            "keep the current design: no candidate spreads writes clearly better (hotspot {}) without making a read dearer",
            fixed(base.hotspot_factor, 2)
        ));
        return why;
    }
    why.push(format!("{label}:"));
    let h = (m.hotspot_factor, base.hotspot_factor);
    if (h.0 - h.1).abs() > 0.02 * h.1.max(1.0) {
        why.push(format!(
            "{} hotspot {} instead of {} ({} regions written per window instead of {})",
            if h.0 < h.1 { "gain:" } else { "cost:" },
            fixed(h.0, 2),
            fixed(h.1, 2),
            fixed(m.active_regions_per_window, 1),
            fixed(base.active_regions_per_window, 1)
        ));
    }
    for (b, r) in base.reads.iter().zip(&m.reads) {
        if r.scans == b.scans && r.full_scan == b.full_scan && (r.cost - b.cost).abs() < 1e-9 {
            continue;
        }
        let better = r.cost < b.cost;
        let mut s = format!(
            "{} the {} {}",
            if better { "gain:" } else { "cost:" },
            r.kind,
            quote(&r.name)
        );
        if r.scans != b.scans {
            s.push_str(&format!(
                " becomes {} instead of {}",
                scans(r.scans),
                scans(b.scans)
            ));
        } else {
            s.push_str(&format!(" stays {}", scans(r.scans)));
        }
        if r.full_scan != b.full_scan {
            s.push_str(if r.full_scan {
                ", over the whole table"
            } else {
                ", no longer over the whole table"
            });
        }
        if let (Some(x), Some(y)) = (r.rows_read_per_row_returned, b.rows_read_per_row_returned) {
            if (x - y).abs() > 0.05 * y.max(1.0) {
                s.push_str(&format!(
                    " ({} rows read per row returned instead of {})",
                    fixed(x, 1),
                    fixed(y, 1)
                ));
            }
        }
        why.push(s);
    }
    if (m.key_bytes - base.key_bytes).abs() >= 0.5 {
        why.push(format!(
            "{} keys of {} bytes instead of {}",
            if m.key_bytes < base.key_bytes {
                "gain:"
            } else {
                "cost:"
            },
            fixed(m.key_bytes, 1),
            fixed(base.key_bytes, 1)
        ));
    }
    if base.empty_regions > m.empty_regions {
        why.push(format!(
            "gain: {} empty regions instead of {} of {}",
            m.empty_regions, base.empty_regions, base.regions
        ));
    }
    for (x, b) in newly_hot_indexes(m, base) {
        why.push(format!(
            "gain: the index {} spreads its writes: its busiest region takes {} % of a window's index writes instead of {} %",
            x.name,
            fixed(x.busiest_share * 100.0, 0),
            fixed(b.busiest_share * 100.0, 0)
        ));
    }
    why.extend(flags.iter().map(|f| format!("cost: {f}")));
    why
}
