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
