//! Server placement: named servers decide the split size (stepping policy) and the load per
//! server; placement errors name the field; servers are numbered in order of first sight.

use rowkey_lab::analyze::{Analyzer, AnalyzerOptions};
use rowkey_lab::hbase::policy::SplitPolicy;
use rowkey_lab::region::Assignment;

use super::common::{auto, mix, names, opts, T0};

/// Four regions cut at "b", "c", "d", placed on named servers; `hot` writes 5,000 rows of
/// 1,000 bytes into the region starting with `prefix` under the stepping policy.
fn placed(
    assignment: Assignment,
    servers: u32,
    prefix: &str,
) -> rowkey_lab::analyze::AnalysisReport {
    let o = AnalyzerOptions {
        auto_split: Some(auto(SplitPolicy::Stepping, 1 << 22, 1 << 16)),
        region_servers: servers,
        assignment,
        ..opts(10, 1000)
    };
    let keys = vec![b"b".to_vec(), b"c".to_vec(), b"d".to_vec()];
    let mut a = Analyzer::new(keys, o).unwrap();
    for i in 0..5000u64 {
        let key = format!("{prefix}{:016x}", mix(i));
        a.push(key.as_bytes(), T0 + i as i64, 1000);
    }
    a.finish()
}

#[test]
fn named_placement_decides_the_split_size_and_the_server_load() {
    // Stepping: a region that is its table's only one on its server splits at 2 x the flush
    // size (128 KiB), else at the max file size (4 MiB).
    let xy = || names(&["x", "x", "x", "y"]);
    // Region 3 alone on "y": its first split comes at 128 KiB.
    let r = placed(xy(), 2, "d");
    let first = &r.splits[0];
    assert_eq!((first.size_to_check, first.regions_on_server), (131_072, 1));
    assert_eq!(r.servers[0].name.as_deref(), Some("x"));
    assert_eq!(r.servers[1].name.as_deref(), Some("y"));
    assert_eq!((r.servers[0].rows, r.servers[1].rows), (0, 5000));
    // Daughters stay on their parent's server: every region created by a split is on "y".
    assert_eq!(r.servers[0].regions, 3);
    assert_eq!(r.servers[1].regions, 1 + r.splits.len());
    assert_eq!(r.server_metrics.busiest_share, 1.0);
    // The same rows on round-robin placement share "y" (server 1) with region 1: 4 MiB.
    let rr = placed(Assignment::RoundRobin, 2, "d");
    assert_eq!(rr.splits[0].size_to_check, 1 << 22);
    assert_eq!(rr.splits[0].regions_on_server, 2);
    assert_eq!(rr.servers[1].name, None);
    // Region 0 on "x" with two more regions of the table: 4 MiB.
    let r = placed(xy(), 2, "a");
    assert_eq!(
        (r.splits[0].size_to_check, r.splits[0].regions_on_server),
        (1 << 22, 3)
    );
    // A server the table has no region on counts in the server metrics, without a name.
    let r = placed(xy(), 3, "a");
    assert_eq!(r.servers.len(), 3);
    assert_eq!(
        (r.servers[2].name.as_deref(), r.servers[2].regions),
        (None, 0)
    );
    assert_eq!(r.server_metrics.regions, 3);
}

#[test]
fn named_placement_errors_name_the_field() {
    let new = |a: Assignment, servers: u32| {
        let o = AnalyzerOptions {
            region_servers: servers,
            assignment: a,
            ..opts(4, 1000)
        };
        let keys = vec![b"b".to_vec(), b"c".to_vec(), b"d".to_vec()];
        Analyzer::new(keys, o).unwrap_err()
    };
    let e = new(names(&["x", "y", "x"]), 2);
    assert_eq!(
        e.location.path.as_deref(),
        Some("/regions/assignment/servers")
    );
    assert!(
        e.message.contains("3 servers for the table's 4 regions"),
        "{e}"
    );
    let e = new(names(&["x", "y", "z", "x"]), 2);
    assert_eq!(e.location.path.as_deref(), Some("/regions/regionServers"));
    assert!(e.message.contains("on 3 servers"), "{e}");
}

#[test]
fn placement_numbers_servers_in_order_of_first_sight() {
    let p = names(&["b", "a", "b", "c", "a"]).placement().unwrap();
    assert_eq!(p.names, ["b", "a", "c"]);
    assert_eq!(p.servers, [0, 1, 0, 2, 1]);
    assert!(Assignment::RoundRobin.placement().is_none());
    // 100,000 regions on 10,000 servers, named in reverse: region i is on server i mod 10,000.
    let many: Vec<String> = (0..100_000u32)
        .map(|i| format!("rs{:05}", 9_999 - i % 10_000))
        .collect();
    let p = Assignment::Servers(many).placement().unwrap();
    assert_eq!(p.names.len(), 10_000);
    assert_eq!(p.names[0], "rs09999");
    assert!(p
        .servers
        .iter()
        .enumerate()
        .all(|(i, &s)| s as usize == i % 10_000));
}
