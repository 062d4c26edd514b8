//! Shared helpers: small advisor options (debug builds run these tests) and presets.

use rowkey_lab::advise::{advise, Advice, AdviseOptions};
use rowkey_lab::design::{presets, DesignDocument};

/// Options small enough for a debug build: 5,000 records, 8 windows.
pub fn small() -> AdviseOptions {
    AdviseOptions {
        records: 5_000,
        windows: 8,
        ..AdviseOptions::default()
    }
}

pub fn preset(id: &str) -> DesignDocument {
    presets::get(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

pub fn advice(doc: &DesignDocument) -> Advice {
    advise(doc, &small()).unwrap_or_else(|e| panic!("advise: {e}"))
}

pub fn doc(json: &str) -> DesignDocument {
    DesignDocument::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}
