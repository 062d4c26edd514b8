//! The wasm build in headless Chromium (Debian chromium + chromedriver): every golden vector
//! again, so both runtimes are proven.
// These tests read the engine's own results back; clippy.toml's disallowed methods keep those
// calls away from a caller's values in src/wasm.
#![allow(clippy::disallowed_methods)]
#![cfg(target_arch = "wasm32")]
// wasm_bindgen_test functions are not `#[test]`s to clippy; unwrapping is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

mod wasm_common;

#[wasm_bindgen_test]
fn every_golden_vector_passes_in_chromium() {
    let (passed, failures) = wasm_common::run_all();
    assert!(
        failures.is_empty(),
        "browser vectors: {passed} passed, {} failed; first: {:#?}",
        failures.len(),
        failures.iter().take(10).collect::<Vec<_>>()
    );
    assert!(passed > 0);
}
