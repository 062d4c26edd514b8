//! Research file §A3: the split sizes per policy and regions on the server, the jitter at its
//! bounds, and the simulator's check equal to `hbase::policy`'s for every n.

use rowkey_lab::hbase::policy::{SplitConfig, SplitPolicy};
use rowkey_lab::life::{splits_at, LifeSettings};

const MIB: i64 = 1 << 20;
const INITIAL: i64 = 268_435_456;
const DESIRED: i64 = 10_737_418_240;

fn settings(policy: SplitPolicy) -> LifeSettings {
    LifeSettings {
        policy,
        ..LifeSettings::default()
    }
}

/// The largest size that does not split: the check is a strict `>`.
fn limit_of(s: &LifeSettings, n: u32, jitter: Option<f32>) -> Option<i64> {
    // Bisect over sizes; a policy that never splits answers None.
    let (mut lo, mut hi) = (0i64, 1i64 << 50);
    if !splits_at(s, hi as f64, n, jitter) {
        return None;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if splits_at(s, mid as f64, n, jitter) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(lo)
}

#[test]
fn a3_increasing_to_upper_bound_for_one_to_five_regions() {
    let s = settings(SplitPolicy::IncreasingToUpperBound);
    // initial × n³, capped at desired: 256 MiB, 2,048 MiB, 6,912 MiB, then 10 GiB (the research
    // file's figures, in its units).
    let want = [
        (0, DESIRED),
        (1, 256 * MIB),
        (2, 2_048 * MIB),
        (3, 6_912 * MIB),
        (4, DESIRED),
        (5, DESIRED),
        (101, DESIRED),
    ];
    let limits = s.split.limits(None);
    for (n, limit) in want {
        // the simulator's check, and the HBase port's own size for the same count
        assert_eq!(limit_of(&s, n, None), Some(limit), "n = {n}");
        assert_eq!(s.policy.size_to_check(&limits, n as i32), limit, "n = {n}");
    }
}

#[test]
fn a3_stepping_splits_the_first_region_early_and_then_at_desired() {
    let s = settings(SplitPolicy::Stepping);
    for (n, limit) in [
        (0, DESIRED),
        (1, INITIAL),
        (2, DESIRED),
        (3, DESIRED),
        (4, DESIRED),
        (5, DESIRED),
    ] {
        assert_eq!(limit_of(&s, n, None), Some(limit), "n = {n}");
    }
    let c = settings(SplitPolicy::ConstantSize);
    for n in 0..=5 {
        assert_eq!(limit_of(&c, n, None), Some(DESIRED), "n = {n}");
    }
    assert_eq!(limit_of(&settings(SplitPolicy::Disabled), 1, None), None);
}

#[test]
fn a3_a_table_flush_size_of_64_mib_halves_the_initial_size() {
    let mut s = settings(SplitPolicy::IncreasingToUpperBound);
    s.split.table_memstore_flush_size = Some(64 * MIB);
    let want = [128 * MIB, 1_024 * MIB, 3_456 * MIB, 8_192 * MIB, DESIRED];
    for (i, limit) in want.iter().enumerate() {
        assert_eq!(
            limit_of(&s, i as u32 + 1, None),
            Some(*limit),
            "n = {}",
            i + 1
        );
    }
}

#[test]
fn a3_jitter_at_its_bounds() {
    // desired + (long)(desired × (u − 0.5) × 0.25).
    let s = settings(SplitPolicy::ConstantSize);
    for (u, limit) in [
        (0.0f32, 9_395_240_960i64),
        (0.25, 10_066_329_600),
        (0.5, DESIRED),
        (0.75, 11_408_506_880),
    ] {
        assert_eq!(limit_of(&s, 3, Some(u)), Some(limit), "u = {u}");
    }
    // The supremum, 12,079,595,520, is never reached: u < 1.
    let top = limit_of(&s, 3, Some(1.0 - f32::EPSILON)).unwrap();
    assert!(top < 12_079_595_520 && top > 12_079_000_000, "{top}");
    // Jitter moves only desired: IncreasingToUpperBound's n = 1..3 and Stepping's n = 1 stay.
    let itub = settings(SplitPolicy::IncreasingToUpperBound);
    assert_eq!(limit_of(&itub, 3, Some(0.0)), Some(7_247_757_312));
    assert_eq!(limit_of(&itub, 4, Some(0.0)), Some(9_395_240_960));
    assert_eq!(
        limit_of(&settings(SplitPolicy::Stepping), 1, Some(0.0)),
        Some(INITIAL)
    );
}

#[test]
fn every_policy_checks_the_size_hbase_policy_gives_for_every_n() {
    let policies = [
        SplitPolicy::ConstantSize,
        SplitPolicy::IncreasingToUpperBound,
        SplitPolicy::Stepping,
        SplitPolicy::KeyPrefix { prefix_length: 4 },
        SplitPolicy::DelimitedKeyPrefix {
            delimiter: "_".into(),
        },
    ];
    for policy in policies {
        let s = settings(policy.clone());
        for jitter in [None, Some(0.1f32), Some(0.9)] {
            let limits = SplitConfig::default().limits(jitter);
            for n in 0..=1000u32 {
                let want = policy.size_to_check(&limits, n as i32) as f64;
                assert!(
                    !splits_at(&s, want, n, jitter),
                    "{policy:?} n={n} at {want}"
                );
                assert!(
                    splits_at(&s, want + 1.0, n, jitter),
                    "{policy:?} n={n} above {want}"
                );
            }
        }
    }
    let s = settings(SplitPolicy::Disabled);
    for n in 0..=1000u32 {
        assert!(!splits_at(&s, 1e15, n, None));
    }
}

#[test]
fn overallfiles_splits_two_families_at_their_sum_on_3x_and_at_one_store_on_2x() {
    // Two families filled alike: 3.x (overallfiles true) compares their sum, 2.5 and 2.6 one
    // store, so the region splits at twice the size.
    use rowkey_lab::life::HBaseVersion;
    for (version, limit) in [
        (HBaseVersion::V3, DESIRED),
        (HBaseVersion::V2_6, 2 * DESIRED + 1),
        (HBaseVersion::V2_5, 2 * DESIRED + 1),
    ] {
        let s = LifeSettings {
            version,
            families: 2,
            ..settings(SplitPolicy::ConstantSize)
        };
        assert_eq!(limit_of(&s, 3, None), Some(limit), "{version:?}");
    }
    // An explicit overallfiles wins over the version's.
    let s = LifeSettings {
        version: HBaseVersion::V3,
        families: 2,
        overall_hregion_files: Some(false),
        ..settings(SplitPolicy::ConstantSize)
    };
    assert_eq!(limit_of(&s, 3, None), Some(2 * DESIRED + 1));
}
