//! Tests of `Bytes.split`, `iterateOnSplits`, createTable's split keys and the split-key check.

use super::*;

fn h(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .filter_map(|i| s.get(i..i + 2))
        .filter_map(|p| u8::from_str_radix(p, 16).ok())
        .collect()
}
fn u(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}
fn strs(keys: &[Vec<u8>]) -> Vec<String> {
    keys.iter()
        .map(|k| String::from_utf8_lossy(k).into_owned())
        .collect()
}

#[test]
fn bytes_split_upstream_facts() {
    let r = bytes_split(b"AAA", b"EEE", false, 1).unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r[1], b"CCC");
    let r = bytes_split(b"AAA", b"DDD", false, 2).unwrap();
    assert_eq!(r.len(), 4);
    assert_eq!(r[2], b"CCC");
    let r = bytes_split(b"http://A", b"http://z", false, 1).unwrap();
    assert_eq!(r[1], b"http://]");
    let e = bytes_split(&[1, 1, 3], &[1, 1, 1], false, 1).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalArgument);
    assert_eq!(
        bytes_split(&[1, 1, 1], &[1, 1, 3], false, 1).unwrap().len(),
        3
    );
    let r = bytes_split(&[1, 1, 1], &[1, 1, 3], false, 2).unwrap();
    assert_eq!(
        r,
        vec![h("01010100"), h("010101aa"), h("01010254"), h("01010300")]
    );
    let e = bytes_split(&[1, 1, 1], &[1, 1, 3], false, 0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalArgument);
}

#[test]
fn bytes_split_anchors() {
    let r = bytes_split(b"", &[0xff; 8], false, 1).unwrap();
    assert_eq!(r, vec![vec![], h("7fffffffffffffff"), vec![0xff; 8]]);
    let r = bytes_split(b"a", b"b", false, 255).unwrap();
    assert_eq!(r.len(), 257);
    assert_eq!(r[0], h("6100"));
    assert_eq!(r[1], h("6101"));
    assert_eq!(r[255], h("61ff"));
    assert_eq!(r[256], h("6200"));
    let r = bytes_split(b"a", b"b", false, 256).unwrap();
    assert_eq!(r[1].len(), 3);
    let r = bytes_split(b"0000000000000000", b"ffffffffffffffff", false, 8).unwrap();
    let firsts: Vec<u8> = r.iter().map(|k| k[0]).collect();
    assert_eq!(firsts, b"06<BHNTZ`f".to_vec());
    assert!(r.iter().all(|k| k.iter().all(|&x| x == k[0])));
    // a and a||00 are equal once padded
    assert_eq!(
        bytes_split(b"a", b"a\0", false, 1).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        bytes_split(b"", b"", false, 1).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
}

#[test]
fn bytes_split_bad_sizes() {
    assert_eq!(
        bytes_split(b"a", b"b", false, -3).unwrap_err().kind,
        ErrorKind::NegativeArraySize
    );
    assert_eq!(
        bytes_split(b"a", b"b", false, -2).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        bytes_split(b"a", b"b", false, i32::MAX).unwrap_err().kind,
        ErrorKind::NegativeArraySize
    );
    // Past the engine's cap (Java would try to allocate): a limit, not Java's error.
    let e = bytes_split(b"a", b"b", false, i32::MAX - 2).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(
        iterate_on_splits(b"a", b"b", false, i32::MAX).unwrap(),
        Vec::<Vec<u8>>::new()
    );
    assert_eq!(
        iterate_on_splits(b"a", b"b", false, -5).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
}

#[test]
fn hex_upstream_facts() {
    let a = SplitAlgorithm::new(AlgorithmKind::HexString);
    assert_eq!(strs(&a.split_n(2).unwrap()), ["80000000"]);
    assert_eq!(strs(&a.split_n(3).unwrap()), ["55555555", "aaaaaaaa"]);
    assert_eq!(
        a.split_range(b"10000000", b"30000000").unwrap(),
        b"20000000"
    );
    assert_eq!(a.last_row(), b"ffffffff");
    assert_eq!(a.first_row(), b"00000000");
    assert_eq!(
        a.split_range(&a.first_row(), b"20000000").unwrap(),
        b"10000000"
    );
    assert_eq!(
        a.split_range(b"dfffffff", &a.last_row()).unwrap(),
        b"efffffff"
    );
    assert_eq!(
        strs(&a.split_range_n(b"00000000", b"30000000", 3, false).unwrap()),
        ["10000000", "20000000"]
    );
    let r = a.split_range_n(b"00000000", b"20000000", 2, true).unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r[1], b"10000000");
    let s16 = strs(&a.split_n(16).unwrap());
    assert_eq!(s16.first().map(String::as_str), Some("10000000"));
    assert_eq!(s16.last().map(String::as_str), Some("f0000000"));
    // rolling split point with an open end bumps the last row
    assert_eq!(
        a.rolling_split_point(b"80000000", b"").unwrap(),
        b"c0000000"
    );
    assert_eq!(a.separator(), " ");
}

#[test]
fn decimal_upstream_facts() {
    let a = SplitAlgorithm::new(AlgorithmKind::DecimalString);
    assert_eq!(strs(&a.split_n(2).unwrap()), ["50000000"]);
    assert_eq!(strs(&a.split_n(3).unwrap()), ["33333333", "66666666"]);
    assert_eq!(
        a.split_range(b"10000000", b"30000000").unwrap(),
        b"20000000"
    );
    assert_eq!(a.last_row(), b"99999999");
    assert_eq!(a.first_row(), b"00000000");
    assert_eq!(
        a.split_range(&a.first_row(), b"20000000").unwrap(),
        b"10000000"
    );
    assert_eq!(
        a.split_range(&a.first_row(), b"19999999").unwrap(),
        b"09999999"
    );
    assert_eq!(
        a.split_range(b"79999999", &a.last_row()).unwrap(),
        b"89999999"
    );
    assert_eq!(
        strs(&a.split_range_n(b"00000000", b"30000000", 3, false).unwrap()),
        ["10000000", "20000000"]
    );
}

#[test]
fn uniform_upstream_facts() {
    let a = SplitAlgorithm::new(AlgorithmKind::Uniform);
    assert_eq!(a.split_n(1).unwrap_err().kind, ErrorKind::IllegalArgument);
    assert_eq!(a.split_n(2).unwrap(), vec![h("8000000000000000")]);
    assert_eq!(
        a.split_n(3).unwrap(),
        vec![h("5555555555555555"), h("aaaaaaaaaaaaaaaa")]
    );
    assert_eq!(a.split_range(&[0x10], &[0x30]).unwrap(), vec![0x20]);
    assert_eq!(a.last_row(), vec![0xff; 8]);
    assert!(a.first_row().is_empty());
    assert_eq!(a.split_range(b"", &[0x20]).unwrap(), vec![0x10]);
    assert_eq!(
        a.split_range(&h("dfffffffffffffff"), &a.last_row())
            .unwrap(),
        h("efffffffffffffff")
    );
    assert_eq!(a.split_range(b"aaa", b"aab").unwrap(), b"aaa\x80");
    assert_eq!(
        a.split_range_n(b"aaa", b"aad", 3, false).unwrap(),
        vec![b"aab".to_vec(), b"aac".to_vec()]
    );
    let r = a.split_range_n(b"aaa", b"aae", 2, true).unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r[1], b"aac");
    assert_eq!(
        a.split_range(b"", b"").unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(a.separator(), ",");
    assert_eq!(
        a.split_n(-5).unwrap_err().kind,
        ErrorKind::NegativeArraySize
    );
}

#[test]
fn user_bounds() {
    let with = |k, f: &str, l: &str| {
        let mut a = SplitAlgorithm::new(k);
        a.set_first_row_str(&u(f)).unwrap();
        a.set_last_row_str(&u(l)).unwrap();
        a
    };
    assert!(SplitAlgorithm::new(AlgorithmKind::HexString)
        .split_n(100)
        .is_ok());
    assert!(with(AlgorithmKind::HexString, "00", "AA")
        .split_n(100)
        .is_ok());
    assert!(with(AlgorithmKind::HexString, "0", "2").split_n(3).is_ok());
    let hx = with(AlgorithmKind::HexString, "0", "A");
    assert_eq!(
        strs(&hx.split_n(11).unwrap()),
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a"]
    );
    assert_eq!(hx.split_n(12).unwrap_err().kind, ErrorKind::IllegalState);
    assert_eq!(
        with(AlgorithmKind::HexString, "AA", "00")
            .split_n(2)
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        with(AlgorithmKind::HexString, "AA", "AA")
            .split_n(2)
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
    assert!(with(AlgorithmKind::DecimalString, "0", "9")
        .split_n(10)
        .is_ok());
    assert_eq!(
        with(AlgorithmKind::DecimalString, "0", "9")
            .split_n(11)
            .unwrap_err()
            .kind,
        ErrorKind::IllegalState
    );
    assert_eq!(
        with(AlgorithmKind::DecimalString, "99", "00")
            .split_n(2)
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
    assert!(with(AlgorithmKind::Uniform, "\\x00", "\\x0A")
        .split_n(12)
        .is_ok());
    assert_eq!(
        with(AlgorithmKind::Uniform, "\\xAA", "\\xAA")
            .split_n(2)
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
    // byte[] setters do not move NumberStringSplit bounds
    let mut d = SplitAlgorithm::new(AlgorithmKind::HexString);
    d.set_last_row_bytes(b"A");
    assert_eq!(d.last_row(), b"ffffffff");
}

#[test]
fn bad_inputs() {
    let a = SplitAlgorithm::new(AlgorithmKind::HexString);
    assert_eq!(a.split_n(0).unwrap_err().kind, ErrorKind::NegativeArraySize);
    assert_eq!(
        a.split_n(i32::MIN).unwrap_err().kind,
        ErrorKind::NegativeArraySize
    );
    let e = a.split_n(i32::MAX).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("at most"));
    assert_eq!(
        a.str_to_row(&u("g")).unwrap_err().kind,
        ErrorKind::NumberFormat
    );
    assert_eq!(
        a.str_to_row(&u("")).unwrap_err().kind,
        ErrorKind::NumberFormat
    );
    assert_eq!(
        a.str_to_row(&u("-")).unwrap_err().kind,
        ErrorKind::NumberFormat
    );
    assert_eq!(
        a.str_to_row(&u("1-2")).unwrap_err().kind,
        ErrorKind::NumberFormat
    );
    assert_eq!(a.str_to_row(&u("-1")).unwrap(), b"000000-1");
    assert_eq!(a.str_to_row(&u("\u{0661}\u{FF21}")).unwrap(), b"0000001a");
    assert_eq!(
        a.split_range(b"10", b"").unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        a.split_range(b"zz", b"10").unwrap_err().kind,
        ErrorKind::NumberFormat
    );
    assert_eq!(
        a.split_range(b"30000000", b"10000000").unwrap(),
        b"20000000"
    );
    let long = vec![u16::from(b'1'); MAX_NUMBER_DIGITS + 1];
    assert_eq!(a.str_to_row(&long).unwrap_err().kind, ErrorKind::Limit);
}

#[test]
fn create_table_and_verify() {
    let s = b"0000000000000000";
    let e = b"ffffffffffffffff";
    assert_eq!(create_table_split_keys(s, e, 10).unwrap().len(), 9);
    assert_eq!(
        create_table_split_keys(s, e, 3).unwrap(),
        vec![s.to_vec(), e.to_vec()]
    );
    assert_eq!(
        create_table_split_keys(s, e, 2).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        create_table_split_keys(b"b", b"a", 5).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    // passes the createTable guard but fails inside Bytes.split
    assert_eq!(
        create_table_split_keys(b"a", b"a\0", 5).unwrap_err().kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        verify_split_keys(vec![b"b".to_vec(), b"a".to_vec()]).unwrap(),
        vec![b"a".to_vec(), b"b".to_vec()]
    );
    assert_eq!(
        verify_split_keys(vec![b"a".to_vec(), vec![]])
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
    assert_eq!(
        verify_split_keys(vec![b"a".to_vec(), b"b".to_vec(), b"a".to_vec()])
            .unwrap_err()
            .kind,
        ErrorKind::IllegalArgument
    );
}

#[test]
fn binary_strings() {
    assert_eq!(
        to_string_binary(&[b'0', b'9', b'a', b'z', b'A', b'Z', b'@', 1]),
        "09azAZ@\\x01"
    );
    assert_eq!(to_bytes_binary(&u("\\xab")), b"xab");
    assert_eq!(to_bytes_binary(&u("\\x4g")), b"x4g");
    assert_eq!(to_bytes_binary(&u("abc\\x00\\x01\\")), b"abc\x00\x01\\");
    assert_eq!(to_bytes_binary(&u("abc\\x")), b"abc\\x");
    assert_eq!(to_bytes_binary(&u("\u{20ac}")), vec![0xac]);
}
