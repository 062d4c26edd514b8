//! Decoding's verdict on a key: whether the design wrote it (`verified`), when it cannot tell
//! (`None`), and that it never calls a key the design wrote another design's.

use std::collections::BTreeSet;

use rowkey_lab::keyspec::{self, FieldType};
use serde_json::json;

use super::common::{enc, fd, spec};
use crate::cases::Failures;

/// A salt over a finer time than the key keeps (the month, when the key holds only the year)
/// cannot be checked from the key: its own keys are not called another design's, nor is any
/// other salt, since some month of that year may write it. A salt over the month of a key that
/// holds the month is still checked (seed000_telecom's wrong salt).
#[test]
fn a_salt_over_what_the_key_lost_is_not_checkable() {
    let fields = [
        fd("phone", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let t =
        r#"salt(phone + time(ts, "yyyyMM"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyy")"#;
    let mut failures = Failures::new(format!("the months of 2021 through `{t}`"));
    let (mut unchecked, mut salts) = (0, BTreeSet::new());
    for month in 1..=12 {
        let ts = format!("2021-{month:02}-15T12:00:00Z");
        let case = format!("month {month} ({ts})");
        let key = enc(t, &fields, json!({"phone": "13800138000", "ts": ts}));
        failures.eq(
            format!("{case}: the key after the salt"),
            String::from_utf8_lossy(&key[2.min(key.len())..]).as_ref(),
            "_13800138000_2021",
        );
        salts.insert(key[..2.min(key.len())].to_vec());
        match keyspec::decode(&spec(t), &fields, &key) {
            Ok(d) => {
                // Decoding gives back January (the earliest the key allows); January's own key
                // verifies, the other months' keys are not checkable, none is refused.
                failures.check(
                    &case,
                    d.verified != Some(false),
                    format!("the design's own key is refused: verified {:?}", d.verified),
                );
                if d.verified.is_none() {
                    unchecked += 1;
                }
            }
            Err(e) => failures.fail(format!("{case}: decode"), e),
        }
    }
    failures.finish();
    assert!(salts.len() > 1, "the month moves the salt: {salts:?}");
    assert!(unchecked > 0);
    // The same salt over the year alone is fixed by the key: a wrong salt is refused.
    let y =
        r#"salt(phone + time(ts, "yyyy"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyy")"#;
    let mut key = enc(
        y,
        &fields,
        json!({"phone": "13800138000", "ts": "2021-09-07T00:00:00Z"}),
    );
    let d = keyspec::decode(&spec(y), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.verified, Some(true));
    key[1] = if key[1] == b'9' { b'0' } else { key[1] + 1 };
    let d = keyspec::decode(&spec(y), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.verified, Some(false));
}

/// A fixed-width value that ends with its pad byte decodes without it (the documented
/// ambiguity): `0.00` padded with `0`s reads back as `0.`, which writes other bytes. The key
/// is still the design's, so it is not refused.
#[test]
fn a_value_ending_in_its_pad_byte_is_not_refused() {
    let fields = [fd("x", FieldType::BigDecimal)];
    let t = r#"fixed(x, 10, pad="0", side=right)"#;
    let key = enc(t, &fields, json!({"x": "0.00"}));
    assert_eq!(key, b"0.00000000");
    let d = keyspec::decode(&spec(t), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.verified, None);
}

/// A salt over the rest of the key with nothing after it hashes no bytes. Phoenix's
/// `SaltingUtil.getSaltingByte` over an empty row: hash = 1 (its initial value), 1 % 188 = 1.
#[test]
fn a_salt_over_an_empty_rest_hashes_no_bytes() {
    let fields = [fd("a", FieldType::String)];
    assert_eq!(
        enc("salt(188, hash=phoenix)", &fields, json!({"a": "x"})),
        [1]
    );
    assert_eq!(
        enc("salt(188, hash=phoenix) + a", &fields, json!({"a": ""})),
        [1]
    );
    let d = keyspec::decode(&spec("salt(188, hash=phoenix)"), &fields, &[1])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.verified, Some(true));
}
