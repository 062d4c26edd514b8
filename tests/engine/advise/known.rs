//! The seeds' known answers: a time-first key gets a salted or reordered key; a hex key
//! pre-split with `Bytes.split` gets a `hexString` pre-split; a salt whose Java string hash
//! spreads unevenly gets a better hash; a random salt's get is flagged on the input.

use super::common::{advice, doc, preset, small};
use rowkey_lab::keyspec::{SaltHash, Segment};
use rowkey_lab::region::PreSplit;

/// The recommended key leads with a salt, or no longer with the time field `time`.
fn salted_or_reordered(id: &str, time: &str) {
    let a = advice(&preset(id));
    assert_ne!(a.recommended.index, 0, "{id}: the time-first key is kept");
    let first = a.recommended.design.key.segments.first().expect("a key");
    let leads_with_time = match first {
        Segment::Time(t) => t.field == time,
        Segment::Long(n) => n.field == time,
        Segment::Dec(d) => d.field == time,
        Segment::Revts(r) => r.field == time,
        _ => false,
    };
    assert!(
        matches!(first, Segment::Salt(_)) || !leads_with_time,
        "{id}: {}",
        a.recommended.key_text
    );
    let base = a.candidates[0].metrics.as_ref().expect("evaluated");
    // One region of six takes each window's writes: a spread of about 6 (the target is the
    // preset's 6 regions); the recommendation spreads them.
    assert!(
        base.hotspot_factor > 4.0,
        "{id}: input {}",
        base.hotspot_factor
    );
    assert!(
        a.recommended.metrics.hotspot_factor < 2.0,
        "{id}: {} {}",
        a.recommended.key_text,
        a.recommended.metrics.hotspot_factor
    );
}

#[test]
fn a_time_first_telecom_key_gets_a_salted_or_reordered_key() {
    salted_or_reordered("seed000-telecom-time-first", "ts");
}

#[test]
fn a_time_first_message_key_gets_a_salted_or_reordered_key() {
    salted_or_reordered("seed003-time-first", "sent");
}

#[test]
fn a_hex_key_split_with_bytes_split_gets_a_hex_string_pre_split() {
    let a = advice(&preset("seed001-md5hex-bytes-split"));
    let layout = a.recommended.design.regions.clone().expect("regions");
    assert!(
        matches!(layout.presplit, PreSplit::HexString { .. }),
        "{:?}",
        layout.presplit
    );
    // Bytes.split over "00000000".."ffffffff" puts split keys in bytes no hex digit has: the
    // input leaves regions empty, the hexString split none.
    let base = a.candidates[0].metrics.as_ref().expect("evaluated");
    assert!(base.empty_regions > 0);
    assert_eq!(a.recommended.metrics.empty_regions, 0);
    assert!(a
        .recommended
        .why
        .iter()
        .any(|w| w.contains("empty regions")));
}

/// Sequential order ids 10000, 10001, … salted over their decimal text by a 32-bucket Java
/// string hash. `String.hashCode` of the five characters `c0 … c4` is `Σ ci·31^(4−i)`,
/// positive here, and 31 ≡ −1 (mod 32), so the bucket is `(c0 − c1 + c2 − c3 + c4) mod 32`;
/// each code is 48 + its digit, so that is `(16 + d0 − d1 + d2 − d3 + d4) mod 32`: a sum of
/// five digits with a standard deviation near 6, so about a sixth of the 32 residues take most
/// of the writes (the busiest about twice the mean), while consecutive ids move the bucket by
/// one. MD5 of the same text spreads them evenly; unsalted, the sequence writes one region.
const SKEWED: &str = r#"{"v": 1,
 "fields": [{"name": "order", "type": "long", "generator": {"kind": "sequence", "start": 10000}}],
 "key": "salt(str(order), 32) + long(order)",
 "workload": {"records": 50000, "seed": 3},
 "regions": {"presplit": {"kind": "saltBuckets", "buckets": 32}},
 "reads": [{"type": "get", "name": "one order", "record": {"order": 14711}}]}"#;

#[test]
fn a_salt_with_a_skewed_hash_gets_a_better_hash() {
    // 4 windows of 12,500 writes: about 390 per bucket, so sampling noise stays near 1.15.
    let opts = rowkey_lab::advise::AdviseOptions {
        records: 50_000,
        windows: 4,
        ..small()
    };
    let a = rowkey_lab::advise::advise(&doc(SKEWED), &opts).unwrap();
    let base = a.candidates[0].metrics.as_ref().expect("evaluated");
    assert!(
        base.hotspot_factor > 1.8,
        "the Java string hash is even here: {}",
        base.hotspot_factor
    );
    let Some(Segment::Salt(s)) = a.recommended.design.key.segments.first() else {
        panic!("not salted: {}", a.recommended.key_text);
    };
    assert_ne!(s.hash, SaltHash::JavaString, "{}", a.recommended.key_text);
    assert!(
        a.recommended.metrics.hotspot_factor < 1.3,
        "{} {}",
        a.recommended.key_text,
        a.recommended.metrics.hotspot_factor
    );
    assert!(a.recommended.why.iter().any(|w| w.contains("hotspot")));
    // The get stays one scan.
    assert_eq!(a.recommended.metrics.reads[0].scans, 1);
    // The input is told why, with both spreads.
    assert!(
        a.input_flags
            .iter()
            .any(|f| f
                .starts_with("the salt's javaString hash spreads unevenly over its 32 buckets")),
        "{:?}",
        a.input_flags
    );
}

#[test]
fn a_random_salt_is_flagged_and_replaced_by_a_computable_one() {
    let a = advice(&preset("seed001-random-salt"));
    assert!(
        a.input_flags
            .iter()
            .any(|f| f.contains("'one row'") && f.contains("4 scans")),
        "{:?}",
        a.input_flags
    );
    assert_eq!(
        a.recommended.metrics.reads[0].scans, 1,
        "{}",
        a.recommended.key_text
    );
    assert!(a
        .recommended
        .why
        .iter()
        .any(|w| w.contains("becomes 1 scan instead of 4 scans")));
}

#[test]
fn a_salt_over_phone_and_month_gives_way_to_one_scan_per_read() {
    // Seed 000's telecom key salts phone + month: a three-month range is three scans, one per
    // month's bucket, and all of one phone's calls ten. A salt over the phone alone (every
    // read fixes it) makes every read one scan; so does the phone first without a salt.
    let a = advice(&preset("seed000-telecom"));
    let partial = a
        .candidates
        .iter()
        .find(|c| c.label == "salt 10 buckets, md5 hash of phone, saltBuckets pre-split (10)")
        .expect("the partial-key salt candidate");
    let m = partial.metrics.as_ref().expect("evaluated");
    assert!(m.reads.iter().all(|r| r.scans == 1), "{:?}", m.reads);
    assert!(a.recommended.metrics.reads.iter().all(|r| r.scans == 1));
    assert!(a
        .recommended
        .why
        .iter()
        .any(|w| w.contains("'one phone, three months' becomes 1 scan instead of 3 scans")));
    assert!(a
        .recommended
        .why
        .iter()
        .any(|w| w.contains("'one phone, all time' becomes 1 scan instead of 10 scans")));
}

#[test]
fn the_advice_says_what_its_figures_are_made_of() {
    // The page's analysis and the advisor showed 14.21 and 54.85 for the same design with no
    // word why: other records, other windows, another divisor.
    let d = preset("seed000-telecom-time-first");
    let own = d.workload.as_ref().unwrap().records;
    let a = advice(&d);
    assert_ne!(own, a.records);
    for part in [
        a.records.to_string(),
        format!("which has {own}"),
        "8 time windows".to_string(),
        format!("at least {} regions", a.target_regions),
    ] {
        assert!(a.basis.contains(&part), "{} lacks {part}", a.basis);
    }
    let mut same = d.clone();
    same.workload.as_mut().unwrap().records = a.records;
    assert!(advice(&same).basis.contains("(the design's workload)"));
}
