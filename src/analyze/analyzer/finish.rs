//! The analyzer's report: per region, per server, the matrices, the sample, metrics and
//! diagnosis, from what it counted.

use super::*;
use crate::analyze::RowRecount;

impl Analyzer {
    /// The report: per region, per server, the matrices, the sample, metrics and diagnosis.
    pub fn finish(&self) -> AnalysisReport {
        self.finish_for(None)
    }

    /// [`finish`](Self::finish) for a key design that does or does not lead with a timestamp
    /// or sequence (see [`diagnose`]).
    pub fn finish_for(&self, led_by_time: Option<bool>) -> AnalysisReport {
        self.finish_counted(led_by_time, None)
    }

    /// [`finish_for`](Self::finish_for) with the rows recounted exactly elsewhere (see
    /// [`RowRecount`]) in place of this analyzer's own counts of them: the largest rows and
    /// the distinct rows of the table, each region and server, as when it counts every row
    /// itself. A recount that does not fit these counts (another table's, a key counted in
    /// two groups) is refused; so is a design with a `cells` section (a recount of rows says
    /// nothing of the versions each cell keeps).
    pub fn finish_recounted(
        &self,
        led_by_time: Option<bool>,
        recount: &RowRecount,
    ) -> Result<AnalysisReport> {
        if self.opts.versions.is_some() {
            return Err(crate::analyze::recount::cells_not_recounted());
        }
        let writes: Vec<u64> = self
            .regions
            .iter()
            .map(|r| r.windows.iter().fold(0u64, |a, c| a.saturating_add(*c)))
            .collect();
        recount.check(&writes, |k| self.region_of(k))?;
        Ok(self.finish_counted(led_by_time, Some(recount)))
    }

    fn finish_counted(
        &self,
        led_by_time: Option<bool>,
        recount: Option<&RowRecount>,
    ) -> AnalysisReport {
        let windows = self.windows;
        let exact = self.exact.as_deref();
        let exact_regions = match recount {
            Some(c) => Some(c.region_distinct_rows.clone()),
            None => exact.map(|x| self.distinct_per_region(x)),
        };
        let counted = exact_regions.is_some();
        let distinct_rows = match recount {
            Some(c) => c.distinct_rows(),
            None => self.table_distinct_rows(),
        };
        let (cells, regions) = self.region_reports(exact_regions.as_deref());
        let table_cells = self.table_cells();
        let region_metrics = metrics::matrix_metrics(&cells, self.regions.len(), windows)
            .unwrap_or_else(|_| empty_matrix_metrics());
        let grid_rows = usize::try_from(self.opts.grid_buckets).unwrap_or(1);
        let grid_metrics = metrics::matrix_metrics(&self.grid, grid_rows, windows)
            .unwrap_or_else(|_| empty_matrix_metrics());
        let servers = self.server_reports(&regions, distinct_rows, table_cells);
        let server_loads: Vec<u64> = servers.iter().map(|s| s.rows).collect();
        let matrix = Matrix {
            rows: self.regions.len(),
            cols: windows,
            cells: cells.iter().map(|c| sat32(*c)).collect(),
        };
        let grid = Matrix {
            rows: grid_rows,
            cols: windows,
            cells: self.grid.iter().map(|c| sat32(*c)).collect(),
        };
        let report = AnalysisReport {
            writes: self.writes,
            bytes: self.bytes,
            distinct_rows,
            distinct_rows_error: if counted {
                0.0
            } else {
                rows::relative_bound(rows::TABLE_PRECISION)
            },
            distinct_rows_exact: counted,
            writes_share_rows: distinct_rows > 0
                && self.writes as f64 >= crate::analyze::SHARED_ROWS_RATIO * distinct_rows as f64,
            cells: table_cells,
            largest_rows: self.largest_rows(recount, exact),
            largest_rows_exact: counted,
            writes_outside_windows: self.outside,
            start_time_ms: self.opts.start_time_ms,
            window_ms: self.opts.window_ms,
            windows,
            write_rate: {
                let seconds = windows as f64 * self.opts.window_ms as f64 / 1000.0;
                if seconds > 0.0 {
                    self.writes as f64 / seconds
                } else {
                    0.0
                }
            },
            regions,
            servers,
            matrix,
            grid,
            grid_buckets: self.opts.grid_buckets,
            sample: self.sorted_sample(),
            metrics: region_metrics,
            grid_metrics,
            server_metrics: metrics::load_metrics(&server_loads),
            presplit_keys_hex: self.presplit_keys_hex(),
            splits: self.splits.clone(),
            split_limit_reached: self.split_limit_reached,
            spread: Default::default(),
            diagnosis: Vec::new(),
            split_sizes: None,
            auto_split: self.auto_split_rules(),
            indexes: Vec::new(),
        };
        self.diagnosed(report, led_by_time)
    }

    /// Each region's report and the region × window matrix's cells (row by row). With
    /// `exact_regions` (every row counted, or recounted) a region's distinct rows are exact;
    /// else its sketch's estimate, with the sketch's error.
    fn region_reports(&self, exact_regions: Option<&[u64]>) -> (Vec<u64>, Vec<RegionReport>) {
        let counted = exact_regions.is_some();
        let region_error = rows::relative_bound(rows::REGION_PRECISION);
        let mut cells = Vec::with_capacity(self.regions.len().saturating_mul(self.windows));
        let mut regions = Vec::with_capacity(self.regions.len());
        for (i, r) in self.regions.iter().enumerate() {
            cells.extend_from_slice(&r.windows);
            let writes = r.windows.iter().fold(0u64, |a, c| a.saturating_add(*c));
            regions.push(RegionReport {
                index: i,
                start_key_hex: to_hex(&r.start),
                start_key: to_string_binary(&r.start),
                end_key_hex: to_hex(&r.end),
                end_key: to_string_binary(&r.end),
                rows: r.rows,
                bytes: r.bytes,
                writes,
                distinct_rows: match exact_regions {
                    Some(d) => d.get(i).copied().unwrap_or(0),
                    None => count(r.distinct.estimate(), writes),
                },
                distinct_rows_exact: counted,
                distinct_rows_error: if counted { 0.0 } else { region_error },
                cells: self.cells_of(r.cells.estimate(), writes),
                unsplittable: r.unsplittable,
                created_at_ms: r.created_at,
                server: r.server,
            });
        }
        (cells, regions)
    }

    /// The table's cells: exact while the cell sample holds every cell (versions kept), else
    /// the cell sketch's estimate.
    fn table_cells(&self) -> u64 {
        match self.opts.versions {
            Some(v) if v > 1 && self.cell_sample.exact() => {
                count(self.cell_sample.kept(v), self.writes)
            }
            _ => self.cells_of(self.cells.estimate(), self.writes),
        }
    }

    /// Each server's report. A server's distinct rows and cells are the sums of its regions'
    /// (their key ranges are disjoint, so no row counts twice), or the table's when it is the
    /// only server.
    fn server_reports(
        &self,
        regions: &[RegionReport],
        distinct_rows: u64,
        table_cells: u64,
    ) -> Vec<ServerReport> {
        let windows = self.windows;
        let one_server = self.server_regions.len() == 1;
        let mut server_rows_cells = vec![(0u64, 0u64); self.server_regions.len()];
        for g in regions {
            if let Some(x) = server_rows_cells.get_mut(usize::try_from(g.server).unwrap_or(0)) {
                *x = (
                    x.0.saturating_add(g.distinct_rows),
                    x.1.saturating_add(g.cells),
                );
            }
        }
        (0..self.server_regions.len())
            .map(|s| ServerReport {
                index: u32::try_from(s).unwrap_or(0),
                name: self.server_names.get(s).cloned(),
                // Kept current through every placement and split (a count per server, not a
                // pass over the regions for each of up to 10,000 servers).
                regions: self.server_regions.get(s).map_or(0, |&c| c as usize),
                rows: self.server_rows.get(s).copied().unwrap_or(0),
                bytes: self.server_bytes.get(s).copied().unwrap_or(0),
                distinct_rows: if one_server {
                    distinct_rows
                } else {
                    server_rows_cells.get(s).map_or(0, |x| x.0)
                },
                cells: if one_server {
                    table_cells
                } else {
                    server_rows_cells.get(s).map_or(0, |x| x.1)
                },
                writes_per_window: self
                    .server_windows
                    .get(s * windows..(s + 1) * windows)
                    .map(|c| c.iter().map(|x| sat32(*x)).collect())
                    .unwrap_or_default(),
            })
            .collect()
    }

    /// The split keys the run started from, hex: today's minus the ones its splits added.
    fn presplit_keys_hex(&self) -> Vec<String> {
        let added: std::collections::HashSet<&str> = self
            .splits
            .iter()
            .map(|s| s.split_key_hex.as_str())
            .collect();
        self.split_keys
            .iter()
            .map(|k| to_hex(k))
            .filter(|k| !added.contains(k.as_str()))
            .collect()
    }

    /// The key sample in HBase's order (bytes), each key with its final region.
    fn sorted_sample(&self) -> Vec<SampleKey> {
        let mut sample: Vec<&Vec<u8>> = self.sample.keys().collect();
        sample.sort_unstable();
        sample
            .into_iter()
            .map(|k| SampleKey {
                key: k.clone(),
                region: self.region_of(k),
            })
            .collect()
    }

    /// The largest rows: a recount's or this analyzer's exact counts (no error), else the
    /// sketch's, each with its error bounds.
    fn largest_rows(
        &self,
        recount: Option<&RowRecount>,
        exact: Option<&ExactRows>,
    ) -> Vec<LargestRow> {
        match (recount, exact) {
            (Some(c), _) => c
                .largest_rows
                .iter()
                .map(|r| LargestRow {
                    key: r.key.clone(),
                    region: self.region_of(&r.key),
                    writes: r.writes,
                    cells: r.writes,
                    bytes: r.bytes,
                    writes_error: 0,
                    bytes_error: 0,
                })
                .collect(),
            (None, Some(x)) => self.exact_largest(x),
            (None, None) => self
                .final_largest()
                .largest()
                .into_iter()
                .map(|m| LargestRow {
                    key: m.key.clone(),
                    region: self.region_of(&m.key),
                    writes: m.writes,
                    cells: m.cells(self.opts.versions),
                    bytes: m.bytes,
                    writes_error: m.writes_error(),
                    bytes_error: m.bytes_error(),
                })
                .collect(),
        }
    }

    /// `report` with its diagnosis: the design's findings, the rows past the split size, and
    /// why auto-split never split (with the sizes it would split at, unless it is disabled).
    fn diagnosed(&self, mut report: AnalysisReport, led_by_time: Option<bool>) -> AnalysisReport {
        report.spread = spread_of(&report);
        report.diagnosis = diagnose(&report, led_by_time);
        let limit = self.limits.map_or(DEFAULT_ROW_LIMIT, |l| {
            u64::try_from(l.desired_max_file_size).unwrap_or(0)
        });
        report.diagnosis.extend(row_findings(&report, limit));
        if let Some(why) = self.never_split(&report) {
            report.diagnosis.push(why);
            let disabled =
                self.opts.auto_split.as_ref().is_some_and(|a| {
                    matches!(a.policy, crate::hbase::policy::SplitPolicy::Disabled)
                });
            if !disabled {
                report.split_sizes = Some(SplitSizes::for_bytes(report.bytes));
            }
        }
        report
    }

    /// The table's distinct rows: exact while every row is counted, else the sketch's.
    fn table_distinct_rows(&self) -> u64 {
        match self.exact.as_deref() {
            Some(x) => x.rows().len() as u64,
            None => count(self.distinct.estimate(), self.writes),
        }
    }

    /// The distinct rows of each final region, from the rows counted exactly: a row is in
    /// the region whose key range holds its key.
    fn distinct_per_region(&self, x: &ExactRows) -> Vec<u64> {
        let mut n = vec![0u64; self.regions.len()];
        for r in x.rows() {
            if let Some(c) = n.get_mut(self.region_of(x.key(r))) {
                *c = c.saturating_add(1);
            }
        }
        n
    }

    /// The largest rows from the rows counted exactly: by bytes, ties by key.
    fn exact_largest(&self, x: &ExactRows) -> Vec<LargestRow> {
        let top = x.largest(largest::LARGEST_ROWS);
        let kept = self.opts.versions.map(|v| x.cells_kept(&top, v));
        top.iter()
            .enumerate()
            .filter_map(|(i, &t)| {
                let r = x.rows().get(t as usize)?;
                let key = x.key(r).to_vec();
                Some(LargestRow {
                    region: self.region_of(&key),
                    key,
                    writes: r.writes,
                    cells: kept
                        .as_ref()
                        .map_or(r.writes, |k| k.get(i).copied().unwrap_or(0)),
                    bytes: r.bytes,
                    writes_error: 0,
                    bytes_error: 0,
                })
            })
            .collect()
    }

    /// The cells kept of a key range, server or table with `writes` writes and distinct
    /// cells `d`: its writes when every write is its own cell; else its distinct cells times
    /// the versions a cell keeps on average (from the cell sample).
    fn cells_of(&self, distinct_cells: f64, writes: u64) -> u64 {
        match self.opts.versions {
            None => writes,
            Some(1) => count(distinct_cells, writes),
            Some(v) => count(distinct_cells * self.cell_sample.kept_per_cell(v), writes),
        }
    }
}

/// An estimate as a count: rounded, and at most `max` (the writes it counts among).
fn count(estimate: f64, max: u64) -> u64 {
    (libm::round(estimate.max(0.0)) as u64).min(max)
}

fn sat32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

fn empty_matrix_metrics() -> MatrixMetrics {
    MatrixMetrics {
        regions: 0,
        windows: 0,
        per_window: Vec::new(),
        overall: metrics::load_metrics(&[]),
        loaded_windows: 0,
        mean_active_regions: 0.0,
        mean_hotspot_factor: 0.0,
        max_hotspot_factor: 0.0,
        mean_effective_parallelism: 0.0,
        min_effective_parallelism: 0.0,
        mean_busiest_share: 0.0,
        max_busiest_share: 0.0,
    }
}
