//! The seed articles' keys (`shared/seeds`), written in the key language: the keys each
//! article prints (or what they really are, where an article's figure is illustrative), computed
//! independently of this crate, and what decoding and lint say about those designs.

use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::{self, CompiledKey, FieldType};
use serde_json::json;

use super::common::{enc, fd, hex, rec, spec};
use crate::cases::Failures;

/// Seed 000, telecom: `XX_phone_yyyyMMddHHmmss` with XX = (phone + year-month) % 10.
/// String.hashCode("13412341234202109") = -1188961508 (computed independently), % 10 = -8,
/// abs = 8, so the salt is `08`. The article's `05`/`03`/`04` are illustrative.
#[test]
fn seed000_telecom() {
    let fields = [
        fd("phone", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let t = r#"salt(phone + time(ts, "yyyyMM"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")"#;
    let mut failures = Failures::new(format!("seed 000 telecom keys of `{t}`"));
    for (ts, want) in [
        ("2021-09-07T08:30:00Z", "08_13412341234_20210907083000"),
        ("2021-10-01T00:00:00Z", "06_13412341234_20211001000000"),
        ("2021-11-30T23:59:59Z", "05_13412341234_20211130235959"),
    ] {
        let key = enc(t, &fields, json!({"phone": "13412341234", "ts": ts}));
        failures.eq(
            format!("phone 13412341234 at {ts}"),
            String::from_utf8_lossy(&key).as_ref(),
            want,
        );
    }
    failures.finish();
    let key = b"05_13412341234_20211130235959".to_vec();
    // Decoding recovers phone and the timestamp to the second, and verifies the salt.
    let d = keyspec::decode(&spec(t), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.fields[0].value, json!("13412341234"));
    assert_eq!(d.fields[1].value, json!(1_638_316_799_000i64));
    assert!(!d.fields[1].exact, "milliseconds are not in the key");
    assert_eq!(
        d.verified,
        Some(true),
        "the salt recomputed from the decoded fields matches"
    );
    let mut bad = key.clone();
    bad[1] = b'9';
    let d = keyspec::decode(&spec(t), &fields, &bad).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.verified, Some(false), "a wrong salt is detected");
    assert_eq!(d.spans, vec![(0, 2), (2, 3), (3, 14), (14, 15), (15, 29)]);
}

/// Seed 000, vehicles: ENGINE_TYPE-timestamp-VIN, and the bad order VIN first.
#[test]
fn seed000_vehicle_order() {
    let fields = [
        fd("engine_type", FieldType::String),
        fd("vin", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let good = r#"engine_type + "-" + dec(ts, 13) + "-" + vin"#;
    let r =
        json!({"engine_type": "YCK09360-60", "vin": "9011D6L00124", "ts": 1_638_290_481_900i64});
    assert_eq!(
        enc(good, &fields, r.clone()),
        b"YCK09360-60-1638290481900-9011D6L00124"
    );
    let bad = r#"vin + "-" + engine_type + "-" + dec(ts, 13)"#;
    assert_eq!(
        enc(bad, &fields, r.clone()),
        b"9011D6L00124-YCK09360-60-1638290481900"
    );

    let doc = |t: &str| {
        DesignDocument::from_json(
            &json!({"v": 1, "fields": [
        {"name": "engine_type", "type": "string", "cardinality": 30},
        {"name": "vin", "type": "string", "cardinality": 2_000_000},
        {"name": "ts", "type": "timestamp"}], "key": t})
            .to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let rules = |t: &str| {
        rowkey_lab::design::lint(&doc(t))
            .into_iter()
            .map(|f| (f.rule.to_string(), f.segment))
            .collect::<Vec<_>>()
    };
    let bad_rules = rules(bad);
    assert!(
        bad_rules.contains(&("cardinality-order".into(), Some(2))),
        "{bad_rules:?}"
    );
    let good_rules = rules(good);
    assert!(
        !good_rules.iter().any(|(r, _)| r == "cardinality-order"),
        "{good_rules:?}"
    );
    // "YCK09360-60" itself contains the separator: the linter says so.
    assert!(
        good_rules.contains(&("separator-in-field".into(), Some(1))),
        "{good_rules:?}"
    );
    // The decoder still finds the split: it tries each '-' until the rest decodes.
    let key = enc(good, &fields, r);
    let d = keyspec::decode(&spec(good), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.record(),
        rec(
            json!({"engine_type": "YCK09360-60", "vin": "9011D6L00124", "ts": 1_638_290_481_900i64})
        )
    );
    assert_eq!(
        d.spans,
        vec![(0, 11), (11, 12), (12, 25), (25, 26), (26, 38)]
    );

    // The article's final scheme: partition-id-id-(Long.MAX_VALUE - timestamp/1000).
    let fin = r#"salt(engine_type + vin, 10, as=dec(2)) + "-" + fixed(engine_type, 11) + fixed(vin, 17, pad=" ") + revts(ts, div=1000)"#;
    let k = enc(
        fin,
        &fields,
        json!({"engine_type": "YCK09360-60", "vin": "9011D6L00124", "ts": 1_638_290_481_900i64}),
    );
    assert_eq!(k.len(), 2 + 1 + 11 + 17 + 8);
    assert_eq!(&k[3..14], b"YCK09360-60");
    assert_eq!(&k[14..31], b"9011D6L00124     ");
    assert_eq!(&k[31..], &(i64::MAX - 1_638_290_481).to_be_bytes());
}

/// Seed 002: `reverse(order_id) + (MAX_LONG - timestamp)`. The article prints
/// 2021010101010101 -> 101010101010101202, which is not the reverse (that is
/// 1010101010101202: 16 digits in, 16 out).
#[test]
fn seed002_reversed_order_id() {
    let fields = [
        fd("order_id", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let t = "reverse(order_id) + revts(ts)";
    let key = enc(
        t,
        &fields,
        json!({"order_id": "2021010101010101", "ts": 1_700_000_000_000i64}),
    );
    assert_eq!(&key[..16], b"1010101010101202");
    assert_eq!(hex(&key[16..]), "7ffffe74301a97ff"); // recipes.jsonl: reverse_timestamp(1700000000000)
    let d = keyspec::decode(&spec(t), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.record(),
        rec(json!({"order_id": "2021010101010101", "ts": 1_700_000_000_000i64}))
    );
    assert_eq!(d.verified, Some(true));
    let key = enc(
        "reverse(order_id)",
        &fields,
        json!({"order_id": "20210202020202"}),
    );
    assert_eq!(key, b"20202020201202");
    // The hashed variant: xx_yyyyMMddHHmmss_orderId with xx = hash(time, order) % 3.
    let t = r#"salt(time(ts, "yyyyMMddHHmmss") + order_id, 3, as=dec(2)) + "_" + time(ts, "yyyyMMddHHmmss") + "_" + order_id"#;
    let key = enc(
        t,
        &fields,
        json!({"order_id": "364758", "ts": "2020-01-01T01:01:01Z"}),
    );
    // String.hashCode("20200101010101364758") = -448856566 (independent), % 3 = -1 -> 01.
    assert_eq!(key, b"01_20200101010101_364758");
}

/// Seed 003: `MD5(message_id):send date:send time:message_id`, uppercase hex, as printed.
#[test]
fn seed003_md5_salted_messages() {
    let fields = [
        fd("message_id", FieldType::String),
        fd("sent", FieldType::Timestamp),
    ];
    let t = r#"md5Hex(message_id, upper) + ":" + time(sent, "yyMMdd") + ":" + time(sent, "HHmmss") + ":" + message_id"#;
    let rows = [
        (
            "1231231",
            "2023-06-11T06:30:31Z",
            "8D4646EB2D7067126EB08ADB0672F7BB:230611:063031:1231231",
        ),
        (
            "1231232",
            "2023-06-11T06:30:32Z",
            "715782C59C0561E9B6CE0F3D522C32F1:230611:063032:1231232",
        ),
        (
            "1231233",
            "2023-06-11T06:30:32Z",
            "57F962C03EF3526EC6E95CEB50785C4C:230611:063032:1231233",
        ),
        (
            "1231234",
            "2023-06-11T06:30:33Z",
            "8B353D5CC07E13577608711F4602FCB7:230611:063033:1231234",
        ),
        (
            "1231235",
            "2023-06-11T06:30:33Z",
            "430EDB0C535BF08174E122EFECFA711D:230611:063033:1231235",
        ),
    ];
    let mut failures = Failures::new(format!("seed 003 rows of `{t}`"));
    for (id, at, want) in rows {
        let case = format!("message {id} sent {at}");
        let key = enc(t, &fields, json!({"message_id": id, "sent": at}));
        failures.eq(&case, String::from_utf8_lossy(&key).as_ref(), want);
        match keyspec::decode(&spec(t), &fields, &key) {
            Ok(d) => {
                failures.eq(
                    format!("{case}: decoded message_id"),
                    &d.fields.first().map(|f| f.value.clone()),
                    &Some(json!(id)),
                );
                failures.eq(format!("{case}: verified"), &d.verified, &Some(true));
            }
            Err(e) => failures.fail(format!("{case}: decode"), e),
        }
    }
    failures.finish();
}

/// Seed 004: `rowKeyWithHashPrefix` and `rowKeyWithMD5Prefix`.
#[test]
fn seed004_hash_and_md5_prefixes() {
    let fields = [fd("user", FieldType::String), fd("item", FieldType::String)];
    // (short)("user1item9".hashCode() & 0x7FFF): hashCode = 608634240 (independent) -> 0x0580.
    let key = enc(
        "hash15() + user + item",
        &fields,
        json!({"user": "user1", "item": "item9"}),
    );
    assert_eq!(hex(&key[..2]), "0580");
    assert_eq!(&key[2..], b"user1item9");
    // getMD5AsHex("user1_item9").substring(0, 8) + "_" + "user1_item9".
    let t = r#"md5Hex(user + "_" + item, 8) + "_" + user + "_" + item"#;
    let key = enc(t, &fields, json!({"user": "user1", "item": "item9"}));
    assert_eq!(String::from_utf8_lossy(&key), "07a79d0f_user1_item9");
    // rowKeyByMD5: the whole hex digest.
    let key = enc(
        "md5Hex(user + item)",
        &fields,
        json!({"user": "user1", "item": "item9"}),
    );
    assert_eq!(key.len(), 32);
    let d = keyspec::decode(&spec("md5Hex(user + item)"), &fields, &key)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(d.fields.is_empty());
    assert_eq!(d.unrecoverable.len(), 2);
    assert!(
        d.unrecoverable[0].reason.contains("one-way"),
        "{:?}",
        d.unrecoverable
    );
}

/// Seed 001, salting: four (then five) writes get random prefixes a..d. Seed 47 was found by
/// trying seeds until the generator produced the article's listing (the article's letters are
/// random, any seed is as valid); the writes are foo0001, foo0002, foo0003, foo0004, foo0003.
#[test]
fn seed001_random_salt_listing() {
    let fields = [fd("row", FieldType::String)];
    let mut ck = CompiledKey::new(
        &spec(r#"random(4, seed=47, as=letter) + "-" + row"#),
        &fields,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let keys: Vec<String> = ["foo0001", "foo0002", "foo0003", "foo0004", "foo0003"]
        .iter()
        .map(|r| {
            String::from_utf8_lossy(
                &ck.encode_json(&rec(json!({ "row": r })))
                    .unwrap_or_default(),
            )
            .into_owned()
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "a-foo0003",
            "b-foo0001",
            "c-foo0003",
            "c-foo0004",
            "d-foo0002"
        ]
    );
}

/// Seed 001, hashing instead of a random salt: foo0003 always gets the same letter
/// (String.hashCode % 4, independent: foo0001 -> 1, foo0002 -> 0, foo0003 -> 3, foo0004 -> 2).
#[test]
fn seed001_hashed_salt() {
    let fields = [fd("row", FieldType::String)];
    let t = r#"salt(row, 4, as=letter) + "-" + row"#;
    let mut failures = Failures::new(format!("seed 001 hashed salt `{t}`"));
    for (row, want) in [
        ("foo0001", "b-foo0001"),
        ("foo0002", "a-foo0002"),
        ("foo0003", "d-foo0003"),
        ("foo0004", "c-foo0004"),
    ] {
        let key = enc(t, &fields, json!({ "row": row }));
        failures.eq(row, String::from_utf8_lossy(&key).as_ref(), want);
    }
    failures.finish();
}

/// Seed 001, LOG_DATA with numeric ids from LOG_TYPES (8 + 8 + 8 bytes), and
/// [bucket][timestamp][hostname][log-event] with bucket = timestamp % 100.
#[test]
fn seed001_log_type_ids_and_buckets() {
    let fields = [
        fd("host", FieldType::String),
        fd("event", FieldType::String),
        fd("ts", FieldType::Timestamp),
    ];
    let t = r#"dict(host, ["myserver1.mycompany.com"=1, "myserver2.mycompany.com"=2]) + dict(event, ["com.package1.subpackage2.subsubpackage3.ImportantService"=7]) + long(ts)"#;
    let key = enc(
        t,
        &fields,
        json!({"host": "myserver2.mycompany.com", "event": "com.package1.subpackage2.subsubpackage3.ImportantService", "ts": 5}),
    );
    assert_eq!(
        hex(&key),
        "000000000000000200000000000000070000000000000005"
    );
    let d = keyspec::decode(&spec(t), &fields, &key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.record()["host"], json!("myserver2.mycompany.com"));
    let err = keyspec::encode(
        &spec(t),
        &fields,
        &rec(json!({"host": "other", "event": "x", "ts": 5})),
    )
    .err();
    assert!(err.is_some_and(|e| e.message.contains("`host`") && e.message.contains("other")));
    // [bucket][timestamp][hostname][log-event] with bucket = timestamp % 100.
    let t = r#"bucket(ts, mod=100) + long(ts) + host + "|" + event"#;
    let key = enc(t, &fields, json!({"host": "a", "event": "e1", "ts": 1234}));
    assert_eq!(hex(&key[..16]), "000000000000002200000000000004d2");
    assert_eq!(&key[16..], b"a|e1");
}

/// Seed 001, CUSTOMER++: [customer-id][type] and [customer-id][type][order], and the MD5 form.
#[test]
fn seed001_customer_record_types() {
    let fields = [
        fd("customer", FieldType::Long),
        fd("type", FieldType::String),
        fd("order", FieldType::Long),
    ];
    let t = r#"long(customer) + tag(type, ["customer"=1, "order"=2]) + when(type, "order", long(order))"#;
    let c = enc(t, &fields, json!({"customer": 42, "type": "customer"}));
    assert_eq!(hex(&c), "000000000000002a01");
    let o = enc(
        t,
        &fields,
        json!({"customer": 42, "type": "order", "order": 7}),
    );
    assert_eq!(hex(&o), "000000000000002a020000000000000007");
    let d = keyspec::decode(&spec(t), &fields, &c).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.record(), rec(json!({"customer": 42, "type": "customer"})));
    assert_eq!(d.spans, vec![(0, 8), (8, 9), (9, 9), (9, 9)]);
    assert!(
        d.unrecoverable[0].reason.contains("when"),
        "{:?}",
        d.unrecoverable
    );
    let d = keyspec::decode(&spec(t), &fields, &o).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.record(),
        rec(json!({"customer": 42, "type": "order", "order": 7}))
    );
    assert_eq!(d.spans, vec![(0, 8), (8, 9), (9, 17), (9, 17)]);
    // [MD5 of customer number][MD5 of order number] = 32 bytes of the numbers' text;
    // md5("42") and md5("7") computed independently. (`md5(customer)` would hash the 8-byte long.)
    let k = enc(
        "md5(str(customer)) + md5(str(order))",
        &fields,
        json!({"customer": 42, "order": 7}),
    );
    assert_eq!(hex(&k[..16]), "a1d0c6e83f027327d8461063f4ac58a6");
    assert_eq!(hex(&k[16..]), "8f14e45fceea167a5a36dedd4bea2543");
}
