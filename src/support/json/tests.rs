//! Tests of `json`.

use super::*;

#[test]
fn parses_like_serde_json() {
    for text in [
        r#"{"a": [1, -2, 3.5, -0, 1e3, "x\u00e9\ud83d\ude00\n", true, false, null], "b": {}}"#,
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "0.1",
        "  [ ]  ",
    ] {
        let want: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        assert_eq!(parse_value(text).ok(), Some(want), "{text}");
    }
    for bad in [
        "",
        "{",
        "[1,]",
        "{\"a\" 1}",
        "01",
        "1.",
        "\"\\x\"",
        "\"a",
        "tru",
        "1 2",
        "{1: 2}",
        "\"\\ud800\"",
        "1e999",
        "\"\u{1}\"",
    ] {
        assert!(parse_value(bad).is_err(), "{bad}");
        assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
    }
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(parse_value(&deep).is_err());
}

#[test]
fn errors_point_at_the_value() {
    let text = "{\n  \"a\": [1, \"x\"]\n}";
    let n = parse(text).unwrap_or(Node {
        v: Json::Null,
        pos: 0,
    });
    let o = Obj::new(&n, "a map", &["a"], None, false);
    let e = o.and_then(|o| o.req("a", |n| list(n, u32_))).err();
    let e = e.map(|e| e.into_error(ErrorKind::Parse, text));
    assert_eq!(
        e.as_ref().and_then(|e| e.location.path.as_deref()),
        Some("/a/1")
    );
    assert_eq!(e.as_ref().and_then(|e| e.location.line), Some(2));
    assert_eq!(e.as_ref().and_then(|e| e.location.column), Some(12));
    assert_eq!(
        e.map(|e| e.message),
        Some("invalid type: string \"x\", expected u32".to_string())
    );
}

#[test]
fn sizes_with_units_are_whole_bytes() {
    for (text, bytes) in [
        ("0", 0u64),
        ("100", 100),
        ("100 B", 100),
        ("4 MiB", 4 * 1024 * 1024),
        ("4MiB", 4 * 1024 * 1024),
        ("10 GiB", 10 * 1024 * 1024 * 1024),
        ("1.5 GB", 1_500_000_000),
        ("0.5 KiB", 512),
        ("512 KB", 512_000),
        (" 2 TiB ", 2 << 40),
        ("16384 TiB", 16384 << 40),
    ] {
        assert_eq!(size_text(text), Some(bytes), "{text}");
    }
    // not a whole number of bytes, no digits, an unknown unit, past 64 bits, a sign
    for text in [
        "0.3 B",
        "1.0001 KiB",
        "",
        "MiB",
        "4 mb",
        "4 Mib",
        "4 M",
        "17000000 TiB",
        "-1",
        "1e3",
        "1..2 MB",
        ". MB",
    ] {
        assert_eq!(size_text(text), None, "{text}");
    }
    // read from a document: a number, or text with a unit; the error says what a size is
    let n = parse("\"3 MiB\"").unwrap_or(Node {
        v: Json::Null,
        pos: 0,
    });
    assert_eq!(bytes_i64(&n).ok(), Some(3 << 20));
    let n = parse("\"3 megabytes\"").unwrap_or(Node {
        v: Json::Null,
        pos: 0,
    });
    let e = bytes_u64(&n)
        .err()
        .map(|e| e.into_error(ErrorKind::Parse, "\"3 megabytes\""));
    assert!(e.is_some_and(|e| e.message.contains("is not a size")));
}
