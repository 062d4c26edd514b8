//! A reader for the subset of Phoenix SQL that `CREATE TABLE` needs: tokens with their line
//! and column (made by `lexer.rs`, as Phoenix's lexer makes them), a cursor for the
//! recursive-descent parser over them, Phoenix's keywords, and the quoting that writes a name
//! or a string back so that Phoenix reads exactly it.
//!
//! Hand-written rather than generated: the language is one statement (columns, a primary-key
//! constraint, table options, `SPLIT ON`), every error must say where and what was expected
//! in the user's terms, and the crate compiles to WebAssembly where a parser generator's
//! runtime and tables would cost more than these few hundred lines.

use crate::error::{Error, ErrorKind, Result};

pub(super) use super::lexer::{Tok, T};

/// A parse error at a line and column: `what` was expected, `found` is there.
pub(super) fn expected(tok: &Tok, what: &str) -> Error {
    Error::new(
        ErrorKind::Parse,
        format!("expected {what}, found {}", tok.t.shown()),
    )
    .at_line_col(tok.line, tok.col)
}

/// An error about what is at `tok`.
pub(super) fn at(tok: &Tok, msg: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Parse, msg.to_string()).at_line_col(tok.line, tok.col)
}

pub(super) use super::lexer::tokens;

/// A cursor over the tokens.
pub(super) struct Cursor {
    toks: Vec<Tok>,
    i: usize,
}

impl Cursor {
    pub(super) fn new(toks: Vec<Tok>) -> Cursor {
        Cursor { toks, i: 0 }
    }

    /// The current token (the end token once past it).
    pub(super) fn peek(&self) -> &Tok {
        static END: Tok = Tok {
            t: T::End,
            line: 0,
            col: 0,
        };
        self.toks.get(self.i).or(self.toks.last()).unwrap_or(&END)
    }

    /// The token after the current one.
    pub(super) fn peek2(&self) -> &T {
        self.toks.get(self.i + 1).map_or(&T::End, |t| &t.t)
    }

    pub(super) fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i < self.toks.len() {
            self.i += 1;
        }
        t
    }

    /// Whether the current token is the keyword `kw` (any case, as Phoenix's lexer folds it).
    pub(super) fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.peek().t, T::Word(w) if is_word(w, kw))
    }

    /// Consume the keyword `kw` if it is next.
    pub(super) fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        if yes {
            self.i += 1;
        }
        yes
    }

    /// Consume the keyword `kw` or fail saying what was expected.
    pub(super) fn kw(&mut self, kw: &str, what: &str) -> Result<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(expected(self.peek(), what))
        }
    }

    pub(super) fn is_punct(&self, c: char) -> bool {
        self.peek().t == T::Punct(c)
    }

    pub(super) fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        if yes {
            self.i += 1;
        }
        yes
    }

    pub(super) fn punct(&mut self, c: char, what: &str) -> Result<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(expected(self.peek(), what))
        }
    }

    /// An identifier as Phoenix normalizes it: unquoted upper-cased, quoted kept. A keyword
    /// is not a name unquoted (Phoenix's `identifier` rule takes only `NAME` and three
    /// non-reserved words).
    pub(super) fn ident(&mut self, what: &str) -> Result<(String, Tok)> {
        let t = self.peek().clone();
        match &t.t {
            T::Word(w) if is_reserved(w) => Err(at(
                &t,
                format!(
                    "expected {what}, found the Phoenix keyword `{w}` (a name spelled like it is written in double quotes: \"{}\")",
                    w.to_uppercase()
                ),
            )),
            T::Word(w) => {
                self.i += 1;
                Ok((w.to_uppercase(), t))
            }
            T::Quoted(q) if !q.is_empty() => {
                self.i += 1;
                Ok((q.clone(), t))
            }
            _ => Err(expected(&t, what)),
        }
    }

    /// A non-negative integer literal.
    pub(super) fn int(&mut self, what: &str) -> Result<i32> {
        let t = self.peek().clone();
        match &t.t {
            T::Num(n) => {
                let v = n.parse::<i32>().map_err(|_| expected(&t, what))?;
                self.i += 1;
                Ok(v)
            }
            _ => Err(expected(&t, what)),
        }
    }
}

/// Whether the word `w` is `kw` (upper-case ASCII) as Phoenix's lexer compares them.
fn is_word(w: &str, kw: &str) -> bool {
    w.chars().count() == kw.len()
        && w.chars()
            .zip(kw.chars())
            .all(|(a, b)| super::lexer::folded(a) == b.to_ascii_lowercase())
}

/// Whether `w` is one of Phoenix's reserved words (its grammar's keyword tokens, except
/// `CONSISTENCY`, `EVENTUAL` and `STRONG`, which its `identifier` rule also takes).
pub(super) fn is_reserved(w: &str) -> bool {
    if w.chars().count() > LONGEST_KEYWORD {
        return false;
    }
    let upper: String = w
        .chars()
        .map(|c| super::lexer::folded(c).to_ascii_uppercase())
        .collect();
    KEYWORDS.binary_search(&upper.as_str()).is_ok()
}

const LONGEST_KEYWORD: usize = 24;

/// Phoenix's keywords (`PhoenixSQL.g`'s `tokens { … }`, commit `6d9ec471`), sorted, without
/// the three non-reserved ones. A name spelled like one of them must be quoted.
pub(super) const KEYWORDS: &[&str] = &[
    "ACTIVE",
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "ANY",
    "ARRAY",
    "AS",
    "ASC",
    "ASYNC",
    "BETWEEN",
    "BY",
    "CACHE",
    "CASCADE",
    "CASE",
    "CAST",
    "CDC",
    "CHANGE",
    "CLOSE",
    "COLUMN",
    "COLUMNS",
    "COLUMN_QUALIFIER_COUNTER",
    "CONSTANT",
    "CONSTRAINT",
    "CREATE",
    "CURRENT",
    "CURSOR",
    "CYCLE",
    "DATA_ROW_STATE",
    "DECLARE",
    "DEFAULT",
    "DEFAULTVALUE",
    "DELETE",
    "DESC",
    "DISABLE",
    "DISTINCT",
    "DROP",
    "DUPLICATE",
    "ELSE",
    "ENCODED_QUALIFIER",
    "END",
    "EXECUTE",
    "EXISTS",
    "EXPLAIN",
    "FALSE",
    "FETCH",
    "FIRST",
    "FOR",
    "FROM",
    "FULL",
    "FUNCTION",
    "GRANT",
    "GROUP",
    "HAVING",
    "IDX_MUTATIONS",
    "IF",
    "IGNORE",
    "ILIKE",
    "IMMUTABLE",
    "IN",
    "INCLUDE",
    "INCREMENT",
    "INDEX",
    "INNER",
    "INTO",
    "IS",
    "JAR",
    "JARS",
    "JOIN",
    "KEY",
    "LAST",
    "LATEST",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LIST",
    "LOCAL",
    "MAXVALUE",
    "MINVALUE",
    "NEXT",
    "NOT",
    "NOVERIFY",
    "NULL",
    "NULLS",
    "OFF",
    "OFFSET",
    "ON",
    "ONLY",
    "OPEN",
    "OR",
    "ORDER",
    "OUTER",
    "POST",
    "PRE",
    "PRESERVE",
    "PRIMARY",
    "REBUILD",
    "REGIONS",
    "REPLACE",
    "RETURNING",
    "RETURNS",
    "REVOKE",
    "RIGHT",
    "ROW",
    "ROWS",
    "ROW_TIMESTAMP",
    "SAMPLING",
    "SCHEMA",
    "SCHEMAS",
    "SELECT",
    "SEQUENCE",
    "SESSION",
    "SET",
    "SHOW",
    "SOME",
    "SPLIT",
    "SPLITS",
    "START",
    "STATISTICS",
    "TABLE",
    "TABLES",
    "TABLESAMPLE",
    "TEMPORARY",
    "THEN",
    "TO",
    "TRACE",
    "TRUE",
    "TRUNCATE",
    "UNCOVERED",
    "UNION",
    "UNUSABLE",
    "UPDATE",
    "UPDATE_ONLY",
    "UPGRADE",
    "UPSERT",
    "USABLE",
    "USE",
    "USING",
    "VALUE",
    "VALUES",
    "VIEW",
    "WHEN",
    "WHERE",
    "WITH",
    "WITHIN",
];

/// An identifier as Phoenix SQL must write it to get `name` back: bare when it is a plain
/// upper-case name (an ASCII letter, then letters, digits and `_`) that is no keyword, else in
/// double quotes. Phoenix's quoted names have no escape, so a name holding `"` cannot be
/// written at all, and the empty name neither: both are `Invalid` errors (the caller adds
/// where the name comes from).
pub fn quote_ident(name: &str) -> Result<String> {
    if name.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a Phoenix name cannot be empty",
        ));
    }
    if name.contains('"') {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "the name {} holds a double quote, which Phoenix SQL cannot write (its quoted names have no escape)",
                crate::support::json::quote(name)
            ),
        ));
    }
    let bare = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    Ok(if bare && !is_reserved(name) {
        name.to_string()
    } else {
        format!("\"{name}\"")
    })
}

/// A `'string'` literal that Phoenix's lexer reads back as exactly `s`: `'` doubled, `\`
/// doubled (Phoenix reads a backslash as an escape), and line breaks, tabs, backspace and form
/// feed written as `\n \r \t \b \f` so that the statement stays on its lines. Every other
/// character is itself. The result never holds a lone `\` before a quote, so a client that
/// splits statements without knowing Phoenix's escapes ends the literal at the same quote.
pub fn quote_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("''"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
