//! The outputs below are the shell's own formats (`../shared/research/visual-anchors.md`,
//! section 4, rendered from the shell's Ruby); the encoded region names were computed with
//! Python's `hashlib.md5` over `table,start key,id`, independently of this crate's MD5.

use super::*;
use crate::hbase::shell::{shell_create, splits_file};

fn keys(r: &RegionList) -> Vec<String> {
    match &r.presplit {
        PreSplit::Explicit { keys, encoding } => {
            assert_eq!(*encoding, KeyEncoding::StringBinary);
            keys.clone()
        }
        PreSplit::None => Vec::new(),
        other => panic!("not explicit keys: {other:?}"),
    }
}

pub(super) const LIST_REGIONS: &str = "                              SERVER_NAME |                                                 REGION_NAME |  START_KEY |    END_KEY |  SIZE |     REQ |   LOCALITY |
 ---------------------------------------- | ----------------------------------------------------------- | ---------- | ---------- | ----- | ------- | ---------- |
 rs1.example.internal,16020,1700000000123 |     events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. |            |       \\x01 |   700 |   98110 |        1.0 |
 rs2.example.internal,16020,1700000000456 | events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba. |       \\x01 |       \\x02 |   700 | 5620356 |        1.0 |
 2 rows
Took 0.0310 seconds
";

#[test]
fn list_regions_output() {
    let r = read_regions(LIST_REGIONS, None).unwrap();
    assert_eq!(r.source, RegionSource::RegionNames);
    assert_eq!(r.table.as_deref(), Some("events"));
    assert_eq!((r.regions, r.verified), (2, 2));
    assert_eq!(keys(&r), ["\\x01"]);
    // nothing skipped or odd; the only note says where the load came from
    assert!(
        r.notes.iter().all(|n| n.starts_with("load:")),
        "{:?}",
        r.notes
    );
}

#[test]
fn meta_scan_with_a_wrapped_row() {
    // The ROW column is wrapped (its name is cut), the regioninfo value is whole.
    let text = " ROW                                                   COLUMN+CELL
 events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b column=info:regioninfo, timestamp=1700000000500, value={ENCODED => e2388f30e27d4b2ce98a8810557b1aba, NAME => 'events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.', STARTKEY => '\\x01', ENDKEY => '\\x02'}
 1aba.
 events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b column=info:sn, timestamp=1700000001000, value=rs2.example.internal,16020,1700000000456
 1aba.
";
    let r = read_regions(text, None).unwrap();
    assert_eq!((r.regions, r.verified), (2, 1));
    assert_eq!(keys(&r), ["\\x01"]);
    assert!(
        r.notes[0].contains("first region is missing"),
        "{:?}",
        r.notes
    );
}

#[test]
fn start_keys_with_commas_bars_quotes_and_bytes() {
    let text = "NAME => 't,a,b | c'd,1700000000001.812aa2a4736d6014347eb0210a88b5af.'\n\
                | ns:t,\\x00\\xFF,1700000000002.643460d20868c7bba0629d3f31b772bd. |";
    let r = read_regions(text, Some("t")).unwrap();
    assert_eq!(keys(&r), ["a,b | c'd"]);
    let r = read_regions(text, Some("ns:t")).unwrap();
    assert_eq!(keys(&r), ["\\x00\\xFF"]);
    // `default:t` is how HBase names `t` in full; its region names say `t`.
    let r = read_regions(text, Some("default:t")).unwrap();
    assert_eq!(r.table.as_deref(), Some("t"));
    let e = read_regions(text, None).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("table"));
    assert!(
        e.message.contains("2 tables (`ns:t`, `t`)"),
        "{}",
        e.message
    );
    let e = read_regions(text, Some("x")).unwrap_err();
    assert!(
        e.message.contains("no regions of table `x`"),
        "{}",
        e.message
    );
}

#[test]
fn replicas_and_split_parents() {
    let text = "events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a.
events,\\x01,1700000000000_0001.bcf5af2e09a169f34ec12c15d871034e.
events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.
events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.
other,m,1700000000003.b9ddba2f635d016cf3dac75e67c1f402.
events,m,1700000000003.e5cd544ffe9fa025df0713e9a06aa4d0.
";
    let r = read_regions(text, Some("events")).unwrap();
    // The repeated name counts once; the replica is skipped.
    assert_eq!((r.regions, r.verified), (3, 4));
    assert_eq!(keys(&r), ["\\x01", "m"]);
    assert!(r.notes[0].starts_with("1 read replica"), "{:?}", r.notes);
}

#[test]
fn an_edited_name_is_an_error_not_a_guess() {
    // `\x02` where the MD5 says `\x01`.
    let text = "x\n  events,\\x02,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.";
    let e = read_regions(text, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);
    assert_eq!((e.location.line, e.location.column), (Some(2), Some(14)));
    assert!(e.message.contains("does not check out"), "{}", e.message);
}

#[test]
fn get_splits_output() {
    let text = "hbase(main):001:0> get_splits 'events'\nTotal number of splits = 4\n\\x01\n\\x02\n\\x03\nTook 0.0123 seconds\n";
    let r = read_regions(text, None).unwrap();
    assert_eq!(r.source, RegionSource::Lines);
    assert_eq!(r.regions, 4);
    assert_eq!(keys(&r), ["\\x01", "\\x02", "\\x03"]);
    // Split keys alone say nothing of where the regions are.
    assert_eq!(r.assignment, None);
    // A cut-off output: the header counts more regions than follow.
    let e = read_regions("Total number of splits = 5\n\\x01\n\\x02\n\\x03\n", None).unwrap_err();
    assert_eq!(e.location.line, Some(1));
    assert!(
        e.message.contains("4 split keys should follow, but 3 do"),
        "{}",
        e.message
    );
    // A one-region table.
    let r = read_regions("Total number of splits = 1\nTook 0.0100 seconds\n", None).unwrap();
    assert_eq!((r.regions, &r.presplit), (1, &PreSplit::None));
    // The shell's echo of the returned array, alone.
    let r = read_regions("=> [\"\\\\x01\", \"b\"]", None).unwrap();
    assert_eq!(r.source, RegionSource::List);
    assert_eq!(keys(&r), ["\\x01", "b"]);
}

#[test]
fn repeated_keys_name_both_lines() {
    let e = read_regions("b\na\nc\na\n", None).unwrap_err();
    assert_eq!(e.location.line, Some(4));
    assert!(
        e.message.contains("line 4 repeats the split key of line 2"),
        "{}",
        e.message
    );
    let e = read_regions("['a', 'b', 'a']", None).unwrap_err();
    assert!(e.message.contains("`a` is given twice"), "{}", e.message);
}

#[test]
fn edge_spaces_are_kept_and_noted() {
    let r = read_regions(" a\nb \n", None).unwrap();
    assert_eq!(keys(&r), [" a", "b "]);
    assert!(
        r.notes[0].starts_with("2 key(s) begin or end with a space"),
        "{:?}",
        r.notes
    );
}

#[test]
fn create_statements() {
    let r = read_regions(
        "create 'hbase_tbl_dev', 'cf', {SPLITS => ['050','100',\n  '150', \"\\x01\", '\\x02\\'']}",
        None,
    )
    .unwrap();
    assert_eq!(r.source, RegionSource::Create);
    assert_eq!(r.table.as_deref(), Some("hbase_tbl_dev"));
    assert_eq!(keys(&r), ["\\x01", "\\x02'", "050", "100", "150"]);
    let r = read_regions(
        "create 't1', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}",
        None,
    )
    .unwrap();
    assert_eq!(r.regions, 15);
    assert_eq!(
        r.presplit,
        PreSplit::HexString {
            regions: 15,
            first_row: None,
            last_row: None
        }
    );
    let e = read_regions("create 't1', 'f1', SPLITS_FILE => 'splits.txt'", None).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (Some(1), Some(20)));
    let e = read_regions("create 't', 'f', SPLITS => [\"\\xFF\"]", None).unwrap_err();
    assert!(e.message.contains("single quotes"), "{}", e.message);
    assert_eq!(e.location.column, Some(30));
    let e = read_regions("create 't', 'f', SPLITS => ['a' 'b']", None).unwrap_err();
    assert!(e.message.contains("expected `,` or `]`"), "{}", e.message);
    assert_eq!(e.location.column, Some(33));
    let e = read_regions(
        "create 't', 'f', NUMREGIONS => 4, SPLITALGO => 'Mine'",
        None,
    )
    .unwrap_err();
    assert!(
        e.message.contains("not one of RegionSplitter's"),
        "{}",
        e.message
    );
}

#[test]
fn the_pages_json_list() {
    let r = read_regions("[\"01\",\"02\",\"\\\\x00\"]", None).unwrap();
    assert_eq!(r.source, RegionSource::List);
    assert_eq!(keys(&r), ["\\x00", "01", "02"]);
    assert!(read_regions("[\"01\"", None).is_err());
    assert!(read_regions("   \n", None).is_err());
}

/// A small deterministic generator (no RNG crate needed for a test).
fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

#[test]
fn what_the_shell_writes_reads_back() {
    let mut s = 7;
    for round in 0..300 {
        let n = 1 + lcg(&mut s) % 12;
        let mut set: Vec<Vec<u8>> = (0..n)
            .map(|_| {
                (0..1 + lcg(&mut s) % 6)
                    .map(|_| lcg(&mut s) as u8)
                    .collect()
            })
            .collect();
        set = sorted_keys(&set);
        set.dedup();
        let expect: Vec<String> = set.iter().map(|k| to_string_binary(k)).collect();
        let r = read_regions(&splits_file(&set).unwrap(), None).unwrap();
        assert_eq!(keys(&r), expect, "SPLITS_FILE, round {round}");
        let r = read_regions(&shell_create("ns:t", "f", &set).unwrap(), None).unwrap();
        assert_eq!(keys(&r), expect, "create, round {round}");
        assert_eq!(r.table.as_deref(), Some("ns:t"));
    }
}

#[test]
fn never_panics_on_noise() {
    let alphabet: Vec<char> = ".,_|'\"[]\\x0af19 \n=>SPLITS e".chars().collect();
    let name = "events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.";
    let mut s = 11;
    for _ in 0..3000 {
        let len = lcg(&mut s) % 80;
        let mut t: String = (0..len)
            .map(|_| alphabet[(lcg(&mut s) % alphabet.len() as u64) as usize])
            .collect();
        if lcg(&mut s) % 3 == 0 {
            let at = t
                .char_indices()
                .map(|(i, _)| i)
                .nth((lcg(&mut s) % (len + 1)) as usize);
            t.insert_str(at.unwrap_or(t.len()), name);
        }
        let _ = read_regions(&t, None);
    }
}

#[test]
fn a_name_cut_by_the_shells_wrapping_is_never_dropped_silently() {
    // The ROW column is cut and the value names the region in full: fine (see above). Here the
    // value is cut too, so the text does not name the region `\x01` in full anywhere.
    let text = " events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. column=info:sn, value=rs1
 events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b column=info:regioninfo, value={NAME => 'events,\\x01,1700000000000.e2388f30e2
 1aba.                                                 7d4b2ce98a8810557b1aba.'}
";
    let e = read_regions(text, None).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (Some(2), Some(13)));
    assert!(
        e.message
            .contains("a region name is cut here (`,1700000000000.e2388f30e27d4b2ce98a8810557b`"),
        "{}",
        e.message
    );
    // With nothing but cut names the text is not read as one key per line either.
    let e = read_regions(
        " events,\\x01,1700000000000.e2388f30e27d4b2ce98a88\n 10557b1aba.\n",
        None,
    )
    .unwrap_err();
    assert_eq!(e.location.line, Some(1));
    // Short numbers before a dot are text: a SPLITS_FILE key `x,1.a` stays a key.
    let r = read_regions("x,1.a\ny,12345.b c\n", None).unwrap();
    assert_eq!(keys(&r), ["x,1.a", "y,12345.b c"]);
}
