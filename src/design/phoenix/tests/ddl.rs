//! The statement as Phoenix's lexer and grammar read it, and a printer that cannot be broken
//! out of: issue 37's injections, Phoenix's own parser cases (`QueryParserTest`, commit
//! `6d9ec471`) and the lexer's escapes.

use super::*;

/// The seed-000 call records as the issue's designs start from them.
const CALLS: &str =
    "CREATE TABLE CALL_RECORDS (PHONE VARCHAR(11) NOT NULL, CALL_TIME DATE NOT NULL, \
    CF.CALLEE VARCHAR(11), CONSTRAINT pk PRIMARY KEY (PHONE, CALL_TIME))";

const DROP: &str = "DROP TABLE CALL_RECORDS; --";

fn calls() -> DesignDocument {
    parse_create_table(CALLS).unwrap()
}

fn section(doc: &mut DesignDocument) -> &mut PhoenixSection {
    doc.phoenix.as_mut().unwrap()
}

/// The explicit split keys a statement reads into, as bytes.
fn splits(doc: &DesignDocument) -> Vec<Vec<u8>> {
    match &doc.regions.as_ref().unwrap().presplit {
        PreSplit::Explicit { keys, encoding } => keys
            .iter()
            .map(|k| match encoding {
                KeyEncoding::Hex => crate::hbase::bytes::from_hex(k).unwrap(),
                KeyEncoding::StringBinary => crate::hbase::bytes::to_bytes_binary_str(k),
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

fn with_splits(doc: &mut DesignDocument, keys: &[&str], encoding: KeyEncoding) {
    doc.regions = Some(RegionLayout {
        presplit: PreSplit::Explicit {
            keys: keys.iter().map(|k| (*k).to_string()).collect(),
            encoding,
        },
        ..RegionLayout::default()
    });
}

/// The printed statement read back: one statement (the reader refuses anything after its
/// `;`), whose design is the one printed.
fn round_trip(doc: &DesignDocument) -> (String, DesignDocument) {
    let sql = print_create_table(doc).unwrap();
    let back = parse_create_table(&sql).unwrap_or_else(|e| panic!("{sql}\n{e}"));
    assert_eq!(back.phoenix, doc.phoenix, "{sql}");
    assert_eq!(back.key, doc.key, "{sql}");
    (sql, back)
}

#[test]
fn an_injected_option_is_refused_at_its_path() {
    for bad in [
        format!("TTL=86400 ); {DROP}"),
        format!("TTL=86400) ; {DROP}"),
        format!("TTL=86400; {DROP}"),
        "TTL=-1".to_string(),
        "TTL".to_string(),
        "=1".to_string(),
        "TTL=1, VERSIONS=2".to_string(),
        "KEY=1".to_string(),
        "TTL='never closed".to_string(),
    ] {
        let mut doc = calls();
        section(&mut doc).options = vec!["VERSIONS=3".into(), bad.clone()];
        let e = print_create_table(&doc).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Invalid, "{bad}: {e}");
        assert_eq!(
            e.location.path.as_deref(),
            Some("/phoenix/options/1"),
            "{bad}"
        );
        assert!(
            e.message
                .contains("is not one Phoenix table option, NAME=value"),
            "{bad}: {e}"
        );
        assert!(
            e.message.contains(&crate::support::json::quote(&bad)),
            "{bad}: {e}"
        );
    }
    // Comments are no part of an option: it prints without them.
    let mut doc = calls();
    section(&mut doc).options = vec!["TTL=86400 -- the rest".into(), "/* x */ VERSIONS=3".into()];
    let sql = print_create_table(&doc).unwrap();
    assert!(sql.ends_with(") TTL=86400, VERSIONS=3;"), "{sql}");
    // SALT_BUCKETS is the key's salt, not an option.
    let mut doc = calls();
    section(&mut doc).options = vec!["SALT_BUCKETS=4".into()];
    let e = print_create_table(&doc).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("/phoenix/options/0"));
}

#[test]
fn options_print_as_the_grammar_reads_them() {
    let mut doc = calls();
    section(&mut doc).options = vec![
        "ttl = 86400".into(),
        "cf.KEEP_DELETED_CELLS=true".into(),
        "COMPRESSION = 'it''s'".into(),
        "\"my opt\"=snappy".into(),
        "D=DATE '2024-01-01'".into(),
        "B=x'0a 1B'".into(),
        "F=1.5e3".into(),
    ];
    let (sql, _) = round_trip(&{
        let mut d = doc.clone();
        // What the printer writes is what the reader keeps.
        let printed = print_create_table(&d).unwrap();
        d = parse_create_table(&printed).unwrap();
        d
    });
    assert!(
        sql.ends_with(") TTL=86400, CF.KEEP_DELETED_CELLS=TRUE, COMPRESSION='it''s', \"my opt\"=snappy, D=DATE '2024-01-01', B=X'0A1B', F=1.5e3;"),
        "{sql}"
    );
    let e = print_create_table(&{
        section(&mut doc).options = vec!["TTL=86400 ); DROP TABLE CALL_RECORDS; --".into()];
        doc
    })
    .unwrap_err();
    // The reason points into the option's text.
    assert!(
        e.message
            .contains("expected nothing more, found `)` (at character 11)"),
        "{e}"
    );
}

#[test]
fn an_injected_type_is_refused_at_its_path() {
    for bad in [
        format!("VARCHAR); {DROP}"),
        format!("VARCHAR(10)); {DROP}"),
        "VARCHAR NOT NULL".to_string(),
        "INT".to_string(),
        "TEXT".to_string(),
        "CHAR".to_string(),
        "VARCHAR(0)".to_string(),
        "DECIMAL(40,2)".to_string(),
        "VARBINARY ARRAY".to_string(),
        "JSON[]".to_string(),
        "".to_string(),
    ] {
        let mut doc = calls();
        section(&mut doc).columns[0].data_type = bad.clone();
        let e = print_create_table(&doc).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Invalid, "{bad}: {e}");
        assert_eq!(
            e.location.path.as_deref(),
            Some("/phoenix/columns/0/type"),
            "{bad}"
        );
        assert!(e.message.contains("is not one Phoenix type"), "{bad}: {e}");
    }
    let mut doc = calls();
    for (ty, printed) in [
        ("varchar(20)", "VARCHAR(20)"),
        ("decimal( 10 , 2 )", "DECIMAL(10,2)"),
        ("INTEGER[]", "INTEGER ARRAY"),
        ("integer array[3]", "INTEGER ARRAY[3]"),
        ("\"unsigned_long\"", "UNSIGNED_LONG"),
        ("BSON", "BSON"),
    ] {
        section(&mut doc).columns[0].data_type = ty.into();
        let sql = print_create_table(&doc).unwrap();
        assert!(sql.contains(&format!("CF.CALLEE {printed},")), "{sql}");
        assert_eq!(
            parse_create_table(&sql).unwrap().phoenix.unwrap().columns[0].data_type,
            printed
        );
    }
}

#[test]
fn names_phoenix_cannot_write_are_refused() {
    type Change = fn(&mut DesignDocument);
    let cases: [(&str, Change); 5] = [
        ("/phoenix/columns/0/name", |d| {
            section(d).columns[0].name = format!("A\" VARCHAR); {DROP}")
        }),
        ("/phoenix/columns/0/family", |d| {
            section(d).columns[0].family = Some(String::new())
        }),
        ("/phoenix/table", |d| section(d).table = "A:B".into()),
        ("/phoenix/table", |d| section(d).table = "S.".into()),
        ("/key/segments/0", |d| {
            d.fields[0].name = "x\"y".into();
            if let Some(Segment::Pk(p)) = d.key.segments.first_mut() {
                p.field = "x\"y".into();
            }
        }),
    ];
    for (path, change) in cases {
        let mut doc = calls();
        change(&mut doc);
        let e = print_create_table(&doc).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Invalid, "{path}: {e}");
        assert_eq!(e.location.path.as_deref(), Some(path), "{e}");
    }
}

#[test]
fn hostile_text_in_names_and_literals_prints_one_statement() {
    let hostile = [
        format!(") ; {DROP}"),
        format!("'); {DROP}"),
        format!("\\'); {DROP}"),
        "1\\".to_string(),
        "\\\\'".to_string(),
        "line\nbreak -- and\r\n/* a comment".to_string(),
        "tab\there, NUL \0 and é, ✓, 𝄞".to_string(),
        "\\_%\\%\\n".to_string(),
        "'".to_string(),
    ];
    for s in &hostile {
        let mut doc = calls();
        let p = section(&mut doc);
        p.table = format!("S.{s}");
        p.columns[0].name = s.clone();
        p.columns[0].family = Some(s.clone());
        p.options = vec![format!("COMPRESSION={}", quote_str(s))];
        with_splits(
            &mut doc,
            &[&crate::hbase::bytes::to_hex(s.as_bytes())],
            KeyEncoding::Hex,
        );
        let (sql, back) = round_trip(&doc);
        assert_eq!(back.phoenix.as_ref().unwrap().table, format!("S.{s}"));
        assert_eq!(splits(&back), vec![s.as_bytes().to_vec()], "{sql}");
    }
}

#[test]
fn the_issue_s_split_keys_read_back_as_written() {
    let mut doc = calls();
    // JSON ["1\\", ") ; DROP TABLE CALL_RECORDS; --"]: `1\` and the other text.
    with_splits(
        &mut doc,
        &["1\\", &format!(") ; {DROP}")],
        KeyEncoding::StringBinary,
    );
    let (sql, back) = round_trip(&doc);
    assert!(
        sql.ends_with(&format!(" SPLIT ON ('1\\\\', ') ; {DROP}');")),
        "{sql}"
    );
    assert_eq!(
        splits(&back),
        vec![b"1\\".to_vec(), format!(") ; {DROP}").into_bytes()]
    );
    // Keys that are not text print as hex literals and read back as the same bytes.
    with_splits(&mut doc, &["00ff", "61", "0a", "01"], KeyEncoding::Hex);
    let (sql, back) = round_trip(&doc);
    assert!(
        sql.ends_with(" SPLIT ON (X'00ff', 'a', '\\n', X'01');"),
        "{sql}"
    );
    assert_eq!(
        splits(&back),
        vec![vec![0, 0xff], vec![0x61], vec![0x0a], vec![1]]
    );
}

/// Split points read as Phoenix's lexer reads string literals.
#[test]
fn string_literals_read_as_phoenix_reads_them() {
    let cases: &[(&str, &str)] = &[
        (r"'it\'s'", "it's"),
        (r"'it''s'", "it's"),
        (r"'X''Y'", "X'Y"),
        (r"'a\nb'", "a\nb"),
        (r"'a\Nb'", "a\nb"),
        (r"'\r\t\b\f'", "\r\t\u{8}\u{c}"),
        (r#"'\"'"#, "\""),
        (r"'\\'", "\\"),
        (r"'\_\%'", "\\_\\%"),
        (r"'a\(d'", "a\\(d"),
        (r"'\x'", "\\x"),
        ("'two\nlines'", "two\nlines"),
        ("'--not a comment'", "--not a comment"),
        ("'é\u{2002}✓'", "é\u{2002}✓"),
    ];
    for (lit, want) in cases {
        let doc = parse_create_table(&format!(
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) SPLIT ON ({lit})"
        ))
        .unwrap_or_else(|e| panic!("{lit}: {e}"));
        assert_eq!(splits(&doc), vec![want.as_bytes().to_vec()], "{lit}");
        // And printed back as a literal that reads the same.
        let mut s = String::from("CREATE TABLE t (k VARCHAR PRIMARY KEY) SPLIT ON (");
        s.push_str(&quote_str(want));
        s.push(')');
        assert_eq!(
            splits(&parse_create_table(&s).unwrap()),
            splits(&doc),
            "{s}"
        );
    }
    for bad in [r"'it\'", r"'open", r"'\'"] {
        let e = parse_create_table(&format!(
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) SPLIT ON ({bad})"
        ))
        .unwrap_err();
        assert!(e.message.contains("never closed"), "{bad}: {e}");
    }
}

/// The lexer's other rules: comments, white space, names, literals.
#[test]
fn the_lexer_follows_phoenix() {
    let ok = |sql: &str| parse_create_table(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let err = |sql: &str| match parse_create_table(sql) {
        Ok(_) => panic!("{sql}: read, but Phoenix refuses it"),
        Err(e) => e,
    };
    // QueryParserTest.testCommentQuery: `--`, `//` and `/* */` comments.
    let d = ok("CREATE TABLE t ( -- here we come\n k VARCHAR // to save the day\n PRIMARY KEY /* won't run */ )");
    assert_eq!(d.key.to_text(), "pk(K, VARCHAR)");
    ok("CREATE TABLE t (k VARCHAR PRIMARY KEY); -- to the end, no line break");
    // testUnicodeSpace: U+2002 separates tokens; other white space does not.
    ok("CREATE\u{2002}TABLE\u{2002}t\u{2002}(k VARCHAR PRIMARY KEY)");
    for (sql, col) in [
        ("CREATE TABLE t (\u{a0}k VARCHAR PRIMARY KEY)", 17),
        ("CREATE TABLE t (k VARCHAR PRIMARY KEY)\u{c}", 39),
    ] {
        let e = err(sql);
        assert!(e.message.contains("spaces, tabs, U+2002"), "{e}");
        assert_eq!(e.location.column, Some(col));
    }
    // ... and inside a name, a no-break space is a character of the name, as in Phoenix.
    let e = err("CREATE TABLE t (k\u{a0}VARCHAR PRIMARY KEY)");
    assert!(
        e.message.contains("type of column \"K\u{a0}VARCHAR\""),
        "{e}"
    );
    // testTableNameStartsWithUnderscore, and names starting with other than an ASCII letter.
    for (sql, what) in [
        ("CREATE TABLE _t (k VARCHAR PRIMARY KEY)", "`_`"),
        ("CREATE TABLE t (été VARCHAR PRIMARY KEY)", "`é`"),
        ("CREATE TABLE t (k$ VARCHAR PRIMARY KEY)", "`$`"),
    ] {
        assert!(err(sql).message.contains(what), "{sql}");
    }
    // Past its first letter a name goes on with any character from U+0080 on.
    let d = ok("CREATE TABLE t (tête VARCHAR PRIMARY KEY)");
    assert_eq!(d.fields[0].name, "TÊTE");
    assert!(print_create_table(&d).unwrap().contains("\"TÊTE\" VARCHAR"));
    // Keywords are no names unquoted; quoted they are, and print quoted.
    let e = err("CREATE TABLE t (key VARCHAR PRIMARY KEY)");
    assert!(e.message.contains("the Phoenix keyword `key`"), "{e}");
    let d = ok("CREATE TABLE t (\"KEY\" VARCHAR PRIMARY KEY, \"value\" INTEGER, consistency DATE)");
    let sql = print_create_table(&d).unwrap();
    assert!(
        sql.contains(
            "    \"KEY\" VARCHAR NOT NULL,\n    \"value\" INTEGER,\n    CONSISTENCY DATE,"
        ),
        "{sql}"
    );
    // A hint is not a comment; `/**/` opens a comment the next `*/` closes (Phoenix's
    // ML_COMMENT takes one character that is not `+` after `/*`).
    assert!(
        err("CREATE TABLE t /*+ NO_INDEX */ (k VARCHAR PRIMARY KEY)")
            .message
            .contains("hint")
    );
    ok("CREATE TABLE t /**/ nothing here */ (k VARCHAR PRIMARY KEY)");
    assert!(err("CREATE TABLE t /**/ (k VARCHAR PRIMARY KEY)")
        .message
        .contains("never closed"));
    // Hex literals as split points; odd digits are refused, as Phoenix refuses them.
    let d = ok("CREATE TABLE t (k VARBINARY PRIMARY KEY) SPLIT ON (x'00 ff', X'41')");
    assert_eq!(splits(&d), vec![vec![0, 0xff], vec![0x41]]);
    assert!(
        err("CREATE TABLE t (k VARBINARY PRIMARY KEY) SPLIT ON (X'0')")
            .message
            .contains("even number")
    );
}

/// Phoenix's own parser cases for CREATE TABLE (`QueryParserTest`).
#[test]
fn phoenix_parser_cases() {
    let ok = |sql: &str| parse_create_table(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let err = |sql: &str| match parse_create_table(sql) {
        Ok(_) => panic!("{sql}: read, but Phoenix refuses it"),
        Err(e) => e,
    };
    // testParseCreateTableCommaBeforePrimaryKeyConstraint
    for comma in [",", ""] {
        let d = ok(&format!("create table core.entity_history_archive (id CHAR(15), name VARCHAR(150){comma} constraint pk primary key (id))"));
        assert_eq!(d.phoenix.unwrap().table, "CORE.ENTITY_HISTORY_ARCHIVE");
    }
    // testInvalidTrailingCommaOnCreateTable
    err("create table foo (c1 varchar primary key, c2 varchar,)");
    // testParseCreateTableOrderWithoutPrimaryKeyFails
    for order in ["asc", "desc"] {
        let e = err(&format!(
            "create table core.entity_history_archive (id varchar(20) {order})"
        ));
        assert!(e.message.contains(&format!("found `{order}`")), "{e}");
    }
    // testBadCharDef, testBadVarcharDef, testBadDecimalDef, testBadBinaryDef
    for (ty, code) in [
        ("CHAR(0)", "NONPOSITIVE_MAX_LENGTH"),
        ("CHAR", "MISSING_MAX_LENGTH"),
        ("VARCHAR(0)", "NONPOSITIVE_MAX_LENGTH"),
        ("DECIMAL(0, 5)", "DECIMAL_PRECISION_OUT_OF_RANGE"),
        ("DECIMAL(40, 5)", "DECIMAL_PRECISION_OUT_OF_RANGE"),
        ("BINARY(0)", "NONPOSITIVE_MAX_LENGTH"),
        ("BINARY", "MISSING_MAX_LENGTH"),
    ] {
        let e = err(&format!(
            "CREATE TABLE IF NOT EXISTS testBadDef  (pk VARCHAR NOT NULL PRIMARY KEY, col {ty})"
        ));
        assert!(e.message.contains(code), "{ty}: {e}");
    }
    // testInvalidTableOrSchemaName: `:` is refused, and `.` only inside quotes.
    for sql in [
        "create table a:b (id varchar not null primary key)",
        "create table \"a:b\" (id varchar not null primary key)",
        "create table a.b.c.d (id varchar not null primary key)",
    ] {
        err(sql);
    }
    // Phoenix takes these two; a design keeps the full name `schema.table`, which would split
    // at its first `.` into another table, so they are refused with the reason.
    for sql in [
        "create table \"a.b\".\"c.d\" (id varchar not null primary key)",
        "create table \"a.b.c.d\" (id varchar not null primary key)",
    ] {
        assert!(err(sql).message.contains("split at its first `.`"), "{sql}");
    }
    ok("create table \"a\".\"c.d\" (id varchar not null primary key)");
}

/// Table options and SPLIT ON follow Phoenix's `create_table_node`: options separated by
/// commas, then `SPLIT ON`.
#[test]
fn options_then_split_on() {
    let ok = |sql: &str| parse_create_table(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let d = ok("CREATE TABLE t (k VARCHAR PRIMARY KEY) VERSIONS=1, TTL=2 SPLIT ON ('m')");
    assert_eq!(d.phoenix.unwrap().options, ["VERSIONS=1", "TTL=2"]);
    for (sql, what) in [
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) VERSIONS=1 TTL=2",
            "the end of the statement",
        ),
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) SPLIT ON ('m') VERSIONS=1",
            "the end of the statement",
        ),
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) TTL=-1",
            "the value of \"TTL\"",
        ),
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) TTL=ON",
            "the value of \"TTL\"",
        ),
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY) SALT_BUCKETS='4'",
            "a number of salt buckets",
        ),
        (
            "CREATE TABLE t (k VARCHAR PRIMARY KEY); CREATE TABLE u (k VARCHAR PRIMARY KEY)",
            "the end of the statement",
        ),
    ] {
        let e = parse_create_table(sql).unwrap_err();
        assert!(e.message.contains(what), "{sql}: {e}");
    }
}

#[test]
fn quoting() {
    assert_eq!(quote_ident("HOST").unwrap(), "HOST");
    assert_eq!(quote_ident("A_1").unwrap(), "A_1");
    for (name, quoted) in [
        ("host", "\"host\""),
        ("_A", "\"_A\""),
        ("1A", "\"1A\""),
        ("KEY", "\"KEY\""),
        ("ROW_TIMESTAMP", "\"ROW_TIMESTAMP\""),
        ("TÊTE", "\"TÊTE\""),
        ("a b", "\"a b\""),
        ("'; --", "\"'; --\""),
    ] {
        assert_eq!(quote_ident(name).unwrap(), quoted);
    }
    assert!(quote_ident("").is_err());
    assert!(quote_ident("a\"b").is_err());
    assert_eq!(quote_str("it's"), "'it''s'");
    assert_eq!(quote_str("1\\"), "'1\\\\'");
    assert_eq!(quote_str("a\nb\tc"), "'a\\nb\\tc'");
    assert!(sql::KEYWORDS.windows(2).all(|w| w[0] < w[1]));
    assert!(sql::KEYWORDS.iter().all(|k| sql::is_reserved(k)));
    assert!(sql::is_reserved("key") && !sql::is_reserved("keys") && !sql::is_reserved("STRONG"));
}
