//! The arguments of one call in the key's text form, and the readers of their values (a
//! number in a range, a string, one of a set of names, a time unit, a rendering), each with an
//! error that points at the argument: what every call's lowering in `lower.rs` is made of.

use super::super::{err, Arg, Expr, Node, Pos, Term};
use super::lower_segments;
use crate::error::Result;
use crate::keyspec::ast::*;
use crate::support::num_text::int_text;

/// Positional and named arguments of one call, consumed by the lowering of that call.
pub(super) struct Args<'a> {
    pub(super) call: &'a str,
    pub(super) pos: Pos,
    positional: Vec<&'a Expr>,
    named: Vec<(&'a str, Pos, &'a Expr)>,
    next_pos: usize,
}

impl<'a> Args<'a> {
    pub(super) fn new(call: &'a str, pos: Pos, args: &'a [Arg]) -> Result<Self> {
        let mut positional = Vec::new();
        let mut named: Vec<(&str, Pos, &Expr)> = Vec::new();
        for a in args {
            match &a.name {
                Some((n, p)) => {
                    if named.iter().any(|(m, _, _)| m == n) {
                        return Err(err(*p, format!("`{n}` is given twice in {call}(...)")));
                    }
                    named.push((n.as_str(), *p, &a.value));
                }
                None => {
                    if let Some((n, p, _)) = named.last() {
                        return Err(err(a.value.pos, format!("positional argument after the named argument `{n}` (line {}, column {}) in {call}(...): put positional arguments first", p.line, p.col)));
                    }
                    positional.push(&a.value);
                }
            }
        }
        Ok(Args {
            call,
            pos,
            positional,
            named,
            next_pos: 0,
        })
    }

    pub(super) fn peek_positional(&self) -> Option<&'a Expr> {
        self.positional.get(self.next_pos).copied()
    }

    pub(super) fn take_positional(&mut self) -> Option<&'a Expr> {
        let e = self.peek_positional();
        if e.is_some() {
            self.next_pos += 1;
        }
        e
    }

    pub(super) fn take_named(&mut self, name: &str) -> Option<(Pos, &'a Expr)> {
        let i = self.named.iter().position(|(n, _, _)| *n == name)?;
        let (_, p, e) = self.named.remove(i);
        Some((p, e))
    }

    /// A required argument, given by `name` or as the next positional one; `missing`: the
    /// error when it is not given.
    pub(super) fn required(&mut self, name: &str, missing: &str) -> Result<&'a Expr> {
        match self.take_named(name) {
            Some((_, e)) => Ok(e),
            None => self.take_positional().ok_or_else(|| err(self.pos, missing)),
        }
    }

    /// A required field name (first positional argument).
    pub(super) fn field(&mut self) -> Result<String> {
        match self.take_positional() {
            Some(e) => ident(e, "a field name"),
            None => Err(err(
                self.pos,
                format!(
                    "{}(...) needs a field name as its first argument",
                    self.call
                ),
            )),
        }
    }

    pub(super) fn flag(&mut self, name: &str) -> Result<bool> {
        if let Some(e) = self.peek_positional() {
            if let Some(Node {
                term: Term::Ident(n),
                ..
            }) = single(e)
            {
                if n == name {
                    self.next_pos += 1;
                    return Ok(true);
                }
            }
        }
        match self.take_named(name) {
            Some((_, e)) => match single(e).map(|n| &n.term) {
                Some(Term::Ident(b)) if b == "true" => Ok(true),
                Some(Term::Ident(b)) if b == "false" => Ok(false),
                _ => Err(err(e.pos, format!("`{name}` expects true or false"))),
            },
            None => Ok(false),
        }
    }

    pub(super) fn finish(self) -> Result<()> {
        if let Some(e) = self.positional.get(self.next_pos) {
            return Err(err(
                e.pos,
                format!("unexpected extra argument to {}(...)", self.call),
            ));
        }
        if let Some((n, p, _)) = self.named.first() {
            return Err(err(*p, format!("{}(...) has no option `{n}`", self.call)));
        }
        Ok(())
    }
}

pub(super) fn single(e: &Expr) -> Option<&Node> {
    match e.nodes.as_slice() {
        [n] => Some(n),
        _ => None,
    }
}

pub(super) fn ident(e: &Expr, what: &str) -> Result<String> {
    match single(e).map(|n| &n.term) {
        Some(Term::Ident(s)) => Ok(s.clone()),
        Some(Term::Str(b)) if what == "a field name" => {
            String::from_utf8(b.clone()).map_err(|_| err(e.pos, "a field name must be UTF-8 text"))
        }
        _ => Err(err(e.pos, format!("expected {what}"))),
    }
}

pub(super) fn number(e: &Expr, what: &str) -> Result<i128> {
    match single(e).map(|n| &n.term) {
        Some(Term::Num(n)) => Ok(*n),
        _ => Err(err(e.pos, format!("expected {what}"))),
    }
}

pub(super) fn ranged<T: TryFrom<i128>>(e: &Expr, what: &str, lo: i128, hi: i128) -> Result<T> {
    let n = number(e, what)?;
    if n < lo || n > hi {
        return Err(err(
            e.pos,
            format!(
                "{what} must be between {} and {}, got {}",
                int_text(lo),
                int_text(hi),
                int_text(n)
            ),
        ));
    }
    T::try_from(n).map_err(|_| err(e.pos, format!("{what} is out of range")))
}

pub(super) fn string(e: &Expr, what: &str) -> Result<String> {
    match single(e).map(|n| &n.term) {
        Some(Term::Str(b)) => String::from_utf8(b.clone())
            .map_err(|_| err(e.pos, format!("{what} must be UTF-8 text"))),
        Some(Term::Ident(s)) => Ok(s.clone()),
        Some(Term::Num(n)) => Ok(crate::support::num_text::int_text(*n)),
        _ => Err(err(e.pos, format!("expected {what}"))),
    }
}

pub(super) fn enum_arg<T>(e: &Expr, what: &str, options: &[(&str, T)]) -> Result<T>
where
    T: Copy,
{
    let name = ident(e, what)?;
    options
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(&name))
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            err(
                e.pos,
                format!(
                    "unknown {what} `{name}`: expected one of {}",
                    names.join(", ")
                ),
            )
        })
}

pub(super) fn render_from(e: &Expr) -> Result<Render> {
    let n = single(e).ok_or_else(|| err(e.pos, "expected a rendering: byte, short, int, long, letter, dec(N), hex(N), hexUpper(N) or bytes(N)"))?;
    let width = |args: &[Arg], name: &str, lo: i128, hi: i128| -> Result<u32> {
        match args {
            [a] if a.name.is_none() => ranged(&a.value, &format!("the width of {name}(N)"), lo, hi),
            _ => Err(err(n.pos, format!("{name}(N) takes one width"))),
        }
    };
    match &n.term {
        Term::Ident(s) => match s.to_ascii_lowercase().as_str() {
            "byte" => Ok(Render::Byte),
            "short" => Ok(Render::Short),
            "int" => Ok(Render::Int),
            "long" => Ok(Render::Long),
            "letter" => Ok(Render::Letter),
            _ => Err(err(n.pos, format!("unknown rendering `{s}`: expected byte, short, int, long, letter, dec(N), hex(N), hexUpper(N) or bytes(N)"))),
        },
        Term::Call(s, args) => match s.to_ascii_lowercase().as_str() {
            "dec" => Ok(Render::Dec(width(args, "dec", 1, 20)?)),
            "hex" => Ok(Render::Hex(width(args, "hex", 1, 16)?)),
            "hexupper" => Ok(Render::HexUpper(width(args, "hexUpper", 1, 16)?)),
            "bytes" => Ok(Render::Bytes(width(args, "bytes", 1, 8)?)),
            _ => Err(err(n.pos, format!("unknown rendering `{s}(...)`: expected dec(N), hex(N), hexUpper(N) or bytes(N)"))),
        },
        _ => Err(err(n.pos, "expected a rendering: byte, short, int, long, letter, dec(N), hex(N), hexUpper(N) or bytes(N)")),
    }
}

pub(super) fn render_opt(a: &mut Args, default: Render) -> Result<Render> {
    match a.take_named("as") {
        Some((_, e)) => render_from(e),
        None => Ok(default),
    }
}

pub(super) fn unit_opt(a: &mut Args) -> Result<TimeUnit> {
    match a.take_named("unit") {
        Some((_, e)) => enum_arg(e, "time unit", &[("ms", TimeUnit::Ms), ("s", TimeUnit::S)]),
        None => Ok(TimeUnit::Ms),
    }
}

/// The optional source of a hash: a first positional argument that is not a number.
pub(super) fn source(a: &mut Args) -> Result<Option<Vec<Segment>>> {
    if let Some(e) = a.take_named("of") {
        return lower_segments(e.1).map(Some);
    }
    match a.peek_positional() {
        Some(e) if !matches!(single(e).map(|n| &n.term), Some(Term::Num(_))) => {
            a.next_pos += 1;
            lower_segments(e).map(Some)
        }
        _ => Ok(None),
    }
}

pub(super) fn buckets(a: &mut Args) -> Result<u32> {
    let e = match a.take_named("buckets") {
        Some((_, e)) => e,
        None => a.take_positional().ok_or_else(|| {
            err(
                a.pos,
                format!(
                    "{}(...) needs a bucket count, e.g. {}(id, 10)",
                    a.call, a.call
                ),
            )
        })?,
    };
    ranged(e, "the bucket count", 1, i128::from(i32::MAX))
}

pub(super) fn entries(e: &Expr) -> Result<Vec<(String, i64)>> {
    let items = match single(e).map(|n| &n.term) {
        Some(Term::List(items)) => items,
        _ => {
            return Err(err(
                e.pos,
                "expected the table as a list: [\"value\"=1, \"other\"=2]",
            ))
        }
    };
    let mut out: Vec<(String, i64)> = Vec::new();
    // By hash: a table may hold 10^5 entries, and the page parses the key at every keystroke.
    let mut seen = std::collections::HashSet::new();
    for it in items {
        let (k, p) = it
            .name
            .clone()
            .ok_or_else(|| err(it.value.pos, "expected an entry \"value\"=id"))?;
        if !seen.insert(k.clone()) {
            let k = crate::support::json::quote(&k);
            return Err(err(p, format!("value {k} is listed twice")));
        }
        let id = ranged(
            &it.value,
            "an id",
            i128::from(i64::MIN),
            i128::from(i64::MAX),
        )?;
        out.push((k, id));
    }
    Ok(out)
}

pub(super) fn values_list(e: &Expr) -> Result<Vec<String>> {
    match single(e).map(|n| &n.term) {
        Some(Term::List(items)) => items
            .iter()
            .map(|it| match &it.name {
                Some((_, p)) => Err(err(*p, "expected plain values in the list, not name=value")),
                None => string(&it.value, "a value"),
            })
            .collect(),
        _ => Ok(vec![string(e, "a value or a [list] of values")?]),
    }
}
