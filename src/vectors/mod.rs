//! Golden-vector runner: one line of a vector file (`{"fn", "args", "expect"}`) in, a verdict out.
//!
//! It lives in the library, not only in `tests/`, so the very same dispatch runs natively,
//! inside wasm (Node and Chromium) and through the npm package. The format is documented in
//! `../shared/vectors/README.md`: byte arrays are lowercase hex, longs are decimal strings,
//! Java strings come as `utf16` code units, and a thrown exception is `{"throws": class}`.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};

mod bytes;
mod opentsdb;
mod phoenix;
mod policy;
mod salt;
mod split;

/// What a call produced: a JSON value in the vector encoding, or a thrown error kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A normal result, encoded as the vector files encode results.
    Value(Value),
    /// The call failed with this kind (the Java exception class is the contract).
    Throws(ErrorKind),
}

impl From<Error> for Outcome {
    fn from(e: Error) -> Self {
        Outcome::Throws(e.kind)
    }
}

/// The verdict on one vector line.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The result equals `expect`.
    Pass,
    /// The call ran but gave something else.
    Fail {
        /// The `fn` id.
        func: String,
        /// The `args` object as JSON text.
        args: String,
        /// The `expect` value as JSON text.
        expected: String,
        /// What we produced, as JSON text.
        got: String,
    },
    /// A function recorded upstream (`../shared/vectors-pending/`) that the engine does not
    /// implement yet ([`NOT_YET`]): counted, never run, never a pass.
    Pending {
        /// The `fn` id.
        func: String,
    },
    /// The line could not be run at all: bad JSON, unknown `fn`, unparsable arguments.
    CannotRun {
        /// The `fn` id, when the line had one.
        func: String,
        /// Why it could not run.
        reason: String,
    },
}

/// Vector functions recorded upstream that the engine does not implement yet: an `fn` id or a
/// prefix ending in `.`. Their lines are [`Verdict::Pending`]; every other line must pass, so
/// a family leaves this list in the same commit that makes all its lines pass, and from then
/// on any line of it the engine cannot run fails the suite.
pub const NOT_YET: &[&str] = &[];

/// Whether `func` is in [`NOT_YET`].
pub fn not_yet(func: &str) -> bool {
    NOT_YET
        .iter()
        .any(|p| func == *p || (p.ends_with('.') && func.starts_with(p)))
}

/// Run one line of a vector file.
pub fn run_line(line: &str) -> Verdict {
    let v: Value = match crate::support::json::parse_value(line) {
        Ok(v) => v,
        Err(e) => {
            return Verdict::CannotRun {
                func: String::new(),
                reason: format!("not JSON: {e}"),
            }
        }
    };
    let func = v
        .get("fn")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let (Some(args), Some(expect)) = (v.get("args").and_then(Value::as_object), v.get("expect"))
    else {
        return Verdict::CannotRun {
            func,
            reason: "line needs an object `args` and an `expect`".into(),
        };
    };
    if not_yet(&func) {
        return Verdict::Pending { func };
    }
    let outcome = match dispatch(&func, &Args(args)) {
        Ok(o) => o,
        Err(reason) => return Verdict::CannotRun { func, reason },
    };
    let expected = match expect.get("throws").and_then(Value::as_str) {
        Some(class) => match ErrorKind::from_java_class(class) {
            Some(k) => {
                if let Some(reason) = sql_code_mismatch(k, expect) {
                    return Verdict::CannotRun { func, reason };
                }
                Outcome::Throws(k)
            }
            None => {
                return Verdict::CannotRun {
                    func,
                    reason: format!("unknown exception class {class}"),
                }
            }
        },
        None => Outcome::Value(expect.clone()),
    };
    if outcome == expected {
        Verdict::Pass
    } else {
        Verdict::Fail {
            func,
            args: Value::Object(args.clone()).to_string(),
            expected: expect.to_string(),
            got: match outcome {
                Outcome::Value(v) => v.to_string(),
                Outcome::Throws(k) => format!("throws {}", k.java_class().unwrap_or("?")),
            },
        }
    }
}

/// A Phoenix `SQLException` message names its code (`java.sql.SQLException: ERROR 206
/// (22003): ...`) and one exception class can carry several codes, so the expected kind must
/// stand for that very code: `Some(reason)` when it does not.
fn sql_code_mismatch(kind: ErrorKind, expect: &Value) -> Option<String> {
    let message = expect.get("message").and_then(Value::as_str)?;
    let at = message.find("ERROR ")?;
    let recorded = message.get(at..)?.split(':').next()?;
    match kind.sql_error_code() {
        Some(code) if code == recorded => None,
        code => Some(format!(
            "exception recorded with {recorded}, but kind {} stands for {}",
            kind.name(),
            code.unwrap_or("no SQL error code")
        )),
    }
}

/// Dispatch on `fn`. `Err` means the line cannot be run (unknown function, bad arguments).
pub fn dispatch(func: &str, args: &Args) -> Result<Outcome, String> {
    for family in [
        bytes::dispatch,
        phoenix::dispatch,
        split::dispatch,
        policy::dispatch,
        salt::dispatch,
        opentsdb::dispatch,
    ] {
        if let Some(r) = family(func, args) {
            return r;
        }
    }
    Err(format!("unknown fn `{func}`"))
}

/// Shorthand for a family's answer: `None` = not my function.
pub(crate) type Dispatched = Option<Result<Outcome, String>>;

/// Typed access to a line's `args`, in the vector encoding. Each getter fails with a
/// message naming the argument, which makes the line "cannot run".
pub struct Args<'a>(pub &'a Map<String, Value>);

impl Args<'_> {
    /// The raw JSON value of `name` (`Null` when absent).
    pub fn raw(&self, name: &str) -> &Value {
        self.0.get(name).unwrap_or(&Value::Null)
    }
    /// Whether the argument is present and not null.
    pub fn has(&self, name: &str) -> bool {
        !self.raw(name).is_null()
    }
    /// A `byte[]` given as lowercase hex.
    pub fn bytes(&self, name: &str) -> Result<Vec<u8>, String> {
        let s = self
            .raw(name)
            .as_str()
            .ok_or_else(|| format!("arg `{name}`: expected a hex string"))?;
        from_hex(s).ok_or_else(|| format!("arg `{name}`: bad hex {s:?}"))
    }
    /// A `byte[]` that may be `null`.
    pub fn opt_bytes(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        if self.has(name) {
            self.bytes(name).map(Some)
        } else {
            Ok(None)
        }
    }
    /// A `byte[][]` given as a list of hex strings.
    pub fn bytes_list(&self, name: &str) -> Result<Vec<Vec<u8>>, String> {
        let a = self
            .raw(name)
            .as_array()
            .ok_or_else(|| format!("arg `{name}`: expected a list"))?;
        a.iter()
            .map(|x| {
                x.as_str()
                    .and_then(from_hex)
                    .ok_or_else(|| format!("arg `{name}`: bad hex item {x}"))
            })
            .collect()
    }
    /// A Java `long` given as a decimal string (or a JSON number).
    pub fn long(&self, name: &str) -> Result<i64, String> {
        match self.raw(name) {
            Value::String(s) => s
                .parse()
                .map_err(|_| format!("arg `{name}`: bad long {s:?}")),
            Value::Number(n) => n
                .as_i64()
                .ok_or_else(|| format!("arg `{name}`: bad long {n}")),
            v => Err(format!("arg `{name}`: expected a long, got {v}")),
        }
    }
    /// A Java `int` (or `short`, `byte`) given as a JSON number.
    pub fn int(&self, name: &str) -> Result<i64, String> {
        match self.raw(name) {
            Value::Number(n) => n
                .as_i64()
                .ok_or_else(|| format!("arg `{name}`: bad int {n}")),
            Value::String(s) => s
                .parse()
                .map_err(|_| format!("arg `{name}`: bad int {s:?}")),
            v => Err(format!("arg `{name}`: expected an int, got {v}")),
        }
    }
    /// A Java `int` that must fit 32 bits.
    pub fn i32(&self, name: &str) -> Result<i32, String> {
        let v = self.int(name)?;
        i32::try_from(v).map_err(|_| format!("arg `{name}`: {v} does not fit an int"))
    }
    /// A boolean.
    pub fn bool(&self, name: &str) -> Result<bool, String> {
        self.raw(name)
            .as_bool()
            .ok_or_else(|| format!("arg `{name}`: expected a boolean"))
    }
    /// A Java `String` as UTF-16 code units: `utf16` when present (it is exact, lone surrogates
    /// included), else the text of `name`. `None` when the Java string was `null`.
    pub fn jstring(&self, name: &str) -> Result<Option<Vec<u16>>, String> {
        let utf16_key = if name == "s" {
            "utf16".to_string()
        } else {
            format!("{name}_utf16")
        };
        if let Some(a) = self.0.get(&utf16_key).and_then(Value::as_array) {
            return a
                .iter()
                .map(|x| {
                    x.as_u64()
                        .and_then(|u| u16::try_from(u).ok())
                        .ok_or_else(|| format!("arg `{utf16_key}`: bad code unit {x}"))
                })
                .collect::<Result<Vec<u16>, String>>()
                .map(Some);
        }
        match self.raw(name) {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.encode_utf16().collect())),
            v => Err(format!("arg `{name}`: expected a string, got {v}")),
        }
    }
    /// A Java `String` that must be well-formed text (no lone surrogates) and not null.
    pub fn text(&self, name: &str) -> Result<String, String> {
        match self.raw(name) {
            Value::String(s) => Ok(s.clone()),
            v => Err(format!("arg `{name}`: expected a string, got {v}")),
        }
    }
    /// An optional well-formed string.
    pub fn opt_text(&self, name: &str) -> Result<Option<String>, String> {
        match self.raw(name) {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            v => Err(format!("arg `{name}`: expected a string or null, got {v}")),
        }
    }
    /// A raw IEEE-754 bit pattern given as hex (`bits`).
    pub fn bits(&self, name: &str) -> Result<u64, String> {
        let s = self
            .raw(name)
            .as_str()
            .ok_or_else(|| format!("arg `{name}`: expected hex bits"))?;
        u64::from_str_radix(s, 16).map_err(|_| format!("arg `{name}`: bad hex bits {s:?}"))
    }
}

/// Lowercase (or uppercase) hex to bytes; `None` when malformed.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|p| u8::from_str_radix(p, 16).ok()))
        .collect()
}

/// Bytes to lowercase hex, the vector encoding of `byte[]`.
pub fn to_hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

/// `byte[]` result.
pub fn hex_value(b: &[u8]) -> Value {
    Value::String(to_hex(b))
}

/// `byte[][]` result.
pub fn hex_list(v: &[Vec<u8>]) -> Value {
    Value::Array(v.iter().map(|b| hex_value(b)).collect())
}

/// `long` result (a decimal string).
pub fn long_value(v: i64) -> Value {
    Value::String(v.to_string())
}

/// Turn a core result into an outcome with `f` encoding the success value.
pub fn outcome<T>(r: crate::error::Result<T>, f: impl FnOnce(T) -> Value) -> Outcome {
    match r {
        Ok(v) => Outcome::Value(f(v)),
        Err(e) => Outcome::Throws(e.kind),
    }
}
