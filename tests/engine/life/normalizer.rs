//! Research file §A4: the normalizer's golden plans and its gates.

use rowkey_lab::life::{normalizer_plans, NormalizerRegion, NormalizerSettings};

fn regions(mb: &[i64]) -> Vec<NormalizerRegion> {
    mb.iter()
        .map(|&size_mb| NormalizerRegion {
            size_mb,
            age_days: 10.0,
        })
        .collect()
}

fn on() -> NormalizerSettings {
    NormalizerSettings {
        enabled: true,
        ..NormalizerSettings::default()
    }
}

#[test]
fn a4_split_the_big_one_and_merge_the_small_run() {
    // avg 575: 2000 > 1150 splits; 100 + 100 + 100 = 300 ≤ 575 merges, 2300 does not.
    let p = normalizer_plans(&regions(&[100, 100, 100, 2000]), &on());
    assert_eq!(p.splits, vec![3]);
    assert_eq!(p.merges, vec![(0, 2)]);
}

#[test]
fn a4_empty_regions_merge_only_when_the_minimum_size_is_0() {
    let sizes = [0, 0, 0, 0, 5000, 5000, 5000, 5000];
    let zero = NormalizerSettings {
        merge_min_region_size_mb: 0,
        ..on()
    };
    let p = normalizer_plans(&regions(&sizes), &zero);
    assert!(p.splits.is_empty(), "5000 is not above 2 × 2500");
    assert_eq!(p.merges, vec![(0, 3)]);
    // hbase-default.xml's 1 MB: no plans at all.
    let p = normalizer_plans(&regions(&sizes), &on());
    assert!(p.splits.is_empty() && p.merges.is_empty());
}

#[test]
fn a4_gates_two_regions_age_and_off() {
    assert!(normalizer_plans(&regions(&[10, 10]), &on())
        .merges
        .is_empty());
    let mut young = regions(&[100, 100, 100, 2000]);
    young[1].age_days = 2.99;
    // r1 too young: the run {r0} ends there, {r2} alone cannot merge with r3.
    assert!(normalizer_plans(&young, &on()).merges.is_empty());
    // isOldEnoughForMerge: now.isAfter(created + 3 days), strictly: at 3 days to the
    // millisecond the region is still too young.
    young[1].age_days = 3.0;
    assert!(normalizer_plans(&young, &on()).merges.is_empty());
    young[1].age_days = 3.001;
    assert_eq!(normalizer_plans(&young, &on()).merges, vec![(0, 2)]);
    let off = NormalizerSettings::default();
    assert!(!off.enabled);
    let p = normalizer_plans(&regions(&[100, 100, 100, 2000]), &off);
    assert!(p.splits.is_empty() && p.merges.is_empty());
}
