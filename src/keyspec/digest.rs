//! A row's digest: 16 bytes that change when any of its values does, for comparing two
//! exports of one table row by row (a rekey's verification, `rekey::verify`).
//!
//! It is kept beside the row's key, not inside it, so any key can be compared: a Phoenix
//! primary key ends the key (nothing may follow it) and a salt over the rest of the key would
//! take in whatever followed. And a null is a value here, not a row refused: a cell left empty
//! is part of what must arrive.

use md5::{Digest, Md5};

use crate::hbase::bytes::to_bytes_big_decimal;
use crate::keyspec::FieldValue;

/// The width of a row's digest.
pub const ROW_DIGEST_BYTES: usize = 16;

/// Append the MD5 of `values` (every field of the design, as the reader gives them) to `out`.
/// Each value is written as its kind and its bytes, length-prefixed, so no two different lists
/// of values share their written form: a null, an empty string and a missing field differ.
pub fn row_digest(values: &[FieldValue], out: &mut Vec<u8>) {
    let mut md = Md5::new();
    let mut put = |tag: u8, bytes: &[u8]| {
        md.update([tag]);
        md.update((bytes.len() as u64).to_le_bytes());
        md.update(bytes);
    };
    for v in values {
        match v {
            FieldValue::Null => put(0, &[]),
            FieldValue::Str(s) => put(1, s.as_bytes()),
            FieldValue::Utf16(u) => {
                let b: Vec<u8> = u.iter().flat_map(|c| c.to_be_bytes()).collect();
                put(2, &b)
            }
            FieldValue::Long(x) => put(3, &x.to_be_bytes()),
            FieldValue::Double(x) => put(4, &x.to_bits().to_be_bytes()),
            FieldValue::Bool(b) => put(5, &[u8::from(*b)]),
            FieldValue::Decimal(d) => put(6, &to_bytes_big_decimal(d)),
        }
    }
    out.extend_from_slice(&md.finalize());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(values: &[FieldValue]) -> Vec<u8> {
        let mut out = vec![9];
        row_digest(values, &mut out);
        out
    }

    #[test]
    fn each_value_and_its_place_counts() {
        let a = [FieldValue::Str("ab".into()), FieldValue::Str("c".into())];
        let b = [FieldValue::Str("a".into()), FieldValue::Str("bc".into())];
        assert_ne!(d(&a), d(&b));
        assert_ne!(d(&[FieldValue::Null]), d(&[FieldValue::Str(String::new())]));
        assert_ne!(d(&[FieldValue::Long(1)]), d(&[FieldValue::Double(1.0)]));
        assert_ne!(d(&[FieldValue::Null]), d(&[]));
        assert_eq!(d(&a), d(&a.clone()));
        // appended after what `out` held, 16 bytes
        assert_eq!(d(&a).len(), 1 + ROW_DIGEST_BYTES);
        assert_eq!(d(&a)[0], 9);
    }
}
