//! Random Phoenix tables and hostile values through the Phoenix row-key layer: building a key
//! may refuse its input with an error, never panic, and every key it builds decodes (or is
//! refused) without panicking; random bytes decode the same way. Seeded, so a failure prints
//! the seed and the case. `FUZZ_CASES=N` sets the case count (default 3,000).

// A failed assertion is how a test reports; the no-panic rule is for the library.
#![allow(clippy::panic)]

use std::panic::{self, AssertUnwindSafe};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rowkey_lab::hbase::phoenix::types::ALL_TYPES;
use rowkey_lab::hbase::phoenix::{
    decode_row_key, row_key, Decimal, PhoenixColumn, PhoenixTable, PhoenixType, PhoenixValue,
    SortOrder, Timestamp,
};

const DECIMALS: &[&str] = &[
    "0",
    "-0.000",
    "1E-2147483648",
    "1E+2147483647",
    "-9.99999999999999999999999999999999999999999E-130",
    "99999999999999999999999999999999999999.5",
    "1E-39",
    "123.456",
    "-1",
    "1E+126",
];

fn value(rng: &mut Xoshiro256PlusPlus, t: PhoenixType) -> Option<PhoenixValue> {
    if rng.gen_ratio(1, 6) {
        return None;
    }
    use PhoenixValue as V;
    Some(match t {
        PhoenixType::Integer | PhoenixType::UnsignedInt => V::Integer(rng.gen()),
        PhoenixType::Bigint | PhoenixType::UnsignedLong => V::Long(rng.gen()),
        PhoenixType::Smallint => V::Short(rng.gen()),
        PhoenixType::Tinyint => V::Byte(rng.gen()),
        PhoenixType::Float => V::Float(f32::from_bits(rng.gen())),
        PhoenixType::Double => V::Double(f64::from_bits(rng.gen())),
        PhoenixType::Decimal => {
            let s = DECIMALS[rng.gen_range(0..DECIMALS.len())];
            V::Decimal(Decimal::parse(s).ok()?)
        }
        PhoenixType::Varchar | PhoenixType::Char => {
            let n = rng.gen_range(0..6);
            V::String(
                (0..n)
                    .map(|_| rng.gen_range(0..0x1_0000u32) as u16)
                    .collect(),
            )
        }
        PhoenixType::Boolean => V::Boolean(rng.gen()),
        PhoenixType::Date => V::Date(rng.gen()),
        PhoenixType::Time => V::Time(rng.gen()),
        PhoenixType::Timestamp => V::Timestamp(
            Timestamp::from_epoch_second(rng.gen(), rng.gen_range(0..1_000_000_000)).ok()?,
        ),
        PhoenixType::Varbinary | PhoenixType::Binary => {
            let n = rng.gen_range(0..6);
            V::Bytes((0..n).map(|_| rng.gen()).collect())
        }
    })
}

fn table(rng: &mut Xoshiro256PlusPlus) -> PhoenixTable {
    let n = rng.gen_range(0..5);
    let columns = (0..n)
        .map(|i| {
            let t = ALL_TYPES[rng.gen_range(0..ALL_TYPES.len())];
            PhoenixColumn {
                name: format!("K{i}"),
                data_type: t,
                sort_order: if rng.gen() {
                    SortOrder::Asc
                } else {
                    SortOrder::Desc
                },
                nullable: rng.gen(),
                max_length: if rng.gen_ratio(3, 4) {
                    Some(rng.gen_range(-1..8))
                } else {
                    None
                },
                scale: if rng.gen() {
                    Some(rng.gen_range(-2..6))
                } else {
                    None
                },
            }
        })
        .collect();
    PhoenixTable {
        name: "T".into(),
        columns,
        salt_buckets: if rng.gen() {
            Some(rng.gen_range(0..260))
        } else {
            None
        },
        row_key_order_optimizable: rng.gen(),
    }
}

#[test]
fn nothing_panics() {
    let cases: u64 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let mut keys = 0u64;
    for seed in 0..cases {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let t = table(&mut rng);
        let values: Vec<_> = t
            .columns
            .iter()
            .map(|c| value(&mut rng, c.data_type))
            .collect();
        let noise: Vec<u8> = (0..rng.gen_range(0..24)).map(|_| rng.gen()).collect();
        let r = panic::catch_unwind(AssertUnwindSafe(|| {
            let built = row_key(&t, &values).map(|key| {
                let _ = decode_row_key(&t, &key);
            });
            let _ = decode_row_key(&t, &noise);
            built.is_ok()
        }));
        match r {
            Ok(built) => keys += u64::from(built),
            Err(_) => panic!("seed {seed}: {t:?} {values:?} noise {noise:02x?}"),
        }
    }
    // Most cases must get as far as a key, or the fuzzing only exercises the refusals.
    assert!(keys * 5 > cases, "only {keys} of {cases} cases built a key");
}

mod ddl_round_trip {
    //! `printCreateTable` then `parseCreateTable` over hostile text: quotes, backslashes, `;`,
    //! `--`, `/*`, line breaks, non-ASCII, NUL. Each table name, column name, family, option
    //! value and split key either prints into a statement that reads back as exactly one
    //! statement with the same values, or is refused with an error at its path (a name Phoenix
    //! cannot write: one holding `"`, an empty one, a table name holding `:`). Raw option and
    //! type text is refused unless it is one option or one type. Seeded; `FUZZ_CASES=N`.

    use std::panic::{self, AssertUnwindSafe};

    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rowkey_lab::design::phoenix::{parse_create_table, print_create_table, quote_str};
    use rowkey_lab::design::DesignDocument;
    use rowkey_lab::region::{KeyEncoding, PreSplit, RegionLayout};

    const PIECES: &[&str] = &[
        "'",
        "''",
        "\\",
        "\\'",
        "\\\\",
        "\"",
        ";",
        "--",
        "//",
        "/*",
        "*/",
        "/*+",
        "\n",
        "\r",
        "\t",
        "\0",
        "\u{8}",
        "\u{c}",
        " ",
        "\u{2002}",
        "\u{a0}",
        "é",
        "İ",
        "\u{212a}",
        "𝄞",
        ")",
        "(",
        ",",
        ".",
        ":",
        "=",
        "DROP TABLE T",
        "x'",
        "a",
        "Z",
        "_",
        "1",
        "%",
        "\\_",
        "\\n",
    ];

    /// A text of `min..7` hostile pieces.
    fn hostile(rng: &mut Xoshiro256PlusPlus, min: usize) -> String {
        let n = rng.gen_range(min..7);
        (0..n)
            .map(|_| PIECES[rng.gen_range(0..PIECES.len())])
            .collect()
    }

    fn base() -> Result<DesignDocument, String> {
        parse_create_table(
            "CREATE TABLE s.t (k VARCHAR NOT NULL, ts DATE NOT NULL, cf.v INTEGER \
             CONSTRAINT pk PRIMARY KEY (k, ts))",
        )
        .map_err(|e| e.to_string())
    }

    /// Whether Phoenix SQL can write `name` (see `quote_ident`).
    fn writable(name: &str) -> bool {
        !name.is_empty() && !name.contains('"')
    }

    fn table_writable(t: &str) -> bool {
        let parts: Vec<&str> = match t.split_once('.') {
            Some((s, t)) => vec![s, t],
            None => vec![t],
        };
        !t.contains(':') && parts.iter().all(|p| writable(p))
    }

    /// One case: `Ok(true)` when it printed and read back, `Ok(false)` when it was refused
    /// as it must be.
    fn one_case(rng: &mut Xoshiro256PlusPlus) -> Result<bool, String> {
        let mut doc = base()?;
        let (table, name, family, value) = (
            format!("S.{}", hostile(rng, 1)),
            hostile(rng, 1),
            hostile(rng, 1),
            hostile(rng, 0),
        );
        let key = hostile(rng, 0).into_bytes();
        let raw_option = hostile(rng, 0);
        let p = doc.phoenix.as_mut().ok_or("no section")?;
        p.table = table.clone();
        p.columns[0].name = name.clone();
        p.columns[0].family = Some(family.clone());
        p.options = vec![format!("COMPRESSION={}", quote_str(&value))];
        let raw = rng.gen_ratio(1, 4);
        if raw {
            p.options.push(raw_option);
        }
        doc.regions = Some(RegionLayout {
            presplit: PreSplit::Explicit {
                keys: vec![rowkey_lab::hbase::bytes::to_hex(&key)],
                encoding: KeyEncoding::Hex,
            },
            ..RegionLayout::default()
        });
        let printable = table_writable(&table) && writable(&name) && writable(&family);
        let sql = match print_create_table(&doc) {
            Ok(sql) => sql,
            Err(e) if !printable || raw => {
                let path = e.location.path.clone().unwrap_or_default();
                return if path.starts_with("/phoenix/") {
                    Ok(false)
                } else {
                    Err(format!("refused without its path: {e}"))
                };
            }
            Err(e) => return Err(format!("refused: {e}")),
        };
        if !printable {
            return Err(format!("printed a name Phoenix cannot write:\n{sql}"));
        }
        let back = parse_create_table(&sql).map_err(|e| format!("{e}\n{sql}"))?;
        let bp = back.phoenix.as_ref().ok_or("no section read back")?;
        let want = doc.phoenix.as_ref().ok_or("no section")?;
        let same = bp.table == table
            && bp.columns[0].name == name
            && bp.columns[0].family.as_deref() == Some(family.as_str())
            && bp.options.first() == want.options.first()
            && back.regions == doc.regions
            && back.key == doc.key;
        if !same {
            return Err(format!("read back differently:\n{sql}\n{bp:?}"));
        }
        Ok(true)
    }

    #[test]
    fn printed_ddl_reads_back_whole() {
        let cases: u64 = std::env::var("FUZZ_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3000);
        let mut printed = 0u64;
        for seed in 0..cases {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            match panic::catch_unwind(AssertUnwindSafe(|| one_case(&mut rng))) {
                Ok(Ok(p)) => printed += u64::from(p),
                Ok(Err(e)) => panic!("seed {seed}: {e}"),
                Err(_) => panic!("seed {seed}: panicked"),
            }
        }
        // Most cases must print, or the test only exercises the refusals.
        assert!(
            printed * 3 > cases,
            "only {printed} of {cases} cases printed"
        );
    }
}
