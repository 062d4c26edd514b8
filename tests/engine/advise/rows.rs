//! The advisor on a user's rows: a sample of a CSV's rows (every field, the rows of smallest
//! content hash, in file order) through every candidate, as `advise --records FILE` runs it.
//! Each candidate's figures on every row are the analysis of the same rows by the path
//! `analyze --records` takes (`analyze_rows`), and a time-first key over rows in time order is
//! not the recommendation.

use rowkey_lab::advise::{advise_on_rows, AdviseOptions};
use rowkey_lab::analyze::{analyze_rows, row_fields, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::keyspec::CompiledKey;
use rowkey_lab::rows::{RowReader, RowSample, RowScan, RowsOptions};

const ROWS: usize = 20_000;

/// Devices writing one row a second each, in time order, as a log export would hold them.
fn csv() -> String {
    let mut s = String::from("device,ts,kind\n");
    for i in 0..ROWS {
        let t = 1_704_067_200 + i as i64; // 2024-01-01T00:00:00Z
        let (d, h, m, sec) = (
            t / 86_400 - 19_723 + 1,
            (t / 3600) % 24,
            (t / 60) % 60,
            t % 60,
        );
        s.push_str(&format!(
            "dev{:03},2024-01-{d:02}T{h:02}:{m:02}:{sec:02}Z,k{}\n",
            (i * 7919) % 40,
            i % 3
        ));
    }
    s
}

fn design() -> DesignDocument {
    DesignDocument::from_json(
        &serde_json::json!({
            "v": 1,
            "fields": [
                {"name": "device", "type": "string"},
                {"name": "ts", "type": "timestamp"},
                {"name": "kind", "type": "string"}
            ],
            "key": "time(ts, \"yyyyMMddHHmmss\") + \"_\" + device",
            "regions": {"regionServers": 4}
        })
        .to_string(),
    )
    .unwrap()
}

fn rows_opts() -> RowsOptions {
    RowsOptions {
        name: Some("log.csv".into()),
        time: Some("ts".into()),
        ..RowsOptions::default()
    }
}

fn sample(doc: &DesignDocument, text: &str, k: u64) -> RowSample {
    let (fields, used) = row_fields(doc).unwrap();
    let key = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
    let mut scan = RowScan::new(Some(key)).with_row_sample(&fields, k).unwrap();
    let mut reader = RowReader::new(fields, used, rows_opts());
    reader.push(text.as_bytes(), &mut scan).unwrap();
    reader.finish(&mut scan).unwrap();
    scan.take_row_sample().unwrap()
}

#[test]
fn every_candidate_on_every_row_is_the_analysis_of_those_rows() {
    let doc = design();
    let text = csv();
    let all = sample(&doc, &text, 100_000);
    assert_eq!((all.len(), all.file_rows()), (ROWS, ROWS as u64));
    let opts = AdviseOptions {
        threads: 1,
        ..AdviseOptions::default()
    };
    let advice = advise_on_rows(&doc, &opts, &all).unwrap();
    assert_eq!(advice.records, ROWS as u64);
    assert!(advice.basis.contains("your 20000 rows"), "{}", advice.basis);
    // the capacity is the rows': one row a second over 20,000 s, not the default workload's
    // 1,000 records/s; the designs carry the rows' volume
    let span_ms = (ROWS as f64 - 1.0) * 1000.0 + 1.0;
    assert_eq!(advice.capacity.write_rate, ROWS as f64 * 1000.0 / span_ms);
    let w = advice.recommended.design.workload.as_ref().unwrap();
    assert_eq!((w.records, w.start_time), (ROWS as u64, 1_704_067_200_000));
    let analyze = AnalyzeOptions {
        windows: opts.windows,
        sample_size: 0,
        presplit_sample: 10_000,
        ..AnalyzeOptions::default()
    };
    let mut checked = 0;
    for c in &advice.candidates {
        let Some(m) = &c.metrics else {
            panic!("candidate {} ({}) failed: {:?}", c.index, c.label, c.error);
        };
        let (report, stats) =
            analyze_rows(&c.design, &analyze, &rows_opts(), text.as_bytes()).unwrap();
        assert_eq!(stats.used, ROWS as u64);
        assert_eq!(m.records, report.writes, "{}", c.label);
        assert_eq!(
            m.hotspot_factor_overall, report.metrics.overall.hotspot_factor,
            "{}",
            c.label
        );
        assert_eq!(
            m.active_regions_per_window, report.metrics.mean_active_regions,
            "{}",
            c.label
        );
        assert_eq!(m.regions, report.regions.len(), "{}", c.label);
        checked += 1;
    }
    assert!(checked > 3);
    // rows in time order under a time-first key: one region takes each window's writes
    let input = advice.candidates[0].metrics.as_ref().unwrap();
    let pick = &advice.recommended;
    assert_ne!(
        pick.index, 0,
        "the time-first key is recommended: {}",
        pick.label
    );
    assert!(
        pick.metrics.hotspot_factor < input.hotspot_factor,
        "{} {} against {}",
        pick.label,
        pick.metrics.hotspot_factor,
        input.hotspot_factor
    );
}

#[test]
fn a_sample_of_the_rows_is_said_as_one() {
    let doc = design();
    let part = sample(&doc, &csv(), 5_000);
    assert_eq!((part.len(), part.file_rows()), (5_000, ROWS as u64));
    let opts = AdviseOptions {
        threads: 1,
        ..AdviseOptions::default()
    };
    let advice = advise_on_rows(&doc, &opts, &part).unwrap();
    assert_eq!(advice.records, 5_000);
    assert!(
        advice.basis.contains("a sample of 5000 of your 20000 rows"),
        "{}",
        advice.basis
    );
    // the same sample read back from its bytes gives the same answer
    let back = RowSample::from_bytes(&part.to_bytes().unwrap()).unwrap();
    let again = advise_on_rows(&doc, &opts, &back).unwrap();
    assert_eq!(
        serde_json::to_string(&again).unwrap(),
        serde_json::to_string(&advice).unwrap()
    );
}
