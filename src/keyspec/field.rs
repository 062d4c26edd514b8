//! The field types the key language encodes, and a field as the key sees it.

use serde::Serialize;

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

    /// What a record's value of this type is, as a form reads it from text (a
    /// [`Member::value`](crate::support::json::Member::value) kind): `integer`, `number`,
    /// `boolean`, `time` (epoch ms or an ISO date-time) or `string` (a bigDecimal stays text,
    /// so no digit is lost on the way).
    pub fn record_value(self) -> &'static str {
        match self {
            FieldType::String | FieldType::BigDecimal => "string",
            FieldType::Long | FieldType::Int | FieldType::Short => "integer",
            FieldType::Double | FieldType::Float => "number",
            FieldType::Boolean => "boolean",
            FieldType::Timestamp => "time",
        }
    }
}

/// A field as the key language sees it: its name in records and its declared type. The
/// design document declares more of a field (its cardinality, its generator: see
/// `workload::FieldDecl`); the key needs only these two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field name, as used in the key design and in records.
    pub name: String,
    /// The field's type.
    pub field_type: FieldType,
}

impl Field {
    /// A field named `name` of type `field_type`.
    pub fn new(name: impl Into<String>, field_type: FieldType) -> Field {
        Field {
            name: name.into(),
            field_type,
        }
    }
}
