//! The interpreter's field encoders: one field's value in the encoding its segment asks for
//! (fixed-width text, decimal digits, floating point, BigDecimal, time formats, dictionaries,
//! OpenTSDB UIDs), called from [`Encoding::field`](super::Encoding::field).

use super::*;
use crate::keyspec::compile::NameTable;
use crate::support::json::quote;

impl Encoding<'_> {
    /// `fixed(f, width)`: the value's text padded to `width` bytes (or cut, when allowed).
    #[inline]
    pub(super) fn fixed(
        &mut self,
        f: usize,
        width: usize,
        pad: u8,
        left: bool,
        truncate: bool,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let mut text = self.pool.bytes();
        let (v, ty, name) = self.value(f)?;
        v.push_text(ty, name, &mut text)?;
        if text.len() > width {
            if !truncate {
                return Err(field_err(
                    name,
                    format!(
                        "value is {} bytes, fixed width is {width} (use overflow=truncate to cut it)",
                        text.len()
                    ),
                ));
            }
            text.truncate(width);
        }
        let padn = width - text.len();
        if left {
            out.extend(std::iter::repeat(pad).take(padn));
            out.extend_from_slice(&text);
        } else {
            out.extend_from_slice(&text);
            out.extend(std::iter::repeat(pad).take(padn));
        }
        self.pool.put_bytes(text);
        Ok(())
    }

    /// `dec(f, width)`: a non-negative integer as zero-padded decimal digits.
    #[inline]
    pub(super) fn dec(&mut self, f: usize, width: usize, out: &mut Vec<u8>) -> Result<()> {
        let (n, name) = self.long(f)?;
        if n < 0 {
            return Err(field_err(
                name,
                format!("dec(...) writes non-negative numbers, got {n}"),
            ));
        }
        let mut buf = [0u8; 20];
        let s = crate::keyspec::value::digits(n.unsigned_abs(), &mut buf);
        if s.len() > width {
            return Err(field_err(
                name,
                format!("{n} has {} digits, dec width is {width}", s.len()),
            ));
        }
        out.extend(std::iter::repeat(b'0').take(width - s.len()));
        out.extend_from_slice(s);
        Ok(())
    }

    /// `double(f)` or `float(f)` (`float`): IEEE bits big-endian, flipped so bytes sort like
    /// numbers when `sortable`.
    #[inline]
    pub(super) fn floating(
        &mut self,
        f: usize,
        float: bool,
        sortable: bool,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (v, ty, name) = self.value(f)?;
        let d = match v {
            FieldValue::Double(d) => *d,
            other => {
                return Err(field_err(
                    name,
                    format!("expected a number, got {}", other.what()),
                ))
            }
        };
        if float {
            let bits = (d as f32).to_bits();
            let bits = if !sortable {
                bits
            } else if bits >> 31 == 1 {
                !bits
            } else {
                bits ^ (1 << 31)
            };
            out.extend_from_slice(&bits.to_be_bytes());
        } else {
            let d = if ty == FieldType::Float {
                f64::from(d as f32)
            } else {
                d
            };
            let bits = d.to_bits();
            let bits = if !sortable {
                bits
            } else if bits >> 63 == 1 {
                !bits
            } else {
                bits ^ (1 << 63)
            };
            out.extend_from_slice(&bits.to_be_bytes());
        }
        Ok(())
    }

    /// `bigDecimal(f)`: `Bytes.toBytes(BigDecimal)` of a decimal or an integer.
    #[inline]
    pub(super) fn big_decimal(&mut self, f: usize, out: &mut Vec<u8>) -> Result<()> {
        match self.value(f)? {
            (FieldValue::Decimal(d), _, _) => {
                out.extend_from_slice(&bytes::to_bytes_big_decimal(d));
                Ok(())
            }
            (FieldValue::Long(n), _, _) => {
                let d = bytes::BigDecimal::new((*n).into(), 0);
                out.extend_from_slice(&bytes::to_bytes_big_decimal(&d));
                Ok(())
            }
            (other, _, name) => Err(field_err(
                name,
                format!("expected a decimal, got {}", other.what()),
            )),
        }
    }

    /// `time(f, pattern)`: the formatted UTC time; `cached`: the cache slot and the compiled
    /// pattern, when the pattern compiled.
    #[inline]
    pub(super) fn time(
        &mut self,
        f: usize,
        toks: &[time::Tok],
        secs: bool,
        milli: bool,
        cached: Option<(usize, &time::Fixed)>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (n, name) = self.long(f)?;
        let ms = if secs {
            n.checked_mul(1000)
                .ok_or_else(|| field_err(name, format!("{n} seconds is out of range")))?
        } else {
            n
        };
        // The text depends on the second only (or the ms when it prints them).
        let key = if milli { ms } else { ms.div_euclid(1000) };
        let Some((id, fixed)) = cached else {
            // Wider than the cache: formatted every time.
            let civil = time::civil_cached(ms, &mut self.pool.day)
                .map_err(|e| field_err(name, e.message))?;
            time::push_civil(toks, &civil, out);
            return Ok(());
        };
        // A pool made for one call (decoding) starts without slots.
        if self.pool.times.len() <= id {
            self.pool.times.resize(id + 1, TimeCache::default());
        }
        let Pool { times, day, .. } = &mut *self.pool;
        match times.get_mut(id) {
            Some(c) => c
                .push(key, ms, fixed, day, out)
                .map_err(|e| field_err(name, e.message)),
            None => Err(Error::new(ErrorKind::IllegalState, "time cache slot")),
        }
    }

    /// `dict(f, table)`: the value's id in the table.
    #[inline]
    pub(super) fn dict(
        &mut self,
        f: usize,
        table: &NameTable,
        r: &Render,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (v, ty, name) = self.value(f)?;
        match table.id_of(v, ty) {
            Some(id) => render(r, id, out),
            None => {
                let mut t = Vec::new();
                v.push_text(ty, name, &mut t)?;
                let entries = table.entries();
                let known: Vec<String> = entries.iter().take(8).map(|(k, _)| quote(k)).collect();
                Err(field_err(
                    name,
                    format!(
                        "{} is not in the table ({}{})",
                        quote(&String::from_utf8_lossy(&t)),
                        known.join(", "),
                        if entries.len() > 8 { ", …" } else { "" }
                    ),
                ))
            }
        }
    }

    /// `uid(f, width, table)`: the value's UID from the table, or the one this field's
    /// values were given in order of first appearance; big-endian on `width` bytes.
    pub(super) fn uid(
        &mut self,
        f: usize,
        width: u32,
        entries: Option<&NameTable>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (v, ty, name) = self.value(f)?;
        let id = match entries {
            Some(e) => match e.id_of(v, ty) {
                Some(id) => id,
                None => {
                    let mut t = Vec::new();
                    v.push_text(ty, name, &mut t)?;
                    return Err(field_err(
                        name,
                        format!(
                            "no UID for {} in the table (NoSuchUniqueName)",
                            quote(&String::from_utf8_lossy(&t))
                        ),
                    ));
                }
            },
            None => {
                let mut t = self.pool.bytes();
                v.push_text(ty, name, &mut t)?;
                if self.pool.uids.len() <= f {
                    self.pool.uids.resize_with(f + 1, Default::default);
                }
                let r = match self.pool.uids.get_mut(f) {
                    Some(table) => table.id(&t, &mut self.pool.uid_bytes),
                    None => Err(Error::new(ErrorKind::IllegalState, "no UID table")),
                };
                self.pool.put_bytes(t);
                r?
            }
        };
        crate::keyspec::opentsdb::uid_bytes(id, width, out).ok_or_else(|| {
            field_err(
                name,
                format!(
                    "UID {id} does not fit {width} bytes (all UIDs of this width are assigned)"
                ),
            )
        })
    }
}
