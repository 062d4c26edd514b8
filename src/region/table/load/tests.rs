//! The load columns of `list_regions` and the region counters of `/jmx` dumps. The row layout
//! is the shell's `printf(" %<width>s |")`; the encoded names were computed with Python's
//! `hashlib.md5` over `table,start key,id`, independently of this crate's MD5.

use crate::region::read_regions;
use crate::region::table::tests::LIST_REGIONS;

use super::RegionLoad;

fn load(start: &str, enc: &str, server: &str, req: u64, mb: u64) -> RegionLoad {
    RegionLoad {
        start_key: start.into(),
        encoded: Some(enc.into()),
        server: Some(server.into()),
        requests: Some(req),
        reads: None,
        writes: None,
        store_file_mb: Some(mb),
    }
}

#[test]
fn list_regions_gives_server_size_and_requests() {
    let r = read_regions(LIST_REGIONS, None).unwrap();
    assert_eq!(
        r.load,
        [
            load(
                "",
                "b9648a65b8e483aa98e34ec614d0456a",
                "rs1.example.internal,16020,1700000000123",
                98110,
                700
            ),
            load(
                "\\x01",
                "e2388f30e27d4b2ce98a8810557b1aba",
                "rs2.example.internal,16020,1700000000456",
                5_620_356,
                700
            ),
        ]
    );
    assert!(
        r.notes.iter().any(|n| n.contains("REQ of 2 region(s)")),
        "{:?}",
        r.notes
    );
    // Every region's server is named: the placement, as a design's `regions.assignment`.
    assert_eq!(
        r.assignment,
        Some(crate::region::Assignment::Servers(vec![
            "rs1.example.internal,16020,1700000000123".into(),
            "rs2.example.internal,16020,1700000000456".into(),
        ]))
    );
}

/// Keys with ` | ` in them: the numbers are read from the right, the server from the left.
const BARS: &str = "                              SERVER_NAME |                                             REGION_NAME | START_KEY | END_KEY | SIZE | REQ | LOCALITY |
 ---------------------------------------- | ------------------------------------------------------- | --------- | ------- | ---- | --- | -------- |
 rs1.example.internal,16020,1700000000123 |      t,,1700000000001.75dc1bbf26d044afee2ed9c779e14255. |           |   a | b |   12 | 300 |      1.0 |
 rs2.example.internal,16020,1700000000456 | t,a | b,1700000000001.79f0324f3f71fb34d012ffcf99623c2e. |     a | b |         |    3 | 900 |      0.5 |
 2 rows
";

#[test]
fn key_cells_with_bars() {
    let r = read_regions(BARS, None).unwrap();
    let got: Vec<_> = r
        .load
        .iter()
        .map(|l| {
            (
                l.start_key.as_str(),
                l.server.as_deref(),
                l.requests,
                l.store_file_mb,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "",
                Some("rs1.example.internal,16020,1700000000123"),
                Some(300),
                Some(12)
            ),
            (
                "a | b",
                Some("rs2.example.internal,16020,1700000000456"),
                Some(900),
                Some(3)
            ),
        ]
    );
}

#[test]
fn a_projection_reads_its_own_columns() {
    // `list_regions 't', {}, ['REGION_NAME', 'REQ']`
    let text = "                                             REGION_NAME |  REQ |
 ------------------------------------------------------- | ---- |
      t,,1700000000001.75dc1bbf26d044afee2ed9c779e14255. |    7 |
 t,a | b,1700000000001.79f0324f3f71fb34d012ffcf99623c2e. | 1200 |
";
    let r = read_regions(text, None).unwrap();
    let got: Vec<_> = r
        .load
        .iter()
        .map(|l| (l.server.clone(), l.requests, l.store_file_mb))
        .collect();
    assert_eq!(got, [(None, Some(7), None), (None, Some(1200), None)]);
}

#[test]
fn a_cell_that_is_not_a_number_is_an_error_at_the_cell() {
    let text = BARS.replace("|   12 | 300 |", "|   12 | 3x0 |");
    let e = read_regions(&text, None).unwrap_err();
    let at = text.lines().nth(2).unwrap().find("3x0").unwrap() + 1;
    assert_eq!(
        (e.location.line, e.location.column),
        (Some(3), Some(at)),
        "{e}"
    );
    assert!(e.message.contains("REQ cell `3x0`"), "{e}");
}

#[test]
fn region_names_without_a_list_regions_header_carry_no_load() {
    let text: String = LIST_REGIONS
        .lines()
        .skip(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let r = read_regions(&text, None).unwrap();
    assert_eq!(r.regions, 2);
    assert!(r.load.is_empty(), "{:?}", r.load);
    let r = read_regions("Total number of splits = 2\n\\x01\n", None).unwrap();
    assert!(r.load.is_empty());
}

/// The four regions of `events` (4 salt buckets), as `scan 'hbase:meta'` names them.
const META: &str = " events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. column=info:regioninfo, value={ENCODED => b9648a65b8e483aa98e34ec614d0456a, NAME => 'events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a.', STARTKEY => '', ENDKEY => '\\x01'}
 events,\\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba. column=info:regioninfo, value={ENCODED => e2388f30e27d4b2ce98a8810557b1aba}
 events,\\x02,1700000000000.56148a42b86fc6273cb93d6e14763464. column=info:regioninfo, value={ENCODED => 56148a42b86fc6273cb93d6e14763464}
 events,\\x03,1700000000000.a268fbf8a9da0a405f96f04dcf047e07. column=info:regioninfo, value={ENCODED => a268fbf8a9da0a405f96f04dcf047e07}
";

/// One server's `/jmx?qry=…sub=Regions` output, pretty-printed as the servlet writes it.
fn dump(host: &str, regions: &[(&str, u64, u64, u64)]) -> String {
    let mut kv = vec![
        "    \"name\" : \"Hadoop:service=HBase,name=RegionServer,sub=Regions\"".to_string(),
        "    \"modelerType\" : \"RegionServer,sub=Regions\"".to_string(),
        format!("    \"tag.Hostname\" : \"{host}\""),
    ];
    for &(enc, reads, writes, bytes) in regions {
        let p = format!("Namespace_default_table_events_region_{enc}");
        kv.push(format!("    \"{p}_metric_storeCount\" : 1"));
        kv.push(format!("    \"{p}_metric_storeFileSize\" : {bytes}"));
        kv.push(format!("    \"{p}_metric_readRequestCount\" : {reads}"));
        kv.push(format!("    \"{p}_metric_writeRequestCount\" : {writes}"));
        kv.push(format!(
            "    \"{p}_store_cf_metric_readRequestCount\" : 99999999"
        ));
        kv.push(format!(
            "    \"Namespace_default_table_other_region_{enc}_metric_writeRequestCount\" : 77"
        ));
    }
    format!("{{\n  \"beans\" : [ {{\n{}\n  }} ]\n}}\n", kv.join(",\n"))
}

#[test]
fn jmx_dumps_joined_by_encoded_name() {
    let rs1 = dump(
        "rs1.example.internal",
        &[
            ("b9648a65b8e483aa98e34ec614d0456a", 10, 20, 5 << 20),
            ("e2388f30e27d4b2ce98a8810557b1aba", 30, 5_000_000, 700 << 20),
        ],
    );
    let rs2 = dump(
        "rs2.example.internal",
        &[
            ("56148a42b86fc6273cb93d6e14763464", 0, 40, 1 << 19),
            // merged away since the meta scan: not among the regions read
            ("705eb38dcb49d832c4f4fb7abfde3724", 1, 1, 1),
        ],
    );
    let text = format!("{META}hbase> curl rs1\n{rs1}{rs2}");
    let r = read_regions(&text, None).unwrap();
    let got: Vec<_> = r
        .load
        .iter()
        .map(|l| {
            (
                l.start_key.as_str(),
                l.server.as_deref(),
                l.reads,
                l.writes,
                l.requests,
                l.store_file_mb,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "",
                Some("rs1.example.internal"),
                Some(10),
                Some(20),
                Some(30),
                Some(5)
            ),
            (
                "\\x01",
                Some("rs1.example.internal"),
                Some(30),
                Some(5_000_000),
                Some(5_000_030),
                Some(700)
            ),
            (
                "\\x02",
                Some("rs2.example.internal"),
                Some(0),
                Some(40),
                Some(40),
                Some(0)
            ),
            ("\\x03", None, None, None, None, None),
        ]
    );
    assert_eq!(
        r.load[3].encoded.as_deref(),
        Some("a268fbf8a9da0a405f96f04dcf047e07")
    );
    // Region 3's server is not known: no placement, rather than a guess for it.
    assert_eq!(r.assignment, None);
    let notes = r.notes.join("\n");
    assert!(
        notes.contains("3 region(s) read from 2 /jmx dump(s)"),
        "{notes}"
    );
    assert!(
        notes.contains("1 region(s) of table `events` in the /jmx dump(s) are not among"),
        "{notes}"
    );
}

#[test]
fn jmx_counters_win_over_list_regions() {
    let rs = dump(
        "rs9",
        &[("e2388f30e27d4b2ce98a8810557b1aba", 1, 2, 3 << 20)],
    );
    let r = read_regions(&format!("{LIST_REGIONS}{rs}"), None).unwrap();
    assert_eq!(r.load[1].requests, Some(3));
    assert_eq!(r.load[1].store_file_mb, Some(3));
    // the server list_regions names is kept
    assert_eq!(
        r.load[1].server.as_deref(),
        Some("rs2.example.internal,16020,1700000000456")
    );
    assert_eq!(r.load[0].requests, Some(98110));
}

#[test]
fn nan_in_a_dump_is_unknown_and_a_counter_that_is_not_one_is_a_located_note() {
    // Hadoop's JMX servlet writes a gauge with no value as a bare NaN: the dump is still read.
    let rs = dump(
        "rs9",
        &[("e2388f30e27d4b2ce98a8810557b1aba", 1, 2, 3 << 20)],
    )
    .replacen(
        "\"modelerType\"",
        "\"averageLoad\" : NaN,\n    \"modelerType\"",
        1,
    )
    .replacen(
        "_metric_readRequestCount\" : 1",
        "_metric_readRequestCount\" : -1",
        1,
    );
    let text = format!("{LIST_REGIONS}{rs}");
    let r = read_regions(&text, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.load[1].reads, None);
    assert_eq!(r.load[1].writes, Some(2));
    let line = text
        .lines()
        .position(|l| l.contains("readRequestCount\" : -1"))
        .unwrap()
        + 1;
    let notes = r.notes.join("\n");
    assert!(
        notes.contains(&format!("1 region counter(s) in the /jmx dump(s) are not whole numbers from 0 to 2^64 − 1 and are left out, so those regions have no rate from them: the first at line {line}, column"))
            && notes.contains("`readRequestCount` of region e2388f30e27d4b2ce98a8810557b1aba is -1 (negative)"),
        "{notes}"
    );
}

#[test]
fn a_dump_alone_or_cut_short_is_an_error() {
    let rs = dump("rs1", &[("b9648a65b8e483aa98e34ec614d0456a", 1, 2, 3)]);
    let e = read_regions(&rs, None).unwrap_err();
    assert!(e.message.contains("without key ranges"), "{e}");
    let cut = &rs[..rs.len() - 8];
    let text = format!("{META}{cut}");
    let e = read_regions(&text, None).unwrap_err();
    // at the end of the text, after its last line break
    assert_eq!(e.location.line, Some(text.split('\n').count()), "{e}");
    assert!(e.message.contains("EOF"), "{e}");
}

#[test]
fn of_two_regions_with_one_start_key_the_newer_holds_the_range() {
    // A split parent still in the list beside its first daughter (a newer id).
    let text = format!(
        "{META} events,\\x01,1700000099999.705eb38dcb49d832c4f4fb7abfde3724. |\n{}",
        dump(
            "rs1",
            &[
                ("705eb38dcb49d832c4f4fb7abfde3724", 4, 5, 0),
                ("e2388f30e27d4b2ce98a8810557b1aba", 1, 1, 0)
            ]
        )
    );
    let r = read_regions(&text, None).unwrap();
    assert_eq!(r.regions, 4);
    assert_eq!(
        r.load[1].encoded.as_deref(),
        Some("705eb38dcb49d832c4f4fb7abfde3724")
    );
    assert_eq!(r.load[1].requests, Some(9));
}

#[test]
fn never_panics_on_mangled_rows_and_dumps() {
    let base = format!(
        "{BARS}{}",
        dump("rs1", &[("b9648a65b8e483aa98e34ec614d0456a", 1, 2, 3)])
    )
    .replace("events", "t")
    .replace(
        "b9648a65b8e483aa98e34ec614d0456a",
        "79f0324f3f71fb34d012ffcf99623c2e",
    );
    let alphabet: Vec<char> = "| {}[]\"0123456789abcdef_:,.\n-REQSIZE".chars().collect();
    let mut s: u64 = 7;
    let mut next = |m: usize| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as usize % m.max(1)
    };
    let mut loaded = 0;
    for _ in 0..3000 {
        let mut t: Vec<char> = base.chars().collect();
        for _ in 0..=next(4) {
            let at = next(t.len());
            match next(3) {
                0 => {
                    let end = (at + next(40)).min(t.len());
                    t.drain(at..end);
                }
                1 => t.insert(at, alphabet[next(alphabet.len())]),
                _ => t[at] = alphabet[next(alphabet.len())],
            }
        }
        let t: String = t.into_iter().collect();
        if read_regions(&t, None).is_ok_and(|r| !r.load.is_empty()) {
            loaded += 1;
        }
    }
    // most manglings leave a readable row
    assert!(loaded > 100, "{loaded}");
}
