//! Every preset analyses with the write figures it had before rows were counted: the writes,
//! bytes and region × window matrix of each preset are compared with `presets-writes.json`,
//! written by the engine before the row accounting existed (`ROWS_WRITE_FIXTURE=1` writes it
//! again, for a deliberate change of the workload or the presets).

use rowkey_lab::analyze::{analyze, AnalysisReport, AnalyzeOptions};
use rowkey_lab::design::presets;
use serde_json::{json, Value};

use crate::cases::Failures;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/engine/rows/presets-writes.json"
);

/// FNV-1a over the counts: the matrices are too large to keep whole in the fixture.
fn fnv(cells: &[u32]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in cells {
        for b in c.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The write figures of a report: what the row accounting must leave as it was.
fn figures(r: &AnalysisReport) -> Value {
    json!({
        "writes": r.writes,
        "bytes": r.bytes,
        "writesOutsideWindows": r.writes_outside_windows,
        "regions": r.regions.iter().map(|g| json!([g.start_key_hex, g.writes, g.bytes, g.rows])).collect::<Vec<_>>(),
        "servers": r.servers.iter().map(|s| json!([s.rows, s.bytes])).collect::<Vec<_>>(),
        "matrix": fnv(&r.matrix.cells),
        "grid": fnv(&r.grid.cells),
        "splits": r.splits.len(),
    })
}

#[test]
fn every_preset_keeps_its_write_figures() {
    let opts = AnalyzeOptions {
        windows: 16,
        ..AnalyzeOptions::default()
    };
    let mut now = serde_json::Map::new();
    for p in presets::all() {
        let doc = presets::get(p.id).unwrap();
        let r = analyze(&doc, &opts).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        now.insert(p.id.to_string(), figures(&r));
    }
    if std::env::var_os("ROWS_WRITE_FIXTURE").is_some() {
        // One line per preset.
        let lines: Vec<String> = now.iter().map(|(id, f)| format!("  {id:?}: {f}")).collect();
        std::fs::write(FIXTURE, format!("{{\n{}\n}}\n", lines.join(",\n"))).unwrap();
        return;
    }
    let before: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let mut failures = Failures::new("preset write figures against presets-writes.json");
    for (id, fig) in &now {
        failures.eq(id, fig, before.get(id).unwrap_or(&Value::Null));
    }
    failures.eq(
        "preset ids",
        &now.keys().collect::<Vec<_>>(),
        &before.keys().collect::<Vec<_>>(),
    );
    failures.finish();
}
