//! The little `java.math.BigInteger` the ports need: split-key arithmetic (`Bytes.split`,
//! RegionSplitter's Hex/Decimal/Uniform splits) and `BigDecimal`'s unscaled value.
//!
//! Only what those call sites do is here: add and subtract big values, multiply and divide by
//! a word (every step count and divisor is an `int`), compare, radix text in and out, and the
//! byte forms (`BigInteger(byte[])`, `toByteArray`). At key sizes (a few hundred bits) the
//! schoolbook loops are all that is ever needed, so the general-purpose crate's
//! Karatsuba/Toom-3 multiplication and Burnikel–Ziegler division (≈ 27 KB of wasm) are not
//! carried. Texts up to [`crate::hbase::split::MAX_NUMBER_DIGITS`] stay fast enough: decimal text is
//! read and written nine digits per pass, power-of-two radixes bit by bit.
//!
//! Nothing here panics: limbs are reached by iterators or `get`, and the divisor of
//! [`BigUint::div_rem_small`] is checked.

use std::cmp::Ordering;
use std::fmt;

/// A non-negative integer: little-endian 32-bit limbs, no zero limb at the top (zero is the
/// empty vector), so equal values have equal representations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BigUint(Vec<u32>);

/// A signed integer: sign and magnitude; zero is never negative.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BigInt {
    neg: bool,
    mag: BigUint,
}

fn lo(x: u64) -> u32 {
    (x & 0xffff_ffff) as u32
}

fn hi(x: u64) -> u32 {
    (x >> 32) as u32
}

impl BigUint {
    fn trim(mut self) -> Self {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The unsigned big-endian value of `b` (empty = 0).
    pub fn from_bytes_be(b: &[u8]) -> Self {
        let mut limbs = Vec::with_capacity(b.len() / 4 + 1);
        for chunk in b.rchunks(4) {
            limbs.push(chunk.iter().fold(0u32, |a, &x| (a << 8) | u32::from(x)));
        }
        BigUint(limbs).trim()
    }

    /// Minimal big-endian bytes (zero = no bytes).
    pub fn to_bytes_be(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.0.iter().rev().flat_map(|l| l.to_be_bytes()).collect();
        let lead = out.iter().take_while(|&&b| b == 0).count();
        out.drain(..lead);
        out
    }

    /// `self + other`.
    pub fn add(&self, other: &BigUint) -> BigUint {
        let (long, short) = if self.0.len() >= other.0.len() {
            (&self.0, &other.0)
        } else {
            (&other.0, &self.0)
        };
        let mut out = Vec::with_capacity(long.len() + 1);
        let mut carry = 0u64;
        for (i, &a) in long.iter().enumerate() {
            let s = u64::from(a) + u64::from(short.get(i).copied().unwrap_or(0)) + carry;
            out.push(lo(s));
            carry = s >> 32;
        }
        out.push(lo(carry));
        BigUint(out).trim()
    }

    /// `self - other`, `None` when `other > self`.
    pub fn checked_sub(&self, other: &BigUint) -> Option<BigUint> {
        (*self >= *other).then(|| self.sub(other))
    }

    /// `self - other` for `self >= other` (else the result is meaningless, never a panic).
    fn sub(&self, other: &BigUint) -> BigUint {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = false;
        for (i, &a) in self.0.iter().enumerate() {
            let (d, b1) = a.overflowing_sub(other.0.get(i).copied().unwrap_or(0));
            let (d, b2) = d.overflowing_sub(u32::from(borrow));
            borrow = b1 || b2;
            out.push(d);
        }
        BigUint(out).trim()
    }

    /// `self * m + a`.
    pub fn mul_add_small(&self, m: u32, a: u32) -> BigUint {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut carry = u64::from(a);
        for &l in &self.0 {
            let p = u64::from(l) * u64::from(m) + carry;
            out.push(lo(p));
            carry = u64::from(hi(p));
        }
        out.push(lo(carry));
        BigUint(out).trim()
    }

    /// `self = self * m + a`, in place (the digit loops: no allocation per step).
    fn mul_add_small_assign(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for l in self.0.iter_mut() {
            let p = u64::from(*l) * u64::from(m) + carry;
            *l = lo(p);
            carry = u64::from(hi(p));
        }
        if carry != 0 {
            self.0.push(lo(carry));
        }
    }

    /// `self /= d`, in place, returning `self % d` (`d > 0`); the top limb dropped when it
    /// becomes zero.
    fn div_rem_small_assign(&mut self, d: u32) -> u32 {
        let mut r = 0u64;
        for l in self.0.iter_mut().rev() {
            let cur = (r << 32) | u64::from(*l);
            *l = lo(cur / u64::from(d));
            r = cur % u64::from(d);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        lo(r)
    }

    /// `(self / d, self % d)`; `None` when `d == 0`.
    pub fn div_rem_small(&self, d: u32) -> Option<(BigUint, u32)> {
        if d == 0 {
            return None;
        }
        let mut q = vec![0u32; self.0.len()];
        let mut r = 0u64;
        for (qi, &l) in q.iter_mut().rev().zip(self.0.iter().rev()) {
            let cur = (r << 32) | u64::from(l);
            *qi = lo(cur / u64::from(d));
            r = cur % u64::from(d);
        }
        Some((BigUint(q).trim(), lo(r)))
    }

    /// The value of `digits` (each already below `radix`, most significant first) in `radix`
    /// (2..=36). Power-of-two radixes are packed bit by bit; others nine or so digits per
    /// pass (the largest power of the radix that fits a limb).
    pub fn from_radix_be(digits: &[u8], radix: u32) -> BigUint {
        if radix.is_power_of_two() {
            let bits = radix.trailing_zeros();
            let mut limbs = Vec::with_capacity(digits.len() * bits as usize / 32 + 1);
            let (mut acc, mut n) = (0u64, 0u32);
            for &d in digits.iter().rev() {
                acc |= u64::from(d) << n;
                n += bits;
                if n >= 32 {
                    limbs.push(lo(acc));
                    acc >>= 32;
                    n -= 32;
                }
            }
            limbs.push(lo(acc));
            return BigUint(limbs).trim();
        }
        let (per, _) = chunk(radix);
        let mut v = BigUint::default();
        let first = digits.len() % per;
        let mut rest = digits;
        let mut take = if first == 0 { per } else { first };
        while !rest.is_empty() {
            let (head, tail) = rest.split_at(take.min(rest.len()));
            let (mut m, mut a) = (1u32, 0u32);
            for &d in head {
                m = m.wrapping_mul(radix);
                a = a.wrapping_mul(radix).wrapping_add(u32::from(d));
            }
            v.mul_add_small_assign(m, a);
            rest = tail;
            take = per;
        }
        v
    }

    /// Lowercase digits in `radix` (2..=36), `"0"` for zero.
    pub fn to_str_radix(&self, radix: u32) -> String {
        const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let digit = |d: u32| char::from(DIGITS.get(d as usize).copied().unwrap_or(b'?'));
        if self.is_zero() {
            return "0".to_string();
        }
        let mut rev = String::new();
        if radix.is_power_of_two() {
            let bits = radix.trailing_zeros();
            let (mut acc, mut n) = (0u64, 0u32);
            for &l in &self.0 {
                acc |= u64::from(l) << n;
                n += 32;
                while n >= bits {
                    rev.push(digit(lo(acc) & (radix - 1)));
                    acc >>= bits;
                    n -= bits;
                }
            }
            rev.push(digit(lo(acc)));
        } else {
            let (per, big) = chunk(radix);
            let mut v = self.clone().trim();
            while !v.is_zero() {
                let mut r = v.div_rem_small_assign(big);
                for _ in 0..per {
                    rev.push(digit(r % radix));
                    r /= radix;
                }
            }
        }
        let s: String = rev.chars().rev().skip_while(|&c| c == '0').collect();
        if s.is_empty() {
            "0".to_string()
        } else {
            s
        }
    }
}

/// How many digits of `radix` fit a limb, and the radix to that power.
fn chunk(radix: u32) -> (usize, u32) {
    let (mut per, mut big) = (0usize, 1u32);
    while let Some(next) = big.checked_mul(radix) {
        big = next;
        per += 1;
    }
    (per, big)
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<u64> for BigUint {
    fn from(v: u64) -> Self {
        BigUint(vec![lo(v), hi(v)]).trim()
    }
}

impl BigInt {
    /// Zero.
    pub fn zero() -> Self {
        BigInt::default()
    }

    /// A value from its sign and magnitude (a zero magnitude is never negative).
    pub fn from_parts(neg: bool, mag: BigUint) -> Self {
        BigInt {
            neg: neg && !mag.is_zero(),
            mag,
        }
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.mag.is_zero()
    }

    /// Whether this is below zero.
    pub fn is_negative(&self) -> bool {
        self.neg
    }

    /// `|self|`.
    pub fn abs(&self) -> BigInt {
        BigInt::from_parts(false, self.mag.clone())
    }

    /// `-self`.
    pub fn neg(&self) -> BigInt {
        BigInt::from_parts(!self.neg, self.mag.clone())
    }

    /// `self + other`.
    pub fn add(&self, other: &BigInt) -> BigInt {
        if self.neg == other.neg {
            return BigInt::from_parts(self.neg, self.mag.add(&other.mag));
        }
        match self.mag.cmp(&other.mag) {
            Ordering::Less => BigInt::from_parts(other.neg, other.mag.sub(&self.mag)),
            _ => BigInt::from_parts(self.neg, self.mag.sub(&other.mag)),
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &BigInt) -> BigInt {
        self.add(&other.neg())
    }

    /// `self * m` for a word `m`.
    pub fn mul_small(&self, m: u32) -> BigInt {
        BigInt::from_parts(self.neg, self.mag.mul_add_small(m, 0))
    }

    /// `self / d`, truncated toward zero as Java's `BigInteger.divide`; `None` when `d == 0`.
    pub fn div_small(&self, d: u32) -> Option<BigInt> {
        let (q, _) = self.mag.div_rem_small(d)?;
        Some(BigInt::from_parts(self.neg, q))
    }

    /// Java `BigInteger.toString(radix)`: lowercase digits, `-` for a negative value.
    pub fn to_str_radix(&self, radix: u32) -> String {
        let digits = self.mag.to_str_radix(radix);
        if self.neg {
            format!("-{digits}")
        } else {
            digits
        }
    }

    /// Java `new BigInteger(byte[])`: big-endian two's complement (empty = 0).
    pub fn from_signed_bytes_be(b: &[u8]) -> BigInt {
        if b.first().is_some_and(|&x| x & 0x80 != 0) {
            BigInt::from_parts(true, BigUint::from_bytes_be(&negate(b.to_vec())))
        } else {
            BigInt::from_parts(false, BigUint::from_bytes_be(b))
        }
    }

    /// Java `BigInteger.toByteArray()`: minimal big-endian two's complement, at least one
    /// byte (zero is `00`).
    pub fn to_signed_bytes_be(&self) -> Vec<u8> {
        let mut b = self.mag.to_bytes_be();
        if self.neg {
            b = negate(b);
            if b.first().map_or(true, |&x| x & 0x80 == 0) {
                b.insert(0, 0xff);
            }
        } else if b.first().map_or(true, |&x| x & 0x80 != 0) {
            b.insert(0, 0);
        }
        b
    }

    /// Decimal text: an optional `+`/`-`, then at least one ASCII digit.
    pub fn parse_decimal(s: &str) -> Option<BigInt> {
        let (neg, digits) = match s.as_bytes().first() {
            Some(b'-') => (true, s.get(1..)?),
            Some(b'+') => (false, s.get(1..)?),
            _ => (false, s),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let vals: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
        Some(BigInt::from_parts(neg, BigUint::from_radix_be(&vals, 10)))
    }
}

/// Two's complement negation of big-endian bytes, in place (invert, add one).
fn negate(mut b: Vec<u8>) -> Vec<u8> {
    let mut carry = true;
    for x in b.iter_mut().rev() {
        let (v, c) = (!*x).overflowing_add(u8::from(carry));
        *x = v;
        carry = c;
    }
    b
}

impl Ord for BigInt {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.mag.cmp(&other.mag),
            (true, true) => other.mag.cmp(&self.mag),
        }
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<i64> for BigInt {
    fn from(v: i64) -> Self {
        BigInt::from_parts(v < 0, BigUint::from(v.unsigned_abs()))
    }
}

impl fmt::Display for BigInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_radix(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt as Ref;

    /// A small deterministic generator (SplitMix64) for the property tests.
    struct Mix(u64);
    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        /// Bytes of a random length up to `max`, often with runs of 00 / ff at the edges.
        fn bytes(&mut self, max: u64) -> Vec<u8> {
            let n = (self.next() % (max + 1)) as usize;
            let style = self.next() % 4;
            (0..n)
                .map(|i| match (style, i) {
                    (1, 0..=2) => 0,
                    (2, 0..=2) => 0xff,
                    (3, _) if i + 3 >= n => 0,
                    _ => self.next() as u8,
                })
                .collect()
        }
    }

    fn ours(b: &[u8]) -> BigInt {
        BigInt::from_signed_bytes_be(b)
    }
    fn theirs(b: &[u8]) -> Ref {
        if b.is_empty() {
            Ref::default()
        } else {
            Ref::from_signed_bytes_be(b)
        }
    }

    #[test]
    fn matches_num_bigint() {
        let mut r = Mix(7);
        for _ in 0..20_000 {
            let (a, b) = (r.bytes(40), r.bytes(40));
            let (x, y) = (ours(&a), ours(&b));
            let (rx, ry) = (theirs(&a), theirs(&b));
            assert_eq!(x.to_string(), rx.to_string(), "{a:?}");
            assert_eq!(x.to_str_radix(16), rx.to_str_radix(16), "{a:?}");
            assert_eq!(x.to_str_radix(7), rx.to_str_radix(7), "{a:?}");
            assert_eq!(x.to_signed_bytes_be(), rx.to_signed_bytes_be(), "{a:?}");
            assert_eq!(x.cmp(&y), rx.cmp(&ry), "{a:?} {b:?}");
            assert_eq!(x.add(&y).to_string(), (&rx + &ry).to_string());
            assert_eq!(x.sub(&y).to_string(), (&rx - &ry).to_string());
            assert_eq!(x.abs().to_string(), rx.magnitude().to_string());
            assert_eq!(x.is_negative(), rx.sign() == num_bigint::Sign::Minus);
            let m = r.next() as u32;
            assert_eq!(x.mul_small(m).to_string(), (&rx * m).to_string());
            let d = (r.next() as u32).max(1) >> (r.next() % 32);
            let d = d.max(1);
            assert_eq!(
                x.div_small(d).map(|q| q.to_string()),
                Some((&rx / d).to_string())
            );
            let (ua, ub) = (BigUint::from_bytes_be(&a), BigUint::from_bytes_be(&b));
            let (ra, rb) = (
                num_bigint::BigUint::from_bytes_be(&a),
                num_bigint::BigUint::from_bytes_be(&b),
            );
            let bytes = |v: &num_bigint::BigUint| {
                if v.bits() == 0 {
                    Vec::new()
                } else {
                    v.to_bytes_be()
                }
            };
            assert_eq!(ua.to_bytes_be(), bytes(&ra));
            assert_eq!(ua.add(&ub).to_bytes_be(), bytes(&(&ra + &rb)));
            assert_eq!(ua.cmp(&ub), ra.cmp(&rb));
            if ua >= ub {
                assert_eq!(ua.sub(&ub).to_bytes_be(), bytes(&(&ra - &rb)));
            }
            let (q, rem) = ua.div_rem_small(d).unwrap_or_default();
            assert_eq!(q.to_bytes_be(), bytes(&(&ra / d)));
            assert_eq!(u64::from(rem), u64::try_from(&ra % d).unwrap_or(u64::MAX));
        }
    }

    #[test]
    fn radix_text_matches_num_bigint() {
        let mut r = Mix(11);
        for _ in 0..5_000 {
            let radix = [2u32, 8, 10, 16, 36, 7][(r.next() % 6) as usize];
            let n = (r.next() % 120) as usize;
            let digits: Vec<u8> = (0..n)
                .map(|_| (r.next() % u64::from(radix)) as u8)
                .collect();
            let ours = BigUint::from_radix_be(&digits, radix);
            let theirs = num_bigint::BigUint::from_radix_be(&digits, radix).unwrap_or_default();
            assert_eq!(ours.to_str_radix(radix), theirs.to_str_radix(radix));
            assert_eq!(ours.to_str_radix(10), theirs.to_str_radix(10));
            let text: String = digits
                .iter()
                .map(|&d| char::from_digit(u32::from(d), 10).unwrap_or('x'))
                .collect();
            if radix == 10 && !text.is_empty() {
                let signed = format!("-{text}");
                assert_eq!(
                    BigInt::parse_decimal(&signed).map(|v| v.to_string()),
                    signed.parse::<Ref>().ok().map(|v| v.to_string())
                );
            }
        }
        assert_eq!(BigInt::parse_decimal(""), None);
        assert_eq!(BigInt::parse_decimal("-"), None);
        assert_eq!(BigInt::parse_decimal("1x"), None);
        assert_eq!(
            BigInt::parse_decimal("-0").map(|v| v.is_negative()),
            Some(false)
        );
    }

    #[test]
    fn edges() {
        assert_eq!(BigInt::zero().to_signed_bytes_be(), vec![0]);
        assert_eq!(BigInt::from(-128).to_signed_bytes_be(), vec![0x80]);
        assert_eq!(BigInt::from(-129).to_signed_bytes_be(), vec![0xff, 0x7f]);
        assert_eq!(BigInt::from(128).to_signed_bytes_be(), vec![0, 0x80]);
        assert_eq!(BigInt::from(i64::MIN).to_string(), i64::MIN.to_string());
        assert_eq!(BigUint::default().div_rem_small(0), None);
        let big = BigUint::from_radix_be(&[9; 100_000], 10);
        assert_eq!(big.to_str_radix(10).len(), 100_000);
    }
}
