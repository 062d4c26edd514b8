//! Candidates are whole design documents: they read back from their JSON, keep every field of
//! the input's key, write every example's record, come in the same order with the same
//! labels every time, and the input comes first as given.

use super::common::{preset, small};
use crate::cases::Failures;
use std::collections::BTreeSet;

use rowkey_lab::advise::candidates;
use rowkey_lab::design::{check_examples, presets, DesignDocument, ExampleStatus};

/// The fields the key writes as values (each segment's own field, by the key's layout; a
/// hash's source is no value the key keeps).
fn key_fields(doc: &DesignDocument) -> BTreeSet<String> {
    rowkey_lab::keyspec::layout(&doc.key, &doc.key_fields())
        .unwrap()
        .into_iter()
        .filter_map(|l| l.field)
        .collect()
}

#[test]
fn every_candidate_is_a_whole_valid_document() {
    let mut f = Failures::new("candidates of every preset");
    for p in presets::all() {
        let input = preset(p.id);
        let set = candidates(&input, &small()).unwrap();
        f.eq(
            format!("{}: the input first", p.id),
            &set.candidates[0].design,
            &input,
        );
        f.eq(
            format!("{}: the input's label", p.id),
            set.candidates[0].label.as_str(),
            "current",
        );
        let again = candidates(&input, &small()).unwrap();
        f.eq(format!("{}: deterministic", p.id), &again, &set);
        let mut labels: Vec<&str> = set.candidates.iter().map(|c| c.label.as_str()).collect();
        labels.sort_unstable();
        labels.dedup();
        f.eq(
            format!("{}: unique labels", p.id),
            &labels.len(),
            &set.candidates.len(),
        );
        let fields = key_fields(&input);
        for c in &set.candidates {
            let case = format!("{} / {}", p.id, c.label);
            match DesignDocument::from_json(&c.design.to_json()) {
                Ok(back) => {
                    f.eq(format!("{case}: reads back"), &back, &c.design);
                }
                Err(e) => f.fail(format!("{case}: reads back"), e),
            }
            let kept = key_fields(&c.design);
            f.check(
                format!("{case}: keeps the key's fields"),
                fields.is_subset(&kept),
                format!("{fields:?} not in {kept:?}"),
            );
            let examples = check_examples(&c.design).unwrap();
            let moved: Vec<usize> = examples
                .iter()
                .enumerate()
                .filter(|(_, e)| e.status == ExampleStatus::Moved)
                .map(|(i, _)| i)
                .collect();
            f.check(
                format!("{case}: examples rewritten"),
                moved.is_empty(),
                format!("{moved:?}"),
            );
            f.eq(
                format!("{case}: the input's reads"),
                &c.design.reads,
                &input.reads,
            );
            f.eq(
                format!("{case}: the input's workload"),
                &c.design.workload,
                &input.workload,
            );
        }
        f.check(
            format!("{}: a sweep", p.id),
            set.candidates.len() >= 3 || p.id.contains("md5"),
            set.candidates.len(),
        );
    }
    f.finish();
}

#[test]
fn a_decimal_prefix_gets_a_decimal_string_pre_split() {
    // Eight digits of a uniform account number lead the key: DecimalStringSplit over
    // 00000000..99999999 cuts it into equal ranges, one per target region (4 servers).
    let doc = super::common::doc(
        r#"{"v": 1,
         "fields": [{"name": "account", "type": "long", "generator": {"kind": "uniformInt", "min": 0, "max": 99999999}},
                    {"name": "ts", "type": "timestamp"}],
         "key": "dec(account, 8) + long(ts)",
         "workload": {"records": 20000},
         "regions": {"regionServers": 4}}"#,
    );
    let set = candidates(&doc, &small()).unwrap();
    let dec = set
        .candidates
        .iter()
        .find(|c| {
            matches!(
                c.design.regions.as_ref().map(|r| &r.presplit),
                Some(rowkey_lab::region::PreSplit::DecimalString { regions: 4, .. })
            )
        })
        .expect("a decimalString candidate");
    assert_eq!(dec.label, "decimalString pre-split (4 regions)");
    let m = rowkey_lab::advise::evaluate(&dec.design, &small(), set.target_regions).unwrap();
    assert_eq!((m.regions, m.empty_regions), (4, 0));
    assert!(m.hotspot_factor < 1.3, "{}", m.hotspot_factor);
}

#[test]
fn a_time_first_key_gets_time_bucket_candidates() {
    // `bucket(ts, mod=8)` as one byte in front of the time-first key. A one-minute range
    // reaches all 8 buckets (60,000 ms values), one scan each. But the preset writes 10
    // records a second from 1630972800000 (a multiple of 8): every ts is a multiple of 100,
    // and 100 ≡ 4 (mod 8), so ts % 8 is 0 or 4: 2 of the 8 regions take the writes, half each,
    // a spread of 0.5 / (1/8) = 4. The evaluation shows the aliasing; the advisor does not
    // recommend it.
    let doc = preset("seed000-telecom-time-first");
    let set = candidates(&doc, &small()).unwrap();
    let c = set
        .candidates
        .iter()
        .find(|c| c.label == "time bucket ts % 8, saltBuckets pre-split (8)")
        .expect("a time-bucket candidate");
    assert_eq!(
        c.key_text,
        "bucket(ts, mod=8, as=byte) + time(ts, \"yyyyMMddHHmmss\") + \"_\" + phone"
    );
    let m = rowkey_lab::advise::evaluate(&c.design, &small(), set.target_regions).unwrap();
    assert_eq!(m.reads[0].name, "all calls in one minute");
    assert_eq!(m.reads[0].scans, 8);
    assert_eq!(m.regions, 8);
    assert_eq!(m.empty_regions, 6);
    assert!(
        (m.hotspot_factor - 4.0).abs() < 0.01,
        "{}",
        m.hotspot_factor
    );
}

/// A table of one region on the default one server scored "even" (its one region takes every
/// write, 1 x the mean of 1), so `advise` without `--servers` recommended keeping it. With no
/// servers given, writes are judged over at least `MIN_SPREAD` regions: the one-region input
/// scores 4 and a spread over several regions is recommended; with `--servers 1` said
/// outright, the user's one server stands.
#[test]
fn without_servers_a_one_region_table_is_not_recommended() {
    use rowkey_lab::advise::MIN_SPREAD;
    let mut d = preset("seed000-telecom-time-first");
    d.regions.get_or_insert_with(Default::default).presplit = rowkey_lab::region::PreSplit::None;
    let a = rowkey_lab::advise::advise(&d, &small()).unwrap();
    let input = a.candidates[0].metrics.as_ref().unwrap();
    assert_eq!(input.regions, 1);
    assert_eq!(a.target_regions, MIN_SPREAD);
    assert!(
        (input.hotspot_factor - f64::from(MIN_SPREAD)).abs() < 1e-9,
        "{}",
        input.hotspot_factor
    );
    assert_ne!(a.recommended.index, 0, "{:?}", a.recommended.why);
    assert!(
        a.recommended.metrics.regions >= MIN_SPREAD as usize,
        "{}",
        a.recommended.metrics.regions
    );
    // one server said outright: no floor
    let one = rowkey_lab::advise::AdviseOptions {
        servers: Some(1),
        ..small()
    };
    let a = rowkey_lab::advise::advise(&d, &one).unwrap();
    assert_eq!(a.target_regions, 1);
}
