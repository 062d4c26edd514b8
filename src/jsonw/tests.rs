//! Tests of the JSON writer.

use super::*;
use serde_json::json;
use std::collections::BTreeMap;

fn same<T: Serialize + ?Sized>(v: &T) {
    assert_eq!(to_string(v), serde_json::to_string(v).ok());
    assert_eq!(to_string_pretty(v), serde_json::to_string_pretty(v).ok());
}

#[derive(serde::Serialize)]
enum E {
    Unit,
    New(u8),
    Tup(i32, String),
    Str { a: f64, b: Vec<u8> },
    Empty {},
}

#[derive(serde::Serialize)]
struct Wrap(Option<i64>);

#[test]
fn edge_values_match_serde_json() {
    same(&json!(null));
    same(&json!([]));
    same(&json!({}));
    same(&json!({"a": [], "b": {}, "c": [[], [{}]], "d": [1, {"e": []}]}));
    same(&json!([
        "\"\\\u{8}\t\n\u{c}\r\u{0}\u{1f}\u{7f}é😀/",
        -0.0,
        1e21,
        1e-7,
        0.1
    ]));
    same(&json!([
        u64::MAX,
        i64::MIN,
        1.5,
        -3,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324
    ]));
    same(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 2.5]);
    same(&[f32::NAN, 0.1f32, 16_777_216f32, 1e-45]);
    same(&vec![E::Unit, E::New(3), E::Tup(-1, "x".into())]);
    same(&E::Str {
        a: 0.3,
        b: vec![1, 2],
    });
    same(&E::Str { a: 1.0, b: vec![] });
    same(&E::Empty {});
    same(&(Wrap(None), Wrap(Some(-5)), 'c', (), i128::MIN, u128::MAX));
    same(&serde_bytes_like());
    let mut m = BTreeMap::new();
    m.insert(3u32, "three");
    m.insert(10u32, "ten");
    same(&m);
    let mut b = BTreeMap::new();
    b.insert(true, 1);
    same(&b);
    let mut f = BTreeMap::new();
    f.insert(vec![1u8], 1);
    assert_eq!(to_string(&f), None);
    assert!(serde_json::to_string(&f).is_err());
}

struct Bytes;
impl Serialize for Bytes {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&[0, 7, 255])
    }
}
fn serde_bytes_like() -> Vec<Bytes> {
    vec![Bytes, Bytes]
}

/// `json_text` stands in for `Value`'s `Display` in messages: the same text.
#[test]
fn json_text_is_value_display() {
    for v in [
        json!(null),
        json!(-7),
        json!(18446744073709551615u64),
        json!(0.1),
        json!(1e300),
        json!("tab\there \"quoted\" é 中 \u{1}"),
        json!({"b": [1, 2.5, false], "a": {"x": null}}),
    ] {
        assert_eq!(json_text(&v), v.to_string());
    }
}
