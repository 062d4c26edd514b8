//! A reader for the subset of Phoenix SQL that `CREATE TABLE` needs: tokens with their line
//! and column, and a recursive-descent parser over them.
//!
//! Hand-written rather than generated: the language is one statement (columns, a primary-key
//! constraint, table options, `SPLIT ON`), every error must say where and what was expected
//! in the user's terms, and the crate compiles to WebAssembly where a parser generator's
//! runtime and tables would cost more than these few hundred lines.

use crate::error::{Error, ErrorKind, Result};

/// One token and where it starts (1-based line and column, in characters).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tok {
    pub(super) t: T,
    pub(super) line: usize,
    pub(super) col: usize,
}

/// Token kinds.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum T {
    /// An unquoted identifier or keyword, as written.
    Word(String),
    /// A `"quoted"` identifier (case kept).
    Quoted(String),
    /// A `'string'` literal.
    Str(String),
    /// A number literal, as written.
    Num(String),
    /// Punctuation: `( ) , . = ; [ ] -`.
    Punct(char),
    /// The end of the text.
    End,
}

impl T {
    /// The token as a message shows it.
    pub(super) fn shown(&self) -> String {
        match self {
            T::Word(w) => format!("`{w}`"),
            T::Quoted(q) => format!("\"{q}\""),
            T::Str(s) => format!("'{s}'"),
            T::Num(n) => n.clone(),
            T::Punct(c) => format!("`{c}`"),
            T::End => "the end of the statement".into(),
        }
    }
}

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

/// The statement's tokens; comments (`-- …`, `/* … */`) and white space are skipped.
pub(super) fn tokens(sql: &str) -> Result<Vec<Tok>> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let at_here = |line, col, msg: &str| Error::new(ErrorKind::Parse, msg).at_line_col(line, col);
    while let Some(&c) = chars.get(i) {
        let (l0, c0) = (line, col);
        let mut advance = |n: usize, i: &mut usize| {
            for _ in 0..n {
                if chars.get(*i) == Some(&'\n') {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                *i += 1;
            }
        };
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            advance(1, &mut i);
        } else if c == '-' && next == Some('-') {
            while chars.get(i).is_some_and(|&x| x != '\n') {
                advance(1, &mut i);
            }
        } else if c == '/' && next == Some('*') {
            advance(2, &mut i);
            loop {
                match (chars.get(i), chars.get(i + 1)) {
                    (Some('*'), Some('/')) => {
                        advance(2, &mut i);
                        break;
                    }
                    (Some(_), _) => advance(1, &mut i),
                    (None, _) => {
                        return Err(at_here(l0, c0, "this comment is never closed (`*/`)"))
                    }
                }
            }
        } else if c == '"' || c == '\'' {
            // Quotes double to escape themselves: "a""b", 'it''s'.
            advance(1, &mut i);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    Some(&q) if q == c && chars.get(i + 1) == Some(&c) => {
                        s.push(c);
                        advance(2, &mut i);
                    }
                    Some(&q) if q == c => {
                        advance(1, &mut i);
                        break;
                    }
                    Some(&x) => {
                        s.push(x);
                        advance(1, &mut i);
                    }
                    None => {
                        let what = if c == '"' {
                            "quoted identifier"
                        } else {
                            "string"
                        };
                        return Err(at_here(
                            l0,
                            c0,
                            &format!("this {what} is never closed ({c})"),
                        ));
                    }
                }
            }
            let t = if c == '"' { T::Quoted(s) } else { T::Str(s) };
            out.push(Tok {
                t,
                line: l0,
                col: c0,
            });
        } else if c.is_ascii_digit() {
            let mut s = String::new();
            while let Some(&x) = chars.get(i).filter(|x| x.is_ascii_digit() || **x == '.') {
                s.push(x);
                advance(1, &mut i);
            }
            out.push(Tok {
                t: T::Num(s),
                line: l0,
                col: c0,
            });
        } else if c.is_alphabetic() || c == '_' {
            let mut s = String::new();
            while let Some(&x) = chars
                .get(i)
                .filter(|x| x.is_alphanumeric() || **x == '_' || **x == '$')
            {
                s.push(x);
                advance(1, &mut i);
            }
            out.push(Tok {
                t: T::Word(s),
                line: l0,
                col: c0,
            });
        } else if "(),.=;[]-".contains(c) {
            advance(1, &mut i);
            out.push(Tok {
                t: T::Punct(c),
                line: l0,
                col: c0,
            });
        } else {
            return Err(at_here(
                l0,
                c0,
                &format!("unexpected character `{c}` in a CREATE TABLE statement"),
            ));
        }
    }
    out.push(Tok {
        t: T::End,
        line,
        col,
    });
    Ok(out)
}

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

    /// Whether the current token is the keyword `kw` (any case).
    pub(super) fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.peek().t, T::Word(w) if w.eq_ignore_ascii_case(kw))
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

    /// An identifier as Phoenix normalizes it: unquoted upper-cased, quoted kept.
    pub(super) fn ident(&mut self, what: &str) -> Result<(String, Tok)> {
        let t = self.peek().clone();
        match &t.t {
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

/// An identifier as SQL must write it to get `name` back: bare when Phoenix's upper-casing
/// keeps it, else in double quotes.
pub fn quote_ident(name: &str) -> String {
    let bare = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if bare && !RESERVED.contains(&name) {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// Words a bare column name must not be (they start clauses of the statement).
const RESERVED: &[&str] = &[
    "CONSTRAINT",
    "PRIMARY",
    "KEY",
    "NOT",
    "NULL",
    "ASC",
    "DESC",
    "CREATE",
    "TABLE",
    "SPLIT",
    "ON",
    "DEFAULT",
    "ROW_TIMESTAMP",
];

/// A `'string'` literal.
pub fn quote_str(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}
