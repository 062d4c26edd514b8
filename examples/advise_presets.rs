//! The advisor's recommendation for every preset (or the ones named), with its reasons and
//! the time it took: `cargo run --release --example advise_presets [preset-id ...]`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rowkey_lab::advise::{advise, AdviseOptions};
use rowkey_lab::design::presets;

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let opts = AdviseOptions::default();
    for p in presets::all() {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == p.id) {
            continue;
        }
        let doc = presets::get(p.id).unwrap();
        let t = std::time::Instant::now();
        match advise(&doc, &opts) {
            Ok(a) => {
                let ms = t.elapsed().as_millis();
                let base = a.candidates[0].metrics.as_ref().unwrap();
                println!(
                    "## {} ({} candidates, {} ms; input hotspot {:.2}, read cost {:.1}, key {:.1} B)",
                    p.id,
                    a.candidates.len(),
                    ms,
                    base.hotspot_factor,
                    base.read_cost,
                    base.key_bytes
                );
                for f in &a.input_flags {
                    println!("   input: {f}");
                }
                println!("   recommended: {}", a.recommended.key_text);
                for w in &a.recommended.why {
                    println!("   * {w}");
                }
            }
            Err(e) => println!("## {}: error {e}", p.id),
        }
    }
}
