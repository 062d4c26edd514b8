// check: a CI gate over one design or several (hotspot, server hotspot, scans, lint, examples;
// and, when asked, the simulated months: empty regions, regions per server). The budgets and the
// verdicts are the engine's (checkDesign / AnalysisSession.check, checkLife); this module reads
// the flags and prints.
import * as api from '../../pkg/node/index.js';
import { onRegions, runAnalysis, windowsOption } from '../lib/analysis.mjs';
import { whole } from '../lib/args.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out } from '../lib/format.mjs';
import { loadDesign, loadRegions } from '../lib/io.mjs';
import { LIFE_OPTIONS, lifeSettings, withHBaseSettings } from '../lib/life-options.mjs';
import { spoolStdin } from '../lib/records.mjs';
import { analyzeRows, withWriteSample } from '../lib/rows.mjs';

/** The flag of each budget member, for errors the engine names by member. */
const FLAGS = {
  maxHotspot: '--max-hotspot',
  maxServerHotspot: '--max-server-hotspot',
  maxScans: '--max-scans',
  lint: '--lint',
};

/** The budgets the flags give (numbers as numbers), and only those: the engine fills in its
 * defaults and checks the ranges (`readBudgets`). */
function budgetsOf(opt) {
  const number = (flag, v) => {
    const n = Number(v);
    if (v === '' || !Number.isFinite(n)) throw new CliError(EXIT.USAGE, `${flag} must be a number, not ${v}`);
    return n;
  };
  const given = {};
  for (const [member, flag] of Object.entries(FLAGS)) {
    const v = opt[member];
    if (v !== undefined) given[member] = member === 'lint' ? v : number(flag, v);
  }
  return given;
}

/** The budgets on the simulated months the flags give (whole numbers, 0 allowed), and only those;
 * none given: the months are not simulated, and a months option alone is a usage error. */
function lifeBudgetsOf(opt) {
  const given = {};
  const empty = whole(opt, 'maxEmptyRegions', 'max-empty-regions', 0);
  const perServer = whole(opt, 'maxRegionsPerServer', 'max-regions-per-server', 0);
  if (empty !== undefined) given.maxEmptyRegions = empty;
  if (perServer !== undefined) given.maxRegionsPerServer = perServer;
  if (!Object.keys(given).length) {
    const stray = LIFE_OPTIONS.find(k => opt[k] !== undefined);
    if (stray)
      throw new CliError(
        EXIT.USAGE,
        `--${stray.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)} sets the simulated months, which check runs only with --max-empty-regions or --max-regions-per-server`,
      );
    return null;
  }
  return given;
}

/** The months' part of a verdict line: what was checked, and how it went. */
function lifeText(life) {
  const part = (f, what) => (f ? `${what} at most ${f.worst} (month ${f.worstMonth}) <= ${f.limit}` : null);
  return [part(life.emptyRegions, 'empty regions'), part(life.regionsPerServer, 'regions on one server')]
    .filter(Boolean)
    .join(', ');
}

/** A failed months gate names the engine's worst finding and its checked fix. */
function worstFinding(life) {
  const f = life && !life.ok ? life.diagnosis?.findings?.[0] : undefined;
  if (!f) return [];
  return [
    `simulated months, the worst finding: ${f.figure}`,
    ...(f.fix ? [`  fix: ${f.fix.change}`, `  checked: ${f.fix.checked}`] : []),
  ];
}

/** What an ok line says about lint at each level. */
const CLEAN = { error: ', no lint errors', warning: ', no lint warnings or errors', off: '' };

export async function check(pos, opt) {
  let budgets;
  try {
    budgets = api.readBudgets(budgetsOf(opt));
  } catch (e) {
    // A budget that could never pass is a mistake in the command, not a finding.
    const member = String(e.path ?? '').replace(/^budgets\./, '');
    if (FLAGS[member]) throw new CliError(EXIT.USAGE, `${FLAGS[member]} ${e.reason ?? e.message}`);
    throw e;
  }
  const lifeBudgets = lifeBudgetsOf(opt);
  const lifeOptions = lifeBudgets ? lifeSettings(opt) : null;
  if (!pos.length) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file or a preset id)');
  // Every design is read and the rows counted before any design is analyzed: a typo in the
  // last path fails at once. Each design then reads the rows again (a sample, then all of them
  // in chunks): they are never held whole.
  const list = await loadRegions(opt.regions, opt.table);
  const designs = [];
  for (const p of pos) designs.push(onRegions(withHBaseSettings(await loadDesign(p), opt), list));
  const checkSession = s => s.check(budgets);
  const results = [];
  // stdin is read once for every design (and once more for the months over the rows): copied
  // whole first.
  const spool = opt.records === '-' && (designs.length > 1 || lifeBudgets) ? await spoolStdin() : null;
  try {
    for (const [i, design] of designs.entries()) {
      if (opt.records === undefined) {
        results.push({ design: pos[i], ...(await runAnalysis(design, opt, undefined, checkSession)) });
      } else {
        const file = spool?.file ?? opt.records;
        const run = await analyzeRows(design, windowsOption(opt), file, opt, spool ? 'stdin' : undefined);
        try {
          results.push({ design: pos[i], ...engine(() => checkSession(run.session)) });
        } finally {
          run.session.free();
        }
      }
    }
    // The months simulated (the engine's gate on them): a verdict of its own under `life`; the
    // design passes when both do. Over --records, with the writes of those rows.
    if (lifeBudgets)
      for (const [i, res] of results.entries()) {
        res.life =
          opt.records === undefined
            ? engine(() => api.checkLife(designs[i], lifeOptions, lifeBudgets))
            : await withWriteSample(
                designs[i],
                spool?.file ?? opt.records,
                opt,
                s => engine(() => s.checkLife(lifeOptions, lifeBudgets)),
                spool ? 'stdin' : undefined,
              );
        res.ok = res.ok && res.life.ok;
      }
  } finally {
    spool?.remove();
  }
  const serverOk = res =>
    budgets.maxServerHotspot == null
      ? ''
      : `, server hotspot ${res.serverHotspotFactor.toFixed(2)} <= ${budgets.maxServerHotspot}`;
  const monthsOk = res => (res.life ? `; ${res.life.months} months simulated: ${lifeText(res.life)}` : '');
  const verdict = res =>
    res.ok
      ? `ok: hotspot ${res.hotspotFactor.toFixed(2)} <= ${budgets.maxHotspot}${serverOk(res)}, scans ${res.maxScans} <= ${budgets.maxScans}${CLEAN[budgets.lint] ?? ''}${monthsOk(res)}`
      : `FAIL:\n${[...res.breaches, ...(res.life?.breaches ?? []).map(b => `simulated months: ${b}`), ...worstFinding(res.life)].map(b => `  ${b}`).join('\n')}`;
  if (results.length === 1) {
    const { design, ...res } = results[0];
    out(opt, res, () => verdict(res));
  } else {
    out(opt, results, () => results.map(res => `${res.design}: ${verdict(res)}`).join('\n'));
  }
  return results.every(res => res.ok) ? EXIT.OK : EXIT.BUDGET;
}
