//! `runVector`: the golden-vector runner for the npm package's second wasm
//! (`rowkey-lab/vectors`) and the wasm tests. Only built with the `vectors` feature.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{str_arg, to_js};

/// Result of running one golden-vector line.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VectorVerdict {
    verdict: &'static str,
    func: String,
    detail: Option<String>,
}

/// Run one golden-vector line (`{"fn","args","expect"}`) through the engine:
/// `{verdict: "pass" | "fail" | "pending" | "cannotRun", func, detail}`
/// (`pending`: a function recorded upstream that the engine does not implement yet)..
#[wasm_bindgen(js_name = runVector)]
pub fn run_vector(line: JsValue) -> Result<JsValue, JsValue> {
    use crate::vectors::{run_line, Verdict};
    let line = str_arg("line", &line)?;
    let v = match run_line(&line) {
        Verdict::Pass => VectorVerdict {
            verdict: "pass",
            func: String::new(),
            detail: None,
        },
        Verdict::Fail {
            func,
            args,
            expected,
            got,
        } => VectorVerdict {
            verdict: "fail",
            func,
            detail: Some(format!("args {args}\nexpected {expected}\ngot {got}")),
        },
        Verdict::Pending { func } => VectorVerdict {
            verdict: "pending",
            func,
            detail: None,
        },
        Verdict::CannotRun { func, reason } => VectorVerdict {
            verdict: "cannotRun",
            func,
            detail: Some(reason),
        },
    };
    to_js(&v)
}
