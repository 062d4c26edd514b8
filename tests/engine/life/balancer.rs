//! Research file §A5: `DoubleArrayCost` on region counts, the weight sums per release line and
//! the weighted trigger.

use rowkey_lab::life::{double_array_cost, weight_sum, HBaseVersion};

#[test]
fn a5_region_count_skew_golden_values() {
    let cases: [(&[f64], f64); 8] = [
        (&[6.0, 0.0, 0.0], 1.0),
        (&[4.0, 1.0, 1.0], 0.5),
        (&[5.0, 1.0, 1.0], 0.5),
        (&[3.0, 2.0, 1.0], 0.288675),
        (&[2.0, 2.0, 2.0], 0.0),
        (&[3.0, 2.0, 2.0], 0.0),
        (&[10.0, 10.0, 10.0, 0.0], 0.306646),
        (&[1.0, 0.0, 0.0], 0.0),
    ];
    for (x, want) in cases {
        let got = double_array_cost(x);
        assert!((got - want).abs() < 5e-7, "{x:?}: {got} != {want}");
    }
}

#[test]
fn a5_weight_sums_and_the_trigger_at_4_1_1() {
    assert_eq!(weight_sum(HBaseVersion::V2_6), 602.0);
    assert_eq!(weight_sum(HBaseVersion::V2_5), 602.0);
    assert_eq!(weight_sum(HBaseVersion::V3), 642.0);
    // RegionCountSkew and TableSkew at 0.5, everything else 0: (500 + 35) × 0.5 / 602.
    let c = double_array_cost(&[4.0, 1.0, 1.0]);
    let weighted = (500.0 + 35.0) * c / weight_sum(HBaseVersion::V2_6);
    assert!((weighted - 0.444).abs() < 1e-3 && weighted >= 0.025);
    // Write skew alone, even at 1.0, is 5/602: under the 0.025 trigger.
    assert!(5.0 / weight_sum(HBaseVersion::V2_6) < 0.025);
}
