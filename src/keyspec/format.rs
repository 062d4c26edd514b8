//! The text form printer: `KeySpec::to_text`. Parsing its output gives back the same AST.

use super::ast::*;

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_alphabetic() || c == '_')
        && cs.all(|c| c.is_alphanumeric() || c == '_')
}

pub(crate) fn quote(bytes: &[u8], out: &mut String) {
    out.push('"');
    let text = String::from_utf8_lossy(bytes);
    if text.as_bytes() == bytes {
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => out.push(c),
            }
        }
    } else {
        // Not UTF-8: printable ASCII stays, every other byte is escaped.
        for &b in bytes {
            match b {
                b'"' => out.push_str("\\\""),
                b'\\' => out.push_str("\\\\"),
                0x20..=0x7e => out.push(char::from(b)),
                _ => out.push_str(&format!("\\x{b:02x}")),
            }
        }
    }
    out.push('"');
}

fn name(s: &str, out: &mut String) {
    if is_ident(s) {
        out.push_str(s);
    } else {
        quote(s.as_bytes(), out);
    }
}

pub(crate) fn render_text(r: &Render) -> String {
    match r {
        Render::Byte => "byte".into(),
        Render::Short => "short".into(),
        Render::Int => "int".into(),
        Render::Long => "long".into(),
        Render::Letter => "letter".into(),
        Render::Dec(w) => format!("dec({w})"),
        Render::Hex(w) => format!("hex({w})"),
        Render::HexUpper(w) => format!("hexUpper({w})"),
        Render::Bytes(w) => format!("bytes({w})"),
    }
}

fn call(out: &mut String, f: &str, parts: Vec<String>) {
    out.push_str(f);
    out.push('(');
    out.push_str(&parts.join(", "));
    out.push(')');
}

fn field_text(f: &str) -> String {
    let mut s = String::new();
    name(f, &mut s);
    s
}

/// A hash's arguments so far: its source, when it has one.
fn source_args(of: &Option<Vec<Segment>>) -> Vec<String> {
    of.iter().map(|segs| segments_text(segs)).collect()
}

pub(crate) fn segments_text(segs: &[Segment]) -> String {
    let mut out = String::new();
    for (i, s) in segs.iter().enumerate() {
        if i > 0 {
            out.push_str(" + ");
        }
        segment(s, &mut out);
    }
    out
}

fn segment(s: &Segment, out: &mut String) {
    match s {
        Segment::Field(f) => {
            if is_ident(&f.field) {
                out.push_str(&f.field);
            } else {
                call(out, "field", vec![field_text(&f.field)]);
            }
        }
        Segment::Str(f) => call(out, "str", vec![field_text(&f.field)]),
        Segment::Bool(f) => call(out, "bool", vec![field_text(&f.field)]),
        Segment::BigDecimal(f) => call(out, "bigDecimal", vec![field_text(&f.field)]),
        Segment::Reverse(f) => call(out, "reverse", vec![field_text(&f.field)]),
        Segment::Long(n) => call(out, "long", number_args(n)),
        Segment::Int(n) => call(out, "int", number_args(n)),
        Segment::Short(n) => call(out, "short", number_args(n)),
        Segment::Double(n) => call(out, "double", number_args(n)),
        Segment::Float(n) => call(out, "float", number_args(n)),
        Segment::Fixed(x) => call(out, "fixed", fixed_args(x)),
        Segment::Dec(d) => call(out, "dec", vec![field_text(&d.field), d.width.to_string()]),
        Segment::Literal(l) => quote(&l.bytes, out),
        Segment::Salt(x) => call(out, "salt", salt_args(x)),
        Segment::Random(x) => {
            let mut p = vec![x.buckets.to_string()];
            if x.seed != 0 {
                p.push(format!("seed={}", x.seed));
            }
            if x.render != Render::Byte {
                p.push(format!("as={}", render_text(&x.render)));
            }
            call(out, "random", p);
        }
        Segment::Hash15(h) => call(out, "hash15", source_args(&h.of)),
        Segment::Md5(h) => call(out, "md5", source_args(&h.of)),
        Segment::Md5Hex(h) => call(out, "md5Hex", md5_hex_args(h)),
        Segment::Revts(r) => {
            let mut p = vec![field_text(&r.field)];
            if let Some(d) = r.div {
                p.push(format!("div={d}"));
            }
            if r.render != Render::Long {
                p.push(format!("as={}", render_text(&r.render)));
            }
            call(out, "revts", p);
        }
        Segment::Time(t) => {
            let mut q = String::new();
            quote(t.pattern.as_bytes(), &mut q);
            let mut p = vec![field_text(&t.field), q];
            if t.unit == TimeUnit::S {
                p.push("unit=s".into());
            }
            call(out, "time", p);
        }
        Segment::Bucket(b) => call(out, "bucket", bucket_args(b)),
        Segment::Dict(d) => call(out, "dict", dict_args(d)),
        Segment::Tag(d) => call(out, "tag", dict_args(d)),
        Segment::Uid(u) => {
            let mut p = vec![field_text(&u.field), u.width.to_string()];
            if let Some(e) = &u.entries {
                p.push(table_text(e));
            }
            call(out, "uid", p);
        }
        Segment::BaseTime(a) => call(out, "baseTime", vec![field_text(&a.field)]),
        Segment::Tags(t) => {
            let mut p = vec![
                segments_text(&t.of),
                format!("tagk={}", table_text(&t.tagk)),
            ];
            if t.width != 3 {
                p.push(format!("width={}", t.width));
            }
            call(out, "tags", p);
        }
        Segment::Pk(k) => call(out, "pk", pk_args(k)),
        Segment::When(w) => call(
            out,
            "when",
            vec![
                field_text(&w.field),
                when_values(&w.is),
                segments_text(&w.then),
            ],
        ),
    }
}

/// `long(f)` and the other numbers: the field, then `sortable` when set.
fn number_args(n: &NumSpec) -> Vec<String> {
    let mut p = vec![field_text(&n.field)];
    if n.sortable {
        p.push("sortable".into());
    }
    p
}

fn fixed_args(x: &FixedSpec) -> Vec<String> {
    let mut p = vec![field_text(&x.field), x.width.to_string()];
    if x.pad != 0 {
        if (0x20..0x7f).contains(&x.pad) {
            let mut q = String::from("pad=");
            quote(&[x.pad], &mut q);
            p.push(q);
        } else {
            p.push(format!("pad=0x{:02x}", x.pad));
        }
    }
    if x.side == PadSide::Left {
        p.push("side=left".into());
    }
    if x.overflow == Overflow::Truncate {
        p.push("overflow=truncate".into());
    }
    p
}

fn salt_args(x: &SaltSpec) -> Vec<String> {
    let mut p = source_args(&x.of);
    p.push(x.buckets.to_string());
    // the default hash is left out
    let h = (x.hash != SaltHash::JavaString).then(|| x.hash.name());
    if let Some(h) = h {
        p.push(format!("hash={h}"));
    }
    match x.modulo {
        ModMode::AbsOfMod => {}
        ModMode::ModOfAbs => p.push("mod=modOfAbs".into()),
        ModMode::FloorMod => p.push("mod=floorMod".into()),
    }
    if x.render != Render::Byte {
        p.push(format!("as={}", render_text(&x.render)));
    }
    p
}

fn md5_hex_args(h: &Md5HexSpec) -> Vec<String> {
    let mut p = source_args(&h.of);
    if h.len != 32 {
        p.push(h.len.to_string());
    }
    if h.upper {
        // Without a source, a bare `upper` would read as a field to hash.
        p.push(
            if h.of.is_some() {
                "upper"
            } else {
                "upper=true"
            }
            .into(),
        );
    }
    p
}

fn bucket_args(b: &BucketSpec) -> Vec<String> {
    let mut p = vec![field_text(&b.field)];
    if let Some(m) = b.modulo {
        p.push(format!("mod={m}"));
    }
    if let Some(d) = b.div {
        p.push(format!("div={d}"));
    }
    if b.render != Render::Long {
        p.push(format!("as={}", render_text(&b.render)));
    }
    p
}

/// `dict(f, [...])` and `tag(f, [...])`: the field, the table, the render when given.
/// A `["name"=id, ...]` table.
fn table_text(entries: &[(String, i64)]) -> String {
    let mut table = String::from("[");
    for (i, (k, id)) in entries.iter().enumerate() {
        if i > 0 {
            table.push_str(", ");
        }
        quote(k.as_bytes(), &mut table);
        table.push('=');
        table.push_str(&id.to_string());
    }
    table.push(']');
    table
}

fn dict_args(d: &DictSpec) -> Vec<String> {
    let mut p = vec![field_text(&d.field), table_text(&d.entries)];
    if let Some(r) = &d.render {
        p.push(format!("as={}", render_text(r)));
    }
    p
}

/// `when`'s values: one quoted value, or a `[list]` of them.
fn when_values(is: &[String]) -> String {
    let mut vals = String::new();
    if is.len() == 1 {
        if let Some(v) = is.first() {
            quote(v.as_bytes(), &mut vals);
        }
    } else {
        vals.push('[');
        for (i, v) in is.iter().enumerate() {
            if i > 0 {
                vals.push_str(", ");
            }
            quote(v.as_bytes(), &mut vals);
        }
        vals.push(']');
    }
    vals
}

/// `pk(field, TYPE(len, scale), desc, nullable)`.
pub(crate) fn pk_args(k: &PkSpec) -> Vec<String> {
    let ty = match (k.len, k.scale) {
        (Some(l), Some(s)) => format!("{}({l}, {s})", k.data_type.sql_name()),
        (Some(l), None) => format!("{}({l})", k.data_type.sql_name()),
        (None, _) => k.data_type.sql_name().to_string(),
    };
    let mut p = vec![field_text(&k.field), ty];
    if k.desc {
        p.push("desc".into());
    }
    if k.nullable {
        p.push("nullable".into());
    }
    if let (None, Some(s)) = (k.len, k.scale) {
        p.push(format!("scale={s}"));
    }
    p
}
