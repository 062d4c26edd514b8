//! The results' JSON writer (`rowkey_lab::jsonw`) against serde_json, byte for byte, over
//! everything the wasm exports return for every preset: the analysis report (also per step of
//! a session), the comparison, read plans, lint, key layout, decoded keys and spans, the
//! documents themselves (compact and pretty), the key spec, and inspections.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rowkey_lab::analyze::{analyze, compare, AnalysisRun, AnalyzeOptions};
use rowkey_lab::keyspec::{self, CompiledKey, KeySpec};
use rowkey_lab::{inspect, jsonw, presets, scan};
use serde::Serialize;

fn same<T: Serialize + ?Sized>(what: &str, v: &T) {
    assert_eq!(
        jsonw::to_string(v),
        serde_json::to_string(v).ok(),
        "{what}: compact"
    );
    assert_eq!(
        jsonw::to_string_pretty(v),
        serde_json::to_string_pretty(v).ok(),
        "{what}: pretty"
    );
}

#[test]
fn every_preset_result_writes_like_serde_json() {
    let opts = AnalyzeOptions::default();
    let mut docs = Vec::new();
    for p in presets::all() {
        let mut doc = presets::get(p.id).expect("preset parses");
        same(p.id, &doc);
        assert_eq!(
            jsonw::to_string_pretty(&doc).unwrap_or_default(),
            doc.to_json()
        );
        same("key spec", &doc.key);
        if let Some(w) = doc.workload.as_mut() {
            // Fewer records keep the debug build quick; the shape of the report is the same.
            w.records = w.records.min(20_000);
        }
        let r = analyze(&doc, &opts).expect("preset analyzes");
        same(&format!("{} report", p.id), &r);
        let mut run = AnalysisRun::new(&doc, &opts).expect("preset runs");
        same("progress", &run.progress());
        same("step", &run.step(1000).expect("steps"));
        same("finish", &run.finish());
        let keys = run.analyzer().split_keys().to_vec();
        same("plans", &scan::plan_reads(&doc, &keys).expect("reads plan"));
        same("lint", &keyspec::lint(&doc));
        same("layout", &keyspec::layout(&doc.key, &doc.fields).ok());
        same("parsed spec", &KeySpec::parse_text(&doc.key.to_text()).ok());
        for ex in &doc.examples {
            if let Ok(key) = keyspec::encode(&doc.key, &doc.fields, &ex.record) {
                same(
                    "decoded",
                    &keyspec::decode(&doc.key, &doc.fields, &key).ok(),
                );
                let spans = CompiledKey::new(&doc.key, &doc.fields)
                    .and_then(|c| c.segment_spans(&key))
                    .ok();
                same("spans", &spans);
            }
        }
        docs.push(doc);
    }
    for pair in docs.windows(2).step_by(3) {
        same("compare", &compare(pair, &opts).ok());
    }
    for (ty, text) in [
        ("string", "13412341234"),
        ("long", "-42"),
        ("double", "1.5e-7"),
        ("float", "3.4028235e38"),
        ("bigDecimal", "-12.50"),
        ("timestamp", "2021-09-07T10:00:00Z"),
        ("boolean", "true"),
    ] {
        let o: inspect::InspectOptions = rowkey_lab::de::from_json(
            &format!(r#"{{"type":"{ty}","regions":16}}"#),
            rowkey_lab::de::inspect_options,
        )
        .expect("options");
        let units: Vec<u16> = text.encode_utf16().collect();
        same(ty, &inspect::inspect(&units, &o).ok());
    }
    same("rules", &keyspec::RULES);
}
