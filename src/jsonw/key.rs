//! Map keys: serde_json's rules for which keys a map may have and how they are quoted.

use super::*;

/// Map keys as serde_json writes them: strings (and chars, unit variants) as strings,
/// integers and booleans quoted; anything else is refused.
pub(super) struct KeyWriter<'a>(pub(super) &'a mut Writer);

impl KeyWriter<'_> {
    fn quoted(self, text: &str) -> R {
        self.0.out.push('"');
        self.0.out.push_str(text);
        self.0.out.push('"');
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = WriteError;
    type SerializeSeq = ser::Impossible<(), WriteError>;
    type SerializeTuple = ser::Impossible<(), WriteError>;
    type SerializeTupleStruct = ser::Impossible<(), WriteError>;
    type SerializeTupleVariant = ser::Impossible<(), WriteError>;
    type SerializeMap = ser::Impossible<(), WriteError>;
    type SerializeStruct = ser::Impossible<(), WriteError>;
    type SerializeStructVariant = ser::Impossible<(), WriteError>;

    fn serialize_bool(self, v: bool) -> R {
        self.quoted(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_i16(self, v: i16) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_i32(self, v: i32) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_i64(self, v: i64) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_i128(self, v: i128) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_u16(self, v: u16) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_u32(self, v: u32) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_u64(self, v: u64) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_u128(self, v: u128) -> R {
        self.quoted(&v.to_string())
    }
    fn serialize_f32(self, _v: f32) -> R {
        Err(WriteError)
    }
    fn serialize_f64(self, _v: f64) -> R {
        Err(WriteError)
    }
    fn serialize_char(self, v: char) -> R {
        self.0.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.0.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> R {
        Err(WriteError)
    }
    fn serialize_none(self) -> R {
        Err(WriteError)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _v: &T) -> R {
        Err(WriteError)
    }
    fn serialize_unit(self) -> R {
        Err(WriteError)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> R {
        Err(WriteError)
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
        _variant: &'static str,
        _v: &T,
    ) -> R {
        Err(WriteError)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, WriteError> {
        Err(WriteError)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, WriteError> {
        Err(WriteError)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, WriteError> {
        Err(WriteError)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, WriteError> {
        Err(WriteError)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, WriteError> {
        Err(WriteError)
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, WriteError> {
        Err(WriteError)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, WriteError> {
        Err(WriteError)
    }
}
