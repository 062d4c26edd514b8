//! Region layouts: how a table is pre-split, how its regions split as they grow and how they
//! are spread over region servers.
//!
//! A [`RegionLayout`] is the `regions` section of the design document:
//!
//! ```json
//! {"presplit": {"kind": "hexString", "regions": 16},
//!  "autoSplit": {"policy": {"type": "stepping"}, "config": {"maxFileSize": 10737418240}},
//!  "regionServers": 4, "assignment": "roundRobin"}
//! ```
//!
//! `assignment` is a rule (`roundRobin`, `balanced`) or the table's own placement,
//! `{"servers": ["rs1,16020,1700000000123", …]}`, one server name per pre-split region in key
//! order (what `readRegions` reads from `list_regions` or `/jmx` dumps); `regionServers` then
//! defaults to the number of distinct names.
//!
//! The split keys themselves come from the HBase ports in [`crate::hbase::split`] and
//! [`crate::hbase::salt`]; this module only chooses, checks and renders them. Keys in JSON are
//! `Bytes.toStringBinary` text (`\xNN` for a non-printable byte) unless a layout says `hex`.

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::hbase::bytes;
use crate::hbase::policy::{SplitConfig, SplitPolicy};
use crate::hbase::split::{self, AlgorithmKind, SplitAlgorithm};

mod assignment;
mod cut;
mod map;
pub(crate) mod read;
mod table;
pub use assignment::{Assignment, Placement};
pub use cut::{
    assemble_cut, bucket_of, byte_cut_ranks, byte_split_keys, byte_split_keys_in, cut_sorted_keys,
    cut_sorted_weighted, cut_summary, key_order, plan_cut, quantile_ranks, quantile_split_keys,
    quantile_split_keys_in, select_ranks, target_cuts, Buckets, CutPlan, CutTarget,
};
pub use map::*;
pub use table::series;
pub use table::{read_regions, LoadCounter, LoadShares, RegionList, RegionLoad, RegionSource};

/// The most regions a layout may create (split keys + 1).
pub const MAX_REGIONS: u32 = 100_000;
/// The most region servers a layout may spread its regions over.
pub const MAX_SERVERS: u32 = 10_000;

/// How the table is pre-split, auto-split and assigned to region servers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegionLayout {
    /// The split keys the table is created with (default: none, one region).
    #[serde(default)]
    pub presplit: PreSplit,
    /// Automatic splitting as data grows; absent means the regions stay as pre-split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_split: Option<AutoSplit>,
    /// Number of region servers the regions are spread over (default 1).
    #[serde(default = "one_server")]
    pub region_servers: u32,
    /// How regions are assigned to servers.
    #[serde(default)]
    pub assignment: Assignment,
}

fn one_server() -> u32 {
    1
}

/// One region on one server: what a document without `regions` gets (a derived default
/// would say zero servers, which the analyzer rightly rejects).
impl Default for RegionLayout {
    fn default() -> Self {
        RegionLayout {
            presplit: PreSplit::default(),
            auto_split: None,
            region_servers: one_server(),
            assignment: Assignment::default(),
        }
    }
}

/// Auto-split settings for the simulator: the policy and the sizes it compares against.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoSplit {
    /// The split policy (HBase's default is `stepping`).
    #[serde(default)]
    pub policy: SplitPolicy,
    /// `hbase.hregion.max.filesize`, the memstore flush size, jitter and so on.
    #[serde(default)]
    pub config: SplitConfig,
}

/// How a key given as text in a layout is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum KeyEncoding {
    /// `Bytes.toStringBinary` text: `\xNN` (upper-case hex) is one byte, other characters
    /// their low 8 bits, as the HBase shell reads `SPLITS`.
    #[default]
    StringBinary,
    /// Hex digits, two per byte (`0a1b`).
    Hex,
}

/// The split points of a salted table's buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SaltStyle {
    /// A one-byte salt (Phoenix, HBaseWD, OpenTSDB with width 1): split keys `\x01 … \x(n-1)`.
    #[default]
    Byte,
    /// A zero-padded decimal text prefix (`05_13412341234…`): split keys `"01" … "n-1"`.
    Decimal,
}

/// The pre-split of a table. JSON: `{"kind": "hexString", "regions": 16}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum PreSplit {
    /// No split keys: one region.
    #[default]
    None,
    /// The given split keys, in ascending order.
    #[serde(rename_all = "camelCase")]
    Explicit {
        /// The keys, as text in `encoding`.
        keys: Vec<String>,
        /// How the keys are written (default `stringBinary`).
        #[serde(default)]
        encoding: KeyEncoding,
    },
    /// `RegionSplitter`'s `HexStringSplit` (MD5-hex prefixed keys).
    #[serde(rename_all = "camelCase")]
    HexString {
        /// The number of regions.
        regions: u32,
        /// `-D split.algorithm.firstrow` (default `00000000`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_row: Option<String>,
        /// `-D split.algorithm.lastrow` (default `FFFFFFFF`; its length is the key width).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_row: Option<String>,
    },
    /// `RegionSplitter`'s `DecimalStringSplit` (decimal-digit prefixed keys).
    #[serde(rename_all = "camelCase")]
    DecimalString {
        /// The number of regions.
        regions: u32,
        /// First row (default `00000000`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_row: Option<String>,
        /// Last row (default `99999999`; its length is the key width).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_row: Option<String>,
    },
    /// `RegionSplitter`'s `UniformSplit` (uniformly random bytes).
    #[serde(rename_all = "camelCase")]
    Uniform {
        /// The number of regions.
        regions: u32,
        /// First row as toStringBinary text (default empty).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_row: Option<String>,
        /// Last row as toStringBinary text (default eight `\xFF`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_row: Option<String>,
    },
    /// All `num + 2` keys of `Bytes.split(start, end, num)`, both ends included, giving
    /// `num + 3` regions. Over hex text this leaves empty regions (seed 001's trap).
    #[serde(rename_all = "camelCase")]
    BytesSplit {
        /// The first key (toStringBinary text).
        start: String,
        /// The last key (toStringBinary text).
        end: String,
        /// Keys strictly between `start` and `end`.
        num: u32,
    },
    /// `Admin.createTable(desc, startKey, endKey, numRegions)`: `numRegions - 1` keys.
    #[serde(rename_all = "camelCase")]
    CreateTable {
        /// The first split key (toStringBinary text).
        start: String,
        /// The last split key (toStringBinary text).
        end: String,
        /// The number of regions (at least 3).
        regions: u32,
    },
    /// One region per salt bucket.
    #[serde(rename_all = "camelCase")]
    SaltBuckets {
        /// The number of buckets (and regions).
        buckets: u32,
        /// `byte` (default) or `decimal`.
        #[serde(default)]
        style: SaltStyle,
        /// Digits of a decimal prefix (default: those of `buckets - 1`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        width: Option<u32>,
    },
    /// The `regions - 1` quantiles of a sample of row keys: equal-count regions for data like
    /// the sample. Without `sample`, the analyzer samples the workload's own keys.
    #[serde(rename_all = "camelCase")]
    SampleQuantiles {
        /// The number of regions.
        regions: u32,
        /// Sample row keys as toStringBinary text, in any order.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sample: Option<Vec<String>>,
        /// Equal rows, or equal bytes (each key weighed as the analysis counts its write: the
        /// key and the workload's `valueSize`).
        #[serde(default, skip_serializing_if = "SplitBy::is_rows")]
        by: SplitBy,
    },
}

/// What a pre-split cut at a sample's quantiles makes even.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SplitBy {
    /// Each region the same number of rows.
    #[default]
    Rows,
    /// Each region the same bytes (a few large rows weigh as much as many small ones).
    Bytes,
}

impl SplitBy {
    /// The default, left out when written.
    pub fn is_rows(&self) -> bool {
        *self == SplitBy::Rows
    }
}

impl PreSplit {
    /// The layout's `kind` tag, as written in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            PreSplit::None => "none",
            PreSplit::Explicit { .. } => "explicit",
            PreSplit::HexString { .. } => "hexString",
            PreSplit::DecimalString { .. } => "decimalString",
            PreSplit::Uniform { .. } => "uniform",
            PreSplit::BytesSplit { .. } => "bytesSplit",
            PreSplit::CreateTable { .. } => "createTable",
            PreSplit::SaltBuckets { .. } => "saltBuckets",
            PreSplit::SampleQuantiles { .. } => "sampleQuantiles",
        }
    }

    /// Whether the split keys depend on a sample of the workload's keys.
    pub fn needs_sample(&self) -> bool {
        matches!(self, PreSplit::SampleQuantiles { sample: None, .. })
    }
}

const PATH: &str = "/regions/presplit";

fn at(field: &str) -> String {
    format!("{PATH}/{field}")
}

/// Re-point an error from the split ports at the layout field that caused it.
fn repath(e: Error, field: &str) -> Error {
    let sub = match e.location.path.as_deref() {
        Some("first_row") => "firstRow",
        Some("last_row") => "lastRow",
        Some("start") => "start",
        Some("b") | Some("end") => "end",
        _ => field,
    };
    e.at_path(at(sub))
}

fn check_regions(regions: u32, field: &str) -> Result<()> {
    if regions == 0 {
        return Err(
            Error::new(ErrorKind::Invalid, "a table has at least one region").at_path(at(field)),
        );
    }
    if regions > MAX_REGIONS {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{regions} regions is more than the {MAX_REGIONS} supported"),
        )
        .at_path(at(field)));
    }
    Ok(())
}

/// `Bytes.toBytesBinary` of `s` (read as UTF-16 code units, as Java does).
pub fn from_string_binary(s: &str) -> Vec<u8> {
    bytes::to_bytes_binary_str(s)
}

/// `Bytes.toStringBinary` of `b`.
pub fn to_string_binary(b: &[u8]) -> String {
    bytes::to_string_binary(b)
}

/// `Bytes.fromHex` of `s`, with the error pointed at the layout field.
fn from_hex(s: &str, path: &str) -> Result<Vec<u8>> {
    bytes::from_hex(s).map_err(|e| Error::new(ErrorKind::Parse, e.message).at_path(path))
}

impl RegionLayout {
    /// Checks the server count and the pre-split (without computing sample quantiles).
    pub fn validate(&self) -> Result<()> {
        if self.region_servers == 0 || self.region_servers > MAX_SERVERS {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("the region server count must be between 1 and {MAX_SERVERS}"),
            )
            .at_path("/regions/regionServers"));
        }
        if !self.presplit.needs_sample() {
            self.split_keys(&[])?;
        }
        Ok(())
    }

    /// The pre-split keys, sorted and checked like the client does (no empty key, no
    /// duplicate). `sample` is used by `sampleQuantiles` without an inline sample (any order);
    /// a cut by bytes weighs each key with the default workload's value size (see
    /// [`split_keys_valued`](Self::split_keys_valued)).
    pub fn split_keys(&self, sample: &[Vec<u8>]) -> Result<Vec<Vec<u8>>> {
        self.split_keys_valued(sample, crate::workload::WorkloadSpec::default().value_size)
    }

    /// [`split_keys`](Self::split_keys), a `sampleQuantiles` cut by bytes weighing each key as
    /// the analysis counts its write: its length and `value_size`.
    pub fn split_keys_valued(&self, sample: &[Vec<u8>], value_size: u64) -> Result<Vec<Vec<u8>>> {
        self.split_keys_in(sample, value_size, &[])
    }

    /// [`split_keys_valued`](Self::split_keys_valued) for a key that opens with salt buckets
    /// starting at `bounds` ([`crate::keyspec::bucket_bounds`]): a `sampleQuantiles` cut keeps each bucket
    /// whole ([`plan_cut`]).
    pub fn split_keys_in(
        &self,
        sample: &[Vec<u8>],
        value_size: u64,
        bounds: &[Vec<u8>],
    ) -> Result<Vec<Vec<u8>>> {
        let keys = match &self.presplit {
            PreSplit::None => Vec::new(),
            PreSplit::Explicit { keys, encoding } => explicit_split_keys(keys, *encoding)?,
            PreSplit::HexString {
                regions,
                first_row,
                last_row,
            } => algorithm_keys(AlgorithmKind::HexString, *regions, first_row, last_row)?,
            PreSplit::DecimalString {
                regions,
                first_row,
                last_row,
            } => algorithm_keys(AlgorithmKind::DecimalString, *regions, first_row, last_row)?,
            PreSplit::Uniform {
                regions,
                first_row,
                last_row,
            } => algorithm_keys(AlgorithmKind::Uniform, *regions, first_row, last_row)?,
            PreSplit::BytesSplit { start, end, num } => bytes_split_keys(start, end, *num)?,
            PreSplit::CreateTable {
                start,
                end,
                regions,
            } => create_table_keys(start, end, *regions)?,
            PreSplit::SaltBuckets {
                buckets,
                style,
                width,
            } => salt_split_keys(*buckets, *style, *width)?,
            PreSplit::SampleQuantiles {
                regions,
                sample: inline,
                by,
            } => {
                check_regions(*regions, "regions")?;
                let inline: Option<Vec<Vec<u8>>> = inline
                    .as_ref()
                    .map(|texts| texts.iter().map(|t| from_string_binary(t)).collect());
                let keys = inline.as_deref().unwrap_or(sample);
                let cut = match by {
                    SplitBy::Rows => cut::quantile_split_keys_in(keys, *regions, bounds),
                    SplitBy::Bytes => cut::byte_split_keys_in(keys, *regions, value_size, bounds),
                };
                cut.map_err(|e| e.at_path(at("sample")))?
            }
        };
        split::verify_split_keys(keys).map_err(|e| {
            let msg = e.message.clone();
            Error::new(ErrorKind::Invalid, msg).at_path(PATH)
        })
    }

    /// The regions of the pre-split table.
    pub fn region_map(&self, sample: &[Vec<u8>]) -> Result<RegionMap> {
        RegionMap::new(self.split_keys(sample)?)
    }
}

/// Split keys listed in the document: each decoded, not empty, in strictly ascending order.
fn explicit_split_keys(keys: &[String], encoding: KeyEncoding) -> Result<Vec<Vec<u8>>> {
    if keys.len() >= MAX_REGIONS as usize {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("at most {} split keys", MAX_REGIONS - 1),
        )
        .at_path(at("keys")));
    }
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let path = at(&format!("keys/{i}"));
        let b = match encoding {
            KeyEncoding::StringBinary => from_string_binary(k),
            KeyEncoding::Hex => from_hex(k, &path)?,
        };
        if b.is_empty() {
            return Err(Error::new(
                ErrorKind::Invalid,
                "an empty split key is not allowed (the first region already starts at the empty key)",
            )
            .at_path(path));
        }
        if let Some(prev) = out.last() {
            if *prev == b {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("split key `{}` appears twice", to_string_binary(&b)),
                )
                .at_path(path));
            }
            if *prev > b {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "split key `{}` sorts before the previous key `{}`: list the keys in ascending byte order",
                        to_string_binary(&b),
                        to_string_binary(prev)
                    ),
                )
                .at_path(path));
            }
        }
        out.push(b);
    }
    Ok(out)
}

/// `Bytes.split(start, end, num)`: `num + 2` keys, both ends included.
fn bytes_split_keys(start: &str, end: &str, num: u32) -> Result<Vec<Vec<u8>>> {
    if num >= MAX_REGIONS {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("at most {} keys between start and end", MAX_REGIONS - 3),
        )
        .at_path(at("num")));
    }
    let n = i32::try_from(num).map_err(|_| Error::arg(&at("num"), "num too large"))?;
    split::bytes_split_exclusive(&from_string_binary(start), &from_string_binary(end), n)
        .map_err(|e| repath(e, "num"))
}

/// `Admin.createTable(desc, startKey, endKey, numRegions)`'s split keys: `regions - 1` of them.
fn create_table_keys(start: &str, end: &str, regions: u32) -> Result<Vec<Vec<u8>>> {
    check_regions(regions, "regions")?;
    let n = i32::try_from(regions).map_err(|_| Error::arg(&at("regions"), "too many regions"))?;
    split::create_table_split_keys(&from_string_binary(start), &from_string_binary(end), n)
        .map_err(|e| repath(e, "regions"))
}

fn algorithm_keys(
    kind: AlgorithmKind,
    regions: u32,
    first_row: &Option<String>,
    last_row: &Option<String>,
) -> Result<Vec<Vec<u8>>> {
    check_regions(regions, "regions")?;
    if regions == 1 {
        return Ok(Vec::new());
    }
    let mut algo = SplitAlgorithm::new(kind);
    if let Some(f) = first_row {
        let units: Vec<u16> = f.encode_utf16().collect();
        algo.set_first_row_str(&units)
            .map_err(|e| e.at_path(at("firstRow")))?;
    }
    if let Some(l) = last_row {
        let units: Vec<u16> = l.encode_utf16().collect();
        algo.set_last_row_str(&units)
            .map_err(|e| e.at_path(at("lastRow")))?;
    }
    let n = i32::try_from(regions).map_err(|_| Error::arg(&at("regions"), "too many regions"))?;
    algo.split_n(n).map_err(|e| repath(e, "regions"))
}

/// The split keys of `buckets` salt buckets, one region per bucket: bytes `01 … n-1` (Phoenix's
/// `getSaltByteSplitPoints`) or zero-padded decimal text `"01" … "n-1"`.
pub fn salt_split_keys(buckets: u32, style: SaltStyle, width: Option<u32>) -> Result<Vec<Vec<u8>>> {
    if buckets == 0 {
        return Err(
            Error::new(ErrorKind::Invalid, "at least one salt bucket").at_path(at("buckets"))
        );
    }
    match style {
        SaltStyle::Byte => {
            if buckets > 256 {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("a one-byte salt has at most 256 buckets, got {buckets}"),
                )
                .at_path(at("buckets")));
            }
            let n = i32::try_from(buckets).unwrap_or(256);
            crate::hbase::salt::phoenix::salt_byte_split_points(n)
                .map_err(|e| e.at_path(at("buckets")))
        }
        SaltStyle::Decimal => {
            if buckets > MAX_REGIONS {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("at most {MAX_REGIONS} buckets"),
                )
                .at_path(at("buckets")));
            }
            let natural = (buckets - 1).max(1).to_string().len() as u32;
            let w = width.unwrap_or(natural);
            if w < natural || w > 18 {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "bucket {} needs {natural} digits; width must be {natural}..=18",
                        buckets - 1
                    ),
                )
                .at_path(at("width")));
            }
            Ok((1..buckets)
                .map(|b| format!("{b:0w$}", w = w as usize).into_bytes())
                .collect())
        }
    }
}

/// GiB, the unit of HBase's region size settings.
const GIB: u64 = 1 << 30;

/// A region count for a table of `table_bytes`, after the guidance in seed 002: small tables
/// (under 50 GB) get 5 to 10 regions (about 5 GB each); larger ones about one region per
/// 10 GB (HBase's default `hbase.hregion.max.filesize`), at least 10 and at most 120.
/// Returns the count and a one-line reason.
pub fn recommend_region_count(table_bytes: u64) -> (u32, String) {
    use crate::support::num_text::fixed;
    let gib = table_bytes as f64 / GIB as f64;
    let ceil_div = |a: u64, b: u64| a / b + u64::from(a % b != 0);
    if table_bytes < 50 * GIB {
        let n = ceil_div(table_bytes, 5 * GIB).clamp(5, 10) as u32;
        (
            n,
            format!(
                "a small table ({} GiB, under 50 GiB) gets 5 to 10 regions: {n} regions of about {} GiB",
                fixed(gib, 1),
                fixed(gib / f64::from(n), 1)
            ),
        )
    } else {
        let raw = ceil_div(table_bytes, 10 * GIB);
        let n = raw.clamp(10, 120) as u32;
        let per = gib / f64::from(n);
        let reason = if raw > 120 {
            format!(
                "{} GiB at 10 GiB per region would be {raw} regions; capped at 120 regions of about {} GiB (raise hbase.hregion.max.filesize accordingly)",
                fixed(gib, 0),
                fixed(per, 0)
            )
        } else {
            format!(
                "{} GiB at about 10 GiB per region (hbase.hregion.max.filesize): {n} regions",
                fixed(gib, 0)
            )
        };
        (n, reason)
    }
}

#[cfg(test)]
mod tests;
