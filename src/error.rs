//! One error type for the whole core. Every error names what was wrong (an argument,
//! a JSON path, a byte offset or a line and column) so a UI can point at the spot.

use std::fmt;

/// Longest error message: past it, the message keeps its start and says how long it was.
/// Messages quote user text up to 64 characters (`support::json::quote`); this bounds any
/// message that quotes more, so a pasted megabyte never becomes a megabyte of message. (Here,
/// not in `limits`, which builds its errors with this module.)
pub const MAX_MESSAGE_CHARS: usize = 1_024;

/// What kind of failure this is. The HBase ports map each Java exception class to one kind,
/// so golden vectors that record a thrown exception compare on the kind, not the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    /// `java.lang.IllegalArgumentException`: an argument is out of its domain.
    IllegalArgument,
    /// `java.lang.IllegalStateException`: an object is not in a state that allows the call.
    IllegalState,
    /// `java.lang.NegativeArraySizeException`: a computed length went below zero.
    NegativeArraySize,
    /// `java.lang.ArrayIndexOutOfBoundsException`: an offset or length runs past an array.
    IndexOutOfBounds,
    /// `java.lang.ArithmeticException`: division by zero and the like.
    Arithmetic,
    /// `java.lang.NumberFormatException`: text that should be a number is not.
    NumberFormat,
    /// A key design, design document or option could not be parsed.
    Parse,
    /// A value does not fit its declared type or width.
    Invalid,
    /// Phoenix `IllegalDataException` (`ERROR 201 (22000)`): a value a Phoenix type cannot
    /// hold (a NULL INTEGER, a negative UNSIGNED_INT, a multi-byte character in a CHAR).
    IllegalData,
    /// Phoenix `DataExceedsCapacityException` (`ERROR 206 (22003)`): a value too wide for its
    /// column, e.g. `123.4` for a `DECIMAL(3,1)` or 5 characters for a `CHAR(4)`.
    DataExceedsCapacity,
    /// Phoenix `ConstraintViolationException` (`ERROR 218 (23018)`): a row key breaks a
    /// table constraint, e.g. a NULL in a NOT NULL primary-key column.
    ConstraintViolation,
    /// An input asks for more than a limit the engine checks up front (`crate::limits`): a row
    /// key past HBase's 32,767 bytes, a result too large to hand back, too many keys or cells.
    Limit,
}

impl ErrorKind {
    /// The kind's name as JS errors carry it (`err.kind`): its serde name, camelCase like
    /// every other tag of the API. Spelled out so the JS contract (`ErrorKind` in
    /// `src/types.d.ts`) holds without linking `Debug` or a serializer into the wasm.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::IllegalArgument => "illegalArgument",
            ErrorKind::IllegalState => "illegalState",
            ErrorKind::NegativeArraySize => "negativeArraySize",
            ErrorKind::IndexOutOfBounds => "indexOutOfBounds",
            ErrorKind::Arithmetic => "arithmetic",
            ErrorKind::NumberFormat => "numberFormat",
            ErrorKind::Parse => "parse",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Limit => "limit",
            ErrorKind::IllegalData => "illegalData",
            ErrorKind::DataExceedsCapacity => "dataExceedsCapacity",
            ErrorKind::ConstraintViolation => "constraintViolation",
        }
    }

    /// The Java exception class that this kind stands for, where there is one.
    pub fn java_class(self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::IllegalArgument => "java.lang.IllegalArgumentException",
            ErrorKind::IllegalState => "java.lang.IllegalStateException",
            ErrorKind::NegativeArraySize => "java.lang.NegativeArraySizeException",
            ErrorKind::IndexOutOfBounds => "java.lang.ArrayIndexOutOfBoundsException",
            ErrorKind::Arithmetic => "java.lang.ArithmeticException",
            ErrorKind::NumberFormat => "java.lang.NumberFormatException",
            ErrorKind::IllegalData => "org.apache.phoenix.schema.IllegalDataException",
            ErrorKind::DataExceedsCapacity => {
                "org.apache.phoenix.exception.DataExceedsCapacityException"
            }
            ErrorKind::ConstraintViolation => {
                "org.apache.phoenix.schema.ConstraintViolationException"
            }
            ErrorKind::Parse | ErrorKind::Invalid | ErrorKind::Limit => return None,
        })
    }

    /// The kind for a Java exception class name (fully qualified or simple).
    pub fn from_java_class(class: &str) -> Option<ErrorKind> {
        let simple = class.rsplit('.').next().unwrap_or(class);
        Some(match simple {
            "IllegalArgumentException" => ErrorKind::IllegalArgument,
            "IllegalStateException" => ErrorKind::IllegalState,
            "NegativeArraySizeException" => ErrorKind::NegativeArraySize,
            "ArrayIndexOutOfBoundsException"
            | "IndexOutOfBoundsException"
            | "StringIndexOutOfBoundsException" => ErrorKind::IndexOutOfBounds,
            "ArithmeticException" => ErrorKind::Arithmetic,
            "NumberFormatException" => ErrorKind::NumberFormat,
            // OpenTSDB's `IllegalDataException` (a qualifier offset outside the array) extends
            // `IllegalStateException`; Phoenix's class of the same simple name is below.
            _ if class == "net.opentsdb.core.IllegalDataException" => ErrorKind::IllegalState,
            // OpenTSDB's `NoSuchUniqueName` (a name with no UID): the kind `dict(...)` and
            // `uid(...)` give a value missing from their table, so the port and the key
            // language agree.
            "NoSuchUniqueName" => ErrorKind::Invalid,
            "IllegalDataException" => ErrorKind::IllegalData,
            "DataExceedsCapacityException" => ErrorKind::DataExceedsCapacity,
            "ConstraintViolationException" => ErrorKind::ConstraintViolation,
            _ => return None,
        })
    }

    /// Phoenix's `SQLExceptionCode` for the Phoenix kinds, as its messages print it
    /// (`ERROR 206 (22003)`: the code, then the SQL state). A Phoenix exception class can carry
    /// several codes, so the vector runner checks this too, not only the class.
    pub fn sql_error_code(self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::IllegalData => "ERROR 201 (22000)",
            ErrorKind::DataExceedsCapacity => "ERROR 206 (22003)",
            ErrorKind::ConstraintViolation => "ERROR 218 (23018)",
            _ => return None,
        })
    }
}

/// Where in the input an error is: a JSON path or argument name, a byte offset, a text position.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// The argument, field or JSON path (`/key/segments/2/width`) that is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Byte offset into a key or a byte array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// 1-based line in a text input: the JSON text, or the key design's text form when the
    /// error is in it (path `/key` in a design document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column (in characters) in a text input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

/// An error from the core: a kind, a message that says what was expected, and where.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// A one-line human-readable reason that names the argument and what was expected.
    pub message: String,
    /// Where the problem is.
    #[serde(flatten)]
    pub location: Location,
}

impl Error {
    /// A new error of `kind` with `message` and no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: bounded(message.into()),
            location: Location::default(),
        }
    }
    /// `IllegalArgument` naming the argument `path`.
    pub fn arg(path: &str, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::IllegalArgument, message).at_path(path)
    }
    /// `Limit` naming the input `path` that asks for more than a limit (`crate::limits`).
    pub fn limit(path: &str, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Limit, message).at_path(path)
    }
    /// Attach a path (argument name or JSON path).
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.location.path = Some(bounded(path.into()));
        self
    }
    /// Attach a byte offset.
    pub fn at_offset(mut self, offset: usize) -> Self {
        self.location.offset = Some(offset);
        self
    }
    /// The fields a thrown engine error carries beside its message, in their order: `kind`,
    /// `reason` (the message without where), then where (`path`, `offset`, `line`, `column`).
    /// One list for every binding and for an error shown beside an answer.
    pub fn fields(&self) -> Vec<(&'static str, serde_json::Value)> {
        let mut out = vec![
            ("kind", self.kind.name().into()),
            ("reason", self.message.clone().into()),
        ];
        if let Some(p) = &self.location.path {
            out.push(("path", p.clone().into()));
        }
        if let Some(o) = self.location.offset {
            out.push(("offset", (o as u64).into()));
        }
        if let (Some(l), Some(c)) = (self.location.line, self.location.column) {
            out.push(("line", (l as u64).into()));
            out.push(("column", (c as u64).into()));
        }
        out
    }
    /// Attach a 1-based line and column.
    pub fn at_line_col(mut self, line: usize, column: usize) -> Self {
        self.location.line = Some(line);
        self.location.column = Some(column);
        self
    }
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters, saying
/// how long it was: the last guard, should a message quote user text whole (a field name of
/// 10 MiB made a message of 20 MiB).
fn bounded(text: String) -> String {
    let max = MAX_MESSAGE_CHARS;
    if text.len() <= max {
        return text;
    }
    match text.char_indices().nth(max) {
        None => text,
        Some((cut, _)) => {
            let total = text.chars().count();
            format!(
                "{}… ({total} characters in all)",
                text.get(..cut).unwrap_or_default()
            )
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The empty JSON pointer is the whole document: nothing to name before the message.
        if let Some(p) = self.location.path.as_deref().filter(|p| !p.is_empty()) {
            write!(f, "{p}: ")?;
        }
        f.write_str(&self.message)?;
        if let (Some(l), Some(c)) = (self.location.line, self.location.column) {
            write!(f, " (line {l}, column {c})")?;
        }
        if let Some(o) = self.location.offset {
            write!(f, " (at byte {o})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// `f`, the engine's work, with a panic (a bug: inputs are checked before they reach the core)
/// turned into the engine's error instead of unwinding into a host that cannot take it: the
/// last guard of the native bindings (the Node-API addon, the Python module).
pub fn catch_bug<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(Error::new(
            ErrorKind::IllegalState,
            format!("rowkey-lab bug (please report): {what}"),
        ))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::ErrorKind::{self, *};

    const ALL: [ErrorKind; 12] = [
        IllegalArgument,
        IllegalState,
        NegativeArraySize,
        IndexOutOfBounds,
        Arithmetic,
        NumberFormat,
        Parse,
        Invalid,
        Limit,
        IllegalData,
        DataExceedsCapacity,
        ConstraintViolation,
    ];

    #[test]
    fn js_names_are_the_serde_names_and_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for k in ALL {
            // serde's derive spells the variant on its own: the hand-written names must agree.
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.name())
            );
            assert!(seen.insert(k.name()), "{} twice", k.name());
        }
    }

    #[test]
    fn java_classes_map_back_to_their_kind() {
        for k in ALL {
            if let Some(class) = k.java_class() {
                assert_eq!(ErrorKind::from_java_class(class), Some(k));
            }
        }
        assert_eq!(ErrorKind::from_java_class("java.io.IOException"), None);
    }
}
