//! Region layouts: the split keys of each pre-split kind (HBase's `RegionSplitter` and
//! `Bytes.split` ports), the shell's create command and splits file, the recommended region
//! count, named server placement, and layout errors that carry the document path
//! (`cases/layout_errors.json`).

use rowkey_lab::hbase::bytes::to_hex;
use rowkey_lab::hbase::shell::{shell_create, splits_file};
use rowkey_lab::region::{quantile_split_keys, recommend_region_count, PreSplit, RegionLayout};

use super::common::keys_of;
use crate::cases::{entries, fixture, Failures};

#[test]
fn hex_decimal_and_uniform_splits_have_the_known_keys() {
    let hexes = |keys: &[Vec<u8>]| keys.iter().map(|k| to_hex(k)).collect::<Vec<_>>();
    let cases: [(&str, Vec<Vec<u8>>); 5] = [
        // HexStringSplit over 00000000..FFFFFFFF in 16 regions: steps of 0x10000000.
        (
            r#"{"presplit": {"kind": "hexString", "regions": 16}}"#,
            (1..16u32)
                .map(|i| format!("{:08x}", i << 28).into_bytes())
                .collect(),
        ),
        // DecimalStringSplit over 00000000..99999999 in 10 regions: range 10^8, step 10^7.
        (
            r#"{"presplit": {"kind": "decimalString", "regions": 10}}"#,
            (1..10u32)
                .map(|i| format!("{:08}", i * 10_000_000).into_bytes())
                .collect(),
        ),
        // UniformSplit over 8 bytes in 4 regions: 2^64 / 4 = 0x4000000000000000.
        (
            r#"{"presplit": {"kind": "uniform", "regions": 4}}"#,
            vec![
                vec![0x40, 0, 0, 0, 0, 0, 0, 0],
                vec![0x80, 0, 0, 0, 0, 0, 0, 0],
                vec![0xc0, 0, 0, 0, 0, 0, 0, 0],
            ],
        ),
        (
            r#"{"presplit": {"kind": "hexString", "regions": 1}}"#,
            vec![],
        ),
        (r#"{}"#, vec![]),
    ];
    let mut failures = Failures::new("pre-split layouts and their split keys (hex)");
    for (layout, want) in cases {
        match keys_of(layout) {
            Ok(keys) => failures.eq(layout, &hexes(&keys), &hexes(&want)),
            Err(e) => failures.check(layout, false, format!("refused: {e}")),
        };
    }
    failures.finish();
    let hex = keys_of(r#"{"presplit": {"kind": "hexString", "regions": 16}}"#).unwrap();
    assert_eq!(hex[0], b"10000000");
}

#[test]
fn bytes_split_over_hex_text_leaves_non_hex_keys() {
    // Seed 001's trap: Bytes.split("00000000", "ffffffff") treats the text as bytes, so
    // some split keys start with bytes between '9' (0x39) and 'a' (0x61) that no hex key has:
    // the regions starting there stay empty.
    let keys = keys_of(r#"{"presplit": {"kind": "bytesSplit", "start": "00000000", "end": "ffffffff", "num": 14}}"#).unwrap();
    assert_eq!(keys.len(), 16);
    assert_eq!(keys[0], b"00000000");
    assert_eq!(keys[15], b"ffffffff");
    let non_hex = keys.iter().filter(|k| (0x3a..0x61).contains(&k[0])).count();
    assert!(non_hex >= 5, "{non_hex} keys start between '9' and 'a'");
    // createTable("a", "z", 5): 4 keys, both ends included.
    let ct =
        keys_of(r#"{"presplit": {"kind": "createTable", "start": "a", "end": "z", "regions": 5}}"#)
            .unwrap();
    assert_eq!(ct.len(), 4);
    assert_eq!((ct[0].as_slice(), ct[3].as_slice()), (&b"a"[..], &b"z"[..]));
    let e =
        keys_of(r#"{"presplit": {"kind": "createTable", "start": "a", "end": "z", "regions": 2}}"#)
            .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/presplit/regions")
    );
    let e = keys_of(r#"{"presplit": {"kind": "bytesSplit", "start": "z", "end": "a", "num": 2}}"#)
        .unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit/end"));
    assert!(keys_of(r#"{"presplit": {"kind": "hexString", "regions": 0}}"#).is_err());
    assert!(keys_of(r#"{"presplit": {"kind": "decimalString", "regions": 1000000000}}"#).is_err());
}

#[test]
fn salt_and_quantile_layouts() {
    let salt = keys_of(r#"{"presplit": {"kind": "saltBuckets", "buckets": 8}}"#).unwrap();
    assert_eq!(salt, (1..8u8).map(|b| vec![b]).collect::<Vec<_>>());
    let dec = keys_of(
        r#"{"presplit": {"kind": "saltBuckets", "buckets": 10, "style": "decimal", "width": 2}}"#,
    )
    .unwrap();
    assert_eq!(dec[0], b"01");
    assert_eq!(dec[8], b"09");
    let q = keys_of(r#"{"presplit": {"kind": "sampleQuantiles", "regions": 2, "sample": ["d", "a", "c", "b"]}}"#).unwrap();
    assert_eq!(q, vec![b"c".to_vec()]);
    let l: RegionLayout =
        serde_json::from_str(r#"{"presplit": {"kind": "sampleQuantiles", "regions": 3}}"#).unwrap();
    assert!(l.presplit.needs_sample());
    assert!(l.split_keys(&[]).is_err());
    let sample: Vec<Vec<u8>> = (0..90u8).map(|i| vec![i]).collect();
    assert_eq!(l.split_keys(&sample).unwrap(), vec![vec![30u8], vec![60]]);
    assert_eq!(l.region_map(&sample).unwrap().len(), 3);
    let q = quantile_split_keys(&[b"x".to_vec()], 5).unwrap();
    assert!(q.is_empty());
    assert_eq!(PreSplit::default().kind(), "none");
}

#[test]
fn shell_commands_and_split_files() {
    let hex = keys_of(r#"{"presplit": {"kind": "hexString", "regions": 4}}"#).unwrap();
    assert_eq!(
        shell_create("ns:calls", "f", &hex).unwrap(),
        "create 'ns:calls', 'f', SPLITS => ['40000000', '80000000', 'c0000000']"
    );
    assert_eq!(splits_file(&hex).unwrap(), "40000000\n80000000\nc0000000\n");
    let salt = keys_of(r#"{"presplit": {"kind": "saltBuckets", "buckets": 3}}"#).unwrap();
    assert_eq!(
        shell_create("t", "cf", &salt).unwrap(),
        "create 't', 'cf', SPLITS => ['\\x01', '\\x02']"
    );
    assert_eq!(splits_file(&salt).unwrap(), "\\x01\n\\x02\n");
}

#[test]
fn region_count_recommendation() {
    let gib = 1u64 << 30;
    let mut failures = Failures::new("recommended region counts");
    for (bytes, regions) in [
        (gib, 5),
        (40 * gib, 8),
        (500 * gib, 50),
        (1024 * gib, 103),
        (u64::MAX, 120),
    ] {
        failures.eq(
            format!("{bytes} bytes ({} GiB)", bytes / gib),
            &recommend_region_count(bytes).0,
            &regions,
        );
    }
    failures.finish();
}

#[test]
fn a_missing_region_layout_means_one_region_on_one_server() {
    let l = rowkey_lab::region::RegionLayout::default();
    assert_eq!(l.region_servers, 1);
    assert!(l.validate().is_ok());
    assert!(l.split_keys(&[]).map(|k| k.is_empty()).unwrap_or(false));
}

#[test]
fn named_placement_reads_and_writes_as_servers() {
    let l: RegionLayout = serde_json::from_str(
        r#"{"presplit": {"kind": "explicit", "keys": ["b", "c"]},
            "assignment": {"servers": ["rs1,16020,1", "rs2,16020,1", "rs1,16020,1"]}}"#,
    )
    .unwrap();
    // Without `regionServers` the names count the servers.
    assert_eq!(l.region_servers, 2);
    l.validate().unwrap();
    let v = serde_json::to_value(&l).unwrap();
    assert_eq!(
        v["assignment"],
        serde_json::json!({"servers": ["rs1,16020,1", "rs2,16020,1", "rs1,16020,1"]})
    );
    assert_eq!(v["regionServers"], 2);
    let back: RegionLayout = serde_json::from_value(v).unwrap();
    assert_eq!(back, l);
    // The crate's own writer gives the same form.
    let text = serde_json::to_string(&l).unwrap();
    assert!(
        text.contains(r#""assignment":{"servers":["rs1,16020,1","rs2,16020,1","rs1,16020,1"]}"#),
        "{text}"
    );
    // One name per region at creation, checked when the regions are made.
    let two = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "regions": {"presplit": {"kind": "explicit", "keys": ["b", "c"]},
                        "assignment": {"servers": ["a", "b"]}}}"#,
    )
    .unwrap();
    let e = rowkey_lab::analyze::analyze(&two, &Default::default()).unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/servers")
    );
    let mut failures = Failures::new("assignments that are refused");
    for bad in [
        r#"{"assignment": {"servers": ["a"], "extra": 1}}"#,
        r#"{"assignment": {"servers": "a"}}"#,
        r#"{"assignment": 5}"#,
        r#"{"assignment": "random"}"#,
    ] {
        failures.check(
            bad,
            serde_json::from_str::<RegionLayout>(bad).is_err(),
            "accepted",
        );
    }
    failures.finish();
    let e = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "regions": {"assignment": {"server": ["x"]}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/server"),
        "{e}"
    );
}

/// `cases/layout_errors.json`: a design whose `regions` is refused, by `from_json` or when the
/// regions are made, names the JSON path of the fault.
#[test]
fn region_layout_errors_carry_the_document_path() {
    let f = fixture("workload", "layout_errors.json");
    let mut failures = Failures::new("workload/cases/layout_errors.json");
    for (i, case) in entries(&f, "cases") {
        let regions = &case["regions"];
        let name = format!("#{i} regions {regions}");
        let doc = serde_json::json!({"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a", "regions": regions});
        let refused = rowkey_lab::design::DesignDocument::from_json(&doc.to_string())
            .and_then(|d| rowkey_lab::analyze::analyze(&d, &Default::default()));
        match refused {
            Ok(_) => failures.fail(&name, "accepted"),
            Err(e) => {
                failures.eq(
                    format!("{name}: path of `{e}`"),
                    &e.location.path.as_deref(),
                    &case["path"].as_str(),
                );
            }
        }
    }
    failures.finish();
    let n = entries(&f, "cases").count();
    assert!(n >= 3, "3 cases in layout_errors.json, found {n}");
}
