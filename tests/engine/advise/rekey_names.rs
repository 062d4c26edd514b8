//! The names a rekey plan prints into its statements (issue 73): the old and new table and the
//! column family go into HBase shell commands (Ruby strings), the Spark job (Python), the
//! MapReduce template (Java) and Phoenix's `UPSERT SELECT`. A table name HBase would refuse
//! (a quote, a line break, an ESC, nothing) is refused with the option and the byte; a
//! family HBase accepts with a quote in it is quoted wherever it is printed.

use rowkey_lab::analyze::{analyze, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::ErrorKind;
use rowkey_lab::rekey::{rekey_plan, RekeyOptions, RekeyPlan};

fn design(key: &str, presplit: &str) -> DesignDocument {
    DesignDocument::from_json(&format!(
        r#"{{"v": 1, "fields": [
              {{"name": "phone", "type": "string", "generator": {{"kind": "phone", "distinct": 50}}}},
              {{"name": "ts", "type": "timestamp", "generator": {{"kind": "clock"}}}}],
            "key": {key:?},
            "workload": {{"records": 2000, "seed": 7, "writeRate": 200, "valueSize": 50}},
            "regions": {{"presplit": {presplit}}}}}"#
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn plan_with(new_key: &str, o: &RekeyOptions) -> Result<RekeyPlan, rowkey_lab::error::Error> {
    let old = design("long(ts) + phone", r#"{"kind": "none"}"#);
    let new = design(new_key, r#"{"kind": "saltBuckets", "buckets": 4}"#);
    let opts = AnalyzeOptions::default();
    let (a, b) = (analyze(&old, &opts).unwrap(), analyze(&new, &opts).unwrap());
    rekey_plan(&old, &new, &a, &b, o)
}

fn plan(o: &RekeyOptions) -> Result<RekeyPlan, rowkey_lab::error::Error> {
    plan_with("salt(phone, 4) + phone + long(ts)", o)
}

/// Every statement the plan prints, as one text.
fn printed(p: &RekeyPlan) -> String {
    let mut all = vec![
        p.create.clone(),
        p.jobs.spark.clone(),
        p.jobs.mapreduce.clone(),
    ];
    all.extend(p.checklist.iter().cloned());
    all.extend(p.warnings.iter().cloned());
    all.join("\n")
}

#[test]
fn table_names_hbase_refuses_are_located_errors() {
    for (old, new, path, at) in [
        ("t', 'x'; system('id'); '", None, "oldTable", 1),
        ("t", Some("t2\nimport os; os.system('id')"), "newTable", 2),
        ("t", Some("t2\u{1b}[2J"), "newTable", 2),
        ("", None, "oldTable", 0),
        ("t", Some(""), "newTable", 0),
        ("ns:", None, "oldTable", 3),
        (
            "t\"; static { Runtime.getRuntime(); } \"",
            None,
            "oldTable",
            1,
        ),
        ("#{`id`}", None, "oldTable", 0),
        ("t`id`", None, "oldTable", 1),
        (".t", None, "oldTable", 0),
    ] {
        let o = RekeyOptions {
            old_table: old.into(),
            new_table: new.map(String::from),
            ..RekeyOptions::default()
        };
        let e = match plan(&o) {
            Ok(p) => panic!("{old:?} / {new:?} accepted:\n{}", printed(&p)),
            Err(e) => e,
        };
        assert_eq!(e.kind, ErrorKind::IllegalArgument, "{e}");
        assert_eq!(
            e.location.path.as_deref(),
            Some(path),
            "{old:?} {new:?}: {e}"
        );
        assert_eq!(e.location.offset, Some(at), "{old:?} {new:?}: {e}");
        // the message names the byte, never prints a control character raw
        assert!(!e.message.chars().any(char::is_control), "{:?}", e.message);
        assert!(e.message.starts_with(path), "{e}");
    }
}

#[test]
fn family_names_hbase_refuses_are_located_errors() {
    for (family, at) in [("", 0), ("f\nx", 1), ("f:x", 1), (".f", 0), ("f\u{1b}", 1)] {
        let o = RekeyOptions {
            family: family.into(),
            ..RekeyOptions::default()
        };
        let e = plan(&o).unwrap_err();
        assert_eq!(e.location.path.as_deref(), Some("family"), "{e}");
        assert_eq!(e.location.offset, Some(at), "{family:?}: {e}");
    }
    let long = RekeyOptions {
        family: "f".repeat(128),
        ..RekeyOptions::default()
    };
    assert!(plan(&long).unwrap_err().message.contains("127 bytes"));
}

/// The single-quoted Ruby strings of `text`, read as Ruby reads them (`\'` and `\\` escapes).
fn ruby_strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cs = text.chars();
    while let Some(c) = cs.next() {
        if c != '\'' {
            continue;
        }
        let mut s = String::new();
        loop {
            match cs.next() {
                None => panic!("an open string in {text}"),
                Some('\'') => break,
                Some('\\') => match cs.next() {
                    Some(e @ ('\'' | '\\')) => s.push(e),
                    Some(e) => {
                        s.push('\\');
                        s.push(e);
                    }
                    None => panic!("an open escape in {text}"),
                },
                Some(c) => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

#[test]
fn a_family_with_quotes_is_quoted_wherever_it_is_printed() {
    let family = "f'); system('id'); ('";
    let o = RekeyOptions {
        family: family.into(),
        old_table: "ns:calls".into(),
        ..RekeyOptions::default()
    };
    let p = plan(&o).unwrap();
    // the create: the table and the family, each one Ruby string, then the split keys
    let args = ruby_strings(&p.create);
    assert_eq!(&args[..2], &["ns:calls_new", family], "{}", p.create);
    // the MapReduce template: the family as one shell word in its last comment line
    let last = p.jobs.mapreduce.lines().last().unwrap();
    assert!(
        last.ends_with(r#"(family 'f'\''); system('\''id'\''); ('\''')"#),
        "{last}"
    );
    // every shell command of the checklist: each argument one Ruby string, the snapshot's
    // name without the namespace's `:` (HBase refuses it in a snapshot name)
    let snapshot = p
        .checklist
        .iter()
        .find(|c| c.contains("(`snapshot "))
        .unwrap();
    assert_eq!(
        ruby_strings(snapshot.split("(`").nth(1).unwrap()),
        ["ns:calls", "ns_calls_rekey"],
        "{snapshot}"
    );
    let keep = p
        .checklist
        .iter()
        .find(|c| c.starts_with("If the name must stay"))
        .unwrap();
    assert_eq!(
        ruby_strings(keep),
        [
            "ns:calls",
            "ns:calls_new",
            "ns_calls_new_final",
            "ns:calls",
            "ns_calls_new_final",
            "ns:calls"
        ],
        "{keep}"
    );
    assert!(p
        .jobs
        .mapreduce
        .contains("initTableSnapshotMapperJob(\"ns_calls_rekey\""));
}

#[test]
fn a_schema_qualified_phoenix_table_is_its_schema_and_table_in_upsert_select() {
    let sql = |t: &str, pk: &str| {
        rowkey_lab::design::phoenix::parse_create_table(&format!(
            "CREATE TABLE {t} (phone VARCHAR NOT NULL, ts BIGINT NOT NULL, v VARCHAR CONSTRAINT pk PRIMARY KEY ({pk}))"
        ))
        .unwrap()
    };
    let (po, pn) = (
        sql("S.CALLS", "ts, phone"),
        sql("S.\"new calls\"", "phone, ts"),
    );
    let opts = AnalyzeOptions::default();
    let (x, y) = (analyze(&po, &opts).unwrap(), analyze(&pn, &opts).unwrap());
    let p = rekey_plan(&po, &pn, &x, &y, &RekeyOptions::default()).unwrap();
    assert_eq!(
        p.jobs.phoenix.as_deref(),
        Some("UPSERT INTO S.\"new calls\" (PHONE, TS, V) SELECT PHONE, TS, V FROM S.CALLS;")
    );
}
