//! The readers' small parts: times in file names, Ruby's dump undone, server names.

use super::read::{file_time, Server};

#[test]
fn times_in_file_names() {
    // 2026-11-26T05:36:00Z, worked out by `date -u -d 2026-11-26T05:36:00Z +%s`.
    let t = 1_795_671_360_000;
    assert_eq!(file_time("20261126T053600Z-rs1.json"), Some(t));
    assert_eq!(file_time("dir/2026-11-26T05:36:00Z.json"), Some(t));
    assert_eq!(
        file_time("2026-11-26T05-36-00.250Z_rs1.json"),
        Some(t + 250)
    );
    assert_eq!(file_time("rs1-1795671360000.json"), Some(t));
    // What `rowkey-lab watch` writes.
    assert_eq!(
        file_time("20261126T053600.250Z-rs1.example.internal_16030.json"),
        Some(t + 250)
    );
    // A 12- or 14-digit run is not epoch ms; a month 13 is not a date.
    assert_eq!(file_time("rs1-179567136000.json"), None);
    assert_eq!(file_time("rs1-17956713600001.json"), None);
    assert_eq!(file_time("20261326T053600Z.json"), None);
    assert_eq!(file_time("rs1.json"), None);
}

#[test]
fn server_names() {
    let s = Server::parse("rs1.example.internal,16020,1700000000123");
    assert_eq!(s.name(), "rs1.example.internal,16020,1700000000123");
    let restarted = Server::parse("rs1.example.internal,16020,1700000009999");
    assert!(s.reopened_on(&restarted));
    assert!(!s.reopened_on(&Server::host("rs1.example.internal")));
    assert!(s.reopened_on(&Server::host("rs2.example.internal")));
}
