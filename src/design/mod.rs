//! The design document: the one versioned JSON type that the page, the URL hash, the CLI and
//! the npm API all exchange. It holds the key design, the field declarations (with their
//! workload generators), the region layout and the read patterns. Extend it; never fork it.
//!
//! ```json
//! {"v": 1, "name": "telecom, salted",
//!  "fields": [{"name": "phone", "type": "string", "cardinality": 1000000,
//!              "generator": {"kind": "phone"}}, ...],
//!  "key": "<text form>" | {<JSON form>},
//!  "workload": {...}, "regions": {...}, "cells": {...}, "reads": [...]}
//! ```

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::FieldType;
use crate::keyspec::KeySpec;
use crate::region::RegionLayout;
use crate::scan::ReadPattern;
use crate::workload::{FieldDecl, WorkloadSpec};

pub mod cells;
mod examples;
mod lint;
pub mod phoenix;
pub mod presets;
mod read;
mod rename;
pub mod schema;
pub mod table;

pub use cells::{CellSpec, Qualifier};
pub use examples::{check_examples, update_examples, ExampleKey, ExampleStatus};
pub(crate) use lint::field_of;
pub use lint::{leads_with_time, lint, Finding, Severity, RULES};
pub use table::TableSpec;

/// The document version this build reads and writes.
pub const DOCUMENT_VERSION: u32 = 1;

/// A whole design: key, fields, workload, regions and reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DesignDocument {
    /// Document format version; must be 1.
    pub v: u32,
    /// A short name for menus and titles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the design is for, in a sentence or two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The record's fields, in declaration order.
    #[serde(default)]
    pub fields: Vec<FieldDecl>,
    /// The row key design, in the text form or the JSON form.
    pub key: KeySpec,
    /// How records are generated for analysis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<WorkloadSpec>,
    /// How the table is pre-split and how regions split as they grow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<RegionLayout>,
    /// What a write puts into its row (its column qualifier and the family's `VERSIONS`);
    /// absent: every write is its own cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<CellSpec>,
    /// The table and cluster its months of life depend on (TTL, compression, release line,
    /// normalizer, balancer); absent: HBase's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hbase: Option<TableSpec>,
    /// The reads the table must serve, for read-cost planning.
    #[serde(default)]
    pub reads: Vec<ReadPattern>,
    /// Reads want the newest rows first (the linter then expects reversed timestamps).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub latest_first: bool,
    /// Sample records with the key each one must encode to (hex), for docs, presets and tests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// A Phoenix table's `CREATE TABLE` beyond its primary key (the table name, the other
    /// columns and options), when the design was read from one or is to print as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phoenix: Option<phoenix::PhoenixSection>,
}

/// A sample record and, optionally, the row key it must encode to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Example {
    /// The record: field name -> JSON value (a long may be a decimal string).
    pub record: serde_json::Map<String, serde_json::Value>,
    /// The expected row key as lowercase hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The expected row key as `Bytes.toStringBinary` shows it (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_binary: Option<String>,
    /// Where the example comes from, or why it differs from its source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl DesignDocument {
    /// The table's `MAX_FILESIZE` (where HBase splits a region, in bytes): the auto-split's
    /// `tableMaxFileSize`, else a Phoenix table's `MAX_FILESIZE` option; `None`: HBase's
    /// `hbase.hregion.max.filesize`.
    pub fn table_max_file_size(&self) -> Option<i64> {
        self.regions
            .as_ref()
            .and_then(|r| r.auto_split.as_ref())
            .and_then(|a| a.config.table_max_file_size)
            .filter(|&t| t > 0)
            .or_else(|| {
                let n = self.phoenix.as_ref()?.number_option("MAX_FILESIZE")?;
                i64::try_from(n).ok()
            })
    }

    /// The column family's TTL in seconds: the `hbase` section's `ttlSeconds`, else a Phoenix
    /// table's `TTL` option (HBase's family attribute, in seconds, as Phoenix passes it on),
    /// within [`table::MAX_TTL_SECONDS`]. Every answer that depends on the TTL (the months,
    /// the region plan, the move) reads it here.
    pub fn ttl_seconds(&self) -> Option<u64> {
        self.hbase.as_ref().and_then(|t| t.ttl_seconds).or_else(|| {
            self.phoenix
                .as_ref()?
                .number_option("TTL")
                .map(|t| t.min(table::MAX_TTL_SECONDS))
        })
    }

    /// Parse a document from JSON text; errors carry the JSON path (or line and column).
    pub fn from_json(text: &str) -> Result<Self> {
        let doc = Self::from_json_unchecked(text)?;
        doc.validate_in(text)?;
        Ok(doc)
    }

    /// The document read from its JSON text, not yet validated: a design that is just a key
    /// has its fields declared from a file of rows first (`rows::declare_from_file`), then
    /// [`validate_in`](Self::validate_in).
    pub fn from_json_unchecked(text: &str) -> Result<Self> {
        crate::limits::check_text_bytes(
            "",
            "a design document",
            text.len(),
            crate::limits::MAX_DOCUMENT_BYTES,
        )?;
        let n = crate::support::json::parse(text)?;
        read::design(&n).map_err(|e| e.into_error(ErrorKind::Parse, text))
    }

    /// The fields the key names that the document does not declare, in the order the key
    /// first reads them: every field of a design that is just a key, none of a design ready to
    /// use. A file of rows declares them (`rows::declare_from_file`); until then such a design
    /// is read, not validated.
    pub fn undeclared_key_fields(&self) -> Vec<String> {
        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    if let Some(serde_json::Value::String(f)) = m.get("field") {
                        if !out.contains(f) {
                            out.push(f.clone());
                        }
                    }
                    m.values().for_each(|x| walk(x, out));
                }
                serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(
            &serde_json::to_value(&self.key).unwrap_or_default(),
            &mut out,
        );
        out.retain(|f| !self.fields.iter().any(|d| &d.name == f));
        out
    }

    /// [`validate`](Self::validate), an error in a key given as text pointing at the segment
    /// in `text` (the document's JSON text).
    pub fn validate_in(&self, text: &str) -> Result<()> {
        use crate::support::json::Json;
        self.validate().map_err(|e| {
            let Ok(n) = crate::support::json::parse(text) else {
                return e;
            };
            // A key given as text: point at the segment in it (the error names its JSON path).
            let key = match &n.v {
                Json::Obj(members) => members.iter().find(|m| m.0 == "key").map(|m| &m.2.v),
                _ => None,
            };
            let below_key = e
                .location
                .path
                .as_deref()
                .is_some_and(|p| p.starts_with("/key/"));
            match key {
                Some(Json::Str(k)) if below_key => crate::keyspec::in_text(k, e),
                _ => e,
            }
        })
    }

    /// The document as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks that need the whole document: the version and unique field names.
    pub fn validate(&self) -> Result<()> {
        if self.v != DOCUMENT_VERSION {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "unsupported document version {}, this build reads v{DOCUMENT_VERSION}",
                    self.v
                ),
            )
            .at_path("/v"));
        }
        // By hash: a document may declare 10^5 fields (a Phoenix table's columns).
        let mut names = std::collections::HashSet::with_capacity(self.fields.len());
        for (i, f) in self.fields.iter().enumerate() {
            if f.name.is_empty() {
                return Err(Error::new(ErrorKind::Invalid, "field name is empty")
                    .at_path(format!("/fields/{i}/name")));
            }
            if !names.insert(f.name.as_str()) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "field {} is declared twice",
                        crate::support::json::quote(&f.name)
                    ),
                )
                .at_path(format!("/fields/{i}/name")));
            }
        }
        let at_key = |e: Error| {
            let p = e.location.path.clone().unwrap_or_default();
            e.at_path(format!("/key/{p}"))
        };
        crate::keyspec::CompiledKey::new(&self.key, &self.key_fields()).map_err(at_key)?;
        if let Some(cells) = &self.cells {
            cells.validate(&self.fields)?;
        }
        if let Some(t) = &self.hbase {
            t.validate()?;
        }
        phoenix::validate_indexes(self)?;
        // Every read with the design, so what the analysis accepts the advisor and the read
        // views accept too (a read that names a renamed field failed only in the advisor).
        // Over one region: a read's errors do not depend on the split points.
        if !self.reads.is_empty() {
            self.plan_reads(&[])?;
        }
        Ok(())
    }

    /// Plan every read of the document over the table split at `split_keys` (sorted).
    pub fn plan_reads(&self, split_keys: &[Vec<u8>]) -> Result<Vec<crate::scan::ReadPlan>> {
        crate::scan::plan_reads(
            &self.key,
            &self.fields,
            self.workload.as_ref(),
            &self.reads,
            split_keys,
        )
    }

    /// The document on a live table's regions: their split points as the pre-split, and
    /// their servers when the table names every region's (`placement`, from
    /// [`crate::region::read_regions`]; the names then count the servers). A placement by
    /// names the design carried from another table is dropped, since it names that table's
    /// regions; a placement rule (`roundRobin`, `balanced`) and the server count stay.
    pub fn on_table_regions(
        &self,
        presplit: crate::region::PreSplit,
        placement: Option<crate::region::Assignment>,
    ) -> DesignDocument {
        use crate::region::Assignment;
        let mut layout = self.regions.clone().unwrap_or_default();
        layout.presplit = presplit;
        match placement {
            Some(a) => {
                layout.region_servers = a.server_count();
                layout.assignment = a;
            }
            None if matches!(layout.assignment, Assignment::Servers(_)) => {
                layout.assignment = Assignment::RoundRobin;
            }
            None => {}
        }
        DesignDocument {
            regions: Some(layout),
            ..self.clone()
        }
    }

    /// The document fitted to `records` given in place of its generated workload: its record
    /// count is theirs (the time windows span them at the workload's write rate), and a
    /// `sampleQuantiles` pre-split without a sample of its own is cut at the quantiles of
    /// these records' keys (every k-th record, at most `max_sample`), not the generated
    /// workload's. Analysis and read plans of the fitted document see the same regions.
    pub fn fit_to_records(
        &self,
        records: &[serde_json::Map<String, serde_json::Value>],
        max_sample: usize,
    ) -> Result<DesignDocument> {
        let mut doc = self.clone();
        let mut workload = doc.workload.take().unwrap_or_default();
        workload.records = records.len() as u64;
        doc.workload = Some(workload);
        if let Some(layout) = doc.regions.as_mut() {
            if let crate::region::PreSplit::SampleQuantiles { sample, .. } = &mut layout.presplit {
                if sample.is_none() {
                    let step = records.len().div_ceil(max_sample.max(1)).max(1);
                    let mut codec =
                        crate::keyspec::CompiledKey::new(&self.key, &self.key_fields())?;
                    let mut keys = Vec::with_capacity(records.len().div_ceil(step));
                    for (i, r) in records.iter().enumerate().step_by(step) {
                        let key = codec
                            .encode_json(r)
                            .map_err(|e| e.at_path(format!("/records/{i}")))?;
                        keys.push(crate::hbase::bytes::to_string_binary(&key));
                    }
                    *sample = Some(keys);
                }
            }
        }
        Ok(doc)
    }

    /// The pre-split's keys (`sample`: the keys a `sampleQuantiles` pre-split without its own
    /// is cut at), a cut by bytes weighing each key with this design's `valueSize` as the
    /// analysis counts a write, and a cut of a key that opens with salt buckets keeping each
    /// bucket whole ([`bucket_bounds`](Self::bucket_bounds)).
    pub fn presplit_keys(&self, sample: &[Vec<u8>]) -> crate::error::Result<Vec<Vec<u8>>> {
        let value_size = self.workload.as_ref().map_or_else(
            || crate::workload::WorkloadSpec::default().value_size,
            |w| w.value_size,
        );
        self.regions.clone().unwrap_or_default().split_keys_in(
            sample,
            value_size,
            &self.bucket_bounds(),
        )
    }

    /// Where the buckets of the key's leading salt start (empty without one): every cut of
    /// the table's rows into regions keeps each bucket whole.
    pub fn bucket_bounds(&self) -> Vec<Vec<u8>> {
        crate::keyspec::bucket_bounds(self.key.segments.first())
    }

    /// The fields as the key language sees them (name and type), in declaration order.
    pub fn key_fields(&self) -> Vec<crate::keyspec::Field> {
        crate::workload::key_fields(&self.fields)
    }

    /// The declaration of field `name`.
    pub fn field(&self, name: &str) -> Option<&FieldDecl> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// How many distinct values field `name` has, as far as the document says: its declared
    /// cardinality, else a list or weighted generator's value count, a constant's one; `None`
    /// when the document does not say (the advisor orders fields by it, the live table's
    /// diagnosis names it).
    pub fn distinct_values(&self, name: &str) -> Option<u64> {
        use crate::workload::Generator as G;
        let d = self.field(name)?;
        if let Some(c) = d.cardinality {
            return Some(c);
        }
        match &d.generator {
            Some(G::List { values, .. } | G::Weighted { values, .. }) => Some(values.len() as u64),
            Some(G::Constant { .. }) => Some(1),
            _ => None,
        }
    }
}
