//! Reading one op's bytes back: a field's value from its encoding, a salt or hash checked
//! against what the fields decoded so far give, a literal matched.

use super::{collect_fields, derr, Decoding};
use crate::error::{Error, Result};
use crate::hbase::bytes;
use crate::keyspec::ast::Render;
use crate::keyspec::compile::{unrender, Enc, Op, Src};
use crate::keyspec::time;
use crate::keyspec::value::FieldValue;
use crate::keyspec::FieldType;

/// One field's bytes being read, with what its errors name: the field and the byte offset.
struct FieldBytes<'b> {
    f: usize,
    name: String,
    ty: FieldType,
    bytes: &'b [u8],
    pos: usize,
}

impl FieldBytes<'_> {
    /// The bytes are not `what`.
    fn not(&self, what: &str) -> Error {
        derr(
            self.pos,
            format!(
                "field `{}` at byte {}: \"{}\" is not {what}",
                self.name,
                self.pos,
                bytes::to_string_binary(self.bytes)
            ),
        )
    }

    /// An error about the field at its offset.
    fn error(&self, msg: impl std::fmt::Display) -> Error {
        derr(
            self.pos,
            format!("field `{}` at byte {}: {msg}", self.name, self.pos),
        )
    }

    /// The field's value from its text.
    fn value_of_text(&self, text: &str) -> Result<FieldValue> {
        FieldValue::from_text(self.ty, text)
            .ok_or_else(|| self.not(&format!("the text of a {}", self.ty.name())))
    }

    /// The field's value from the bytes as UTF-8 text.
    fn text_value(&self) -> Result<FieldValue> {
        self.value_of_text(&bytes::to_string(self.bytes))
    }
}

impl Decoding<'_> {
    pub(super) fn read(&mut self, op: &Op, b: &[u8], pos: usize) -> Result<()> {
        match op {
            Op::Lit(l) if b != l.as_slice() => Err(derr(
                pos,
                format!(
                    "expected \"{}\" at byte {pos}, found \"{}\"",
                    bytes::to_string_binary(l),
                    bytes::to_string_binary(b)
                ),
            )),
            // A primary key is read as a whole by `Decoding::run_pk`.
            Op::Lit(_) | Op::Random { .. } | Op::When { .. } | Op::Pk { .. } => Ok(()),
            Op::Field { f, enc } => {
                let (name, ty) = self
                    .ck
                    .fields
                    .get(*f)
                    .cloned()
                    .unwrap_or((String::new(), FieldType::String));
                let field = FieldBytes {
                    f: *f,
                    name,
                    ty,
                    bytes: b,
                    pos,
                };
                self.read_field(&field, enc)
            }
            Op::Salt { src, .. }
            | Op::Hash15 { src }
            | Op::Md5 { src }
            | Op::Md5Hex { src, .. } => {
                self.hashed(op, src);
                Ok(())
            }
        }
    }

    /// The fields a hash reads are lost to it (one-way).
    fn hashed(&mut self, op: &Op, src: &Src) {
        if let Src::Ops(o) = src {
            let what = match op {
                Op::Salt { .. } => "hashed into a salt bucket (one-way)",
                Op::Hash15 { .. } => "hashed into hash15 (one-way)",
                Op::Md5 { .. } => "hashed by md5 (one-way)",
                _ => "hashed by md5Hex (one-way)",
            };
            let mut fs = Vec::new();
            collect_fields(o, &mut fs);
            for f in fs {
                self.lossy(f, what.to_string());
            }
        }
    }

    fn read_field(&mut self, field: &FieldBytes, enc: &Enc) -> Result<()> {
        let (f, b, pos) = (field.f, field.bytes, field.pos);
        match enc {
            Enc::Str => self.set(f, field.text_value()?, true, None, pos),
            Enc::Fixed {
                pad,
                left,
                truncate,
                width,
            } => {
                let trimmed = trim_pad(b, *pad, *left);
                let v = field.value_of_text(&bytes::to_string(trimmed))?;
                let note = truncate.then(|| format!("values longer than {width} bytes were cut"));
                self.set(f, v, !*truncate, note, pos)
            }
            Enc::Dec { .. } => {
                if !b.iter().all(u8::is_ascii_digit) {
                    return Err(field.not("decimal digits"));
                }
                self.set(f, field.text_value()?, true, None, pos)
            }
            Enc::Long(s) => self.set(f, long_value(b, *s)?, true, None, pos),
            Enc::Int(s) => self.set(f, int_value(b, *s)?, true, None, pos),
            Enc::Short(s) => self.set(f, short_value(b, *s)?, true, None, pos),
            Enc::Double(s) => self.set(f, double_value(b, *s)?, true, None, pos),
            Enc::Float(s) => self.set(f, float_value(b, *s)?, true, None, pos),
            Enc::Bool => {
                let v = b.first().is_some_and(|&x| x != 0);
                self.set(f, FieldValue::Bool(v), true, None, pos)
            }
            Enc::BigDecimal => {
                let d = bytes::to_big_decimal(b)
                    .ok_or_else(|| field.not("a BigDecimal (at least 5 bytes)"))?;
                let v = if field.ty == FieldType::BigDecimal {
                    FieldValue::Decimal(d)
                } else {
                    field.value_of_text(&d.to_java_string())?
                };
                self.set(f, v, true, None, pos)
            }
            Enc::Reverse => {
                let units: Vec<u16> = bytes::to_string(b).encode_utf16().collect();
                let text = String::from_utf16_lossy(&bytes::reverse_utf16(&units));
                self.set(f, field.value_of_text(&text)?, true, None, pos)
            }
            Enc::Revts { div, render } => self.read_revts(field, *div, render),
            Enc::Time { toks, secs, .. } => self.read_time(field, toks, *secs),
            Enc::Bucket {
                modulo,
                div,
                render,
            } => self.read_bucket(field, *modulo, *div, render),
            Enc::Dict { entries, render } => {
                let id = unrender(render, b).map_err(|m| field.error(m))?;
                let (text, _) = entries
                    .entries()
                    .iter()
                    .find(|(_, i)| *i == id || render_eq(render, *i, id))
                    .ok_or_else(|| field.error(format!("id {id} is not in the table")))?;
                self.set(f, field.value_of_text(text)?, true, None, pos)
            }
            Enc::Uid { entries, .. } => {
                let id = crate::keyspec::opentsdb::uid_value(b)
                    .ok_or_else(|| field.not("a UID of at most 8 bytes"))?;
                match entries {
                    Some(e) => {
                        let (text, _) =
                            e.entries().iter().find(|(_, i)| *i == id).ok_or_else(|| {
                                field.error(format!("UID {id} is not in the table"))
                            })?;
                        self.set(f, field.value_of_text(text)?, true, None, pos)
                    }
                    None => match self.ck.assigned_uid(f, id) {
                        Some(name) => {
                            let v = field.value_of_text(&bytes::to_string(name))?;
                            self.set(f, v, true, None, pos)
                        }
                        None => {
                            let why = format!("UID {id} was not assigned by this key yet (UIDs are given in order of first appearance)");
                            self.lossy(f, why);
                            Ok(())
                        }
                    },
                }
            }
            Enc::BaseTime => {
                let mut x = [0u8; 4];
                if x.len() != b.len() {
                    return Err(field.not("a 4-byte base time"));
                }
                x.copy_from_slice(b);
                // `Internal.baseTime(row)` reads it with `Bytes.getUnsignedInt`.
                let secs = i64::from(u32::from_be_bytes(x));
                let (v, unit) = if field.ty == FieldType::Timestamp {
                    (secs * 1000, "ms")
                } else {
                    (secs, "seconds")
                };
                let note = format!(
                    "the key holds the hour {} falls in (OpenTSDB's base time, in {unit})",
                    field.name
                );
                self.set(f, FieldValue::Long(v), false, Some(note), pos)
            }
        }
    }

    /// `Long.MAX_VALUE - ts` (or `- ts / div`): the timestamp back, its remainder lost.
    fn read_revts(&mut self, field: &FieldBytes, div: Option<i64>, render: &Render) -> Result<()> {
        let (f, name, pos) = (field.f, &field.name, field.pos);
        let r = unrender(render, field.bytes).map_err(|m| field.error(m))?;
        let x = i64::MAX.wrapping_sub(r);
        match div {
            None => self.set(f, FieldValue::Long(x), true, None, pos),
            Some(d) => {
                let v = x
                    .checked_mul(d)
                    .ok_or_else(|| field.not("a reversed timestamp in range"))?;
                self.set(
                    f,
                    FieldValue::Long(v),
                    false,
                    Some(format!("the key holds {name} / {d}; the remainder is lost")),
                    pos,
                )
            }
        }
    }

    /// A time's text: its parts merged with the field's other times, resolved after the key.
    fn read_time(&mut self, field: &FieldBytes, toks: &[time::Tok], secs: bool) -> Result<()> {
        let f = field.f;
        let parts = time::parse_parts(toks, field.bytes).map_err(|m| field.error(m))?;
        if let Some(r) = self.reached.get_mut(f) {
            *r = true;
        }
        match self.times.get_mut(f) {
            Some(Some((p, _))) => p.merge(&parts).map_err(|m| field.error(m))?,
            Some(slot) => *slot = Some((parts, secs)),
            None => {}
        }
        // Check now that the parts make a valid time, so the error points here.
        if let Some(Some((p, _))) = self.times.get(f) {
            p.resolve().map_err(|m| field.error(m))?;
        }
        Ok(())
    }

    /// A time bucket: `ts % m` keeps no value, `floor(ts / d)` the start of its period.
    fn read_bucket(
        &mut self,
        field: &FieldBytes,
        modulo: Option<i64>,
        div: Option<i64>,
        render: &Render,
    ) -> Result<()> {
        let (f, name, pos) = (field.f, &field.name, field.pos);
        let q = unrender(render, field.bytes).map_err(|m| field.error(m))?;
        match (modulo, div) {
            (Some(m), _) => {
                let why = format!("bucket keeps only {name} % {m}");
                self.lossy(f, why);
                Ok(())
            }
            (None, Some(d)) => {
                let v = q
                    .checked_mul(d)
                    .ok_or_else(|| field.not("a bucket in range"))?;
                let note =
                    format!("the key holds floor({name} / {d}); the start of that period is shown");
                self.set(f, FieldValue::Long(v), false, Some(note), pos)
            }
            (None, None) => Ok(()),
        }
    }
}

/// The bytes of a fixed-width value without its padding.
fn trim_pad(b: &[u8], pad: u8, left: bool) -> &[u8] {
    if left {
        let n = b.iter().take_while(|&&x| x == pad).count();
        b.get(n..).unwrap_or(&[])
    } else {
        let n = b.iter().rev().take_while(|&&x| x == pad).count();
        b.get(..b.len() - n).unwrap_or(&[])
    }
}

/// `Bytes.toLong`, the sign bit flipped back when sortable.
fn long_value(b: &[u8], sortable: bool) -> Result<FieldValue> {
    let n = bytes::to_long(b)?;
    Ok(FieldValue::Long(if sortable { n ^ i64::MIN } else { n }))
}

/// `Bytes.toInt`, the sign bit flipped back when sortable.
fn int_value(b: &[u8], sortable: bool) -> Result<FieldValue> {
    let n = bytes::to_int(b)?;
    Ok(FieldValue::Long(i64::from(if sortable {
        n ^ i32::MIN
    } else {
        n
    })))
}

/// `Bytes.toShort`, the sign bit flipped back when sortable.
fn short_value(b: &[u8], sortable: bool) -> Result<FieldValue> {
    let n = bytes::to_short(b)?;
    Ok(FieldValue::Long(i64::from(if sortable {
        n ^ i16::MIN
    } else {
        n
    })))
}

/// `Bytes.toDouble`, the sortable bit flips undone.
fn double_value(b: &[u8], sortable: bool) -> Result<FieldValue> {
    let bits = u64::from_be_bytes(bytes::to_long(b)?.to_be_bytes());
    let bits = if !sortable {
        bits
    } else if bits >> 63 == 1 {
        bits ^ (1 << 63)
    } else {
        !bits
    };
    Ok(FieldValue::Double(f64::from_bits(bits)))
}

/// `Bytes.toFloat`, the sortable bit flips undone.
fn float_value(b: &[u8], sortable: bool) -> Result<FieldValue> {
    let bits = u32::from_be_bytes(bytes::to_int(b)?.to_be_bytes());
    let bits = if !sortable {
        bits
    } else if bits >> 31 == 1 {
        bits ^ (1 << 31)
    } else {
        !bits
    };
    Ok(FieldValue::Double(f64::from(f32::from_bits(bits))))
}

/// Ids that render to the same bytes (a byte render keeps only the low 8 bits).
fn render_eq(r: &Render, a: i64, b: i64) -> bool {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    crate::keyspec::compile::render(r, a, &mut x).is_ok()
        && crate::keyspec::compile::render(r, b, &mut y).is_ok()
        && x == y
}
