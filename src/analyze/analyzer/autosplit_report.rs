//! What a report says of auto-split: the rules it followed (policy, flush size, KeyValue
//! counting) with its flushes and compactions, and why it never split when it did not.

use super::*;
use crate::support::num_text::{bytes_text, fixed};

impl Analyzer {
    /// The rules and counts of this run's auto-split; `None` without it.
    pub(super) fn auto_split_rules(&self) -> Option<AutoSplitRules> {
        let auto = self.opts.auto_split.as_ref()?;
        let cell = self.opts.cell_bytes;
        let memstore_bytes = self
            .regions
            .iter()
            .fold(0u64, |a, g| a.saturating_add(g.mem_kv));
        let rules = vec![
            format!(
                "split checks after each memstore flush and each compaction, under {} (n = the table's regions on the region's server), {}",
                auto.policy.class_name(),
                if auto.config.jitter > 0.0 {
                    format!(
                        "each region's size limit jittered by up to ±{} % (hbase.hregion.max.filesize.jitter {}), one draw per region from the run's seed and its start key",
                        fixed(auto.config.jitter * 50.0, 1),
                        auto.config.jitter
                    )
                } else {
                    "no jitter (hbase.hregion.max.filesize.jitter 0)".to_string()
                }
            ),
            format!(
                "a memstore flushes at {} of KeyValue bytes or an hour after its oldest edit; sizes are the store files' bytes",
                bytes_text(self.flush_size)
            ),
            format!(
                "a cell's KeyValue bytes: {} + row + value ({} = 20 + family {} + qualifier {}), times the compression ratio {} on disk",
                cell.overhead(),
                cell.overhead(),
                cell.family_bytes,
                cell.qualifier_bytes,
                cell.compression_ratio
            ),
            "split row: the middle block of the largest store file, as the block index's shortened separator (the index modelled by the file's sampled rows); never its first or last row".into(),
            "daughters hold references to the parent's files and cannot split before their compaction (at their first flush)".into(),
            match self.opts.assignment {
                crate::region::Assignment::Balanced => "daughters open on the server with the fewest regions (the layout's balanced assignment: the balancer's count rule at once; HBase opens them on the parent's server until the balancer runs)".into(),
                _ => "daughters open on the parent's server, as HBase opens them (no balancer runs in the analysis: months of life simulate it)".into(),
            },
            "minor compactions: ExploringCompactionPolicy (3 to 10 files, ratio 1.2)".into(),
        ];
        Some(AutoSplitRules {
            policy: auto.policy.class_name().to_string(),
            flush_size: self.flush_size,
            periodic_flush_ms: PERIODIC_FLUSH_MS,
            key_value_overhead: cell.overhead(),
            compression_ratio: cell.compression_ratio,
            key_value_bytes: self.kv_written,
            flushes: self.flushes,
            compactions: self.compactions,
            memstore_bytes,
            rules,
        })
    }

    /// Why auto-split never split, when it did not: no flush at all (HBase looks at a region
    /// only after one), or the largest region's store files against the size its policy
    /// splits it at, and how far off the run is (a realistic setting, 10 GB regions and a
    /// 128 MB flush, never splits a few megabytes of writes: a heatmap of one bar, which says
    /// nothing unless the page says why).
    pub(super) fn never_split(&self, r: &AnalysisReport) -> Option<String> {
        let auto = self.opts.auto_split.as_ref()?;
        let limits = self.limits?;
        if !r.splits.is_empty() || r.writes == 0 {
            return None;
        }
        if matches!(auto.policy, crate::hbase::policy::SplitPolicy::Disabled) {
            return Some("auto-split is on with the Disabled policy: no region ever splits".into());
        }
        let (disk, mem, on_server, jitter) = self
            .regions
            .iter()
            .map(|g| {
                let s = usize::try_from(g.server).unwrap_or(0);
                let disk: f64 = g.files.iter().map(|f| f.bytes).sum();
                (
                    disk,
                    g.mem_kv,
                    self.server_regions.get(s).copied().unwrap_or(1),
                    g.jitter,
                )
            })
            .max_by(|a, b| {
                (a.0 + self.opts.cell_bytes.on_disk(a.1 as f64))
                    .total_cmp(&(b.0 + self.opts.cell_bytes.on_disk(b.1 as f64)))
            })?;
        let count = i32::try_from(on_server).unwrap_or(i32::MAX);
        let limits = super::autosplit::region_limits(&auto.config, limits, jitter);
        let at = u64::try_from(auto.policy.size_to_check(&limits, count)).unwrap_or(0);
        if self.flushes == 0 {
            let more = (self.flush_size as f64 / mem.max(1) as f64).ceil();
            return Some(format!(
                "auto-split never split: no memstore flushed ({} writes), and HBase checks a region's size only after a flush. \
                 The largest memstore holds {} of KeyValue bytes; a flush takes {} (or an hour from its oldest edit), \
                 and its policy splits a region here at {} of store files. Write about {}x as many records, or \
                 lower memstoreFlushSize and maxFileSize, to see it split",
                r.writes,
                bytes_text(mem),
                bytes_text(self.flush_size),
                bytes_text(at),
                fixed(more, 0),
            ));
        }
        let largest = disk as u64;
        if at == 0 || largest > at {
            return None;
        }
        let more = (at as f64 / (disk + self.opts.cell_bytes.on_disk(mem as f64)).max(1.0)).ceil();
        Some(format!(
            "auto-split never split: the largest region holds {} in store files after the run ({} writes; {} more in its memstore), \
             and its policy splits a region here at {}. Write about {}x as many records, or \
             lower maxFileSize (or memstoreFlushSize, which sets the first splits), to see it split",
            bytes_text(largest),
            r.writes,
            bytes_text(mem),
            bytes_text(at),
            fixed(more, 0),
        ))
    }
}
