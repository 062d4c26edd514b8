//! Reading a read pattern from a JSON tree.

use crate::scan::ReadPattern;
use crate::support::json::{map, string, tag, u64_, Node, Obj, R};

/// A [`ReadPattern`]: `{"type": "prefix", "record": {...}}`.
pub fn read_pattern(n: &Node) -> R<ReadPattern> {
    let k = tag(
        n,
        "internally tagged enum ReadPattern",
        "type",
        &["get", "prefix", "range", "latest"],
    )?;
    let obj = |fields: &[&str]| Obj::new(n, "struct variant", fields, Some("type"), false);
    Ok(match k {
        0 | 1 => {
            let o = obj(&["name", "record"])?;
            let (name, record) = (o.opt("name", string)?, o.req("record", map)?);
            if k == 0 {
                ReadPattern::Get { name, record }
            } else {
                ReadPattern::Prefix { name, record }
            }
        }
        2 => {
            let o = obj(&["name", "from", "to"])?;
            ReadPattern::Range {
                name: o.opt("name", string)?,
                from: o.req("from", map)?,
                to: o.req("to", map)?,
            }
        }
        _ => {
            let o = obj(&["name", "record", "n"])?;
            ReadPattern::Latest {
                name: o.opt("name", string)?,
                record: o.req("record", map)?,
                n: o.req("n", |n| match u64_(n)? {
                    0 => Err(n.error("a latest read returns at least 1 row (`n` >= 1)")),
                    v => Ok(v),
                })?,
            }
        }
    })
}

crate::support::json::deserialize_through! {
    ReadPattern => read_pattern,
}
