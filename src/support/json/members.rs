//! Each document type's members written once: [`read_object!`] declares an object's members
//! and reads them in one list (the unknown-member check and the reads cannot disagree), and
//! [`tagged_reader!`] does the same for an internally tagged enum, variant by variant, and
//! also writes the enum's [`Variant`] table — the kinds and their members that a form or a
//! completion list offers, from the one place the reader takes them.

/// One member of an object or a variant: its JSON key, whether the reader requires it, the
/// kind of value it reads (so a form offers the right control), its default, its range and
/// the names it takes: what a form, the generated `types.d.ts` and the document's reference
/// take from the one list the reader reads.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Member {
    /// The JSON key.
    pub key: &'static str,
    /// `true` when the reader refuses the object without it (no default).
    pub required: bool,
    /// What the member holds, from the reader that reads it: `integer`, `number`, `boolean`,
    /// `string`, `time` (an ISO instant or epoch milliseconds), `strings` (a list of text),
    /// `record` (field name to value), `phoenixType` (a Phoenix SQL type name) or `json`
    /// (anything else: a list, an object, a nested part).
    pub value: &'static str,
    /// The value the reader takes when the member is left out, as JSON text (`"64"`,
    /// `"\"right\""`); `None` when it is required or when leaving it out means something of
    /// its own (the doc string says what). Text, not a value: the page's wasm carries no
    /// JSON-to-value path for it.
    pub default: Option<&'static str>,
    /// The least and the largest value the engine accepts, when it checks them.
    pub range: Option<&'static [f64; 2]>,
    /// The names the member takes, when it is one of a fixed set (`"left"`, `"right"`).
    pub options: &'static [&'static str],
    /// What the member means, in a sentence or two: the prose of the generated reference and
    /// declarations. Native builds only, so the wasm carries none of it.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(skip)]
    pub doc: &'static str,
    /// The reader's expression as written (`|n| list(n, field_decl)`): what the generated
    /// declarations name a `json` member's type by. Native builds only.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(skip)]
    pub reader: &'static str,
    /// `null` reads as a value (absent for `opt`; HBase's default or unset for a run's option
    /// over the design's, `over` and `nullable`): the generated declarations of options say
    /// `| null`. Native builds only.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(skip)]
    pub takes_null: bool,
}

/// The names of a name table (`[("left", PadSide::Left), …]`), for a [`Member::options`].
pub const fn names<T, const N: usize>(table: &[(&'static str, T); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

/// The [`Member::value`] of a member read by the reader named `reader` (its path as written
/// in the member list, e.g. `i64_` or `crate::support::json::string`).
pub const fn value_kind(reader: &str) -> &'static str {
    // the last path segment: `stringify!` writes `a::b::c` as `a :: b :: c`
    let b = reader.as_bytes();
    let mut start = b.len();
    while start > 0 && b[start - 1] != b':' && b[start - 1] != b' ' {
        start -= 1;
    }
    let (_, name) = b.split_at(start);
    match name {
        b"i64_" | b"u64_" | b"u32_" | b"i32_" | b"u8_" | b"latest_n" | b"positive_ms"
        | b"versions" => "integer",
        b"bytes_u64" | b"bytes_i64" => "bytes",
        b"f64_" => "number",
        b"bool_" => "boolean",
        b"string" => "string",
        b"epoch_ms" => "time",
        b"strings" => "strings",
        b"map" => "record",
        b"phoenix_type" => "phoenixType",
        _ => "json",
    }
}

/// One variant of an internally tagged enum: its tag value and its members.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Variant {
    /// The tag's value (`"zipf"`, `"hexString"`, …).
    pub name: &'static str,
    /// Its members besides the tag, in the order the reader declares them.
    pub members: &'static [Member],
    /// What the variant is, in a sentence (native builds only, as [`Member::doc`]).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(skip)]
    pub doc: &'static str,
}

/// Whether a member read with `req` / `opt` / `or` / `some` / `over` / `nullable` is required.
macro_rules! member_required {
    (req) => {
        true
    };
    (opt) => {
        false
    };
    (or) => {
        false
    };
    (some) => {
        false
    };
    (over) => {
        false
    };
    (nullable) => {
        false
    };
}
pub(crate) use member_required;

/// Whether a member read with `how` takes `null` (`opt`: as absent; `over`, `nullable`: as a
/// value of its own). Native builds only, as [`Member::takes_null`].
#[cfg(not(target_arch = "wasm32"))]
macro_rules! member_takes_null {
    (req) => {
        false
    };
    (or) => {
        false
    };
    (some) => {
        false
    };
    (opt) => {
        true
    };
    (over) => {
        true
    };
    (nullable) => {
        true
    };
}
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use member_takes_null;

/// A member's default as [`Member::default`]: an `or` member must spell its default as JSON
/// text (`= "64"`), the others have none.
macro_rules! member_default {
    (or, $d:literal) => {
        Some($d)
    };
    (or,) => {
        compile_error!("an `or` member spells its default as JSON text: `or(…) = \"…\"`")
    };
    (req,) => {
        None
    };
    (opt,) => {
        None
    };
    // (absent, an option over a value set elsewhere leaves that value: its doc string says
    // which)
    (some,) => {
        None
    };
    (over,) => {
        None
    };
    (nullable,) => {
        None
    };
}
pub(crate) use member_default;

/// The [`Member`] table of a member list: each member `/// doc` then
/// `field: how("key", reader, args…)`, then, in this order and each optional, `= "default as
/// JSON"`, `in min ..= max` (the range the engine accepts) and `of NAMES` (the names it
/// takes).
macro_rules! member_table {
    ($($(#[doc = $doc:literal])* $field:ident : $how:ident ( $key:literal, $reader:expr $(, $arg:expr)* $(,)? )
        $(= $default:literal)? $(in $lo:literal ..= $hi:tt)? $(of $options:tt)?),* $(,)?) => {
        &[$($crate::support::json::Member {
            key: $key,
            required: $crate::support::json::member_required!($how),
            value: $crate::support::json::value_kind(stringify!($reader)),
            default: $crate::support::json::member_default!($how, $($default)?),
            range: $crate::support::json::member_range!($($lo, $hi)?),
            options: $crate::support::json::member_options!($($options)?),
            #[cfg(not(target_arch = "wasm32"))]
            doc: concat!($($doc, "\n"),*),
            #[cfg(not(target_arch = "wasm32"))]
            reader: stringify!($reader),
            #[cfg(not(target_arch = "wasm32"))]
            takes_null: $crate::support::json::member_takes_null!($how),
        }),*]
    };
}
pub(crate) use member_table;

/// A [`Member::range`]: the bounds given, or `None`.
macro_rules! member_range {
    () => {
        None
    };
    ($lo:literal, $hi:tt) => {
        Some(&[$lo as f64, $hi as f64])
    };
}
pub(crate) use member_range;

/// A [`Member::options`]: the names of the table given, or none.
macro_rules! member_options {
    () => {
        &[]
    };
    ($t:tt) => {
        &$crate::support::json::names(&$t)
    };
}
pub(crate) use member_options;

/// Reads `$n` as an object whose members are listed once, each as `field: how("key", args…)`
/// with `how` one of [`Obj`](crate::support::json::Obj)'s `req`, `opt`, `or`. Three shapes:
/// `Path { members }` builds that struct or variant; `Outer(Inner { members })` a newtype
/// variant around it; `{ members } => body` binds each member to its field name for `body`.
/// `skip` is an internally tagged enum's tag key (`Some("kind")`), else `None`. Used in a
/// function returning `R<_>`: a member's error returns from it with the member's path.
macro_rules! read_object {
    ($n:expr, $what:expr, $skip:expr,
     { $($(#[doc = $doc:literal])* $field:ident : $how:ident ( $key:literal $(, $arg:expr)* $(,)? ) $(= $default:literal)? $(in $lo:literal ..= $hi:tt)? $(of $options:tt)?),* $(,)? } => $body:expr) => {{
        let o = $crate::support::json::Obj::new($n, $what, &[$($key),*], $skip, false)?;
        $(let $field = o.$how($key $(, $arg)*)?;)*
        $body
    }};
    ($n:expr, $what:expr, $skip:expr,
     $($outer:ident)::+ ( $($inner:ident)::+ { $($members:tt)* } )) => {
        $($outer)::+($crate::support::json::read_object!($n, $what, $skip, $($inner)::+ { $($members)* }))
    };
    ($n:expr, $what:expr, $skip:expr,
     $($path:ident)::+ { $($(#[doc = $doc:literal])* $field:ident : $how:ident ( $key:literal $(, $arg:expr)* $(,)? ) $(= $default:literal)? $(in $lo:literal ..= $hi:tt)? $(of $options:tt)?),* $(,)? }) => {{
        // A variant without members reads nothing from it.
        #[allow(unused_variables)]
        let o = $crate::support::json::Obj::new($n, $what, &[$($key),*], $skip, false)?;
        $($path)::+ { $($field: o.$how($key $(, $arg)*)?),* }
    }};
}
pub(crate) use read_object;

/// An internally tagged enum's reader and its [`Variant`] table, each variant written once:
///
/// ```ignore
/// tagged_reader! {
///     /// A [`Generator`].
///     pub fn generator(n) -> Generator; "internally tagged enum Generator", tag "kind";
///     table GENERATORS;
///     "sequence" => Generator::Sequence { start: or("start", i64_, 0) },
///     "uuid" => { compact: or("compact", bool_, false) } => Generator::Uuid { compact },
/// }
/// ```
///
/// Each arm's shape is one of [`read_object!`]'s; an unknown tag value is serde's
/// `unknown variant` error listing the table's names.
macro_rules! tagged_reader {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident ($n:ident) -> $ty:ty; $what:literal, tag $tag:literal;
        $(#[$table_meta:meta])*
        table $table:ident;
        $($arms:tt)*
    ) => {
        $(#[$table_meta])*
        $vis const $table: &[$crate::support::json::Variant] =
            $crate::support::json::tagged_reader!(@table [] $($arms)*);

        $(#[$meta])*
        $vis fn $name($n: &$crate::support::json::Node) -> $crate::support::json::R<$ty> {
            let kind = $crate::support::json::tag_variant($n, $what, $tag, $table)?;
            $crate::support::json::tagged_reader!(@match $n, kind, $tag, $table; [] $($arms)*)
        }
    };

    // The table: one Variant per arm.
    (@table [$($done:tt)*]) => { &[$($done)*] };
    (@table [$($done:tt)*] $(#[doc = $vdoc:literal])* $v:literal => { $($members:tt)* } => $body:expr $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@table [$($done)* $crate::support::json::Variant {
            name: $v,
            members: $crate::support::json::member_table!($($members)*),
            #[cfg(not(target_arch = "wasm32"))]
            doc: concat!($($vdoc, "\n"),*),
        },] $($($rest)*)?)
    };
    (@table [$($done:tt)*] $(#[doc = $vdoc:literal])* $v:literal => $($outer:ident)::+ ( $($inner:ident)::+ { $($members:tt)* } ) $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@table [$($done)* $crate::support::json::Variant {
            name: $v,
            members: $crate::support::json::member_table!($($members)*),
            #[cfg(not(target_arch = "wasm32"))]
            doc: concat!($($vdoc, "\n"),*),
        },] $($($rest)*)?)
    };
    (@table [$($done:tt)*] $(#[doc = $vdoc:literal])* $v:literal => $($path:ident)::+ { $($members:tt)* } $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@table [$($done)* $crate::support::json::Variant {
            name: $v,
            members: $crate::support::json::member_table!($($members)*),
            #[cfg(not(target_arch = "wasm32"))]
            doc: concat!($($vdoc, "\n"),*),
        },] $($($rest)*)?)
    };

    // The reader: one match arm per variant, each reading its members.
    (@match $n:ident, $kind:ident, $tag:literal, $table:ident; [$($done:tt)*]) => {
        Ok(match $kind {
            $($done)*
            // tag_variant returned one of the table's names.
            _ => return Err($crate::support::json::unknown_variant($n, $tag, $table)),
        })
    };
    (@match $n:ident, $kind:ident, $tag:literal, $table:ident; [$($done:tt)*]
     $(#[doc = $vdoc:literal])* $v:literal => { $($members:tt)* } => $body:expr $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@match $n, $kind, $tag, $table; [$($done)*
            $v => $crate::support::json::read_object!($n, "struct variant", Some($tag), { $($members)* } => $body),
        ] $($($rest)*)?)
    };
    (@match $n:ident, $kind:ident, $tag:literal, $table:ident; [$($done:tt)*]
     $(#[doc = $vdoc:literal])* $v:literal => $($outer:ident)::+ ( $($inner:ident)::+ { $($members:tt)* } ) $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@match $n, $kind, $tag, $table; [$($done)*
            $v => $crate::support::json::read_object!($n, "struct variant", Some($tag), $($outer)::+ ( $($inner)::+ { $($members)* } )),
        ] $($($rest)*)?)
    };
    (@match $n:ident, $kind:ident, $tag:literal, $table:ident; [$($done:tt)*]
     $(#[doc = $vdoc:literal])* $v:literal => $($path:ident)::+ { $($members:tt)* } $(, $($rest:tt)*)?) => {
        $crate::support::json::tagged_reader!(@match $n, $kind, $tag, $table; [$($done)*
            $v => $crate::support::json::read_object!($n, "struct variant", Some($tag), $($path)::+ { $($members)* }),
        ] $($($rest)*)?)
    };
}
pub(crate) use tagged_reader;

/// An object's reader and its [`Member`] table, the members written once (as
/// [`tagged_reader!`] does for a tagged enum):
///
/// ```ignore
/// object_reader! {
///     /// A [`Budgets`].
///     pub fn budgets(n) -> Budgets; "struct Budgets";
///     /// The budgets' members, as [`budgets`] reads them.
///     table BUDGETS;
///     Budgets { max_scans: or("maxScans", u32_, 16) = "16" }
/// }
/// ```
///
/// The shape is one of [`read_object!`]'s.
macro_rules! object_reader {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident ($n:ident) -> $ty:ty; $what:literal;
        $(#[$table_meta:meta])*
        table $table:ident;
        $($shape:tt)*
    ) => {
        $(#[$table_meta])*
        $vis const $table: &[$crate::support::json::Member] =
            $crate::support::json::object_reader!(@members $($shape)*);

        $(#[$meta])*
        $vis fn $name($n: &$crate::support::json::Node) -> $crate::support::json::R<$ty> {
            Ok($crate::support::json::read_object!($n, $what, None, $($shape)*))
        }
    };
    (@members { $($members:tt)* } => $body:expr) => {
        $crate::support::json::member_table!($($members)*)
    };
    (@members $($outer:ident)::+ ( $($inner:ident)::+ { $($members:tt)* } )) => {
        $crate::support::json::member_table!($($members)*)
    };
    (@members $($path:ident)::+ { $($members:tt)* }) => {
        $crate::support::json::member_table!($($members)*)
    };
}
pub(crate) use object_reader;
