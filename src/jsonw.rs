//! The JSON writer for results: a `serde::Serializer` that writes the very text
//! `serde_json::to_string` / `to_string_pretty` write (same escapes, same float digits through
//! the same `zmij`, same pretty layout), into a `String`.
//!
//! Why not serde_json's own: its writer is generic over `io::Write` and a `Formatter`, so every
//! `Serialize` impl is compiled once for the compact and once more for the pretty form, and
//! each field inlines key escaping and `io::Error` plumbing. Here the layout is a run-time flag
//! (one copy of every impl), the error is a unit (nothing to build or drop), and the pieces
//! every field needs (`,`, the key, `:`) are one shared, non-inlined call.
//!
//! The tests compare the output with serde_json's, byte for byte, for the results of every
//! preset (analysis, read plans, lint, layout, …) and for edge values.

use std::fmt;

use serde::ser::{self, Serialize};

/// The only failure: a value serde_json refuses too (a map key that is not a string or a
/// number, or an error raised by a `Serialize` impl).
#[derive(Debug)]
pub struct WriteError;

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot write as JSON")
    }
}

impl std::error::Error for WriteError {}

impl ser::Error for WriteError {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        WriteError
    }
}

type R = Result<(), WriteError>;

/// `serde_json::to_string(v)`, or `None` where that fails.
pub fn to_string<T: Serialize + ?Sized>(v: &T) -> Option<String> {
    write(v, false)
}

/// `serde_json::to_string_pretty(v)` (two-space indent), or `None` where that fails.
pub fn to_string_pretty<T: Serialize + ?Sized>(v: &T) -> Option<String> {
    write(v, true)
}

/// `s` as a JSON string literal (`"12a"`, quotes and control characters escaped), for
/// messages that quote user text: `{:?}` would do the same for ASCII but links core's
/// Unicode tables (`is_printable`, about 9 KB of wasm) for the rest.
pub fn quote(s: &str) -> String {
    to_string(s).unwrap_or_default()
}

/// A JSON value as compact text, as its `Display` writes it: that goes through serde_json's
/// own writer and `std::io::Write`, whose error path links `std::io::Error` and core's
/// `Debug` for `str` (Unicode tables included), about 1 KB of the gzipped wasm.
pub fn json_text(v: &serde_json::Value) -> String {
    to_string(v).unwrap_or_default()
}

fn write<T: Serialize + ?Sized>(v: &T, pretty: bool) -> Option<String> {
    let mut w = Writer {
        out: String::new(),
        pretty,
        indent: 0,
        has_value: false,
    };
    v.serialize(&mut w).ok()?;
    Some(w.out)
}

/// The output and, for the pretty form, serde_json's `PrettyFormatter` state (`has_value` is
/// one flag for the whole document there too).
pub struct Writer {
    out: String,
    pretty: bool,
    indent: usize,
    has_value: bool,
}

impl Writer {
    #[inline(never)]
    fn open(&mut self, c: char) {
        self.indent += 1;
        self.has_value = false;
        self.out.push(c);
    }

    #[inline(never)]
    fn close(&mut self, c: char) {
        self.indent = self.indent.saturating_sub(1);
        if self.pretty && self.has_value {
            self.newline();
        }
        self.out.push(c);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// Before an array element or object key.
    #[inline(never)]
    fn item(&mut self, first: bool) {
        if !first {
            self.out.push(',');
        }
        if self.pretty {
            self.newline();
        }
    }

    /// Before an object value.
    fn colon(&mut self) {
        self.out.push_str(if self.pretty { ": " } else { ":" });
    }

    /// `,"key":` (or the pretty form).
    #[inline(never)]
    fn key(&mut self, first: bool, key: &str) {
        self.item(first);
        self.string(key);
        self.colon();
    }

    /// A JSON string with serde_json's escapes: `\"`, `\\`, `\b \t \n \f \r`, other control
    /// characters as `\u00xx`; everything else (also U+007F and non-ASCII) as is.
    #[inline(never)]
    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\u{8}' => self.out.push_str("\\b"),
                '\t' => self.out.push_str("\\t"),
                '\n' => self.out.push_str("\\n"),
                '\u{c}' => self.out.push_str("\\f"),
                '\r' => self.out.push_str("\\r"),
                '\0'..='\u{1f}' => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let b = c as usize;
                    self.out.push_str("\\u00");
                    for d in [b >> 4, b & 15] {
                        self.out
                            .push(char::from(HEX.get(d).copied().unwrap_or(b'0')));
                    }
                }
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    #[inline(never)]
    fn uint(&mut self, neg: bool, v: u64) {
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        let mut v = v;
        loop {
            i -= 1;
            if let Some(slot) = buf.get_mut(i) {
                *slot = b'0' + (v % 10) as u8;
            }
            v /= 10;
            if v == 0 || i == 0 {
                break;
            }
        }
        if neg {
            self.out.push('-');
        }
        for &b in buf.get(i..).unwrap_or_default() {
            self.out.push(char::from(b));
        }
    }

    #[inline(never)]
    fn float(&mut self, finite: bool, text: &str) {
        self.out.push_str(if finite { text } else { "null" });
    }

    /// `{"variant":` before the value of a newtype/tuple/struct variant.
    fn variant(&mut self, variant: &str) {
        self.open('{');
        self.key(true, variant);
    }

    /// `}` after the value of a variant.
    fn end_variant(&mut self) {
        self.has_value = true;
        self.close('}');
    }
}

/// An array or object being written; `wrap` closes the `{"variant":…}` around it.
pub struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
    wrap: bool,
}

impl Compound<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.w.item(self.first);
        self.first = false;
        v.serialize(&mut *self.w)?;
        self.w.has_value = true;
        Ok(())
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> R {
        self.w.key(self.first, key);
        self.first = false;
        v.serialize(&mut *self.w)?;
        self.w.has_value = true;
        Ok(())
    }

    fn end(self, c: char) -> R {
        self.w.close(c);
        if self.wrap {
            self.w.end_variant();
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = WriteError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> R {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> R {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> R {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> R {
        self.uint(v < 0, v.unsigned_abs());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> R {
        self.out.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> R {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> R {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> R {
        self.uint(false, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> R {
        self.out.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.float(v.is_finite(), zmij::Buffer::new().format_finite(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.float(v.is_finite(), zmij::Buffer::new().format_finite(v));
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        let mut seq = ser::Serializer::serialize_seq(self, Some(v.len()))?;
        for b in v {
            seq.element(b)?;
        }
        seq.end(']')
    }
    fn serialize_none(self) -> R {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> R {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> R {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        v: &T,
    ) -> R {
        self.variant(variant);
        v.serialize(&mut *self)?;
        self.end_variant();
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, WriteError> {
        self.open('[');
        Ok(Compound {
            w: self,
            first: true,
            wrap: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, WriteError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, WriteError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, WriteError> {
        self.variant(variant);
        self.open('[');
        Ok(Compound {
            w: self,
            first: true,
            wrap: true,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, WriteError> {
        self.open('{');
        Ok(Compound {
            w: self,
            first: true,
            wrap: false,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, WriteError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, WriteError> {
        self.variant(variant);
        self.open('{');
        Ok(Compound {
            w: self,
            first: true,
            wrap: true,
        })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.element(v)
    }
    fn end(self) -> R {
        Compound::end(self, ']')
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.element(v)
    }
    fn end(self) -> R {
        Compound::end(self, ']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.element(v)
    }
    fn end(self) -> R {
        Compound::end(self, ']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.element(v)
    }
    fn end(self) -> R {
        Compound::end(self, ']')
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        self.w.item(self.first);
        self.first = false;
        key.serialize(KeyWriter(&mut *self.w))?;
        self.w.colon();
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut *self.w)?;
        self.w.has_value = true;
        Ok(())
    }
    fn end(self) -> R {
        Compound::end(self, '}')
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R {
        self.field(key, v)
    }
    fn end(self) -> R {
        Compound::end(self, '}')
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = WriteError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R {
        self.field(key, v)
    }
    fn end(self) -> R {
        Compound::end(self, '}')
    }
}

mod key;

use key::KeyWriter;

#[cfg(test)]
mod tests;
