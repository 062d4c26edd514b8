//! Where a layout puts its regions: a rule (round-robin, balanced by count) or a table's own
//! placement, one named server per region.

use serde::Serialize;

use crate::hbase::bytes;

/// How regions are placed on region servers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Assignment {
    /// Region `i` (in key order at creation) goes to server `i mod servers`; a daughter of a
    /// split stays on its parent's server, as HBase does until the balancer runs.
    #[default]
    RoundRobin,
    /// Each new region goes to the server with the fewest regions (the balancer's count rule).
    Balanced,
    /// `{"servers": [...]}`: region `i` at creation (key order) on the server named
    /// `servers[i]`, the table's placement as it stands (`readRegions` gives it from
    /// `list_regions` or `/jmx` dumps); a daughter stays on its parent's server, as with
    /// `roundRobin`. Servers are numbered in the order their names first appear.
    Servers(Vec<String>),
}

/// An explicit placement, as the analyzer uses it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    /// The distinct server names, in the order they first appear.
    pub names: Vec<String>,
    /// Region `i`'s server, an index into `names`.
    pub servers: Vec<u32>,
}

impl Assignment {
    /// The servers a placement by names counts (its distinct names); 1 for a rule, whose
    /// server count comes from `regionServers`.
    pub fn server_count(&self) -> u32 {
        let n = self.placement().map_or(1, |p| p.names.len().max(1));
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The placement `Servers` names; `None` for the rules that place regions themselves.
    /// Names are matched through one sort of byte strings (the module's shared one), so
    /// 100,000 regions on 10,000 servers take n log n, not n × servers.
    pub fn placement(&self) -> Option<Placement> {
        let Assignment::Servers(names) = self else {
            return None;
        };
        let bytes: Vec<Vec<u8>> = names.iter().map(|n| n.as_bytes().to_vec()).collect();
        let mut distinct = bytes::sorted_keys(&bytes);
        distinct.dedup();
        // `order[d]`: 1 + the server number of the d-th name in byte order, given on first
        // sight (0: not seen yet).
        let mut order = vec![0u32; distinct.len()];
        let mut p = Placement::default();
        for (name, b) in names.iter().zip(&bytes) {
            let d = bytes::lower_bound(&distinct, b);
            let Some(slot) = order.get_mut(d) else {
                continue;
            };
            if *slot == 0 {
                p.names.push(name.clone());
                *slot = u32::try_from(p.names.len()).unwrap_or(u32::MAX);
            }
            p.servers.push(*slot - 1);
        }
        Some(p)
    }
}
