//! The document's kinds and their members, as the readers take them: segment kinds,
//! generator kinds, pre-split kinds, split policies and read types. Each table is written by
//! the reader's own declaration (`tagged_reader!`), so a form or a completion list built on
//! it offers exactly what the engine accepts.

use serde::Serialize;

pub use crate::support::json::{Member, Variant};

/// Every tagged part of a design document, variant by variant.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Schema {
    /// Field types (`fields[].type`).
    #[serde(serialize_with = "names")]
    pub field_types: &'static [(&'static str, crate::keyspec::FieldType)],
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
}

/// A name table as its names.
fn names<T, S: serde::Serializer>(table: &[(&str, T)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(table.iter().map(|(name, _)| name))
}

/// Phoenix types as their SQL names.
fn phoenix_names<S: serde::Serializer>(
    types: &[crate::hbase::phoenix::PhoenixType],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(types.iter().map(|t| t.sql_name()))
}

/// The schema of the design document this engine reads.
pub fn schema() -> Schema {
    Schema {
        field_types: crate::keyspec::read::FIELD_TYPES,
        functions: crate::keyspec::functions::FUNCTIONS,
        phoenix_types: &crate::hbase::phoenix::types::ALL_TYPES,
        segments: crate::keyspec::read::SEGMENTS,
        generators: crate::workload::read::GENERATORS,
        presplits: crate::region::read::PRESPLITS,
        split_policies: crate::region::read::SPLIT_POLICIES,
        reads: crate::scan::read::READ_PATTERNS,
        qualifiers: crate::design::cells::QUALIFIERS,
    }
}

#[cfg(test)]
mod tests {
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
}
