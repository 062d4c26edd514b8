//! The key-design language through the wasm build, under Node (wasm-bindgen-test): every
//! preset encodes, decodes and lints in wasm exactly as natively; hostile input to every
//! export returns an error, never a trap, and the same instance then answers correctly.
// These tests read the engine's own results back; clippy.toml's disallowed methods keep those
// calls away from a caller's values in src/wasm.
#![allow(clippy::disallowed_methods)]
#![cfg(target_arch = "wasm32")]
// wasm_bindgen_test functions are not `#[test]`s to clippy; unwrapping is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use js_sys::{Array, JsString, Reflect, Uint8Array};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::design::Finding;
use rowkey_lab::keyspec::{self, Decoded, KeySpec, SegmentLayout};
use rowkey_lab::wasm::keyspec::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn s(x: &str) -> JsValue {
    JsValue::from_str(x)
}
fn n(x: f64) -> JsValue {
    JsValue::from_f64(x)
}
fn obj(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}
fn bytes(b: &[u8]) -> JsValue {
    Uint8Array::from(b).into()
}
fn lone_surrogate() -> JsValue {
    JsString::from_char_code1(0xD800).into()
}
fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
fn key_bytes(v: &JsValue) -> Vec<u8> {
    Uint8Array::new(v).to_vec()
}
fn back<T: serde::de::DeserializeOwned>(v: JsValue) -> T {
    serde_wasm_bindgen::from_value(v).unwrap()
}
fn prop(e: &JsValue, k: &str) -> JsValue {
    Reflect::get(e, &s(k)).unwrap_or(JsValue::UNDEFINED)
}
fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn every_preset_encodes_decodes_and_lints_in_wasm() {
    let mut examples = 0;
    let mut presets = 0;
    for p in rowkey_lab::design::presets::all() {
        let doc = DesignDocument::from_json(p.json).unwrap();
        let js_doc = obj(p.json);
        // The key as text (as the preset has it) and as its JSON form: the same design.
        let object_doc = obj(&doc.to_json());
        assert!(Reflect::get(&object_doc, &s("key")).unwrap().is_object());
        let normalized: DesignDocument = back(validate_design(js_doc.clone()).unwrap());
        assert_eq!(normalized, doc, "{}", p.id);
        let spec: KeySpec = back(parse_key(s(&doc.key.to_text())).unwrap());
        assert_eq!(spec, doc.key, "{}", p.id);
        let key_json = Reflect::get(&object_doc, &s("key")).unwrap();
        assert_eq!(format_key(key_json).unwrap(), doc.key.to_text(), "{}", p.id);
        let layout: Vec<SegmentLayout> = back(key_layout(js_doc.clone()).unwrap());
        assert_eq!(
            layout,
            keyspec::layout(&doc.key, &doc.key_fields()).unwrap()
        );
        let random = rowkey_lab::design::lint(&doc)
            .iter()
            .any(|f| f.rule == "random-salt");
        for ex in &doc.examples {
            let record = obj(&serde_json::to_string(&ex.record).unwrap());
            let key = key_bytes(&encode_key(js_doc.clone(), record.clone()).unwrap());
            if random {
                // Each call compiles afresh, so a seeded random salt restarts its sequence:
                // the key is the one a fresh native encoder gives, and the rest matches.
                let fresh = keyspec::encode(&doc.key, &doc.key_fields(), &ex.record).unwrap();
                assert_eq!(key, fresh, "{}", p.id);
                let want = ex.key.clone().unwrap_or_default();
                assert_eq!(hex(&key).get(2..), want.get(2..), "{}", p.id);
            } else {
                assert_eq!(Some(hex(&key)), ex.key, "{}: {:?}", p.id, ex.record);
            }
            let again = key_bytes(&encode_key(object_doc.clone(), record).unwrap());
            assert_eq!(again, key, "{}: key as JSON form", p.id);
            let native = keyspec::decode(&doc.key, &doc.key_fields(), &key);
            match decode_key(js_doc.clone(), bytes(&key)) {
                Ok(d) => {
                    let d: Decoded = back(d);
                    assert_ne!(d.verified, Some(false), "{}: {:?}", p.id, ex.record);
                    assert_eq!(Ok(&d), native.as_ref(), "{}", p.id);
                    let spans: Vec<(usize, usize)> =
                        back(key_spans(js_doc.clone(), bytes(&key)).unwrap());
                    assert_eq!(spans, d.spans, "{}", p.id);
                }
                Err(e) => assert!(native.is_err(), "{}: {}", p.id, message(&e)),
            }
            examples += 1;
        }
        let findings: Vec<Finding> = back(lint_design(js_doc).unwrap());
        assert_eq!(findings, rowkey_lab::design::lint(&doc), "{}", p.id);
        assert!(findings.iter().all(|f| f.rule != "invalid"), "{}", p.id);
        presets += 1;
    }
    assert!(
        presets >= 15 && examples >= 40,
        "{presets} presets, {examples} examples"
    );
}

#[wasm_bindgen_test]
fn longs_survive_as_decimal_strings_and_bigints() {
    let doc = obj(r#"{"v": 1, "fields": [{"name": "n", "type": "long"}], "key": "n"}"#);
    let enc = |r: JsValue| hex(&key_bytes(&encode_key(doc.clone(), r).unwrap()));
    assert_eq!(
        enc(obj(r#"{"n": "9223372036854775807"}"#)),
        "7fffffffffffffff"
    );
    assert_eq!(
        enc(obj(r#"{"n": "-9223372036854775808"}"#)),
        "8000000000000000"
    );
    assert_eq!(enc(obj(r#"{"n": 1234}"#)), "00000000000004d2");
    let big = js_sys::Object::new();
    Reflect::set(&big, &s("n"), &js_sys::BigInt::from(i64::MAX - 1).into()).unwrap();
    assert_eq!(enc(big.into()), "7ffffffffffffffe");
    let d: Decoded = back(
        decode_key(
            doc,
            bytes(&[0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        )
        .unwrap(),
    );
    assert_eq!(d.fields[0].value, serde_json::json!("9223372036854775807"));
}

#[wasm_bindgen_test]
fn errors_point_at_the_spot() {
    let e = parse_key(s("phone +\n  + ts")).unwrap_err();
    assert!(prop(&e, "line").as_f64().is_some(), "{}", message(&e));
    assert!(prop(&e, "column").as_f64().is_some(), "{}", message(&e));
    let bad = r#"{"v": 1, "fields": [{"name": "x", "type": "nope"}], "key": "x"}"#;
    let e = validate_design(obj(bad)).unwrap_err();
    assert_eq!(
        prop(&e, "path").as_string().as_deref(),
        Some("/fields/0/type"),
        "{}",
        message(&e)
    );
    // A key text error inside a document: path /key, the key text's own line and column.
    let bad = r#"{"v": 1, "fields": [{"name": "x", "type": "int"}], "key": "x +\n  + x"}"#;
    let e = validate_design(obj(bad)).unwrap_err();
    assert_eq!(prop(&e, "path").as_string().as_deref(), Some("/key"));
    assert_eq!(
        (prop(&e, "line").as_f64(), prop(&e, "column").as_f64()),
        (Some(2.0), Some(3.0)),
        "{}",
        message(&e)
    );
    let e = validate_design(obj(r#"{"v": 2, "key": "x"}"#)).unwrap_err();
    assert_eq!(
        prop(&e, "path").as_string().as_deref(),
        Some("/v"),
        "{}",
        message(&e)
    );
    let doc = obj(r#"{"v": 1, "fields": [{"name": "x", "type": "int"}], "key": "x"}"#);
    let e = encode_key(doc, obj(r#"{"x": "ten"}"#)).unwrap_err();
    assert!(message(&e).contains('x'), "{}", message(&e));
    let rules: Vec<serde_json::Value> = back(lint_rules().unwrap());
    assert_eq!(rules.len(), rowkey_lab::design::RULES.len());
    assert!(rules
        .iter()
        .all(|r| r["id"].is_string() && r["reason"].is_string()));
}

#[wasm_bindgen_test]
fn every_export_rejects_hostile_input_and_keeps_working() {
    let huge = s(&"a".repeat(1 << 20));
    let huge_key = s(&"phone + ".repeat(100_000));
    let deep = obj(&format!("{}{}", "[".repeat(500), "]".repeat(500)));
    let good = obj(
        r#"{"v": 1, "fields": [{"name": "phone", "type": "string"}], "key": "md5Hex(phone, 4) + phone"}"#,
    );
    let junk: Vec<JsValue> = vec![
        JsValue::UNDEFINED,
        JsValue::NULL,
        n(f64::NAN),
        n(-1.0),
        n(1e300),
        s(""),
        lone_surrogate(),
        huge.clone(),
        huge_key.clone(),
        deep.clone(),
        Array::new().into(),
        bytes(&[0xff; 64]),
        obj(r#"{"unknown": 1}"#),
        obj(r#"{"v": 1}"#),
        obj(r#"{"v": 1, "key": "phone"}"#),
        obj(r#"{"v": 1, "key": {"segments": []}}"#),
        obj(r#"{"v": 1, "key": {"segments": [{"kind": "nope"}]}}"#),
        obj(
            r#"{"v": 1, "fields": [{"name": "a", "type": "string"}, {"name": "a", "type": "long"}], "key": "a"}"#,
        ),
        obj(r#"{"v": 1, "fields": [{"name": "a", "type": "long"}], "key": "salt(a, 0)"}"#),
        obj(r#"{"phone": NaN}"#.replace("NaN", "null").as_str()),
        obj(r#"{"phone": 12}"#),
        obj(r#"[1, 2, 300]"#),
    ];
    let surrogate_rec = js_sys::Object::new();
    Reflect::set(&surrogate_rec, &s("phone"), &lone_surrogate()).unwrap();
    let nan_rec = js_sys::Object::new();
    Reflect::set(&nan_rec, &s("phone"), &n(f64::NAN)).unwrap();
    let mut junk = junk;
    junk.push(surrogate_rec.into());
    junk.push(nan_rec.into());
    let junk_doc = Reflect::get(&junk[14], &s("v")).unwrap();
    assert_eq!(junk_doc.as_f64(), Some(1.0));

    let mut errors = 0usize;
    let mut calls = 0usize;
    for a in &junk {
        for r in [
            parse_key(a.clone()),
            validate_design(a.clone()),
            key_layout(a.clone()),
            lint_design(a.clone()),
        ] {
            calls += 1;
            errors += r.is_err() as usize;
        }
        calls += 1;
        errors += format_key(a.clone()).is_err() as usize;
        for b in &junk {
            for r in [
                encode_key(a.clone(), b.clone()),
                decode_key(a.clone(), b.clone()),
                key_spans(a.clone(), b.clone()),
            ] {
                calls += 1;
                errors += r.is_err() as usize;
            }
        }
        // A good design with a hostile second argument.
        for r in [
            encode_key(good.clone(), a.clone()),
            decode_key(good.clone(), a.clone()),
            key_spans(good.clone(), a.clone()),
        ] {
            calls += 1;
            errors += r.is_err() as usize;
        }
    }
    assert!(errors * 10 > calls * 9, "{errors} errors in {calls} calls");
    // Hostile arguments that must fail, with a JS Error carrying a kind.
    for e in [
        parse_key(lone_surrogate()).unwrap_err(),
        parse_key(huge_key).unwrap_err(),
        parse_key(n(f64::NAN)).unwrap_err(),
        format_key(n(1.0)).unwrap_err(),
        validate_design(deep).unwrap_err(),
        encode_key(good.clone(), n(f64::NAN)).unwrap_err(),
        decode_key(good.clone(), s("not bytes")).unwrap_err(),
        key_spans(good.clone(), obj("[1, 256]")).unwrap_err(),
    ] {
        assert!(prop(&e, "kind").is_string(), "{}", message(&e));
    }

    // Deep and cyclic objects: an error, not a stack overflow.
    let deep_rec = obj(&format!(
        r#"{{"phone": {}1{}}}"#,
        "[".repeat(20_000),
        "]".repeat(20_000)
    ));
    assert!(encode_key(good.clone(), deep_rec).is_err());
    let deep_of = format!(
        r#"{{"v": 1, "fields": [{{"name": "phone", "type": "string"}}], "key": {}{{"kind": "field", "field": "phone"}}{}}}"#,
        r#"{"segments": [{"kind": "md5", "of": ["#.repeat(5000),
        "]}]}".repeat(5000)
    );
    assert!(validate_design(obj(&deep_of)).is_err());
    let cyclic = js_sys::Object::new();
    Reflect::set(&cyclic, &s("phone"), &cyclic).unwrap();
    assert!(encode_key(good.clone(), cyclic.clone().into()).is_err());
    assert!(validate_design(cyclic.clone().into()).is_err());
    assert!(format_key(cyclic.into()).is_err());

    // The same instance still answers correctly.
    let rec = obj(r#"{"phone": "13412341234"}"#);
    let key = key_bytes(&encode_key(good.clone(), rec).unwrap());
    let md5 = rowkey_lab::hbase::hash::md5_as_hex(b"13412341234");
    assert_eq!(key, [&md5.as_bytes()[..4], b"13412341234"].concat());
    let d: Decoded = back(decode_key(good.clone(), bytes(&key)).unwrap());
    assert_eq!(d.fields[0].value, serde_json::json!("13412341234"));
    assert_eq!(d.verified, Some(true));
    let spans: Vec<(usize, usize)> = back(key_spans(good.clone(), bytes(&key)).unwrap());
    assert_eq!(spans, vec![(0, 4), (4, 15)]);
    assert_eq!(
        format_key(s("md5Hex(phone,4)+phone")).unwrap(),
        "md5Hex(phone, 4) + phone"
    );
    assert!(lint_design(good).is_ok());
}

#[wasm_bindgen_test]
fn create_table_in_and_out_through_wasm() {
    let sql = "CREATE TABLE t (host VARCHAR NOT NULL, n INTEGER NOT NULL CONSTRAINT pk PRIMARY KEY (host, n DESC)) SALT_BUCKETS = 2";
    let doc: DesignDocument = back(parse_create_table(s(sql)).unwrap());
    assert_eq!(
        doc,
        rowkey_lab::design::phoenix::parse_create_table(sql).unwrap()
    );
    assert_eq!(
        doc.key.to_text(),
        "salt(2, hash=phoenix) + pk(HOST, VARCHAR) + pk(N, INTEGER, desc)"
    );
    let printed = print_create_table(obj(&doc.to_json())).unwrap();
    assert_eq!(
        printed,
        rowkey_lab::design::phoenix::print_create_table(&doc).unwrap()
    );
    // A located error, and hostile input, are errors, not traps.
    let e = parse_create_table(s("CREATE TABLE t (\n  a VARCHAR,\n  b")).unwrap_err();
    assert_eq!(prop(&e, "line").as_f64(), Some(3.0));
    assert!(parse_create_table(n(1.0)).is_err());
    assert!(parse_create_table(lone_surrogate()).is_err());
    assert!(print_create_table(obj(r#"{"v": 1, "key": "\"x\""}"#)).is_err());
    assert!(print_create_table(n(f64::NAN)).is_err());
}
