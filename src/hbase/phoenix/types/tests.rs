use super::*;
use PhoenixType as T;
use PhoenixValue as V;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn names_round_trip() {
    for t in ALL_TYPES {
        assert_eq!(T::from_sql_name(t.sql_name()), Some(t));
        assert_eq!(T::from_class_name(t.class_name()), Some(t));
    }
}

#[test]
fn every_type_round_trips_both_orders() {
    let cases = [
        (T::Integer, V::Integer(-65537)),
        (T::UnsignedInt, V::Integer(7)),
        (T::Bigint, V::Long(i64::MIN)),
        (T::UnsignedLong, V::Long(i64::MAX)),
        (T::Smallint, V::Short(-2)),
        (T::Tinyint, V::Byte(127)),
        (T::Float, V::Float(-1.5)),
        (T::Double, V::Double(1e300)),
        (T::Decimal, V::Decimal(Decimal::parse("-12.5").unwrap())),
        (T::Varchar, V::string("héllo")),
        (T::Char, V::string("ab")),
        (T::Boolean, V::Boolean(true)),
        (T::Date, V::Date(-1)),
        (T::Time, V::Time(86_400_000)),
        (
            T::Timestamp,
            V::Timestamp(Timestamp::from_epoch_second(-1, 1).unwrap()),
        ),
        (T::Varbinary, V::Bytes(vec![0, 1, 255])),
        (T::Binary, V::Bytes(vec![9])),
    ];
    for (t, v) in cases {
        for so in [SortOrder::Asc, SortOrder::Desc] {
            let b = t.to_bytes(Some(&v), so).unwrap();
            assert_eq!(
                t.to_object(&b, so).unwrap(),
                Some(v.clone()),
                "{t:?} {so:?}"
            );
        }
    }
}

#[test]
fn java_oddities() {
    assert_eq!(
        hex(&T::Boolean
            .to_bytes(Some(&V::Boolean(true)), SortOrder::Desc)
            .unwrap()),
        "00"
    );
    assert_eq!(
        hex(&T::Date.to_bytes(None, SortOrder::Asc).unwrap()),
        "8000000000000000"
    );
    assert_eq!(
        hex(&T::Varchar
            .to_bytes(Some(&V::String(vec![0xdc00])), SortOrder::Asc)
            .unwrap()),
        "3f"
    );
    let e = T::Char
        .to_bytes(Some(&V::string("é")), SortOrder::Asc)
        .unwrap_err();
    assert_eq!(e.kind, crate::error::ErrorKind::IllegalData);
    assert!(e
        .message
        .starts_with("CHAR holds single-byte characters only"));
    let e = T::Integer.to_bytes(None, SortOrder::Asc).unwrap_err();
    assert_eq!(e.message, "INTEGER may not be null");
    assert_eq!(
        hex(&T::Float
            .to_bytes(Some(&V::Float(f32::NAN)), SortOrder::Asc)
            .unwrap()),
        "ffc00001"
    );
    assert_eq!(hex(&T::Char.pad(vec![0x9e], 3, SortOrder::Desc)), "9edfdf");
    assert!(T::Integer
        .to_bytes(Some(&V::Long(1)), SortOrder::Asc)
        .is_err());
    for bad in [&[][..], &[1], &[1, 2, 3]] {
        for t in ALL_TYPES {
            let _ = t.to_object(bad, SortOrder::Desc);
        }
    }
}
