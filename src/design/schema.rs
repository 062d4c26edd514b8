//! The document's kinds and their members, as the readers take them: segment kinds,
//! generator kinds, pre-split kinds, split policies and read types, and every object of the
//! document and of the analysis and advisor options with each member's default and range.
//! Each table is written by the reader's own declaration (`tagged_reader!`, `object_reader!`),
//! so a form or a completion list built on it offers exactly what the engine accepts, and the
//! shells keep no default or limit of their own.

use serde::Serialize;

pub use crate::support::json::{Member, Variant};

/// Every tagged part of a design document, variant by variant.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Schema {
    /// Field types (`fields[].type`).
    #[serde(serialize_with = "names")]
    pub field_types: &'static [(&'static str, crate::keyspec::FieldType)],
    /// What a record's value of each field type is, by the type's name (`long`: `integer`):
    /// how a form reads a record's value from its text.
    #[serde(rename = "fieldValues", serialize_with = "field_values")]
    pub field_values: &'static [(&'static str, crate::keyspec::FieldType)],
    /// Phoenix SQL types, as `pk(...)` segments take them.
    #[serde(serialize_with = "phoenix_names")]
    pub phoenix_types: &'static [crate::hbase::phoenix::PhoenixType],
    /// The key language's functions (text form): name, signature, help, an example.
    pub functions: &'static [crate::keyspec::functions::KeyFunction],
    /// Key segments (`kind`), the JSON form of the key.
    pub segments: &'static [Variant],
    /// Field generators (`kind`).
    pub generators: &'static [Variant],
    /// Pre-split layouts (`regions.presplit.kind`).
    pub presplits: &'static [Variant],
    /// Auto-split policies (`regions.autoSplit.policy.type`).
    pub split_policies: &'static [Variant],
    /// Read patterns (`reads[].type`).
    pub reads: &'static [Variant],
    /// Column qualifiers (`cells.qualifier.kind`).
    pub qualifiers: &'static [Variant],
    /// Every object of the document, by its TypeScript name (`WorkloadSpec`, `CellSpec`, …):
    /// its members in the order the reader declares them.
    #[serde(serialize_with = "object_map")]
    pub objects: &'static [(&'static str, &'static [Member])],
    /// The options of an analysis and of the advisor, the same way (`AnalyzeOptions`,
    /// `AdviseOptions`, `CapacityOptions`): filled in by `advise::schema`, the layer that
    /// sees both.
    #[serde(serialize_with = "object_map")]
    pub options: &'static [(&'static str, &'static [Member])],
}

/// The object tables as one JSON object, name to members.
fn object_map<S: serde::Serializer>(
    objects: &[(&'static str, &'static [Member])],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(objects.iter().map(|(name, members)| (name, members)))
}

/// Every object table, by the name its TypeScript declaration has.
pub const OBJECTS: &[(&str, &[Member])] = &[
    ("DesignDocument", super::read::DOCUMENT),
    ("FieldDecl", crate::workload::read::FIELD_DECL),
    ("WorkloadSpec", crate::workload::read::WORKLOAD),
    ("RegionLayout", crate::region::read::REGION_LAYOUT),
    ("AutoSplit", crate::region::read::AUTO_SPLIT),
    ("SplitConfig", crate::region::read::SPLIT_CONFIG),
    ("CellSpec", super::cells::CELLS),
    ("TableSpec", super::table::TABLE),
    ("Example", super::read::EXAMPLE),
    ("PhoenixSection", super::phoenix::PHOENIX),
    ("PhoenixColumnDecl", super::phoenix::PHOENIX_COLUMN),
    ("PhoenixIndex", super::phoenix::PHOENIX_INDEX),
    ("IndexedColumn", super::phoenix::INDEXED_COLUMN),
];

/// A name table as its names.
fn names<T, S: serde::Serializer>(table: &[(&str, T)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(table.iter().map(|(name, _)| name))
}

/// Each field type's name and the kind of its records' values.
fn field_values<S: serde::Serializer>(
    table: &[(&'static str, crate::keyspec::FieldType)],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(table.iter().map(|(name, t)| (name, t.record_value())))
}

/// Phoenix types as their SQL names.
fn phoenix_names<S: serde::Serializer>(
    types: &[crate::hbase::phoenix::PhoenixType],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(types.iter().map(|t| t.sql_name()))
}

/// The schema of the design document this engine reads (without the options: see
/// `advise::schema`).
pub fn schema() -> Schema {
    Schema {
        field_types: &crate::keyspec::read::FIELD_TYPES,
        field_values: &crate::keyspec::read::FIELD_TYPES,
        functions: crate::keyspec::functions::FUNCTIONS,
        phoenix_types: &crate::hbase::phoenix::types::ALL_TYPES,
        segments: crate::keyspec::read::SEGMENTS,
        generators: crate::workload::read::GENERATORS,
        presplits: crate::region::read::PRESPLITS,
        split_policies: crate::region::read::SPLIT_POLICIES,
        reads: crate::scan::read::READ_PATTERNS,
        qualifiers: crate::design::cells::QUALIFIERS,
        objects: OBJECTS,
        options: &[],
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::design::DesignDocument;

    /// A document with `part` put at `/regions/presplit` etc., read; the error text if any.
    fn read_error(doc: serde_json::Value) -> String {
        match DesignDocument::from_json(&doc.to_string()) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    fn with_generator(g: serde_json::Value) -> serde_json::Value {
        serde_json::json!({"v": 1, "key": "field(a)",
            "fields": [{"name": "a", "type": "long", "generator": g}]})
    }

    /// The value kind a form draws for a member, as the reader reads it.
    fn kind(table: &[Variant], variant: &str, key: &str) -> &'static str {
        let v = table.iter().find(|v| v.name == variant).expect(variant);
        v.members.iter().find(|m| m.key == key).expect(key).value
    }

    #[test]
    fn members_say_what_they_hold() {
        let s = schema();
        assert_eq!(kind(s.generators, "uniformInt", "min"), "integer");
        assert_eq!(kind(s.generators, "zipf", "s"), "number");
        assert_eq!(kind(s.generators, "zipf", "scramble"), "boolean");
        assert_eq!(kind(s.generators, "uniformString", "alphabet"), "string");
        assert_eq!(kind(s.generators, "clock", "start"), "time");
        assert_eq!(kind(s.reads, "get", "record"), "record");
        assert_eq!(kind(s.reads, "range", "from"), "record");
        assert_eq!(kind(s.reads, "latest", "n"), "integer");
        assert_eq!(kind(s.presplits, "sampleQuantiles", "sample"), "strings");
        assert_eq!(
            kind(s.split_policies, "keyPrefix", "prefixLength"),
            "integer"
        );
        let types: Vec<&str> = s.field_types.iter().map(|(n, _)| *n).collect();
        assert!(
            types.contains(&"timestamp") && types.contains(&"string"),
            "{types:?}"
        );
        assert!(s.functions.iter().any(|f| f.name == "salt"));
        assert_eq!(kind(s.segments, "pk", "type"), "phoenixType");
        assert_eq!(kind(s.segments, "pk", "desc"), "boolean");
        assert!(s.phoenix_types.iter().any(|t| t.sql_name() == "VARCHAR"));
    }

    #[test]
    fn each_table_names_its_variants_once() {
        let s = schema();
        for table in [
            s.segments,
            s.generators,
            s.presplits,
            s.split_policies,
            s.reads,
            s.qualifiers,
        ] {
            let mut names: Vec<&str> = table.iter().map(|v| v.name).collect();
            names.sort_unstable();
            let before = names.len();
            names.dedup();
            assert_eq!(names.len(), before, "{names:?}");
            for v in table {
                let mut keys: Vec<&str> = v.members.iter().map(|m| m.key).collect();
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(keys.len(), v.members.len(), "{}", v.name);
            }
        }
    }

    #[test]
    fn a_generator_variant_accepts_exactly_its_table_members() {
        // The table is what the reader checks: an unknown member is refused with the table's
        // keys as the expected ones, and leaving out a required member is `missing field`.
        for v in schema().generators {
            let e = read_error(with_generator(serde_json::json!({"kind": v.name, "zz": 1})));
            let expected: Vec<String> = v.members.iter().map(|m| format!("`{}`", m.key)).collect();
            assert!(e.contains("unknown field `zz`"), "{}: {e}", v.name);
            for k in &expected {
                assert!(e.contains(k.as_str()), "{}: {e} lacks {k}", v.name);
            }
            for m in v.members.iter().filter(|m| m.required) {
                let e = read_error(with_generator(serde_json::json!({"kind": v.name})));
                assert!(
                    e.contains("missing field `"),
                    "{} without {}: {e}",
                    v.name,
                    m.key
                );
            }
        }
        let e = read_error(with_generator(serde_json::json!({"kind": "nope"})));
        for v in schema().generators {
            assert!(e.contains(&format!("`{}`", v.name)), "{e}");
        }
    }

    #[test]
    fn every_presplit_and_policy_kind_is_read() {
        // A variant with its required members given a plausible value reads, or fails on its
        // value, never as an unknown variant or member.
        for v in schema().presplits {
            let mut p = serde_json::Map::new();
            p.insert("kind".into(), v.name.into());
            for m in v.members.iter().filter(|m| m.required) {
                let value = match m.key {
                    "keys" => serde_json::json!(["b"]),
                    "start" => serde_json::json!("a"),
                    "end" => serde_json::json!("z"),
                    _ => serde_json::json!(4),
                };
                p.insert(m.key.into(), value);
            }
            let e = read_error(serde_json::json!({"v": 1, "key": "field(a)",
                "fields": [{"name": "a", "type": "string"}], "regions": {"presplit": p}}));
            assert!(!e.contains("unknown"), "{}: {e}", v.name);
        }
        assert_eq!(
            schema().split_policies.len(),
            6,
            "HBase's five split policies and `disabled`"
        );
    }

    use crate::support::json::{Node, R};
    use serde_json::{json, Map, Value};

    /// What `read` makes of `v`: the value's debug text, or the error's message.
    pub(crate) fn read_with<T: std::fmt::Debug>(
        read: fn(&Node) -> R<T>,
        v: &Value,
    ) -> Result<String, String> {
        let n = crate::support::json::parse(&v.to_string()).map_err(|e| e.to_string())?;
        read(&n)
            .map(|t| format!("{t:?}"))
            .map_err(|e| e.message().to_string())
    }

    /// A plausible value for a required member: by its key where the kind says too little.
    fn fixture(m: &Member) -> Value {
        match (m.key, m.value) {
            ("values", _) => json!(["x"]),
            ("weights", _) => json!([1]),
            ("value", _) => json!("x"),
            ("entries" | "tagk", _) => json!({"x": 1}),
            ("of", _) => json!([{"kind": "uid", "field": "a"}]),
            ("columns", _) => json!([{"name": "a"}]),
            ("then", _) => json!([{"kind": "str", "field": "a"}]),
            ("key", "json") => json!("str(a)"),
            ("v", _) => json!(1),
            (_, "integer") => json!(3),
            (_, "number") => json!(1.5),
            (_, "boolean") => json!(true),
            (_, "time") => json!(0),
            (_, "bytes") => json!(4096),
            (_, "strings") => json!(["a"]),
            (_, "record") => json!({"a": 1}),
            (_, "phoenixType") => json!("VARCHAR"),
            _ => json!("a"),
        }
    }

    /// Each defaulted member of `members`, given its default's text, reads as when left out;
    /// `base` (with the required members added) must read. Returns the defaults checked.
    pub(crate) fn defaults_read_back<T: std::fmt::Debug>(
        what: &str,
        members: &[Member],
        mut base: Map<String, Value>,
        read: fn(&Node) -> R<T>,
    ) -> usize {
        for m in members.iter().filter(|m| m.required) {
            base.insert(m.key.into(), fixture(m));
        }
        let defaulted: Vec<&Member> = members.iter().filter(|m| m.default.is_some()).collect();
        if defaulted.is_empty() {
            return 0;
        }
        let left_out = read_with(read, &Value::Object(base.clone()))
            .unwrap_or_else(|e| panic!("{what}: the base does not read: {e}"));
        for m in &defaulted {
            let text = m.default.unwrap_or_default();
            let value: Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{what}.{}: default {text} is not JSON: {e}", m.key));
            let mut given = base.clone();
            given.insert(m.key.into(), value);
            let read_given = read_with(read, &Value::Object(given))
                .unwrap_or_else(|e| panic!("{what}.{}: default {text} does not read: {e}", m.key));
            assert_eq!(
                read_given, left_out,
                "{what}.{}: the table says {text}, the reader takes another value",
                m.key
            );
        }
        defaulted.len()
    }

    fn variants<T: std::fmt::Debug>(
        table: &[Variant],
        tag: &str,
        read: fn(&Node) -> R<T>,
    ) -> usize {
        table
            .iter()
            .map(|v| {
                let mut base = Map::new();
                base.insert(tag.into(), v.name.into());
                defaults_read_back(v.name, v.members, base, read)
            })
            .sum()
    }

    #[test]
    fn every_default_in_the_tables_is_what_the_reader_takes() {
        // The table's default is written beside the reader's own: this holds them together,
        // member by member, for every tagged part and every object.
        use crate::design::cells::{cell_spec, qualifier};
        use crate::region::read::{
            auto_split, presplit, region_layout, split_config, split_policy,
        };
        use crate::workload::read::{field_decl, generator, workload};
        let s = schema();
        let mut n = variants(s.segments, "kind", crate::keyspec::read::segment)
            + variants(s.generators, "kind", generator)
            + variants(s.presplits, "kind", presplit)
            + variants(s.split_policies, "type", split_policy)
            + variants(s.reads, "type", crate::scan::read::read_pattern)
            + variants(s.qualifiers, "kind", qualifier);
        let object = |name: &str| {
            OBJECTS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, m)| *m)
                .unwrap_or_else(|| panic!("{name}"))
        };
        let none = Map::new;
        n += defaults_read_back(
            "DesignDocument",
            object("DesignDocument"),
            none(),
            super::super::read::design,
        );
        n += defaults_read_back("FieldDecl", object("FieldDecl"), none(), field_decl);
        n += defaults_read_back("WorkloadSpec", object("WorkloadSpec"), none(), workload);
        n += defaults_read_back(
            "RegionLayout",
            object("RegionLayout"),
            none(),
            region_layout,
        );
        n += defaults_read_back("AutoSplit", object("AutoSplit"), none(), auto_split);
        n += defaults_read_back("SplitConfig", object("SplitConfig"), none(), split_config);
        n += defaults_read_back("CellSpec", object("CellSpec"), none(), cell_spec);
        n += defaults_read_back(
            "TableSpec",
            object("TableSpec"),
            none(),
            crate::design::table::table_spec,
        );
        n += defaults_read_back(
            "Example",
            object("Example"),
            none(),
            super::super::read::example,
        );
        n += defaults_read_back(
            "PhoenixSection",
            object("PhoenixSection"),
            none(),
            super::super::phoenix::section,
        );
        n += defaults_read_back(
            "PhoenixColumnDecl",
            object("PhoenixColumnDecl"),
            none(),
            super::super::phoenix::column,
        );
        n += defaults_read_back(
            "PhoenixIndex",
            object("PhoenixIndex"),
            none(),
            super::super::phoenix::index::index,
        );
        n += defaults_read_back(
            "IndexedColumn",
            object("IndexedColumn"),
            none(),
            super::super::phoenix::index::indexed_column,
        );
        assert_eq!(OBJECTS.len(), 13, "a new object table is checked here too");
        // every defaulted member was checked (none skipped by a base that did not read)
        let all: usize = [
            s.segments,
            s.generators,
            s.presplits,
            s.split_policies,
            s.reads,
            s.qualifiers,
        ]
        .iter()
        .flat_map(|t| t.iter().flat_map(|v| v.members))
        .chain(OBJECTS.iter().flat_map(|(_, m)| m.iter()))
        .filter(|m| m.default.is_some())
        .count();
        assert_eq!(n, all);
        assert!(n > 60, "{n}");
    }

    /// Where the engine checks `key` of object `name` set to `v`: `Ok`, or the error's path.
    fn checked(name: &str, key: &str, v: Value) -> Result<(), String> {
        let path = |e: crate::error::Error| Err(e.location.path.unwrap_or_default());
        let small = json!({"v": 1, "fields": [{"name": "a", "type": "long"}], "key": "long(a)",
            "workload": {"records": 10}});
        match name {
            "WorkloadSpec" => {
                let mut doc = small.clone();
                doc["workload"][key] = v;
                let d = DesignDocument::from_json(&doc.to_string())
                    .or_else(|e| path(e).map(|()| unreachable_doc()))?;
                d.workload.unwrap_or_default().validate().or_else(path)
            }
            "RegionLayout" => {
                let mut doc = small.clone();
                doc["regions"] = json!({ key: v });
                let d = DesignDocument::from_json(&doc.to_string())
                    .or_else(|e| path(e).map(|()| unreachable_doc()))?;
                d.regions.unwrap_or_default().validate().or_else(path)
            }
            "CellSpec" => {
                let mut doc = small.clone();
                doc["cells"] = json!({ key: v });
                DesignDocument::from_json(&doc.to_string())
                    .map(|_| ())
                    .or_else(path)
            }
            "TableSpec" => {
                let mut doc = small.clone();
                doc["hbase"] = json!({ key: v });
                DesignDocument::from_json(&doc.to_string())
                    .map(|_| ())
                    .or_else(path)
            }
            "DesignDocument" => {
                let mut doc = small.clone();
                doc[key] = v;
                DesignDocument::from_json(&doc.to_string())
                    .map(|_| ())
                    .or_else(path)
            }
            "PhoenixIndex" => {
                let sql = "CREATE TABLE T (A BIGINT NOT NULL PRIMARY KEY, B BIGINT);\
                           CREATE INDEX I ON T (B)";
                let base = crate::design::phoenix::parse_create_table(sql)
                    .unwrap_or_else(|e| panic!("{e}"));
                let mut doc = serde_json::to_value(&base).unwrap_or_else(|e| panic!("{e}"));
                doc["phoenix"]["indexes"][0][key] = v;
                DesignDocument::from_json(&doc.to_string())
                    .map(|_| ())
                    .or_else(path)
            }
            _ => panic!("no check for the ranges of {name}: add one here"),
        }
    }

    fn unreachable_doc() -> DesignDocument {
        panic!("an error path was expected")
    }

    /// Each range of `tables` holds: both bounds accepted, one step past either refused with
    /// the error at the member (`checked` says where the engine put it). Returns the ranges.
    pub(crate) fn ranges_hold(
        tables: &[(&str, &[Member])],
        checked: impl Fn(&str, &str, Value) -> Result<(), String>,
    ) -> usize {
        let mut n = 0;
        for (name, members) in tables {
            for m in members.iter() {
                let Some(&[lo, hi]) = m.range else {
                    continue;
                };
                assert!(
                    matches!(m.value, "integer" | "bytes"),
                    "{name}.{}: ranges are of integers (a size is a count of bytes)",
                    m.key
                );
                let at = |x: f64| checked(name, m.key, json!(x as i64));
                assert_eq!(at(lo), Ok(()), "{name}.{} at its min {lo}", m.key);
                assert_eq!(at(hi), Ok(()), "{name}.{} at its max {hi}", m.key);
                for past in [lo - 1.0, hi + 1.0] {
                    let e = at(past).expect_err(&format!("{name}.{} at {past}", m.key));
                    assert!(
                        e.ends_with(m.key),
                        "{name}.{} at {past}: error at {e}",
                        m.key
                    );
                }
                n += 1;
            }
        }
        n
    }

    #[test]
    fn every_range_in_the_tables_is_what_the_engine_accepts() {
        // The page sets its controls' `min`/`max` from these and shows the engine's error.
        assert!(ranges_hold(OBJECTS, checked) >= 5);
    }

    #[test]
    fn a_record_value_of_each_field_type_kind_is_read_as_that_type() {
        // The page's record controls turn text into a value of the type's kind: the engine
        // must take that value for the type (a number for a long, a bool for a boolean, …).
        for (name, t) in crate::keyspec::read::FIELD_TYPES {
            let value = match t.record_value() {
                "integer" => json!(7),
                "number" => json!(1.5),
                "boolean" => json!(true),
                "time" => json!("2021-09-07T00:00:00Z"),
                _ => json!("12.5"),
            };
            let doc = json!({"v": 1, "fields": [{"name": "f", "type": name}], "key": "field(f)",
                "examples": [{"record": {"f": value}}]});
            let d = DesignDocument::from_json(&doc.to_string())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let rec = json!({"f": value});
            let key = crate::keyspec::encode(
                &d.key,
                &d.key_fields(),
                rec.as_object().unwrap_or(&Map::new()),
            );
            assert!(key.is_ok(), "{name} with {value}: {key:?}");
            // and the text of another kind is not what the type takes
            if t.record_value() == "integer" {
                let rec = json!({"f": "x"});
                let bad = crate::keyspec::encode(
                    &d.key,
                    &d.key_fields(),
                    rec.as_object().unwrap_or(&Map::new()),
                );
                assert!(bad.is_err(), "{name} took x");
            }
        }
    }
}
