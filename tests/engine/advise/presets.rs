//! On every preset the recommendation spreads writes no worse than the preset, unless it lowers
//! a read's cost and its reasons name that read; it never turns a get into a scan; every
//! candidate is evaluated.

use super::common::{advice, preset};
use crate::cases::Failures;
use rowkey_lab::design::presets;

#[test]
fn every_preset_gets_a_recommendation_no_worse_than_itself() {
    let mut f = Failures::new("the advisor on every preset");
    for p in presets::all() {
        let a = advice(&preset(p.id));
        let base = a.candidates[0]
            .metrics
            .clone()
            .expect("the input is evaluated");
        let rec = &a.recommended.metrics;
        // 2 % for the sampling noise of two analyses of the same spread.
        let worse = rec.hotspot_factor > base.hotspot_factor * 1.02;
        let cheaper: Vec<&str> = rec
            .reads
            .iter()
            .zip(&base.reads)
            .filter(|(r, b)| r.cost < b.cost)
            .map(|(r, _)| r.name.as_str())
            .collect();
        if worse {
            f.check(
                format!("{}: a worse spread lowers a read's cost", p.id),
                !cheaper.is_empty(),
                format!("hotspot {} > {}", rec.hotspot_factor, base.hotspot_factor),
            );
            for name in &cheaper {
                f.check(
                    format!("{}: the reasons name the read '{name}'", p.id),
                    a.recommended
                        .why
                        .iter()
                        .any(|w| w.starts_with("gain:") && w.contains(&format!("'{name}'"))),
                    format!("{:?}", a.recommended.why),
                );
            }
        }
        f.check(
            format!("{}: the recommendation keeps every get one scan", p.id),
            !a.candidates[a.recommended.index]
                .flags
                .iter()
                .any(|x| x.contains("turns the get")),
            format!("{:?}", a.candidates[a.recommended.index].flags),
        );
        f.check(
            format!("{}: every reason is a gain or a cost", p.id),
            a.recommended.index == 0
                || a.recommended
                    .why
                    .iter()
                    .skip(1)
                    .all(|w| w.starts_with("gain:") || w.starts_with("cost:")),
            format!("{:?}", a.recommended.why),
        );
        let failed: Vec<String> = a
            .candidates
            .iter()
            .filter_map(|c| c.error.as_ref().map(|e| format!("{}: {e}", c.label)))
            .collect();
        f.check(
            format!("{}: every candidate evaluates", p.id),
            failed.is_empty(),
            failed.join("; "),
        );
        // The input may stay off the front when what beats it is within sampling.
        f.check(
            format!("{}: the recommendation is on the Pareto front", p.id),
            a.candidates[a.recommended.index].pareto || a.recommended.index == 0,
            a.recommended.label.clone(),
        );
        f.check(
            format!("{}: a change names what it gains", p.id),
            a.recommended.index == 0 || a.recommended.why.iter().any(|w| w.starts_with("gain:")),
            format!("{:?}", a.recommended.why),
        );
    }
    f.finish();
}
