//! Candidate designs: the input design and its alternatives along the seeds' axes (salt or
//! not, bucket count, hash, what the salt reads, field order, time encoding, the pre-split
//! matched to the key's prefix and its region count). Every candidate is a whole design
//! document, built on the key's AST, that reads and runs as is.

use std::collections::BTreeSet;

use serde::Serialize;

use super::presplit::{describe_presplit, digits, hash_name, matched_presplit, region_count};
use super::shape::{self, KeyShape};
use super::AdviseOptions;
use crate::design::DesignDocument;
use crate::error::Result;
use crate::keyspec::{KeySpec, NumSpec, Render, RevtsSpec, SaltHash, SaltSpec, Segment, TimeSpec};
use crate::region::{PreSplit, SaltStyle};

/// One candidate design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    /// A short, deterministic name: what changed from the input (`current` for the input).
    pub label: String,
    /// What changed from the input, one phrase each (empty for the input).
    pub changes: Vec<String>,
    /// The key in the text form.
    pub key_text: String,
    /// The whole design document (key, pre-split and examples updated; workload as the
    /// input's).
    pub design: DesignDocument,
}

/// The candidates of one input, the input first, and what the advisor noticed about the
/// input itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateSet {
    /// The candidates; index 0 is the input design as given.
    pub candidates: Vec<Candidate>,
    /// The region servers designed for.
    pub servers: u32,
    /// The region count writes should spread over: the servers or the input's regions,
    /// whichever is more.
    pub target_regions: u32,
    /// The fields every read fixes (what a partial-key salt may hash).
    pub fixed_fields: Vec<String>,
}

/// The fewest regions writes are judged over when the servers are not given (the option nor a
/// design with more than one): the smallest bucket count tried for one server.
pub const MIN_SPREAD: u32 = 4;

/// The bucket (and region) counts to try: multiples and divisors of the server count (4, 8
/// and 16 for one server), the target and the input's own count; 2 to 256.
pub(super) fn bucket_counts(servers: u32, target: u32, current: Option<u32>) -> Vec<u32> {
    let mut v = BTreeSet::new();
    if servers > 1 {
        for d in 2..servers {
            if servers % d == 0 {
                v.insert(d);
            }
        }
        for k in [1, 2, 4] {
            v.insert(servers.saturating_mul(k));
        }
    } else {
        v.extend([4, 8, 16]);
    }
    v.insert(target);
    v.extend(current);
    v.into_iter().filter(|n| (2..=256).contains(n)).collect()
}

/// A full-resolution time segment of the body (text to the second, digits, a long or a
/// reversed timestamp over a `timestamp` field).
fn time_segment(doc: &DesignDocument, body: &[Segment]) -> Option<(usize, String)> {
    body.iter().enumerate().find_map(|(i, s)| {
        let field = match s {
            Segment::Time(t) if t.pattern.contains("yy") && t.pattern.contains("ss") => &t.field,
            Segment::Dec(d) => &d.field,
            Segment::Long(n) => &n.field,
            Segment::Revts(r) => &r.field,
            _ => return None,
        };
        shape::is_time_field(doc, field).then(|| (i, field.clone()))
    })
}

/// The design reads newest first (a `latest` read or `latestFirst`).
fn wants_latest(doc: &DesignDocument) -> bool {
    doc.latest_first
        || doc
            .reads
            .iter()
            .any(|r| matches!(r, crate::scan::ReadPattern::Latest { .. }))
}

/// Collects candidates, dropping duplicates (same key and pre-split) and documents that do
/// not read or whose examples cannot be rewritten.
struct Builder<'a> {
    input: &'a DesignDocument,
    out: Vec<Candidate>,
    seen: BTreeSet<String>,
}

impl Builder<'_> {
    fn push_input(&mut self) {
        let doc = self.input.clone();
        let presplit = doc.regions.clone().unwrap_or_default().presplit;
        self.seen.insert(format!(
            "{}|{}",
            doc.key.to_json(),
            serde_json::to_string(&presplit).unwrap_or_default()
        ));
        self.out.push(Candidate {
            label: "current".into(),
            changes: Vec::new(),
            key_text: doc.key.to_text(),
            design: doc,
        });
    }

    fn push(&mut self, changes: Vec<String>, key: Vec<Segment>, presplit: PreSplit) {
        let spec = KeySpec { segments: key };
        let sig = format!(
            "{}|{}",
            spec.to_json(),
            serde_json::to_string(&presplit).unwrap_or_default()
        );
        if !self.seen.insert(sig) {
            return;
        }
        let mut doc = self.input.clone();
        doc.key = spec;
        let mut layout = doc.regions.take().unwrap_or_default();
        layout.presplit = presplit;
        // A placement by name lists the input's regions; the new layout has its own count.
        if matches!(layout.assignment, crate::region::Assignment::Servers(_)) {
            layout.assignment = crate::region::Assignment::RoundRobin;
        }
        doc.regions = Some(layout);
        if doc.validate().is_err() {
            return;
        }
        let Ok((doc, _)) = crate::design::update_examples(&doc) else {
            return;
        };
        let label = if changes.is_empty() {
            "current".to_string()
        } else {
            changes.join(", ")
        };
        self.out.push(Candidate {
            label,
            changes,
            key_text: doc.key.to_text(),
            design: doc,
        });
    }
}

/// The candidates for `doc`: the input first, then its alternatives, in a fixed order.
pub fn candidates(doc: &DesignDocument, opts: &AdviseOptions) -> Result<CandidateSet> {
    opts.validate()?;
    doc.validate()?;
    let servers = opts.servers_for(doc);
    let layout = doc.regions.clone().unwrap_or_default();
    let current_regions = region_count(&layout.presplit);
    // A table spreads over at least MIN_SPREAD regions when nobody said how many servers: a
    // one-region table (on the default one server) scores "even" otherwise, and was
    // recommended, though HBase serves a region from one server and splits it only at 10 GiB.
    let floor = if opts.servers.is_none() && servers == 1 {
        MIN_SPREAD
    } else {
        1
    };
    let target = servers.max(current_regions).max(floor).clamp(1, 256);
    let shape = KeyShape::of(&doc.key.segments);
    let fixed = shape::fixed_by_every_read(doc);
    let mut b = Builder {
        input: doc,
        out: Vec::new(),
        seen: BTreeSet::new(),
    };
    // The input itself, unchanged: the baseline every reason compares against.
    b.push_input();

    let current_buckets = match &shape.prefix {
        Some(Segment::Salt(s)) => Some(s.buckets),
        Some(Segment::Random(r)) => Some(r.buckets),
        _ => None,
    };
    let counts = bucket_counts(servers, target, current_buckets.or(Some(current_regions)));

    // The input's key with the pre-split its prefix calls for.
    if let Some(prefix) = &shape.prefix {
        if let Some(p) = matched_presplit(prefix, current_regions.max(2)) {
            if p.kind() != layout.presplit.kind() || region_count(&p) != current_regions {
                b.push(vec![describe_presplit(&p)], doc.key.segments.clone(), p);
            }
        }
        // A hash prefix: the region count is the question.
        if matches!(
            prefix,
            Segment::Md5Hex(_) | Segment::Md5(_) | Segment::Hash15(_)
        ) {
            for &n in &counts {
                if let Some(p) = matched_presplit(prefix, n) {
                    b.push(vec![describe_presplit(&p)], doc.key.segments.clone(), p);
                }
            }
        }
    }

    // The body's fields must cover every field of the key, or replacing the prefix would drop
    // one (a time bucket over a field the body does not write, a hash with no body).
    let key_fields = shape::fields_of(&doc.key.segments);
    let body_fields = shape::fields_of(&shape.body);
    let body_complete = !shape.body.is_empty()
        && key_fields.iter().all(|f| body_fields.contains(f))
        && !matches!(shape.prefix, Some(Segment::Md5Hex(_)) if shape.prefix_sep.is_empty());
    if body_complete {
        salt_axes(&mut b, doc, &shape, &fixed, &counts, target);
    }
    Ok(CandidateSet {
        candidates: b.out,
        servers,
        target_regions: target,
        fixed_fields: fixed.into_iter().collect(),
    })
}

/// How a new salt writes its bucket: like the input's salt when it writes digits (with its
/// separator), else one byte.
fn salt_render(shape: &KeyShape, buckets: u32, hash: SaltHash) -> (Render, Vec<Segment>) {
    let dec = match &shape.prefix {
        Some(Segment::Salt(SaltSpec {
            render: Render::Dec(w),
            ..
        })) => Some(*w),
        Some(Segment::Random(r)) => match r.render {
            Render::Dec(w) => Some(w),
            _ => None,
        },
        _ => None,
    };
    match dec {
        Some(w) if hash != SaltHash::Phoenix => (
            Render::Dec(w.max(digits(buckets))),
            shape.prefix_sep.clone(),
        ),
        _ => (Render::Byte, Vec::new()),
    }
}

/// The salt axes over the body in its own order and the rule order: unsalted, and salted
/// with every count, hash and source; then the time encodings.
fn salt_axes(
    b: &mut Builder,
    doc: &DesignDocument,
    shape: &KeyShape,
    fixed: &BTreeSet<String>,
    counts: &[u32],
    target: u32,
) {
    let mut orders: Vec<(Vec<String>, Vec<Segment>)> = vec![(Vec::new(), shape.body.clone())];
    if let Some(o) = shape::rule_order(doc, &shape.body) {
        let names = shape::fields_of(&o).join(", ");
        orders.push((vec![format!("fields reordered ({names})")], o));
    }
    for (order_changes, body) in &orders {
        salted_bodies(b, doc, shape, fixed, counts, target, order_changes, body);
        time_buckets(b, doc, counts, order_changes, body);
    }
    // Time encodings on the last order (the rule order when there is one).
    let Some((order_changes, body)) = orders.last() else {
        return;
    };
    let Some((i, field)) = time_segment(doc, body) else {
        return;
    };
    let mut encodings: Vec<(String, Segment)> = Vec::new();
    let current = body.get(i);
    if wants_latest(doc) && !matches!(current, Some(Segment::Revts(_))) {
        encodings.push((
            format!("reversed timestamp revts({field})"),
            Segment::Revts(RevtsSpec {
                field: field.clone(),
                div: None,
                render: Render::Long,
            }),
        ));
    }
    if matches!(current, Some(Segment::Time(_)) | Some(Segment::Dec(_))) {
        encodings.push((
            format!("time as long({field})"),
            Segment::Long(NumSpec {
                field: field.clone(),
                sortable: false,
            }),
        ));
    }
    if matches!(current, Some(Segment::Long(_)) | Some(Segment::Revts(_))) {
        encodings.push((
            format!("time as text time({field}, \"yyyyMMddHHmmss\")"),
            Segment::Time(TimeSpec {
                field: field.clone(),
                pattern: "yyyyMMddHHmmss".into(),
                unit: Default::default(),
            }),
        ));
    }
    let n = spreading_count(counts, target);
    for (what, seg) in encodings {
        let mut body = body.clone();
        if let Some(slot) = body.get_mut(i) {
            *slot = seg;
        }
        let mut changes = order_changes.clone();
        changes.push(what);
        let sample = PreSplit::SampleQuantiles {
            regions: target,
            sample: None,
            by: crate::region::SplitBy::Rows,
        };
        let mut unsalted = changes.clone();
        unsalted.push("no salt".into());
        unsalted.push(describe_presplit(&sample));
        b.push(unsalted, body.clone(), sample);
        if let Some(n) = n {
            let source = partial_source(fixed, &body);
            let (key, presplit, mut salt_changes) =
                salted(shape, &body, n, SaltHash::Md5, source.as_ref());
            changes.append(&mut salt_changes);
            changes.push(describe_presplit(&presplit));
            b.push(changes, key, presplit);
        }
    }
}

/// The bucket count a salt spreads over `target` regions with: the first of `counts` that
/// reaches it, else the largest.
pub(super) fn spreading_count(counts: &[u32], target: u32) -> Option<u32> {
    counts
        .iter()
        .copied()
        .find(|&n| n >= target)
        .or(counts.last().copied())
}

/// A body that leads with a time keeps it first behind a time bucket, `bucket(ts, mod=N)`
/// as one byte (seed 001's `ts % 100` prefix): consecutive writes cycle through the buckets,
/// and a time range reads one scan per bucket it reaches.
fn time_buckets(
    b: &mut Builder,
    doc: &DesignDocument,
    counts: &[u32],
    order_changes: &[String],
    body: &[Segment],
) {
    let Some((0, field)) = time_segment(doc, body) else {
        return;
    };
    for &n in counts {
        let bucket = Segment::Bucket(crate::keyspec::BucketSpec {
            field: field.clone(),
            modulo: Some(i64::from(n)),
            div: None,
            render: Render::Byte,
        });
        let presplit = PreSplit::SaltBuckets {
            buckets: n,
            style: SaltStyle::Byte,
            width: None,
        };
        let mut changes = order_changes.to_vec();
        changes.push(format!("time bucket {field} % {n}"));
        changes.push(describe_presplit(&presplit));
        let mut key = vec![bucket];
        key.extend(body.iter().cloned());
        b.push(changes, key, presplit);
    }
}

/// The segments of `body` a partial-key salt hashes: those whose fields every read fixes;
/// `None` when there are none or they are the whole body.
fn partial_source(fixed: &BTreeSet<String>, body: &[Segment]) -> Option<Vec<Segment>> {
    let src: Vec<Segment> = body
        .iter()
        .filter(|s| {
            let f = shape::fields_of(std::slice::from_ref(s));
            !f.is_empty() && f.iter().all(|x| fixed.contains(x))
        })
        .cloned()
        .collect();
    let all_fields = shape::fields_of(body);
    let covered = shape::fields_of(&src);
    (!src.is_empty() && covered.len() < all_fields.len()).then_some(src)
}

/// `body` behind a salt of `n` buckets with `hash` over `source` (the whole body when
/// `None`), its pre-split and the phrases saying so.
fn salted(
    shape: &KeyShape,
    body: &[Segment],
    n: u32,
    hash: SaltHash,
    source: Option<&Vec<Segment>>,
) -> (Vec<Segment>, PreSplit, Vec<String>) {
    let (render, sep) = salt_render(shape, n, hash);
    let salt = Segment::Salt(SaltSpec {
        of: source.cloned(),
        buckets: n,
        hash,
        modulo: Default::default(),
        render,
    });
    let presplit = match render {
        Render::Dec(w) => PreSplit::SaltBuckets {
            buckets: n,
            style: SaltStyle::Decimal,
            width: Some(w),
        },
        _ => PreSplit::SaltBuckets {
            buckets: n,
            style: SaltStyle::Byte,
            width: None,
        },
    };
    let of = match source {
        Some(s) => format!(" of {}", shape::fields_of(s).join(", ")),
        None => String::new(),
    };
    let mut key = vec![salt];
    key.extend(sep);
    key.extend(body.iter().cloned());
    (
        key,
        presplit,
        vec![format!("salt {n} buckets, {} hash{of}", hash_name(hash))],
    )
}

/// One body unsalted and salted with every count, hash and source.
#[allow(clippy::too_many_arguments)]
fn salted_bodies(
    b: &mut Builder,
    doc: &DesignDocument,
    shape: &KeyShape,
    fixed: &BTreeSet<String>,
    counts: &[u32],
    target: u32,
    order_changes: &[String],
    body: &[Segment],
) {
    let sample = PreSplit::SampleQuantiles {
        regions: target,
        sample: None,
        by: crate::region::SplitBy::Rows,
    };
    let mut unsalted = order_changes.to_vec();
    if shape.prefix.is_some() {
        unsalted.push("no salt".into());
    }
    unsalted.push(describe_presplit(&sample));
    b.push(unsalted.clone(), body.to_vec(), sample);
    // A body that starts with digits of a non-time field: RegionSplitter's DecimalStringSplit
    // over its width.
    if let Some(Segment::Dec(d)) = body.first() {
        if !shape::is_time_field(doc, &d.field) && (1..=18).contains(&d.width) {
            let dec = PreSplit::DecimalString {
                regions: target,
                first_row: Some("0".repeat(d.width as usize)),
                last_row: Some("9".repeat(d.width as usize)),
            };
            if let Some(last) = unsalted.last_mut() {
                *last = describe_presplit(&dec);
            }
            b.push(unsalted, body.to_vec(), dec);
        }
    }
    let partial = partial_source(fixed, body);
    let sources: Vec<Option<&Vec<Segment>>> = match &partial {
        Some(p) => vec![None, Some(p)],
        None => vec![None],
    };
    for &n in counts {
        for hash in [SaltHash::Md5, SaltHash::JavaString, SaltHash::Phoenix] {
            for source in &sources {
                let (key, presplit, mut salt_changes) = salted(shape, body, n, hash, *source);
                let mut changes = order_changes.to_vec();
                changes.append(&mut salt_changes);
                changes.push(describe_presplit(&presplit));
                b.push(changes, key, presplit);
            }
        }
    }
}
