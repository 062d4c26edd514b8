//! Unit tests of the key language's internals (the public behaviour is in tests/engine/keyspec/).

use super::compile::{render, unrender};
use super::*;

/// A field with a name and a type (also used by compile's plan tests).
pub(super) fn fd(name: &str, t: FieldType) -> Field {
    Field::new(name, t)
}

#[test]
fn renders_round_trip() {
    let cases: &[(Render, &[i64])] = &[
        (Render::Byte, &[0, 1, 255]),
        (Render::Short, &[-32768, -1, 0, 32767]),
        (Render::Int, &[i64::from(i32::MIN), 0, i64::from(i32::MAX)]),
        (Render::Long, &[i64::MIN, -1, 0, i64::MAX]),
        (Render::Dec(3), &[0, 7, 999, -5, -99]),
        (Render::Hex(4), &[0, 0xbeef, 0xffff]),
        (Render::HexUpper(2), &[0, 0xab]),
        (Render::Bytes(2), &[0, 5, 65535]),
        (Render::Bytes(1), &[0, 200]),
        (Render::Letter, &[0, 3, 25]),
    ];
    for (r, vals) in cases {
        for &v in *vals {
            let mut b = Vec::new();
            assert!(render(r, v, &mut b).is_ok(), "{r:?} {v}");
            assert_eq!(b.len(), compile::render_width(r), "{r:?} {v}");
            let back = unrender(r, &b);
            // Bytes(W) reads 32-bit salts; the rest read back what they wrote.
            assert_eq!(back, Ok(v), "{r:?} {v} -> {b:?}");
        }
    }
    let mut b = Vec::new();
    assert_eq!(
        render(&Render::Dec(2), 5, &mut b).map(|_| b.clone()),
        Ok(b"05".to_vec())
    );
    assert!(render(&Render::Dec(2), 100, &mut Vec::new()).is_err());
    assert!(render(&Render::Dec(2), -10, &mut Vec::new()).is_err());
    assert!(render(&Render::Letter, 26, &mut Vec::new()).is_err());
    assert!(render(&Render::Bytes(2), i64::MAX, &mut Vec::new()).is_err());
    assert!(unrender(&Render::Dec(2), b"x1").is_err());
    assert!(unrender(&Render::Letter, b"A").is_err());
    assert!(unrender(&Render::Long, b"abc").is_err());
}

#[test]
fn opentsdb_wide_salts_repeat() {
    // Spec §10: W=8, m=5 -> 0000000500000005.
    let mut b = Vec::new();
    assert!(render(&Render::Bytes(8), 5, &mut b).is_ok());
    assert_eq!(b, [0, 0, 0, 5, 0, 0, 0, 5]);
}

#[test]
fn literal_json_forms() {
    let s = KeySpec::parse_text(r#""_" + "\x00\xff" + "\u{e9}" + "\n""#).unwrap_or_default();
    let j = s.to_json();
    assert_eq!(
        j,
        r#"{"segments":[{"kind":"literal","text":"_"},{"kind":"literal","hex":"00ff"},{"kind":"literal","text":"é"},{"kind":"literal","hex":"0a"}]}"#
    );
    assert_eq!(KeySpec::from_json(&j).as_ref(), Ok(&s));
    assert!(
        KeySpec::from_json(r#"{"segments":[{"kind":"literal","text":"a","hex":"00"}]}"#).is_err()
    );
    assert!(KeySpec::from_json(r#"{"segments":[{"kind":"literal","hex":"0"}]}"#).is_err());
    assert!(KeySpec::from_json(r#"{"segments":[]}"#).is_err());
    assert!(KeySpec::from_json(r#"{"segments":[{"kind":"str","field":"a"}],"extra":1}"#).is_err());
}

#[test]
fn comments_and_quoted_field_names() {
    let s = KeySpec::parse_text(
        "# the salt\nsalt(10) # one byte\n + str(\"send date\") + field(\"x y\")",
    )
    .unwrap_or_default();
    assert_eq!(s.to_text(), r#"salt(10) + str("send date") + field("x y")"#);
}

#[test]
fn time_parts_merge_and_conflict() {
    let fields = [fd("t", FieldType::Timestamp)];
    let spec = KeySpec::parse_text(r#"time(t, "yyyy") + time(t, "yy")"#).unwrap_or_default();
    let ck = CompiledKey::new(&spec, &fields);
    let ck = match ck {
        Ok(c) => c,
        Err(e) => return assert_eq!(e.message, ""),
    };
    assert!(ck.decode(b"202121").is_ok());
    let e = ck.decode(b"202122").err();
    assert!(e.is_some_and(|e| e.message.contains("disagree")));
}

#[test]
fn random_salts_are_seeded_and_resettable() {
    let fields = [fd("a", FieldType::String)];
    let spec = KeySpec::parse_text("random(1000, seed=9, as=dec(3)) + a").unwrap_or_default();
    let Ok(mut ck) = CompiledKey::new(&spec, &fields) else {
        return;
    };
    let v = [FieldValue::Str("x".into())];
    let first: Vec<Vec<u8>> = (0..5)
        .map(|_| ck.encode_values(&v).unwrap_or_default())
        .collect();
    ck.reset_random();
    let again: Vec<Vec<u8>> = (0..5)
        .map(|_| ck.encode_values(&v).unwrap_or_default())
        .collect();
    assert_eq!(first, again);
    assert!(first.iter().any(|k| k != &first[0]), "a random salt varies");
    let d = ck.decode(&first[0]);
    assert!(d.is_ok_and(|d| d.verified.is_none() && d.fields.len() == 1));
}

#[test]
fn encode_failure_leaves_output_untouched() {
    let fields = [fd("a", FieldType::String), fd("n", FieldType::Long)];
    let spec = KeySpec::parse_text(r#"a + "_" + dec(n, 2)"#).unwrap_or_default();
    let Ok(mut ck) = CompiledKey::new(&spec, &fields) else {
        return;
    };
    let mut out = b"prefix".to_vec();
    let r = ck.encode_values_into(
        &mut out,
        &[FieldValue::Str("abc".into()), FieldValue::Long(123)],
    );
    assert!(r.is_err());
    assert_eq!(out, b"prefix");
    assert!(ck
        .encode_values_into(&mut out, &[FieldValue::Null])
        .is_err());
}

#[test]
fn huge_designs_are_refused_not_overflowed() {
    let text = vec!["\"a\""; 10_000].join(" + ");
    let e = KeySpec::parse_text(&text).err();
    assert!(e.is_some_and(|e| e.message.contains("at most 256")));
    let deep = format!("{}a{}", "when(k, \"x\", ".repeat(100), ")".repeat(100));
    assert!(KeySpec::parse_text(&deep).is_err());
    let json = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(KeySpec::from_json(&json).is_err());
}

/// Encode one record of string values with `key` (text form).
fn enc_strs(key: &str, fields: &[(&str, FieldType)], vals: Vec<FieldValue>) -> Vec<u8> {
    let spec = KeySpec::parse_text(key).unwrap();
    let decls: Vec<Field> = fields.iter().map(|(n, t)| fd(n, *t)).collect();
    let mut k = CompiledKey::new(&spec, &decls).unwrap();
    k.encode_values(&vals).unwrap()
}

#[test]
fn java_string_hashes_read_ascii_bytes_and_rebuild_other_text() {
    // The encoder hashes the bytes it wrote when they are ASCII and rebuilds the UTF-16 text
    // otherwise; both must equal String.hashCode() of the text.
    for s in ["ab", "13412341234", "héllo", "𝄞x", "日本"] {
        let h = (crate::hbase::hash::java_str_hash_code(&format!("{s}_{s}")) & 0x7FFF) as i16;
        let mut want = h.to_be_bytes().to_vec();
        want.extend_from_slice(format!("{s}_{s}").as_bytes());
        let fields = [("a", FieldType::String)];
        let v = || vec![FieldValue::Str(s.into())];
        // Over the rest of the key, and over an explicit source.
        assert_eq!(
            enc_strs(r#"hash15() + a + "_" + a"#, &fields, v()),
            want,
            "{s}"
        );
        let mut got = enc_strs(r#"hash15(a + "_" + a) + a + "_" + a"#, &fields, v());
        assert_eq!(got, want, "{s}");
        // A Java string with an unpaired surrogate: the bytes are not the text.
        let units: Vec<u16> = vec![0x61, 0xD800, 0x62];
        got = enc_strs(
            r#"hash15() + a"#,
            &fields,
            vec![FieldValue::Utf16(units.clone())],
        );
        let h = (crate::hbase::hash::java_string_hash_code(&units) & 0x7FFF) as i16;
        assert_eq!(got.get(..2), Some(&h.to_be_bytes()[..]));
    }
    // Salt buckets: the same bucket as String.hashCode() % 64 over the rest.
    let fields = [("p", FieldType::String), ("n", FieldType::String)];
    for (p, n) in [("13412341234", "5"), ("ü", "-7"), ("x", "123456789")] {
        let text = format!("{p}_{n}");
        let b = crate::hbase::hash::java_str_hash_code(&text)
            .wrapping_rem(64)
            .abs();
        let want = format!("{b:02}{text}").into_bytes();
        let got = enc_strs(
            r#"salt(64, hash=javaString, as=dec(2)) + p + "_" + n"#,
            &fields,
            vec![FieldValue::Str(p.into()), FieldValue::Str(n.into())],
        );
        assert_eq!(got, want, "{p} {n}");
    }
}

#[test]
fn java_string_hash_sources_do_not_advance_random_segments() {
    // A Java-string hash with an explicit source evaluates it without advancing the random
    // generators (the key's own random segment then draws as if the source were not there).
    let fields = [("a", FieldType::String)];
    let with = enc_strs(
        r#"hash15(random(100, seed=3, as=dec(2)) + a) + random(100, seed=3, as=dec(2)) + a"#,
        &fields,
        vec![FieldValue::Str("é".into())],
    );
    let alone = enc_strs(
        r#"random(100, seed=3, as=dec(2)) + a"#,
        &fields,
        vec![FieldValue::Str("é".into())],
    );
    assert_eq!(with.get(2..), Some(alone.as_slice()));
    let text = String::from_utf8(alone).unwrap();
    let h = (crate::hbase::hash::java_str_hash_code(&text) & 0x7FFF) as i16;
    assert_eq!(with.get(..2), Some(&h.to_be_bytes()[..]));
}

#[test]
fn md5_bucket_is_the_digest_as_a_128_bit_number_mod_n() {
    let fields = [("a", FieldType::String)];
    for s in ["", "a", "13412341234", "hello world"] {
        let d: [u8; 16] = <md5::Md5 as md5::Digest>::digest(s.as_bytes()).into();
        for n in [1u32, 7, 64, 1000, 65_535] {
            let want = u128::from_be_bytes(d) % u128::from(n);
            let got = enc_strs(
                &format!("salt(a, {n}, hash=md5, as=dec(5))"),
                &fields,
                vec![FieldValue::Str(s.into())],
            );
            assert_eq!(got, format!("{want:05}").into_bytes(), "{s} {n}");
        }
    }
}

#[test]
fn cached_time_text_follows_the_second_and_the_millisecond() {
    let spec = KeySpec::parse_text(r#"time(t, "yyyyMMddHHmmss") + "." + time(t, "SSS")"#).unwrap();
    let mut k = CompiledKey::new(&spec, &[fd("t", FieldType::Timestamp)]).unwrap();
    let base = 1_630_972_799_998i64; // 2021-09-06T23:59:59.998Z
    let want = [
        "20210906235959.998",
        "20210906235959.999",
        "20210907000000.000",
        "20210907000000.001",
        "20210906235959.998",
        "19700101000000.000",
        "19691231235959.999",
    ];
    for (i, ms) in [base, base + 1, base + 2, base + 3, base, 0, -1]
        .iter()
        .enumerate()
    {
        let got = k.encode_values(&[FieldValue::Long(*ms)]).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), want[i], "{ms}");
    }
}
