//! The text form: a small expression language that lowers to the same AST as the JSON form.
//!
//! ```text
//! key     := segment ("+" segment)*
//! segment := STRING | IDENT | IDENT "(" [arg ("," arg)*] ")"
//! arg     := [name "="] value          name := IDENT | STRING | NUMBER
//! value   := NUMBER | "[" [arg ("," arg)*] "]" | segment ("+" segment)*
//! ```
//! `#` starts a comment that runs to the end of the line. Every error carries the line and
//! column (1-based, in characters) and says what was expected.

mod lower;

use super::ast::*;
use crate::error::{Error, ErrorKind, Result};
use lower::lower_segments;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

fn err(pos: Pos, msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, msg).at_line_col(pos.line, pos.col)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(Vec<u8>),
    Num(i128),
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Eq,
    Plus,
    Eof,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Num(n) => format!("the number {}", crate::support::num_text::int_text(*n)),
        Tok::LParen => "`(`".into(),
        Tok::RParen => "`)`".into(),
        Tok::LBrack => "`[`".into(),
        Tok::RBrack => "`]`".into(),
        Tok::Comma => "`,`".into(),
        Tok::Eq => "`=`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Eof => "the end of the key".into(),
    }
}

fn lex(src: &str) -> Result<Vec<(Tok, Pos)>> {
    let mut lexer = Lexer {
        chars: src.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = lexer.peek() {
        let pos = lexer.pos();
        match c {
            c if c.is_whitespace() => lexer.bump(),
            '#' => {
                while lexer.peek().is_some_and(|c| c != '\n') {
                    lexer.bump();
                }
            }
            '(' | ')' | '[' | ']' | ',' | '=' | '+' => {
                let t = match c {
                    '(' => Tok::LParen,
                    ')' => Tok::RParen,
                    '[' => Tok::LBrack,
                    ']' => Tok::RBrack,
                    ',' => Tok::Comma,
                    '=' => Tok::Eq,
                    _ => Tok::Plus,
                };
                out.push((t, pos));
                lexer.bump();
            }
            '"' => out.push((Tok::Str(lexer.string(pos)?), pos)),
            c if c.is_ascii_digit() || c == '-' => out.push((lexer.number(pos)?, pos)),
            c if c.is_alphabetic() || c == '_' => {
                let s = lexer.word(|d| d.is_alphanumeric() || d == '_');
                out.push((Tok::Ident(s), pos));
            }
            other => {
                return Err(err(
                    pos,
                    format!("unexpected `{other}`: expected a field name, a \"literal\", a call like salt(...), `+`, `,` or a bracket"),
                ))
            }
        }
    }
    out.push((Tok::Eof, lexer.pos()));
    Ok(out)
}

/// The key text as characters, with the line and column of the next one.
struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    /// Advance over one char, tracking line and column.
    fn bump(&mut self) {
        if self.peek() == Some('\n') {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        self.i += 1;
    }

    /// The chars from here while `more` holds.
    fn word(&mut self, more: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(d) = self.peek().filter(|&d| more(d)) {
            s.push(d);
            self.bump();
        }
        s
    }

    /// A `"string"` starting at `pos` (on its opening quote): its bytes, escapes resolved.
    fn string(&mut self, pos: Pos) -> Result<Vec<u8>> {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.peek() {
                None => return Err(err(pos, "unterminated string: expected a closing `\"`")),
                Some('"') => {
                    self.bump();
                    return Ok(bytes);
                }
                Some('\\') => self.escape(&mut bytes)?,
                Some(c) => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    self.bump();
                }
            }
        }
    }

    /// One escape (on its backslash) into `bytes`.
    fn escape(&mut self, bytes: &mut Vec<u8>) -> Result<()> {
        let here = self.pos();
        self.bump();
        let at = |k: usize| self.chars.get(self.i + k).copied();
        match at(0) {
            Some('"') => bytes.push(b'"'),
            Some('\\') => bytes.push(b'\\'),
            Some('n') => bytes.push(b'\n'),
            Some('t') => bytes.push(b'\t'),
            Some('r') => bytes.push(b'\r'),
            Some('0') => bytes.push(0),
            Some('u') if at(1) == Some('{') => {
                let mut j = self.i + 2;
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = self.chars.get(j).and_then(|c| c.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    n += 1;
                    j += 1;
                }
                let ch = (self.chars.get(j) == Some(&'}') && (1..=6).contains(&n))
                    .then(|| char::from_u32(v))
                    .flatten()
                    .ok_or_else(|| err(here, "bad escape: expected \\u{HEX} with 1 to 6 hex digits naming a Unicode scalar value"))?;
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                while self.i < j {
                    self.bump();
                }
            }
            Some('x') => {
                let h = at(1).and_then(|c| c.to_digit(16));
                let l = at(2).and_then(|c| c.to_digit(16));
                match (h, l) {
                    (Some(h), Some(l)) => {
                        bytes.push(((h << 4) | l) as u8);
                        self.bump();
                        self.bump();
                    }
                    _ => return Err(err(
                        here,
                        "bad escape: expected two hex digits after `\\x` (a raw byte, e.g. \\x00)",
                    )),
                }
            }
            _ => {
                return Err(err(
                    here,
                    "bad escape: expected one of \\\" \\\\ \\n \\t \\r \\0 \\xNN \\u{HEX}",
                ))
            }
        }
        self.bump();
        Ok(())
    }

    /// A number starting at `pos`: decimal or `0x` hex digits, `_` separators, a leading `-`.
    fn number(&mut self, pos: Pos) -> Result<Tok> {
        let mut text = String::new();
        if let Some(c) = self.peek() {
            text.push(c);
        }
        self.bump();
        text.push_str(&self.word(|d| d.is_ascii_alphanumeric() || d == '_'));
        let clean = text.replace('_', "");
        let (neg, body) = match clean.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, clean.as_str()),
        };
        let parsed = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            Some(h) => crate::support::num_text::parse_int(h, 16),
            None => crate::support::num_text::parse_int(body, 10),
        };
        let n = parsed.ok_or_else(|| {
            err(pos, format!("`{text}` is not a number: expected decimal digits or 0x followed by hex digits"))
        })?;
        Ok(Tok::Num(if neg { -n } else { n }))
    }
}

/// A parsed value before lowering.
#[derive(Debug, Clone)]
enum Term {
    Str(Vec<u8>),
    Num(i128),
    Ident(String),
    Call(String, Vec<Arg>),
    List(Vec<Arg>),
}

#[derive(Debug, Clone)]
struct Node {
    term: Term,
    pos: Pos,
}

/// A value: one node, or several joined with `+` (a segment sequence).
#[derive(Debug, Clone)]
struct Expr {
    nodes: Vec<Node>,
    pos: Pos,
}

#[derive(Debug, Clone)]
struct Arg {
    name: Option<(String, Pos)>,
    value: Expr,
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    i: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 64;

impl Parser {
    fn peek(&self) -> (&Tok, Pos) {
        match self.toks.get(self.i).or_else(|| self.toks.last()) {
            Some((t, p)) => (t, *p),
            None => (&Tok::Eof, Pos { line: 1, col: 1 }),
        }
    }
    fn next(&mut self) -> (Tok, Pos) {
        let (t, p) = self.peek();
        let t = t.clone();
        if self.i < self.toks.len() {
            self.i += 1;
        }
        (t, p)
    }
    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.i + 1).map(|(t, _)| t)
    }

    fn expr(&mut self, what: &str) -> Result<Expr> {
        let pos = self.peek().1;
        let mut nodes = vec![self.node(what)?];
        while *self.peek().0 == Tok::Plus {
            self.next();
            nodes.push(self.node("a segment after `+`")?);
        }
        Ok(Expr { nodes, pos })
    }

    fn node(&mut self, what: &str) -> Result<Node> {
        let (t, pos) = self.next();
        let term = match t {
            Tok::Str(b) => Term::Str(b),
            Tok::Num(n) => Term::Num(n),
            Tok::Ident(name) => {
                if *self.peek().0 == Tok::LParen {
                    self.next();
                    let args = self.args(Tok::RParen, &name, pos)?;
                    Term::Call(name, args)
                } else {
                    Term::Ident(name)
                }
            }
            Tok::LBrack => Term::List(self.args(Tok::RBrack, "[", pos)?),
            other => {
                return Err(err(
                    pos,
                    format!("expected {what}, found {}", describe(&other)),
                ))
            }
        };
        Ok(Node { term, pos })
    }

    fn args(&mut self, close: Tok, owner: &str, open: Pos) -> Result<Vec<Arg>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(open, "nesting too deep (more than 64 levels)"));
        }
        let mut args = Vec::new();
        if *self.peek().0 == close {
            self.next();
            self.depth -= 1;
            return Ok(args);
        }
        loop {
            let (t, p) = self.peek();
            let name = match (t, self.peek2()) {
                (Tok::Ident(n), Some(Tok::Eq)) => Some((n.clone(), p)),
                (Tok::Str(b), Some(Tok::Eq)) => Some((String::from_utf8_lossy(b).into_owned(), p)),
                (Tok::Num(n), Some(Tok::Eq)) => Some((crate::support::num_text::int_text(*n), p)),
                _ => None,
            };
            if name.is_some() {
                self.next();
                self.next();
            }
            let value =
                self.expr("a value (a field, a \"string\", a number, a call or a [list])")?;
            args.push(Arg { name, value });
            let (t, p) = self.next();
            if t == close {
                break;
            }
            if t != Tok::Comma {
                let closing = if close == Tok::RParen { "`)`" } else { "`]`" };
                return Err(err(
                    p,
                    format!("expected `,` or {closing} to close `{owner}(` opened at line {}, column {}, found {}", open.line, open.col, describe(&t)),
                ));
            }
        }
        self.depth -= 1;
        Ok(args)
    }
}

/// Parse the text form into a [`KeySpec`].
pub(crate) fn parse_text(src: &str) -> Result<KeySpec> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        i: 0,
        depth: 0,
    };
    if *p.peek().0 == Tok::Eof {
        return Err(err(
            p.peek().1,
            "empty key: expected at least one segment, e.g. salt(id, 10) + \"_\" + id",
        ));
    }
    let e = p.expr("a segment: a field name, a \"literal\" or a call like long(id)")?;
    let (t, pos) = p.next();
    if t != Tok::Eof {
        return Err(err(
            pos,
            format!(
                "expected `+` and another segment, or the end of the key, found {}",
                describe(&t)
            ),
        ));
    }
    Ok(KeySpec {
        segments: lower_segments(&e)?,
    })
}

/// Where in the key text `src` the part that `path` names starts: `path` is the JSON pointer
/// below the key (`segments/1`, `segments/0/of/2`, `segments/3/as`) that checks made after
/// parsing (validation, compilation against the fields) give their errors, so those errors
/// can point into the text the user wrote. `None` when the text does not parse or the path
/// leads nowhere in it.
pub(crate) fn locate(src: &str, path: &str) -> Option<Pos> {
    let toks = lex(src).ok()?;
    let mut p = Parser {
        toks,
        i: 0,
        depth: 0,
    };
    let top = p.expr("a segment").ok()?;
    let mut parts = path.split('/').filter(|c| !c.is_empty());
    if parts.next() != Some("segments") {
        return None;
    }
    let (mut expr, mut node): (&Expr, Option<&Node>) = (&top, None);
    let mut pos = top.pos;
    for part in parts {
        if let Ok(i) = part.parse::<usize>() {
            let n = expr.nodes.get(i)?;
            (node, pos) = (Some(n), n.pos);
            continue;
        }
        let Some(Node {
            term: Term::Call(_, args),
            ..
        }) = node
        else {
            break;
        };
        let named = args
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|(n, _)| n == part));
        match (part, named) {
            (_, Some(a)) => {
                (expr, pos) = (&a.value, a.value.pos);
                if part != "of" {
                    break;
                }
            }
            // A source given first, without `of=` (as lowering reads it).
            ("of", None) => match args.iter().find(|a| a.name.is_none()) {
                Some(a) => (expr, pos) = (&a.value, a.value.pos),
                None => break,
            },
            _ => break,
        }
        node = None;
    }
    Some(pos)
}
