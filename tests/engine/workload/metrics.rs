//! Skew metrics over a generated workload: a sequence fills one range per window, uniform ids
//! spread over every range.

use rowkey_lab::analyze::metrics::{load_metrics, matrix_metrics};
use rowkey_lab::keyspec::FieldType;

use super::common::{column, field, longs};

#[test]
fn metrics_on_a_generated_workload() {
    // A sequence id bucketed into 10 equal ranges per 1000 records: each window of 1000
    // records lands in exactly one bucket (active = 1), the whole run spreads evenly.
    let ids = longs(&column(
        10_000,
        0,
        field("id", FieldType::Long, Some(r#"{"kind": "sequence"}"#)),
    ));
    let regions = 10;
    let windows = 10;
    let mut cells = vec![0u64; regions * windows];
    for (i, id) in ids.iter().enumerate() {
        let r = (*id / 1000) as usize;
        let w = i / 1000;
        cells[r * windows + w] += 1;
    }
    let m = matrix_metrics(&cells, regions, windows).unwrap();
    assert_eq!(m.mean_active_regions, 1.0);
    assert_eq!(m.max_hotspot_factor, 10.0);
    assert!((m.overall.hotspot_factor - 1.0).abs() < 1e-12);
    assert!((m.overall.effective_parallelism - 10.0).abs() < 1e-9);
    // Uniform ids over the same ranges: every window is spread.
    let uni = longs(&column(
        10_000,
        0,
        field(
            "id",
            FieldType::Long,
            Some(r#"{"kind": "uniformInt", "min": 0, "max": 9999}"#),
        ),
    ));
    let mut per_region = vec![0u64; regions];
    for id in &uni {
        per_region[(*id / 1000) as usize] += 1;
    }
    let lm = load_metrics(&per_region);
    assert_eq!(lm.active_regions, 10);
    assert!(lm.hotspot_factor < 1.15, "{}", lm.hotspot_factor);
    assert!(lm.effective_parallelism > 9.8);
}
