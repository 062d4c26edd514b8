//! One file of a series: what it holds (a `/jmx` dump, `list_regions`, `status 'detailed'`,
//! region names), its readings of every table's regions, the region names it gives (key
//! ranges, each checked against its MD5 by the table reader's `names_in_line`) and its time.

use super::super::load::{
    bean_text, header, next_dump, region_metrics, regions_bean_members, row, LeftOut,
};
use super::super::{names_in_line, Name};
use super::{file_error, FileKind, SnapshotFile, TimeFrom};
use crate::error::{ErrorKind, Result};
use crate::support::json::{parse_prefix, Json};

/// A RegionServer as a file names it: `host,port,startcode` (`list_regions`, a dump's
/// `tag.serverName`), `host:port startcode` (`status 'detailed'`), or the host alone (a
/// dump's `tag.Hostname`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Server {
    pub(super) host: String,
    pub(super) port: Option<u16>,
    /// The server's start time: another one on the same host and port is a restart.
    pub(super) startcode: Option<u64>,
}

impl Server {
    pub(super) fn host(host: &str) -> Server {
        Server {
            host: host.to_owned(),
            port: None,
            startcode: None,
        }
    }
    /// `host,port,startcode` (`ServerName.toString`), or the host alone.
    pub(super) fn parse(name: &str) -> Server {
        let mut parts = name.split(',');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(h), Some(p), Some(s), None) => match (p.parse(), s.parse()) {
                (Ok(port), Ok(start)) => Server {
                    host: h.to_owned(),
                    port: Some(port),
                    startcode: Some(start),
                },
                _ => Server::host(name),
            },
            _ => Server::host(name),
        }
    }
    /// The name the report shows: `ServerName.toString` when the file gave it whole.
    pub(super) fn name(&self) -> String {
        match (self.port, self.startcode) {
            (Some(p), Some(s)) => format!("{},{p},{s}", self.host),
            _ => self.host.clone(),
        }
    }
    /// Whether `other` is another process than `self` (another host, or the same host and
    /// port started again): a region that went from one to the other reopened.
    pub(super) fn reopened_on(&self, other: &Server) -> bool {
        self.host != other.host
            || (self.port == other.port
                && self.startcode.is_some()
                && other.startcode.is_some()
                && self.startcode != other.startcode)
    }
}

/// One region's reading at one snapshot, with its file's time (what the snapshots are grouped
/// by and the rates are taken between).
#[derive(Clone)]
pub(super) struct Seen {
    pub(super) reading: Reading,
    pub(super) time_ms: u64,
}

/// One region read in one file: its counters since it opened, and its sizes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Reading {
    /// `ns:table`, or the table alone in the default namespace.
    pub(super) table: String,
    pub(super) encoded: String,
    pub(super) server: Option<Server>,
    pub(super) reads: Option<u64>,
    pub(super) writes: Option<u64>,
    /// Reads and writes together (`list_regions`' REQ).
    pub(super) requests: Option<u64>,
    pub(super) store_bytes: Option<u64>,
    pub(super) memstore_bytes: Option<u64>,
    /// `/jmx`' `storeCount`: 0 until HBase's region metrics wrapper first runs (45 s after the
    /// region opens), when its sizes read 0 too whatever the region holds.
    pub(super) store_count: Option<u64>,
}

/// A region name a file gives: its table, start key and id.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Named {
    pub(super) table: String,
    pub(super) encoded: String,
    pub(super) start: Vec<u8>,
    pub(super) id: u64,
}

/// What one file holds.
pub(super) struct FileRead {
    pub(super) kind: FileKind,
    pub(super) time: Option<(u64, TimeFrom)>,
    /// The servers it reports; `whole` when it reports the whole table (`list_regions`,
    /// `status 'detailed'`).
    pub(super) servers: Vec<Server>,
    pub(super) whole: bool,
    pub(super) readings: Vec<Reading>,
    pub(super) names: Vec<Named>,
    /// What the file holds that was not read (counters that are not counters), located in it.
    pub(super) notes: Vec<String>,
}

const MB: u64 = 1 << 20;

/// Read file `i`; `budget` is what remains of [`crate::limits::MAX_SERIES_READINGS`].
pub(super) fn file(i: usize, f: &SnapshotFile<'_>, budget: &mut usize) -> Result<FileRead> {
    let err = |kind, m: String| file_error(i, f.name, kind, m);
    crate::limits::check_text_bytes(
        &format!("files/{i}"),
        "a snapshot file",
        f.text.len(),
        crate::limits::MAX_REGION_TEXT_BYTES,
    )?;
    let mut read = if next_dump(f.text, 0).is_some() {
        jmx(f.text).map_err(|e| located(i, f.name, e))?
    } else if is_status(f.text) {
        status(f.text).map_err(|e| located(i, f.name, e))?
    } else {
        listed(f.text).map_err(|e| located(i, f.name, e))?
    };
    if read.kind != FileKind::Jmx && read.readings.is_empty() && read.names.is_empty() {
        return Err(err(
            ErrorKind::Parse,
            "neither a RegionServer /jmx dump, list_regions, status 'detailed' nor region names"
                .into(),
        ));
    }
    *budget = budget.checked_sub(read.readings.len()).ok_or_else(|| {
        crate::limits::limit_error(
            &format!("files/{i}"),
            format!("more than {} region readings", crate::limits::MAX_SERIES_READINGS),
            format!("{} readings (regions × snapshots)", crate::limits::MAX_SERIES_READINGS),
            "each becomes a rate of the report (limits::MAX_SERIES_READINGS): read fewer snapshots, or one table's dumps",
        )
    })?;
    read.time = file_time(f.name)
        .map(|t| (t, TimeFrom::Name))
        .or(read.time)
        .or(f.modified_ms.map(|t| (t, TimeFrom::Modified)));
    Ok(read)
}

/// An error of the text readers, kept where it points and given the file's name and path.
fn located(i: usize, name: &str, e: crate::error::Error) -> crate::error::Error {
    let mut out = file_error(i, name, e.kind, e.message);
    out.location.line = e.location.line;
    out.location.column = e.location.column;
    out
}

// ---- /jmx -----------------------------------------------------------------------------------

/// Every `{"beans": …}` document in `text` (one server's, or several pasted one after
/// another): the region counters of bean `sub=Regions`, the server from `tag.serverName`
/// (bean `sub=Server`) or `tag.Hostname`, the time from `java.lang:type=Runtime`.
fn jmx(text: &str) -> Result<FileRead> {
    let mut out = FileRead {
        kind: FileKind::Jmx,
        time: None,
        servers: Vec::new(),
        whole: false,
        readings: Vec::new(),
        names: Vec::new(),
        notes: Vec::new(),
    };
    let mut left_out = LeftOut::default();
    let mut at = 0;
    while let Some(start) = next_dump(text, at) {
        let (doc, end) = parse_prefix(text, start)?;
        at = end;
        let Json::Obj(top) = &doc.v else { continue };
        let beans = top.iter().filter(|(k, _, _)| k == "beans");
        let beans: Vec<_> = beans
            .filter_map(|(_, _, b)| match &b.v {
                Json::Arr(a) => Some(a),
                _ => None,
            })
            .flatten()
            .collect();
        let (mut server, mut host, mut started, mut up) = (None, None, None, None);
        for b in &beans {
            let Json::Obj(kv) = &b.v else { continue };
            let name = bean_text(kv, "name").unwrap_or("");
            // A RegionServer's (the master's /jmx has a `name=Master,sub=Server` too).
            if name.ends_with("name=RegionServer,sub=Server") {
                server = bean_text(kv, "tag.serverName").map(Server::parse);
            }
            if name == "java.lang:type=Runtime" {
                for (k, _, v) in kv {
                    match (k.as_str(), &v.v) {
                        ("StartTime", Json::U(n)) => started = Some(*n),
                        ("Uptime", Json::U(n)) => up = Some(*n),
                        _ => {}
                    }
                }
            }
            if regions_bean_members(b).is_some() {
                host = bean_text(kv, "tag.Hostname").map(Server::host);
            }
        }
        let server = server.filter(|s| host.as_ref().map_or(true, |h| h.host == s.host));
        let server = server.or(host);
        if let (Some(s), Some(u)) = (started, up) {
            out.time = out.time.or(s.checked_add(u).map(|t| (t, TimeFrom::Dump)));
        }
        if let Some(s) = &server {
            out.servers.push(s.clone());
        }
        for kv in beans.iter().filter_map(|b| regions_bean_members(b)) {
            collect(kv, &server, &mut out.readings, &mut left_out);
        }
    }
    out.notes.extend(left_out.note(text));
    Ok(out)
}

/// The region counters of one bean `sub=Regions`, one reading per region.
fn collect(
    kv: &[(String, usize, crate::support::json::Node)],
    server: &Option<Server>,
    out: &mut Vec<Reading>,
    left_out: &mut LeftOut,
) {
    let mut at: std::collections::HashMap<(String, String), usize> = Default::default();
    for m in region_metrics(kv) {
        let used = matches!(
            m.metric,
            "readRequestCount" | "writeRequestCount" | "storeFileSize" | "memStoreSize"
        );
        // A counter the rates read that is not one: said (once per file), the region still
        // read, that counter unknown. Other members that are not counters are not looked at.
        let value = match m.value {
            Ok(n) => Some(n),
            Err(v) if used => {
                left_out.add(&m, v);
                None
            }
            Err(_) => continue,
        };
        let table = if m.namespace == "default" {
            m.table.to_owned()
        } else {
            format!("{}:{}", m.namespace, m.table)
        };
        let key = (table, m.encoded.to_owned());
        let j = *at.entry(key).or_insert_with_key(|(table, encoded)| {
            out.push(Reading {
                table: table.clone(),
                encoded: encoded.clone(),
                server: server.clone(),
                ..Reading::default()
            });
            out.len() - 1
        });
        let Some(r) = out.get_mut(j) else { continue };
        match m.metric {
            "readRequestCount" => r.reads = value,
            "writeRequestCount" => r.writes = value,
            "storeFileSize" => r.store_bytes = value,
            "memStoreSize" => r.memstore_bytes = value,
            "storeCount" => r.store_count = value,
            _ => {}
        }
    }
}

// ---- list_regions and region names ----------------------------------------------------------

/// The region names in `text` (each checked against its MD5), and the load of each
/// `list_regions` row among them.
fn listed(text: &str) -> Result<FileRead> {
    let mut names: Vec<Name> = Vec::new();
    let mut cuts = Vec::new();
    let mut readings = Vec::new();
    let mut cols = None;
    let mut servers: Vec<Server> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(h) = header(line) {
            cols = Some(h);
            continue;
        }
        let from = names.len();
        names_in_line(line, i + 1, &mut names, &mut cuts)?;
        let Some(c) = &cols else { continue };
        for n in names.get(from..).unwrap_or(&[]) {
            if n.replica {
                continue;
            }
            let Some(load) = row(line, i + 1, n.span, c)? else {
                continue;
            };
            let server = load.server.as_deref().map(Server::parse);
            if let Some(s) = &server {
                if !servers.contains(s) {
                    servers.push(s.clone());
                }
            }
            readings.push(Reading {
                table: n.table.clone(),
                encoded: n.encoded.clone(),
                server,
                requests: load.requests,
                store_bytes: load.store_file_mb.and_then(|m| m.checked_mul(MB)),
                ..Reading::default()
            });
        }
    }
    let kind = if cols.is_some() {
        FileKind::ListRegions
    } else {
        FileKind::RegionNames
    };
    Ok(FileRead {
        kind,
        time: None,
        whole: kind == FileKind::ListRegions,
        servers,
        readings,
        names: named(&names),
        notes: Vec::new(),
    })
}

fn named(names: &[Name]) -> Vec<Named> {
    names
        .iter()
        .filter(|n| !n.replica)
        .map(|n| Named {
            table: n.table.clone(),
            encoded: n.encoded.clone(),
            start: n.start.clone(),
            id: n.id,
        })
        .collect()
}

// ---- status 'detailed' ----------------------------------------------------------------------

/// `status 'detailed'`: a `N live servers` line, then each server (`    host:port startcode`),
/// its load, and each region's name (`Bytes.toStringBinary`, then Ruby's `String#dump`) with
/// its `RegionLoad.toString` on the next line.
fn is_status(text: &str) -> bool {
    text.lines().any(|l| {
        l.strip_suffix(" live servers")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Ruby's `String#dump` of printable ASCII undone: `\\`, `\"` and `\#` (before `{`, `$`, `@`).
fn undump(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                e @ ('\\' | '"' | '#') => out.push(e),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `host:port startcode`, a live server's line.
fn status_server(t: &str) -> Option<Server> {
    let (hp, start) = t.split_once(' ')?;
    let (host, port) = hp.rsplit_once(':')?;
    Some(Server {
        host: host.to_owned(),
        port: Some(port.parse().ok()?),
        startcode: Some(start.parse().ok()?),
    })
}

fn status(text: &str) -> Result<FileRead> {
    let mut out = FileRead {
        kind: FileKind::StatusDetailed,
        time: None,
        servers: Vec::new(),
        whole: true,
        readings: Vec::new(),
        names: Vec::new(),
        notes: Vec::new(),
    };
    let mut live = false;
    let mut server: Option<Server> = None;
    let mut pending: Option<(usize, Name)> = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let no = i + 1;
        let t = line.trim();
        if t.ends_with(" live servers") {
            live = true;
            continue;
        }
        if t.ends_with(" dead servers") {
            live = false;
            continue;
        }
        if !live {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if indent == 4 {
            server = status_server(t);
            if let Some(s) = &server {
                out.servers.push(s.clone());
            }
            continue;
        }
        if let Some((_, n)) = pending.take() {
            out.readings.push(status_load(t, n, server.clone(), no)?);
            continue;
        }
        if t.starts_with('"') {
            let Some(name) = undump(t) else {
                return Err(super::super::parse_error(
                    no,
                    indent + 1,
                    "a region name of status 'detailed' that is not Ruby's dump of a string",
                ));
            };
            let mut names = Vec::new();
            names_in_line(&name, no, &mut names, &mut Vec::new())?;
            if let Some(n) = names.into_iter().find(|n| !n.replica) {
                out.names.extend(named(std::slice::from_ref(&n)));
                pending = Some((no, n));
            }
        }
    }
    if let Some((no, _)) = pending {
        return Err(super::super::parse_error(
            no,
            1,
            "the output ends after a region's name, before its load (was it cut?)",
        ));
    }
    Ok(out)
}

/// A region's `RegionLoad.toString` (`key=value, …`).
fn status_load(t: &str, n: Name, server: Option<Server>, no: usize) -> Result<Reading> {
    let mut r = Reading {
        table: n.table,
        encoded: n.encoded,
        server,
        ..Reading::default()
    };
    let mut any = false;
    for kv in t.split(", ") {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let slot = match k {
            "readRequestsCount" => &mut r.reads,
            "writeRequestsCount" => &mut r.writes,
            "storefileSizeMB" => &mut r.store_bytes,
            "memstoreSizeMB" => &mut r.memstore_bytes,
            _ => continue,
        };
        let n: u64 = v.parse().map_err(|_| {
            super::super::parse_error(
                no,
                1,
                format!("`{k}={v}` in status 'detailed' is not a whole number"),
            )
        })?;
        *slot = Some(if k.ends_with("MB") {
            n.saturating_mul(MB)
        } else {
            n
        });
        any = true;
    }
    if !any {
        return Err(super::super::parse_error(
            no,
            1,
            "expected the region's load (`readRequestsCount=…, writeRequestsCount=…`) on the line after its name",
        ));
    }
    Ok(r)
}

// ---- times ----------------------------------------------------------------------------------

/// The time in a file's name: 13 digits of epoch ms, or an ISO 8601 UTC time
/// (`20261126T053600Z`, `2026-11-26T05:36:00.250Z`, colons may be `-`).
pub(super) fn file_time(name: &str) -> Option<u64> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let b = base.as_bytes();
    // ISO first: its digits would otherwise read as a run.
    for (t, _) in base.match_indices('T') {
        if let Some(ms) = iso_at(b, t) {
            return Some(ms);
        }
    }
    let mut i = 0;
    while i < b.len() {
        let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if run == 13 {
            return base.get(i..i + 13)?.parse().ok();
        }
        i += run.max(1);
    }
    None
}

/// An ISO time whose `T` is at `t`: the date's 8 digits before it (dashes allowed), the
/// time's 6 after (`:` or `-` allowed), optional `.fff`, then `Z` or the end of the digits.
fn iso_at(b: &[u8], t: usize) -> Option<u64> {
    let digits = |range: &[u8], n: usize| -> Option<Vec<u64>> {
        let d: Vec<u64> = range
            .iter()
            .filter(|c| **c != b'-' && **c != b':')
            .map(|c| c.is_ascii_digit().then(|| u64::from(c - b'0')))
            .collect::<Option<_>>()?;
        (d.len() == n).then_some(d)
    };
    let num = |d: &[u64]| d.iter().fold(0, |a, x| a * 10 + x);
    let date_len = if b.get(t.checked_sub(3)?) == Some(&b'-') {
        10
    } else {
        8
    };
    let date = digits(b.get(t.checked_sub(date_len)?..t)?, 8)?;
    let time_len = if matches!(b.get(t + 3), Some(b':' | b'-')) {
        8
    } else {
        6
    };
    let time = digits(b.get(t + 1..t + 1 + time_len)?, 6)?;
    let mut end = t + 1 + time_len;
    let mut ms = 0;
    if b.get(end) == Some(&b'.') {
        let frac: Vec<u64> = b[end + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .map(|c| u64::from(c - b'0'))
            .collect();
        let mut f = frac.clone();
        f.resize(3, 0);
        ms = num(&f[..3]);
        end += 1 + frac.len();
    }
    if b.get(end).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (y, mo, d) = (num(&date[..4]), num(&date[4..6]), num(&date[6..]));
    let (h, mi, s) = (num(&time[..2]), num(&time[2..4]), num(&time[4..]));
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(y, mo, d)?;
    Some(((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm), `None`
/// before 1970.
fn days_from_civil(y: u64, m: u64, d: u64) -> Option<u64> {
    let y = if m <= 2 { y.checked_sub(1)? } else { y };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe).checked_sub(719_468)
}
