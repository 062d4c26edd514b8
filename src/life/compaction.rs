//! Compactions of a region's store: the request after a flush or from the chore, the
//! selection (Exploring, a major when due or when references remain, FIFO's expired files),
//! the TTL's expired files and cells, and the major compaction's jittered period.

use super::settings::CompactionPolicy;
use super::sim::{splitmix, EventKind, Region, Sim};
use super::store;

impl Sim<'_> {
    /// A compaction request for region `i` (`HStore.requestCompaction`), made after a flush
    /// when the store needs one (`min` files) and by the chore also when a major is due:
    /// expired whole files first, then the selection (all files when a store holds
    /// references or a major is due). Returns whether anything was rewritten or deleted.
    pub fn request_compaction(&mut self, i: usize, from_chore: bool) -> bool {
        let fifo = self.s.compaction.policy == CompactionPolicy::Fifo;
        let refs = self.regions.get(i).is_some_and(Region::has_references);
        if fifo && !refs {
            return self.fifo_compaction(i);
        }
        let cc = &self.s.compaction;
        let (min, max) = (cc.min_files as usize, cc.max_files as usize);
        let n = self.regions.get(i).map_or(0, |r| r.files().len());
        let major_due = from_chore && self.major_due(i);
        if !(refs || major_due || n >= min) {
            return false;
        }
        self.remove_expired_files(i);
        let Some(r) = self.regions.get(i) else {
            return false;
        };
        let n = r.files().len();
        if n == 0 {
            return true;
        }
        if refs || (major_due && n < max) {
            self.rewrite(i, 0, n, true);
            return true;
        }
        if n < min {
            return true;
        }
        if r.nothing_to_select {
            return false;
        }
        let ratio = self.s.compaction.ratio;
        match store::explore(r.files(), min, max, ratio, self.flush_size) {
            Some((a, b)) => {
                self.rewrite(i, a, b + 1, false);
                true
            }
            None => {
                if let Some(r) = self.regions.get_mut(i) {
                    r.nothing_to_select = true;
                }
                false
            }
        }
    }

    /// `DefaultStoreFileManager.getUnneededFiles`: files wholly past the TTL, but the newest.
    fn remove_expired_files(&mut self, i: usize) {
        if self.ttl_steps.is_none() {
            return;
        }
        let Some(r) = self.regions.get(i) else {
            return;
        };
        let newest = r.files().iter().map(|f| f.seq).max();
        let keep: Vec<bool> = r
            .files()
            .iter()
            .map(|f| f.reference || Some(f.seq) == newest || !self.file_expired(f))
            .collect();
        if keep.iter().all(|k| *k) {
            return;
        }
        self.drop_files(i, &keep);
    }

    /// Delete region `i`'s files whose `keep` is false, their bytes counted as expired.
    fn drop_files(&mut self, i: usize, keep: &[bool]) {
        let mut dropped = 0.0;
        let mut k = keep.iter();
        self.edit_files(i, |files| {
            files.retain(|f| {
                let kept = k.next().copied().unwrap_or(true);
                if !kept {
                    dropped += f.bytes;
                }
                kept
            });
        });
        self.expired += dropped;
    }

    /// `FIFOCompactionPolicy`: delete the files wholly past the TTL; rewrite nothing.
    fn fifo_compaction(&mut self, i: usize) -> bool {
        let Some(r) = self.regions.get(i) else {
            return false;
        };
        let keep: Vec<bool> = r
            .files()
            .iter()
            .map(|f| f.bytes > 0.0 && !self.file_expired(f))
            .collect();
        if keep.iter().all(|k| *k) {
            return false;
        }
        self.drop_files(i, &keep);
        true
    }

    /// `RatioBasedCompactionPolicy.shouldPerformMajorCompaction`: the oldest file is older
    /// than the jittered period; a single major-compacted file only when its oldest cell has
    /// passed the TTL.
    fn major_due(&self, i: usize) -> bool {
        let Some(r) = self.regions.get(i) else {
            return false;
        };
        if self.major_period_steps <= 0.0 || r.files().is_empty() {
            return false;
        }
        let oldest = r.files().iter().map(|f| f.mtime).min().unwrap_or(self.t);
        // Files younger than the shortest jittered period: not due, whatever the draw (the
        // chore asks every region, most of them not due).
        let jitter = self.major_jitter_steps;
        if f64::from(oldest) >= self.now() - self.major_shortest_steps {
            return false;
        }
        // StoreUtils.getDeterministicRandomSeed: the jitter is fixed for a set of files.
        let first_seq = r.files().first().map_or(0, |f| f.seq);
        let mut h = self.s.seed ^ r.id.wrapping_mul(0x9E37_79B9) ^ first_seq.rotate_left(32);
        let u = (splitmix(&mut h) >> 11) as f64 / (1u64 << 53) as f64;
        let next = self.major_period_steps + jitter - (2.0 * jitter * u).round();
        if f64::from(oldest) >= self.now() - next {
            return false;
        }
        match r.files() {
            [only] if only.major => self
                .ttl_steps
                .is_some_and(|ttl| f64::from(only.min_step) + 1.0 <= self.now() - ttl),
            _ => true,
        }
    }

    /// Rewrite files `a..b` of region `i` into one, dropping cells past the TTL.
    fn rewrite(&mut self, i: usize, a: usize, b: usize, major: bool) {
        let (cut, bin_steps, t) = (self.cutoff(), self.bin_steps, self.t);
        let Some(r) = self.regions.get(i) else {
            return;
        };
        let Some(window) = r.files().get(a..b) else {
            return;
        };
        let id = r.id;
        let before: f64 = window.iter().map(|f| f.bytes).sum();
        let out = store::compact(window, cut, bin_steps, t, major);
        let after = out.as_ref().map_or(0.0, |f| f.bytes);
        self.edit_files(i, |files| {
            files.splice(a..b, out);
        });
        self.expired += (before - after).max(0.0);
        let files = u32::try_from(b - a).unwrap_or(u32::MAX);
        self.c.month.compaction_bytes += after;
        if major {
            self.c.month.major_compactions += 1;
            self.c.day_majors += 1;
            self.note_io(EventKind::MajorCompaction, id, files, after);
        } else {
            self.c.month.minor_compactions += 1;
            self.note_io(EventKind::MinorCompaction, id, files, after);
        }
    }
}
