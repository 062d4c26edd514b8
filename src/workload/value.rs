//! A generated field's value: the workload's own [`FieldValue`], and [`ValueSlot`], the one
//! interface through which a generator writes into either that or the key language's value
//! (the analysis's path writes straight into the encoder's values, no conversion per record).

use serde::{Deserialize, Serialize};

/// One generated field value. Integer-typed fields (long, int, short, timestamp) hold
/// `Long`, double and float fields `Double`, boolean fields `Bool`, string and bigDecimal
/// fields `Str` (a bigDecimal as its decimal text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "camelCase")]
pub enum FieldValue {
    /// Text.
    Str(String),
    /// A 64-bit integer (also int, short and timestamp fields).
    Long(i64),
    /// A 64-bit float (also float fields).
    Double(f64),
    /// A boolean.
    Bool(bool),
}

impl Default for FieldValue {
    fn default() -> Self {
        FieldValue::Long(0)
    }
}

/// Somewhere a generator can write one field's value: the workload's own [`FieldValue`], or
/// the key encoder's value type, so the analyzer feeds the encoder without a conversion.
pub trait ValueSlot {
    /// A fresh slot.
    fn new_slot() -> Self
    where
        Self: Sized;
    /// Store an integer.
    fn put_long(&mut self, x: i64);
    /// Store a float.
    fn put_double(&mut self, x: f64);
    /// Store a boolean.
    fn put_bool(&mut self, b: bool);
    /// Make the slot text and return its (cleared) buffer, reusing it when it already is.
    fn put_text(&mut self) -> &mut String;
    /// Store a copy of `v`, reusing the slot's text buffer.
    fn put_value(&mut self, v: &FieldValue) {
        match v {
            FieldValue::Str(s) => self.put_text().push_str(s),
            FieldValue::Long(x) => self.put_long(*x),
            FieldValue::Double(x) => self.put_double(*x),
            FieldValue::Bool(b) => self.put_bool(*b),
        }
    }
}

impl ValueSlot for FieldValue {
    fn new_slot() -> Self {
        FieldValue::default()
    }
    fn put_long(&mut self, x: i64) {
        *self = FieldValue::Long(x);
    }
    fn put_double(&mut self, x: f64) {
        *self = FieldValue::Double(x);
    }
    fn put_bool(&mut self, b: bool) {
        *self = FieldValue::Bool(b);
    }
    fn put_text(&mut self) -> &mut String {
        if !matches!(self, FieldValue::Str(_)) {
            *self = FieldValue::Str(String::new());
        }
        match self {
            FieldValue::Str(s) => {
                s.clear();
                s
            }
            // Unreachable: the value was made a `Str` just above. Replace to stay total.
            other => {
                *other = FieldValue::Str(String::new());
                other.put_text()
            }
        }
    }
}

impl ValueSlot for crate::keyspec::FieldValue {
    fn new_slot() -> Self {
        crate::keyspec::FieldValue::Null
    }
    fn put_long(&mut self, x: i64) {
        *self = crate::keyspec::FieldValue::Long(x);
    }
    fn put_double(&mut self, x: f64) {
        *self = crate::keyspec::FieldValue::Double(x);
    }
    fn put_bool(&mut self, b: bool) {
        *self = crate::keyspec::FieldValue::Bool(b);
    }
    fn put_text(&mut self) -> &mut String {
        use crate::keyspec::FieldValue as K;
        if !matches!(self, K::Str(_)) {
            *self = K::Str(String::new());
        }
        match self {
            K::Str(s) => {
                s.clear();
                s
            }
            // Unreachable: the value was made a `Str` just above. Replace to stay total.
            other => {
                *other = K::Str(String::new());
                other.put_text()
            }
        }
    }
}
