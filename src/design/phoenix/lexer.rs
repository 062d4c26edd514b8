//! The statement's tokens, read as Phoenix's lexer (`PhoenixSQL.g`, commit `6d9ec471`) reads
//! them, so that what this reader takes is what Phoenix takes and a printed statement reads
//! back as Phoenix will read it:
//!
//! * white space is space, tab, U+2002 and line breaks; any other character outside a
//!   literal (a no-break space, `$`, `#`) is an error, as Phoenix's `Unexpected char`;
//! * an unquoted name starts with an ASCII letter and goes on with ASCII letters, digits,
//!   `_` and any character from U+0080 on except U+2002 (so `_t` and `éte` are refused,
//!   `tête` is a name);
//! * a `"quoted"` name is anything up to the next `"`: there is no escape inside it;
//! * a `'string'` reads `''` as `'` and `\` as an escape: `\n \r \t \b \f` (in either case, as
//!   Phoenix matches letters case-insensitively), `\' \" \\` as the character, `\_` and `\%`
//!   kept as two characters (for LIKE), and a `\` before anything else kept as itself;
//! * `X'0a 1b'` and `B'0101'` are hex and binary literals;
//! * `-- …` and `// …` run to the end of the line, `/* … */` is skipped (its first character
//!   after `/*` is never the start of `*/`, as in Phoenix's rule), and `/*+ … */` is a hint,
//!   which `CREATE TABLE` does not take.

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
    /// An `X'…'` literal: its hex digits (upper case, spaces dropped).
    Hex(String),
    /// A `B'…'` literal: its binary digits (spaces dropped).
    Bin(String),
    /// Punctuation (`( ) , . = ; [ ] -` and the other characters Phoenix has tokens for).
    Punct(char),
    /// The end of the text.
    End,
}

impl T {
    /// The token as a message shows it (user text through `json::quote`: 64 characters, then
    /// the length).
    pub(super) fn shown(&self) -> String {
        use crate::support::json::quote;
        let short = |s: &str, f: &dyn Fn(&str) -> String| {
            if s.chars().nth(64).is_some() {
                quote(s)
            } else {
                f(s)
            }
        };
        match self {
            T::Word(w) => short(w, &|w| format!("`{w}`")),
            T::Quoted(q) => format!("the quoted name {}", quote(q)),
            T::Str(s) => format!("the string {}", quote(s)),
            T::Num(n) => short(n, &|n| n.to_string()),
            T::Hex(h) => short(h, &|h| format!("X'{h}'")),
            T::Bin(b) => short(b, &|b| format!("B'{b}'")),
            T::Punct(c) => format!("`{c}`"),
            T::End => "the end of the statement".into(),
        }
    }
}

/// A character as Phoenix's lexer compares it: its `CaseInsensitiveReaderStream` gives the
/// grammar `Character.toLowerCase(c)`, whose only mappings into ASCII from outside it are
/// U+0130 (`İ`, to `i`) and U+212A (the Kelvin sign, to `k`).
pub(super) fn folded(c: char) -> char {
    match c {
        '\u{130}' => 'i',
        '\u{212A}' => 'k',
        c => c.to_ascii_lowercase(),
    }
}

/// Phoenix's `FIELDCHAR`: what an unquoted name goes on with.
fn is_field_char(c: char) -> bool {
    let f = folded(c);
    f.is_ascii_alphanumeric() || f == '_' || (c >= '\u{80}' && c != '\u{2002}' && c != '\u{FFFF}')
}

/// What starts an unquoted name: Phoenix's `LETTER` (after folding).
fn starts_name(c: char) -> bool {
    folded(c).is_ascii_alphabetic()
}

/// The punctuation Phoenix's lexer has single-character tokens for.
const PUNCT: &str = "(),.=;[]-+*/%<>:?{}@~!|";

/// The statement's tokens, the end token last.
pub(super) fn tokens(sql: &str) -> Result<Vec<Tok>> {
    let mut lx = Lexer {
        chars: sql.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        out: Vec::new(),
    };
    lx.run()?;
    let (line, col) = (lx.line, lx.col);
    lx.out.push(Tok {
        t: T::End,
        line,
        col,
    });
    Ok(lx.out)
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
    out: Vec<Tok>,
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    /// Step over one character, counting lines.
    fn bump(&mut self) -> Option<char> {
        let c = self.at(0)?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error(line: usize, col: usize, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Parse, msg).at_line_col(line, col)
    }

    fn push(&mut self, t: T, line: usize, col: usize) {
        self.out.push(Tok { t, line, col });
    }

    fn run(&mut self) -> Result<()> {
        while let Some(c) = self.at(0) {
            let (line, col) = (self.line, self.col);
            let next = self.at(1);
            match c {
                ' ' | '\t' | '\u{2002}' | '\r' | '\n' => {
                    self.bump();
                }
                '-' if next == Some('-') => self.line_comment(),
                '/' if next == Some('/') => self.line_comment(),
                '/' if next == Some('*') => self.block_comment(line, col)?,
                '\'' => {
                    let s = self.string(line, col)?;
                    self.push(T::Str(s), line, col);
                }
                '"' => self.quoted(line, col)?,
                _ if matches!(folded(c), 'x' | 'b') && next == Some('\'') => {
                    self.bits(line, col)?;
                }
                _ if c.is_ascii_digit() => self.number(),
                '.' if next.is_some_and(|d| d.is_ascii_digit()) => self.number(),
                _ if starts_name(c) => {
                    let mut s = String::new();
                    while let Some(x) = self.at(0).filter(|&x| is_field_char(x)) {
                        s.push(x);
                        self.bump();
                    }
                    self.push(T::Word(s), line, col);
                }
                _ if PUNCT.contains(c) => {
                    self.bump();
                    self.push(T::Punct(c), line, col);
                }
                _ => return Err(Self::error(line, col, unexpected(c))),
            }
        }
        Ok(())
    }

    /// `-- …` or `// …`, up to the line break.
    fn line_comment(&mut self) {
        while self.at(0).is_some_and(|x| x != '\n' && x != '\r') {
            self.bump();
        }
    }

    /// `/* … */`; `/*+` opens a hint, which has no place here.
    fn block_comment(&mut self, line: usize, col: usize) -> Result<()> {
        if self.at(2) == Some('+') {
            return Err(Self::error(
                line,
                col,
                "a hint (`/*+ … */`) has no place in CREATE TABLE: Phoenix takes hints in queries and DML only",
            ));
        }
        self.bump();
        self.bump();
        // Phoenix's ML_COMMENT: `/*`, one character that is not `+`, then anything up to `*/`.
        if self.bump().is_none() {
            return Err(Self::error(
                line,
                col,
                "this comment is never closed (`*/`)",
            ));
        }
        loop {
            match (self.at(0), self.at(1)) {
                (Some('*'), Some('/')) => {
                    self.bump();
                    self.bump();
                    return Ok(());
                }
                (Some(_), _) => {
                    self.bump();
                }
                (None, _) => {
                    return Err(Self::error(
                        line,
                        col,
                        "this comment is never closed (`*/`)",
                    ))
                }
            }
        }
    }

    /// A `'string'` literal's value, as Phoenix's `STRING_LITERAL` and `CHAR_ESC` read it.
    fn string(&mut self, line: usize, col: usize) -> Result<String> {
        self.bump();
        let mut s = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(Self::error(line, col, "this string is never closed (')"));
            };
            match c {
                '\'' if self.at(0) == Some('\'') => {
                    self.bump();
                    s.push('\'');
                }
                '\'' => return Ok(s),
                '\\' => {
                    let escaped = match self.at(0).map(folded) {
                        Some('n') => Some("\n"),
                        Some('r') => Some("\r"),
                        Some('t') => Some("\t"),
                        Some('b') => Some("\u{8}"),
                        Some('f') => Some("\u{c}"),
                        Some('"') => Some("\""),
                        Some('\'') => Some("'"),
                        Some('\\') => Some("\\"),
                        Some('_') => Some("\\_"),
                        Some('%') => Some("\\%"),
                        // Any other character: the backslash stands for itself.
                        _ => None,
                    };
                    match escaped {
                        Some(e) => {
                            self.bump();
                            s.push_str(e);
                        }
                        None => s.push('\\'),
                    }
                }
                c => s.push(c),
            }
        }
    }

    /// A `"quoted"` name: everything up to the next `"` (Phoenix has no escape inside).
    fn quoted(&mut self, line: usize, col: usize) -> Result<()> {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some(c) => s.push(c),
                None => {
                    return Err(Self::error(
                        line,
                        col,
                        "this quoted name is never closed (\")",
                    ))
                }
            }
        }
        self.push(T::Quoted(s), line, col);
        Ok(())
    }

    /// `X'…'` (hex digits) or `B'…'` (binary digits), spaces allowed between the digits.
    fn bits(&mut self, line: usize, col: usize) -> Result<()> {
        let hex = folded(self.bump().unwrap_or('x')) == 'x';
        self.bump();
        let mut digits = String::new();
        loop {
            match self.bump() {
                Some('\'') => break,
                Some(' ') => {}
                Some(d) if (hex && d.is_ascii_hexdigit()) || (!hex && (d == '0' || d == '1')) => {
                    digits.push(d.to_ascii_uppercase());
                }
                Some(d) => {
                    let what = if hex {
                        "hex digits"
                    } else {
                        "binary digits (0 and 1)"
                    };
                    return Err(Self::error(
                        line,
                        col,
                        format!(
                            "this literal holds {what} and spaces only, found {}",
                            shown(d)
                        ),
                    ));
                }
                None => return Err(Self::error(line, col, "this literal is never closed (')")),
            }
        }
        let (ok, t) = if hex {
            (digits.len() % 2 == 0, T::Hex(digits))
        } else {
            (digits.len() % 8 == 0, T::Bin(digits))
        };
        if !ok {
            let rule = if hex {
                "an even number of hex digits"
            } else {
                "a multiple of 8 binary digits"
            };
            return Err(Self::error(line, col, format!("this literal needs {rule}")));
        }
        self.push(t, line, col);
        Ok(())
    }

    /// `NUMBER`, `DECIMAL` or `DOUBLE` (`12`, `1.5`, `.5`, `1.`, `1e3`, `1.5E-3`), as written.
    fn number(&mut self) {
        let (line, col) = (self.line, self.col);
        let mut s = String::new();
        let digits = |lx: &mut Lexer, s: &mut String| {
            while let Some(d) = lx.at(0).filter(char::is_ascii_digit) {
                s.push(d);
                lx.bump();
            }
        };
        digits(self, &mut s);
        if self.at(0) == Some('.') {
            s.push('.');
            self.bump();
            digits(self, &mut s);
        }
        let sign = matches!(self.at(1), Some('+' | '-'));
        let exp_digit = self.at(if sign { 2 } else { 1 });
        if self.at(0).map(folded) == Some('e') && exp_digit.is_some_and(|d| d.is_ascii_digit()) {
            for _ in 0..(if sign { 2 } else { 1 }) {
                if let Some(x) = self.bump() {
                    s.push(x);
                }
            }
            digits(self, &mut s);
        }
        self.push(T::Num(s), line, col);
    }
}

/// A character as a message shows it: itself when visible, else its code point.
pub(super) fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() || c == '\u{FEFF}' {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    }
}

/// The message for a character no token starts with.
fn unexpected(c: char) -> String {
    if c.is_whitespace() || c == '\u{FEFF}' {
        format!(
            "unexpected character {}: Phoenix separates tokens with spaces, tabs, U+2002 and line breaks only",
            shown(c)
        )
    } else if c == '_' || (c >= '\u{80}' && is_field_char(c)) {
        format!(
            "unexpected character {}: an unquoted name starts with an ASCII letter (write the name in double quotes)",
            shown(c)
        )
    } else {
        format!(
            "unexpected character {} in a CREATE TABLE statement",
            shown(c)
        )
    }
}
