use super::super::interp::splitmix;
use super::*;
use crate::keyspec::tests::fd;

#[test]
fn mod_be_matches_u128() {
    let mut x = 0x0123_4567_89ab_cdefu64;
    for i in 0..2000u32 {
        let mut d = [0u8; 16];
        for c in d.chunks_exact_mut(8) {
            x = splitmix(&mut x);
            c.copy_from_slice(&x.to_le_bytes());
        }
        if i % 7 == 0 {
            d = [0xff; 16];
        }
        for n in [
            1u32,
            2,
            3,
            10,
            16,
            63,
            64,
            100,
            255,
            256,
            1 << 31,
            u32::MAX,
            i + 1,
        ] {
            let exact = u128::from_be_bytes(d) % u128::from(n);
            assert_eq!(u128::from(mod_be(&d, n)), exact, "{d:?} {n}");
        }
    }
    assert_eq!(mod_be(&[7; 16], 0), 0);
}

/// The plan's `Step::Hash` steps.
#[cfg(not(lean))]
fn hash_steps(p: &Plan) -> usize {
    p.steps
        .iter()
        .filter(|s| matches!(s, Step::Hash { .. }))
        .count()
}

/// The `lean` wasm has no `Step::Hash`.
#[cfg(lean)]
fn hash_steps(_: &Plan) -> usize {
    0
}

/// The flat plan gives the interpreter's bytes, or its error, for every record.
#[test]
fn plan_matches_interpreter() {
    let fields = [
        fd("a", FieldType::String),
        fd("b", FieldType::String),
        fd("t", FieldType::Timestamp),
        fd("n", FieldType::Long),
    ];
    let keys = [
        r#"salt(a, 64, hash=javaString, as=dec(2)) + "_" + a + "_" + time(t, "yyyyMMddHHmmss")"#,
        r#"salt(a, 64, hash=md5, as=dec(2)) + "_" + a + "_" + time(t, "yyyyMMddHHmmss")"#,
        r#"md5Hex(a + "_" + b, 8) + "_" + a + "_" + b"#,
        r#"md5Hex(a + "_" + b, 8) + "_" + a + "_" + b + "-" + n"#,
        r#"md5Hex(a + b) + a + "_" + b"#,
        r#"md5Hex(a, upper) + ":" + time(t, "yyMMdd") + ":" + a"#,
        r#"md5Hex(a + b) + dec(n, 4) + time(t, "yyyy") + a + b + long(n)"#,
        r#"salt(b + "_" + a, 16, hash=javaString) + a + "_" + b + "_" + a"#,
        r#"salt(16, hash=javaString) + a + "_" + b"#,
        r#"hash15() + a + b"#,
        r#"hash15(a) + b + a"#,
        r#""x" + salt(8, hash=md5, as=hex(2)) + a + dec(n, 6)"#,
        r#"a + salt(a, 8, hash=arrays) + a"#,
        r#"md5(a) + salt(b, 4, hash=javaString, as=dec(1)) + b + a"#,
        r#"a + "_" + b + "_" + long(n)"#,
        r#"time(t, "yyyyMMddHHmmssSSS") + "__" + time(t, "HHmm") + a"#,
        r#"when(a, "x", b + "_") + salt(a, 4, hash=javaString) + a"#,
        // Fused time steps: seed 003, three in a row with ms, a hash source around and
        // across a run, a run wider than the cache.
        r#"md5Hex(a, upper) + ":" + time(t, "yyMMdd") + ":" + time(t, "HHmmss") + ":" + a"#,
        r#"time(t, "yyMMdd") + time(t, "HHmmss") + "/" + time(t, "SSS") + a"#,
        r#"salt(time(t, "HH") + "_" + time(t, "mm"), 8, hash=javaString) + time(t, "HH") + "_" + time(t, "mm")"#,
        r#"md5Hex(time(t, "mm"), 4) + time(t, "HH") + time(t, "mm") + a"#,
        r#"time(t, "yyyy") + a + time(t, "MM")"#,
        r#"time(t, "yyyyMMddHHmmssSSS") + "__" + time(t, "yyyyMMddHHmmss")"#,
        // The quick String.hashCode salt: every modulo mode, 1 and 100 buckets, and a
        // negative bucket (`modOfAbs` of "polygenelubricants", Integer.MIN_VALUE).
        r#"salt(a, 100, hash=javaString, as=dec(2), mod=modOfAbs) + a"#,
        r#"salt(a, 7, hash=javaString, as=dec(2), mod=floorMod) + "|" + a + "|" + b"#,
        r#"salt(a + b, 1, hash=javaString, as=dec(2)) + a + b"#,
        r#"salt(a + b, 100, hash=javaString, as=dec(2), mod=absOfMod) + a + b"#,
        // A separator before a time step that begins a hash source stays out of it.
        r#"md5Hex(time(t, "mm"), 4) + "_" + time(t, "mm") + ":" + a"#,
        // MD5s over sources the key does not write (Step::Hash), numbers as text.
        r#"long(n) + md5(str(n))"#,
        r#"md5Hex(str(t) + "|" + a, upper) + b"#,
        r#"md5(b) + md5Hex(a, 6) + "_" + n"#,
    ];
    let mut records: Vec<Vec<FieldValue>> = Vec::new();
    for a in [
        FieldValue::Str("13412341234".into()),
        FieldValue::Str("polygenelubricants".into()),
        FieldValue::Str("x".into()),
        FieldValue::Str("h\u{e9}llo".into()),
        FieldValue::Utf16(vec![0x61, 0xD800, 0x62]),
        FieldValue::Str(String::new()),
        FieldValue::Null,
        FieldValue::Long(-5),
    ] {
        for b in [FieldValue::Str("item9".into()), FieldValue::Null] {
            for n in [FieldValue::Long(42), FieldValue::Long(-1), FieldValue::Null] {
                for t in [
                    FieldValue::Long(1_630_000_000_123),
                    FieldValue::Long(1_630_000_000_999),
                    FieldValue::Long(1_630_000_001_000),
                    FieldValue::Long(-1),
                    // Year 14645: no pattern covers it.
                    FieldValue::Long(400_000_000_000_000),
                    FieldValue::Null,
                ] {
                    records.push(vec![a.clone(), b.clone(), t, n.clone()]);
                }
            }
        }
    }
    let (mut planned, mut fused, mut hashes) = (0, Vec::new(), 0);
    for text in keys {
        let spec = KeySpec::parse_text(text);
        assert!(spec.is_ok(), "{text}: {spec:?}");
        let Ok(spec) = spec else { continue };
        let key = CompiledKey::new(&spec, &fields);
        assert!(key.is_ok(), "{text}: {key:?}");
        let Ok(mut key) = key else { continue };
        planned += usize::from(key.plan.is_some());
        fused.push(key.plan.as_ref().map_or(0, |p| {
            p.steps
                .iter()
                .filter(|s| matches!(s, Step::Time { op, last, .. } if last > op))
                .count()
        }));
        hashes += key.plan.as_ref().map_or(0, hash_steps);
        let mut slow = key.clone();
        for r in &records {
            let mut fast_out = b"pre".to_vec();
            let fast = key.encode_values_into(&mut fast_out, r);
            let mut slow_out = b"pre".to_vec();
            let exact = slow.interpret(&mut slow_out, r);
            assert_eq!(fast_out, slow_out, "{text} {r:?}");
            assert_eq!(
                fast.map_err(|e| e.message),
                exact.map_err(|e| e.message),
                "{text} {r:?}"
            );
        }
    }
    assert_eq!(planned, keys.len());
    // Fused steps per key: constant bytes next to a time step join it (`"_" + time`,
    // `":" + time + ":"`) unless a hash source begins or ends between them (the md5Hex
    // of `time(t, "mm")`); time steps over one field fuse (seed 003's, the two with ms,
    // the salt source's); a run wider than 32 bytes (the last fused key) does not.
    let want = [
        1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    assert_eq!(fused, want);
    // MD5s over sources the key does not write: md5Hex(a + b), md5(str(n)),
    // md5Hex(str(t) + "|" + a), md5(b) and md5Hex(a, 6) (not in the `lean` wasm).
    assert_eq!(hashes, if cfg!(lean) { 0 } else { 5 });
}
