//! Golden vectors: every recipe composition of `../shared/vectors/recipes.jsonl` (computed by
//! the real Java code), written in the key language, encoded through the text and the JSON
//! form of the key, and decoded back where the recipe is invertible. A failure names the
//! vector's line and the key text.

use std::collections::BTreeMap;
use std::path::Path;

use rowkey_lab::keyspec::{CompiledKey, Field, FieldType, FieldValue, KeySpec};
use serde_json::{json, Value};

use super::common::{fd, hex, spec};
use crate::cases::Failures;

/// The vectors, each with its line number in the file.
fn recipes() -> Vec<(usize, Value)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors/recipes.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v = serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {l}: {e}", i + 1));
            (i + 1, v)
        })
        .collect()
}

/// The Java string argument as FieldValue (UTF-16 when the text is not well-formed).
fn java_string(args: &Value) -> FieldValue {
    match args.get("s").and_then(Value::as_str) {
        Some(s) => FieldValue::Str(s.to_string()),
        None => FieldValue::Utf16(
            args.get("utf16")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_u64)
                        .map(|u| u as u16)
                        .collect()
                })
                .unwrap_or_default(),
        ),
    }
}

/// The key texts that compose a recipe, and the field and value they read; None for a
/// recipe this test does not know.
fn compositions(f: &str, args: &Value) -> Option<(Vec<String>, Field, FieldValue)> {
    let s_field = fd("s", FieldType::String);
    Some(match f {
        "reverse_timestamp" => {
            let ts: i64 = args["ts"]
                .as_str()
                .unwrap_or_default()
                .parse()
                .unwrap_or_default();
            (
                vec!["revts(ts)".into()],
                fd("ts", FieldType::Timestamp),
                FieldValue::Long(ts),
            )
        }
        "hash_short_prefix" => (
            vec![
                "hash15() + s".into(),
                "hash15(s) + s".into(),
                "hash15(str(s)) + str(s)".into(),
            ],
            s_field,
            java_string(args),
        ),
        "md5_hex_prefix" => {
            let n = args["prefix_len"].as_u64().unwrap_or_default();
            let sep = args["sep"].as_str().unwrap_or_default();
            (
                vec![
                    format!("md5Hex(s, {n}) + {sep:?} + s"),
                    format!("md5Hex(of=s, len={n}) + {sep:?} + s"),
                ],
                s_field,
                java_string(args),
            )
        }
        "salt_abs_of_mod" => {
            let n = args["buckets"].as_u64().unwrap_or_default();
            (
                vec![
                    format!("salt({n}) + s"),
                    format!("salt(s, {n}, hash=javaString, mod=absOfMod, as=byte) + s"),
                ],
                s_field,
                java_string(args),
            )
        }
        "salt_mod_of_abs" => {
            let n = args["buckets"].as_u64().unwrap_or_default();
            (
                vec![
                    format!("salt({n}, mod=modOfAbs) + s"),
                    format!("salt(s, {n}, mod=modOfAbs) + s"),
                ],
                s_field,
                java_string(args),
            )
        }
        "reverse_string" => (vec!["reverse(s)".into()], s_field, java_string(args)),
        _ => return None,
    })
}

/// The key `t` writes for `values`, through the text form and through the JSON form.
fn encode_both(t: &str, fields: &[Field], values: &[FieldValue]) -> (String, String) {
    let by_text = CompiledKey::new(&spec(t), fields)
        .and_then(|mut ck| ck.encode_values(values))
        .map(|k| hex(&k))
        .unwrap_or_else(|e| format!("error: {e}"));
    let json = spec(t).to_json();
    let by_json = KeySpec::from_json(&json)
        .and_then(|again| CompiledKey::new(&again, fields))
        .and_then(|mut ck| ck.encode_values(values))
        .map(|k| hex(&k))
        .unwrap_or_else(|e| format!("error: {e} (JSON form {json})"));
    (by_text, by_json)
}

#[test]
fn recipes_golden_vectors() {
    let mut failures = Failures::new("recipes.jsonl golden vectors");
    let mut counts = BTreeMap::<String, usize>::new();
    for (line, v) in recipes() {
        let f = v["fn"].as_str().unwrap_or_default().to_string();
        let args = &v["args"];
        let case = format!("line {line}: {f} {args}");
        let Some(expect) = v["expect"].as_str() else {
            failures.fail(&case, "no hex result");
            continue;
        };
        let Some((texts, field, value)) = compositions(&f, args) else {
            failures.fail(&case, format!("recipe `{f}` has no test"));
            continue;
        };
        let (fields, values) = ([field], [value]);
        for t in &texts {
            let (by_text, by_json) = encode_both(t, &fields, &values);
            failures.eq(format!("{case}: `{t}`"), by_text.as_str(), expect);
            failures.eq(
                format!("{case}: JSON form of `{t}`"),
                by_json.as_str(),
                expect,
            );
        }
        // Invertible recipes decode back to the input (well-formed strings only).
        let want = match &values[0] {
            FieldValue::Str(s) => Some(json!(s)),
            FieldValue::Long(n) if n.unsigned_abs() < (1 << 53) => Some(json!(n)),
            FieldValue::Long(n) => Some(json!(n.to_string())),
            _ => None,
        };
        if let (Some(want), Some(t)) = (want, texts.first()) {
            let case = format!("{case}: decode `{t}` {expect}");
            let key = (0..expect.len() / 2)
                .map(|i| u8::from_str_radix(&expect[2 * i..2 * i + 2], 16).unwrap_or_default())
                .collect::<Vec<u8>>();
            match CompiledKey::new(&spec(t), &fields).and_then(|ck| ck.decode(&key)) {
                Ok(d) => {
                    let name = &fields[0].name;
                    let got = d
                        .fields
                        .iter()
                        .find(|x| &x.name == name)
                        .map(|x| x.value.clone());
                    failures.eq(&case, &got, &Some(want));
                    failures.eq(format!("{case} re-encodes"), &d.verified, &Some(true));
                }
                Err(e) => failures.fail(&case, e),
            }
        }
        *counts.entry(f).or_default() += 1;
    }
    failures.check(
        "every recipe family",
        counts.len() == 6,
        format!("6 families expected, ran {counts:?}"),
    );
    let total = counts.values().sum::<usize>();
    failures.check(
        "vector count",
        total >= 200,
        format!("at least 200 vectors expected, ran {total}"),
    );
    failures.finish();
}
