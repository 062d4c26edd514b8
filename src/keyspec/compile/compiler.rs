//! Checking a key's segments against the field declarations and lowering them to the
//! encoder's operations: every type check happens here, once per design, not per record.

use super::*;

fn seg_err(path: &str, seg: &Segment, msg: impl std::fmt::Display) -> Error {
    let text = crate::keyspec::format::segments_text(std::slice::from_ref(seg));
    Error::new(ErrorKind::Invalid, format!("`{text}`: {msg}")).at_path(path.to_string())
}

/// Lowers segments to [`Op`]s, checking each against its field's type.
pub(super) struct Compiler<'a> {
    pub(super) fields: &'a [Field],
    /// Seeds of `random(...)` segments, in key order (a key with any has no fast plan).
    pub(super) seeds: Vec<u64>,
    /// `time(...)` segments so far: each gets a cache slot.
    pub(super) times: usize,
}

fn is_int(t: FieldType) -> bool {
    matches!(
        t,
        FieldType::Long | FieldType::Int | FieldType::Short | FieldType::Timestamp
    )
}

impl Compiler<'_> {
    fn field(&self, path: &str, seg: &Segment, name: &str) -> Result<(usize, FieldType)> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| self.fields.get(i).map(|f| (i, f.field_type)))
            .ok_or_else(|| {
                let known: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
                seg_err(
                    path,
                    seg,
                    format!(
                        "no field named `{name}` is declared (declared: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                )
            })
    }

    pub(super) fn ops(&mut self, segs: &[Segment], path: &str) -> Result<Vec<Op>> {
        segs.iter()
            .enumerate()
            .map(|(i, s)| self.op(s, &format!("{path}/{i}")))
            .collect()
    }

    fn src(&mut self, of: &Option<Vec<Segment>>, path: &str) -> Result<Src> {
        match of {
            None => Ok(Src::Rest),
            Some(segs) => Ok(Src::Ops(self.ops(segs, &format!("{path}/of"))?)),
        }
    }

    fn op(&mut self, seg: &Segment, path: &str) -> Result<Op> {
        let need = |ok: bool, t: FieldType, what: &str| -> Result<()> {
            if ok {
                Ok(())
            } else {
                Err(seg_err(
                    path,
                    seg,
                    format!(
                        "the field is declared {}, this segment needs {what}",
                        t.name()
                    ),
                ))
            }
        };
        let fop = |f: usize, enc: Enc| Ok(Op::Field { f, enc });
        match seg {
            Segment::Literal(l) => Ok(Op::Lit(l.bytes.clone())),
            Segment::Field(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                fop(
                    f,
                    match t {
                        FieldType::String => Enc::Str,
                        FieldType::Long | FieldType::Timestamp => Enc::Long(false),
                        FieldType::Int => Enc::Int(false),
                        FieldType::Short => Enc::Short(false),
                        FieldType::Double => Enc::Double(false),
                        FieldType::Float => Enc::Float(false),
                        FieldType::Boolean => Enc::Bool,
                        FieldType::BigDecimal => Enc::BigDecimal,
                    },
                )
            }
            Segment::Str(a) => fop(self.field(path, seg, &a.field)?.0, Enc::Str),
            Segment::Reverse(a) => fop(self.field(path, seg, &a.field)?.0, Enc::Reverse),
            Segment::Bool(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                need(t == FieldType::Boolean, t, "a boolean")?;
                fop(f, Enc::Bool)
            }
            Segment::BigDecimal(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                need(
                    t == FieldType::BigDecimal || is_int(t),
                    t,
                    "a bigDecimal or an integer",
                )?;
                fop(f, Enc::BigDecimal)
            }
            Segment::Long(n) | Segment::Int(n) | Segment::Short(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(is_int(t), t, "an integer (long, int, short or timestamp)")?;
                fop(
                    f,
                    match seg {
                        Segment::Long(_) => Enc::Long(n.sortable),
                        Segment::Int(_) => Enc::Int(n.sortable),
                        _ => Enc::Short(n.sortable),
                    },
                )
            }
            Segment::Double(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(
                    matches!(t, FieldType::Double | FieldType::Float),
                    t,
                    "a double or float",
                )?;
                fop(f, Enc::Double(n.sortable))
            }
            Segment::Float(n) => {
                let (f, t) = self.field(path, seg, &n.field)?;
                need(t == FieldType::Float, t, "a float")?;
                fop(f, Enc::Float(n.sortable))
            }
            Segment::Fixed(x) => {
                let f = self.field(path, seg, &x.field)?.0;
                fop(
                    f,
                    Enc::Fixed {
                        width: x.width as usize,
                        pad: x.pad,
                        left: x.side == PadSide::Left,
                        truncate: x.overflow == Overflow::Truncate,
                    },
                )
            }
            Segment::Dec(d) => {
                let (f, t) = self.field(path, seg, &d.field)?;
                need(is_int(t), t, "an integer")?;
                fop(
                    f,
                    Enc::Dec {
                        width: d.width as usize,
                    },
                )
            }
            Segment::Revts(r) => {
                let (f, t) = self.field(path, seg, &r.field)?;
                need(is_int(t), t, "a timestamp or integer")?;
                fop(
                    f,
                    Enc::Revts {
                        div: r.div,
                        render: r.render,
                    },
                )
            }
            Segment::Time(x) => {
                let (f, t) = self.field(path, seg, &x.field)?;
                need(is_int(t), t, "a timestamp")?;
                let toks = time::parse_pattern(&x.pattern).map_err(|m| seg_err(path, seg, m))?;
                let id = self.times;
                self.times += 1;
                fop(
                    f,
                    Enc::Time {
                        milli: toks.contains(&Tok::Milli),
                        fixed: time::Fixed::new(&toks),
                        toks,
                        secs: x.unit == TimeUnit::S,
                        id,
                    },
                )
            }
            Segment::Bucket(b) => {
                let (f, t) = self.field(path, seg, &b.field)?;
                need(is_int(t), t, "a timestamp or integer")?;
                fop(
                    f,
                    Enc::Bucket {
                        modulo: b.modulo,
                        div: b.div,
                        render: b.render,
                    },
                )
            }
            Segment::Dict(d) | Segment::Tag(d) => {
                let f = self.field(path, seg, &d.field)?.0;
                let default = if matches!(seg, Segment::Tag(_)) {
                    Render::Byte
                } else {
                    Render::Long
                };
                fop(
                    f,
                    Enc::Dict {
                        entries: d.entries.clone(),
                        render: d.render.unwrap_or(default),
                    },
                )
            }
            Segment::When(w) => {
                let f = self.field(path, seg, &w.field)?.0;
                Ok(Op::When {
                    f,
                    is: w.is.clone(),
                    then: self.ops(&w.then, &format!("{path}/then"))?,
                })
            }
            Segment::Salt(s) => {
                let src = self.src(&s.of, path)?;
                let buckets =
                    i32::try_from(s.buckets).map_err(|_| seg_err(path, seg, "too many buckets"))?;
                let wd = match s.hash {
                    SaltHash::Hbasewd => Some(
                        OneByteSimpleHash::new(buckets)
                            .map_err(|e| seg_err(path, seg, e.message))?,
                    ),
                    _ => None,
                };
                Ok(Op::Salt {
                    src,
                    hash: s.hash,
                    modulo: s.modulo,
                    buckets,
                    render: s.render,
                    wd,
                })
            }
            Segment::Random(r) => {
                let id = self.seeds.len();
                self.seeds.push(r.seed);
                Ok(Op::Random {
                    id,
                    buckets: r.buckets,
                    render: r.render,
                })
            }
            Segment::Hash15(h) => Ok(Op::Hash15 {
                src: self.src(&h.of, path)?,
            }),
            Segment::Md5(h) => Ok(Op::Md5 {
                src: self.src(&h.of, path)?,
            }),
            Segment::Md5Hex(h) => Ok(Op::Md5Hex {
                src: self.src(&h.of, path)?,
                len: h.len as usize,
                upper: h.upper,
            }),
        }
    }
}
