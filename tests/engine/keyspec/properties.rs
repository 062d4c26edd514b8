//! Property tests over a small deterministic generator of designs and records: the text and
//! JSON forms of a key round-trip, encode -> decode gives back every exact field, and no input
//! makes the parser or the decoder panic. A failure names the generated key text (and record).

use rowkey_lab::keyspec::{self, CompiledKey, Field, FieldType, KeySpec};
use serde_json::{json, Map, Value};

use super::common::{fd, rec, spec};
use crate::cases::Failures;

/// SplitMix64: the cases are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const RENDERS: &[&str] = &[
    "byte",
    "short",
    "int",
    "long",
    "dec(3)",
    "hex(4)",
    "hexUpper(8)",
    "bytes(2)",
    "letter",
];

/// A random segment in the text form over fields s (string), l (long), t (timestamp),
/// d (double), b (boolean), x (bigDecimal), k (string, the tag).
fn gen_segment(r: &mut Rng, depth: u32) -> String {
    let field = |r: &mut Rng| r.pick(&["s", "l", "t", "d", "b", "x", "k"]).to_string();
    let int_field = |r: &mut Rng| r.pick(&["l", "t"]).to_string();
    match r.below(if depth > 1 { 19 } else { 21 }) {
        0 => field(r),
        1 => format!("str({})", field(r)),
        2 => format!(
            "fixed({}, {}, pad={}, side={}, overflow={})",
            field(r),
            1 + r.below(30),
            r.below(256),
            r.pick(&["left", "right"]),
            r.pick(&["reject", "truncate"])
        ),
        3 => format!("dec({}, {})", int_field(r), 1 + r.below(19)),
        4 => format!(
            "{}({}{})",
            r.pick(&["long", "int", "short"]),
            int_field(r),
            r.pick(&["", ", sortable"])
        ),
        5 => format!("double(d{})", r.pick(&["", ", sortable"])),
        6 => "bool(b)".into(),
        7 => "bigDecimal(x)".into(),
        8 => format!("{:?}", r.pick(&["_", "", "|", "\u{1}", "é", "\\\"q"])),
        9 => format!("\"\\x{:02x}\"", r.below(256)),
        10 => format!(
            "random({}, seed={}, as={})",
            1 + r.below(26),
            r.next() >> 1,
            r.pick(RENDERS)
        ),
        11 => format!(
            "hash15({})",
            if r.below(2) == 0 {
                String::new()
            } else {
                gen_segment(r, depth + 1)
            }
        ),
        12 => format!(
            "md5({})",
            if r.below(2) == 0 {
                String::new()
            } else {
                gen_segment(r, depth + 1)
            }
        ),
        13 => format!(
            "md5Hex({}len={}{})",
            if r.below(2) == 0 {
                String::new()
            } else {
                gen_segment(r, depth + 1) + ", "
            },
            1 + r.below(32),
            r.pick(&["", ", upper=true"])
        ),
        14 => format!("reverse({})", field(r)),
        15 => format!(
            "revts({}{}, as={})",
            int_field(r),
            r.pick(&["", ", div=1000"]),
            r.pick(&["long", "hex(16)"])
        ),
        16 => format!(
            "time(t, {:?}{})",
            r.pick(&[
                "yyyyMMddHHmmss",
                "yyMMdd",
                "HHmmss",
                "yyyy-MM-dd",
                "MM-dd",
                "yyyy-MM-dd'T'HH:mm:ss.SSS"
            ]),
            r.pick(&["", ", unit=s"])
        ),
        17 => format!(
            "bucket({}, {}, as={})",
            int_field(r),
            r.pick(&["mod=7", "div=3600000", "mod=100"]),
            r.pick(&["long", "dec(19)", "int"])
        ),
        18 => format!(
            "{}(k, [\"x\"=1, \"y\"=2, \"z z\"=200], as={})",
            r.pick(&["dict", "tag"]),
            r.pick(&["byte", "long", "dec(3)", "short"])
        ),
        19 => format!(
            "salt({}{}, hash={}{})",
            if r.below(2) == 0 {
                String::new()
            } else {
                gen_segment(r, depth + 1) + ", "
            },
            1 + r.below(256),
            r.pick(&[
                "javaString",
                "arrays",
                "md5",
                "phoenix",
                "hbasewd",
                "opentsdb"
            ]),
            ""
        ),
        _ => format!(
            "when(k, {}, {})",
            r.pick(&["\"x\"", "[\"y\", \"z z\"]"]),
            gen_segment(r, depth + 1)
        ),
    }
}

fn gen_record(r: &mut Rng) -> Value {
    let strings = ["", "a", "hello_world", "é中😀", "x|y", "12345", "\u{7f}"];
    json!({
        "s": r.pick(&strings),
        "l": (r.next() as i64) >> r.below(64),
        "t": (r.below(4_000_000_000_000) as i64) - 1_000_000_000_000,
        "d": r.pick(&[0.0, -1.5, 3.25e10, 1e-7]),
        "b": r.below(2) == 1,
        "x": r.pick(&["123.123", "-1E+3", "0.00"]),
        "k": r.pick(&["x", "y", "z z"]),
    })
}

/// Every non-empty literal written to the key (not inside hash sources).
fn literals(s: &KeySpec) -> Vec<Vec<u8>> {
    fn go(segs: &[keyspec::Segment], out: &mut Vec<Vec<u8>>) {
        for seg in segs {
            match seg {
                keyspec::Segment::Literal(l) if !l.bytes.is_empty() => out.push(l.bytes.clone()),
                keyspec::Segment::When(w) => go(&w.then, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    go(&s.segments, &mut out);
    out
}

/// Every `fixed` segment's field and pad byte.
fn pads(s: &KeySpec) -> Vec<(String, u8)> {
    fn go(segs: &[keyspec::Segment], out: &mut Vec<(String, u8)>) {
        for seg in segs {
            match seg {
                keyspec::Segment::Fixed(f) => out.push((f.field.clone(), f.pad)),
                keyspec::Segment::When(w) => go(&w.then, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    go(&s.segments, &mut out);
    out
}

/// Whether a `fixed` segment's pad byte may occur in its field's text (the documented
/// ambiguity: a value that begins or ends with its pad byte reads back without it).
fn pad_in_value(pads: &[(String, u8)], record: &Map<String, Value>) -> bool {
    pads.iter().any(|(f, p)| match record.get(f) {
        Some(Value::String(t)) => t.as_bytes().contains(p),
        Some(Value::Number(_)) => b"0123456789.-+Ee".contains(p),
        Some(Value::Bool(_)) => b"truefals".contains(p),
        _ => false,
    })
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

fn prop_fields() -> Vec<Field> {
    vec![
        fd("s", FieldType::String),
        fd("l", FieldType::Long),
        fd("t", FieldType::Timestamp),
        fd("d", FieldType::Double),
        fd("b", FieldType::Boolean),
        fd("x", FieldType::BigDecimal),
        fd("k", FieldType::String),
    ]
}

#[test]
fn property_text_json_round_trip() {
    let mut r = Rng(7);
    let mut parsed = 0;
    let mut failures = Failures::new("text <-> JSON round trips of generated keys (Rng(7))");
    for i in 0..3000 {
        let n = 1 + r.below(6);
        let text = (0..n)
            .map(|_| gen_segment(&mut r, 0))
            .collect::<Vec<_>>()
            .join(" + ");
        let case = format!("key {i} `{text}`");
        let s = match KeySpec::parse_text(&text) {
            Ok(s) => s,
            Err(e) => {
                // Only rejections the generator can legitimately produce.
                failures.check(
                    &case,
                    e.message.contains("salt")
                        || e.message.contains("letter")
                        || e.message.contains("256")
                        || e.message.contains("bytes"),
                    format!("refused for an unexpected reason: {e}"),
                );
                continue;
            }
        };
        parsed += 1;
        let printed = s.to_text();
        failures.eq(
            format!("{case}: text round trip via `{printed}`"),
            &KeySpec::parse_text(&printed).map_err(|e| e.to_string()),
            &Ok(s.clone()),
        );
        let json = serde_json::to_string(&s).unwrap_or_default();
        failures.eq(
            format!("{case}: JSON round trip via {json}"),
            &KeySpec::from_json(&json).map_err(|e| e.to_string()),
            &Ok(s.clone()),
        );
        let as_string = serde_json::to_string(&printed).unwrap_or_default();
        failures.eq(
            format!("{case}: string form"),
            &KeySpec::from_json(&as_string).map_err(|e| e.to_string()),
            &Ok(s.clone()),
        );
        failures.eq(
            format!("{case}: printed text is stable"),
            &KeySpec::parse_text(&printed)
                .map(|x| x.to_text())
                .unwrap_or_default(),
            &s.to_text(),
        );
    }
    failures.finish();
    assert!(parsed > 2000, "{parsed}");
}

#[test]
fn property_encode_decode_round_trip() {
    let fields = prop_fields();
    let mut r = Rng(11);
    let (mut checked, mut verified) = (0, 0);
    let mut failures = Failures::new("encode -> decode of generated keys and records (Rng(11))");
    for i in 0..3000 {
        let n = 1 + r.below(5);
        let text = (0..n)
            .map(|_| gen_segment(&mut r, 0))
            .collect::<Vec<_>>()
            .join(" + ");
        let Ok(s) = KeySpec::parse_text(&text) else {
            continue;
        };
        let Ok(mut ck) = CompiledKey::new(&s, &fields) else {
            continue;
        };
        for j in 0..4 {
            let record = rec(gen_record(&mut r));
            let case = format!(
                "key {i} `{text}` on record {j} {}",
                Value::Object(record.clone())
            );
            let Ok(key) = ck.encode_json(&record) else {
                continue;
            };
            let spans = ck.segment_spans(&key);
            // Decoding never panics; when it succeeds on a key whose separators occur only
            // as separators, every exact field equals the input.
            let lits = literals(&s);
            let ambiguous = lits
                .iter()
                .any(|l| count(&key, l) > lits.iter().filter(|m| *m == l).count())
                || pad_in_value(&pads(&s), &record);
            if let Ok(d) = ck.decode(&key) {
                if ambiguous {
                    continue;
                }
                checked += 1;
                for f in d.fields.iter().filter(|f| f.exact) {
                    let want = CompiledKey::new(&spec(&f.name), &fields)
                        .ok()
                        .and_then(|c| c.values_from_json(&record).ok())
                        .and_then(|v| ck.field_index(&f.name).and_then(|i| v.get(i).cloned()));
                    let got = CompiledKey::new(&spec(&f.name), &fields)
                        .ok()
                        .and_then(|c| {
                            c.values_from_json(&rec(json!({ &f.name: f.value.clone() })))
                                .ok()
                        })
                        .and_then(|v| ck.field_index(&f.name).and_then(|i| v.get(i).cloned()));
                    failures.eq(format!("{case}: field {}", f.name), &got, &want);
                }
                if d.verified == Some(true) {
                    verified += 1;
                }
                // A key the design wrote is never called another design's.
                failures.check(
                    format!("{case}: verified"),
                    d.verified != Some(false),
                    "the design's own key is called another design's",
                );
                match spans {
                    Ok(spans) => {
                        failures.eq(
                            format!("{case}: one span per segment"),
                            &spans.len(),
                            &ck.layout().len(),
                        );
                        failures.check(
                            format!("{case}: spans inside the key"),
                            spans.iter().all(|(a, b)| a <= b && *b <= key.len()),
                            format!("spans {spans:?} of a {}-byte key", key.len()),
                        );
                    }
                    Err(e) => failures.fail(format!("{case}: spans"), e),
                }
            }
        }
    }
    failures.finish();
    assert!(
        checked > 1000 && verified > 300,
        "checked {checked}, verified {verified}"
    );
}

#[test]
fn property_no_panics_on_garbage() {
    let mut r = Rng(3);
    let alphabet: Vec<char> = "salt(long\"_+,)[]=#\n \\x0fé9-sortable time yyyy dec when"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let n = r.below(40) as usize;
        let s: String = (0..n).map(|_| *r.pick(&alphabet)).collect();
        let _ = KeySpec::parse_text(&s);
        let _ = KeySpec::from_json(&s);
    }
    // Random keys through a decoder of every kind.
    let fields = prop_fields();
    for _ in 0..300 {
        let text = (0..1 + r.below(4))
            .map(|_| gen_segment(&mut r, 0))
            .collect::<Vec<_>>()
            .join(" + ");
        let Ok(s) = KeySpec::parse_text(&text) else {
            continue;
        };
        let Ok(ck) = CompiledKey::new(&s, &fields) else {
            continue;
        };
        for _ in 0..20 {
            let key: Vec<u8> = (0..r.below(40)).map(|_| r.below(256) as u8).collect();
            let _ = ck.decode(&key);
        }
    }
    // Random JSON designs.
    for _ in 0..2000 {
        let kinds = [
            "str", "salt", "time", "dict", "when", "literal", "md5Hex", "bucket", "fixed",
        ];
        let keys = [
            "field", "buckets", "pattern", "entries", "is", "then", "text", "hex", "len", "of",
            "mod", "div", "as", "width",
        ];
        let vals = [
            json!("s"),
            json!(3),
            json!(-1),
            json!([]),
            json!({}),
            json!("zz"),
            json!({"dec": 2}),
            json!(null),
            json!(1e99),
        ];
        let mut seg = Map::new();
        seg.insert("kind".into(), json!(r.pick(&kinds)));
        for _ in 0..r.below(4) {
            seg.insert(r.pick(&keys).to_string(), r.pick(&vals).clone());
        }
        let _ = KeySpec::from_json(&json!({ "segments": [seg] }).to_string());
    }
}
