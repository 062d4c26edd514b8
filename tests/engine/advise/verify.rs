//! Verifying a rekey (issue 59, item 5): the old table's rows and the new table's, both read
//! through the new design, compared in two bounded passes. Each mutation below is made by this
//! test to one row, and the verdict must name that row's new key: a dropped row is missing, a
//! field changed is changed, a duplicated or invented row is extra; the same rows in another
//! order are equal.

use rowkey_lab::analyze::RowsSession;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::{CompiledKey, FieldValue};
use rowkey_lab::rekey::verify::{Export, Side, Verifier, VerifyOptions};
use rowkey_lab::rows::{NullPolicy, RowScan, RowSink, RowsOptions};
use rowkey_lab::workload::WorkloadStream;

fn design() -> DesignDocument {
    design_keyed("salt(phone, 8) + phone + long(ts)")
}

/// The test's fields and workload under `key`.
fn design_keyed(key: &str) -> DesignDocument {
    DesignDocument::from_json(&format!(
        r#"{{"v": 1,
            "fields": [
              {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "distinct": 300}}}},
              {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}},
              {{"name": "amount", "type": "long", "generator": {{"kind": "uniformInt", "min": 0, "max": 1000000}}}}
            ],
            "key": {key:?},
            "workload": {{"records": 5000, "seed": 3}}}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The workload's rows as value lists.
fn rows(doc: &DesignDocument) -> Vec<Vec<FieldValue>> {
    let spec = doc.workload.clone().unwrap();
    let mut stream = WorkloadStream::new(&spec, &doc.fields).unwrap();
    let mut out = Vec::new();
    let mut values: Vec<FieldValue> = Vec::new();
    while stream.next_values(&mut values).is_some() {
        out.push(values.clone());
    }
    out
}

/// `rows` as the verifier reads an export: each row's key under `doc`, followed by the row's
/// digest, end to end with their offsets, as a rows session's `keep_keys_with_digests` gives
/// them (the engine's own first pass, fed the values).
fn slice(doc: &DesignDocument, rows: &[Vec<FieldValue>]) -> (Vec<u8>, Vec<u32>) {
    let ck = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut scan = RowScan::new(Some(ck)).with_digests();
    for r in rows {
        scan.row(r, None).unwrap();
    }
    scan.take_keys()
}

/// Row `row`'s key under `doc`, toStringBinary.
fn key_under(doc: &DesignDocument, row: &[FieldValue]) -> String {
    let mut ck = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    rowkey_lab::hbase::bytes::to_string_binary(&ck.encode_values(row).unwrap())
}

/// The verdict on `old` against `new` (both read in two slices, each pass).
fn verify(
    old: &[Vec<FieldValue>],
    new: &[Vec<FieldValue>],
) -> rowkey_lab::rekey::verify::VerifyReport {
    verify_through(&design(), old, new)
}

/// The verdict through `doc`.
fn verify_through(
    doc: &DesignDocument,
    old: &[Vec<FieldValue>],
    new: &[Vec<FieldValue>],
) -> rowkey_lab::rekey::verify::VerifyReport {
    verify_holding(doc, old, new, None).0
}

/// The verdict through `doc` holding at most `cap` bytes of rows at once, and its rounds: each
/// side read in two slices, once to count and once a round.
fn verify_holding(
    doc: &DesignDocument,
    old: &[Vec<FieldValue>],
    new: &[Vec<FieldValue>],
    cap: Option<usize>,
) -> (rowkey_lab::rekey::verify::VerifyReport, usize) {
    let mut v = Verifier::new(doc).unwrap();
    if let Some(c) = cap {
        v.hold_at_most(c);
    }
    let d = v.design().clone();
    // the reads the engine's plan asks for, each side read in two slices
    let mut rounds = 0;
    while let Some(read) = v.next_read().unwrap() {
        let rows = match read.side {
            Side::Old => old,
            Side::New => new,
        };
        if read.side == Side::Old && read.buckets.is_some() {
            rounds += 1;
        }
        let (a, b) = rows.split_at(rows.len() / 2);
        for part in [a, b] {
            let (keys, offsets) = slice(&d, part);
            v.feed(read.side, &keys, &offsets).unwrap();
        }
    }
    (v.finish(), rounds)
}

/// Row `i`'s new key, toStringBinary (the new design's own key).
fn key_of(row: &[FieldValue]) -> String {
    key_under(&design(), row)
}

#[test]
fn the_same_rows_in_another_order_are_equal() {
    let old = rows(&design());
    let mut new = old.clone();
    new.reverse();
    let r = verify(&old, &new);
    assert!(r.equal && r.complete, "{r:?}");
    assert_eq!(
        (r.old_rows, r.new_rows, r.differing_buckets),
        (5000, 5000, 0)
    );
    assert_eq!((r.missing, r.extra, r.changed), (0, 0, 0));
    assert!(r.first.is_empty());
}

#[test]
fn each_mutation_is_named_by_its_new_key() {
    let old = rows(&design());
    // a dropped row
    let mut new = old.clone();
    let dropped = new.remove(1234);
    let r = verify(&old, &new);
    assert_eq!((r.missing, r.extra, r.changed), (1, 0, 0), "{r:?}");
    assert_eq!(r.first.len(), 1);
    assert_eq!(
        (r.first[0].kind, r.first[0].key.clone()),
        ("missing", key_of(&dropped))
    );
    assert!(!r.equal);
    // a field outside the key changed: same key, other cells
    let mut new = old.clone();
    new[77][2] = FieldValue::Long(-1);
    let r = verify(&old, &new);
    assert_eq!((r.missing, r.extra, r.changed), (0, 0, 1), "{r:?}");
    assert_eq!(
        (r.first[0].kind, r.first[0].key.clone()),
        ("changed", key_of(&old[77]))
    );
    // a row loaded twice, and one that never was in the old table
    let mut new = old.clone();
    new.push(old[9].clone());
    let mut invented = old[10].clone();
    invented[1] = FieldValue::Long(1);
    new.push(invented.clone());
    let r = verify(&old, &new);
    assert_eq!((r.missing, r.extra, r.changed), (0, 2, 0), "{r:?}");
    let mut named: Vec<String> = r.first.iter().map(|d| d.key.clone()).collect();
    named.sort();
    let mut want = vec![key_of(&old[9]), key_of(&invented)];
    want.sort();
    assert_eq!(named, want);
    // the new key read through the design names its fields
    assert!(
        r.first
            .iter()
            .all(|d| d.fields.as_deref().is_some_and(|f| f.contains("phone="))),
        "{:?}",
        r.first
    );
}

#[test]
fn any_key_is_read_as_the_table_writes_it() {
    // The row's digest follows its key outside the key: a salt over the rest of the key (as
    // Phoenix's, md5(), hash15()) hashes the key alone, and a Phoenix primary key, which must
    // end the key, is verified like any other. Found on the walkthrough of docs/rekey.md: when
    // the digests were appended inside the key, a field changed outside the key was counted
    // as a missing and an extra row, named by another salt byte than the table's.
    for key in [
        "salt(8, hash=phoenix) + phone + long(ts)",
        "md5() + phone + long(ts)",
        "hash15() + phone + \"|\" + long(ts)",
        "phone + long(ts) + salt(4)",
        "salt(4, hash=phoenix) + pk(phone, VARCHAR) + pk(ts, BIGINT)",
        "pk(ts, BIGINT, desc) + pk(phone, VARCHAR)",
        "pk(phone, VARCHAR) + pk(amount, BIGINT)",
    ] {
        let doc = design_keyed(key);
        let old = rows(&doc);
        // the verifier reads the design's own keys, byte for byte, each with 16 bytes after
        let v = Verifier::new(&doc).unwrap();
        let (its, its_at) = slice(v.design(), &old[..200]);
        for (i, w) in its_at.windows(2).enumerate() {
            let theirs = &its[w[0] as usize..w[1] as usize];
            let mut ck = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
            let k = ck.encode_values(&old[i]).unwrap();
            assert_eq!(&theirs[..theirs.len() - 16], &k[..], "{key}: row {i}");
        }
        // the same rows reversed are equal
        let mut same = old.clone();
        same.reverse();
        let r = verify_through(&doc, &old, &same);
        assert!(r.equal, "{key}: {r:?}");
        // a field outside the key changed (amount; in the last key, ts): one changed row,
        // named by the table's key; a field inside it: a missing and an extra row
        let (outside, inside) = if key.contains("pk(amount") {
            (1, 2)
        } else {
            (2, 1)
        };
        let mut new = old.clone();
        new[77][inside] = FieldValue::Long(-1);
        let r = verify_through(&doc, &old, &new);
        assert_eq!((r.missing, r.extra, r.changed), (1, 1, 0), "{key}: {r:?}");
        let mut new = old.clone();
        new[77][outside] = FieldValue::Long(-1);
        let r = verify_through(&doc, &old, &new);
        assert_eq!((r.missing, r.extra, r.changed), (0, 0, 1), "{key}: {r:?}");
        assert_eq!(
            (r.first[0].kind, r.first[0].key.clone()),
            ("changed", key_under(&doc, &old[77])),
            "{key}"
        );
        assert!(
            r.first[0]
                .fields
                .as_deref()
                .is_some_and(|f| f.contains("phone")),
            "{key}: {:?}",
            r.first[0].fields
        );
    }
}

#[test]
fn a_null_cell_is_a_value_verified_like_any_other() {
    // a cell left empty (a field outside the key) neither refuses the row nor hides it
    let doc = design();
    let mut old = rows(&doc);
    for r in old.iter_mut().step_by(7) {
        r[2] = FieldValue::Null;
    }
    let r = verify(&old, &old.clone());
    assert!(r.equal && r.old_rows == 5000, "{r:?}");
    // a null filled, a value emptied: each a changed row
    let mut new = old.clone();
    new[0][2] = FieldValue::Long(0);
    new[1][2] = FieldValue::Null;
    let r = verify(&old, &new);
    assert_eq!((r.missing, r.extra, r.changed), (0, 0, 2), "{r:?}");
    let mut named: Vec<String> = r.first.iter().map(|d| d.key.clone()).collect();
    named.sort();
    let mut want = vec![key_of(&old[0]), key_of(&old[1])];
    want.sort();
    assert_eq!(named, want);
}

#[test]
fn a_key_with_a_random_salt_cannot_be_verified() {
    let mut doc = design();
    doc.key = rowkey_lab::keyspec::KeySpec::parse_text("random(8) + phone + long(ts)").unwrap();
    let e = Verifier::new(&doc).unwrap_err();
    assert!(e.message.contains("random salt"), "{e}");
}

/// The verdict with each side cut into `pieces` pieces, each counted (and held) by a verifier
/// of its own and merged as bytes, as Spark's partitions are (`rowkey_lab.spark.verify_df`).
fn verify_in_pieces(
    old: &[Vec<FieldValue>],
    new: &[Vec<FieldValue>],
    pieces: usize,
) -> rowkey_lab::rekey::verify::VerifyReport {
    let mut driver = Verifier::new(&design()).unwrap();
    let d = driver.design().clone();
    let each = |s: Side, buckets: Option<&[u32]>| -> Vec<Vec<u8>> {
        let rows = match s {
            Side::Old => old,
            Side::New => new,
        };
        let mut out = Vec::new();
        for part in rows.chunks(rows.len().div_ceil(pieces)) {
            let mut v = Verifier::new(&design()).unwrap();
            let (keys, offsets) = slice(&d, part);
            match buckets {
                None => v.count(s, &keys, &offsets).unwrap(),
                Some(b) => {
                    v.hold_in(b).unwrap();
                    v.hold(s, &keys, &offsets).unwrap();
                }
            }
            out.push(v.partial().unwrap());
        }
        out
    };
    // the driver walks the engine's plan (as Python's verify_driven does for Spark), the
    // pieces merged in reverse: their order does not matter
    while let Some(read) = driver.next_read().unwrap() {
        for p in each(read.side, read.buckets.as_deref()).iter().rev() {
            driver.merge(p).unwrap();
        }
    }
    driver.finish()
}

#[test]
fn pieces_merged_give_one_readers_verdict() {
    let old = rows(&design());
    let mut new = old.clone();
    new.remove(10);
    new[300][2] = FieldValue::Long(-5);
    new.push(old[4000].clone());
    new.reverse();
    let one = verify(&old, &new);
    assert_eq!((one.missing, one.extra, one.changed), (1, 1, 1), "{one:?}");
    for pieces in [1, 3, 7] {
        assert_eq!(verify_in_pieces(&old, &new, pieces), one, "{pieces} pieces");
    }
    let same = verify_in_pieces(&old, &old, 5);
    assert!(same.equal && same.first.is_empty(), "{same:?}");
}

#[test]
fn a_changed_or_foreign_partial_is_refused() {
    let old = rows(&design());
    let mut v = Verifier::new(&design()).unwrap();
    let (keys, offsets) = slice(&v.design().clone(), &old[..100]);
    v.count(Side::Old, &keys, &offsets).unwrap();
    let p = v.partial().unwrap();
    let mut driver = Verifier::new(&design()).unwrap();
    for at in [0, 5, 9, 17, p.len() - 1] {
        let mut bad = p.clone();
        bad[at] ^= 0x40;
        let e = driver.merge(&bad).unwrap_err();
        assert!(
            e.message.contains("not a verification partial"),
            "byte {at}: {e}"
        );
    }
    // another new design's partial
    let other = DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "phone", "type": "string"}, {"name": "ts", "type": "timestamp"},
            {"name": "amount", "type": "long"}], "key": "phone + long(ts)"}"#,
    )
    .unwrap();
    let mut w = Verifier::new(&other).unwrap();
    let e = driver.merge(&w.partial().unwrap()).unwrap_err();
    assert!(e.message.contains("another design"), "{e}");
    // counts after the count ended
    driver.merge(&p).unwrap();
    driver.differing_buckets();
    let e = driver.merge(&p).unwrap_err();
    assert!(e.message.contains("the count has ended"), "{e}");
    let _ = w.differing_buckets();
    assert_eq!(driver.finish().old_rows, 100);
}

/// The fixture's flights design, with the departure time as a cell (empty in some rows).
fn flights() -> DesignDocument {
    let text = std::fs::read_to_string("tests/fixtures/rows/flights-design.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["fields"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "dep_time", "type": "double"}));
    DesignDocument::from_json(&v.to_string()).unwrap()
}

fn export(bytes: &[u8], name: &str) -> (std::io::Cursor<Vec<u8>>, RowsOptions) {
    let rows = RowsOptions {
        name: Some(name.into()),
        nulls: NullPolicy::Skip,
        ..RowsOptions::default()
    };
    (std::io::Cursor::new(bytes.to_vec()), rows)
}

fn verify_exports(
    doc: &DesignDocument,
    old: (&[u8], &str),
    new: (&[u8], &str),
) -> rowkey_lab::rekey::verify::VerifyReport {
    verify_exports_with(doc, old, new, &VerifyOptions::default()).unwrap()
}

/// The verdict on two exports the engine reads itself, every column both hold compared unless
/// `opts` says otherwise.
fn verify_exports_with(
    doc: &DesignDocument,
    (old, old_name): (&[u8], &str),
    (new, new_name): (&[u8], &str),
    opts: &VerifyOptions,
) -> Result<rowkey_lab::rekey::verify::VerifyReport, rowkey_lab::error::Error> {
    let (mut a, ra) = export(old, old_name);
    let (mut b, rb) = export(new, new_name);
    let (la, lb) = (old.len() as u64, new.len() as u64);
    Verifier::verify_exports(
        doc.clone(),
        &mut Export {
            rows: &ra,
            file: &mut a,
            len: la,
        },
        &mut Export {
            rows: &rb,
            file: &mut b,
            len: lb,
        },
        opts,
    )
}

#[test]
fn files_the_engine_reads_are_verified_in_any_format() {
    let doc = flights();
    let csv = std::fs::read("tests/fixtures/rows/flights.csv").unwrap();
    let parquet = std::fs::read("tests/fixtures/rows/flights.parquet").unwrap();
    let text = String::from_utf8(csv.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let with_tail = lines[1..]
        .iter()
        .filter(|l| l.split(',').nth(2) != Some(""))
        .count();
    // the same rows as CSV and as Parquet are equal (rows with no tail number have no key)
    let r = verify_exports(&doc, (&csv, "old.csv"), (&parquet, "new.parquet"));
    assert!(r.equal, "{r:?}");
    assert_eq!(
        (r.old_rows, r.new_rows),
        (with_tail as u64, with_tail as u64)
    );
    // reversed, a row dropped and a departure time emptied: one missing, one changed, each
    // named by its key as `encode` writes it
    let col = lines[0].split(',').position(|c| c == "dep_time").unwrap();
    let (drop, empty) = (40, 41);
    let mut body: Vec<String> = Vec::new();
    for (i, l) in lines[1..].iter().enumerate() {
        if i == drop || l.split(',').nth(2) == Some("") {
            continue;
        }
        let mut cells: Vec<&str> = l.split(',').collect();
        if i == empty {
            assert_ne!(cells[col], "", "the row emptied had a departure time");
            cells[col] = "";
        }
        body.push(cells.join(","));
    }
    body.reverse();
    let new = format!("{}\n{}\n", lines[0], body.join("\n"));
    let r = verify_exports(&doc, (&csv, "old.csv"), (new.as_bytes(), "new.csv"));
    assert_eq!((r.missing, r.extra, r.changed), (1, 0, 1), "{r:?}");
    let key_of_line = |i: usize| {
        let one = format!("{}\n{}\n", lines[0], lines[1 + i]);
        let mut s =
            RowsSession::new(doc.clone(), Default::default(), export(b"", "one.csv").1).unwrap();
        s.keep_keys().unwrap();
        s.push(one.as_bytes()).unwrap();
        s.end_scan().unwrap();
        let (k, _) = s.take_keys();
        rowkey_lab::hbase::bytes::to_string_binary(&k)
    };
    let mut got: Vec<(&str, String)> = r.first.iter().map(|d| (d.kind, d.key.clone())).collect();
    got.sort();
    let mut want = vec![
        ("missing", key_of_line(drop)),
        ("changed", key_of_line(empty)),
    ];
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn rounds_that_fit_a_small_memory_give_the_same_exact_verdict() {
    // 300 rows dropped, 200 changed, 100 invented: every bucket's rows read in one round, or
    // in rounds of at most 5 kB of rows each, give the same counts and first differences
    let doc = design();
    let old = rows(&doc);
    let mut new: Vec<Vec<FieldValue>> = old
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 16 != 3)
        .map(|(_, r)| r.clone())
        .collect();
    assert_eq!(old.len() - new.len(), 313);
    assert!(new.len() / 20 >= 200);
    for r in new.iter_mut().step_by(20).take(200) {
        r[2] = FieldValue::Long(-7);
    }
    for (i, r) in old.iter().take(100).enumerate() {
        let mut r = r.clone();
        r[1] = FieldValue::Long(i as i64);
        new.push(r);
    }
    let (one, n) = verify_holding(&doc, &old, &new, None);
    assert_eq!(n, 1);
    assert_eq!(
        (one.missing, one.extra, one.changed),
        (313, 100, 200),
        "{one:?}"
    );
    assert!(one.complete);
    let (small, n) = verify_holding(&doc, &old, &new, Some(5_000));
    assert!(n >= 5, "{n} rounds");
    assert_eq!(small, one);
    // a bucket alone past what may be held: counts that are lower bounds, said
    let (tiny, _) = verify_holding(&doc, &old, &new, Some(60));
    assert!(!tiny.complete && !tiny.equal);
    assert!(
        tiny.missing <= 313 && tiny.extra <= 100 && tiny.changed <= 200,
        "{tiny:?}"
    );
}

#[test]
fn the_plan_of_reads_is_the_counts_then_both_sides_a_round_then_none() {
    // every shell (the CLI, Python, Spark) walks next_read: both exports counted, then both
    // again per round with the round's buckets, then none, and none again when asked again
    let doc = design();
    let old = rows(&doc);
    let mut new = old.clone();
    new.truncate(old.len() - 40);
    let mut v = Verifier::new(&doc).unwrap();
    v.hold_at_most(2_000);
    let d = v.design().clone();
    let mut seen = Vec::new();
    while let Some(read) = v.next_read().unwrap() {
        let rows = if read.side == Side::Old { &old } else { &new };
        let (keys, offsets) = slice(&d, rows);
        v.feed(read.side, &keys, &offsets).unwrap();
        seen.push((read.side, read.buckets));
    }
    assert!(v.next_read().unwrap().is_none());
    assert_eq!(
        seen[..2],
        [(Side::Old, None), (Side::New, None)],
        "the counts first"
    );
    let rounds: Vec<_> = seen[2..].chunks(2).collect();
    assert!(rounds.len() >= 2, "{} rounds", rounds.len());
    for r in &rounds {
        assert!(
            matches!(r, [(Side::Old, Some(a)), (Side::New, Some(b))] if a == b && !a.is_empty())
        );
    }
    let report = v.finish();
    assert_eq!((report.missing, report.extra, report.changed), (40, 0, 0));
    assert!(report.complete);
    // equal exports: the two counts and nothing more
    let mut v = Verifier::new(&doc).unwrap();
    let mut n = 0;
    while let Some(read) = v.next_read().unwrap() {
        let (keys, offsets) = slice(&d, &old);
        v.feed(read.side, &keys, &offsets).unwrap();
        n += 1;
    }
    assert_eq!(n, 2);
    assert!(v.finish().equal);
}
