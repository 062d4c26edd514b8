//! Lint rules: each rule fires on the designs it is about and only at the segment it names;
//! `when-before-field` agrees with the decoder; lint reads the design, not the values a
//! workload happens to write; and a design is held to the keys its examples record.

use rowkey_lab::design::{DesignDocument, Severity};
use rowkey_lab::keyspec::CompiledKey;
use serde_json::{json, Value};

use super::common::{has, lint_rules, spec};
use crate::cases::Failures;

type Findings = [(String, Severity, Option<usize>)];

/// Records a failure of `key` unless `rule` fires at `seg` (or, with `fires` false, does not).
fn expect_rule(
    failures: &mut Failures,
    key: &str,
    r: &Findings,
    rule: &str,
    seg: Option<usize>,
    fires: bool,
) {
    let at = seg.map_or("the key".to_string(), |s| format!("segment {s}"));
    let what = if fires { "fires" } else { "does not fire" };
    failures.check(
        format!("`{key}`: {rule} {what} at {at}"),
        has(r, rule, seg) == fires,
        format!("findings: {r:?}"),
    );
}

#[test]
fn lint_rules_fire() {
    let fields = json!([
        {"name": "ts", "type": "timestamp"},
        {"name": "host", "type": "string", "cardinality": 5000},
        {"name": "event", "type": "string", "cardinality": 20},
        {"name": "n", "type": "long"},
        {"name": "d", "type": "double"}]);
    let mut failures = Failures::new("lint rules");
    let salt8 = json!({"presplit": {"kind": "saltBuckets", "buckets": 8}});

    let key = "long(ts) + host + event";
    let r = lint_rules(json!({"v": 1, "fields": fields, "key": key}));
    expect_rule(&mut failures, key, &r, "monotonic-leading", Some(0), true);
    expect_rule(&mut failures, key, &r, "ambiguous-boundary", Some(1), true);
    expect_rule(&mut failures, key, &r, "cardinality-order", Some(2), true);
    failures.check(
        format!("`{key}`: ambiguous-boundary is an error"),
        r.iter()
            .any(|(x, s, _)| x == "ambiguous-boundary" && *s == Severity::Error),
        format!("findings: {r:?}"),
    );
    expect_rule(&mut failures, key, &r, "key-length", None, true);

    let key = "str(n) + \"|\" + d";
    let r = lint_rules(json!({"v": 1, "fields": fields, "key": key, "latestFirst": true}));
    expect_rule(&mut failures, key, &r, "unpadded-decimal", Some(0), true);
    expect_rule(&mut failures, key, &r, "signed-order", Some(2), true);
    // Digits cannot hold `|`.
    expect_rule(&mut failures, key, &r, "separator-in-field", Some(1), false);

    let key = "salt(12, as=dec(1)) + host + \"_\" + time(ts, \"yyyyMMdd\")";
    let r = lint_rules(
        json!({"v": 1, "fields": fields, "key": key, "regions": salt8, "latestFirst": true}),
    );
    expect_rule(&mut failures, key, &r, "unpadded-decimal", Some(0), true);
    expect_rule(
        &mut failures,
        key,
        &r,
        "bucket-region-mismatch",
        Some(0),
        true,
    );
    expect_rule(&mut failures, key, &r, "separator-in-field", Some(2), true);
    expect_rule(&mut failures, key, &r, "latest-first", Some(3), true);
    expect_rule(&mut failures, key, &r, "monotonic-leading", Some(0), false);

    let key = "salt(8, hash=phoenix) + long(n, sortable) + revts(ts)";
    let r = lint_rules(
        json!({"v": 1, "fields": fields, "key": key, "regions": salt8, "latestFirst": true}),
    );
    // 17 bytes.
    expect_rule(&mut failures, key, &r, "key-length", None, true);
    failures.check(
        format!("`{key}`: otherwise clean"),
        !r.iter()
            .any(|(x, s, _)| *s != Severity::Info && x != "key-length"),
        format!("findings: {r:?}"),
    );

    let key = "salt(8, hash=phoenix) + int(n, sortable) + revts(ts)";
    let r = lint_rules(json!({"v": 1, "fields": fields, "key": key, "regions": salt8}));
    failures.check(
        format!("`{key}`: 13 bytes, no key-length"),
        r.iter().all(|(x, _, _)| x != "key-length"),
        format!("findings: {r:?}"),
    );
    expect_rule(&mut failures, key, &r, "key-alignment", None, true);

    let key = "random(4) + md5Hex(host, 4) + n";
    let r = lint_rules(json!({"v": 1, "fields": fields, "key": key}));
    expect_rule(&mut failures, key, &r, "random-salt", Some(0), true);
    expect_rule(&mut failures, key, &r, "hash-only", None, true);
    failures.finish();
}

/// A key that does not compile against the fields is one finding, `invalid`; every rule has
/// an id.
#[test]
fn lint_of_a_key_that_does_not_compile_is_invalid() {
    let d = DesignDocument {
        key: spec("str(ghost)"),
        ..DesignDocument::from_json(&json!({"v": 1, "key": "\"x\""}).to_string())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let f = rowkey_lab::design::lint(&d);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].rule, "invalid");
    for (id, _) in rowkey_lab::design::RULES {
        assert!(!id.is_empty());
    }
}

/// A `when` must test a field the decoder already has: the linter flags the designs whose keys
/// the decoder refuses for that reason, and only those (found by tests/engine/fuzz.rs: a `when` over
/// the field its own branch writes).
#[test]
fn lint_flags_a_when_before_its_field() {
    let fields = json!([
        {"name": "customer", "type": "long"},
        {"name": "type", "type": "string"},
        {"name": "order", "type": "long"},
        {"name": "ts", "type": "timestamp"}]);
    let records = [
        json!({"customer": 42, "type": "order", "order": 7, "ts": 1631003400000_i64}),
        json!({"customer": 42, "type": "customer", "order": 8, "ts": 1631003400000_i64}),
    ];
    let cases = [
        // (key, the when's layout index if flagged)
        ("long(customer) + tag(type, [\"customer\"=1, \"order\"=2]) + when(type, \"order\", long(order))", None),
        ("long(customer) + when(type, \"order\", long(order))", Some(1)),
        ("long(customer) + tag(type, [\"customer\"=1, \"order\"=2]) + when(order, \"7\", long(order))", Some(2)),
        ("long(customer) + md5(type) + when(type, \"order\", long(order))", Some(2)),
        ("time(ts, \"yyyyMMdd\") + when(ts, \"0\", long(order))", Some(1)),
        ("bucket(customer, mod=10, as=dec(1)) + when(customer, \"42\", long(order))", Some(1)),
        // Given inside a branch: keys that skip the branch do not have it.
        ("tag(type, [\"customer\"=1, \"order\"=2]) + when(type, \"order\", long(order)) + when(order, \"7\", long(customer))", Some(3)),
        // Given inside the same branch, before the inner when: every key that reaches it has it.
        ("tag(type, [\"customer\"=1, \"order\"=2]) + when(type, \"order\", long(order) + when(order, \"7\", long(customer)))", None),
    ];
    let mut failures = Failures::new("when-before-field: lint against the decoder");
    for (key, flagged) in cases {
        let doc = json!({"v": 1, "fields": fields, "key": key});
        let r = lint_rules(doc.clone());
        let at: Vec<Option<usize>> = r
            .iter()
            .filter(|(x, s, _)| x == "when-before-field" && *s == Severity::Error)
            .map(|(_, _, seg)| *seg)
            .collect();
        failures.eq(
            format!("`{key}`: segments flagged (findings {r:?})"),
            &at,
            &flagged.map(Some).into_iter().collect::<Vec<_>>(),
        );
        let d = DesignDocument::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let mut ck =
            CompiledKey::new(&d.key, &d.key_fields()).unwrap_or_else(|e| panic!("{key}: {e}"));
        // Flagged: some key is refused (one that reaches the when); not flagged: none is.
        let refused = records.iter().any(|r| {
            let bytes = ck
                .encode_json(r.as_object().unwrap_or_else(|| panic!("an object")))
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            ck.decode(&bytes)
                .err()
                .is_some_and(|e| e.to_string().contains("before the key has given its value"))
        });
        failures.check(
            format!("`{key}`: the decoder and the linter agree"),
            refused == flagged.is_some(),
            format!(
                "flagged by lint: {}, a key refused by the decoder: {refused}",
                flagged.is_some()
            ),
        );
    }
    failures.finish();
}

#[test]
fn lint_reads_the_design_not_its_values() {
    let fields = json!([
        {"name": "ts", "type": "timestamp"},
        {"name": "status", "type": "string", "cardinality": 3,
         "generator": {"kind": "list", "values": ["counter", "clock", "sequence"], "order": "sequential"}},
        {"name": "id", "type": "long", "generator": {"kind": "sequence"}}]);
    // A read whose record value is "latest" is not a latest read; a `latest` read is.
    let prefix = json!([{"type": "prefix", "record": {"status": "latest"}}]);
    let r = lint_rules(
        json!({"v": 1, "fields": fields, "key": "status + \"_\" + long(ts)", "reads": prefix}),
    );
    assert!(!r.iter().any(|(x, _, _)| x == "latest-first"), "{r:?}");
    let newest = json!([{"type": "latest", "record": {"status": "open"}, "n": 5}]);
    let r = lint_rules(
        json!({"v": 1, "fields": fields, "key": "status + \"_\" + long(ts)", "reads": newest}),
    );
    assert!(has(&r, "latest-first", Some(2)), "{r:?}");
    // A list cycled in order, whose values happen to be "counter" and "clock", does not count
    // up; a sequence does.
    assert!(!has(
        &lint_rules(json!({"v": 1, "fields": fields, "key": "status + long(id)"})),
        "monotonic-leading",
        Some(0)
    ));
    assert!(has(
        &lint_rules(json!({"v": 1, "fields": fields, "key": "long(id) + status"})),
        "monotonic-leading",
        Some(0)
    ));
}

/// `example-key`: the findings for a design's examples, as (segment, message); each names its
/// example by index, as its message does.
fn example_findings(doc: Value) -> Vec<(Option<usize>, String)> {
    let d = DesignDocument::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    rowkey_lab::design::lint(&d)
        .into_iter()
        .filter(|f| f.rule == "example-key")
        .map(|f| {
            assert_eq!(f.severity, Severity::Warning, "{}", f.message);
            let i = f.example.unwrap_or(usize::MAX);
            assert!(
                f.message.starts_with(&format!("example {i} (")),
                "{}",
                f.message
            );
            (f.segment, f.message)
        })
        .collect()
}

#[test]
fn lint_holds_a_design_to_its_examples() {
    let fields = json!([{"name": "id", "type": "long"}, {"name": "name", "type": "string"},
                        {"name": "added", "type": "long"}]);
    // Bytes.toBytes(1L) + "_" + "a", written out by hand.
    let stored = concat!("0000000000000001", "5f61");
    let examples = json!([
        {"record": {"id": 1, "name": "a"}, "key": stored},
        {"record": {"id": 1, "name": "a"}, "keyBinary": "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01_a"},
        {"record": {"id": 2, "name": "b"}}]);
    let doc = |key: &str| json!({"v": 1, "fields": fields, "key": key, "examples": examples});
    assert_eq!(example_findings(doc("long(id) + \"_\" + name")), []);
    // An int instead of a long: both examples that record a key (hex, or as toStringBinary
    // shows it) now name the first segment; the one without a key says nothing.
    let r = example_findings(doc("int(id) + \"_\" + name"));
    assert_eq!(r.len(), 2, "{r:?}");
    let mut failures = Failures::new("example-key findings of `int(id) + \"_\" + name`");
    for (i, (seg, msg)) in r.iter().enumerate() {
        failures.eq(format!("example {i}: segment ({msg})"), seg, &Some(0));
        let want = format!(
            "example {i} (id 1, name a): the key writes \\x00\\x00\\x00\\x01_a, the example says \\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01_a (segment `int(id)` changed)"
        );
        failures.check(
            format!("example {i}: message"),
            msg.starts_with(&want),
            format!("expected to start with: {want}\nactual: {msg}"),
        );
    }
    failures.finish();
    // Only the last segment differs: the finding points at it.
    let r = example_findings(doc("long(id) + \"-\" + name"));
    assert_eq!(
        r.iter().map(|f| f.0).collect::<Vec<_>>(),
        [Some(1), Some(1)]
    );
    // A record the design cannot write any more (a field it now needs is not in it) is named too.
    let r = example_findings(doc("long(id) + \"_\" + name + long(added)"));
    assert!(
        !r.is_empty()
            && r.iter()
                .all(|(seg, msg)| seg.is_none() && msg.contains("cannot write its record")),
        "{r:?}"
    );

    // The byte a random(...) salt draws is not compared (ff, which random(2) never draws, passes);
    // the rest is.
    let rand = |name: &str| {
        json!({"v": 1, "fields": fields, "key": "random(2) + \"-\" + name",
               "examples": [{"record": {"name": name}, "key": concat!("ff", "2d61")}]})
    };
    assert_eq!(example_findings(rand("a")), []);
    let r = example_findings(rand("b"));
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, Some(2), "{r:?}");

    // A recorded key that is not hex is an error where it is, not a key that never matches.
    let bad = json!({"v": 1, "fields": fields, "key": "name",
                     "examples": [{"record": {"name": "a"}, "key": "6z"}]});
    let e = DesignDocument::from_json(&bad.to_string()).err();
    assert_eq!(
        e.as_ref().and_then(|e| e.location.path.as_deref()),
        Some("/examples/0/key"),
        "{e:?}"
    );
    assert!(e.is_some_and(|e| e.message.contains("invalid hex char \"z\" at index 1")));
}

#[test]
fn leads_with_time_is_the_monotonic_leading_rule_alone() {
    // The analysis asks only this of the lint (its diagnosis of one region hot all run long):
    // the answer is the whole lint's, on every preset, including the time-first ones.
    let mut failures = Failures::new("leads_with_time against lint's monotonic-leading");
    let mut led = 0;
    for p in rowkey_lab::design::presets::all() {
        let doc = rowkey_lab::design::presets::get(p.id).unwrap();
        let want = rowkey_lab::design::lint(&doc)
            .iter()
            .any(|f| f.rule == "monotonic-leading");
        led += usize::from(want);
        failures.eq(p.id, &want, &rowkey_lab::design::leads_with_time(&doc));
    }
    failures.finish();
    assert!(led >= 2, "{led} presets lead with time");
}
