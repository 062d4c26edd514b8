//! Every golden vector through the wasm build, under Node (wasm-bindgen-test). The vector
//! files are embedded at build time by `build.rs` from `VECTORS_DIR`.
#![cfg(target_arch = "wasm32")]

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
