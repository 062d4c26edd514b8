//! Shared by the wasm test binaries: runs every embedded golden vector through `runVector`.

use rowkey_lab::wasm::run_vector;
use serde::Deserialize;
use wasm_bindgen::JsValue;

include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));

#[derive(Deserialize)]
struct Verdict {
    verdict: String,
    func: String,
    detail: Option<String>,
}

/// Runs all embedded vectors through the `runVector` export; returns (passed, failures).
/// A `pending` line (a function the engine does not implement yet) is neither.
pub fn run_all() -> (usize, Vec<String>) {
    let (mut passed, mut failures) = (0, Vec::new());
    for (name, text) in EMBEDDED_VECTORS {
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Verdict = match run_vector(JsValue::from_str(line)) {
                Ok(js) => match serde_wasm_bindgen::from_value(js) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{name}:{}: bad verdict object: {e}", i + 1));
                        continue;
                    }
                },
                Err(e) => {
                    failures.push(format!("{name}:{}: runVector threw {e:?}", i + 1));
                    continue;
                }
            };
            if v.verdict == "pass" {
                passed += 1;
            } else if v.verdict != "pending" {
                failures.push(format!(
                    "{name}:{} fn={} {}: {}",
                    i + 1,
                    v.func,
                    v.verdict,
                    v.detail.unwrap_or_default()
                ));
            }
        }
    }
    (passed, failures)
}
