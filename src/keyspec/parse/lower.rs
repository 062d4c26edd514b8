//! Lowering of the text form: what each call means.
//!
//! The parser in `parse.rs` knows only the grammar and hands over a tree of `Expr`/`Node`/`Arg`;
//! this module gives the tree its meaning, turning each segment and call (`salt`, `fixed`,
//! `time`, ...) with its positional and named arguments into the AST `Segment`s. It is kept
//! apart so that the grammar and the per-call rules can each be read on their own.

mod args;

use self::args::*;
use super::{err, Arg, Expr, Node, Pos, Term};
use crate::error::Result;
use crate::keyspec::ast::*;

pub(super) fn lower_segments(e: &Expr) -> Result<Vec<Segment>> {
    e.nodes.iter().map(lower_segment).collect()
}

fn lower_segment(n: &Node) -> Result<Segment> {
    match &n.term {
        Term::Str(b) => Ok(Segment::Literal(Literal { bytes: b.clone() })),
        Term::Ident(f) => Ok(Segment::Field(FieldArg { field: f.clone() })),
        Term::Num(_) => Err(err(
            n.pos,
            "a number is not a segment: write a literal as \"42\" or encode a field, e.g. long(id)",
        )),
        Term::List(_) => Err(err(n.pos, "a [list] is not a segment")),
        Term::Call(name, args) => lower_call(name, args, n.pos),
    }
}

fn lower_call(name: &str, args: &[Arg], pos: Pos) -> Result<Segment> {
    let mut a = Args::new(name, pos, args)?;
    let seg = match name {
        "field" => Segment::Field(FieldArg { field: a.field()? }),
        "str" => Segment::Str(FieldArg { field: a.field()? }),
        "bool" => Segment::Bool(FieldArg { field: a.field()? }),
        "bigDecimal" | "bigdecimal" => Segment::BigDecimal(FieldArg { field: a.field()? }),
        "reverse" => Segment::Reverse(FieldArg { field: a.field()? }),
        "long" | "int" | "short" | "double" | "float" => {
            let field = a.field()?;
            let sortable = a.flag("sortable")?;
            let s = NumSpec { field, sortable };
            match name {
                "long" => Segment::Long(s),
                "int" => Segment::Int(s),
                "short" => Segment::Short(s),
                "double" => Segment::Double(s),
                _ => Segment::Float(s),
            }
        }
        "fixed" => lower_fixed(&mut a)?,
        "dec" => {
            let field = a.field()?;
            let w = a.required("width", "dec(...) needs a width, e.g. dec(id, 10)")?;
            Segment::Dec(DecSpec {
                field,
                width: ranged(w, "the width", 1, 20)?,
            })
        }
        "salt" => lower_salt(&mut a)?,
        "random" => {
            let buckets = buckets(&mut a)?;
            let seed = match a.take_named("seed") {
                Some((_, e)) => ranged(e, "the seed", 0, i128::from(u64::MAX))?,
                None => 0,
            };
            let render = render_opt(&mut a, Render::Byte)?;
            Segment::Random(RandomSpec {
                buckets,
                seed,
                render,
            })
        }
        "hash15" => Segment::Hash15(HashSpec {
            of: source(&mut a)?,
        }),
        "md5" => Segment::Md5(HashSpec {
            of: source(&mut a)?,
        }),
        "md5Hex" | "md5hex" => lower_md5_hex(&mut a)?,
        "revts" => {
            let field = a.field()?;
            let div = match a.take_named("div") {
                Some((_, e)) => Some(ranged(e, "the divisor", 1, i128::from(i64::MAX))?),
                None => None,
            };
            let render = render_opt(&mut a, Render::Long)?;
            Segment::Revts(RevtsSpec { field, div, render })
        }
        "time" => lower_time(&mut a)?,
        "bucket" => lower_bucket(&mut a)?,
        "dict" | "tag" => lower_dict(&mut a)?,
        "when" => lower_when(&mut a)?,
        "uid" => lower_uid(&mut a)?,
        "baseTime" | "basetime" => Segment::BaseTime(FieldArg { field: a.field()? }),
        "tags" => lower_tags(&mut a)?,
        "pk" => lower_pk(&mut a)?,
        other => {
            return Err(err(
                pos,
                format!(
                    "unknown segment `{other}(...)`: expected one of {}",
                    crate::keyspec::functions::names()
                ),
            ))
        }
    };
    a.finish()?;
    Ok(seg)
}

/// `fixed(field, width, pad=, side=, overflow=)`.
fn lower_fixed(a: &mut Args) -> Result<Segment> {
    let field = a.field()?;
    let w = a.required("width", "fixed(...) needs a width, e.g. fixed(vin, 17)")?;
    // No row key is longer than HBase's limit, so neither is one of its segments.
    let max = crate::limits::MAX_ROW_LENGTH as i128;
    let width = ranged(w, "the width", 1, max)?;
    let pad = match a.take_named("pad") {
        None => 0u8,
        Some((_, e)) => match single(e).map(|n| &n.term) {
            Some(Term::Str(b)) if b.len() == 1 => b.first().copied().unwrap_or(0),
            Some(Term::Num(_)) => ranged(e, "the pad byte", 0, 255)?,
            _ => {
                return Err(err(
                    e.pos,
                    "pad must be one byte: a one-byte \"string\" or a number 0..255",
                ))
            }
        },
    };
    let side = match a.take_named("side") {
        Some((_, e)) => enum_arg(
            e,
            "pad side",
            &[("right", PadSide::Right), ("left", PadSide::Left)],
        )?,
        None => PadSide::Right,
    };
    let overflow = match a.take_named("overflow") {
        Some((_, e)) => enum_arg(
            e,
            "overflow rule",
            &[
                ("reject", Overflow::Reject),
                ("truncate", Overflow::Truncate),
            ],
        )?,
        None => Overflow::Reject,
    };
    Ok(Segment::Fixed(FixedSpec {
        field,
        width,
        pad,
        side,
        overflow,
    }))
}

/// `salt(source, buckets, hash=, mod=, as=)`.
fn lower_salt(a: &mut Args) -> Result<Segment> {
    let of = source(a)?;
    let buckets = buckets(a)?;
    let hash = match a.take_named("hash") {
        Some((_, e)) => enum_arg(
            e,
            "hash",
            &[
                ("javaString", SaltHash::JavaString),
                ("arrays", SaltHash::Arrays),
                ("md5", SaltHash::Md5),
                ("phoenix", SaltHash::Phoenix),
                ("hbasewd", SaltHash::Hbasewd),
                ("opentsdb", SaltHash::Opentsdb),
            ],
        )?,
        None => SaltHash::JavaString,
    };
    let modulo = match a.take_named("mod") {
        Some((_, e)) => enum_arg(
            e,
            "mod rule",
            &[
                ("absOfMod", ModMode::AbsOfMod),
                ("modOfAbs", ModMode::ModOfAbs),
                ("floorMod", ModMode::FloorMod),
            ],
        )?,
        None => ModMode::AbsOfMod,
    };
    let render = render_opt(a, Render::Byte)?;
    Ok(Segment::Salt(SaltSpec {
        of,
        buckets,
        hash,
        modulo,
        render,
    }))
}

/// `md5Hex(source, len, upper)`: the length is named or a positional number.
fn lower_md5_hex(a: &mut Args) -> Result<Segment> {
    let of = source(a)?;
    let len = match a.take_named("len") {
        Some((_, e)) => Some(e),
        None => match a.peek_positional() {
            Some(e) if matches!(single(e).map(|n| &n.term), Some(Term::Num(_))) => {
                a.take_positional()
            }
            _ => None,
        },
    };
    let len = match len {
        Some(e) => ranged(e, "the hex length", 1, 32)?,
        None => 32,
    };
    let upper = a.flag("upper")?;
    Ok(Segment::Md5Hex(Md5HexSpec { of, len, upper }))
}

/// `time(field, pattern, unit=)`: the pattern is checked here, where it is written.
fn lower_time(a: &mut Args) -> Result<Segment> {
    let field = a.field()?;
    let pe = a.required(
        "pattern",
        "time(...) needs a pattern, e.g. time(ts, \"yyyyMMddHHmmss\")",
    )?;
    let pattern = string(pe, "a time pattern such as \"yyyyMMdd\"")?;
    crate::keyspec::time::parse_pattern(&pattern).map_err(|m| err(pe.pos, m))?;
    let unit = unit_opt(a)?;
    Ok(Segment::Time(TimeSpec {
        field,
        pattern,
        unit,
    }))
}

/// `bucket(field, mod=N | div=P, as=)`.
fn lower_bucket(a: &mut Args) -> Result<Segment> {
    let field = a.field()?;
    let m = a.take_named("mod");
    let d = a.take_named("div");
    let (modulo, div) = match (m, d) {
        (Some((_, e)), None) => (
            Some(ranged(e, "the modulus", 1, i128::from(i64::MAX))?),
            None,
        ),
        (None, Some((_, e))) => (
            None,
            Some(ranged(e, "the period", 1, i128::from(i64::MAX))?),
        ),
        (Some((p, _)), Some(_)) => {
            return Err(err(p, "bucket(...) takes mod=N or div=P, not both"))
        }
        (None, None) => {
            return Err(err(
                a.pos,
                "bucket(...) needs mod=N (ts % N) or div=P (floor(ts / P))",
            ))
        }
    };
    let render = render_opt(a, Render::Long)?;
    Ok(Segment::Bucket(BucketSpec {
        field,
        modulo,
        div,
        render,
    }))
}

/// `dict(field, [table], as=)` or `tag(...)` (the call's name says which).
fn lower_dict(a: &mut Args) -> Result<Segment> {
    let name = a.call;
    let field = a.field()?;
    let missing = format!("{name}(...) needs a table, e.g. {name}(kind, [\"a\"=1, \"b\"=2])");
    let e = a.required("entries", &missing)?;
    let entries = entries(e)?;
    let render = match a.take_named("as") {
        Some((_, e)) => Some(render_from(e)?),
        None => None,
    };
    let d = DictSpec {
        field,
        entries,
        render,
    };
    Ok(if name == "dict" {
        Segment::Dict(d)
    } else {
        Segment::Tag(d)
    })
}

/// `when(field, values, segments)`.
fn lower_when(a: &mut Args) -> Result<Segment> {
    let field = a.field()?;
    let ve = a.required(
        "is",
        "when(...) needs the values, e.g. when(type, \"order\", long(order_id))",
    )?;
    let is = values_list(ve)?;
    let te = a.required(
        "then",
        "when(...) needs the segments to write, e.g. when(type, \"order\", long(order_id))",
    )?;
    let then = lower_segments(te)?;
    Ok(Segment::When(WhenSpec { field, is, then }))
}

/// The optional UID width (`width=` or a positional number), 1..=8, default 3.
fn uid_width_arg(a: &mut Args) -> Result<u32> {
    let e = match a.take_named("width") {
        Some((_, e)) => Some(e),
        None => match a.peek_positional() {
            Some(e) if matches!(single(e).map(|n| &n.term), Some(Term::Num(_))) => {
                a.take_positional()
            }
            _ => None,
        },
    };
    match e {
        Some(e) => ranged(e, "the UID width", 1, 8),
        None => Ok(uid_width()),
    }
}

/// `uid(field, width, [table])`: without a table, UIDs are assigned in order of first
/// appearance.
fn lower_uid(a: &mut Args) -> Result<Segment> {
    let field = a.field()?;
    let width = uid_width_arg(a)?;
    let table = match a.take_named("entries") {
        Some((_, e)) => Some(e),
        None => a.take_positional(),
    };
    let entries = match table {
        Some(e) => Some(entries(e)?),
        None => None,
    };
    Ok(Segment::Uid(UidSpec {
        field,
        width,
        entries,
    }))
}

/// `tags(values, tagk=[...], width=W)`: the tag values and their tag keys' UIDs.
fn lower_tags(a: &mut Args) -> Result<Segment> {
    let example = "e.g. tags(uid(host) + uid(dc), tagk=[\"host\"=1, \"dc\"=2])";
    let of = match a.take_named("of") {
        Some((_, e)) => e,
        None => a
            .take_positional()
            .ok_or_else(|| err(a.pos, format!("tags(...) needs the tag values, {example}")))?,
    };
    let of = lower_segments(of)?;
    let t = a.required(
        "tagk",
        &format!("tags(...) needs tagk=[...], the tag keys' UIDs, {example}"),
    )?;
    let tagk = entries(t)?;
    let width = match a.take_named("width") {
        Some((_, e)) => ranged(e, "the tag-key UID width", 1, 8)?,
        None => uid_width(),
    };
    Ok(Segment::Tags(TagsSpec { of, tagk, width }))
}

/// `pk(field, TYPE, desc, nullable, len=N, scale=S)`; the type may carry its length and scale
/// as SQL writes them (`VARCHAR(20)`, `DECIMAL(10, 2)`).
fn lower_pk(a: &mut Args) -> Result<Segment> {
    use crate::hbase::phoenix::PhoenixType;
    let field = a.field()?;
    let example = "e.g. pk(host, VARCHAR) or pk(price, DECIMAL(10, 2), desc)";
    let t = a.required("type", &format!("pk(...) needs a Phoenix type, {example}"))?;
    let (name, params): (&str, &[Arg]) = match single(t).map(|n| &n.term) {
        Some(Term::Ident(n)) => (n, &[]),
        Some(Term::Call(n, p)) => (n, p),
        _ => return Err(err(t.pos, format!("expected a Phoenix type, {example}"))),
    };
    let data_type = PhoenixType::from_sql_name(&name.to_ascii_uppercase()).ok_or_else(|| {
        err(
            t.pos,
            format!(
                "unknown Phoenix type `{name}`: expected one of {}",
                phoenix_type_names()
            ),
        )
    })?;
    let mut len = None;
    let mut scale = None;
    for (i, p) in params.iter().enumerate() {
        if p.name.is_some() || i > 1 {
            return Err(err(
                p.value.pos,
                format!("{name}(...) takes a length, or a precision and a scale"),
            ));
        }
        let n = ranged(
            &p.value,
            if i == 0 { "the length" } else { "the scale" },
            0,
            i128::from(i32::MAX),
        )?;
        if i == 0 {
            len = Some(n);
        } else {
            scale = Some(n);
        }
    }
    let desc = a.flag("desc")?;
    let nullable = a.flag("nullable")?;
    if let Some((_, e)) = a.take_named("len") {
        len = Some(ranged(e, "the length", 1, i128::from(i32::MAX))?);
    }
    if let Some((_, e)) = a.take_named("scale") {
        scale = Some(ranged(e, "the scale", 0, i128::from(i32::MAX))?);
    }
    Ok(Segment::Pk(PkSpec {
        field,
        data_type,
        desc,
        len,
        scale,
        nullable,
    }))
}

/// The Phoenix type names `pk(...)` takes, for messages.
fn phoenix_type_names() -> String {
    crate::hbase::phoenix::types::ALL_TYPES
        .iter()
        .map(|t| t.sql_name())
        .collect::<Vec<_>>()
        .join(", ")
}
