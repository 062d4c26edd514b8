//! Tests of `policy`.

use super::*;

fn store(size: i64, point: &[u8]) -> StoreState {
    StoreState {
        size,
        can_split: true,
        split_point: Some(point.to_vec()),
    }
}

fn limits(desired: i64, initial: i64) -> PolicyLimits {
    PolicyLimits {
        desired_max_file_size: desired,
        initial_size: initial,
        overall_hregion_files: true,
    }
}

fn region(sizes: &[i64]) -> RegionState {
    RegionState::with_stores(sizes.iter().map(|&s| store(s, b"m")).collect())
}

#[test]
fn defaults_match_hbase_default_xml() {
    let c = SplitConfig::default();
    assert_eq!(c.desired_max_file_size(), 10_737_418_240);
    assert_eq!(c.initial_size(), 268_435_456);
    assert!(c.overall_hregion_files);
    assert_eq!(SplitPolicy::default(), SplitPolicy::Stepping);
}

#[test]
fn constant_size_tests() {
    // TestRegionSplitPolicy: max 1024; no stores no split; 2000 split; unsplittable no;
    // 100 no.
    let p = SplitPolicy::ConstantSize;
    let l = limits(1024, 256);
    assert!(!p.should_split(&l, &region(&[]), 0));
    assert!(p.should_split(&l, &region(&[2000]), 0));
    let mut r = region(&[2000]);
    r.stores[0].can_split = false;
    assert!(!p.should_split(&l, &r, 0));
    assert!(!p.should_split(&l, &region(&[100]), 0));
}

#[test]
fn increasing_tests() {
    // max 1024, flush 128 -> initial 256.
    let p = SplitPolicy::IncreasingToUpperBound;
    let cfg = SplitConfig {
        max_file_size: 1024,
        memstore_flush_size: 128,
        ..SplitConfig::default()
    };
    let l = cfg.limits(None);
    assert_eq!(l.initial_size, 256);
    // No online regions behaves like ConstantSize.
    assert!(!p.should_split(&l, &region(&[1024]), 0));
    assert!(p.should_split(&l, &region(&[1025]), 0));
    // One online region: 128 no, 257 yes.
    assert!(!p.should_split(&l, &region(&[128]), 1));
    assert!(p.should_split(&l, &region(&[257]), 1));
    // Two regions: 257 no, (long)(1024 * 1.25 + 1) = 1281 yes (with the jitter maximum).
    assert!(!p.should_split(&l, &region(&[257]), 2));
    let jittered = cfg.limits(Some(0.999_999_94));
    assert!(p.should_split(&jittered, &region(&[1281]), 2));
    // sizeToCheck for 1000 and 0 regions is within 75 %..125 % of 1024.
    for u in [0.0f32, 0.5, 0.999_999_94] {
        let jl = cfg.limits(Some(u));
        for n in [0, 1000] {
            let s = p.size_to_check(&jl, n);
            assert!((768..=1280).contains(&s), "{s}");
        }
    }
}

#[test]
fn increasing_wraps_like_java() {
    // §11: desired Long.MAX, initial 2^44, count 100 -> -854558029293551616.
    assert_eq!(
        increasing_size_to_check(i64::MAX, 1 << 44, 100),
        -854_558_029_293_551_616
    );
    assert_eq!(increasing_size_to_check(i64::MAX, 1 << 44, 101), i64::MAX);
}

#[test]
fn stepping_first_region_uses_initial() {
    // 10 GiB max, default flush; store 2*flush+1 with replica ids {0, 1} -> split.
    let l = SplitConfig::default().limits(None);
    let n = count_table_regions(Some(&[0, 1]));
    assert_eq!(n, 1);
    let r = region(&[2 * DEFAULT_MEMSTORE_FLUSH_SIZE + 1]);
    assert!(SplitPolicy::Stepping.should_split(&l, &r, n));
    assert_eq!(count_table_regions(None), 0);
}

#[test]
fn overall_files_sum() {
    let l = limits(1024, 256);
    let p = SplitPolicy::ConstantSize;
    assert!(!p.should_split(&l, &region(&[100, 924]), 0));
    assert!(p.should_split(&l, &region(&[100, 925]), 0));
    let per_store = PolicyLimits {
        overall_hregion_files: false,
        ..l
    };
    assert!(!p.should_split(&per_store, &region(&[100, 925]), 0));
}

#[test]
fn jitter_bounds_and_no_overflow() {
    for (table, conf) in [(None, 1234i64), (Some(9999i64), 1234)] {
        let cfg = SplitConfig {
            table_max_file_size: table,
            max_file_size: conf,
            ..SplitConfig::default()
        };
        let d = cfg.desired_max_file_size();
        for u in [0.0f32, 0.25, 0.5, 0.75, 0.999_999_94] {
            let j = cfg.limits(Some(u)).desired_max_file_size;
            assert!(
                j as f64 >= d as f64 * 0.875 && j as f64 <= d as f64 * 1.125,
                "{j}"
            );
        }
    }
    // Table max Long.MAX with a positive jitter stays Long.MAX: a 2000-byte store does not split.
    let cfg = SplitConfig {
        table_max_file_size: Some(i64::MAX),
        ..SplitConfig::default()
    };
    let l = cfg.limits(Some(0.9));
    assert_eq!(l.desired_max_file_size, i64::MAX);
    assert!(!SplitPolicy::ConstantSize.should_split(&l, &region(&[2000]), 0));
}

#[test]
fn split_points() {
    let base = SplitPolicy::ConstantSize;
    let mut stores = vec![store(2000, b"abcd")];
    assert_eq!(base.split_point(&stores), Some(b"abcd".to_vec()));
    stores.push(store(4000, b"efgh"));
    assert_eq!(base.split_point(&stores), Some(b"efgh".to_vec()));
    let kp = SplitPolicy::KeyPrefix { prefix_length: 2 };
    assert_eq!(kp.split_point(&[store(1, b"abcd")]), Some(b"ab".to_vec()));
    let dl = SplitPolicy::DelimitedKeyPrefix {
        delimiter: ",".into(),
    };
    assert_eq!(dl.split_point(&[store(1, b"ab,cd")]), Some(b"ab".to_vec()));
    assert_eq!(dl.split_point(&[store(1, b"ijk")]), Some(b"ijk".to_vec()));
    // Size 0 never supplies a point.
    assert_eq!(base.split_point(&[store(0, b"x")]), None);
}

#[test]
fn restrictions() {
    let mut t = Values::new();
    let conf = Values::new();
    assert_eq!(SplitRestriction::create(&t, &conf), SplitRestriction::None);
    t.insert(RESTRICTION_TYPE_KEY.into(), "Invalid".into());
    assert_eq!(SplitRestriction::create(&t, &conf), SplitRestriction::None);
    t.insert(RESTRICTION_TYPE_KEY.into(), "KeyPrefix".into());
    t.insert(RESTRICTION_PREFIX_LENGTH_KEY.into(), "2".into());
    let r = SplitRestriction::create(&t, &conf);
    assert_eq!(r.class_name(), "KeyPrefixRegionSplitRestriction");
    assert_eq!(r.restricted_split_point(b"abcd"), b"ab");
    assert_eq!(r.restricted_split_point(b"a"), b"a");
    let mut c = Values::new();
    c.insert(RESTRICTION_TYPE_KEY.into(), "DelimitedKeyPrefix".into());
    c.insert(RESTRICTION_DELIMITER_KEY.into(), ",".into());
    let r = SplitRestriction::create(&Values::new(), &c);
    assert_eq!(r.class_name(), "DelimitedKeyPrefixRegionSplitRestriction");
    assert_eq!(r.restricted_split_point(b"ab,cd"), b"ab");
    assert_eq!(r.restricted_split_point(b"ijk"), b"ijk");
    assert_eq!(r.restricted_split_point(b",x"), b"");
}

#[test]
fn check_split_rules() {
    let none = SplitRestriction::None;
    assert_eq!(check_split(Some(vec![]), &none, b"", b""), Some(vec![]));
    assert_eq!(
        check_split(Some(b"m".to_vec()), &none, b"m", b"z"),
        Some(b"m".to_vec())
    );
    assert!(!is_usable_split_row(b"m", b"z", b"m"));
    assert_eq!(check_split(Some(b"z".to_vec()), &none, b"a", b"z"), None);
    assert_eq!(check_split(None, &none, b"", b""), None);
}

#[test]
fn parse_int_like_java() {
    assert_eq!(java_parse_int("42"), Some(42));
    assert_eq!(java_parse_int("+7"), Some(7));
    assert_eq!(java_parse_int("-2147483648"), Some(i32::MIN));
    assert_eq!(java_parse_int("2147483648"), None);
    assert_eq!(java_parse_int(""), None);
    assert_eq!(java_parse_int("-"), None);
    assert_eq!(java_parse_int(" 1"), None);
    assert_eq!(java_parse_int("x"), None);
    assert_eq!(java_parse_int("\u{0663}"), Some(3));
    assert_eq!(java_parse_int("\u{FF11}\u{FF12}"), Some(12));
}

#[test]
fn serde_names() {
    let p: SplitPolicy = serde_json::from_str(r#"{"type":"keyPrefix","prefixLength":4}"#)
        .unwrap_or(SplitPolicy::Disabled);
    assert_eq!(p, SplitPolicy::KeyPrefix { prefix_length: 4 });
    let r: SplitRestriction =
        serde_json::from_str(r#"{"type":"delimitedKeyPrefix","delimiter":"_"}"#)
            .unwrap_or_default();
    assert_eq!(
        r,
        SplitRestriction::DelimitedKeyPrefix {
            delimiter: "_".into()
        }
    );
    let s: StoreState = serde_json::from_str(r#"{"size":5,"canSplit":true,"splitPoint":"6162"}"#)
        .unwrap_or_default();
    assert_eq!(s.split_point, Some(b"ab".to_vec()));
    let c: SplitConfig = serde_json::from_str(r#"{"maxFileSize":1024}"#).unwrap_or_default();
    assert_eq!(c.max_file_size, 1024);
    assert_eq!(c.memstore_flush_size, DEFAULT_MEMSTORE_FLUSH_SIZE);
}
