//! Java's `Integer.parseInt`, which reads the policies' numeric table values (prefix
//! lengths), with the Unicode decimal digits Java accepts.

/// Zero digits of the BMP decimal-digit (Nd) runs in Java 17's Unicode tables. Java's
/// `Integer.parseInt` reads `charAt` code units through `Character.digit`, so only BMP digits
/// count; each run is ten consecutive digits 0..9.
const BMP_DIGIT_ZEROS: [u32; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// `Character.digit(c, 10)` for a BMP character.
fn java_decimal_digit(c: char) -> Option<i32> {
    let cp = u32::from(c);
    BMP_DIGIT_ZEROS.iter().find_map(|&z| {
        let d = cp.checked_sub(z)?;
        if d < 10 {
            i32::try_from(d).ok()
        } else {
            None
        }
    })
}

/// `Integer.parseInt(s)`: optional `+`/`-`, then one or more decimal digits (any BMP Unicode
/// decimal digit, as Java accepts), no whitespace, within `int` range. `None` where Java
/// throws `NumberFormatException`.
pub fn java_parse_int(s: &str) -> Option<i32> {
    let mut chars = s.chars().peekable();
    let negative = match chars.peek() {
        Some('-') => {
            chars.next();
            true
        }
        Some('+') => {
            chars.next();
            false
        }
        _ => false,
    };
    let mut any = false;
    // Accumulate negatively, like Java, so that Integer.MIN_VALUE parses.
    let mut acc: i32 = 0;
    for c in chars {
        let d = java_decimal_digit(c)?;
        acc = acc.checked_mul(10)?.checked_sub(d)?;
        any = true;
    }
    if !any {
        return None;
    }
    if negative {
        Some(acc)
    } else {
        acc.checked_neg()
    }
}
