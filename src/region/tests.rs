//! Tests of `layout`.

use super::*;
use crate::hbase::shell::{shell_create, splits_file};

fn layout(p: PreSplit) -> RegionLayout {
    RegionLayout {
        presplit: p,
        ..RegionLayout::default()
    }
}

#[test]
fn quantiles_of_a_known_sample() {
    let sample: Vec<Vec<u8>> = (0..100u32)
        .rev()
        .map(|i| format!("{i:03}").into_bytes())
        .collect();
    let keys = quantile_split_keys(&sample, 4).unwrap();
    assert_eq!(
        keys,
        vec![b"025".to_vec(), b"050".to_vec(), b"075".to_vec()]
    );
    // Few distinct keys: repeats are dropped.
    let dup = vec![b"a".to_vec(), b"a".to_vec(), b"a".to_vec(), b"b".to_vec()];
    assert_eq!(quantile_split_keys(&dup, 4).unwrap(), vec![b"b".to_vec()]);
    assert!(quantile_split_keys(&[], 4).is_err());
    assert!(quantile_split_keys(&sample, 1).unwrap().is_empty());
}

#[test]
fn salt_keys() {
    let k = salt_split_keys(4, SaltStyle::Byte, None).unwrap();
    assert_eq!(k, vec![vec![1u8], vec![2], vec![3]]);
    let d = salt_split_keys(12, SaltStyle::Decimal, None).unwrap();
    assert_eq!(d.first().unwrap(), b"01");
    assert_eq!(d.last().unwrap(), b"11");
    assert_eq!(d.len(), 11);
    assert!(salt_split_keys(257, SaltStyle::Byte, None).is_err());
    assert!(salt_split_keys(0, SaltStyle::Byte, None).is_err());
    assert!(salt_split_keys(100, SaltStyle::Decimal, Some(1)).is_err());
    assert!(salt_split_keys(1, SaltStyle::Decimal, None)
        .unwrap()
        .is_empty());
}

#[test]
fn explicit_keys_point_at_the_bad_one() {
    let l = layout(PreSplit::Explicit {
        keys: vec!["b".into(), "a".into()],
        encoding: KeyEncoding::StringBinary,
    });
    let e = l.split_keys(&[]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/keys/1"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["a".into(), "a".into()],
        encoding: KeyEncoding::StringBinary,
    });
    assert!(l.split_keys(&[]).unwrap_err().message.contains("twice"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["0a".into(), "zz".into()],
        encoding: KeyEncoding::Hex,
    });
    let e = l.split_keys(&[]).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/keys/1"));
    let l = layout(PreSplit::Explicit {
        keys: vec!["\\x00".into(), "\\xFFa".into()],
        encoding: KeyEncoding::StringBinary,
    });
    assert_eq!(
        l.split_keys(&[]).unwrap(),
        vec![vec![0u8], vec![0xff, b'a']]
    );
}

#[test]
fn region_count_guidance() {
    assert_eq!(recommend_region_count(0).0, 5);
    assert_eq!(recommend_region_count(30 * GIB).0, 6);
    assert_eq!(recommend_region_count(49 * GIB).0, 10);
    assert_eq!(recommend_region_count(50 * GIB).0, 10);
    assert_eq!(recommend_region_count(1024 * GIB).0, 103);
    let (n, why) = recommend_region_count(10 * 1024 * GIB);
    assert_eq!(n, 120);
    assert!(why.contains("capped"), "{why}");
}

#[test]
fn shell_and_file_rendering() {
    let keys = vec![vec![1u8], b"a'b".to_vec(), vec![0xff, b'x']];
    assert_eq!(
        shell_create("ns:t", "f", &keys).unwrap(),
        "create 'ns:t', 'f', SPLITS => ['\\x01', 'a\\'b', '\\xFFx']"
    );
    assert_eq!(shell_create("t", "f", &[]).unwrap(), "create 't', 'f'");
    assert_eq!(
        splits_file(&[b" a ".to_vec(), b"b".to_vec()]).unwrap(),
        "\\x20a\\x20\nb\n"
    );
    assert_eq!(splits_file(&[b"  ".to_vec()]).unwrap(), "\\x20\\x20\n");
}
