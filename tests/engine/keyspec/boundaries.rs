//! Region boundaries read through the key (`decode_boundaries`): a split key is a key's first
//! bytes, so decoding stops where it ends, and a value the boundary may cut is a start only.

use rowkey_lab::keyspec::{self, FieldType};
use serde_json::json;

use super::common::{fd, spec};

const KEY: &str =
    r#"salt(phone + time(ts, "yyyyMM"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyy")"#;

fn labels(keys: &[&[u8]]) -> Vec<keyspec::Boundary> {
    let fields = [
        fd("phone", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let keys: Vec<Vec<u8>> = keys.iter().map(|k| k.to_vec()).collect();
    keyspec::decode_boundaries(&spec(KEY), &fields, &keys).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_salted_keys_boundaries() {
    let b = labels(&[b"", b"07", b"07_1380", b"07_13800138000_"]);
    let got: Vec<(&str, Option<&str>, bool)> = b
        .iter()
        .map(|x| (x.label.as_str(), x.salt.as_deref(), x.decoded))
        .collect();
    assert_eq!(
        got,
        [
            ("(first)", None, true),
            // The salt bucket alone: a pre-split's boundary.
            ("salt 07", Some("07"), true),
            // The phone runs to its separator, which this boundary does not reach: a start.
            ("salt 07 · phone=1380…", Some("07"), true),
            // Whole up to the separator after it.
            ("salt 07 · phone=13800138000", Some("07"), true),
        ]
    );
    assert!(!b[2].fields[0].exact);
    assert_eq!(b[3].fields[0].value, json!("13800138000"));
    assert!(b[3].fields[0].exact);
}

#[test]
fn a_boundary_of_another_key_keeps_its_text() {
    // `07` then `-` where the key has the literal `_`.
    let b = labels(&[b"07-x"]);
    assert!(!b[0].decoded);
    assert_eq!(b[0].label, "07-x");
    assert!(b[0].fields.is_empty());
}
