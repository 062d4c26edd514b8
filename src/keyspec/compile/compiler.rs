//! Checking a key's segments against the field declarations and lowering them to the
//! encoder's operations: every type check happens here, once per design, not per record.

use super::*;

fn seg_err(path: &str, seg: &Segment, msg: impl std::fmt::Display) -> Error {
    let text = crate::keyspec::format::segments_text(std::slice::from_ref(seg));
    let text = crate::support::json::clip(&text);
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
                // names as the user wrote them, each cut past 64 characters, the first 32 of them
                const LISTED: usize = 32;
                let clip = crate::support::json::clip;
                let mut known: Vec<String> = self
                    .fields
                    .iter()
                    .take(LISTED)
                    .map(|f| clip(&f.name).into_owned())
                    .collect();
                if self.fields.len() > LISTED {
                    known.push(format!("and {} more", self.fields.len() - LISTED));
                }
                seg_err(
                    path,
                    seg,
                    format!(
                        "no field named `{}` is declared (declared: {})",
                        clip(name),
                        if known.is_empty() {
                            // a design that is just a key: where its fields come from
                            "none; a design that is just a key has its fields declared from a \
                             file of rows given with it, or declare them under `fields`"
                                .to_string()
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

    /// The declared field `name` (its index), checked to be of a type `ok` accepts; `what`
    /// names the types the segment needs.
    fn typed(
        &self,
        path: &str,
        seg: &Segment,
        name: &str,
        ok: impl Fn(FieldType) -> bool,
        what: &str,
    ) -> Result<usize> {
        let (f, t) = self.field(path, seg, name)?;
        if !ok(t) {
            return Err(seg_err(
                path,
                seg,
                format!(
                    "the field is declared {}, this segment needs {what}",
                    t.name()
                ),
            ));
        }
        Ok(f)
    }

    /// The declared integer field `name` (long, int, short or timestamp).
    fn integer(&self, path: &str, seg: &Segment, name: &str, what: &str) -> Result<usize> {
        self.typed(path, seg, name, is_int, what)
    }

    fn op(&mut self, seg: &Segment, path: &str) -> Result<Op> {
        let (f, enc) = match seg {
            Segment::Literal(l) => return Ok(Op::Lit(l.bytes.clone())),
            Segment::When(w) => return self.when(w, seg, path),
            Segment::Salt(s) => return self.salt(s, seg, path),
            Segment::Random(r) => return Ok(self.random(r)),
            Segment::Hash15(h) => {
                return Ok(Op::Hash15 {
                    src: self.src(&h.of, path)?,
                })
            }
            Segment::Md5(h) => {
                return Ok(Op::Md5 {
                    src: self.src(&h.of, path)?,
                })
            }
            Segment::Md5Hex(h) => {
                return Ok(Op::Md5Hex {
                    src: self.src(&h.of, path)?,
                    len: h.len as usize,
                    upper: h.upper,
                })
            }
            Segment::Field(a) => {
                let (f, t) = self.field(path, seg, &a.field)?;
                (f, natural_enc(t))
            }
            Segment::Str(a) => (self.field(path, seg, &a.field)?.0, Enc::Str),
            Segment::Reverse(a) => (self.field(path, seg, &a.field)?.0, Enc::Reverse),
            Segment::Bool(a) => {
                let is_bool = |t| t == FieldType::Boolean;
                (
                    self.typed(path, seg, &a.field, is_bool, "a boolean")?,
                    Enc::Bool,
                )
            }
            Segment::BigDecimal(a) => {
                let ok = |t| t == FieldType::BigDecimal || is_int(t);
                let what = "a bigDecimal or an integer";
                (self.typed(path, seg, &a.field, ok, what)?, Enc::BigDecimal)
            }
            Segment::Long(n) | Segment::Int(n) | Segment::Short(n) => {
                let what = "an integer (long, int, short or timestamp)";
                let f = self.integer(path, seg, &n.field, what)?;
                let enc = match seg {
                    Segment::Long(_) => Enc::Long(n.sortable),
                    Segment::Int(_) => Enc::Int(n.sortable),
                    _ => Enc::Short(n.sortable),
                };
                (f, enc)
            }
            Segment::Double(n) => {
                let ok = |t| matches!(t, FieldType::Double | FieldType::Float);
                let f = self.typed(path, seg, &n.field, ok, "a double or float")?;
                (f, Enc::Double(n.sortable))
            }
            Segment::Float(n) => {
                let is_float = |t| t == FieldType::Float;
                let f = self.typed(path, seg, &n.field, is_float, "a float")?;
                (f, Enc::Float(n.sortable))
            }
            Segment::Fixed(x) => {
                let enc = Enc::Fixed {
                    width: x.width as usize,
                    pad: x.pad,
                    left: x.side == PadSide::Left,
                    truncate: x.overflow == Overflow::Truncate,
                };
                (self.field(path, seg, &x.field)?.0, enc)
            }
            Segment::Dec(d) => {
                let f = self.integer(path, seg, &d.field, "an integer")?;
                let width = d.width as usize;
                (f, Enc::Dec { width })
            }
            Segment::Revts(r) => {
                let f = self.integer(path, seg, &r.field, "a timestamp or integer")?;
                let (div, render) = (r.div, r.render);
                (f, Enc::Revts { div, render })
            }
            Segment::Time(x) => return self.time(x, seg, path),
            Segment::Bucket(b) => {
                let f = self.integer(path, seg, &b.field, "a timestamp or integer")?;
                let (modulo, div, render) = (b.modulo, b.div, b.render);
                (
                    f,
                    Enc::Bucket {
                        modulo,
                        div,
                        render,
                    },
                )
            }
            Segment::Dict(d) | Segment::Tag(d) => {
                let f = self.field(path, seg, &d.field)?.0;
                (f, dict_enc(d, matches!(seg, Segment::Tag(_))))
            }
            Segment::Uid(u) => {
                let f = self.field(path, seg, &u.field)?.0;
                let enc = Enc::Uid {
                    width: u.width,
                    entries: u.entries.as_deref().map(super::NameTable::new),
                };
                (f, enc)
            }
            Segment::BaseTime(a) => {
                let what = "a timestamp or integer (seconds, or milliseconds)";
                (self.integer(path, seg, &a.field, what)?, Enc::BaseTime)
            }
            // Only met while checking a design before its expansion (`CompiledKey::new`):
            // the values are checked at their own paths; nothing is written from this op.
            Segment::Tags(t) => {
                self.ops(&t.of, &format!("{path}/of"))?;
                return Ok(Op::Lit(Vec::new()));
            }
            Segment::Pk(k) => {
                let (f, t) = self.field(path, seg, &k.field)?;
                if let Err(what) = crate::keyspec::phoenix::accepts(k.data_type, t) {
                    return Err(seg_err(
                        path,
                        seg,
                        format!(
                            "the field is declared {}, a {} column needs {what}",
                            t.name(),
                            k.data_type.sql_name()
                        ),
                    ));
                }
                let run = crate::keyspec::phoenix::PkRun::single(k, f);
                return Ok(Op::Pk {
                    run: std::sync::Arc::new(run),
                    index: 0,
                });
            }
        };
        Ok(Op::Field { f, enc })
    }

    /// `when(f, is, then)`: the tested field and the branch's ops.
    fn when(&mut self, w: &WhenSpec, seg: &Segment, path: &str) -> Result<Op> {
        let f = self.field(path, seg, &w.field)?.0;
        Ok(Op::When {
            f,
            is: w.is.clone(),
            then: self.ops(&w.then, &format!("{path}/then"))?,
        })
    }

    /// `random(n)`: the next generator, seeded with the segment's seed.
    fn random(&mut self, r: &RandomSpec) -> Op {
        let id = self.seeds.len();
        self.seeds.push(r.seed);
        Op::Random {
            id,
            buckets: r.buckets,
            render: r.render,
        }
    }

    /// `time(f, pattern)`: the pattern parsed and compiled, and a slot in the time cache.
    fn time(&mut self, x: &TimeSpec, seg: &Segment, path: &str) -> Result<Op> {
        let f = self.integer(path, seg, &x.field, "a timestamp")?;
        let toks = time::parse_pattern(&x.pattern).map_err(|m| seg_err(path, seg, m))?;
        let id = self.times;
        self.times += 1;
        let enc = Enc::Time {
            milli: toks.contains(&Tok::Milli),
            fixed: time::Fixed::new(&toks),
            toks,
            secs: x.unit == TimeUnit::S,
            id,
        };
        Ok(Op::Field { f, enc })
    }

    /// `salt(...)`: its source, and the HBaseWD hash's table when it uses one.
    fn salt(&mut self, s: &SaltSpec, seg: &Segment, path: &str) -> Result<Op> {
        let src = self.src(&s.of, path)?;
        let buckets =
            i32::try_from(s.buckets).map_err(|_| seg_err(path, seg, "too many buckets"))?;
        let wd = match s.hash {
            SaltHash::Hbasewd => {
                Some(OneByteSimpleHash::new(buckets).map_err(|e| seg_err(path, seg, e.message))?)
            }
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
}

/// What `field(f)` writes for a field of type `t`: `Bytes.toBytes` of the declared type.
fn natural_enc(t: FieldType) -> Enc {
    match t {
        FieldType::String => Enc::Str,
        FieldType::Long | FieldType::Timestamp => Enc::Long(false),
        FieldType::Int => Enc::Int(false),
        FieldType::Short => Enc::Short(false),
        FieldType::Double => Enc::Double(false),
        FieldType::Float => Enc::Float(false),
        FieldType::Boolean => Enc::Bool,
        FieldType::BigDecimal => Enc::BigDecimal,
    }
}

/// `dict(f, table)`, or `tag(f, table)` (one byte by default): the table and its render.
fn dict_enc(d: &DictSpec, tag: bool) -> Enc {
    let default = if tag { Render::Byte } else { Render::Long };
    Enc::Dict {
        entries: super::NameTable::new(&d.entries),
        render: d.render.unwrap_or(default),
    }
}
