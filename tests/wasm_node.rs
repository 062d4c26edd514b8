//! Every golden vector through the wasm build, under Node (wasm-bindgen-test). The vector
//! files are embedded at build time by `build.rs` from `VECTORS_DIR`.
// These tests read the engine's own results back; clippy.toml's disallowed methods keep those
// calls away from a caller's values in src/wasm.
#![allow(clippy::disallowed_methods)]
#![cfg(target_arch = "wasm32")]
// wasm_bindgen_test functions are not `#[test]`s to clippy; unwrapping is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod wasm_common;

use wasm_bindgen_test::wasm_bindgen_test;
use wasm_common::{run_all, EMBEDDED_VECTORS};

#[wasm_bindgen_test]
fn every_golden_vector_passes_in_wasm() {
    assert!(
        !EMBEDDED_VECTORS.is_empty(),
        "no vector files were embedded (VECTORS_DIR empty?)"
    );
    let (passed, failures) = run_all();
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "wasm vectors: {passed} passed, {} failed; first: {shown:#?}",
        failures.len()
    );
    assert!(passed > 0);
}

mod boundary {
    //! The JS boundary under hostile input: every export gets empty, huge, negative,
    //! out-of-range and malformed arguments and must return an error (never trap); then the
    //! same module instance still answers correctly.
    use js_sys::{Array, JsString, Uint8Array};
    use rowkey_lab::wasm::*;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn n(x: f64) -> JsValue {
        JsValue::from_f64(x)
    }
    fn s(x: &str) -> JsValue {
        JsValue::from_str(x)
    }
    fn lone_surrogate() -> JsValue {
        JsString::from_char_code1(0xD800).into()
    }
    fn obj(json: &str) -> JsValue {
        js_sys::JSON::parse(json).unwrap_or(JsValue::NULL)
    }
    fn bytes(b: &[u8]) -> JsValue {
        Uint8Array::from(b).into()
    }
    fn message(e: &JsValue) -> String {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_default()
    }
    fn hex_of(v: &JsValue) -> String {
        Uint8Array::new(v)
            .to_vec()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[wasm_bindgen_test]
    fn every_export_rejects_bad_input_and_keeps_working() {
        let junk: Vec<JsValue> = vec![
            JsValue::UNDEFINED,
            JsValue::NULL,
            n(f64::NAN),
            n(-1.0),
            n(2f64.powi(31)),
            n(1e300),
            s(""),
            s("zz"),
            lone_surrogate(),
            obj("{\"unknown\": 1}"),
            Array::new().into(),
        ];
        let mut errors = 0usize;
        for a in &junk {
            for b in &junk {
                // Every call must return (Ok or Err), never trap; record the errors.
                errors += inspect(a.clone(), b.clone()).is_err() as usize;
                errors += to_bytes(a.clone(), b.clone()).is_err() as usize;
                errors += compare_bytes(a.clone(), b.clone()).is_err() as usize;
                errors += region_of(a.clone(), b.clone()).is_err() as usize;
                errors += split_keys(s("HexStringSplit"), a.clone(), b.clone()).is_err() as usize;
                errors += split_keys(a.clone(), b.clone(), JsValue::UNDEFINED).is_err() as usize;
                errors +=
                    bytes_split(a.clone(), b.clone(), n(3.0), JsValue::FALSE).is_err() as usize;
                errors +=
                    bytes_split(bytes(b"a"), bytes(b"z"), a.clone(), b.clone()).is_err() as usize;
                errors += create_table_split_keys(a.clone(), b.clone(), n(10.0)).is_err() as usize;
                errors +=
                    create_table_split_keys(bytes(b"a"), bytes(b"z"), a.clone()).is_err() as usize;
            }
            errors += to_string_binary(a.clone()).is_err() as usize;
            errors += to_bytes_binary(a.clone()).is_err() as usize;
            errors += md5_hex(a.clone()).is_err() as usize;
            errors += java_hash_code(a.clone()).is_err() as usize;
            errors += bytes_hash_code(a.clone()).is_err() as usize;
            errors += run_vector(a.clone()).is_err() as usize;
        }
        assert!(
            errors > 500,
            "expected most junk calls to be rejected, got {errors} errors"
        );

        // Specific cases with specific messages.
        let e = split_keys(s("HexStringSplit"), n(1.0), JsValue::UNDEFINED).unwrap_err();
        assert!(
            message(&e).contains('1'),
            "message should name the bad count: {}",
            message(&e)
        );
        assert!(split_keys(s("HexStringSplit"), n(0.0), JsValue::UNDEFINED).is_err());
        assert!(split_keys(
            s("HexStringSplit"),
            n(2f64.powi(31) - 1.0),
            JsValue::UNDEFINED
        )
        .is_err());
        assert!(split_keys(s("NoSuchSplit"), n(4.0), JsValue::UNDEFINED).is_err());
        assert!(to_bytes(s("long"), s("12x")).is_err());
        assert!(to_bytes(s("short"), s("40000")).is_err());
        assert!(inspect(s("1"), obj("{\"type\":\"long\",\"regions\":1000000000}")).is_err());
        assert!(region_of(Array::of2(&bytes(b"a"), &bytes(b"a")).into(), bytes(b"x")).is_err());
        let big = "x".repeat(10 << 20);
        assert!(md5_hex(s(&big)).is_err(), "a string is not a byte array");
        assert_eq!(
            to_bytes_binary(s(&big))
                .map(|v| Uint8Array::new(&v).length())
                .ok(),
            Some(10 << 20)
        );

        // The same instance still answers correctly.
        assert_eq!(
            md5_hex(bytes(b"abc")).ok().as_deref(),
            Some("900150983cd24fb0d6963f7d28e17f72")
        );
        assert_eq!(
            to_bytes(s("long"), s("-1"))
                .map(|v| hex_of(&v))
                .ok()
                .as_deref(),
            Some("ffffffffffffffff")
        );
        assert_eq!(
            to_bytes(s("string"), lone_surrogate())
                .map(|v| hex_of(&v))
                .ok()
                .as_deref(),
            Some("3f")
        );
        assert_eq!(java_hash_code(s("row1")).ok(), Some(3_506_583));
        let keys = split_keys(s("HexStringSplit"), n(4.0), JsValue::UNDEFINED).expect("4 regions");
        let keys = Array::from(&keys);
        assert_eq!(keys.length(), 3);
        assert_eq!(hex_of(&keys.get(0)), "3430303030303030"); // "40000000"
                                                              // "a" (0x61) sorts after "80000000" (0x38…) and before "c0000000" (0x63…): region 2.
        assert_eq!(region_of(keys.into(), bytes(b"a")).ok(), Some(2));
    }
}
