//! The key-design language: one AST with a readable text form and an equivalent JSON form;
//! encode a record to the exact row key bytes HBase stores, decode a key back, lay out its
//! bytes, and lint the design. The language reference is `docs/keyspec.md`.
//!
//! ```text
//! salt(phone + time(ts, "yyyyMM"), 10, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")
//! ```
//!
//! The same design as JSON:
//!
//! ```json
//! {"segments": [
//!   {"kind": "salt", "of": [{"kind": "field", "field": "phone"},
//!                           {"kind": "time", "field": "ts", "pattern": "yyyyMM"}],
//!    "buckets": 10, "as": {"dec": 2}},
//!   {"kind": "literal", "text": "_"}, {"kind": "field", "field": "phone"},
//!   {"kind": "literal", "text": "_"}, {"kind": "time", "field": "ts", "pattern": "yyyyMMddHHmmss"}]}
//! ```
//!
//! A [`KeySpec`] deserializes from either (a JSON string holds the text form) and serializes
//! to the JSON form; [`KeySpec::to_text`] prints the text form.

mod ast;
pub(crate) mod compile;
mod decode;
mod digest;
mod field;
pub(crate) mod format;
pub mod functions;
mod layout;
pub mod opentsdb;
mod parse;
pub mod phoenix;
pub(crate) mod read;
pub(crate) mod time;
pub(crate) mod value;

pub use ast::*;
pub(crate) use compile::Hole;
pub use compile::{at_record, bucket_bounds, CompiledKey};
pub use decode::{Boundary, Decoded, DecodedField, Unrecoverable};
pub use digest::{row_digest, ROW_DIGEST_BYTES};
pub use field::{Field, FieldType};
pub use layout::{SegmentLayout, Width};
pub use value::FieldValue;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};

/// `e`, found by a check after parsing (its path names a segment: `segments/2`, or
/// `/key/segments/2` in a design document), with the line and column where that segment starts
/// in the key text `text`, so it points into what the user wrote.
pub(crate) fn in_text(text: &str, e: Error) -> Error {
    if e.location.line.is_some() {
        return e;
    }
    let path = e.location.path.as_deref().unwrap_or_default();
    match parse::locate(text, path.strip_prefix("/key/").unwrap_or(path)) {
        Some(p) => e.at_line_col(p.line, p.col),
        None => e,
    }
}

impl KeySpec {
    /// Parse the text form. Errors carry the line and column and say what was expected.
    pub fn parse_text(text: &str) -> Result<KeySpec> {
        let spec = parse::parse_text(text)?;
        spec.validate().map_err(|e| in_text(text, e))?;
        Ok(spec)
    }

    /// Parse the JSON form (`{"segments": [...]}`), or a JSON string holding the text form.
    /// Errors carry the JSON path.
    pub fn from_json(json: &str) -> Result<KeySpec> {
        let spec = crate::support::json::from_json(json, read::key_spec)?;
        spec.validate()?;
        Ok(spec)
    }

    /// The text form. `KeySpec::parse_text(&spec.to_text()) == Ok(spec)` for every valid spec.
    pub fn to_text(&self) -> String {
        format::segments_text(&self.segments)
    }

    /// The JSON form, compact.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Checks that need no field declarations: widths, bucket counts, patterns, tables.
    /// Errors carry the segment path (`segments/2/as`).
    pub fn validate(&self) -> Result<()> {
        if self.segments.is_empty() {
            return Err(
                Error::new(ErrorKind::Invalid, "the key has no segments").at_path("segments")
            );
        }
        let total = count_segments(&self.segments);
        if total > MAX_SEGMENTS {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("the key has {total} segments; at most {MAX_SEGMENTS} are allowed"),
            )
            .at_path("segments"));
        }
        validate_segments(&self.segments, "segments", 0)?;
        phoenix::validate(&self.segments, "segments", true)
    }
}

/// Segments per design, nested ones included (keeps decoding's recursion shallow).
const MAX_SEGMENTS: usize = 256;

fn count_segments(segs: &[Segment]) -> usize {
    segs.iter()
        .map(|s| {
            1 + match s {
                Segment::When(w) => count_segments(&w.then),
                // Each value also gets a literal tag-key UID in front of it.
                Segment::Tags(t) => 2 * count_segments(&t.of),
                Segment::Salt(SaltSpec { of: Some(o), .. })
                | Segment::Hash15(HashSpec { of: Some(o) })
                | Segment::Md5(HashSpec { of: Some(o) })
                | Segment::Md5Hex(Md5HexSpec { of: Some(o), .. }) => count_segments(o),
                _ => 0,
            }
        })
        .fold(0usize, usize::saturating_add)
}

fn invalid(path: &str, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at_path(path.to_string())
}

fn validate_render(r: &Render, path: &str) -> Result<()> {
    let (w, lo, hi) = match r {
        Render::Dec(w) => (*w, 1, 19),
        Render::Hex(w) | Render::HexUpper(w) => (*w, 1, 16),
        Render::Bytes(w) => (*w, 1, 8),
        _ => return Ok(()),
    };
    if w < lo || w > hi {
        return Err(invalid(
            path,
            format!(
                "{} has width {w}; allowed {lo} to {hi}",
                format::render_text(r)
            ),
        ));
    }
    Ok(())
}

fn validate_source(of: &Option<Vec<Segment>>, path: &str, depth: usize) -> Result<()> {
    match of {
        Some(s) if s.is_empty() => Err(invalid(
            path,
            "`of` must list at least one segment (leave it out to hash the rest of the key)",
        )),
        Some(s) => {
            phoenix::validate(s, &format!("{path}/of"), false)?;
            validate_segments(s, &format!("{path}/of"), depth + 1)
        }
        None => Ok(()),
    }
}

fn validate_segments(segs: &[Segment], path: &str, depth: usize) -> Result<()> {
    if depth > 32 {
        return Err(invalid(path, "segments nested more than 32 levels deep"));
    }
    for (i, s) in segs.iter().enumerate() {
        let p = format!("{path}/{i}");
        match s {
            Segment::Fixed(x)
                if x.width == 0 || x.width as usize > crate::limits::MAX_ROW_LENGTH =>
            {
                return Err(invalid(
                    &p,
                    format!(
                        "fixed width must be 1 to {} (HBase's longest row key), got {}",
                        crate::limits::MAX_ROW_LENGTH,
                        x.width
                    ),
                ))
            }
            Segment::Dec(d) if d.width == 0 || d.width > 19 => {
                return Err(invalid(
                    &p,
                    format!(
                        "dec width must be 1 to 19 (a long has 19 digits), got {}",
                        d.width
                    ),
                ))
            }
            Segment::Salt(x) => validate_salt(x, &p, depth)?,
            Segment::Random(r) => {
                validate_render(&r.render, &format!("{p}/as"))?;
                if r.buckets == 0 {
                    return Err(invalid(&p, "buckets must be at least 1"));
                }
                if r.render == Render::Letter && r.buckets > 26 {
                    return Err(invalid(
                        &format!("{p}/as"),
                        "as=letter has 26 letters; use at most 26 buckets",
                    ));
                }
            }
            Segment::Hash15(h) | Segment::Md5(h) => validate_source(&h.of, &p, depth)?,
            Segment::Md5Hex(h) => {
                validate_source(&h.of, &p, depth)?;
                if h.len == 0 || h.len > 32 {
                    return Err(invalid(
                        &format!("{p}/len"),
                        format!(
                            "len must be 1 to 32 (an MD5 has 32 hex characters), got {}",
                            h.len
                        ),
                    ));
                }
            }
            Segment::Revts(r) => {
                validate_render(&r.render, &format!("{p}/as"))?;
                if r.div.is_some_and(|d| d < 1) {
                    return Err(invalid(&format!("{p}/div"), "div must be at least 1"));
                }
            }
            Segment::Time(t) => {
                time::parse_pattern(&t.pattern).map_err(|m| invalid(&format!("{p}/pattern"), m))?;
            }
            Segment::Bucket(b) => validate_bucket(b, &p)?,
            Segment::Dict(d) => validate_table(d, Render::Long, &p)?,
            Segment::Tag(d) => validate_table(d, Render::Byte, &p)?,
            Segment::When(w) => {
                if w.is.is_empty() {
                    return Err(invalid(
                        &format!("{p}/is"),
                        "when(...) needs at least one value",
                    ));
                }
                if w.then.is_empty() {
                    return Err(invalid(
                        &format!("{p}/then"),
                        "when(...) needs at least one segment",
                    ));
                }
                phoenix::validate(&w.then, &format!("{p}/then"), false)?;
                validate_segments(&w.then, &format!("{p}/then"), depth + 1)?;
            }
            Segment::Uid(u) => opentsdb::validate_uid(u, &p)?,
            Segment::Tags(t) => {
                opentsdb::validate_tags(t, &p)?;
                phoenix::validate(&t.of, &format!("{p}/of"), false)?;
                validate_segments(&t.of, &format!("{p}/of"), depth + 1)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// A salt: its source, render and bucket count, and the limits of its hash.
fn validate_salt(x: &SaltSpec, p: &str, depth: usize) -> Result<()> {
    validate_source(&x.of, p, depth)?;
    validate_render(&x.render, &format!("{p}/as"))?;
    if x.render == Render::Letter && x.buckets > 26 {
        return Err(invalid(
            &format!("{p}/as"),
            "as=letter has 26 letters; use at most 26 buckets",
        ));
    }
    if x.buckets == 0 || x.buckets > i32::MAX as u32 {
        return Err(invalid(
            p,
            format!("buckets must be 1 to 2147483647, got {}", x.buckets),
        ));
    }
    match x.hash {
        SaltHash::Phoenix | SaltHash::Hbasewd => {
            if x.buckets > 256 {
                return Err(invalid(
                    p,
                    format!(
                        "hash={} salting allows at most 256 buckets, got {}",
                        if x.hash == SaltHash::Phoenix {
                            "phoenix"
                        } else {
                            "hbasewd"
                        },
                        x.buckets
                    ),
                ));
            }
            if x.render != Render::Byte {
                return Err(invalid(
                    &format!("{p}/as"),
                    "Phoenix and HBaseWD salts are one byte: leave `as` out",
                ));
            }
        }
        SaltHash::Opentsdb if !matches!(x.render, Render::Byte | Render::Bytes(_)) => {
            return Err(invalid(
                &format!("{p}/as"),
                "an OpenTSDB salt is written as bytes(W), W = tsd.storage.salt.width",
            ));
        }
        _ => {}
    }
    if x.modulo != ModMode::AbsOfMod && !matches!(x.hash, SaltHash::JavaString | SaltHash::Arrays) {
        return Err(invalid(
            &format!("{p}/mod"),
            "`mod` applies to the javaString and arrays hashes only",
        ));
    }
    Ok(())
}

/// A time bucket: its render, and exactly one of `mod` and `div`, at least 1.
fn validate_bucket(b: &BucketSpec, p: &str) -> Result<()> {
    validate_render(&b.render, &format!("{p}/as"))?;
    match (b.modulo, b.div) {
        (Some(n), None) | (None, Some(n)) if n >= 1 => Ok(()),
        (Some(_), Some(_)) => Err(invalid(p, "bucket takes `mod` or `div`, not both")),
        (None, None) => Err(invalid(
            p,
            "bucket needs `mod` (ts % N) or `div` (floor(ts / P))",
        )),
        _ => Err(invalid(
            p,
            "the bucket modulus or period must be at least 1",
        )),
    }
}

/// A `dict` or `tag` table (`default`: its render when `as` is left out): every id survives
/// the render, ids render to distinct bytes of one width.
fn validate_table(d: &DictSpec, default: Render, p: &str) -> Result<()> {
    let r = d.render.unwrap_or(default);
    validate_render(&r, &format!("{p}/as"))?;
    let at = format!("{p}/entries");
    if d.entries.is_empty() {
        return Err(invalid(&at, "the table is empty"));
    }
    // By hash: a table may hold 10^5 entries, validated at every keystroke on the page.
    let mut seen: std::collections::HashMap<Vec<u8>, &str> = Default::default();
    let mut width = None;
    for (k, id) in &d.entries {
        let mut b = Vec::new();
        compile::render(&r, *id, &mut b)
            .map_err(|e| invalid(&at, format!("`{k}`: {}", e.message)))?;
        if compile::unrender(&r, &b) != Ok(*id) {
            return Err(invalid(
                &at,
                format!(
                    "id {id} of `{k}` does not survive {}",
                    format::render_text(&r)
                ),
            ));
        }
        if *width.get_or_insert(b.len()) != b.len() {
            return Err(invalid(&at, "ids render to different widths"));
        }
        if let Some(other) = seen.insert(b, k) {
            return Err(invalid(
                &at,
                format!(
                    "{} and {} get the same id bytes: decoding needs distinct ids",
                    crate::support::json::quote(k),
                    crate::support::json::quote(other)
                ),
            ));
        }
    }
    Ok(())
}

/// Encode one JSON record with `spec`. A long may be a JSON number or a decimal string;
/// errors name the field and what was expected. For many records use [`CompiledKey`].
pub fn encode(spec: &KeySpec, fields: &[Field], record: &Map<String, Value>) -> Result<Vec<u8>> {
    CompiledKey::new(spec, fields)?.encode_json(record)
}

/// Decode a row key: the recovered fields, and which fields cannot be recovered and why.
pub fn decode(spec: &KeySpec, fields: &[Field], key: &[u8]) -> Result<Decoded> {
    CompiledKey::new(spec, fields)?.decode(key)
}

/// Region boundaries (start keys, split keys) read through `spec`, one per key, compiled once:
/// each boundary's salt and leading fields and its label; a boundary that does not read as
/// this key keeps its text as its label (`decoded: false`).
pub fn decode_boundaries(
    spec: &KeySpec,
    fields: &[Field],
    keys: &[Vec<u8>],
) -> Result<Vec<Boundary>> {
    let ck = CompiledKey::new(spec, fields)?;
    Ok(keys
        .iter()
        .map(|k| {
            ck.decode_boundary(k).unwrap_or_else(|_| Boundary {
                key: crate::hbase::bytes::to_string_binary(k),
                salt: None,
                fields: Vec::new(),
                label: crate::hbase::bytes::to_string_binary(k),
                decoded: false,
            })
        })
        .collect())
}

/// The byte layout of `spec`: one entry per segment with offset, width and encoding.
pub fn layout(spec: &KeySpec, fields: &[Field]) -> Result<Vec<SegmentLayout>> {
    Ok(CompiledKey::new(spec, fields)?.layout())
}

#[cfg(test)]
mod tests;
