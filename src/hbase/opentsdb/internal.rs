//! `net.opentsdb.core.Internal`: the base time, the column qualifier and its readers.
//!
//! A qualifier is 2 bytes for a second timestamp (`offset << 4 | flags`) or 4 bytes for a
//! millisecond one (`0xF << 28 | offset_ms << 6 | flags`); the flags are the value's length
//! minus one (bits 0-2) and the float bit (bit 3). Java arithmetic throughout: `long` and
//! `int` wrap, flags are ORed in unmasked, and a byte read past the array is
//! `ArrayIndexOutOfBoundsException` ([`ErrorKind::IndexOutOfBounds`]).

use crate::error::{Error, ErrorKind, Result};

/// `Const.SECOND_MASK`: a timestamp with any of these bits set is in milliseconds.
pub const SECOND_MASK: i64 = 0xFFFF_FFFF_0000_0000_u64 as i64;
/// `Const.MAX_TIMESPAN`: a row holds one hour.
pub const MAX_TIMESPAN: i64 = 3600;
/// `Const.FLAG_BITS`: flag bits of a second qualifier.
pub const FLAG_BITS: u32 = 4;
/// `Const.MS_FLAG_BITS`: flag bits of a millisecond qualifier.
pub const MS_FLAG_BITS: u32 = 6;
/// `Const.FLAG_FLOAT`: the value is an IEEE-754 float or double.
pub const FLAG_FLOAT: i16 = 0x8;
/// `Const.LENGTH_MASK`: the value's length minus one.
pub const LENGTH_MASK: i16 = 0x7;
/// `Const.FLAGS_MASK`.
pub const FLAGS_MASK: i16 = FLAG_FLOAT | LENGTH_MASK;
/// `Const.MS_BYTE_FLAG`: the first byte of a millisecond qualifier has its top 4 bits set.
pub const MS_BYTE_FLAG: u8 = 0xF0;
/// `Const.MS_FLAG`.
pub const MS_FLAG: i32 = 0xF000_0000_u32 as i32;

/// Whether OpenTSDB reads `timestamp` as milliseconds: any of its top 32 bits set (so a
/// negative value is "milliseconds" too, as upstream).
pub fn is_ms(timestamp: i64) -> bool {
    timestamp & SECOND_MASK != 0
}

/// `Internal.baseTime(long)`: the hour the row starts at, in seconds (`ts - ts % 3600`,
/// of `ts / 1000` for milliseconds). Java's truncating division: negative inputs round
/// towards zero, as upstream.
pub fn base_time(timestamp: i64) -> i64 {
    let t = if is_ms(timestamp) {
        timestamp / 1000
    } else {
        timestamp
    };
    t - t % MAX_TIMESPAN
}

/// `Internal.buildQualifier(timestamp, flags)`: 2 bytes for a second timestamp, 4 for a
/// millisecond one. `flags` is a Java `short` ORed in after sign extension, unmasked, so
/// flags above `0xF` (or negative ones) overwrite offset bits exactly as upstream.
pub fn build_qualifier(timestamp: i64, flags: i16) -> Vec<u8> {
    let flags = i64::from(flags);
    let base = base_time(timestamp);
    if is_ms(timestamp) {
        let delta = timestamp.wrapping_sub(base.wrapping_mul(1000));
        let qual = (delta.wrapping_shl(MS_FLAG_BITS) | flags) as i32 | MS_FLAG;
        qual.to_be_bytes().to_vec()
    } else {
        let qual = ((timestamp - base).wrapping_shl(FLAG_BITS) | flags) as i16;
        qual.to_be_bytes().to_vec()
    }
}

/// `Internal.vleEncodeLong`: the value on 1, 2, 4 or 8 bytes, the fewest that hold it as a
/// signed number (`TSDB.addPoint(long)` writes the same bytes and flags `length - 1`).
pub fn vle_encode_long(value: i64) -> Vec<u8> {
    if let Ok(b) = i8::try_from(value) {
        b.to_be_bytes().to_vec()
    } else if let Ok(s) = i16::try_from(value) {
        s.to_be_bytes().to_vec()
    } else if let Ok(i) = i32::try_from(value) {
        i.to_be_bytes().to_vec()
    } else {
        value.to_be_bytes().to_vec()
    }
}

/// `Internal.getMaxUnsignedValueOnBytes(width)`: the largest UID `width` bytes hold
/// (`Long.MAX_VALUE` for 8, Java having no unsigned long); widths outside 0..=8 are
/// `IllegalArgument` (0 gives 0, as upstream).
pub fn max_unsigned_value_on_bytes(width: i32) -> Result<i64> {
    match width {
        0..=7 => Ok((1i64 << (width * 8)) - 1),
        8 => Ok(i64::MAX),
        _ => Err(Error::arg(
            "width",
            format!("Width must be from 1 to 8 bytes: {width}"),
        )),
    }
}

/// `qualifier[i]` with Java's bounds check.
fn at(qualifier: &[u8], i: i64) -> Result<u8> {
    usize::try_from(i)
        .ok()
        .and_then(|u| qualifier.get(u).copied())
        .ok_or_else(|| {
            Error::new(
                ErrorKind::IndexOutOfBounds,
                format!("Index {i} out of bounds for length {}", qualifier.len()),
            )
            .at_path("qualifier")
        })
}

/// `Internal.validateQualifier`: `offset` must leave at least two bytes
/// (`IllegalDataException`, an `IllegalStateException`).
fn validate_qualifier(qualifier: &[u8], offset: i32) -> Result<()> {
    let len = i64::try_from(qualifier.len()).unwrap_or(i64::MAX);
    if offset < 0 || i64::from(offset) >= len - 1 {
        return Err(Error::new(
            ErrorKind::IllegalState,
            format!("Offset of [{offset}] is out of bounds for the qualifier length of [{len}]"),
        )
        .at_path("offset"));
    }
    Ok(())
}

/// The byte that carries the flags: the 4th of a millisecond qualifier, the 2nd otherwise.
fn flag_byte(qualifier: &[u8], offset: i32) -> Result<u8> {
    validate_qualifier(qualifier, offset)?;
    let o = i64::from(offset);
    if in_milliseconds(qualifier, offset)? {
        at(qualifier, o + 3)
    } else {
        at(qualifier, o + 1)
    }
}

/// `Internal.inMilliseconds(qualifier, offset)`: the qualifier at `offset` starts with the
/// millisecond marker (top 4 bits set). No length check beyond reading that byte.
pub fn in_milliseconds(qualifier: &[u8], offset: i32) -> Result<bool> {
    Ok(at(qualifier, i64::from(offset))? & MS_BYTE_FLAG == MS_BYTE_FLAG)
}

/// `Internal.getOffsetFromQualifier(qualifier, offset)`: the data point's offset from the
/// row's base time, in milliseconds.
pub fn offset_from_qualifier(qualifier: &[u8], offset: i32) -> Result<i32> {
    validate_qualifier(qualifier, offset)?;
    let o = i64::from(offset);
    if in_milliseconds(qualifier, offset)? {
        let mut b = [0u8; 4];
        for (i, x) in b.iter_mut().enumerate() {
            *x = at(qualifier, o + i as i64)?;
        }
        Ok(((u32::from_be_bytes(b) & 0x0FFF_FFC0) >> MS_FLAG_BITS) as i32)
    } else {
        let v = u16::from_be_bytes([at(qualifier, o)?, at(qualifier, o + 1)?]);
        Ok(i32::from(v >> FLAG_BITS) * 1000)
    }
}

/// `Internal.getValueLengthFromQualifier`: the value's length in bytes, `(flags & 7) + 1`.
pub fn value_length_from_qualifier(qualifier: &[u8], offset: i32) -> Result<i8> {
    let b = flag_byte(qualifier, offset)?;
    Ok((i16::from(b as i8) & LENGTH_MASK) as i8 + 1)
}

/// `Internal.getQualifierLength`: 4 for a millisecond qualifier, 2 for a second one;
/// `IllegalArgument` when the array is too short for it.
pub fn qualifier_length(qualifier: &[u8], offset: i32) -> Result<i16> {
    validate_qualifier(qualifier, offset)?;
    let (need, ms) = if in_milliseconds(qualifier, offset)? {
        (4, true)
    } else {
        (2, false)
    };
    if i64::from(offset) + need > qualifier.len() as i64 {
        return Err(Error::arg(
            "qualifier",
            if ms {
                "Detected a millisecond flag but qualifier length is too short"
            } else {
                "Qualifier length is too short"
            },
        ));
    }
    Ok(need as i16)
}

/// `Internal.getTimestampFromQualifier(qualifier, base_time, offset)`: the data point's
/// time in milliseconds (`base_time * 1000 + offset`, wrapping like Java's `long`).
pub fn timestamp_from_qualifier(qualifier: &[u8], base_time: i64, offset: i32) -> Result<i64> {
    let off = offset_from_qualifier(qualifier, offset)?;
    Ok(base_time.wrapping_mul(1000).wrapping_add(i64::from(off)))
}

/// `Internal.getFlagsFromQualifier`: the low 4 bits (length and float flag).
pub fn flags_from_qualifier(qualifier: &[u8], offset: i32) -> Result<i16> {
    Ok(i16::from(flag_byte(qualifier, offset)? as i8) & FLAGS_MASK)
}

/// `Internal.isFloat`: the float flag is set.
pub fn is_float(qualifier: &[u8], offset: i32) -> Result<bool> {
    Ok(i16::from(flag_byte(qualifier, offset)? as i8) & FLAG_FLOAT == FLAG_FLOAT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifiers_round_trip() {
        // 2013-01-01T00:00:10Z with flags 7 -> 00a7; 1,500 ms past the hour -> f0 | 1500 << 6 | 7.
        assert_eq!(build_qualifier(1356998410, 7), vec![0x00, 0xa7]);
        assert_eq!(
            build_qualifier(1356998401500, 7),
            vec![0xf0, 0x01, 0x77, 0x07]
        );
        let q = build_qualifier(1356998401500, 0xb);
        assert_eq!(offset_from_qualifier(&q, 0), Ok(1500));
        assert_eq!(flags_from_qualifier(&q, 0), Ok(0xb));
        assert_eq!(is_float(&q, 0), Ok(true));
        assert_eq!(value_length_from_qualifier(&q, 0), Ok(4));
        assert_eq!(qualifier_length(&q, 0), Ok(4));
        assert_eq!(
            timestamp_from_qualifier(&q, 1356998400, 0),
            Ok(1356998401500)
        );
    }

    #[test]
    fn bad_offsets_are_errors_not_panics() {
        for q in [&[][..], &[0xf0][..], &[0xf0, 0][..], &[0xff, 0xff, 0][..]] {
            for off in [i32::MIN, -1, 0, 1, 2, 3, i32::MAX] {
                let _ = offset_from_qualifier(q, off);
                let _ = value_length_from_qualifier(q, off);
                let _ = qualifier_length(q, off);
                let _ = flags_from_qualifier(q, off);
                let _ = is_float(q, off);
                let _ = in_milliseconds(q, off);
                let _ = timestamp_from_qualifier(q, i64::MAX, off);
            }
        }
        assert_eq!(
            offset_from_qualifier(&[0xff, 0xf0], 0).map_err(|e| e.kind),
            Err(ErrorKind::IndexOutOfBounds)
        );
        assert_eq!(
            is_float(&[0], 0).map_err(|e| e.kind),
            Err(ErrorKind::IllegalState)
        );
        for t in [i64::MIN, -1, 0, i64::MAX] {
            let _ = build_qualifier(t, i16::MIN);
            let _ = base_time(t);
        }
        assert!(max_unsigned_value_on_bytes(9).is_err());
        assert_eq!(max_unsigned_value_on_bytes(3), Ok(0xFF_FFFF));
    }
}
