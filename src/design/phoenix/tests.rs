#![allow(clippy::unwrap_used)]

use super::*;
use crate::keyspec::CompiledKey;

mod ddl;

const METRICS: &str = "CREATE TABLE IF NOT EXISTS metrics (
    host VARCHAR(32) NOT NULL,
    ts DATE NOT NULL,
    \"metric id\" INTEGER NOT NULL,
    cf.val DOUBLE,
    note VARCHAR,
    CONSTRAINT pk PRIMARY KEY (host, ts DESC, \"metric id\")
) SALT_BUCKETS = 16, VERSIONS = 3, COMPRESSION = 'SNAPPY';";

#[test]
fn reads_a_salted_composite_key() {
    let doc = parse_create_table(METRICS).unwrap();
    assert_eq!(
        doc.key.to_text(),
        "salt(16, hash=phoenix) + pk(HOST, VARCHAR(32)) + pk(TS, DATE, desc) + pk(\"metric id\", INTEGER)"
    );
    let names: Vec<(&str, FieldType)> = doc
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.field_type))
        .collect();
    assert_eq!(
        names,
        vec![
            ("HOST", FieldType::String),
            ("TS", FieldType::Timestamp),
            ("metric id", FieldType::Int)
        ]
    );
    let p = doc.phoenix.as_ref().unwrap();
    assert_eq!(p.table, "METRICS");
    assert_eq!(p.options, vec!["VERSIONS=3", "COMPRESSION='SNAPPY'"]);
    assert_eq!(p.columns.len(), 2);
    assert_eq!(p.columns[0].family.as_deref(), Some("CF"));
    assert_eq!(
        doc.regions.as_ref().unwrap().presplit,
        PreSplit::SaltBuckets {
            buckets: 16,
            style: SaltStyle::Byte,
            width: None
        }
    );
    // The design compiles and analyses like any other.
    CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
}

#[test]
fn prints_back_and_round_trips() {
    let doc = parse_create_table(METRICS).unwrap();
    let sql = print_create_table(&doc).unwrap();
    assert_eq!(
        sql,
        "CREATE TABLE METRICS (
    HOST VARCHAR(32) NOT NULL,
    TS DATE NOT NULL,
    \"metric id\" INTEGER NOT NULL,
    CF.VAL DOUBLE,
    NOTE VARCHAR,
    CONSTRAINT pk PRIMARY KEY (HOST, TS DESC, \"metric id\")
) SALT_BUCKETS=16, VERSIONS=3, COMPRESSION='SNAPPY';"
    );
    let again = parse_create_table(&sql).unwrap();
    assert_eq!(again, doc);
    // Through the document's JSON too.
    let json = doc.to_json();
    assert_eq!(DesignDocument::from_json(&json).unwrap(), doc);
}

#[test]
fn inline_key_split_on_and_types() {
    let doc = parse_create_table(
        "create table t (id char(4) primary key desc, price decimal(10,2), b boolean) split on ('b', 'm')",
    )
    .unwrap();
    assert_eq!(doc.key.to_text(), "pk(ID, CHAR(4), desc)");
    assert_eq!(
        doc.regions.unwrap().presplit,
        PreSplit::Explicit {
            keys: vec!["62".into(), "6d".into()],
            encoding: KeyEncoding::Hex
        }
    );
    let sql = print_create_table(
        &parse_create_table("CREATE TABLE t (id CHAR(4) PRIMARY KEY) SPLIT ON ('b','m')").unwrap(),
    )
    .unwrap();
    assert!(sql.ends_with(") SPLIT ON ('b', 'm');"), "{sql}");
    // A salted table with split points is refused by Phoenix; the printer never writes one.
    let mut salted =
        parse_create_table("CREATE TABLE t (id CHAR(4) PRIMARY KEY) SALT_BUCKETS=4").unwrap();
    salted.regions.get_or_insert_with(Default::default).presplit = PreSplit::Explicit {
        keys: vec!["b".into()],
        encoding: KeyEncoding::StringBinary,
    };
    let e = print_create_table(&salted).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/regions/presplit"));
    assert!(e.message.contains("SPLIT ON"), "{e}");
    // Phoenix's grammar takes the constraint without a comma before it, and nothing after it.
    let d = parse_create_table("CREATE TABLE t (a DECIMAL(10,2) NOT NULL, b BIGINT NOT NULL CONSTRAINT pk PRIMARY KEY (a, b))").unwrap();
    assert_eq!(d.key.to_text(), "pk(A, DECIMAL(10, 2)) + pk(B, BIGINT)");
    let e =
        parse_create_table("CREATE TABLE t (a BIGINT, CONSTRAINT pk PRIMARY KEY (a), b INTEGER)")
            .unwrap_err();
    // "CREATE TABLE t (a BIGINT, CONSTRAINT pk PRIMARY KEY (a)" is 55 characters: the comma is 56.
    assert_eq!((e.location.line, e.location.column), (Some(1), Some(56)));
    assert!(
        e.message
            .contains("the PRIMARY KEY constraint ends the column list"),
        "{e}"
    );
}

#[test]
fn errors_say_where_and_what() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("CREATE TABLE t (a VARCHAR)", (1, 17), "needs a PRIMARY KEY"),
        (
            "CREATE TABLE t (a VARCHAR,\n  CONSTRAINT pk PRIMARY KEY (b))",
            (2, 30),
            "not declared",
        ),
        (
            "CREATE TABLE t (a INTEGER ARRAY PRIMARY KEY)",
            (1, 17),
            "INTEGER ARRAY",
        ),
        (
            "CREATE TABLE t (a JSON PRIMARY KEY)",
            (1, 17),
            "the row key covers",
        ),
        (
            "CREATE TABLE t (a INTEGER PRIMARY KEY) SALT_BUCKETS = 300",
            (1, 55),
            "0 to 256",
        ),
        (
            "CREATE TABLE t (a VARCHAR PRIMARY KEY) SALT_BUCKETS = 4 SPLIT ON ('a')",
            (1, 57),
            "salted",
        ),
        (
            "CREATE TABLE t (a CHAR PRIMARY KEY)",
            (1, 19),
            "needs a length",
        ),
        (
            "CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER PRIMARY KEY)",
            (1, 40),
            "more than one column",
        ),
        (
            "CREATE TABLE t (a INTEGER PRIMARY KEY DEFAULT 1)",
            (1, 39),
            "DEFAULT",
        ),
        (
            "CREATE VIEW v (a INTEGER PRIMARY KEY)",
            (1, 8),
            "only CREATE TABLE",
        ),
        (
            "CREATE TABLE t (a VARCHAR PRIMARY KEY) junk",
            (1, 44),
            "`=`",
        ),
        (
            "CREATE TABLE t (a VARCHAR PRIMARY KEY, 'x')",
            (1, 40),
            "a column name",
        ),
    ];
    for (sql, (line, col), what) in cases {
        let e = parse_create_table(sql).unwrap_err();
        assert_eq!(
            (e.location.line, e.location.column),
            (Some(*line), Some(*col)),
            "{sql}: {e}"
        );
        assert!(e.message.contains(what), "{sql}: {e}");
        assert!(
            e.to_string()
                .contains(&format!("line {line}, column {col}")),
            "{e}"
        );
    }
}

#[test]
fn identifiers_follow_phoenix_case_rules() {
    let doc =
        parse_create_table("CREATE TABLE s.\"Mixed\" (\"k q\" VARCHAR PRIMARY KEY, Lower INTEGER)")
            .unwrap();
    assert_eq!(doc.phoenix.as_ref().unwrap().table, "S.Mixed");
    assert_eq!(doc.fields[0].name, "k q");
    assert_eq!(doc.phoenix.as_ref().unwrap().columns[0].name, "LOWER");
    let sql = print_create_table(&doc).unwrap();
    assert!(
        sql.starts_with("CREATE TABLE S.\"Mixed\" (\n    \"k q\" VARCHAR NOT NULL"),
        "{sql}"
    );
    assert_eq!(parse_create_table(&sql).unwrap().key, doc.key);
    // Phoenix's quoted names have no escape: `"k""q"` is the name k and then the name q
    // (here read as k's type).
    let e = parse_create_table("CREATE TABLE t (\"k\"\"q\" VARCHAR PRIMARY KEY)").unwrap_err();
    assert!(e.message.contains("\"q\" is not a Phoenix type"), "{e}");
    assert_eq!(e.location.column, Some(20));
}

#[test]
fn only_phoenix_keys_print() {
    let doc = DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "\"x\" + a"}"#,
    )
    .unwrap();
    let e = print_create_table(&doc).unwrap_err();
    assert!(e.message.contains("no pk(...) columns"), "{e}");
    // A prefix other than Phoenix's salt byte is no Phoenix table: refused when read.
    for key in ["md5(a) + pk(a, VARCHAR)", "salt(8) + pk(a, VARCHAR)"] {
        let e = DesignDocument::from_json(&format!(
            r#"{{"v": 1, "fields": [{{"name": "a", "type": "string"}}], "key": "{key}"}}"#
        ))
        .unwrap_err();
        assert!(
            e.message
                .contains("only salt(N, hash=phoenix) may come before"),
            "{key}: {e}"
        );
        // (a key written as text is pointed at by line and column within /key)
        assert!(
            e.location
                .path
                .as_deref()
                .is_some_and(|p| p.starts_with("/key")),
            "{key}: {e:?}"
        );
    }
    assert!(DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "salt(8, hash=phoenix) + pk(a, VARCHAR)"}"#
    )
    .is_ok());
}

#[test]
fn key_columns_are_nullable_as_phoenix_decides() {
    // A composite key's columns are nullable unless NOT NULL; the only key column never.
    let doc = parse_create_table(
        "CREATE TABLE t (a VARCHAR, b VARCHAR NOT NULL CONSTRAINT pk PRIMARY KEY (a, b))",
    )
    .unwrap();
    assert_eq!(
        doc.key.to_text(),
        "pk(A, VARCHAR, nullable) + pk(B, VARCHAR)"
    );
    let sql = print_create_table(&doc).unwrap();
    assert!(
        sql.contains("    A VARCHAR,\n    B VARCHAR NOT NULL,"),
        "{sql}"
    );
    assert_eq!(parse_create_table(&sql).unwrap().key, doc.key);
    let doc = parse_create_table("CREATE TABLE t (a VARCHAR PRIMARY KEY)").unwrap();
    assert_eq!(doc.key.to_text(), "pk(A, VARCHAR)");
    let e = parse_create_table("CREATE TABLE t (a VARCHAR NULL PRIMARY KEY)").unwrap_err();
    assert!(e.message.contains("SINGLE_PK_MAY_NOT_BE_NULL"), "{e}");
    assert_eq!(e.location.column, Some(17));
}

#[test]
fn a_family_column_may_share_a_key_column_s_name() {
    let doc =
        parse_create_table("CREATE TABLE t (cf.a VARCHAR, a VARCHAR PRIMARY KEY, b.x INTEGER)")
            .unwrap();
    assert_eq!(doc.key.to_text(), "pk(A, VARCHAR)");
    let p = doc.phoenix.as_ref().unwrap();
    let cols: Vec<(Option<&str>, &str)> = p
        .columns
        .iter()
        .map(|c| (c.family.as_deref(), c.name.as_str()))
        .collect();
    assert_eq!(cols, vec![(Some("CF"), "A"), (Some("B"), "X")]);
    // A key column named with a family is refused where it is declared.
    let e = parse_create_table("CREATE TABLE t (cf.a VARCHAR PRIMARY KEY)").unwrap_err();
    assert!(
        e.message.contains("cannot have a column family (CF)"),
        "{e}"
    );
    assert_eq!(e.location.column, Some(17));
}

/// A table read from its statement comes with the two reads it is most often queried by,
/// on the first record its workload writes: a get by the whole key (one scan: the salt byte
/// is computed from the key) and every row of one host (a salted table: one scan per bucket).
#[test]
fn a_table_comes_with_a_get_and_a_leading_column_read() {
    let doc = parse_create_table(METRICS).unwrap();
    let names: Vec<String> = doc.reads.iter().map(|r| r.name()).collect();
    assert_eq!(
        names,
        ["one row by its primary key", "every row of one HOST"]
    );
    let spec = doc.workload.clone().unwrap_or_default();
    let mut stream = crate::workload::WorkloadStream::new(&spec, &doc.fields).unwrap();
    let mut first = crate::workload::Record::default();
    assert!(stream.next_into(&mut first));
    let crate::workload::FieldValue::Str(host) = &first.values[0] else {
        panic!("{first:?}")
    };
    match &doc.reads[1] {
        crate::scan::ReadPattern::Prefix { record, .. } => {
            assert_eq!(record.len(), 1);
            assert_eq!(record["HOST"], serde_json::json!(host));
        }
        other => panic!("{other:?}"),
    }
    let splits = doc.regions.as_ref().unwrap().split_keys(&[]).unwrap();
    let plans = doc.plan_reads(&splits).unwrap();
    assert_eq!(plans[0].scans.len(), 1, "{:?}", plans[0].notes);
    assert_eq!(plans[1].scans.len(), 16, "{:?}", plans[1].notes);
}

/// A statement of 100,000 columns (about 2.6 MB) reads into its design: the duplicate checks
/// are hash lookups, not scans of the columns read so far (measured by hand: see the commit).
#[test]
fn a_hundred_thousand_columns_read() {
    let n = 100_000;
    let mut sql = String::from("CREATE TABLE wide (k VARCHAR PRIMARY KEY");
    for i in 0..n {
        sql.push_str(&format!(", cf.c{i} INTEGER"));
    }
    sql.push(')');
    let doc = parse_create_table(&sql).unwrap();
    let p = doc.phoenix.as_ref().unwrap();
    assert_eq!(p.columns.len(), n);
    assert_eq!(p.columns[n - 1].name, format!("C{}", n - 1));
    // The same column again, last: refused, pointing at the first.
    let dup = format!("{}, cf.c0 VARCHAR)", &sql[..sql.len() - 1]);
    let e = parse_create_table(&dup).unwrap_err();
    assert!(e.message.contains("declared twice"), "{e}");
}
