//! The live table's diagnosis: where the readings and the design disagree, each finding with
//! the figures it rests on. A finding is said only when the readings show it: a region or salt
//! bucket at twice the mean or more, a busiest region that moves forward along the key in
//! consecutive intervals, a server whose share is half again its share of the regions.

use super::{AgainstDesign, Measure, ObservedRegion};
use crate::design::{field_of, leads_with_time, DesignDocument};
use crate::hbase::bytes::to_bytes_binary_str;
use crate::keyspec::{format::segments_text, Boundary, Segment};
use crate::region::series::RegionSeries;
use crate::support::num_text::fixed;

/// A region at this many times the mean share or more is hot.
const HOT_FACTOR: f64 = 2.0;
/// A server is out of proportion when its share is this many times its share of the regions
/// and [`SERVER_EXCESS`] above it.
const SERVER_FACTOR: f64 = 1.5;
/// See [`SERVER_FACTOR`]: ten points, so two regions of three at 40 % and 30 % are not named.
const SERVER_EXCESS: f64 = 0.1;
/// Salt values per bucket under which a bucket's load is that of a few values.
const FEW_PER_BUCKET: f64 = 10.0;

/// The findings, in the order: hot region or bucket, a prediction the table does not bear
/// out, a hot range that moves, a server out of proportion.
pub(super) fn diagnose(
    series: &RegionSeries,
    doc: &DesignDocument,
    starts: &[Option<Boundary>],
    a: &AgainstDesign,
) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(hot_region(doc, a));
    out.extend(predicted_not_seen(a));
    out.extend(moving(series, doc, starts));
    out.extend(server(a));
    out
}

/// `12 %`, or `4.5 %` under ten.
fn pct(x: f64) -> String {
    let p = x * 100.0;
    format!("{} %", fixed(p, if p < 10.0 { 1 } else { 0 }))
}

/// A region by its start key and what it reads as: `` `m` (host=m…) ``, `the first region`.
fn name(r: &ObservedRegion) -> String {
    match (r.start_key.as_deref(), r.decoded.as_deref()) {
        (Some(""), _) => "the first region".to_string(),
        (Some(k), Some(d)) if d != k => format!("region `{k}` ({d})"),
        (Some(k), _) => format!("region `{k}`"),
        (None, _) => format!("region {}", r.region),
    }
}

/// The salt, hash or random prefix the key opens with: its bucket count (a salt's, a random
/// prefix's) and the fields it hashes (none for a random prefix).
fn salt_lead(doc: &DesignDocument) -> Option<(Option<u32>, Vec<String>)> {
    let segs = &doc.key.segments;
    let at = segs
        .iter()
        .position(|s| !matches!(s, Segment::Literal(_)))?;
    let after = segs.get(at + 1..).unwrap_or(&[]);
    let inputs = |of: &Option<Vec<Segment>>| -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for s in of.as_deref().unwrap_or(after) {
            if let Some(f) = field_of(s) {
                if !v.iter().any(|x| x == f) {
                    v.push(f.to_string());
                }
            }
        }
        v
    };
    match segs.get(at)? {
        Segment::Salt(s) => Some((Some(s.buckets), inputs(&s.of))),
        Segment::Random(r) => Some((Some(r.buckets), Vec::new())),
        Segment::Hash15(h) | Segment::Md5(h) => Some((None, inputs(&h.of))),
        Segment::Md5Hex(h) => Some((None, inputs(&h.of))),
        _ => None,
    }
}

/// The busiest region at [`HOT_FACTOR`] times the mean or more; for a salted key, as its
/// bucket, with the value count of the salt's inputs.
fn hot_region(doc: &DesignDocument, a: &AgainstDesign) -> Option<String> {
    let n = a.regions.len();
    let top = a
        .regions
        .iter()
        .filter(|r| r.measured_share.is_some())
        .fold(None::<&ObservedRegion>, |best, r| match best {
            Some(b) if b.measured_share >= r.measured_share => Some(b),
            _ => Some(r),
        })?;
    let share = top.measured_share?;
    let factor = share * n as f64;
    if n < 2 || factor < HOT_FACTOR {
        return None;
    }
    let what = a.measure.word();
    let figures = format!("{} of {what} over {n} regions", pct(share));
    let predicted = top
        .predicted_share
        .map(|p| format!("; the design predicts {} for it", pct(p)))
        .unwrap_or_default();
    let lead = salt_lead(doc);
    let (Some((buckets, inputs)), Some(bucket)) = (lead, top.salt.as_deref()) else {
        return Some(format!(
            "{} takes {}× the mean ({figures}){predicted}",
            name(top),
            fixed(factor, 1)
        ));
    };
    let mut text = format!(
        "salted, but bucket {bucket} takes {}× the mean ({figures})",
        fixed(factor, 1)
    );
    let counts: Vec<(String, Option<u64>)> = inputs
        .iter()
        .map(|f| (f.clone(), doc.distinct_values(f)))
        .collect();
    let known: Vec<String> = counts
        .iter()
        .filter_map(|(f, c)| c.map(|c| format!("`{f}` has {c} values")))
        .collect();
    if !known.is_empty() {
        text.push_str(&format!(
            ": its input{} {}",
            if inputs.len() > 1 { "s" } else { "" },
            known.join(", ")
        ));
        let all = counts
            .iter()
            .try_fold(1u64, |acc, (_, c)| c.map(|c| acc.saturating_mul(c)));
        if let (Some(values), Some(b)) = (all, buckets.filter(|b| *b > 0)) {
            let per = values as f64 / f64::from(b);
            if per < FEW_PER_BUCKET {
                text.push_str(&format!(
                    ", {} per bucket of {b}: a bucket takes the whole load of the few values \
                     hashed into it",
                    fixed(per, 1)
                ));
            }
        }
    }
    text.push_str(&predicted);
    Some(text)
}

/// The region the design predicts hottest, at [`HOT_FACTOR`] times the mean or more, when it
/// takes half its predicted share or less now.
fn predicted_not_seen(a: &AgainstDesign) -> Option<String> {
    let n = a.regions.len() as f64;
    let r = a
        .regions
        .iter()
        .filter(|r| r.predicted_share.is_some() && r.measured_share.is_some())
        .fold(None::<&ObservedRegion>, |best, r| match best {
            Some(b) if b.predicted_share >= r.predicted_share => Some(b),
            _ => Some(r),
        })?;
    let (p, m) = (r.predicted_share?, r.measured_share?);
    if n < 2.0 || p * n < HOT_FACTOR || m * 2.0 > p {
        return None;
    }
    Some(format!(
        "the design predicts {} takes {} of writes ({}× the mean), but it takes {} of {} now: \
         the live workload does not follow the design's generators there",
        name(r),
        pct(p),
        fixed(p * n, 1),
        pct(m),
        a.measure.word()
    ))
}

/// The busiest region of each interval with a rate: when it changes at least twice and each
/// time to a later start key, the hot range moves along the key.
fn moving(
    series: &RegionSeries,
    doc: &DesignDocument,
    starts: &[Option<Boundary>],
) -> Option<String> {
    let mut tops: Vec<usize> = Vec::new();
    for iv in &series.intervals {
        let m = Measure::for_interval(iv);
        let best = iv
            .regions
            .iter()
            .filter_map(|r| Some((r.region, m.of(r)?)))
            .filter(|(_, x)| *x > 0.0)
            .fold(None::<(usize, f64)>, |best, (i, x)| match best {
                Some((_, b)) if b >= x => best,
                _ => Some((i, x)),
            });
        if let Some((i, _)) = best {
            tops.push(i);
        }
    }
    let counted = tops.len();
    tops.dedup();
    if tops.len() < 3 {
        return None;
    }
    let key = |i: usize| -> Option<Vec<u8>> {
        Some(to_bytes_binary_str(
            series.regions.get(i)?.start_key.as_deref()?,
        ))
    };
    let keys: Option<Vec<Vec<u8>>> = tops.iter().map(|&i| key(i)).collect();
    let keys = keys?;
    if !keys.windows(2).all(|w| w.first() < w.get(1)) {
        return None;
    }
    let label = |i: usize| -> String {
        let text = series
            .regions
            .get(i)
            .and_then(|r| r.start_key.as_deref())
            .unwrap_or_default();
        match starts.get(i).and_then(Option::as_ref) {
            _ if text.is_empty() => "(first)".to_string(),
            Some(b) if b.label != text => format!("`{text}` ({})", b.label),
            _ => format!("`{text}`"),
        }
    };
    let mut path: Vec<String> = tops.iter().take(5).map(|&i| label(i)).collect();
    if tops.len() > 5 {
        path.push("…".to_string());
    }
    let why = if leads_with_time(doc) {
        let first = doc
            .key
            .segments
            .iter()
            .find(|s| !matches!(s, Segment::Literal(_)))
            .map(|s| segments_text(std::slice::from_ref(s)))
            .unwrap_or_default();
        format!(": the key leads with time (`{first}`), so each interval's writes land after the last's")
    } else {
        ", though the design's key does not lead with time: the live keys rise with time where \
         the design's do not"
            .to_string()
    };
    Some(format!(
        "the hot range moves: the busiest region went {} in {} intervals{why}",
        path.join(" → "),
        counted
    ))
}

/// The server whose share of the measure is furthest above its share of the regions, when
/// [`SERVER_FACTOR`] times it and [`SERVER_EXCESS`] above.
fn server(a: &AgainstDesign) -> Option<String> {
    if a.servers.len() < 2 {
        return None;
    }
    let s = a
        .servers
        .iter()
        .filter(|s| {
            s.measured_share >= SERVER_FACTOR * s.region_share
                && s.measured_share >= s.region_share + SERVER_EXCESS
        })
        .fold(None::<&super::ObservedServer>, |best, s| match best {
            Some(b) if b.measured_share - b.region_share >= s.measured_share - s.region_share => {
                Some(b)
            }
            _ => Some(s),
        })?;
    let predicted = s
        .predicted_share
        .map(|p| format!("; the design predicts {} on it", pct(p)))
        .unwrap_or_default();
    Some(format!(
        "one server takes {} of {} while holding {} of the regions ({} of {}): {}{predicted}",
        pct(s.measured_share),
        a.measure.word(),
        pct(s.region_share),
        s.regions,
        a.regions.len(),
        s.server
    ))
}
