//! Reading one op's bytes back: a field's value from its encoding, a salt or hash checked
//! against what the fields decoded so far give, a literal matched.

use super::{collect_fields, derr, Dx};
use crate::error::Result;
use crate::hbase::bytes;
use crate::keyspec::ast::Render;
use crate::keyspec::compile::{unrender, Enc, Op, Src};
use crate::keyspec::time;
use crate::keyspec::value::FieldValue;
use crate::keyspec::FieldType;

impl Dx<'_> {
    pub(super) fn read(&mut self, op: &Op, b: &[u8], pos: usize) -> Result<()> {
        let (f, enc) = match op {
            Op::Lit(l) => {
                if b != l.as_slice() {
                    return Err(derr(
                        pos,
                        format!(
                            "expected \"{}\" at byte {pos}, found \"{}\"",
                            bytes::to_string_binary(l),
                            bytes::to_string_binary(b)
                        ),
                    ));
                }
                return Ok(());
            }
            Op::Field { f, enc } => (*f, enc),
            Op::Salt { src, .. }
            | Op::Hash15 { src }
            | Op::Md5 { src }
            | Op::Md5Hex { src, .. } => {
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
                return Ok(());
            }
            Op::Random { .. } | Op::When { .. } => return Ok(()),
        };
        let (name, ty) = self
            .ck
            .fields
            .get(f)
            .cloned()
            .unwrap_or((String::new(), FieldType::String));
        let bad = |what: &str| {
            derr(
                pos,
                format!(
                    "field `{name}` at byte {pos}: \"{}\" is not {what}",
                    bytes::to_string_binary(b)
                ),
            )
        };
        let from_text = |text: &str| {
            FieldValue::from_text(ty, text)
                .ok_or_else(|| bad(&format!("the text of a {}", ty.name())))
        };
        match enc {
            Enc::Str => {
                let v = from_text(&bytes::to_string(b))?;
                self.set(f, v, true, None, pos)
            }
            Enc::Fixed {
                pad,
                left,
                truncate,
                width,
            } => {
                let trimmed: &[u8] = if *left {
                    let n = b.iter().take_while(|&&x| x == *pad).count();
                    b.get(n..).unwrap_or(&[])
                } else {
                    let n = b.iter().rev().take_while(|&&x| x == *pad).count();
                    b.get(..b.len() - n).unwrap_or(&[])
                };
                let v = from_text(&bytes::to_string(trimmed))?;
                let note = truncate.then(|| format!("values longer than {width} bytes were cut"));
                self.set(f, v, !*truncate, note, pos)
            }
            Enc::Dec { .. } => {
                if !b.iter().all(u8::is_ascii_digit) {
                    return Err(bad("decimal digits"));
                }
                let v = from_text(&bytes::to_string(b))?;
                self.set(f, v, true, None, pos)
            }
            Enc::Long(s) => {
                let n = bytes::to_long(b)?;
                self.set(
                    f,
                    FieldValue::Long(if *s { n ^ i64::MIN } else { n }),
                    true,
                    None,
                    pos,
                )
            }
            Enc::Int(s) => {
                let n = bytes::to_int(b)?;
                self.set(
                    f,
                    FieldValue::Long(i64::from(if *s { n ^ i32::MIN } else { n })),
                    true,
                    None,
                    pos,
                )
            }
            Enc::Short(s) => {
                let n = bytes::to_short(b)?;
                self.set(
                    f,
                    FieldValue::Long(i64::from(if *s { n ^ i16::MIN } else { n })),
                    true,
                    None,
                    pos,
                )
            }
            Enc::Double(s) => {
                let bits = u64::from_be_bytes(bytes::to_long(b)?.to_be_bytes());
                let bits = if !*s {
                    bits
                } else if bits >> 63 == 1 {
                    bits ^ (1 << 63)
                } else {
                    !bits
                };
                self.set(f, FieldValue::Double(f64::from_bits(bits)), true, None, pos)
            }
            Enc::Float(s) => {
                let bits = u32::from_be_bytes(bytes::to_int(b)?.to_be_bytes());
                let bits = if !*s {
                    bits
                } else if bits >> 31 == 1 {
                    bits ^ (1 << 31)
                } else {
                    !bits
                };
                self.set(
                    f,
                    FieldValue::Double(f64::from(f32::from_bits(bits))),
                    true,
                    None,
                    pos,
                )
            }
            Enc::Bool => {
                let v = b.first().is_some_and(|&x| x != 0);
                self.set(f, FieldValue::Bool(v), true, None, pos)
            }
            Enc::BigDecimal => {
                let d = bytes::to_big_decimal(b)
                    .ok_or_else(|| bad("a BigDecimal (at least 5 bytes)"))?;
                let v = if ty == FieldType::BigDecimal {
                    FieldValue::Decimal(d)
                } else {
                    from_text(&d.to_java_string())?
                };
                self.set(f, v, true, None, pos)
            }
            Enc::Reverse => {
                let units: Vec<u16> = bytes::to_string(b).encode_utf16().collect();
                let text = String::from_utf16_lossy(&bytes::reverse_utf16(&units));
                let v = from_text(&text)?;
                self.set(f, v, true, None, pos)
            }
            Enc::Revts { div, render } => {
                let r = unrender(render, b)
                    .map_err(|m| derr(pos, format!("field `{name}` at byte {pos}: {m}")))?;
                let x = i64::MAX.wrapping_sub(r);
                match div {
                    None => self.set(f, FieldValue::Long(x), true, None, pos),
                    Some(d) => {
                        let v = x
                            .checked_mul(*d)
                            .ok_or_else(|| bad("a reversed timestamp in range"))?;
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
            Enc::Time { toks, secs, .. } => {
                let at = |m: String| derr(pos, format!("field `{name}` at byte {pos}: {m}"));
                let parts = time::parse_parts(toks, b).map_err(at)?;
                if let Some(r) = self.reached.get_mut(f) {
                    *r = true;
                }
                match self.times.get_mut(f) {
                    Some(Some((p, _))) => p.merge(&parts).map_err(at)?,
                    Some(slot) => *slot = Some((parts, *secs)),
                    None => {}
                }
                // Check now that the parts make a valid time, so the error points here.
                if let Some(Some((p, _))) = self.times.get(f) {
                    p.resolve().map_err(at)?;
                }
                Ok(())
            }
            Enc::Bucket {
                modulo,
                div,
                render,
            } => {
                let q = unrender(render, b)
                    .map_err(|m| derr(pos, format!("field `{name}` at byte {pos}: {m}")))?;
                match (modulo, div) {
                    (Some(m), _) => {
                        self.lossy(f, format!("bucket keeps only {name} % {m}"));
                        Ok(())
                    }
                    (None, Some(d)) => {
                        let v = q.checked_mul(*d).ok_or_else(|| bad("a bucket in range"))?;
                        self.set(f, FieldValue::Long(v), false, Some(format!("the key holds floor({name} / {d}); the start of that period is shown")), pos)
                    }
                    (None, None) => Ok(()),
                }
            }
            Enc::Dict { entries, render } => {
                let id = unrender(render, b)
                    .map_err(|m| derr(pos, format!("field `{name}` at byte {pos}: {m}")))?;
                let (text, _) = entries
                    .iter()
                    .find(|(_, i)| *i == id || render_eq(render, *i, id))
                    .ok_or_else(|| {
                        derr(
                            pos,
                            format!("field `{name}` at byte {pos}: id {id} is not in the table"),
                        )
                    })?;
                let v = from_text(text)?;
                self.set(f, v, true, None, pos)
            }
        }
    }
}

/// Ids that render to the same bytes (a byte render keeps only the low 8 bits).
fn render_eq(r: &Render, a: i64, b: i64) -> bool {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    crate::keyspec::compile::render(r, a, &mut x).is_ok()
        && crate::keyspec::compile::render(r, b, &mut y).is_ok()
        && x == y
}
