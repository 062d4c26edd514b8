//! The design document: the one versioned JSON type that the page, the URL hash, the CLI and
//! the npm API all exchange. It holds the key design, the field declarations (with their
//! workload generators), the region layout and the read patterns. Extend it; never fork it.
//!
//! ```json
//! {"v": 1, "name": "telecom, salted",
//!  "fields": [{"name": "phone", "type": "string", "cardinality": 1000000,
//!              "generator": {"kind": "phone"}}, ...],
//!  "key": "<text form>" | {<JSON form>},
//!  "workload": {...}, "regions": {...}, "reads": [...]}
//! ```

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::KeySpec;
use crate::layout::RegionLayout;
use crate::scan::ReadPattern;
use crate::workload::{Generator, WorkloadSpec};

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
    /// The reads the table must serve, for read-cost planning.
    #[serde(default)]
    pub reads: Vec<ReadPattern>,
    /// Reads want the newest rows first (the linter then expects reversed timestamps).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub latest_first: bool,
    /// Sample records with the key each one must encode to (hex), for docs, presets and tests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
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

/// The declared type of a record field; it decides how a record value is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FieldType {
    /// Text (a Java `String`).
    String,
    /// 64-bit signed integer.
    Long,
    /// 32-bit signed integer.
    Int,
    /// 16-bit signed integer.
    Short,
    /// 64-bit IEEE float.
    Double,
    /// 32-bit IEEE float.
    Float,
    /// true / false.
    Boolean,
    /// Arbitrary-precision decimal (`java.math.BigDecimal`).
    BigDecimal,
    /// Milliseconds since the Unix epoch (a `long`), with time formatting available.
    Timestamp,
}

impl FieldType {
    /// The type's name as the design document spells it (`"bigDecimal"`), for messages.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Long => "long",
            FieldType::Int => "int",
            FieldType::Short => "short",
            FieldType::Double => "double",
            FieldType::Float => "float",
            FieldType::Boolean => "boolean",
            FieldType::BigDecimal => "bigDecimal",
            FieldType::Timestamp => "timestamp",
        }
    }
}

/// One field of the record.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldDecl {
    /// The field name, as used in the key design and in records.
    pub name: String,
    /// The field's type.
    #[serde(rename = "type")]
    pub field_type: FieldType,
    /// Number of distinct values, when known: the linter uses it for field ordering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cardinality: Option<u64>,
    /// How the analyzer generates this field's values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<Generator>,
}

impl DesignDocument {
    /// Parse a document from JSON text; errors carry the JSON path (or line and column).
    pub fn from_json(text: &str) -> Result<Self> {
        use crate::json::Json;
        let n = crate::json::parse(text)?;
        let doc = crate::de::design(&n).map_err(|e| e.into_error(ErrorKind::Parse, text))?;
        doc.validate().map_err(|e| {
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
        })?;
        Ok(doc)
    }

    /// The document as pretty JSON.
    pub fn to_json(&self) -> String {
        crate::jsonw::to_string_pretty(self).unwrap_or_default()
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
        for (i, f) in self.fields.iter().enumerate() {
            if f.name.is_empty() {
                return Err(Error::new(ErrorKind::Invalid, "field name is empty")
                    .at_path(format!("/fields/{i}/name")));
            }
            if self.fields.iter().take(i).any(|g| g.name == f.name) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("field `{}` is declared twice", f.name),
                )
                .at_path(format!("/fields/{i}/name")));
            }
        }
        let at_key = |e: Error| {
            let p = e.location.path.clone().unwrap_or_default();
            e.at_path(format!("/key/{p}"))
        };
        crate::keyspec::CompiledKey::new(&self.key, &self.fields).map_err(at_key)?;
        Ok(())
    }

    /// The declaration of field `name`.
    pub fn field(&self, name: &str) -> Option<&FieldDecl> {
        self.fields.iter().find(|f| f.name == name)
    }
}
