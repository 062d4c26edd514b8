//! The JSON form of workloads and generators: camelCase, tagged by `kind`, strict about
//! unknown members; bad workloads are refused with the JSON path of the fault; times may be
//! ISO-8601 text.

use rowkey_lab::keyspec::FieldType;
use rowkey_lab::region::RegionLayout;
use rowkey_lab::workload::{FieldDecl, Generator, WorkloadSpec, WorkloadStream};

use super::common::{field, gen, spec};
use crate::cases::Failures;

#[test]
fn json_form_is_camel_case_tagged_and_strict() {
    let g = gen(r#"{"kind": "hotspot", "min": 1, "max": 9, "hotSetFraction": 0.5}"#);
    let back = serde_json::to_value(&g).unwrap();
    assert_eq!(back["kind"], "hotspot");
    assert_eq!(back["hotOpFraction"], 0.8);
    assert!(
        serde_json::from_str::<Generator>(r#"{"kind": "zipf", "n": 10, "exponent": 1}"#).is_err()
    );
    assert!(serde_json::from_str::<Generator>(r#"{"kind": "gaussian"}"#).is_err());
    let w: WorkloadSpec = serde_json::from_str(r#"{"records": 10, "writeRate": 50}"#).unwrap();
    assert_eq!(w.write_rate, 50.0);
    assert!(serde_json::from_str::<WorkloadSpec>(r#"{"records": 10, "rate": 50}"#).is_err());
    let l: RegionLayout = serde_json::from_str(
        r#"{"presplit": {"kind": "hexString", "regions": 4}, "regionServers": 3,
            "autoSplit": {"policy": {"type": "constantSize"}, "config": {"maxFileSize": 1000}},
            "assignment": "balanced"}"#,
    )
    .unwrap();
    assert_eq!(l.region_servers, 3);
    assert_eq!(l.auto_split.unwrap().config.max_file_size, 1000);
    assert!(serde_json::from_str::<RegionLayout>(
        r#"{"presplit": {"kind": "hexString", "regions": 4, "n": 1}}"#
    )
    .is_err());
}

#[test]
fn bad_workloads_get_pointed_errors() {
    /// What a refusal must say: the JSON path, words of the message, or only that it refuses.
    enum Refusal {
        Path(&'static str),
        Message(&'static str),
        Any,
    }
    use Refusal::{Any, Message, Path};
    let bad_rate = WorkloadSpec {
        write_rate: f64::NAN,
        ..spec(10, 0)
    };
    let cases: Vec<(&str, WorkloadSpec, Vec<FieldDecl>, Refusal)> = vec![
        ("0 records", spec(0, 0), vec![], Path("/workload/records")),
        (
            "u64::MAX records",
            spec(u64::MAX, 0),
            vec![],
            Path("/workload/records"),
        ),
        (
            "a NaN write rate",
            bad_rate,
            vec![],
            Path("/workload/writeRate"),
        ),
        (
            "zipf for a boolean",
            spec(10, 0),
            vec![
                field("a", FieldType::String, None),
                field(
                    "b",
                    FieldType::Boolean,
                    Some(r#"{"kind": "zipf", "n": 10}"#),
                ),
            ],
            Path("/fields/1/generator/kind"),
        ),
        (
            "a short sequence past 32767",
            spec(10_000, 0),
            vec![field(
                "s",
                FieldType::Short,
                Some(r#"{"kind": "sequence", "start": 32000}"#),
            )],
            Message("outside"),
        ),
        (
            "two weights for one value",
            spec(10, 0),
            vec![field(
                "w",
                FieldType::String,
                Some(r#"{"kind": "weighted", "values": ["a"], "weights": [1, 2]}"#),
            )],
            Path("/fields/0/generator/weights"),
        ),
        (
            "text in a list of longs",
            spec(10, 0),
            vec![field(
                "l",
                FieldType::Long,
                Some(r#"{"kind": "list", "values": [1, "x"]}"#),
            )],
            Path("/fields/0/generator/values/1"),
        ),
        (
            "a uuid for a long",
            spec(10, 0),
            vec![field("u", FieldType::Long, Some(r#"{"kind": "uuid"}"#))],
            Any,
        ),
        (
            "zipf over 0 values",
            spec(10, 0),
            vec![field(
                "z",
                FieldType::Long,
                Some(r#"{"kind": "zipf", "n": 0}"#),
            )],
            Path("/fields/0/generator/n"),
        ),
    ];
    let mut failures = Failures::new("workloads that are refused");
    for (case, s, fields, want) in cases {
        let e = match WorkloadStream::new(&s, &fields) {
            Ok(_) => {
                failures.fail(case, "accepted");
                continue;
            }
            Err(e) => e,
        };
        match want {
            Path(p) => failures.eq(
                format!("{case}: path of `{e}`"),
                &e.location.path.as_deref(),
                &Some(p),
            ),
            Message(m) => failures.check(
                format!("{case}: message"),
                e.message.contains(m),
                format!(
                    "expected a message containing {m:?}, actual {:?}",
                    e.message
                ),
            ),
            Any => failures.check(case, true, ""),
        };
    }
    failures.finish();
}

#[test]
fn times_in_a_workload_may_be_iso_dates() {
    // 2021-09-01T00:00:00Z is 18,871 days after the epoch: 18,871 × 86,400,000 ms.
    let ms = 18_871i64 * 86_400_000;
    let w: WorkloadSpec =
        serde_json::from_str(r#"{"records": 10, "startTime": "2021-09-01T00:00:00Z"}"#).unwrap();
    assert_eq!(w.start_time, ms);
    let w: WorkloadSpec =
        serde_json::from_str(r#"{"records": 10, "startTime": "2021-09-01T08:00:00+08:00"}"#)
            .unwrap();
    assert_eq!(w.start_time, ms);
    let g = gen(r#"{"kind": "clock", "start": "2021-09-01"}"#);
    assert_eq!(serde_json::to_value(&g).unwrap()["start"], ms);
    let e = rowkey_lab::design::DesignDocument::from_json(
        r#"{"v": 1, "fields": [{"name": "a", "type": "string"}], "key": "a",
            "workload": {"records": 10, "startTime": "yesterday"}}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.location.path.as_deref(),
        Some("/workload/startTime"),
        "{e}"
    );
    assert!(e.message.contains("`yesterday` is not a time"), "{e}");
}
