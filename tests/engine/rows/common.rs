//! Exact counts of a document's writes: every generated record's row key (and column
//! qualifier), counted in hash maps, to hold the sketches to.

use std::collections::HashMap;

use rowkey_lab::analyze::{document_encoder, AnalysisReport};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::workload::{FieldValue, Record, WorkloadStream};

/// One generated record's row key and field values.
pub struct Write {
    pub key: Vec<u8>,
    pub values: Vec<FieldValue>,
}

/// Every write of `doc`'s workload, generated and encoded one by one.
pub fn writes(doc: &DesignDocument) -> Vec<Write> {
    let spec = doc.workload.clone().unwrap_or_default();
    let mut stream = WorkloadStream::new(&spec, &doc.fields).unwrap();
    let mut encode = document_encoder(doc).unwrap();
    let mut rec = Record::default();
    let mut key = Vec::new();
    let mut all = Vec::new();
    while stream.next_into(&mut rec) {
        key.clear();
        encode(&rec, &mut key).unwrap();
        all.push(Write {
            key: key.clone(),
            values: rec.values.clone(),
        });
    }
    all
}

/// Writes per row key.
pub fn per_row(writes: &[Write]) -> HashMap<Vec<u8>, u64> {
    let mut m = HashMap::new();
    for w in writes {
        *m.entry(w.key.clone()).or_insert(0) += 1;
    }
    m
}

/// `|estimate - exact| <= bound × exact`, the bound being relative (the engine's reported bound,
/// three standard errors): a message if not.
pub fn within(what: &str, estimate: u64, exact: u64, bound: f64) -> Result<(), String> {
    let diff = (estimate as f64 - exact as f64).abs();
    if diff <= bound * exact as f64 {
        Ok(())
    } else {
        Err(format!(
            "{what}: estimate {estimate}, exact {exact}: off by {:.3} %, more than its bound {:.3} %",
            diff * 100.0 / exact as f64,
            bound * 100.0
        ))
    }
}

/// The relative error of an estimate, for the printed measurements.
pub fn rel(estimate: u64, exact: u64) -> f64 {
    (estimate as f64 - exact as f64).abs() / exact as f64
}

/// A document from JSON text.
pub fn doc(text: &str) -> DesignDocument {
    DesignDocument::from_json(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The final region of each key: the number of region start keys (after the first) at or
/// below it.
pub fn region_of(report: &AnalysisReport, key: &[u8]) -> usize {
    let starts: Vec<Vec<u8>> = report
        .regions
        .iter()
        .skip(1)
        .map(|g| rowkey_lab::hbase::bytes::from_hex(&g.start_key_hex).unwrap())
        .collect();
    starts.iter().filter(|s| s.as_slice() <= key).count()
}

/// The analysis options that count with the sketches alone (`exactRows: false`): a workload
/// this small is otherwise counted exactly, and these tests hold the sketches to the truth.
pub fn sketch() -> rowkey_lab::analyze::AnalyzeOptions {
    rowkey_lab::analyze::AnalyzeOptions {
        exact_rows: false,
        ..Default::default()
    }
}
