//! The lint rules, one function each, in the order `lint` runs them (findings are kept in
//! the order found within each severity).

use super::*;

/// monotonic-leading: the first segment that is not a constant moves one way.
pub(super) fn monotonic_leading(s: &Subject, out: &mut Vec<Finding>) {
    // monotonic-leading: the first segment that is not a constant.
    if let Some(first) = s
        .flat
        .iter()
        .find(|f| !matches!(f.seg, Segment::Literal(_)))
        .filter(|f| !matches!(f.seg, Segment::Pk(_)))
    {
        let name = field_of(first.seg);
        let decl = name.and_then(|n| s.doc.field(n));
        // A timestamp, or a generator that counts up (or down): every new row sorts at one end.
        let sequential = decl.is_some_and(|d| {
            d.field_type == FieldType::Timestamp
                || matches!(
                    d.generator,
                    Some(Generator::Sequence { .. } | Generator::Clock { .. })
                )
        });
        let keeps_order = !matches!(
            first.seg,
            Segment::Reverse(_) | Segment::Dict(_) | Segment::Tag(_)
        ) && !matches!(first.seg, Segment::Bucket(b) if b.modulo.is_some());
        if sequential && keeps_order {
            out.push(finding(
                "monotonic-leading",
                Severity::Warning,
                Some(first.idx),
                format!(
                    "the key starts with `{}`, which moves in one direction with every write, so all writes land in one region (a hotspot): lead with a salt, a hash or a well-spread field",
                    text(first.seg)
                ),
            ));
        }
    }
}

/// key-length and key-alignment: row keys short and 8-byte aligned (seed 000).
pub(super) fn key_length(s: &Subject, out: &mut Vec<Finding>) {
    // key-length and key-alignment.
    let (min, max) = s.ck.key_length();
    match max {
        Some(n) if n > 16 => out.push(finding(
            "key-length",
            Severity::Warning,
            None,
            format!("every key is {n} bytes; keep row keys at most 16 bytes, because every cell stores its row key again (seed 000)"),
        )),
        None if min > 16 => out.push(finding(
            "key-length",
            Severity::Warning,
            None,
            format!("keys are at least {min} bytes; keep row keys at most 16 bytes, because every cell stores its row key again (seed 000)"),
        )),
        None => out.push(finding(
            "key-length",
            Severity::Info,
            None,
            format!("keys have a variable length (at least {min} bytes); fixed-width keys make prefix scans and split points predictable"),
        )),
        _ => {}
    }
    if let Some(n) = max {
        if n % 8 != 0 {
            out.push(finding(
                "key-alignment",
                Severity::Info,
                None,
                format!("every key is {n} bytes, not a multiple of 8; seed 000 recommends 8-byte alignment for 64-bit systems"),
            ));
        }
    }
}

/// ambiguous-boundary / separator-in-field: a variable-width segment must be findable again.
pub(super) fn boundaries(s: &Subject, out: &mut Vec<Finding>) {
    // ambiguous-boundary / separator-in-field.
    for (i, f) in s.flat.iter().enumerate() {
        // A Phoenix key column's separator is written by the key itself (phoenix-desc-separator).
        if f.width != Width::Variable || matches!(f.seg, Segment::When(_) | Segment::Pk(_)) {
            continue;
        }
        let Some(next) = s.flat.get(i + 1) else {
            continue;
        };
        match next.seg {
            Segment::Literal(l) if !l.bytes.is_empty() => {
                let t = field_of(f.seg).and_then(|n| s.field_type(n));
                if let Some(&b) = l.bytes.iter().find(|&&b| may_contain(f.seg, t, b)) {
                    let ascii = if (0x20..0x7f).contains(&b) {
                        format!("`{}`", char::from(b))
                    } else {
                        format!("0x{b:02x}")
                    };
                    out.push(finding(
                        "separator-in-field",
                        Severity::Warning,
                        Some(next.idx),
                        format!(
                            "the separator byte {ascii} can occur inside `{}`: a value containing it splits the key in the wrong place (ambiguous decoding, prefix scans that match other rows); use a byte the field cannot hold, or a fixed width",
                            text(f.seg)
                        ),
                    ));
                }
            }
            _ => {
                let tail_fixed = s
                    .flat
                    .iter()
                    .skip(i + 1)
                    .all(|g| g.width != Width::Variable);
                out.push(finding(
                    "ambiguous-boundary",
                    if tail_fixed { Severity::Warning } else { Severity::Error },
                    Some(f.idx),
                    format!(
                        "`{}` has a variable width and `{}` follows it without a separator: {}",
                        text(f.seg),
                        text(next.seg),
                        if tail_fixed {
                            "a prefix scan for one value also matches longer values that start with it (\"web1\" finds \"web10\"); add a separator or a fixed width"
                        } else {
                            "the boundary cannot be found again, so the key cannot be decoded or scanned by prefix; add a separator or a fixed width"
                        }
                    ),
                ));
            }
        }
    }
}

/// when-before-field: the decoder reads a `when`'s field to know whether the branch is there.
pub(super) fn when_before_field(s: &Subject, out: &mut Vec<Finding>) {
    // when-before-field: the decoder reads a `when`'s field to know whether the branch is there.
    if let Some((idx, f)) = s.ck.blind_when() {
        let name = s.ck.fields.get(f).map_or("?", |x| x.0.as_str());
        out.push(finding(
            "when-before-field",
            Severity::Error,
            Some(idx),
            format!("`when({name}, ...)` tests `{name}` before any segment gives it back: no key can be decoded past it; write `{name}` in the key before the when"),
        ));
    }
}

/// Per segment: unpadded-decimal, bucket-region-mismatch, random-salt, signed-order.
pub(super) fn segment_rules(s: &Subject, out: &mut Vec<Finding>) {
    // unpadded-decimal and bucket-region-mismatch, random-salt, signed-order.
    let regions = declared_regions(s.doc);
    for f in &s.flat {
        let seg = f.seg;
        if let Segment::Str(a) | Segment::Reverse(a) = seg {
            if matches!(
                s.field_type(&a.field),
                Some(
                    FieldType::Long
                        | FieldType::Int
                        | FieldType::Short
                        | FieldType::Timestamp
                        | FieldType::Double
                        | FieldType::Float
                        | FieldType::BigDecimal
                )
            ) && matches!(seg, Segment::Str(_))
            {
                out.push(finding(
                    "unpadded-decimal",
                    Severity::Warning,
                    Some(f.idx),
                    format!("`{}` writes a number as decimal text without zero padding, so keys sort as text (\"10\" < \"9\"); use dec({}, N) or a binary encoding", text(seg), a.field),
                ));
            }
        }
        let (buckets, render) = match seg {
            Segment::Salt(s) => (Some(u64::from(s.buckets)), Some(s.render)),
            Segment::Random(r) => (Some(u64::from(r.buckets)), Some(r.render)),
            Segment::Bucket(b) => (b.modulo.and_then(|m| u64::try_from(m).ok()), Some(b.render)),
            _ => (None, None),
        };
        if let (Some(n), Some(Render::Dec(w))) = (buckets, render) {
            let need = decimal_digits(n.saturating_sub(1));
            if need > w {
                out.push(finding(
                    "unpadded-decimal",
                    Severity::Warning,
                    Some(f.idx),
                    format!("`{}` has {n} buckets but dec({w}) holds {w} digits; bucket {} would not fit, and decimal text only sorts when zero-padded to one width", text(seg), n.saturating_sub(1)),
                ));
            }
        }
        if let (Segment::Salt(_) | Segment::Random(_), Some(n), Some(r)) = (seg, buckets, regions) {
            if n != r {
                out.push(finding(
                    "bucket-region-mismatch",
                    Severity::Warning,
                    Some(f.idx),
                    format!(
                        "`{}` spreads writes over {n} buckets but the table declares {r} regions; pre-split one region per bucket (split keys at each bucket prefix), or some regions take {} buckets and others none",
                        text(seg),
                        if n > r { "several" } else { "no" }
                    ),
                ));
            }
        }
        if let Segment::Random(_) = seg {
            out.push(finding(
                "random-salt",
                Severity::Info,
                Some(f.idx),
                format!("`{}` is random: writes spread evenly, but a get or scan must try every bucket because the salt cannot be recomputed from the record (seed 001: hashing, unlike salting, keeps reads predictable)", text(seg)),
            ));
        }
        let signed = match seg {
            Segment::Long(n)
            | Segment::Int(n)
            | Segment::Short(n)
            | Segment::Double(n)
            | Segment::Float(n)
                if !n.sortable =>
            {
                s.field_type(&n.field)
            }
            Segment::Field(a) => s.field_type(&a.field),
            _ => None,
        };
        match signed {
            Some(FieldType::Long | FieldType::Int | FieldType::Short) => out.push(finding(
                "signed-order",
                Severity::Info,
                Some(f.idx),
                format!("`{}` is two's complement: if the field can be negative, negatives sort after every positive value; use the sortable form (sign bit flipped) for signed data", text(seg)),
            )),
            Some(FieldType::Double | FieldType::Float | FieldType::BigDecimal) => out.push(finding(
                "signed-order",
                Severity::Warning,
                Some(f.idx),
                format!("`{}` writes raw IEEE/BigDecimal bytes, which do not sort numerically (negatives after positives, and in reverse); use the sortable form for ordered scans", text(seg)),
            )),
            _ => {}
        }
    }
}

/// cardinality-order: fewer distinct values first (seed 000).
pub(super) fn cardinality_order(s: &Subject, out: &mut Vec<Finding>) {
    // cardinality-order: fewer distinct values first (seed 000).
    let cards: Vec<(usize, &str, u64, String)> = s
        .flat
        .iter()
        .filter(|f| !matches!(f.seg, Segment::Salt(_) | Segment::Random(_)))
        .filter_map(|f| {
            let name = field_of(f.seg)?;
            let c = s.doc.field(name)?.cardinality?;
            Some((f.idx, name, c, text(f.seg)))
        })
        .collect();
    for (j, (idx, name, c, t)) in cards.iter().enumerate() {
        if let Some((_, pname, pc, pt)) = cards
            .iter()
            .take(j)
            .find(|(_, pn, pc, _)| pc > c && pn != name)
        {
            out.push(finding(
                "cardinality-order",
                Severity::Warning,
                Some(*idx),
                format!(
                    "`{pt}` ({pname}: {pc} values) comes before `{t}` ({name}: {c} values); put fields with few, enumerable values first and many-valued ones (ids, timestamps) last, so scans by the small field stay contiguous (seed 000: engine_type before vin)"
                ),
            ));
        }
    }
}

/// latest-first: newest rows first needs a reversed timestamp.
pub(super) fn latest_first(s: &Subject, out: &mut Vec<Finding>) {
    // latest-first: newest rows first needs a reversed timestamp.
    let latest = s.doc.latest_first
        || s.doc
            .reads
            .iter()
            .any(|r| matches!(r, ReadPattern::Latest { .. }));
    if latest {
        let reversed: Vec<&str> = s
            .flat
            .iter()
            .filter_map(|f| match f.seg {
                Segment::Revts(r) => Some(r.field.as_str()),
                _ => None,
            })
            .collect();
        for f in &s.flat {
            let Some(name) = field_of(f.seg) else {
                continue;
            };
            if s.field_type(name) != Some(FieldType::Timestamp) || reversed.contains(&name) {
                continue;
            }
            if matches!(f.seg, Segment::Bucket(b) if b.modulo.is_some()) {
                continue;
            }
            // A DESC Phoenix column stores the time inverted: newest first already.
            if matches!(f.seg, Segment::Pk(k) if k.desc) {
                continue;
            }
            out.push(finding(
                "latest-first",
                Severity::Warning,
                Some(f.idx),
                format!("reads want the newest rows first, but `{}` sorts oldest first; write revts({name}) (Long.MAX_VALUE - ts) so a scan meets the newest row first", text(f.seg)),
            ));
        }
    }
}

/// hash-only: fields the key hashes but never writes in the clear.
pub(super) fn hash_only(s: &Subject, out: &mut Vec<Finding>) {
    // hash-only: fields the key hashes but never writes in the clear.
    let mut clear: Vec<&str> = Vec::new();
    let mut all: Vec<&str> = Vec::new();
    fn visit<'a>(
        segs: &'a [Segment],
        clear: &mut Vec<&'a str>,
        hashed: &mut Vec<(&'a str, String)>,
        in_hash: Option<String>,
    ) {
        for s in segs {
            match s {
                Segment::Salt(x) => {
                    if let Some(of) = &x.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::Hash15(h) | Segment::Md5(h) => {
                    if let Some(of) = &h.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::Md5Hex(h) => {
                    if let Some(of) = &h.of {
                        visit(of, &mut Vec::new(), hashed, Some(text(s)));
                    }
                }
                Segment::When(w) => visit(&w.then, clear, hashed, in_hash.clone()),
                other => {
                    if let Some(f) = field_of(other) {
                        match &in_hash {
                            Some(h) => hashed.push((f, h.clone())),
                            None => {
                                if !matches!(other, Segment::Bucket(b) if b.modulo.is_some()) {
                                    clear.push(f);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let mut hashed = Vec::new();
    visit(s.ck.segments(), &mut clear, &mut hashed, None);
    for (f, h) in &hashed {
        if !clear.contains(f) && !all.contains(f) {
            all.push(f);
            out.push(finding(
                "hash-only",
                Severity::Info,
                None,
                format!("`{f}` only appears inside `{h}`: a hash is one-way, so the key alone cannot give it back; store it in a column too (seed 004)"),
            ));
        }
    }
}
