//! The interpreter: encodes a record by walking the compiled ops (the plan's fallback, the
//! path every error comes from, and the only path for `random(...)` keys).

use super::*;

mod encoders;

/// One record being encoded: its values, the random generators and the scratch pool.
pub(crate) struct Encoding<'a> {
    pub fields: &'a [(String, FieldType)],
    pub vals: &'a [FieldValue],
    pub rng: &'a mut [u64],
    pub pool: &'a mut Pool,
}

pub(super) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The text a Java-string hash reads: UTF-16 code units, or ASCII bytes (the same
/// characters, one unit each).
#[derive(Clone, Copy)]
pub(super) enum Text<'a> {
    Units(&'a [u16]),
    Ascii(&'a [u8]),
}

impl Text<'_> {
    /// Java's `String.hashCode()` of the text.
    fn hash_code(self) -> i32 {
        match self {
            Text::Units(u) => hash::java_string_hash_code(u),
            Text::Ascii(b) => hash::java_hash_of(b.iter().map(|&c| i32::from(c)), 0),
        }
    }
}

/// A big-endian number (an MD5 digest) modulo `n`, 32 bits at a time: the same value as
/// `u128::from_be_bytes(d) % n` without a 128-bit division.
pub(super) fn mod_be(d: &[u8; 16], n: u32) -> u64 {
    let n = u64::from(n.max(1));
    let mut w = [0u64; 4];
    for (x, c) in w.iter_mut().zip(d.chunks_exact(4)) {
        let mut b = [0u8; 4];
        b.copy_from_slice(c);
        *x = u64::from(u32::from_be_bytes(b));
    }
    let [w0, w1, w2, w3] = w;
    if n.is_power_of_two() {
        // 2^k divides 2^32: only the last word's low bits count.
        return w3 & (n - 1);
    }
    // The first two words as one u64, then one division per word (r < n <= 2^32).
    let r = ((w0 << 32) | w1) % n;
    let r = ((r << 32) | w2) % n;
    ((r << 32) | w3) % n
}

pub(super) fn java_mod(h: i32, n: i32, m: ModMode) -> i64 {
    i64::from(match m {
        ModMode::AbsOfMod => h.wrapping_rem(n).wrapping_abs(),
        ModMode::ModOfAbs => h.wrapping_abs().wrapping_rem(n),
        ModMode::FloorMod => h.rem_euclid(n.max(1)),
    })
}

pub(super) fn field_err(field: &str, msg: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("field `{field}`: {}", msg.into()),
    )
    .at_path(field.to_string())
}

impl<'a> Encoding<'a> {
    pub(super) fn value(&self, f: usize) -> Result<(&'a FieldValue, FieldType, &'a str)> {
        let fields: &'a [(String, FieldType)] = self.fields;
        let vals: &'a [FieldValue] = self.vals;
        let (name, ty) = fields
            .get(f)
            .ok_or_else(|| Error::new(ErrorKind::IllegalState, "field index out of range"))?;
        match vals.get(f) {
            Some(FieldValue::Null) | None => Err(missing(name)),
            Some(v) => Ok((v, *ty, name.as_str())),
        }
    }

    pub(super) fn long(&self, f: usize) -> Result<(i64, &'a str)> {
        match self.value(f)? {
            (FieldValue::Long(n), _, name) => Ok((*n, name)),
            (other, _, name) => Err(field_err(
                name,
                format!("expected an integer value, got {}", other.what()),
            )),
        }
    }

    pub(crate) fn seq(&mut self, ops: &[Op], out: &mut Vec<u8>) -> Result<()> {
        for (i, op) in ops.iter().enumerate() {
            if let Some(Src::Rest) = op.src() {
                let rest = ops.get(i + 1..).unwrap_or(&[]);
                return self.prefixed(op, rest, out);
            }
            self.op(op, out)?;
        }
        Ok(())
    }

    /// A hash segment over every segment after it: reserve the prefix's width, write the rest
    /// once, hash the bytes just written and fill the prefix in (no second pass over the
    /// values, no move of the rest when the prefix has its declared width).
    pub(super) fn prefixed(&mut self, op: &Op, rest: &[Op], out: &mut Vec<u8>) -> Result<()> {
        let pos = out.len();
        let reserve = op.width().unwrap_or(0);
        out.resize(pos + reserve, 0);
        let start = pos + reserve;
        let mut saved = self.pool.words();
        if !self.rng.is_empty() {
            saved.extend_from_slice(self.rng);
        }
        let r = self.seq(rest, out);
        let mut prefix = self.pool.bytes();
        let r = r.and_then(|_| {
            let written = out.get(start..).unwrap_or(&[]);
            self.hash_into(op, rest, written, &saved, &mut prefix)
        });
        if r.is_ok() {
            match out.get_mut(pos..start) {
                Some(slot) if slot.len() == prefix.len() => slot.copy_from_slice(&prefix),
                _ => {
                    out.splice(pos..start, prefix.iter().copied());
                }
            }
        }
        self.pool.put_bytes(prefix);
        self.pool.put_words(saved);
        r
    }

    /// Hash `written`, the bytes `src` wrote with the random generators at `rng_before`.
    /// Java-string hashes read the bytes themselves when they are ASCII and no value is
    /// UTF-16 (the text is then the same characters); otherwise the text is rebuilt from the
    /// values, exactly as before.
    pub(super) fn hash_into(
        &mut self,
        op: &Op,
        src: &[Op],
        written: &[u8],
        rng_before: &[u64],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        // ASCII bytes are the text, unless a value is UTF-16 with a lone surrogate (written
        // as `?`, hashed as the surrogate): such records take the exact path below.
        let utf16 = self.vals.iter().any(|v| matches!(v, FieldValue::Utf16(_)));
        if !op.wants_text() || (!utf16 && written.is_ascii()) {
            return self.prefix(op, written, Text::Ascii(written), out);
        }
        let mut after = self.pool.words();
        after.extend_from_slice(self.rng);
        self.rng.copy_from_slice(rng_before);
        let units = self.text(src);
        self.rng.copy_from_slice(&after);
        self.pool.put_words(after);
        let units = units?;
        let r = self.prefix(op, written, Text::Units(&units), out);
        self.pool.put_units(units);
        r
    }

    /// The Java string a hash sees for `ops`, without advancing the random generators.
    pub(super) fn text(&mut self, ops: &[Op]) -> Result<Vec<u16>> {
        let saved = if self.rng.is_empty() {
            Vec::new()
        } else {
            self.rng.to_vec()
        };
        let mut units = self.pool.units();
        let mut pending = self.pool.bytes();
        let r = self.text_into(ops, &mut units, &mut pending);
        units.extend(String::from_utf8_lossy(&pending).encode_utf16());
        self.pool.put_bytes(pending);
        for (dst, src) in self.rng.iter_mut().zip(saved) {
            *dst = src;
        }
        r.map(|_| units)
    }

    pub(super) fn text_into(
        &mut self,
        ops: &[Op],
        units: &mut Vec<u16>,
        pending: &mut Vec<u8>,
    ) -> Result<()> {
        for (i, op) in ops.iter().enumerate() {
            match op {
                Op::Field { f, enc: Enc::Str } => {
                    let (v, ty, name) = self.value(*f)?;
                    units.extend(String::from_utf8_lossy(pending).encode_utf16());
                    pending.clear();
                    v.push_units(ty, name, units)?;
                }
                Op::When { f, is, then } => {
                    if self.when(*f, is)? {
                        self.text_into(then, units, pending)?;
                    }
                }
                _ if matches!(op.src(), Some(Src::Rest)) => {
                    return self.seq(ops.get(i..).unwrap_or(&[]), pending);
                }
                _ => self.op(op, pending)?,
            }
        }
        Ok(())
    }

    pub(super) fn when(&self, f: usize, is: &[String]) -> Result<bool> {
        let (v, ty, _) = self.value(f)?;
        Ok(is.iter().any(|s| v.text_eq(ty, s)))
    }

    pub(super) fn source_bytes(&mut self, src: &[Op]) -> Result<Vec<u8>> {
        let mut b = self.pool.bytes();
        self.seq(src, &mut b)?;
        Ok(b)
    }

    /// Compute a hash segment from its source (`bytes` / `units` already evaluated).
    pub(super) fn prefix(
        &mut self,
        op: &Op,
        bytes: &[u8],
        text: Text<'_>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match op {
            Op::Salt {
                hash: h,
                modulo,
                buckets,
                render: r,
                wd,
                ..
            } => {
                let n = *buckets;
                match h {
                    SaltHash::JavaString => render(r, java_mod(text.hash_code(), n, *modulo), out),
                    SaltHash::Arrays => {
                        render(r, java_mod(hash::arrays_hash_code(bytes), n, *modulo), out)
                    }
                    SaltHash::Md5 => {
                        let d = hash::md5(bytes);
                        render(r, mod_be(&d, n.unsigned_abs().max(1)) as i64, out)
                    }
                    SaltHash::Phoenix => {
                        out.push(phoenix::salt_for(bytes, n)?);
                        Ok(())
                    }
                    SaltHash::Hbasewd => {
                        match wd {
                            Some(w) => out.push(w.prefix(bytes)),
                            None => out.push(
                                crate::hbase::salt::hbasewd::one_byte_simple_hash_prefix(bytes, n)?,
                            ),
                        }
                        Ok(())
                    }
                    SaltHash::Opentsdb => {
                        let mut m = hash::arrays_hash_code(bytes).wrapping_rem(n);
                        if m < 0 {
                            m = m.wrapping_neg();
                        }
                        let w = match r {
                            Render::Bytes(w) => *w as i32,
                            _ => 1,
                        };
                        out.extend_from_slice(&opentsdb::salt_bytes(m, w)?);
                        Ok(())
                    }
                }
            }
            Op::Hash15 { .. } => {
                let h = (text.hash_code() & 0x7FFF) as i16;
                out.extend_from_slice(&bytes::to_bytes_short(h));
                Ok(())
            }
            Op::Md5 { .. } => {
                let d = hash::md5(bytes);
                out.extend_from_slice(&d);
                Ok(())
            }
            Op::Md5Hex { len, upper, .. } => {
                // MD5Hash.getMD5AsHex, written straight into the key: two hex digits per
                // digest byte, first `len` characters (the same bytes as the core's String).
                let d = hash::md5(bytes);
                let digits: &[u8; 16] = if *upper {
                    b"0123456789ABCDEF"
                } else {
                    b"0123456789abcdef"
                };
                // Into a stack buffer, then one copy: a per-byte `extend` through an iterator
                // chain cost about a third of the MD5 itself in `cargo bench --bench keyspec`.
                let mut hex = [0u8; 32];
                for (pair, &x) in hex.chunks_exact_mut(2).zip(d.iter()) {
                    if let [hi, lo] = pair {
                        *hi = digits[usize::from(x >> 4)];
                        *lo = digits[usize::from(x & 15)];
                    }
                }
                out.extend_from_slice(hex.get(..*len).unwrap_or(&hex));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn op(&mut self, op: &Op, out: &mut Vec<u8>) -> Result<()> {
        match op {
            Op::Lit(b) => {
                out.extend_from_slice(b);
                Ok(())
            }
            Op::Field { f, enc } => self.field(*f, enc, out),
            Op::Random {
                id,
                buckets,
                render: r,
            } => {
                let state = self.rng.get_mut(*id).ok_or_else(|| {
                    Error::new(ErrorKind::IllegalState, "random segment out of range")
                })?;
                let v = splitmix(state) % u64::from((*buckets).max(1));
                render(r, v as i64, out)
            }
            Op::When { f, is, then } => {
                if self.when(*f, is)? {
                    self.seq(then, out)?;
                }
                Ok(())
            }
            Op::Pk { run, index: 0 } => run.encode(self.fields, self.vals, out),
            Op::Pk { .. } => Ok(()),
            Op::Salt { src, .. }
            | Op::Hash15 { src }
            | Op::Md5 { src }
            | Op::Md5Hex { src, .. } => {
                let ops = match src {
                    Src::Ops(o) => o.as_slice(),
                    Src::Rest => &[],
                };
                let mut saved = self.pool.words();
                if !self.rng.is_empty() {
                    saved.extend_from_slice(self.rng);
                }
                let bytes = self.source_bytes(ops);
                let r = bytes.and_then(|bytes| {
                    if op.wants_text() {
                        // A Java-string hash never advanced the generators of its source.
                        self.rng.copy_from_slice(&saved);
                    }
                    let r = self.hash_into(op, ops, &bytes, &saved, out);
                    self.pool.put_bytes(bytes);
                    r
                });
                self.pool.put_words(saved);
                r
            }
        }
    }

    pub(super) fn field(&mut self, f: usize, enc: &Enc, out: &mut Vec<u8>) -> Result<()> {
        match enc {
            Enc::Str => {
                let (v, ty, name) = self.value(f)?;
                v.push_text(ty, name, out)
            }
            Enc::Fixed {
                width,
                pad,
                left,
                truncate,
            } => self.fixed(f, *width, *pad, *left, *truncate, out),
            Enc::Dec { width } => self.dec(f, *width, out),
            Enc::Long(sortable) => {
                let (n, _) = self.long(f)?;
                let n = if *sortable { n ^ i64::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_long(n));
                Ok(())
            }
            Enc::Int(sortable) => {
                let (n, name) = self.long(f)?;
                let n = i32::try_from(n)
                    .map_err(|_| field_err(name, format!("{n} does not fit an int")))?;
                let n = if *sortable { n ^ i32::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_int(n));
                Ok(())
            }
            Enc::Short(sortable) => {
                let (n, name) = self.long(f)?;
                let n = i16::try_from(n)
                    .map_err(|_| field_err(name, format!("{n} does not fit a short")))?;
                let n = if *sortable { n ^ i16::MIN } else { n };
                out.extend_from_slice(&bytes::to_bytes_short(n));
                Ok(())
            }
            Enc::Double(sortable) | Enc::Float(sortable) => {
                self.floating(f, matches!(enc, Enc::Float(_)), *sortable, out)
            }
            Enc::Bool => match self.value(f)? {
                (FieldValue::Bool(b), _, _) => {
                    out.extend_from_slice(&bytes::to_bytes_boolean(*b));
                    Ok(())
                }
                (other, _, name) => Err(field_err(
                    name,
                    format!("expected true or false, got {}", other.what()),
                )),
            },
            Enc::BigDecimal => self.big_decimal(f, out),
            Enc::Reverse => {
                let (v, ty, name) = self.value(f)?;
                let mut units = Vec::new();
                v.push_units(ty, name, &mut units)?;
                out.extend_from_slice(&bytes::reverse_string(&units));
                Ok(())
            }
            Enc::Revts { div, render: r } => {
                let (n, _) = self.long(f)?;
                let x = match div {
                    Some(d) => n.wrapping_div(*d),
                    None => n,
                };
                render(r, i64::MAX.wrapping_sub(x), out)
            }
            Enc::Time {
                toks,
                secs,
                id,
                milli,
                fixed,
            } => {
                let cached = fixed.as_ref().map(|x| (*id, x));
                self.time(f, toks, *secs, *milli, cached, out)
            }
            Enc::Bucket {
                modulo,
                div,
                render: r,
            } => {
                let (n, _) = self.long(f)?;
                let b = match (modulo, div) {
                    (Some(m), _) => n.wrapping_rem(*m),
                    (None, Some(d)) => n.div_euclid((*d).max(1)),
                    (None, None) => n,
                };
                render(r, b, out)
            }
            Enc::Dict { entries, render: r } => self.dict(f, entries, r, out),
            Enc::Uid { width, entries } => self.uid(f, *width, entries.as_ref(), out),
            Enc::BaseTime => {
                let (n, name) = self.long(f)?;
                // `TSDB.checkTimestampAndTags`: OpenTSDB writes no such row.
                if n < 0 || (crate::hbase::opentsdb::internal::is_ms(n) && n > 9_999_999_999_999) {
                    return Err(field_err(
                        name,
                        format!("OpenTSDB refuses timestamp {n}: seconds or milliseconds from 0 to 9999999999999"),
                    ));
                }
                let base = crate::hbase::opentsdb::internal::base_time(n);
                out.extend_from_slice(&(base as i32).to_be_bytes());
                Ok(())
            }
        }
    }
}
