//! An indexed expression (a functional index, `CREATE INDEX ... (UPPER(NAME))`): read from a
//! statement or from a document's `expression` member, printed back, and checked against the
//! column it reads. What each function computes, and how Phoenix stores the result, is
//! [`crate::hbase::phoenix::functions`]; the index column's type is the expression's, made
//! variable-width when it may be NULL (`IndexUtil.getIndexColumnDataType`), as any index
//! column's is.
//!
//! The subset: the functions of [`INDEX_FUNCTIONS`], nested (`UPPER(SUBSTR(NAME, 1, 3))`), over
//! one `VARCHAR` column, `SUBSTR`'s offset and length integer literals. Anything else (another
//! function, arithmetic, a second column, a `CHAR` column) is refused at the expression, naming
//! it and listing what is read. Phoenix names the index column `":" + ` the expression's SQL
//! text; here the index key's column is named by the expression as printed
//! ([`print_expression`]).

use super::*;
use crate::hbase::phoenix::functions::{IndexExpression, IndexFunction, INDEX_FUNCTIONS};

/// The functions by SQL name.
const FUNCTIONS: [&str; 7] = [
    "UPPER", "LOWER", "SUBSTR", "TRIM", "LTRIM", "RTRIM", "LENGTH",
];

/// Whether the cursor is at a function call (`NAME(`): an indexed expression, not a column.
pub(in crate::design::phoenix) fn at_call(c: &Cursor) -> bool {
    matches!(c.peek().t, T::Word(_)) && matches!(c.peek2(), T::Punct('('))
}

/// The refusal of what is at `tok`, an expression not read here.
fn not_read(tok: &Tok, what: &str) -> Error {
    at(
        tok,
        format!(
            "{what}: an indexed expression here is one of {INDEX_FUNCTIONS}, nested, over one VARCHAR column (SUBSTR's offset and length integer literals)"
        ),
    )
}

/// An indexed expression at the cursor (at a function name): the column it reads (its
/// `expression` member unset) and the expression over it.
pub(in crate::design::phoenix) fn read_expression(
    c: &mut Cursor,
) -> Result<(IndexedColumn, IndexExpression)> {
    let mut column: Option<IndexedColumn> = None;
    let expr = expression(c, &mut column)?;
    match (column, &expr) {
        (Some(col), IndexExpression::Call(..)) => Ok((col, expr)),
        _ => Err(not_read(c.peek(), "a column alone is not an expression")),
    }
}

/// One expression: a call or a column (the one column an expression reads, in `column`).
fn expression(c: &mut Cursor, column: &mut Option<IndexedColumn>) -> Result<IndexExpression> {
    let t = c.peek().clone();
    if !at_call(c) {
        let col = column_ref(c)?;
        if let Some(seen) = column.as_ref().filter(|s| **s != col) {
            return Err(not_read(
                &t,
                &format!("the expression reads {} and {}", shown(seen), shown(&col)),
            ));
        }
        *column = Some(col);
        return Ok(IndexExpression::Column);
    }
    let name = match &t.t {
        T::Word(w) => w.to_uppercase(),
        _ => String::new(),
    };
    if !FUNCTIONS.contains(&name.as_str()) {
        return Err(not_read(
            &t,
            &format!("the function {name} is not read in an indexed expression"),
        ));
    }
    c.bump();
    c.punct('(', "`(` and the function's argument")?;
    let inner = expression(c, column)?;
    let f = match name.as_str() {
        "UPPER" => IndexFunction::Upper,
        "LOWER" => IndexFunction::Lower,
        "TRIM" => IndexFunction::Trim,
        "LTRIM" => IndexFunction::LTrim,
        "RTRIM" => IndexFunction::RTrim,
        "LENGTH" => IndexFunction::Length,
        _ => {
            c.punct(',', "`,` and SUBSTR's offset")?;
            let offset = int_literal(c, "SUBSTR's offset, an integer literal")?;
            let length = if c.eat_punct(',') {
                let lt = c.peek().clone();
                let n = int_literal(c, "SUBSTR's length, an integer literal")?;
                if n < 1 {
                    return Err(at(
                        &lt,
                        format!("SUBSTR's length is {n}: at least 1 (below, Phoenix leaves the index value undefined)"),
                    ));
                }
                Some(n)
            } else {
                None
            };
            IndexFunction::Substr { offset, length }
        }
    };
    if c.is_punct(',') {
        return Err(not_read(
            c.peek(),
            &format!("{name} takes one argument here (a locale is not read)"),
        ));
    }
    c.punct(')', &format!("`)` to end {name}'s arguments"))?;
    Ok(IndexExpression::Call(f, Box::new(inner)))
}

/// `[-]digits`, a Java int.
fn int_literal(c: &mut Cursor, what: &str) -> Result<i32> {
    let t = c.peek().clone();
    let minus = c.eat_punct('-');
    let n = c.peek().clone();
    let v = match &n.t {
        T::Num(d) => d.parse::<i64>().ok(),
        _ => None,
    }
    .map(|v| if minus { -v } else { v })
    .and_then(|v| i32::try_from(v).ok())
    .ok_or_else(|| expected(if minus { &n } else { &t }, what))?;
    c.bump();
    Ok(v)
}

/// `[family.]name` inside an expression.
fn column_ref(c: &mut Cursor) -> Result<IndexedColumn> {
    let (first, _) = c.ident("a column or one of the functions read")?;
    let (name, family) = if c.eat_punct('.') {
        (c.ident("the column name after its family")?.0, Some(first))
    } else {
        (first, None)
    };
    Ok(IndexedColumn {
        name,
        family,
        desc: false,
        expression: None,
    })
}

fn shown(c: &IndexedColumn) -> String {
    match &c.family {
        Some(f) => format!("{f}.{}", c.name),
        None => c.name.clone(),
    }
}

/// A document's `expression` text read: the column it reads and the expression.
pub(in crate::design::phoenix) fn parse_expression(
    text: &str,
) -> Result<(IndexedColumn, IndexExpression)> {
    let mut c = Cursor::new(tokens(text)?);
    if !at_call(&c) {
        return Err(not_read(c.peek(), "not a function call"));
    }
    let read = read_expression(&mut c)?;
    if c.peek().t != T::End {
        return Err(not_read(c.peek(), "more after the expression"));
    }
    Ok(read)
}

/// `e` over `column` as SQL, every name through `quote_ident`: `UPPER(NAME)`,
/// `SUBSTR(NAME, -3, 2)`.
pub(in crate::design::phoenix) fn print_expression(
    column: &IndexedColumn,
    e: &IndexExpression,
) -> Result<String> {
    Ok(match e {
        IndexExpression::Column => {
            let name = quote_ident(&column.name)?;
            match &column.family {
                Some(f) => format!("{}.{name}", quote_ident(f)?),
                None => name,
            }
        }
        IndexExpression::Call(f, inner) => {
            let arg = print_expression(column, inner)?;
            match f {
                IndexFunction::Substr {
                    offset,
                    length: Some(n),
                } => format!("SUBSTR({arg}, {offset}, {n})"),
                IndexFunction::Substr {
                    offset,
                    length: None,
                } => format!("SUBSTR({arg}, {offset})"),
                _ => format!("{}({arg})", f.name()),
            }
        }
    })
}

/// Indexed column `c` (with an `expression`) checked against the data table: its expression
/// read, reading the column `c` names, a `VARCHAR` (an ascending one in the key), typed as
/// its functions take it. The source column and the expression; the message alone on error
/// (the caller puts it at the member).
pub(in crate::design::phoenix) fn resolve_expression(
    table: &PhoenixTable,
    section: &PhoenixSection,
    c: &IndexedColumn,
    text: &str,
) -> Result<(PhoenixColumn, IndexExpression)> {
    let (read, e) = parse_expression(text).map_err(|e| {
        let col = (e.location.column).map_or(String::new(), |n| format!(" (at character {n})"));
        Error::new(ErrorKind::Invalid, format!("{}{col}", e.message))
    })?;
    if read.name != c.name || (c.family.is_some() && read.family != c.family) {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "the expression {text} reads {}, but the indexed column is {}: name is the column the expression reads",
                shown(&read),
                shown(c)
            ),
        ));
    }
    let col = match resolve(table, section, &read)? {
        TableColumn::Key(_, k) if k.sort_order == SortOrder::Desc => {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("{text} reads {}, a DESC primary-key column: an expression over a descending column is not read here", k.name),
            ))
        }
        TableColumn::Key(_, k) | TableColumn::Cell(k) => k,
    };
    if col.data_type != PhoenixType::Varchar {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "{text} reads {}, a {}: the functions read here ({INDEX_FUNCTIONS}) take a VARCHAR column",
                col.name,
                col.data_type.sql_name()
            ),
        ));
    }
    e.data_type()
        .map_err(|err| Error::new(ErrorKind::Invalid, format!("{text}: {}", err.message)))?;
    Ok((col, e))
}
