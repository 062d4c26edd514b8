//! What a table's regions take now, read beside their key ranges: the SERVER_NAME, SIZE and
//! REQ columns of `list_regions`, and RegionServer `/jmx` dumps (bean `sub=Regions`), whose
//! counters name a region only by its encoded name. The encoded name is the join key: every
//! region name of the text was checked against it, so a dump's counter lands on the one key
//! range it belongs to, or on none (another table, a region the text does not list).

use serde::Serialize;

use super::{column, distinct, parse_error, Name};
use crate::error::{Error, ErrorKind, Result};
use crate::support::json::{parse_prefix, Json, Node};

/// One region of the table and what the text says it takes now. Counts are cumulative since
/// the region opened (HBase keeps no rates), so compare their shares, not their sizes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionLoad {
    /// The region's start key as toStringBinary text (empty for the first region).
    pub start_key: String,
    /// Its encoded name, when the text names the region.
    pub encoded: Option<String>,
    /// The region server holding it: `host,port,startcode` from `list_regions`, the host name
    /// from a `/jmx` dump.
    pub server: Option<String>,
    /// Read and write requests since the region opened: `list_regions`' REQ, or the dump's
    /// two counters added.
    pub requests: Option<u64>,
    /// Read requests (`readRequestCount`, from a `/jmx` dump).
    pub reads: Option<u64>,
    /// Write requests (`writeRequestCount`, from a `/jmx` dump).
    pub writes: Option<u64>,
    /// Store files in MB: `list_regions`' SIZE, or the dump's `storeFileSize` in whole MB.
    pub store_file_mb: Option<u64>,
}

impl RegionLoad {
    fn is_empty(&self) -> bool {
        self.server.is_none() && self.requests.is_none() && self.store_file_mb.is_none()
    }
}

/// The columns `list_regions` prints (its projection picks among them, in this order).
const COLUMNS: [&str; 7] = [
    "SERVER_NAME",
    "REGION_NAME",
    "START_KEY",
    "END_KEY",
    "SIZE",
    "REQ",
    "LOCALITY",
];

/// A `list_regions` header line's column names, or `None` for any other line.
pub(super) fn header(line: &str) -> Option<Vec<&str>> {
    let cols: Vec<&str> = line
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    (cols.contains(&"REGION_NAME") && cols.iter().all(|c| COLUMNS.contains(c))).then_some(cols)
}

/// What one `list_regions` row (`line`, holding the region name at `span`) says, under the
/// column names of the header above it. `None` when the line is not a row of that table.
pub(super) fn row(
    line: &str,
    no: usize,
    span: (usize, usize),
    cols: &[&str],
) -> Result<Option<RegionLoad>> {
    let Some(r) = cols.iter().position(|&c| c == "REGION_NAME") else {
        return Ok(None);
    };
    let (Some(left), Some(right)) = (line.get(..span.0), line.get(span.1..)) else {
        return Ok(None);
    };
    // Every cell is `printf(" %<width>s |")`: the name is followed by ` |`.
    let Some(mut rest) = right.trim_end().strip_prefix(" |") else {
        return Ok(None);
    };
    let after = &cols[r + 1..];
    // Keys may hold ` | ` (toStringBinary does not escape it), numbers never: the numeric
    // cells are read from the right, as many as the header has after its last key column.
    let numeric = after
        .iter()
        .rposition(|&c| c == "START_KEY" || c == "END_KEY")
        .map_or(after, |k| &after[k + 1..]);
    let mut load = RegionLoad::default();
    for &name in numeric.iter().rev() {
        let Some(bar) = rest.strip_suffix('|').map(str::trim_end) else {
            return Ok(None);
        };
        let cut = bar.rfind('|').map_or(0, |i| i + 1);
        let cell = bar.get(cut..).unwrap_or("").trim();
        rest = bar.get(..cut).unwrap_or("");
        let at = (cell.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
        let count = || -> Result<Option<u64>> {
            if cell.is_empty() {
                return Ok(None);
            }
            crate::support::num_text::parse_int(cell, 10)
                .and_then(|n| u64::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| {
                    parse_error(no, column(line, at), format!("the {name} cell `{cell}` of this list_regions row is not a whole number"))
                })
        };
        match name {
            "SIZE" => load.store_file_mb = count()?,
            "REQ" => load.requests = count()?,
            _ => {} // LOCALITY
        }
    }
    if cols[..r].contains(&"SERVER_NAME") {
        let cell = left.trim_end();
        let cell = cell.strip_suffix('|').unwrap_or(cell);
        let from = cell.rfind('|').map_or(0, |i| i + 1);
        let server = cell.get(from..).unwrap_or("").trim();
        if !server.is_empty() {
            load.server = Some(server.to_owned());
        }
    }
    Ok(Some(load))
}

/// The table's regions by encoded name (sorted, through the module's one sort for byte
/// strings), each with a load slot: a dump's counter finds its region by binary search.
/// `list_regions` rows fill a slot first, `/jmx` counters then win over them.
struct Slots {
    encoded: Vec<Vec<u8>>,
    loads: Vec<RegionLoad>,
    /// Whether a `/jmx` dump names the region.
    dumped: Vec<bool>,
}

impl Slots {
    fn new(names: &[&Name]) -> Slots {
        let encoded = distinct(names.iter().map(|n| n.encoded.as_bytes()));
        let loads = vec![RegionLoad::default(); encoded.len()];
        let dumped = vec![false; encoded.len()];
        Slots {
            encoded,
            loads,
            dumped,
        }
    }
    fn index(&self, enc: &[u8]) -> Option<usize> {
        let i = crate::hbase::bytes::lower_bound(&self.encoded, enc);
        self.encoded.get(i).is_some_and(|k| k == enc).then_some(i)
    }
    fn get(&mut self, enc: &[u8]) -> Option<&mut RegionLoad> {
        self.index(enc).and_then(|i| self.loads.get_mut(i))
    }
}

/// What the text's `list_regions` rows say of the regions in `names` (in text order); the
/// number of rows read.
fn listed(text: &str, names: &[&Name], out: &mut Slots) -> Result<usize> {
    let mut rows = names.iter().peekable();
    let (mut cols, mut read) = (None, 0);
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        if rows.peek().is_none() {
            break;
        }
        if let Some(h) = header(line) {
            cols = Some(h);
            continue;
        }
        while let Some(n) = rows.next_if(|n| n.line == no) {
            let Some(c) = &cols else { continue };
            if let (Some(load), Some(slot)) =
                (row(line, no, n.span, c)?, out.get(n.encoded.as_bytes()))
            {
                *slot = load;
                read += 1;
            }
        }
    }
    Ok(read)
}

/// Every `{"beans": …}` document in `text` (a RegionServer's `/jmx` output; one per server,
/// pasted one after another): the counters of `table`'s regions into `out`, the encoded names
/// of the table's regions that are not in `out` into `unknown`; the number of dumps. A document
/// that starts like a dump but does not parse is an error: its regions' load would be missing.
fn dumps(
    text: &str,
    table: &str,
    out: &mut Slots,
    unknown: &mut Vec<Vec<u8>>,
    left_out: &mut LeftOut,
) -> Result<usize> {
    let ours = table.split_once(':').unwrap_or(("default", table));
    let (mut at, mut count) = (0, 0);
    while let Some(start) = next_dump(text, at) {
        let (doc, end) = parse_prefix(text, start).map_err(|e| e.at_path("text"))?;
        at = end;
        count += 1;
        let Json::Obj(top) = &doc.v else { continue };
        for (_, _, beans) in top.iter().filter(|(k, _, _)| k == "beans") {
            let Json::Arr(beans) = &beans.v else { continue };
            for bean in beans {
                regions_bean(bean, ours, out, unknown, left_out);
            }
        }
    }
    Ok(count)
}

/// The offset of the next line from `at` that opens a `/jmx` dump (`{` then `"beans"`).
pub(super) fn next_dump(text: &str, mut at: usize) -> Option<usize> {
    while let Some(rest) = text.get(at..).filter(|r| !r.is_empty()) {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = rest.get(..line_end).unwrap_or("");
        let open = line.len() - line.trim_start().len();
        if line.trim_start().starts_with('{') {
            let after = text.get(at + open + 1..).unwrap_or("").trim_start();
            if after.starts_with("\"beans\"") {
                return Some(at + open);
            }
        }
        at += line_end;
    }
    None
}

/// One region counter of a bean `sub=Regions`: `Namespace_<ns>_table_<t>_region_<encoded>
/// _metric_<name>` (`MetricsRegionSourceImpl`'s names; 0.98 wrote `namespace_`).
pub(super) struct RegionMetric<'a> {
    pub(super) namespace: &'a str,
    pub(super) table: &'a str,
    pub(super) encoded: &'a str,
    pub(super) metric: &'a str,
    /// Counters and sizes are Java longs: JSON integers from 0 to 2^64 − 1; any other value
    /// (negative, fractional, a string, `NaN`, past 2^64) is handed over as it is, for the
    /// reader to say it left that counter out ([`not_a_counter`]).
    pub(super) value: std::result::Result<u64, &'a Node>,
}

/// What a region counter's value is when it is not a whole number from 0 to 2^64 − 1, for
/// the note that says its rates are left out.
pub(super) fn not_a_counter(v: &Node) -> String {
    match &v.v {
        Json::U(n) => n.to_string(),
        Json::I(n) => format!("{n} (negative)"),
        Json::F(f) if f.is_nan() => "NaN (unknown)".into(),
        Json::F(f) if f.is_infinite() => format!("{f} (unknown)"),
        Json::F(f) if f.abs() >= 18_446_744_073_709_551_616.0 => {
            format!("{f:e} (past 2^64 − 1)")
        }
        Json::F(f) => format!("{f} (not a whole number)"),
        Json::Str(_) => "a string".into(),
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Arr(_) => "an array".into(),
        Json::Obj(_) => "an object".into(),
    }
}

/// The first counter a `/jmx` reader left out and how many there were: one note per text.
#[derive(Debug, Default)]
pub(super) struct LeftOut {
    pub(super) count: usize,
    /// The first: its metric, region, value as [`not_a_counter`] says it, byte offset.
    first: Option<(String, String, String, usize)>,
}

impl LeftOut {
    pub(super) fn add(&mut self, m: &RegionMetric<'_>, v: &Node) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((
                m.metric.to_owned(),
                m.encoded.to_owned(),
                not_a_counter(v),
                v.pos,
            ));
        }
    }
    /// The note, located in `text`: `None` when nothing was left out.
    pub(super) fn note(&self, text: &str) -> Option<String> {
        let (metric, encoded, value, pos) = self.first.as_ref()?;
        let (line, column) = crate::support::json::line_col(text, *pos);
        Some(format!(
            "{} region counter(s) in the /jmx dump(s) are not whole numbers from 0 to 2^64 − 1 and are left out, so those regions have no rate from them: the first at line {line}, column {column}, `{metric}` of region {encoded} is {value}",
            self.count
        ))
    }
}

/// A bean's members when it is `sub=Regions` (its `name` ends so), else `None`.
pub(super) fn regions_bean_members(bean: &Node) -> Option<&[(String, usize, Node)]> {
    let Json::Obj(kv) = &bean.v else { return None };
    bean_text(kv, "name")
        .is_some_and(|n| n.ends_with("sub=Regions"))
        .then_some(kv.as_slice())
}

/// The text of member `k` of a bean, when it is a string.
pub(super) fn bean_text<'a>(kv: &'a [(String, usize, Node)], k: &str) -> Option<&'a str> {
    kv.iter().find_map(|(key, _, v)| match &v.v {
        Json::Str(s) if key == k => Some(s.as_str()),
        _ => None,
    })
}

/// The region counters among a bean's members; store-level keys (`_store_<family>_metric_`)
/// and members that are not counters are skipped.
pub(super) fn region_metrics(
    kv: &[(String, usize, Node)],
) -> impl Iterator<Item = RegionMetric<'_>> {
    kv.iter().filter_map(|(key, _, v)| {
        let value = match v.v {
            Json::U(n) => Ok(n),
            _ => Err(v),
        };
        let rest = key
            .get(..10)
            .filter(|p| p.eq_ignore_ascii_case("namespace_"))
            .and_then(|_| key.get(10..))?;
        // The first `_region_<32 hex>_metric_`: a table name may hold `_region_`, a metric
        // name never does.
        let mut from = 0;
        loop {
            let at = from + rest.get(from..)?.find("_region_")?;
            from = at + 1;
            let after = rest.get(at + 8..)?;
            let (Some(enc), Some(metric)) = (after.get(..32), after.get(32..)) else {
                continue;
            };
            if !enc.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
                continue;
            }
            let Some(metric) = metric.strip_prefix("_metric_") else {
                continue;
            };
            let (namespace, table) = rest.get(..at)?.split_once("_table_")?;
            return Some(RegionMetric {
                namespace,
                table,
                encoded: enc,
                metric,
                value,
            });
        }
    })
}

/// The counters of one bean `sub=Regions` of table `ns:t` (`table`).
fn regions_bean(
    bean: &Node,
    table: (&str, &str),
    out: &mut Slots,
    unknown: &mut Vec<Vec<u8>>,
    left_out: &mut LeftOut,
) {
    let Some(kv) = regions_bean_members(bean) else {
        return;
    };
    let host = bean_text(kv, "tag.Hostname");
    for m in region_metrics(kv).filter(|m| (m.namespace, m.table) == table) {
        let enc = m.encoded;
        let Some(i) = out.index(enc.as_bytes()) else {
            unknown.push(enc.as_bytes().to_vec());
            continue;
        };
        let (Some(load), Some(dumped)) = (out.loads.get_mut(i), out.dumped.get_mut(i)) else {
            continue;
        };
        *dumped = true;
        if load.server.is_none() {
            load.server = host.map(str::to_owned);
        }
        if !matches!(
            m.metric,
            "readRequestCount" | "writeRequestCount" | "storeFileSize"
        ) {
            continue;
        }
        let n = match m.value {
            Ok(n) => n,
            Err(v) => {
                left_out.add(&m, v);
                continue;
            }
        };
        match m.metric {
            "readRequestCount" => load.reads = Some(n),
            "writeRequestCount" => load.writes = Some(n),
            "storeFileSize" => {
                load.store_file_mb = Some(n >> 20);
                continue;
            }
            _ => continue,
        }
        // The dump's two counters replace list_regions' REQ.
        load.requests = Some(
            load.reads
                .unwrap_or(0)
                .saturating_add(load.writes.unwrap_or(0)),
        );
    }
}

/// The load of each region in key order (`first` is the table's first region, then one per
/// split key in `starts`), from the text's `list_regions` rows and `/jmx` dumps; empty when
/// the text says nothing of any region's load. `names` are the table's region names.
pub(super) fn measure(
    text: &str,
    names: &[&Name],
    table: &str,
    starts: &[Vec<u8>],
    notes: &mut Vec<String>,
) -> Result<Vec<RegionLoad>> {
    let mut slots = Slots::new(names);
    let rows = listed(text, names, &mut slots)?;
    let mut unknown = Vec::new();
    let mut left_out = LeftOut::default();
    let dump_count = dumps(text, table, &mut slots, &mut unknown, &mut left_out)?;
    // The name holding each region (the first, then one per split key in `starts`): of the
    // names sharing a start key (a split parent and its first daughter), the newer.
    let mut holder: Vec<Option<&Name>> = vec![None; starts.len() + 1];
    for &n in names.iter().filter(|n| !n.replica) {
        let at = if n.start.is_empty() {
            0
        } else {
            crate::hbase::bytes::lower_bound(starts, &n.start) + 1
        };
        if let Some(h) = holder.get_mut(at) {
            if h.map_or(true, |o| n.id > o.id) {
                *h = Some(n);
            }
        }
    }
    let mut used = 0;
    let loads: Vec<RegionLoad> = std::iter::once(&[][..])
        .chain(starts.iter().map(Vec::as_slice))
        .zip(&holder)
        .map(|(start, n)| {
            let slot = n.and_then(|n| slots.index(n.encoded.as_bytes()));
            let mut load = slot
                .and_then(|i| slots.loads.get(i))
                .cloned()
                .unwrap_or_default();
            if slot.is_some_and(|i| slots.dumped.get(i) == Some(&true)) {
                used += 1;
            }
            load.start_key = crate::hbase::bytes::to_string_binary(start);
            load.encoded = n.map(|n| n.encoded.clone());
            load
        })
        .collect();
    if rows > 0 {
        notes.push(format!("load: SERVER_NAME, SIZE and REQ of {rows} region(s) read from list_regions (REQ counts reads and writes since each region opened)"));
    }
    if dump_count > 0 {
        notes.push(format!(
            "load: reads and writes of {used} region(s) read from {dump_count} /jmx dump(s)"
        ));
        let other = distinct(unknown.iter().map(Vec::as_slice)).len();
        if other > 0 {
            notes.push(format!("{other} region(s) of table `{table}` in the /jmx dump(s) are not among the regions read (split or merged since, or left out of the text): their load is not counted"));
        }
        notes.extend(left_out.note(text));
    }
    Ok(if loads.iter().all(RegionLoad::is_empty) {
        Vec::new()
    } else {
        loads
    })
}

/// `/jmx` dumps without region names: their counters have no key ranges to land on.
pub(super) fn refuse_bare_dumps(text: &str) -> Result<()> {
    if next_dump(text, 0).is_some() {
        return Err(Error::new(ErrorKind::Parse, "a /jmx dump names regions only by their encoded name, without key ranges: paste `list_regions` or a `scan 'hbase:meta'` of the table with it").at_path("text"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
