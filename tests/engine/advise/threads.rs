//! The same figures and the same answer on one thread and on several.

use super::common::{preset, small};
use rowkey_lab::advise::{advise, advise_from, candidates, evaluate_all, AdviseOptions};

#[test]
fn one_thread_and_several_give_identical_results() {
    for id in ["seed000-telecom", "seed004-md5-prefix"] {
        let doc = preset(id);
        // Few records: the figures only have to agree, not to be precise.
        let opts = AdviseOptions {
            records: 1_000,
            ..small()
        };
        let set = candidates(&doc, &opts).unwrap();
        let designs: Vec<_> = set.candidates.iter().map(|c| &c.design).collect();
        let one = evaluate_all(&designs, &opts, set.target_regions, 1);
        let four = evaluate_all(&designs, &opts, set.target_regions, 4);
        assert_eq!(one, four, "{id}");
        // The answer from either, and from advise on three threads, is the same.
        let a1 = advise_from(&doc, &opts, &set, one).unwrap();
        let a4 = advise_from(&doc, &opts, &set, four).unwrap();
        assert_eq!(a1, a4, "{id}");
        if id == "seed000-telecom" {
            let a3 = advise(&doc, &AdviseOptions { threads: 3, ..opts }).unwrap();
            assert_eq!(a1, a3, "{id}");
        }
    }
}

#[test]
fn evaluations_read_back_from_json_bit_for_bit() {
    // Workers hand their figures back as JSON text: reading them must give the same numbers,
    // or adviseFrom would answer differently from adviseDesign.
    let doc = preset("seed000-telecom");
    let opts = AdviseOptions {
        records: 2_000,
        ..small()
    };
    let set = candidates(&doc, &opts).unwrap();
    let designs: Vec<_> = set.candidates.iter().map(|c| &c.design).collect();
    let evals = evaluate_all(&designs, &opts, set.target_regions, 1);
    let ok: Vec<_> = evals.iter().map(|e| e.clone().unwrap()).collect();
    let text = serde_json::to_string(&ok).unwrap();
    let back = rowkey_lab::advise::read_evaluations(&text).unwrap();
    assert_eq!(back, evals);
    let failed = rowkey_lab::advise::read_evaluations(r#"[{"error": "no"}]"#).unwrap();
    assert!(failed[0].is_err());
    let e = rowkey_lab::advise::read_evaluations(r#"[{"hotspotFactor": "x"}]"#).unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("evaluations[0]"));
}
