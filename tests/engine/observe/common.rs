//! Reading fixtures and comparing rates.

use std::path::PathBuf;

use rowkey_lab::region::series::{read_series, RegionSeries, SnapshotFile};

/// `tests/fixtures/observe/<dir>`'s files as (name, text), by name (a folder's order).
pub fn fixture_dir(dir: &str) -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/observe")
        .join(dir);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// The series of `files` (name, text), with no modification times.
pub fn series(files: &[(String, String)], table: Option<&str>) -> rowkey_lab::Result<RegionSeries> {
    let input: Vec<SnapshotFile<'_>> = files
        .iter()
        .map(|(name, text)| SnapshotFile {
            name,
            text,
            modified_ms: None,
        })
        .collect();
    read_series(&input, table)
}

/// `got` equals `want` to 1e-9 (both absent, or both present).
#[track_caller]
pub fn near(got: Option<f64>, want: Option<f64>, what: &str) {
    match (got, want) {
        (Some(g), Some(w)) => assert!((g - w).abs() < 1e-9, "{what}: got {g}, want {w}"),
        (None, None) => {}
        _ => panic!("{what}: got {got:?}, want {want:?}"),
    }
}
