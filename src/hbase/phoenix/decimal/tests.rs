use super::bytes::{at, header, ZERO_BYTE};
use super::*;
use crate::hbase::phoenix::SortOrder;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn enc(s: &str) -> String {
    hex(&Decimal::parse(s).unwrap().to_phoenix_bytes().unwrap())
}

#[test]
fn parse_keeps_java_scale() {
    let d = Decimal::parse("1.00").unwrap();
    assert_eq!((d.unscaled_digits(), d.scale()), (&[1u8, 0, 0][..], 2));
    let d = Decimal::parse("-1.5E+3").unwrap();
    assert_eq!(
        (d.signum(), d.scale(), d.to_java_string()),
        (-1, -2, "-1.5E+3".into())
    );
    assert_eq!(Decimal::parse("0E-10").unwrap().to_java_string(), "0E-10");
    for t in [
        "0.00", "123.45", "1E+3", "-7.9E-13", "0.000001", "1E-7", "-0.5", "12", "0",
    ] {
        let d = Decimal::parse(t).unwrap();
        assert_eq!(d.to_java_string(), t);
        assert_eq!(d.to_java_string(), d.to_big_decimal().to_java_string());
    }
    for bad in [
        "",
        "-",
        "1..2",
        "1e",
        "1e+",
        "x",
        "1E99999999999",
        "1E-2147483649",
    ] {
        let e = Decimal::parse(bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NumberFormat, "{bad}");
    }
    assert_eq!(Decimal::parse("1E00000000000005").unwrap().scale(), -5);
}

#[test]
fn encodes_like_phoenix() {
    assert_eq!(enc("1.234"), "c1021829");
    assert_eq!(enc("1E+200"), "a502");
    assert_eq!(enc("0"), "80");
    assert_eq!(enc("-1.5"), "3e643366");
    assert_eq!(enc("9.9E+125"), "ff64");
    assert_eq!(enc("1E-128"), "8102");
}

#[test]
fn round_trips_through_bytes() {
    for s in [
        "1.234",
        "-1.5",
        "123456789012345678901234567890",
        "-0.0001",
        "1E+10",
        "7",
    ] {
        let d = Decimal::parse(s).unwrap();
        let back = Decimal::from_phoenix_bytes(&d.to_phoenix_bytes().unwrap()).unwrap();
        assert_eq!(back.normalize().unwrap(), d.normalize().unwrap(), "{s}");
    }
}

#[test]
fn rounds_half_up_and_carries() {
    let d = Decimal::parse(&"9".repeat(39))
        .unwrap()
        .normalize()
        .unwrap();
    assert_eq!(d.to_java_string(), "1E+39");
    let d = Decimal::parse("-1.25").unwrap().round_half_up(2).unwrap();
    assert_eq!(d.to_java_string(), "-1.3");
}

#[test]
fn coerce_checks_capacity_and_cuts_fraction() {
    let so = SortOrder::Desc;
    let v = Decimal::parse("1.234").unwrap();
    assert_eq!(
        hex(&coerce(&v, Some(5), Some(2), so, "D").unwrap()),
        "c10218"
    );
    let v = Decimal::parse("1.2").unwrap();
    assert_eq!(
        hex(&coerce(&v, Some(5), Some(2), so, "D").unwrap()),
        "3efdea"
    );
    let e = coerce(
        &Decimal::parse("1234.5").unwrap(),
        Some(5),
        Some(2),
        so,
        "D",
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::DataExceedsCapacity);
    assert_eq!(e.message, "value 1234.5 exceeds DECIMAL(5,2)");
}

/// `toBigDecimal` as Java computes it, with big-integer arithmetic: the reference for the
/// linear carry pass in `decode`.
fn reference_decode(b: &[u8]) -> Option<Decimal> {
    if b == [ZERO_BYTE] {
        return Some(Decimal::zero());
    }
    let (signum, mut scale, index, off) = header(b, SortOrder::Asc, "").ok()?;
    let at = |i: i64| at(b, i, SortOrder::Asc, "").ok();
    let mut l = i64::from(signum * at(index - 1)? - off);
    let mut mult = BigInt::from(100);
    if l % 10 == 0 {
        scale -= 1;
        l /= 10;
        mult = BigInt::from(10);
    }
    let mut total = BigInt::from(l);
    let mut i = index - 2;
    while i >= 1 {
        let d = i64::from(signum * at(i)? - off);
        let term = mult.abs().mul_small(u32::try_from(d.unsigned_abs()).ok()?);
        total = total.add(&if d < 0 { term.neg() } else { term });
        mult = mult.mul_small(100);
        i -= 1;
    }
    if signum < 0 {
        total = total.neg();
    }
    let adjust = i32::try_from(index - 2).ok()?.wrapping_mul(2);
    Some(from_bigint(&total, scale.wrapping_add(adjust)))
}

#[test]
fn linear_decode_matches_big_integer_arithmetic() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut decoded = 0;
    for n in 0..4000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = 1 + (x % 30) as usize;
        let b: Vec<u8> = (0..len)
            .map(|i| (x >> (i % 8 * 8)) as u8 ^ (i as u8).wrapping_mul(37))
            .collect();
        let b = if n % 3 == 0 { enc_valid(n) } else { b };
        let got = decode(&b).ok();
        decoded += usize::from(got.is_some());
        assert_eq!(got, reference_decode(&b), "{}", hex(&b));
    }
    assert!(decoded > 3000, "only {decoded} of 4000 decoded");
}

fn enc_valid(n: usize) -> Vec<u8> {
    let s = format!("-{}.{}E{}", n * 7919 + 1, n % 1000, (n % 300) as i64 - 150);
    Decimal::parse(&s).unwrap().to_phoenix_bytes().unwrap()
}

#[test]
fn garbage_bytes_never_panic() {
    for b in [
        &[][..],
        &[0x66],
        &[0x00],
        &[0xff, 0x00],
        &[0x3e, 0x66],
        &[0x7f],
    ] {
        let _ = Decimal::from_phoenix_bytes(b);
        let _ = precision_and_scale(b, SortOrder::Asc);
        let _ = precision_and_scale(b, SortOrder::Desc);
        let _ = key_bytes_fit(b, Some(5), Some(2), SortOrder::Desc);
    }
    let e = precision_and_scale(&[0x80], SortOrder::Desc).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IndexOutOfBounds);
}

/// A whole number written straight to bytes is the DECIMAL `from_i64` builds and encodes: the
/// edges (0, ±1, powers of ten and of a hundred with their neighbours, trailing zeros of each
/// parity, the extremes) and a spread of others, positive and negative.
#[test]
fn whole_numbers_written_straight_are_their_decimal_bytes() {
    let mut values = vec![
        0i64,
        1,
        -1,
        9,
        10,
        11,
        99,
        100,
        101,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ];
    let mut p = 1i64;
    for _ in 0..18 {
        p *= 10;
        values.extend([p, p - 1, p + 1, -p, 7 * p, -3 * p, 1_700_000_000_000 + p]);
    }
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        values.push(x as i64 >> (x % 60));
    }
    for v in values {
        let mut out = vec![0xaa];
        Decimal::write_i64_phoenix_bytes(v, &mut out).unwrap();
        assert_eq!(
            hex(&out[1..]),
            hex(&Decimal::from_i64(v).to_phoenix_bytes().unwrap()),
            "{v}"
        );
        assert_eq!(out[0], 0xaa, "{v}: what out held is kept");
    }
}
