//! The two pieces of a `CREATE TABLE` that a design keeps as text — a column's declared type
//! and a table option — read by one grammar in both directions: the reader takes them from the
//! statement, and the printer reads the design's text again with the same lexer and grammar
//! and prints what it read, never the text itself. A type or an option that is not one Phoenix
//! type or one `NAME=value` is refused, so nothing a design holds can end the statement early
//! or add a second one.

use super::lexer::tokens;
use super::sql::{at, expected, quote_ident, quote_str, Cursor, Tok, T};
use crate::error::{Error, ErrorKind, Result};

/// What a type name allows (Phoenix's `PDataType` and `ColumnDef` rules).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Any `(n)` at least 1 is taken (and ignored by fixed-width types).
    Plain,
    /// `CHAR` and `BINARY`: a length is required (`MISSING_MAX_LENGTH`).
    NeedsLength,
    /// `DECIMAL`: a precision of 1 to 38 (`DECIMAL_PRECISION_OUT_OF_RANGE`).
    Decimal,
}

/// Phoenix's SQL type names (`PDataTypeFactory`, commit `6d9ec471`) and whether each has an
/// array type a column may declare (`VARBINARY ARRAY` is `VARBINARY_ARRAY_NOT_SUPPORTED`;
/// JSON, BSON and VARBINARY_ENCODED have none).
const TYPES: &[(&str, Kind, bool)] = &[
    ("BIGINT", Kind::Plain, true),
    ("BINARY", Kind::NeedsLength, true),
    ("BOOLEAN", Kind::Plain, true),
    ("BSON", Kind::Plain, false),
    ("CHAR", Kind::NeedsLength, true),
    ("DATE", Kind::Plain, true),
    ("DECIMAL", Kind::Decimal, true),
    ("DOUBLE", Kind::Plain, true),
    ("FLOAT", Kind::Plain, true),
    ("INTEGER", Kind::Plain, true),
    ("JSON", Kind::Plain, false),
    ("SMALLINT", Kind::Plain, true),
    ("TIME", Kind::Plain, true),
    ("TIMESTAMP", Kind::Plain, true),
    ("TINYINT", Kind::Plain, true),
    ("UNSIGNED_DATE", Kind::Plain, true),
    ("UNSIGNED_DOUBLE", Kind::Plain, true),
    ("UNSIGNED_FLOAT", Kind::Plain, true),
    ("UNSIGNED_INT", Kind::Plain, true),
    ("UNSIGNED_LONG", Kind::Plain, true),
    ("UNSIGNED_SMALLINT", Kind::Plain, true),
    ("UNSIGNED_TIME", Kind::Plain, true),
    ("UNSIGNED_TIMESTAMP", Kind::Plain, true),
    ("UNSIGNED_TINYINT", Kind::Plain, true),
    ("VARBINARY", Kind::Plain, false),
    ("VARBINARY_ENCODED", Kind::Plain, false),
    ("VARCHAR", Kind::Plain, true),
];

/// Phoenix's `PDataType.MAX_PRECISION`.
const MAX_PRECISION: i32 = 38;

/// A column's declared type: `NAME[(n[, s])] [ARRAY][[n]]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct TypeDecl {
    /// One of Phoenix's type names, upper case.
    pub(super) name: String,
    /// Length or precision.
    pub(super) len: Option<i32>,
    /// Scale.
    pub(super) scale: Option<i32>,
    /// `ARRAY` or `[…]`.
    pub(super) array: bool,
    /// The array's declared length (`[n]`).
    pub(super) array_len: Option<i32>,
}

impl TypeDecl {
    /// The type of column `column` at the cursor (Phoenix's `column_def` after the name),
    /// checked as Phoenix's `ColumnDef` checks it.
    pub(super) fn read(c: &mut Cursor, column: &str) -> Result<TypeDecl> {
        let what = format!("the type of column {}", crate::support::json::quote(column));
        let (raw, tok) = c.ident(&what)?;
        let mut ty = TypeDecl {
            name: raw.to_ascii_uppercase(),
            len: None,
            scale: None,
            array: false,
            array_len: None,
        };
        if c.eat_punct('(') {
            ty.len = Some(c.int("a length or precision")?);
            if c.eat_punct(',') {
                ty.scale = Some(c.int("a scale")?);
            }
            c.punct(')', "`)` after the type's length")?;
        }
        ty.array = c.eat_kw("ARRAY");
        if c.eat_punct('[') {
            ty.array = true;
            if !c.is_punct(']') {
                ty.array_len = Some(c.int("an array length")?);
            }
            c.punct(']', "`]`")?;
        }
        ty.check(&raw, &tok)?;
        Ok(ty)
    }

    /// Phoenix's checks of a declared type (`PDataType.fromSqlTypeName`, `ColumnDef`).
    fn check(&self, raw: &str, tok: &Tok) -> Result<()> {
        let Some(&(_, kind, arrays)) = TYPES.iter().find(|(n, _, _)| *n == self.name) else {
            let hint = if self.name == "INT" {
                " (Phoenix has no INT: write INTEGER)"
            } else {
                ""
            };
            let names: Vec<&str> = TYPES.iter().map(|(n, _, _)| *n).collect();
            return Err(at(
                tok,
                format!(
                    "{} is not a Phoenix type{hint}: the types are {}",
                    crate::support::json::quote(raw),
                    names.join(", ")
                ),
            ));
        };
        if self.array && !arrays {
            return Err(at(
                tok,
                format!("{} has no ARRAY type in Phoenix", self.name),
            ));
        }
        match (kind, self.len) {
            (Kind::Decimal, Some(p)) if !(1..=MAX_PRECISION).contains(&p) => Err(at(
                tok,
                format!("DECIMAL precision must be 1 to {MAX_PRECISION}, got {p} (Phoenix: DECIMAL_PRECISION_OUT_OF_RANGE)"),
            )),
            (Kind::Plain | Kind::NeedsLength, Some(n)) if n < 1 => Err(at(
                tok,
                format!("{}({n}): a length must be at least 1 (Phoenix: NONPOSITIVE_MAX_LENGTH)", self.name),
            )),
            (Kind::NeedsLength, None) => Err(at(
                tok,
                format!("{} needs a length: {}(n) (Phoenix: MISSING_MAX_LENGTH)", self.name, self.name),
            )),
            _ => Ok(()),
        }
    }

    /// The type as a statement writes it: `VARCHAR(20)`, `DECIMAL(10,2)`, `INTEGER ARRAY[3]`.
    pub(super) fn text(&self) -> String {
        let mut s = self.name.clone();
        match (self.len, self.scale) {
            (Some(l), Some(sc)) => s.push_str(&format!("({l},{sc})")),
            (Some(l), None) => s.push_str(&format!("({l})")),
            _ => {}
        }
        if self.array {
            s.push_str(" ARRAY");
        }
        if let Some(n) = self.array_len {
            s.push_str(&format!("[{n}]"));
        }
        s
    }
}

/// A table option: `[family.]NAME = value`, the value a literal or a name (Phoenix's
/// `fam_prop_name EQ prop_value`).
pub(super) struct TableOption {
    /// The option's name as Phoenix normalizes it.
    pub(super) name: String,
    /// Its column family, when it names one (`cf.TTL`).
    pub(super) family: Option<String>,
    /// The value as a statement writes it.
    pub(super) value: String,
    /// The value's digits, when it is a whole number.
    pub(super) number: Option<String>,
    /// Where the value is.
    pub(super) value_tok: Tok,
}

impl TableOption {
    /// The option at the cursor.
    pub(super) fn read(c: &mut Cursor) -> Result<TableOption> {
        let (mut name, _) = c.ident("a table option")?;
        let mut family = None;
        if c.eat_punct('.') {
            family = Some(name);
            name = c.ident("the option name after its family")?.0;
        }
        let shown = crate::support::json::quote(&name);
        c.punct('=', &format!("`=` and the value of {shown}"))?;
        let value_tok = c.bump();
        let what =
            || format!("the value of {shown} (a number, a 'string', TRUE, FALSE, NULL or a name)");
        let mut number = None;
        let typed = |c: &mut Cursor, name: String| match &c.peek().t {
            // `DATE '2024-01-01'`: Phoenix's typed literal.
            T::Str(s) => {
                let s = quote_str(s);
                c.bump();
                format!("{name} {s}")
            }
            _ => name,
        };
        let value = match &value_tok.t {
            T::Num(n) => {
                if n.bytes().all(|b| b.is_ascii_digit()) {
                    number = Some(n.clone());
                }
                n.clone()
            }
            T::Str(s) => quote_str(s),
            T::Hex(h) => format!("X'{h}'"),
            T::Bin(b) => format!("B'{b}'"),
            T::Word(w)
                if ["TRUE", "FALSE", "NULL"]
                    .iter()
                    .any(|k| w.eq_ignore_ascii_case(k)) =>
            {
                w.to_ascii_uppercase()
            }
            T::Word(w) if !super::sql::is_reserved(w) => typed(c, w.clone()),
            T::Quoted(q) if !q.is_empty() => typed(c, format!("\"{q}\"")),
            _ => return Err(expected(&value_tok, &what())),
        };
        Ok(TableOption {
            name,
            family,
            value,
            number,
            value_tok,
        })
    }

    /// The option as a statement writes it: names through `quote_ident`, the value as read.
    pub(super) fn text(&self) -> Result<String> {
        let family = match &self.family {
            Some(f) => format!("{}.", quote_ident(f)?),
            None => String::new(),
        };
        Ok(format!(
            "{family}{}={}",
            quote_ident(&self.name)?,
            self.value
        ))
    }
}

/// Read `text` as one whole piece of a statement with `read`, or say why not: the lexer's or
/// the grammar's error, with its column in `text`.
fn whole<X>(text: &str, read: impl FnOnce(&mut Cursor) -> Result<X>) -> Result<X> {
    let mut c = Cursor::new(tokens(text)?);
    let x = read(&mut c)?;
    match c.peek().t {
        T::End => Ok(x),
        _ => Err(expected(c.peek(), "nothing more")),
    }
}

/// Where in `text` a parse error is, for a message about text that is not a whole statement.
fn located(e: &Error) -> String {
    match (e.location.line, e.location.column) {
        (Some(1), Some(col)) => format!("{} (at character {col})", e.message),
        (Some(line), Some(col)) => format!("{} (at line {line}, character {col})", e.message),
        _ => e.message.clone(),
    }
}

/// A design's column type as the printer writes it, or an `Invalid` error saying why the
/// text is not one Phoenix type.
pub(super) fn column_type(text: &str, column: &str) -> Result<String> {
    whole(text, |c| TypeDecl::read(c, column))
        .map(|t| t.text())
        .map_err(|e| {
            Error::new(
                ErrorKind::Invalid,
                format!(
                    "the type {} is not one Phoenix type, NAME[(n)|(p,s)] [ARRAY][[n]]: {}",
                    crate::support::json::quote(text),
                    located(&e)
                ),
            )
        })
}

/// A design's table option as the printer writes it, or an `Invalid` error saying why the
/// text is not one `NAME=value`.
pub(super) fn table_option(text: &str) -> Result<(String, TableOption)> {
    let opt = whole(text, TableOption::read).map_err(|e| {
        Error::new(
            ErrorKind::Invalid,
            format!(
                "the option {} is not one Phoenix table option, NAME=value or FAMILY.NAME=value with a number, a 'string', TRUE, FALSE, NULL or a name as the value: {}",
                crate::support::json::quote(text),
                located(&e)
            ),
        )
    })?;
    Ok((opt.text()?, opt))
}

/// A design's column type read as Phoenix reads it (the same grammar as the printer's).
pub(super) fn type_decl(text: &str, column: &str) -> Result<TypeDecl> {
    whole(text, |c| TypeDecl::read(c, column))
}
