//! Unit tests of the `Bytes` port ([`crate::hbase::bytes`]), kept out of bytes.rs so the port
//! reads on its own.

use super::*;
use crate::hbase::bigint::BigInt;

fn u(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}
fn h(s: &str) -> Vec<u8> {
    from_hex(s).unwrap_or_default()
}

#[test]
fn round_trips_from_bytes_test_base() {
    for v in [-32768i16, -100, -1, 0, 1, 300, 32767] {
        assert_eq!(to_short(&to_bytes_short(v)), Ok(v));
    }
    for v in [-1i32, 123, i32::MIN, i32::MAX] {
        assert_eq!(to_int(&to_bytes_int(v)), Ok(v));
    }
    for v in [-1i64, 123, i64::MIN, i64::MAX] {
        assert_eq!(to_long(&to_bytes_long(v)), Ok(v));
    }
    for v in [-1f32, 123.123, f32::MAX] {
        assert_eq!(
            to_float(&to_bytes_float(v)).map(f32::to_bits),
            Ok(v.to_bits())
        );
    }
    for v in [f64::MIN_POSITIVE, 5e-324, f64::MAX] {
        assert_eq!(
            to_double(&to_bytes_double(v)).map(f64::to_bits),
            Ok(v.to_bits())
        );
    }
    for (unscaled, scale) in [(-1i64, 0), (123123, 3), (123123123123, 0)] {
        let d = BigDecimal::new(BigInt::from(unscaled), scale);
        assert_eq!(to_big_decimal(&to_bytes_big_decimal(&d)), Some(d));
    }
}

#[test]
fn encoder_examples_from_spec() {
    assert_eq!(to_bytes_long(-1), [0xff; 8]);
    assert_eq!(to_bytes_long(i64::MIN), [0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(to_bytes_double(-0.0), [0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(to_bytes_boolean(true), [0xff]);
    let bd = |u: i64, s: i32| to_bytes_big_decimal(&BigDecimal::new(BigInt::from(u), s));
    assert_eq!(bd(123123, 3), h("0000000301e0f3"));
    assert_eq!(bd(0, 2), h("0000000200"));
    assert_eq!(bd(1, -3), h("fffffffd01"));
    assert_eq!(bd(128, 0), h("000000000080"));
    assert_eq!(bd(-128, 0), h("0000000080"));
    assert_eq!(bd(-129, 0), h("00000000ff7f"));
    assert_eq!(
        BigDecimal::new(BigInt::from(1), -3).to_java_string(),
        "1E+3"
    );
    assert_eq!(BigDecimal::new(BigInt::from(0), 2).to_java_string(), "0.00");
    assert_eq!(
        BigDecimal::new(BigInt::from(-384), 7).to_java_string(),
        "-0.0000384"
    );
    assert_eq!(
        BigDecimal::new(BigInt::from(-79), 14).to_java_string(),
        "-7.9E-13"
    );
    // Lone surrogates become '?', pairs become 4 bytes.
    assert_eq!(to_bytes_string(&[0xD800]), b"?");
    assert_eq!(to_bytes_string(&[0xDC00, 0x78]), b"?x");
    assert_eq!(to_bytes_string(&[0x78, 0xD83D]), b"x?");
    assert_eq!(to_bytes_string(&u("\u{1F600}")), h("f09f9880"));
}

#[test]
fn decoder_errors() {
    assert_eq!(
        to_long(&[1, 2, 3]).map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(
        to_int(&[]).map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(
        to_short(&[1]).map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(to_long(&h("00000000000000010203")), Ok(1));
    assert_eq!(to_big_decimal(&[1, 2, 3, 4]), None);
}

#[test]
fn add_three_equals_add_all() {
    let (a, b, c) = (vec![0u8; 10], vec![1u8; 11], vec![2u8; 12]);
    assert_eq!(add3(&a, &b, &c), add_all(&[&a, &b, &c]));
    assert_eq!(add(&a, &b).len(), 21);
}

#[test]
fn starts_with_facts() {
    assert!(starts_with(b"hello", b"h"));
    assert!(starts_with(b"hello", b""));
    assert!(starts_with(b"hello", b"hello"));
    assert!(!starts_with(b"hello", b"helloworld"));
    assert!(!starts_with(b"", b"hello"));
}

#[test]
fn hex_round_trips() {
    for s in [
        "",
        "00",
        "A0",
        "ff",
        "FFffFFFFFFFFFF",
        "12",
        "0123456789abcdef",
    ] {
        let b = from_hex(s).unwrap_or_else(|_| vec![0xEE]);
        assert_eq!(to_hex(&b), s.to_lowercase());
    }
    assert_eq!(
        from_hex("abc").map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(
        from_hex("zz").map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(
        from_hex_utf16(&[0xD800, 0x30]).map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
}

#[test]
fn increment_bytes_agrees_with_addition_in_31_bits() {
    let cases: [(i64, i64); 17] = [
        (10, 1),
        (12, 123435445),
        (124634654, 1),
        (10005460, 5005645),
        (1, -1),
        (10, -1),
        (10, -5),
        (1005435000, -5),
        (10, -43657655),
        (-1, 1),
        (-26, 5034520),
        (-10657200, 5),
        (-12343250, 45376475),
        (-10, -5),
        (-12343250, -5),
        (-12, -34565445),
        (-1546543452, -34565445),
    ];
    for (v, a) in cases {
        assert_eq!(
            increment_bytes(&to_bytes_long(v), a),
            Ok(to_bytes_long(v + a)),
            "{v} + {a}"
        );
    }
    // The §2 example of the 32-bit truncation bug.
    assert_eq!(
        increment_bytes(&h("000000005cf58fe1"), 2704766554876),
        Ok([0, 0, 2, 0x76, 0x1d, 0x9b, 0xe1, 0xdd])
    );
    assert_eq!(
        increment_bytes(&[0; 9], 1).map_err(|e| e.kind),
        Err(ErrorKind::IllegalArgument)
    );
    assert_eq!(
        increment_bytes(&[], 1).map_err(|e| e.kind),
        Err(ErrorKind::IndexOutOfBounds)
    );
    assert!(increment_bytes(&[0x80], i64::MIN).is_ok());
    assert!(increment_bytes(&[0x7f], i64::MIN).is_ok());
}

#[test]
fn unsigned_increment_facts() {
    assert_eq!(
        to_int(&unsigned_copy_and_increment(&to_bytes_int(0))),
        Ok(1)
    );
    assert_eq!(
        unsigned_copy_and_increment(&to_bytes_int(-1)),
        vec![1, 0, 0, 0, 0]
    );
    assert_eq!(
        to_int(&unsigned_copy_and_increment(&to_bytes_int(255))),
        Ok(256)
    );
    assert_eq!(unsigned_copy_and_increment(&[]), vec![1]);
}

#[test]
fn head_tail_pad() {
    assert_eq!(head(b"abc", 2), Ok(Some(b"ab".to_vec())));
    assert_eq!(tail(b"abc", 2), Ok(Some(b"bc".to_vec())));
    assert_eq!(head(b"abc", 4), Ok(None));
    assert_eq!(tail(b"abc", 4), Ok(None));
    assert_eq!(
        head(b"abc", -1).map_err(|e| e.kind),
        Err(ErrorKind::NegativeArraySize)
    );
    assert_eq!(
        tail(b"abc", -1).map_err(|e| e.kind),
        Err(ErrorKind::NegativeArraySize)
    );
    assert_eq!(pad_head(b"a", 2), Ok(b"\0\0a".to_vec()));
    assert_eq!(pad_tail(b"a", 2), Ok(b"a\0\0".to_vec()));
    assert_eq!(
        pad_tail(b"a", -2).map_err(|e| e.kind),
        Err(ErrorKind::NegativeArraySize)
    );
}

#[test]
fn string_binary_facts() {
    let b = [b'0', b'9', b'a', b'z', b'A', b'Z', b'@', 1];
    assert_eq!(to_string_binary(&b), "09azAZ@\\x01");
    assert_eq!(to_string_binary_range(&b, 2, 3), Ok("azA".to_string()));
    assert_eq!(to_string_binary(b"\\ \x7f"), "\\x5C \\x7F");
    assert_eq!(to_string_binary_range(&b, 8, 3), Ok(String::new()));
    assert_eq!(
        to_string_binary_range(&b, 5, 100),
        Ok("Z@\\x01".to_string())
    );
    assert_eq!(to_string_binary_range(&b, 1, i32::MAX), Ok(String::new()));
    assert_eq!(to_string_binary_range(&b, 0, -4), Ok(String::new()));
    assert_eq!(
        to_string_binary_range(&b, -1, 3).map_err(|e| e.kind),
        Err(ErrorKind::IndexOutOfBounds)
    );
    // Round trips and quirks.
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(to_bytes_binary_str(&to_string_binary(&all)), all);
    assert_eq!(to_bytes_binary_str(""), Vec::<u8>::new());
    for raw in [&b"\\xAD"[..], b"\\xAD\\"] {
        assert_eq!(to_bytes_binary_str(&to_string_binary(raw)), raw.to_vec());
    }
    assert_eq!(
        to_bytes_binary_str("abc\\x00\\x01\\"),
        b"abc\x00\x01\\".to_vec()
    );
    assert_eq!(
        to_bytes_binary_str("abc\\x00\\x01\\x"),
        b"abc\x00\x01\\x".to_vec()
    );
    assert_eq!(
        to_bytes_binary_str("abc\\x00\\x01\\x0"),
        b"abc\x00\x01\\x0".to_vec()
    );
    assert_eq!(to_bytes_binary_str("\\xab"), b"xab".to_vec());
    assert_eq!(to_bytes_binary_str("\\x4g"), b"x4g".to_vec());
    assert_eq!(to_bytes_binary_str("\\X41"), b"\\X41".to_vec());
    assert_eq!(
        to_bytes_binary_str("\u{e9}\u{20ac}\u{4e2d}"),
        vec![0xe9, 0xac, 0x2d]
    );
    let d = to_double(&to_bytes_binary_str(&to_string_binary(&to_bytes_double(
        2.17,
    ))));
    assert_eq!(d.map(f64::to_bits), Ok(2.17f64.to_bits()));
}

#[test]
fn ordering() {
    assert_eq!(compare_to(b"", b"\0"), Ordering::Less);
    assert_eq!(compare_to(&[0x80], &[0x7f]), Ordering::Greater);
    assert_eq!(compare_to(b"ab", b"abc"), Ordering::Less);
    assert_eq!(compare_to(b"ab", b"ab"), Ordering::Equal);
}

#[test]
fn recipes() {
    assert_eq!(
        reverse_timestamp(0),
        [0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
    );
    assert_eq!(reverse_timestamp(-1), i64::MIN.to_be_bytes());
    assert_eq!(reverse_string(&u("a\u{1F600}b")), h("62f09f988061"));
    // Two lone surrogates in low-high order become a pair after reversing.
    assert_eq!(reverse_utf16(&[0xDC00, 0xD800]), vec![0xD800, 0xDC00]);
}

#[test]
fn utf8_decode_is_lossy_like_java() {
    assert_eq!(
        to_string(&h("7ea400f1f122")),
        "~\u{fffd}\0\u{fffd}\u{fffd}\""
    );
    assert_eq!(to_string(&h("ed807ecd")), "\u{fffd}~\u{fffd}");
}

#[test]
fn sorted_keys_is_unsigned_byte_order() {
    let keys: Vec<Vec<u8>> = vec![
        vec![0xff],
        vec![],
        vec![0x01, 0x00],
        vec![0x01],
        vec![0x80],
        vec![0x01],
    ];
    let mut expected = keys.clone();
    expected.sort_by(|a, b| compare_to(a, b));
    assert_eq!(sorted_keys(&keys), expected);
    assert_eq!(sorted_keys(&keys)[..3], [vec![], vec![0x01], vec![0x01]]);
}
