//! Renaming a field through the whole document: its declaration, every segment of the key
//! that reads it (nested ones too), the cells' qualifier, and the records of the reads and the
//! examples. Renaming only the declaration left the key and the reads naming a field that no
//! longer exists (`phone` → `device_id` broke both).

use serde_json::{Map, Value};

use super::DesignDocument;
use crate::design::Qualifier;
use crate::error::{Error, ErrorKind, Result};
use crate::keyspec::Segment;
use crate::scan::ReadPattern;
use crate::support::json::quote;

impl DesignDocument {
    /// The document with field `from` renamed `to` wherever the document names it; the result
    /// is validated again as a whole. On the document's own types, not through JSON: the
    /// page's size build then links no JSON value serializer for it.
    pub fn rename_field(&self, from: &str, to: &str) -> Result<DesignDocument> {
        let Some(i) = self.fields.iter().position(|f| f.name == from) else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("no field {} to rename", quote(from)),
            )
            .at_path("from"));
        };
        if to.is_empty() {
            return Err(Error::new(ErrorKind::Invalid, "the new name is empty").at_path("to"));
        }
        if from == to {
            return Ok(self.clone());
        }
        if self.fields.iter().any(|f| f.name == to) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("a field is already named {}", quote(to)),
            )
            .at_path("to"));
        }
        let mut doc = self.clone();
        if let Some(f) = doc.fields.get_mut(i) {
            f.name = to.to_string();
        }
        rename_segments(&mut doc.key.segments, from, to);
        if let Some(c) = doc.cells.as_mut() {
            match &mut c.qualifier {
                Qualifier::Field { field } | Qualifier::TimeOffset { field, .. }
                    if field == from =>
                {
                    *field = to.to_string()
                }
                _ => {}
            }
        }
        for r in &mut doc.reads {
            match r {
                ReadPattern::Get { record, .. }
                | ReadPattern::Prefix { record, .. }
                | ReadPattern::Latest { record, .. } => rename_key(record, from, to),
                ReadPattern::Range { from: a, to: b, .. } => {
                    rename_key(a, from, to);
                    rename_key(b, from, to);
                }
            }
        }
        for x in &mut doc.examples {
            rename_key(&mut x.record, from, to);
        }
        doc.validate()?;
        Ok(doc)
    }
}

/// A record's member `from` renamed `to`.
fn rename_key(rec: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = rec.remove(from) {
        rec.insert(to.to_string(), v);
    }
}

/// Every segment that reads field `from`, nested ones too, reads `to`. Exhaustive, so a new
/// kind of segment must say here whether it names a field.
fn rename_segments(segs: &mut [Segment], from: &str, to: &str) {
    let r = |f: &mut String| {
        if f == from {
            *f = to.to_string();
        }
    };
    for s in segs {
        match s {
            Segment::Field(a)
            | Segment::Str(a)
            | Segment::Bool(a)
            | Segment::BigDecimal(a)
            | Segment::Reverse(a)
            | Segment::BaseTime(a) => r(&mut a.field),
            Segment::Fixed(x) => r(&mut x.field),
            Segment::Dec(x) => r(&mut x.field),
            Segment::Long(x)
            | Segment::Int(x)
            | Segment::Short(x)
            | Segment::Double(x)
            | Segment::Float(x) => r(&mut x.field),
            Segment::Revts(x) => r(&mut x.field),
            Segment::Time(x) => r(&mut x.field),
            Segment::Bucket(x) => r(&mut x.field),
            Segment::Dict(x) | Segment::Tag(x) => r(&mut x.field),
            Segment::Uid(x) => r(&mut x.field),
            Segment::Pk(x) => r(&mut x.field),
            Segment::When(w) => {
                r(&mut w.field);
                rename_segments(&mut w.then, from, to);
            }
            Segment::Salt(x) => rename_segments(x.of.as_deref_mut().unwrap_or_default(), from, to),
            Segment::Hash15(h) | Segment::Md5(h) => {
                rename_segments(h.of.as_deref_mut().unwrap_or_default(), from, to)
            }
            Segment::Md5Hex(h) => {
                rename_segments(h.of.as_deref_mut().unwrap_or_default(), from, to)
            }
            Segment::Tags(t) => rename_segments(&mut t.of, from, to),
            Segment::Literal(_) | Segment::Random(_) => {}
        }
    }
}
