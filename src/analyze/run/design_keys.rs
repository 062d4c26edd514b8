//! Where an [`AnalysisRun`]'s row keys come from when they are the document's own: the
//! compiled key fed the generator's values (batched, MD5 buckets filled in pairs), and the same
//! key as a [`KeyEncoder`] over generated records.

use super::*;

/// The document's compiled key over the generator's values: the workload writes straight
/// into the encoder's value type (no per-record conversion or copy), reusing its buffers.
pub(super) struct DesignKeys {
    pub(super) key: crate::keyspec::CompiledKey,
    pub(super) decls: Vec<crate::workload::FieldDecl>,
    pub(super) values: Vec<crate::keyspec::FieldValue>,
    /// bigDecimal fields: generated as text, parsed for the encoder.
    pub(super) decimals: Vec<usize>,
}

impl DesignKeys {
    pub(super) fn new(doc: &DesignDocument) -> Result<DesignKeys> {
        let key = compile_key(doc)?;
        let decimals = doc
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.field_type == crate::keyspec::FieldType::BigDecimal)
            .map(|(i, _)| i)
            .collect();
        Ok(DesignKeys {
            key,
            decls: doc.fields.clone(),
            values: Vec::with_capacity(doc.fields.len()),
            decimals,
        })
    }

    /// The next record's values (bigDecimal text parsed); `None` when the stream is done.
    pub(super) fn values(&mut self, stream: &mut WorkloadStream) -> Result<Option<(u64, i64)>> {
        let Some((index, time_ms)) = stream.next_values(&mut self.values) else {
            return Ok(None);
        };
        restart_random_at(&mut self.key, index);
        for &i in &self.decimals {
            if let (Some(slot), Some(decl)) = (self.values.get_mut(i), self.decls.get(i)) {
                if let crate::keyspec::FieldValue::Str(s) = slot {
                    let text = serde_json::Value::String(std::mem::take(s));
                    *slot =
                        crate::keyspec::FieldValue::from_json(&decl.name, decl.field_type, &text)
                            .map_err(|e| record_err(index, e))?;
                }
            }
        }
        Ok(Some((index, time_ms)))
    }

    pub(super) fn next(
        &mut self,
        stream: &mut WorkloadStream,
        out: &mut Vec<u8>,
    ) -> Result<Option<(u64, i64)>> {
        let Some((index, time_ms)) = self.values(stream)? else {
            return Ok(None);
        };
        out.clear();
        self.key
            .encode_values_into(out, &self.values)
            .map_err(|e| record_err(index, e))?;
        Ok(Some((index, time_ms)))
    }

    /// Up to `max` records' keys into `batch` (cleared first), in stream order, with their
    /// MD5 buckets filled in two at a time. An error (generating or encoding record `k`)
    /// stops the batch: the records before `k` are in it, none after, and the error is
    /// returned with them, exactly the one [`next`](Self::next) gives for record `k`.
    pub(super) fn next_batch(
        &mut self,
        stream: &mut WorkloadStream,
        batch: &mut Batch,
        max: usize,
        qualifier: Option<&CompiledQualifier>,
    ) -> Option<Error> {
        batch.clear();
        let mut err = None;
        while batch.times.len() < max {
            let (index, time_ms) = match self.values(stream) {
                Ok(Some(x)) => x,
                Ok(None) => break,
                Err(e) => {
                    err = Some(e);
                    break;
                }
            };
            match self
                .key
                .encode_values_deferred(&mut batch.keys, &self.values)
            {
                Ok(Some(hole)) => batch.holes.push(hole),
                Ok(None) => {}
                Err(e) => {
                    err = Some(record_err(index, e));
                    break;
                }
            }
            batch.ends.push(batch.keys.len());
            batch.times.push(time_ms);
            if let Some(q) = qualifier {
                batch.qualifiers.push(q.of_values(&self.values));
            }
        }
        if let Err(e) = self.key.fill_holes(&mut batch.keys, &batch.holes) {
            // Unreachable (a deferred bucket always renders); report it rather than count
            // keys with a hole.
            batch.clear();
            return Some(e);
        }
        err
    }
}

/// Records per batch of [`AnalysisRun::step`] over the document's own key design.
pub(super) const BATCH: usize = 64;

/// A batch of row keys, one after the other in `keys` (key `i` ends at `ends[i]`), their
/// write times, their column qualifiers (with a `cells` section) and the MD5 buckets still
/// to fill in.
#[derive(Debug, Default)]
pub(super) struct Batch {
    pub(super) keys: Vec<u8>,
    pub(super) ends: Vec<usize>,
    pub(super) times: Vec<i64>,
    pub(super) qualifiers: Vec<u64>,
    pub(super) holes: Vec<crate::keyspec::Hole>,
}

impl Batch {
    pub(super) fn clear(&mut self) {
        self.keys.clear();
        self.ends.clear();
        self.times.clear();
        self.qualifiers.clear();
        self.holes.clear();
    }
}

/// The document's key design compiled as a [`KeyEncoder`] over generated records.
pub fn document_encoder(doc: &DesignDocument) -> Result<KeyEncoder> {
    let mut key = compile_key(doc)?;
    let decls = doc.fields.clone();
    let mut values: Vec<crate::keyspec::FieldValue> = Vec::with_capacity(decls.len());
    Ok(Box::new(move |rec: &Record, out: &mut Vec<u8>| {
        // Reuse the previous record's string buffers: no allocation per record.
        values.truncate(rec.values.len());
        for (i, (decl, v)) in decls.iter().zip(&rec.values).enumerate() {
            match (values.get_mut(i), v) {
                (
                    Some(crate::keyspec::FieldValue::Str(buf)),
                    crate::workload::FieldValue::Str(s),
                ) if decl.field_type != crate::keyspec::FieldType::BigDecimal => {
                    buf.clear();
                    buf.push_str(s);
                }
                (Some(slot), _) => *slot = convert_value(decl, v)?,
                (None, _) => values.push(convert_value(decl, v)?),
            }
        }
        restart_random_at(&mut key, rec.index);
        key.encode_values_into(out, &values)
    }))
}

/// At the first record of a block, restart the key's `random(...)` segments for that block,
/// as the workload restarts its generators: a block counted apart (another worker) then draws
/// what one pass draws there.
pub(super) fn restart_random_at(key: &mut crate::keyspec::CompiledKey, index: u64) {
    if index % crate::workload::BLOCK_RECORDS == 0 && key.has_random() {
        let block = index / crate::workload::BLOCK_RECORDS;
        key.reseed_random(|seed| crate::workload::block_seed(seed, block));
    }
}

/// The document's key design compiled against its fields (errors point into `/key`).
pub(super) fn compile_key(doc: &DesignDocument) -> Result<crate::keyspec::CompiledKey> {
    crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields()).map_err(|e| {
        match e.location.path.clone() {
            Some(p) if !p.starts_with('/') => e.at_path(format!("/key/{p}")),
            _ => e,
        }
    })
}

/// A generated value as the key encoder's value type.
pub(in crate::analyze) fn convert_value(
    decl: &crate::workload::FieldDecl,
    v: &crate::workload::FieldValue,
) -> Result<crate::keyspec::FieldValue> {
    use crate::keyspec::FieldValue as K;
    use crate::workload::FieldValue as W;
    Ok(match v {
        W::Str(s) if decl.field_type == crate::keyspec::FieldType::BigDecimal => K::from_json(
            &decl.name,
            decl.field_type,
            &serde_json::Value::String(s.clone()),
        )?,
        W::Str(s) => K::Str(s.clone()),
        W::Long(x) => K::Long(*x),
        W::Double(x) => K::Double(*x),
        W::Bool(b) => K::Bool(*b),
    })
}
