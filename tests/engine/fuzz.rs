//! Mutation fuzzing of every entry point a design reaches from JavaScript: the presets, edited
//! at random (the key text token by token, the document's values swapped for hostile ones, the
//! JSON text byte by byte), go through reading, compiling, lint, layout, encode, decode, read
//! planning and a short analysis. Each step may refuse its input with an error; none may panic
//! (a panic inside wasm kills the module and the user's page with it). Seeded, so a failure
//! prints the seed and the input that reproduce it.
//!
//! `FUZZ_CASES=N` sets the cases per preset and strategy (default 40).

use std::panic::{self, AssertUnwindSafe};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rowkey_lab::analyze::{AnalysisRun, AnalyzeOptions};
use rowkey_lab::design::presets;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::design::Severity;
use rowkey_lab::keyspec::{self, CompiledKey, KeySpec};
use rowkey_lab::workload::{FieldValue, Record, WorkloadStream};
use serde_json::{Map, Value};

/// Tokens of the key language and text that trips lexers: the edits splice these in.
const TOKENS: &[&str] = &[
    "(",
    ")",
    ",",
    "+",
    "\"",
    "'",
    "\\",
    "=",
    "as=",
    "hex",
    "dec(2)",
    "dec(0)",
    "bin",
    "md5(",
    "salt(",
    "reverse(",
    "bucket(",
    "time(",
    "long(",
    "int(",
    "fixed(",
    "random(",
    "\\x00",
    "\\xff",
    "0",
    "-1",
    "255",
    "256",
    "65536",
    "4294967296",
    "99999999999999999999",
    "1e9",
    "0.5",
    " ",
    "\n",
    "é",
    "💥",
    "\u{0}",
    "ts",
    "phone",
    "yyyyMM",
    "mod=",
    "width=",
    "\"\"",
    "\"\\xZZ\"",
];

/// Values a hostile or careless document puts where a number or text belongs.
fn hostile(rng: &mut Xoshiro256PlusPlus) -> Value {
    let pick = [
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(255),
        Value::from(256),
        Value::from(i64::from(i32::MAX) + 1),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(1e308),
        Value::from(-1e-308),
        Value::from(0.5),
        Value::from(9_007_199_254_740_993u64),
        Value::from(""),
        Value::from("\u{0}"),
        Value::from("\u{10FFFF}"),
        Value::from("x".repeat(300)),
        Value::from("2021-02-30T25:61:00Z"),
        Value::Null,
        Value::Bool(true),
        Value::Array(vec![]),
        Value::Object(Map::new()),
    ];
    pick[rng.gen_range(0..pick.len())].clone()
}

/// Run everything a design reaches; errors are answers, a panic or a wrong answer (`Err`)
/// fails. Returns whether the design's workload ran.
fn exercise(doc: &DesignDocument, rng: &mut Xoshiro256PlusPlus) -> Result<bool, String> {
    // The decoder may refuse the design's own keys only where the linter says it will, as an
    // error: a layout with two variable-width segments in a row cannot be split, and a `when`
    // whose field the key has not given cannot be read past. Any other refusal is a bug.
    let lint_errors: Vec<String> = rowkey_lab::design::lint(doc)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule.into_owned())
        .collect();
    let foreseen = |message: &str| {
        [
            ("the key cannot be split", "ambiguous-boundary"),
            ("before the key has given its value", "when-before-field"),
        ]
        .iter()
        .any(|(says, rule)| message.contains(says) && lint_errors.iter().any(|r| r == rule))
    };
    let _ = keyspec::layout(&doc.key, &doc.key_fields());
    let _ = doc.to_json();
    if let Ok(mut ck) = CompiledKey::new(&doc.key, &doc.key_fields()) {
        let _ = ck.layout();
        for ex in &doc.examples {
            if let Ok(key) = ck.encode_json(&ex.record) {
                // An example's key the design wrote is never called another design's.
                if let Ok(d) = ck.decode(&key) {
                    if d.verified == Some(false) {
                        return Err(format!("example key {key:02x?} decodes unverified"));
                    }
                }
                let _ = ck.segment_spans(&key);
                let mut cut = key.clone();
                cut.truncate(rng.gen_range(0..=key.len()));
                let _ = ck.decode(&cut);
            }
        }
        // Keys the design writes for generated records decode, and their decoded values write
        // them again: a key of its own that the design calls unverified is a wrong answer.
        if let Some(mut stream) = doc
            .workload
            .as_ref()
            .and_then(|w| WorkloadStream::new(w, &doc.fields).ok())
        {
            let mut rec = Record::default();
            for _ in 0..20 {
                if !stream.next_into(&mut rec) {
                    break;
                }
                let record: Map<String, Value> = doc
                    .fields
                    .iter()
                    .zip(&rec.values)
                    .map(|(f, v)| (f.name.clone(), json_of(v)))
                    .collect();
                let Ok(key) = ck.encode_json(&record) else {
                    continue;
                };
                match ck.decode(&key) {
                    Ok(d) if d.verified == Some(false) => {
                        return Err(format!("its own key {key:02x?} decodes unverified: {d:?}"))
                    }
                    Ok(_) => {}
                    Err(e) if foreseen(&e.to_string()) => {}
                    Err(e) => return Err(format!("its own key {key:02x?} does not decode: {e}")),
                }
            }
        }
        let junk: Vec<u8> = (0..rng.gen_range(0..40)).map(|_| rng.gen()).collect();
        let _ = ck.decode(&junk);
        let _ = ck.segment_spans(&junk);
    }
    let opts = AnalyzeOptions {
        windows: 8,
        sample_size: 50,
        ..AnalyzeOptions::default()
    };
    if let Ok(mut run) = AnalysisRun::new(doc, &opts) {
        if run.step(300).is_ok() {
            let _ = run.step(300);
        }
        let report = run.finish();
        let _ = serde_json::to_string(&report);
        let splits = run.analyzer().split_keys().to_vec();
        let _ = doc.plan_reads(&splits);
        return Ok(report.writes > 0);
    }
    Ok(false)
}

/// Words of the key language and the presets' fields: a word swapped for another keeps the
/// key's shape, so the edit gets past the parser to the compiler, the encoder and the analysis.
const WORDS: &[&str] = &[
    "absOfMod",
    "as",
    "bigDecimal",
    "bool",
    "bucket",
    "byte",
    "bytes",
    "dec",
    "dict",
    "div",
    "double",
    "field",
    "fixed",
    "float",
    "floorMod",
    "hash",
    "hash15",
    "hbasewd",
    "hex",
    "hexUpper",
    "int",
    "javaString",
    "left",
    "letter",
    "long",
    "md5",
    "md5Hex",
    "mod",
    "modOfAbs",
    "opentsdb",
    "overflow",
    "pad",
    "phoenix",
    "random",
    "reject",
    "reverse",
    "revts",
    "right",
    "salt",
    "seed",
    "short",
    "side",
    "sortable",
    "str",
    "tag",
    "time",
    "truncate",
    "upper",
    "when",
    "width",
    "ts",
    "day",
    "url",
    "phone",
    "vin",
    "engine_type",
    "customer",
    "order",
    "type",
    "row",
    "host",
    "event",
    "order_id",
    "message_id",
    "sent",
    "user",
    "item",
];

/// Numbers and string literals for a like-for-like swap.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "8",
    "16",
    "17",
    "20",
    "21",
    "255",
    "256",
    "1000",
    "65536",
    "2147483648",
    "9223372036854775808",
    "-1",
    "-2147483649",
    "1.5",
    "1e3",
];
const STRINGS: &[&str] = &[
    "\"\"",
    "\"\\x00\"",
    "\"\\xff\\xff\"",
    "\"yyyy\"",
    "\"yyyyMMddHHmmssSSS\"",
    "\"Q\"",
    "\"''\"",
    "\"é\"",
    "\"💥\"",
    "\"-\"",
    "\"EEE\"",
    "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
];

/// Swap one word, number or string literal of `text` for another of its kind.
fn swap_token(text: &str, rng: &mut Xoshiro256PlusPlus) -> String {
    // Token spans: [start, end) with their kind (0 word, 1 number, 2 string).
    let b = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let kind = match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                2
            }
            c if c.is_ascii_digit() || c == b'-' => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                1
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                0
            }
            _ => {
                i += 1;
                continue;
            }
        };
        spans.push((start, i, kind));
    }
    if spans.is_empty() {
        return text.to_string();
    }
    let (start, end, kind) = spans[rng.gen_range(0..spans.len())];
    let pool = [WORDS, NUMBERS, STRINGS][kind];
    let with = pool[rng.gen_range(0..pool.len())];
    format!("{}{with}{}", &text[..start], text.get(end..).unwrap_or(""))
}

/// A generated value as a record's JSON value.
fn json_of(v: &FieldValue) -> Value {
    match v {
        FieldValue::Str(s) => Value::from(s.as_str()),
        FieldValue::Long(n) => Value::from(*n),
        FieldValue::Double(x) => Value::from(*x),
        FieldValue::Bool(b) => Value::Bool(*b),
    }
}

/// One random edit of `text`: delete, insert a token, or replace a span with one.
fn edit_text(text: &str, rng: &mut Xoshiro256PlusPlus) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = rng.gen_range(0..=chars.len());
    let token: Vec<char> = TOKENS[rng.gen_range(0..TOKENS.len())].chars().collect();
    let mut out = chars.clone();
    match rng.gen_range(0..3) {
        0 if !chars.is_empty() => {
            let end = (at + rng.gen_range(1..4)).min(chars.len());
            out.drain(at.min(end)..end);
        }
        1 => {
            out.splice(at..at, token);
        }
        _ => {
            let end = (at + rng.gen_range(0..4)).min(chars.len());
            out.splice(at..end, token);
        }
    }
    out.into_iter().collect()
}

/// Every leaf of `v` (numbers, strings, booleans, nulls) as a JSON pointer.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                leaves(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{at}/{i}"), out);
            }
        }
        _ => out.push(at),
    }
}

/// Run `check` over the inputs `make` derives from each preset, catching panics. Fails on any
/// panic, and when fewer than `min_analyzed` of the cases got as far as an analysis: a fuzzer
/// whose inputs all stop at the reader tests the reader alone.
fn run_cases(
    strategy: &str,
    min_analyzed: f64,
    make: impl Fn(&str, &mut Xoshiro256PlusPlus) -> Option<String>,
    check: impl Fn(&str, &mut Xoshiro256PlusPlus) -> Result<bool, String>,
) {
    let cases: u64 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let (mut failures, mut analyzed, mut total) = (Vec::new(), 0, 0);
    for (pi, p) in presets::all().enumerate() {
        for case in 0..cases {
            let seed = (pi as u64) << 32 | case;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ strategy.len() as u64);
            let Some(input) = make(p.json, &mut rng) else {
                continue;
            };
            total += 1;
            match panic::catch_unwind(AssertUnwindSafe(|| check(&input, &mut rng))) {
                Ok(Ok(ran)) => analyzed += usize::from(ran),
                Ok(Err(wrong)) => {
                    failures.push(format!("{strategy} {} seed {seed}: {wrong}; {input}", p.id))
                }
                Err(_) => failures.push(format!("{strategy} {} seed {seed} panics: {input}", p.id)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let share = analyzed as f64 / total.max(1) as f64;
    println!(
        "{strategy}: {total} cases, {analyzed} analyzed ({:.0} %)",
        share * 100.0
    );
    assert!(
        share >= min_analyzed,
        "{strategy}: only {analyzed} of {total} cases reached an analysis"
    );
}

fn preset_value(json: &str) -> Option<Value> {
    serde_json::from_str(json).ok()
}

/// A document's reading and everything after it, when it reads.
fn read_and_exercise(json: &str, rng: &mut Xoshiro256PlusPlus) -> Result<bool, String> {
    match DesignDocument::from_json(json) {
        Ok(doc) => exercise(&doc, rng),
        Err(_) => Ok(false),
    }
}

#[test]
fn key_text_edits_never_panic() {
    run_cases(
        "key",
        0.05,
        |json, rng| {
            // The preset with its key in the text form, edited; fields, workload and reads stay.
            let doc = DesignDocument::from_json(json).ok()?;
            let mut text = doc.key.to_text();
            for _ in 0..rng.gen_range(1..3) {
                text = if rng.gen_bool(0.75) {
                    swap_token(&text, rng)
                } else {
                    edit_text(&text, rng)
                };
            }
            let _ = KeySpec::parse_text(&text).map(|s| s.to_text());
            let mut v = preset_value(json)?;
            *v.get_mut("key")? = Value::from(text);
            serde_json::to_string(&v).ok()
        },
        read_and_exercise,
    );
}

#[test]
fn hostile_values_never_panic() {
    run_cases(
        "value",
        0.15,
        |json, rng| {
            let mut v = preset_value(json)?;
            let mut at = Vec::new();
            leaves(&v, String::new(), &mut at);
            for _ in 0..rng.gen_range(1..3) {
                let p = &at[rng.gen_range(0..at.len())];
                if let Some(slot) = v.pointer_mut(p) {
                    *slot = hostile(rng);
                }
            }
            serde_json::to_string(&v).ok()
        },
        read_and_exercise,
    );
}

#[test]
fn json_byte_edits_never_panic() {
    run_cases(
        "bytes",
        0.10,
        |json, rng| {
            let mut b = json.as_bytes().to_vec();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..b.len());
                match rng.gen_range(0..3) {
                    0 => {
                        b.remove(at);
                    }
                    1 => {
                        let pool = b"{}[]\",:0-e.\\ ";
                        b.insert(at, pool[rng.gen_range(0..pool.len())]);
                    }
                    _ => b[at] = rng.gen(),
                }
            }
            Some(String::from_utf8_lossy(&b).into_owned())
        },
        read_and_exercise,
    );
}
