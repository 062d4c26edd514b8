//! `src/types.d.ts` (the npm package's declarations, written by hand) held to the Rust types
//! it declares: for real results of every preset, each member the engine writes is declared
//! in its interface, and each member the interface requires is written. A renamed or added
//! field on either side fails here, with the interface and the member named.

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use rowkey_lab::analyze::{self, check, AnalyzeOptions};
use rowkey_lab::design::{self, presets, DesignDocument};
use serde_json::Value;

/// An interface's members: name -> optional (`name?:`).
type Members = BTreeMap<String, bool>;

/// Text without `/* ... */` and `// ...` comments.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Every `export interface Name [extends Base] { ... }` with its own and inherited members.
fn interfaces(dts: &str) -> BTreeMap<String, Members> {
    let text = strip_comments(dts);
    let mut own: BTreeMap<String, (Members, Option<String>)> = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("export interface ") {
        rest = &rest[i + "export interface ".len()..];
        let open = rest.find('{').unwrap_or(rest.len());
        let head: Vec<&str> = rest[..open].split_whitespace().collect();
        let name = head.first().copied().unwrap_or_default().to_string();
        let base = head
            .iter()
            .position(|w| *w == "extends")
            .and_then(|p| head.get(p + 1))
            .map(|s| s.to_string());
        let body = &rest[(open + 1).min(rest.len())..];
        let (mut depth, mut start, mut members) = (0i32, 0usize, Members::new());
        for (j, c) in body.char_indices() {
            match c {
                '{' | '(' | '[' | '<' => depth += 1,
                '}' | ')' | ']' | '>' if depth > 0 => depth -= 1,
                '}' => {
                    add_member(&body[start..j], &mut members);
                    break;
                }
                ';' | '\n' if depth == 0 => {
                    add_member(&body[start..j], &mut members);
                    start = j + 1;
                }
                _ => {}
            }
        }
        own.insert(name, (members, base));
    }
    own.keys()
        .map(|name| {
            let mut all = Members::new();
            let mut at = Some(name.clone());
            while let Some(n) = at {
                let Some((m, base)) = own.get(&n) else { break };
                for (k, opt) in m {
                    all.entry(k.clone()).or_insert(*opt);
                }
                at = base.clone();
            }
            (name.clone(), all)
        })
        .collect()
}

/// One `name: type` or `name?: type` (methods and index signatures are not members).
fn add_member(decl: &str, members: &mut Members) {
    let decl = decl.trim();
    let Some(colon) = decl.find(':') else { return };
    let name = decl[..colon].trim();
    let (name, optional) = match name.strip_suffix('?') {
        Some(n) => (n, true),
        None => (name, false),
    };
    if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        members.insert(name.to_string(), optional);
    }
}

/// What is wrong between `value` (a serialized result) and `interface`.
fn mismatches(all: &BTreeMap<String, Members>, interface: &str, value: &Value) -> Vec<String> {
    let Some(members) = all.get(interface) else {
        return vec![format!("types.d.ts declares no interface {interface}")];
    };
    let Value::Object(obj) = value else {
        return vec![format!(
            "{interface}: the engine wrote {value}, not an object"
        )];
    };
    let written: BTreeSet<&String> = obj.keys().collect();
    let mut wrong: Vec<String> = written
        .iter()
        .filter(|k| !members.contains_key(k.as_str()))
        .map(|k| format!("{interface}: the engine writes `{k}`, which types.d.ts does not declare"))
        .collect();
    wrong.extend(
        members
            .iter()
            .filter(|(k, opt)| !**opt && !written.contains(k))
            .map(|(k, _)| {
                format!("{interface}: types.d.ts requires `{k}`, which the engine does not write")
            }),
    );
    wrong
}

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or_else(|e| panic!("{e}"))
}

/// A run's options from JSON, as the bindings read them.
fn life_options(v: Value) -> rowkey_lab::life::LifeOptions {
    rowkey_lab::life::LifeOptions::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn dts() -> BTreeMap<String, Members> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/types.d.ts");
    interfaces(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

#[test]
fn every_preset_result_has_the_declared_shape() {
    let all = dts();
    let opts = AnalyzeOptions {
        windows: 8,
        ..AnalyzeOptions::default()
    };
    let mut wrong = BTreeSet::new();
    let mut each = |interface: &str, v: &Value| {
        wrong.extend(mismatches(&all, interface, v));
    };
    for p in presets::all() {
        let doc: DesignDocument = presets::get(p.id).unwrap_or_else(|e| panic!("{e}"));
        each("DesignDocument", &json(&doc));
        for f in &doc.fields {
            each("FieldDecl", &json(f));
        }
        for ex in &doc.examples {
            each("Example", &json(ex));
        }
        let report = analyze::analyze(&doc, &opts).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        let r = json(&report);
        each("AnalysisReport", &r);
        for g in &report.regions {
            each("RegionReport", &json(g));
        }
        for s in &report.servers {
            each("ServerReport", &json(s));
        }
        each("MatrixMetrics", &json(&report.metrics));
        each("LoadMetrics", &json(&report.server_metrics));
        for sp in &report.splits {
            each("SplitEvent", &json(sp));
        }
        let plans = doc
            .plan_reads(&analyze::initial_split_keys(&doc).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        for plan in plans {
            each("ReadPlan", &json(&plan));
            for sc in &plan.scans {
                each("Scan", &json(sc));
            }
        }
        for f in design::lint(&doc) {
            each("Finding", &json(&f));
        }
        for ex in design::check_examples(&doc).unwrap_or_default() {
            each("ExampleKey", &json(&ex));
        }
        let verdict = check::check_report(&doc, &report, &check::Budgets::default())
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        each("CheckVerdict", &json(&verdict));
    }
    // A Phoenix table with one index of each kind: each index's analysis and its own report.
    let mut doc = design::phoenix::parse_create_table(
        "CREATE TABLE O (ID VARCHAR NOT NULL PRIMARY KEY, C VARCHAR, T TIMESTAMP, N INTEGER) \
         SALT_BUCKETS=4; CREATE INDEX BY_T ON O (T) INCLUDE (N); \
         CREATE UNCOVERED INDEX BY_C ON O (C); CREATE LOCAL INDEX L_N ON O (N);",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    if let Some(w) = doc.workload.as_mut() {
        w.records = 2_000;
    }
    let report = analyze::analyze(&doc, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.indexes.len(), 3);
    each("AnalysisReport", &json(&report));
    for x in &report.indexes {
        each("IndexAnalysis", &json(x));
        each("IndexWrites", &json(&x.writes));
        if let Some(r) = &x.report {
            each("AnalysisReport", &json(r));
            each("MatrixMetrics", &json(&r.metrics));
        }
    }
    let mut v = json(&doc);
    v["reads"] = serde_json::json!([
        {"type": "prefix", "name": "by c", "record": {"C": "x"}},
        {"type": "get", "name": "one", "record": {"ID": "x"}},
    ]);
    let doc = DesignDocument::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let keys = analyze::initial_split_keys(&doc).unwrap_or_else(|e| panic!("{e}"));
    let plans = analyze::plan_reads_through_indexes(&doc, &keys).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(plans.len(), 2);
    for p in &plans {
        each("IndexReadPlan", &json(p));
        for c in &p.candidates {
            each("ReadThrough", &json(c));
            each("ReadPlan", &json(&c.plan));
        }
    }
    each("Budgets", &json(&check::Budgets::default()));
    // A comparison of three designs (a salted key, a time-first one, a Phoenix table).
    let three: Vec<DesignDocument> = [
        "seed000-telecom",
        "seed000-telecom-time-first",
        "seed002-phoenix-orders",
    ]
    .iter()
    .map(|id| presets::get(id).unwrap_or_else(|e| panic!("{e}")))
    .collect();
    let c = analyze::compare(&three, &opts).unwrap_or_else(|e| panic!("compare: {e}"));
    each("Comparison", &json(&c));
    for d in &c.designs {
        each("ComparedDesign", &json(d));
        for g in &d.region_keys {
            each("ComparedRegion", &json(g));
        }
        for r in &d.reads {
            each("ComparedRead", &json(r));
        }
    }
    for f in &c.figures {
        each("ComparedFigure", &json(f));
    }
    // The advisor on a Phoenix table whose unsalted index takes every write on one region:
    // each candidate's index figures and the index finding with its checked fixes.
    {
        let doc = design::phoenix::parse_create_table(
            "CREATE TABLE EV (ID VARCHAR NOT NULL PRIMARY KEY, CREATED_AT TIMESTAMP) SALT_BUCKETS=4; \
             CREATE INDEX BY_TIME ON EV (CREATED_AT) SALT_BUCKETS=0;",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut v = serde_json::to_value(&doc).unwrap_or_else(|e| panic!("{e}"));
        v["workload"]["records"] = serde_json::json!(2_000);
        v["reads"] = serde_json::json!([{"type": "range", "name": "a minute",
            "from": {"CREATED_AT": 0}, "to": {"CREATED_AT": 60_000}}]);
        let doc = DesignDocument::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let small = rowkey_lab::advise::AdviseOptions {
            records: 2_000,
            windows: 4,
            ..Default::default()
        };
        let a = rowkey_lab::advise::advise(&doc, &small).unwrap_or_else(|e| panic!("{e}"));
        each("Advice", &json(&a));
        let input = a.candidates[0]
            .metrics
            .as_ref()
            .unwrap_or_else(|| panic!("no metrics"));
        each("CandidateMetrics", &json(input));
        for x in &input.indexes {
            each("IndexCost", &json(x));
        }
        assert!(!a.index_findings.is_empty(), "no index finding");
        for f in &a.index_findings {
            each("IndexFinding", &json(f));
            for x in &f.fixes {
                each("IndexFix", &json(x));
                for r in &x.reads {
                    each("IndexFixRead", &json(r));
                    each("ReadRoute", &json(&r.before));
                }
            }
        }
    }
    // The advisor's result, on two presets (a salted key and a time-first one with reads).
    let small = rowkey_lab::advise::AdviseOptions {
        records: 5_000,
        windows: 8,
        ..Default::default()
    };
    for id in ["seed000-telecom", "seed000-cyclic"] {
        let doc = presets::get(id).unwrap_or_else(|e| panic!("{e}"));
        let a = rowkey_lab::advise::advise(&doc, &small).unwrap_or_else(|e| panic!("{id}: {e}"));
        let set = rowkey_lab::advise::candidates(&doc, &small).unwrap_or_else(|e| panic!("{e}"));
        each("CandidateSet", &json(&set));
        for c in &set.candidates {
            each("Candidate", &json(c));
        }
        each("Advice", &json(&a));
        each("Recommendation", &json(&a.recommended));
        each("CandidateMetrics", &json(&a.recommended.metrics));
        for r in &a.recommended.metrics.reads {
            each("ReadCost", &json(r));
        }
        for c in &a.candidates {
            each("EvaluatedCandidate", &json(c));
        }
        each("CapacityReport", &json(&a.capacity));
        let measured = rowkey_lab::advise::RegionPlanInput {
            key_bytes: 24.0,
            regions: 4,
            active_regions_per_window: 4.0,
            write_rate: None,
        };
        each(
            "RegionPlan",
            &json(&rowkey_lab::advise::region_plan(&doc, &measured)),
        );
        let life = rowkey_lab::life::simulate_design(
            &doc,
            &life_options(serde_json::json!({"months": 1})),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        each("LifeReport", &json(&life));
        each("LifeCrossings", &json(&life.crossings));
        for m in &life.months {
            each("LifeMonth", &json(m));
            each("BalancerCost", &json(&m.balancer_cost));
            for sv in &m.servers {
                each("LifeServerMonth", &json(sv));
            }
        }
        let opts = life_options(serde_json::json!({"months": 2, "ttlSeconds": 2_592_000}));
        let c =
            rowkey_lab::life::compare_design(&doc, &opts, &Default::default(), &mut |_, _| Ok(()))
                .unwrap_or_else(|e| panic!("{e:?}"));
        each("LifeComparison", &json(&c));
        for f in &c.figures {
            each("LifeComparedFigure", &json(f));
        }
        each("LifeView", &json(&c.a));
        // A finding with a checked fix: the time-led month under the TTL leaves empty regions.
        let time_first =
            presets::get("seed000-telecom-time-first").unwrap_or_else(|e| panic!("{e}"));
        let d = rowkey_lab::life::simulate_design(
            &time_first,
            &life_options(serde_json::json!({"months": 3, "servers": 4, "ttlSeconds": 2_592_000})),
        )
        .unwrap_or_else(|e| panic!("{e:?}"))
        .diagnosis
        .unwrap_or_default();
        assert!(d.findings.iter().any(|f| f.fix.is_some()), "{d:?}");
        each("LifeDiagnosis", &json(&d));
        for f in &d.findings {
            each("LifeFinding", &json(f));
            if let Some(x) = &f.fix {
                each("LifeFix", &json(x));
            }
        }
        each("LifeOptions", &json(&c.a.settings));
        each("LifeKeyMonthMap", &json(&c.a.map));
        let gate = rowkey_lab::life::check_design(
            &doc,
            &opts,
            &rowkey_lab::life::LifeBudgets {
                max_empty_regions: Some(0),
                max_regions_per_server: Some(1),
            },
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        each("LifeCheck", &json(&gate));
        for f in [&gate.empty_regions, &gate.regions_per_server]
            .into_iter()
            .flatten()
        {
            each("LifeMonthFigure", &json(f));
        }
        each("CapacityOptions", &json(&a.capacity.inputs));
        for h in a.capacity.horizons.iter().chain(&a.capacity.monthly) {
            each("CapacityHorizon", &json(h));
        }
        if let Some(c) = &a.capacity.cycle {
            each("CycleCheck", &json(c));
        }
        each("AdviseOptions", &json(&small));
    }
    let list = rowkey_lab::region::read_regions("create 't', 'f', SPLITS => ['b', 'd']", None)
        .unwrap_or_else(|e| panic!("{e}"));
    each("RegionList", &json(&list));
    for p in presets::all() {
        let doc: DesignDocument = presets::get(p.id).unwrap_or_else(|e| panic!("{e}"));
        let keys = [Vec::new(), vec![1], b"07_1380".to_vec()];
        let bounds = rowkey_lab::keyspec::decode_boundaries(&doc.key, &doc.key_fields(), &keys)
            .unwrap_or_else(|e| panic!("{e}"));
        for b in &bounds {
            each("Boundary", &json(b));
            b.fields.iter().for_each(|f| each("DecodedField", &json(f)));
        }
    }
    let series = observed_series();
    each("RegionSeries", &json(&series));
    if let Some(l) = &series.layout {
        each("SeriesLayout", &json(l));
    }
    for f in &series.files {
        each("SeriesFile", &json(f));
    }
    for s in &series.snapshots {
        each("SeriesSnapshot", &json(s));
    }
    for r in &series.regions {
        each("SeriesRegion", &json(r));
    }
    for iv in &series.intervals {
        each("SeriesInterval", &json(iv));
        iv.regions.iter().for_each(|r| each("RegionRate", &json(r)));
        iv.servers.iter().for_each(|s| each("ServerRate", &json(s)));
    }
    let wrong: Vec<String> = wrong.into_iter().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The series of `tests/fixtures/observe/scenario/` (a split, a move, a reopen, a gap).
fn observed_series() -> rowkey_lab::region::series::RegionSeries {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/observe/scenario"
    );
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (
                name,
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}")),
            )
        })
        .collect();
    let input: Vec<_> = files
        .iter()
        .map(|(name, text)| rowkey_lab::region::series::SnapshotFile {
            name,
            text,
            modified_ms: None,
        })
        .collect();
    rowkey_lab::region::series::read_series(&input, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_declaration_reader_sees_members_and_their_optionality() {
    let all = interfaces(
        "/** doc */\nexport interface A { a: number; /** b */ b?: { c: string } | null;\n  d: X<Y, Z>; }\n\
         export interface B extends A { e: string[] }",
    );
    let b = &all["B"];
    assert_eq!(b.get("a"), Some(&false));
    assert_eq!(b.get("b"), Some(&true));
    assert_eq!(b.get("d"), Some(&false));
    assert_eq!(b.get("e"), Some(&false));
    assert!(
        !b.contains_key("c"),
        "a nested member is not the interface's"
    );
    let v = serde_json::json!({"a": 1, "d": 2, "f": 3});
    assert_eq!(
        mismatches(&all, "A", &v),
        vec!["A: the engine writes `f`, which types.d.ts does not declare".to_string()]
    );
}
