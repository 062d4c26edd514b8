//! Rules that measure instead of reasoning from the key's shape: a sample of the design's own
//! workload run through its key, and through the key with one thing changed. Where a rule of
//! thumb ("a salt spreads writes evenly") fails on this workload, the finding gives the
//! measured figure and the change that fixes it, measured too.

use super::{finding, Finding, Severity, Subject};
use crate::keyspec::{CompiledKey, FieldValue, KeySpec, SaltHash, Segment};
use crate::workload::{WorkloadSpec, WorkloadStream};

/// Records sampled from the workload: a bucket's share is then known to a few per cent at the
/// bucket counts salts use (up to 256), and lint stays quick.
const SAMPLE: u64 = 10_000;
/// A salt is uneven when its busiest bucket takes this many times the mean…
const UNEVEN: f64 = 1.5;
/// …and another hash over the same source brings that to at most this.
const EVEN: f64 = 1.25;

/// The busiest bucket's share over the mean of a leading salt's `buckets`, over `SAMPLE`
/// records of the workload: the salt's bytes are the key's first `width` bytes.
fn spread(doc_key: &KeySpec, s: &Subject, buckets: u32, width: usize) -> Option<f64> {
    let mut ck = CompiledKey::new(doc_key, &s.doc.key_fields()).ok()?;
    let mut spec: WorkloadSpec = s.doc.workload.clone().unwrap_or_default();
    spec.records = spec.records.min(SAMPLE);
    let mut stream = WorkloadStream::new(&spec, &s.doc.fields).ok()?;
    let mut counts = std::collections::HashMap::<Vec<u8>, u64>::new();
    let mut values: Vec<FieldValue> = Vec::new();
    let mut key = Vec::new();
    let mut n = 0u64;
    while stream.next_values(&mut values).is_some() {
        key.clear();
        ck.encode_values_into(&mut key, &values).ok()?;
        *counts.entry(key.get(..width)?.to_vec()).or_default() += 1;
        n += 1;
    }
    let max = counts.values().copied().max()?;
    (n > 0).then(|| max as f64 * f64::from(buckets) / n as f64)
}

/// A leading salt whose buckets come out uneven on this workload where another hash over the
/// same source does not: both measured, and the hash to use.
pub(super) fn salt_skew(s: &Subject, out: &mut Vec<Finding>) {
    let Some(Segment::Salt(salt)) = s.doc.key.segments.first() else {
        return;
    };
    let layout = s.ck.layout();
    let Some(width) = layout.first().and_then(|l| l.width.fixed()) else {
        return;
    };
    // enough records per bucket for the share to mean something
    if salt.buckets < 2 || u64::from(salt.buckets) * 20 > SAMPLE {
        return;
    }
    let Some(declared) = spread(&s.doc.key, s, salt.buckets, width) else {
        return;
    };
    if declared < UNEVEN {
        return;
    }
    // the alternatives write the bucket the same way (same width), so only the hash changes
    let mut best: Option<(SaltHash, f64)> = None;
    for alt in [SaltHash::Md5, SaltHash::Phoenix] {
        if alt == salt.hash || (alt == SaltHash::Phoenix && salt.buckets > 256) {
            continue;
        }
        let mut key = s.doc.key.clone();
        if let Some(Segment::Salt(x)) = key.segments.first_mut() {
            x.hash = alt;
        }
        if let Some(v) = spread(&key, s, salt.buckets, width) {
            if !matches!(best, Some((_, b)) if b <= v) {
                best = Some((alt, v));
            }
        }
    }
    let Some((alt, even)) = best.filter(|&(_, v)| v <= EVEN) else {
        return;
    };
    let why = match salt.hash {
        SaltHash::JavaString | SaltHash::Arrays => {
            " (a Java hash of similar texts, such as digits, differs in few bits, and its remainder \
             by the bucket count keeps few of them)"
        }
        _ => "",
    };
    out.push(finding(
        "salt-skew",
        Severity::Warning,
        Some(0),
        format!(
            "on {SAMPLE} records of this workload the salt's {} hash fills its {} buckets unevenly: \
             the busiest takes {declared:.2}x the mean{why}; hash={} over the same source gives \
             {even:.2}x",
            salt.hash.name(),
            salt.buckets,
            alt.name(),
        ),
    ));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::design::{lint, DesignDocument};
    use crate::keyspec::CompiledKey;

    /// Order numbers from 10,000 up, salted by their decimal text into 32 buckets.
    const SEQUENTIAL: &str = r#"{"v": 1,
      "fields": [{"name": "order", "type": "long", "generator": {"kind": "sequence", "start": 10000}}],
      "key": "salt(str(order), 32) + long(order)",
      "workload": {"records": 50000, "seed": 3}}"#;

    /// The busiest of 32 first bytes over the mean, for orders 10,000..19,999 (the sample's
    /// records), counted here with the key as the key language writes it.
    fn busiest_over_mean(key: &str) -> f64 {
        let mut doc = DesignDocument::from_json(SEQUENTIAL).unwrap();
        doc.key = crate::keyspec::KeySpec::parse_text(key).unwrap();
        let mut ck = CompiledKey::new(&doc.key, &doc.key_fields()).unwrap();
        let mut counts = [0u32; 256];
        for order in 10_000..20_000 {
            let rec = serde_json::json!({ "order": order });
            let k = ck.encode_json(rec.as_object().unwrap()).unwrap();
            counts[usize::from(k[0])] += 1;
        }
        f64::from(*counts.iter().max().unwrap()) * 32.0 / 10_000.0
    }

    #[test]
    fn an_uneven_java_hash_salt_is_measured_and_the_fix_named() {
        let doc = DesignDocument::from_json(SEQUENTIAL).unwrap();
        let f = lint(&doc);
        let skew = f.iter().find(|f| f.rule == "salt-skew").expect("salt-skew");
        let java = busiest_over_mean("salt(str(order), 32) + long(order)");
        let md5 = busiest_over_mean("salt(str(order), 32, hash=md5) + long(order)");
        assert!(java > 1.5 && md5 < 1.25, "{java} {md5}");
        assert!(
            skew.message
                .contains(&format!("the busiest takes {java:.2}x the mean")),
            "{}",
            skew.message
        );
        assert!(
            skew.message
                .contains(&format!("hash=md5 over the same source gives {md5:.2}x")),
            "{}",
            skew.message
        );
        assert_eq!(skew.segment, Some(0));
    }

    #[test]
    fn an_even_salt_says_nothing() {
        let mut doc = DesignDocument::from_json(SEQUENTIAL).unwrap();
        doc.key =
            crate::keyspec::KeySpec::parse_text("salt(str(order), 32, hash=md5) + long(order)")
                .unwrap();
        assert!(lint(&doc).iter().all(|f| f.rule != "salt-skew"));
        let telecom = crate::design::presets::get("seed000-telecom").unwrap();
        assert!(lint(&telecom).iter().all(|f| f.rule != "salt-skew"));
    }
}
