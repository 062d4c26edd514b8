use super::convert::is_decimal;
use super::digits::{push_zero_padded, push_zero_padded_small};
use super::*;

/// Both digit writers (the table natively, the loop in wasm) against `format!`, every
/// width, values at the edges of each width and pseudo-random ones.
#[test]
fn zero_padded_digits_match_format() {
    let mut r = 0x2545_F491_4F6C_DD1Du64;
    for width in 0..=20u32 {
        let cap = 10u128.pow(width);
        let mut xs = vec![0u64, 1, 9, 10, 9999, 10_000, 12_345_678];
        xs.push(u64::try_from(cap - 1).unwrap_or(u64::MAX));
        for _ in 0..500 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            xs.push(u64::try_from(u128::from(r) % cap.max(1)).unwrap_or(r));
        }
        for x in xs.into_iter().filter(|&x| u128::from(x) < cap.max(1)) {
            let want = if width == 0 {
                String::new()
            } else {
                format!("{x:0w$}", w = width as usize)
            };
            let (mut a, mut b) = ("p".to_string(), "p".to_string());
            push_zero_padded(&mut a, x, width);
            push_zero_padded_small(&mut b, x, width);
            assert_eq!(a, format!("p{want}"), "table: {x} width {width}");
            assert_eq!(b, format!("p{want}"), "loop: {x} width {width}");
        }
    }
}

fn field(name: &str, t: FieldType, g: Option<Generator>) -> FieldDecl {
    FieldDecl {
        name: name.into(),
        field_type: t,
        cardinality: None,
        generator: g,
    }
}

#[test]
fn permutation_is_a_bijection() {
    for n in [1u64, 2, 7, 10, 64, 1000, 1023] {
        let p = Permutation::new(n, 99);
        let mut seen = vec![false; n as usize];
        for i in 0..n {
            let j = p.apply(i) as usize;
            assert!(!seen[j]);
            seen[j] = true;
        }
    }
}

#[test]
fn decimal_text_check() {
    for ok in ["1", "-1.5", "+0.25", "3e10", ".5", "5.", "1E-3"] {
        assert!(is_decimal(ok), "{ok}");
    }
    for bad in ["", "-", ".", "1e", "abc", "1.2.3", "1 "] {
        assert!(!is_decimal(bad), "{bad}");
    }
}

#[test]
fn string_buffers_are_reused() {
    let spec = WorkloadSpec {
        records: 3,
        ..WorkloadSpec::default()
    };
    let f = [field(
        "s",
        FieldType::String,
        Some(Generator::UniformString {
            length: 5,
            alphabet: Some("ab".into()),
        }),
    )];
    let mut st = WorkloadStream::new(&spec, &f).unwrap();
    let mut rec = Record::default();
    let mut n = 0;
    while st.next_into(&mut rec) {
        match &rec.values[0] {
            FieldValue::Str(s) => {
                assert_eq!(s.len(), 5);
                assert!(s.chars().all(|c| c == 'a' || c == 'b'));
            }
            other => panic!("{other:?}"),
        }
        n += 1;
    }
    assert_eq!(n, 3);
    assert!(!st.next_into(&mut rec));
}
