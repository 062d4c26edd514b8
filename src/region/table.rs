//! A table's current regions, read back from what HBase prints, so a key design can be tried
//! on the table as it stands (`regions.presplit` of a design document).
//!
//! Four kinds of text are read, tried in this order:
//!
//! * **Region names** (`events,\x01,1700000000000.e2388f30e27d4b2ce98a8810557b1aba.`), found
//!   anywhere in the text: `list_regions`, `scan 'hbase:meta'`, the master's table page,
//!   RegionSplitter's log. The start key sits between the table name and the region id, and
//!   may itself hold `,`, `|` or `'`, which none of those outputs escape; so each name is
//!   checked against its encoded part, the MD5 of `table,start key,id` (`RegionInfo.
//!   createRegionName`), and only the reading whose MD5 matches is taken. A name that no
//!   reading matches (a wrapped or edited line) is an error, never a guess. So is a name the
//!   shell's line wrapping cut short (`scan 'hbase:meta'` wraps its columns) unless the text
//!   names that region in full elsewhere: the region would be missing.
//! * A shell **`create`** statement: `SPLITS => ['a', 'b']`, or `NUMREGIONS` with a
//!   `SPLITALGO` of RegionSplitter's (which becomes that algorithm's pre-split).
//! * A **bracketed list** of quoted keys: the page's JSON, or the shell's `=> [...]` echo.
//! * One toStringBinary key per **line**: `get_splits` output (its `Total number of splits`
//!   line is checked against the keys that follow) or a `SPLITS_FILE`.
//!
//! Keys go through `Bytes.toBytesBinary`, as the shell does with every split key.

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes::{sorted_keys, to_bytes_binary_str, to_string_binary};
use crate::hbase::hash::md5_as_hex;
use crate::region::{Assignment, KeyEncoding, PreSplit, MAX_REGIONS};

/// What kind of text the regions were read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RegionSource {
    /// Region names, each checked against its MD5.
    RegionNames,
    /// A shell `create` statement.
    Create,
    /// A bracketed list of quoted keys.
    List,
    /// One key per line: `get_splits` or a `SPLITS_FILE`.
    Lines,
}

/// A table's regions as a design's pre-split.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionList {
    /// What the text was.
    pub source: RegionSource,
    /// The table the text names, when it names one.
    pub table: Option<String>,
    /// The number of regions.
    pub regions: u32,
    /// The regions as `regions.presplit` of a design: explicit toStringBinary keys, sorted,
    /// or RegionSplitter's algorithm for a `create` with `SPLITALGO`.
    pub presplit: PreSplit,
    /// Region names whose MD5 checked out (0 for the other sources).
    pub verified: u32,
    /// What was skipped or looks odd (replicas, a missing first region, edge spaces), and
    /// where the load came from.
    pub notes: Vec<String>,
    /// What each region takes now, in key order (one per region), when the text says:
    /// `list_regions`' SERVER_NAME, SIZE and REQ, `/jmx` dumps' counters. Empty otherwise.
    pub load: Vec<RegionLoad>,
    /// The regions' servers as `regions.assignment` of a design (`{"servers": [...]}`, one
    /// per region in key order), when `load` names every region's server; else `None`.
    pub assignment: Option<Assignment>,
    /// Each region's share of the load `load` counted, when it counted any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_shares: Option<LoadShares>,
}

/// Which counter the load shares are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LoadCounter {
    /// Writes, from a `/jmx` dump's `writeRequestCount`.
    Writes,
    /// Read and write requests, from `list_regions`' REQ (a dump without write counts).
    Requests,
}

/// Each region's share of a table's measured load, in key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadShares {
    /// The counter the shares are of: writes when the text counted any, else requests.
    pub what: LoadCounter,
    /// The counter summed over the regions.
    pub total: u64,
    /// Each region's share, summing to 1.
    pub shares: Vec<f64>,
    /// The region with the largest share (the first of equals).
    pub busiest: usize,
}

impl LoadShares {
    /// The shares of `load` (one entry per region), or `None` when it counted nothing.
    pub fn of(load: &[RegionLoad]) -> Option<LoadShares> {
        let what = if load.iter().any(|l| l.writes.is_some()) {
            LoadCounter::Writes
        } else {
            LoadCounter::Requests
        };
        let counts: Vec<u64> = load
            .iter()
            .map(|l| match what {
                LoadCounter::Writes => l.writes,
                LoadCounter::Requests => l.requests,
            })
            .map(|c| c.unwrap_or(0))
            .collect();
        let total = counts.iter().fold(0u64, |a, &c| a.saturating_add(c));
        if total == 0 {
            return None;
        }
        let shares: Vec<f64> = counts.iter().map(|&c| c as f64 / total as f64).collect();
        let busiest = shares
            .iter()
            .enumerate()
            .fold(0, |best, (i, &x)| if x > shares[best] { i } else { best });
        Some(LoadShares {
            what,
            total,
            shares,
            busiest,
        })
    }
}

/// Longest start key text tried in a region name: HBase row keys are at most 32,767 bytes,
/// and toStringBinary writes a byte in at most four characters.
const MAX_KEY_TEXT: usize = 4 * 32_767;
/// Longest `namespace:table` tried (HBase caps each part well below this).
const MAX_TABLE: usize = 512;
/// Commas tried, right to left, before a region id as the end of the table name.
const MAX_COMMAS: usize = 64;

fn parse_error(line: usize, column: usize, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, message)
        .at_path("text")
        .at_line_col(line, column)
}

/// 1-based character column of byte `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(at, |s| s.chars().count()) + 1
}

/// Read a table's regions from `text` (see the module docs for the forms). `table` picks one
/// table when the text has region names of several.
pub fn read_regions(text: &str, table: Option<&str>) -> Result<RegionList> {
    let mut list = read_list(text, table)?;
    check_region_count(list.regions as usize)?;
    list.load_shares = LoadShares::of(&list.load);
    Ok(list)
}

/// A table of `n` regions held to [`MAX_REGIONS`], the most a layout may have.
fn check_region_count(n: usize) -> Result<()> {
    if n > MAX_REGIONS as usize {
        return Err(crate::limits::limit_error(
            "text",
            format!("a table of {n} regions"),
            format!("{MAX_REGIONS} regions"),
            "the most a region layout may have (region::MAX_REGIONS)",
        ));
    }
    Ok(())
}

fn read_list(text: &str, table: Option<&str>) -> Result<RegionList> {
    crate::limits::check_text_bytes(
        "text",
        "region text",
        text.len(),
        crate::limits::MAX_REGION_TEXT_BYTES,
    )?;
    if text.trim().is_empty() {
        return Err(Error::new(ErrorKind::Parse, "the text is empty: paste the output of `get_splits`, `list_regions` or `scan 'hbase:meta'`, a SPLITS_FILE or a `create` statement").at_path("text"));
    }
    let (mut names, mut cuts) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        names_in_line(line, i + 1, &mut names, &mut cuts)?;
        // `scan 'hbase:meta'` names a region on a few lines (info:regioninfo, server, state…):
        // far past that many names per region, stop before reading the rest.
        if names.len() > 16 * MAX_REGIONS as usize {
            check_region_count(names.len() / 16)?;
        }
    }
    // A wrapped line can cut the only full copy of a name: that region would be missing. The
    // full names as `,<id>[_<replica>].<encoded>`, sorted, and each cut looked up as a prefix.
    if !cuts.is_empty() {
        let full: Vec<Vec<u8>> = names
            .iter()
            .map(|n| [n.tail.as_bytes(), b".", n.encoded.as_bytes()].concat())
            .collect();
        let full = sorted_keys(&full);
        for c in &cuts {
            let cut = c.text.as_bytes();
            let at = crate::hbase::bytes::lower_bound(&full, cut);
            if !full.get(at).is_some_and(|k| k.starts_with(cut)) {
                return Err(parse_error(c.line, c.column, format!("a region name is cut here (`{}`; the shell wraps long lines) and the text names no region with that id and encoded name in full: that region would be missing. Paste `list_regions` or the output of a wider terminal", c.text)));
            }
        }
    }
    if !names.is_empty() {
        return from_names(text, names, table);
    }
    load::refuse_bare_dumps(text)?;
    if let Some(r) = from_create(text)? {
        return Ok(r);
    }
    let trimmed = text.trim();
    if trimmed.starts_with('[') {
        let (line, col) = line_col_of(text, text.len() - text.trim_start().len());
        let keys = list_at(trimmed, line, col)?;
        return explicit(RegionSource::List, None, keys, &[], Vec::new());
    }
    from_lines(text)
}

// ---- region names -------------------------------------------------------------------------

/// One region name found in the text.
struct Name {
    /// Where it is: 1-based line, and its byte range in that line.
    line: usize,
    span: (usize, usize),
    /// The region id (its creation time in ms): of two names with one start key, the newer is
    /// the region that holds the range now.
    id: u64,
    table: String,
    start: Vec<u8>,
    /// A read replica (`_0001` …), not a region of its own.
    replica: bool,
    /// `,<id>[_<replica>]`
    tail: String,
    encoded: String,
}

const fn is_table_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':')
}

/// A region name cut short, as the shell's wrapping of long lines leaves one: `,<id>.` and
/// fewer than 32 hex digits, or no closing dot.
struct Cut {
    line: usize,
    column: usize,
    /// `,<id>[_<replica>].<hex so far>`
    text: String,
}

/// Every region name in `line` (one ending in `,<id>[_<replica>].<32 hex>.`), each checked
/// against its MD5, and every name cut short (`cuts`; the caller checks that the text names
/// each in full elsewhere).
fn names_in_line(line: &str, no: usize, out: &mut Vec<Name>, cuts: &mut Vec<Cut>) -> Result<()> {
    let b = line.as_bytes();
    let mut p = 0;
    while let Some(off) = b.get(p..).and_then(|s| s.iter().position(|&c| c == b'.')) {
        let dot = p + off;
        p = dot + 1;
        let hex = b[dot + 1..]
            .iter()
            .take(33)
            .take_while(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
            .count();
        let whole = hex == 32 && b.get(dot + 33) == Some(&b'.');
        if hex > 32 || (!whole && b.get(dot + 1 + hex) == Some(&b'.')) {
            continue;
        }
        // Back from the dot: an optional `_<replica, hex>`, then the decimal region id.
        let mut q = dot;
        while q > 0 && b[q - 1].is_ascii_hexdigit() && !b[q - 1].is_ascii_lowercase() {
            q -= 1;
        }
        let mut replica = false;
        let mut id_end = dot;
        if q > 1 && q < dot && b[q - 1] == b'_' && b[q - 2].is_ascii_digit() {
            replica = b[q..dot].iter().any(|&d| d != b'0');
            id_end = q - 1;
        }
        let mut id_start = id_end;
        while id_start > 0 && b[id_start - 1].is_ascii_digit() {
            id_start -= 1;
        }
        if id_start == id_end || id_start == 0 || b[id_start - 1] != b',' {
            continue;
        }
        let key_end = id_start - 1;
        if !whole {
            // Region ids are creation times in ms (13 digits): a short number before a dot is
            // text, not a cut name.
            if id_end - id_start >= 10 {
                cuts.push(Cut {
                    line: no,
                    column: column(line, key_end),
                    text: line.get(key_end..dot + 1 + hex).unwrap_or("").to_owned(),
                });
            }
            continue;
        }
        // Both ASCII, as checked above.
        let (encoded, tail) = (
            line.get(dot + 1..dot + 33).unwrap_or("").to_owned(),
            line.get(key_end..dot).unwrap_or(""), // `,<id>[_<replica>]`
        );
        let Some((t0, table, start)) = candidate(line, key_end, tail.as_bytes(), &encoded) else {
            return Err(parse_error(
                no,
                column(line, key_end),
                format!(
                    "the region name ending `{tail}.{encoded}.` does not check out: no `table,start key` before it has the MD5 {encoded} (was the line wrapped or edited?)"
                ),
            ));
        };
        let id = b[id_start..id_end].iter().fold(0u64, |n, d| {
            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        });
        out.push(Name {
            line: no,
            span: (t0, dot + 34),
            id,
            table,
            start,
            replica,
            tail: tail.to_owned(),
            encoded,
        });
        p = dot + 34;
    }
    Ok(())
}

/// The `(where the name starts, table, start key)` before byte `key_end` of `line` whose region
/// name (`table,start key` + `tail`) has the MD5 `encoded`: the commas right to left, each as
/// the end of the table name.
fn candidate(
    line: &str,
    key_end: usize,
    tail: &[u8],
    encoded: &str,
) -> Option<(usize, String, Vec<u8>)> {
    let b = line.as_bytes();
    let (mut c, mut commas) = (key_end, 0);
    while c > 0 && commas < MAX_COMMAS && key_end - c <= MAX_KEY_TEXT {
        c -= 1;
        if b[c] != b',' {
            continue;
        }
        commas += 1;
        let lo = c.saturating_sub(MAX_TABLE);
        let mut t0 = c;
        while t0 > lo && is_table_char(b[t0 - 1]) {
            t0 -= 1;
        }
        if t0 == c || (t0 == lo && lo > 0 && is_table_char(b[lo - 1])) {
            continue;
        }
        let (Some(tname), Some(key_text)) = (line.get(t0..c), line.get(c + 1..key_end)) else {
            continue;
        };
        let start = to_bytes_binary_str(key_text);
        let mut whole = Vec::with_capacity(tname.len() + start.len() + tail.len() + 1);
        whole.extend_from_slice(tname.as_bytes());
        whole.push(b',');
        whole.extend_from_slice(&start);
        whole.extend_from_slice(tail);
        if md5_as_hex(&whole) == encoded {
            return Some((t0, tname.to_owned(), start));
        }
    }
    None
}

fn from_names(text: &str, names: Vec<Name>, table: Option<&str>) -> Result<RegionList> {
    let tables = distinct(names.iter().map(|n| n.table.as_bytes()));
    let tables: Vec<&str> = tables
        .iter()
        .filter_map(|t| std::str::from_utf8(t).ok())
        .collect();
    // Region names of the default namespace's tables carry no `default:`.
    let table = match table.map(|t| t.strip_prefix("default:").unwrap_or(t)) {
        Some(t) if tables.contains(&t) => t.to_owned(),
        Some(t) => {
            return Err(Error::arg(
                "table",
                format!(
                    "the text has no regions of table `{t}`; it names {}",
                    quoted_list(&tables)
                ),
            ))
        }
        None if tables.len() == 1 => tables[0].to_owned(),
        None => {
            return Err(Error::arg(
                "table",
                format!(
                    "the text has regions of {} tables ({}): say which table to read",
                    tables.len(),
                    quoted_list(&tables)
                ),
            ))
        }
    };
    let ours: Vec<&Name> = names.iter().filter(|n| n.table == table).collect();
    let regions_of = |replica: bool| {
        distinct(
            ours.iter()
                .filter(|n| n.replica == replica)
                .map(|n| n.encoded.as_bytes()),
        )
        .len()
    };
    let (primary, replicas) = (regions_of(false), regions_of(true));
    let verified = u32::try_from(primary + replicas).unwrap_or(u32::MAX);
    let mut starts = distinct(ours.iter().filter(|n| !n.replica).map(|n| &n.start[..]));
    let mut notes = Vec::new();
    if replicas > 0 {
        notes.push(format!(
            "{replicas} read replica region(s) skipped: they copy a primary region's range"
        ));
    }
    if starts.first().is_some_and(|k| k.is_empty()) {
        starts.remove(0);
    } else {
        notes.push("no region with an empty start key: the table's first region is missing from the text, which may not list every region".into());
    }
    if primary > starts.len() + 1 {
        notes.push(format!(
            "{} region(s) share a start key with another (a split parent still in hbase:meta?): counted once",
            primary - starts.len() - 1
        ));
    }
    let load = load::measure(text, &ours, &table, &starts, &mut notes)?;
    let mut r = explicit(RegionSource::RegionNames, Some(table), starts, &[], notes)?;
    r.verified = verified;
    if !load.is_empty() && load.iter().all(|l| l.server.is_some()) {
        let servers = load.iter().map(|l| l.server.clone().unwrap_or_default());
        r.assignment = Some(Assignment::Servers(servers.collect()));
    }
    r.load = load;
    Ok(r)
}

/// The distinct byte strings of `items`, sorted (through [`sorted_keys`], the module's one
/// sort for byte strings).
fn distinct<'a>(items: impl Iterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
    let all: Vec<Vec<u8>> = items.map(<[u8]>::to_vec).collect();
    let mut keys = sorted_keys(&all);
    keys.dedup();
    keys
}

fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The result for explicit split keys (sorted here; a repeated key is an error, as HBase's
/// `createTable` refuses one). `lines` holds each key's line when the keys came one per line
/// (empty otherwise), so the error can name the two lines that give a repeated key.
fn explicit(
    source: RegionSource,
    table: Option<String>,
    given: Vec<Vec<u8>>,
    lines: &[usize],
    mut notes: Vec<String>,
) -> Result<RegionList> {
    let keys = sorted_keys(&given);
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        let mut at = given.iter().zip(lines).filter(|(k, _)| **k == w[0]);
        if let (Some((_, &first)), Some((_, &again))) = (at.next(), at.next()) {
            return Err(parse_error(
                again,
                1,
                format!("line {again} repeats the split key of line {first}; HBase refuses repeated split keys"),
            ));
        }
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "the split key `{}` is given twice; HBase refuses repeated split keys",
                to_string_binary(&w[0])
            ),
        )
        .at_path("text"));
    }
    let spaced = keys
        .iter()
        .filter(|k| k.first() == Some(&b' ') || k.last() == Some(&b' '))
        .count();
    if spaced > 0 {
        notes.push(format!("{spaced} key(s) begin or end with a space, kept as the byte 0x20 (the shell keeps it too)"));
    }
    let regions = u32::try_from(keys.len())
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let presplit = if keys.is_empty() {
        PreSplit::None
    } else {
        PreSplit::Explicit {
            keys: keys.iter().map(|k| to_string_binary(k)).collect(),
            encoding: KeyEncoding::StringBinary,
        }
    };
    Ok(RegionList {
        load_shares: None,
        source,
        table,
        regions,
        presplit,
        verified: 0,
        notes,
        load: Vec::new(),
        assignment: None,
    })
}

mod listed;
mod load;
pub mod series;
use listed::{from_create, from_lines, line_col_of, list_at};
pub use load::RegionLoad;

#[cfg(test)]
mod tests;
