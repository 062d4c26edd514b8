//! `serde::Deserialize` through the readers: any serde input is collected into a [`Node`]
//! tree and read by the type's own reader, so `serde_json::from_str::<DesignDocument>` keeps
//! the readers' rules and messages.

use serde::Deserializer;

use super::{Json, Node, R};
use crate::error::{ErrorKind, Result};

/// Parse `text` and read it with `f`; errors are `Parse` errors with the JSON pointer, line
/// and column.
pub(crate) fn from_json<T>(text: &str, f: fn(&Node) -> R<T>) -> Result<T> {
    let n = crate::support::json::parse(text)?;
    f(&n).map_err(|e| e.into_error(ErrorKind::Parse, text))
}

/// Collects any serde input into a [`Node`] (object keys in input order, duplicates kept).
struct NodeVisitor;

impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Bool(b)))
    }
    fn visit_u64<E>(self, u: u64) -> std::result::Result<Node, E> {
        Ok(leaf(Json::U(u)))
    }
    fn visit_i64<E>(self, i: i64) -> std::result::Result<Node, E> {
        Ok(leaf(if i >= 0 {
            Json::U(i as u64)
        } else {
            Json::I(i)
        }))
    }
    fn visit_f64<E>(self, f: f64) -> std::result::Result<Node, E> {
        Ok(leaf(Json::F(f)))
    }
    fn visit_str<E>(self, s: &str) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Str(s.to_string())))
    }
    fn visit_unit<E>(self) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Null))
    }
    fn visit_none<E>(self) -> std::result::Result<Node, E> {
        Ok(leaf(Json::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element_seed(NodeSeed)? {
            items.push(x);
        }
        Ok(leaf(Json::Arr(items)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut m: A,
    ) -> std::result::Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = m.next_key::<String>()? {
            let v = m.next_value_seed(NodeSeed)?;
            entries.push((k, 0, v));
        }
        Ok(leaf(Json::Obj(entries)))
    }
}

struct NodeSeed;

impl<'de> serde::de::DeserializeSeed<'de> for NodeSeed {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

fn leaf(v: Json) -> Node {
    Node { v, pos: 0 }
}

/// Read `T` from any serde input through its reader `f`; the error message names the path.
pub(crate) fn through<'de, D: Deserializer<'de>, T>(
    d: D,
    f: fn(&Node) -> R<T>,
) -> std::result::Result<T, D::Error> {
    let n = d.deserialize_any(NodeVisitor)?;
    f(&n).map_err(|e| {
        let msg = match e.pointer() {
            p if p.is_empty() => e.message().to_string(),
            p => format!("{p}: {}", e.message()),
        };
        serde::de::Error::custom(msg)
    })
}

/// `impl Deserialize for T` through `T`'s reader, for each `T => reader` pair.
macro_rules! deserialize_through {
    ($($t:ty => $f:path),* $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                $crate::support::json::serde::through(d, $f)
            }
        }
    )*};
}

pub(crate) use deserialize_through;
