// check: a CI gate over one design or several (hotspot, server hotspot, scans, lint, examples).
import * as api from '../../pkg/node/index.js';
import { loadFed, onRegions, readPlans, runAnalysis } from '../lib/analysis.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, pctOf } from '../lib/format.mjs';
import { loadDesign, loadRecords, loadRegions } from '../lib/io.mjs';

export function check(pos, opt) {
  const maxHot = Number(opt.maxHotspot ?? 2.0);
  const maxScans = Number(opt.maxScans ?? 16);
  // A hotspot factor is busiest / mean, never below 1; a read needs at least one scan. A budget
  // under either could never pass: that is a mistake in the command, not a finding.
  if (!Number.isFinite(maxHot) || maxHot < 1)
    throw new CliError(
      EXIT.USAGE,
      `--max-hotspot must be a number of at least 1 (busiest region / mean region), not ${opt.maxHotspot}`,
    );
  if (!Number.isInteger(maxScans) || maxScans < 1)
    throw new CliError(EXIT.USAGE, `--max-scans must be a whole number of at least 1, not ${opt.maxScans}`);
  const maxServerHot = opt.maxServerHotspot === undefined ? undefined : Number(opt.maxServerHotspot);
  if (maxServerHot !== undefined && !(Number.isFinite(maxServerHot) && maxServerHot >= 1))
    throw new CliError(
      EXIT.USAGE,
      `--max-server-hotspot must be a number of at least 1 (busiest server / mean server), not ${opt.maxServerHotspot}`,
    );
  // The severities each --lint level fails on, and what an ok line says about lint.
  const LINT = {
    error: [['error'], ', no lint errors'],
    warning: [['error', 'warning'], ', no lint warnings or errors'],
    off: [[], ''],
  };
  if (!LINT[opt.lint ?? 'error'])
    throw new CliError(EXIT.USAGE, `--lint must be error, warning or off, not ${opt.lint}`);
  const [failOn, clean] = LINT[opt.lint ?? 'error'];
  if (!pos.length) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file or a preset id)');
  // Every design and the rows are read before any design is analyzed: a typo in the last
  // path fails at once, and the rows are read once for all designs.
  const list = loadRegions(opt.regions, opt.table);
  const designs = pos.map(p => onRegions(loadDesign(p), list));
  const rows = opt.records === undefined ? undefined : loadRecords(opt.records);
  const results = designs.map((design, i) => {
    const fed = rows && loadFed(design, rows);
    const r = runAnalysis(design, opt, fed);
    const reads = readPlans(fed?.design ?? design);
    const hot = r.metrics.meanHotspotFactor;
    const breaches = [];
    if (hot > maxHot) breaches.push(`hotspot factor ${hot.toFixed(2)} > ${maxHot}`);
    const serverHot = r.serverMetrics.hotspotFactor;
    const named = r.servers.some(s => s.name !== null);
    if (maxServerHot !== undefined && serverHot > maxServerHot) {
      const busiest = r.servers[r.serverMetrics.busiestRegion ?? 0];
      breaches.push(
        `server hotspot factor ${serverHot.toFixed(2)} > ${maxServerHot} (busiest: ${busiest?.name ?? `server ${busiest?.index ?? 0}`}, ${pctOf(r.serverMetrics.busiestShare)} % of the writes on ${r.servers.length} servers${named ? ' placed as the table has them' : ''})`,
      );
    }
    for (const p of reads)
      if (p.scans.length > maxScans) breaches.push(`read "${p.name}" needs ${p.scans.length} scans > ${maxScans}`);
    // The examples are key tests, failed whatever --lint says: an example whose recorded key
    // the design no longer writes is a row stored where this design will not look.
    const findings = engine(() => api.lintDesign(design));
    const examples = findings.filter(f => f.rule === 'example-key');
    breaches.push(...examples.map(f => f.message));
    const lint = findings.filter(f => f.rule !== 'example-key' && failOn.includes(f.severity));
    for (const f of lint)
      breaches.push(`lint ${f.severity} ${f.rule}${f.segment == null ? '' : ` (segment ${f.segment})`}: ${f.message}`);
    return {
      design: pos[i],
      ok: breaches.length === 0,
      hotspotFactor: hot,
      serverHotspotFactor: serverHot,
      maxScans: Math.max(0, ...reads.map(p => p.scans.length)),
      lint,
      examples,
      breaches,
    };
  });
  const serverOk = res =>
    maxServerHot === undefined ? '' : `, server hotspot ${res.serverHotspotFactor.toFixed(2)} <= ${maxServerHot}`;
  const verdict = res =>
    res.ok
      ? `ok: hotspot ${res.hotspotFactor.toFixed(2)} <= ${maxHot}${serverOk(res)}, scans ${res.maxScans} <= ${maxScans}${clean}`
      : `FAIL:\n${res.breaches.map(b => `  ${b}`).join('\n')}`;
  if (results.length === 1) {
    const { design, ...res } = results[0];
    out(opt, res, () => verdict(res));
  } else {
    out(opt, results, () => results.map(res => `${res.design}: ${verdict(res)}`).join('\n'));
  }
  return results.every(res => res.ok) ? EXIT.OK : EXIT.BUDGET;
}
