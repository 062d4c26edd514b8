// observe: a live table's regions over time, from snapshots of what HBase prints (RegionServer
// /jmx dumps, list_regions, status 'detailed'), as rates per interval (the engine's readSeries);
// with a design, the design's share of writes on the same regions beside the measured share.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../../pkg/node/index.js';
import { observeThrough } from '../../pkg/shared/observe-through.js';
import { runAnalysis } from '../lib/analysis.mjs';
import { CliError, EXIT, engineError } from '../lib/errors.mjs';
import { out, pctOf, printable, table } from '../lib/format.mjs';
import { LIMITS, readText, sizeOf } from '../lib/input.mjs';
import { loadDesign } from '../lib/io.mjs';
import { observeHtml } from '../lib/observe-html.mjs';

/** Whether `file` opens as a /jmx dump (`{` then `"beans"`), read from its first bytes only. */
function isDump(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    return /^\s*\{\s*"beans"/.test(head.subarray(0, n).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * The arguments as snapshot files (a folder: its files by name, hidden ones skipped) and the
 * design: the last of two or more arguments when it is a preset id, a .sql file or a .json
 * file that is not a /jmx dump.
 */
function split(pos) {
  const last = pos.at(-1);
  const designLast =
    pos.length > 1 &&
    (!existsSync(last) ||
      (statSync(last).isFile() && (/\.sql$/i.test(last) || (/\.json$/i.test(last) && !isDump(last)))));
  const paths = designLast ? pos.slice(0, -1) : pos;
  return { files: filesOf(paths), design: designLast ? last : undefined };
}

/** The files of `paths`, a folder's by name. */
function filesOf(paths) {
  return paths.flatMap(p => {
    if (!existsSync(p)) throw new CliError(EXIT.INPUT, `${p}: no such file or folder`);
    if (!statSync(p).isDirectory()) return [p];
    return readdirSync(p)
      .filter(n => !n.startsWith('.'))
      .sort()
      .map(n => join(p, n))
      .filter(f => statSync(f).isFile());
  });
}

/**
 * The series (the engine's readSeries, for `table`) of the files at `paths` (a folder: its files,
 * by name): `observe`'s, and `rekey --series`'s. Sizes first (a file's is known before it is
 * read): one file past its cap, or the series past its total, is refused before any text is held
 * (70 dumps of 60 MB ran the heap out); the engine's rule, the page's too
 * (limits::check_series_sizes).
 */
export async function loadSeries(paths, table) {
  const files = filesOf(paths);
  try {
    api.checkSeriesSizes(files.map(sizeOf));
  } catch (e) {
    const i = /^files\[(\d+)\]$/.exec(e.path ?? '')?.[1];
    if (i === undefined || e.reason === undefined) throw seriesError(e);
    throw new CliError(EXIT.INPUT, `${printable(files[Number(i)])}: ${e.reason}`);
  }
  const input = [];
  for (const f of files) {
    input.push({ name: f, text: await readText(f, LIMITS.regions), modifiedMs: Math.floor(statSync(f).mtimeMs) });
  }
  try {
    return api.readSeries(input, table);
  } catch (e) {
    throw seriesError(e);
  }
}

/** `fileName: reason (line L, column C)`: the engine's message already names the file. */
function seriesError(e) {
  if (e instanceof CliError || e.reason === undefined) return e;
  const at = e.line ? ` (line ${e.line}, column ${e.column})` : '';
  return new CliError(EXIT.INPUT, `${e.reason}${at}${e.path === 'table' ? ' (--table T)' : ''}`);
}

const time = ms => new Date(ms).toISOString().replace('.000Z', 'Z');
const rate = x => (x === null || x === undefined ? '-' : x.toFixed(2));
const mb = b => (b === null || b === undefined ? '-' : (b / 2 ** 20).toFixed(1));
const COUNTED = { difference: '', reopened: 'since reopen', split: 'since split', merged: 'since merge', gap: 'gap' };

/** One line per event: its time and the engine's sentence. */
function eventLines(s) {
  return s.events.map(e => `${time(e.atMs)} ${printable(e.text)}`);
}

function intervalLines(s, iv, labels) {
  const head = `${time(iv.fromMs)} → ${time(iv.toMs)}: ${rate(iv.requestsPerSec)} requests/s`;
  const rows = iv.regions.map(r => [
    r.startKey === '' ? '(first)' : (r.startKey ?? s.regions[r.region].encoded),
    r.endKey === '' ? '(last)' : (r.endKey ?? '-'),
    r.server === null ? '-' : `${r.server}${r.serverMissing ? ' (no dump)' : ''}`,
    rate(r.readsPerSec),
    rate(r.writesPerSec),
    rate(r.requestsPerSec),
    r.share === null ? '-' : pctOf(r.share),
    mb(r.sizeBytes),
    r.growthBytesPerSec === null ? '-' : (r.growthBytesPerSec / 1024).toFixed(1),
    COUNTED[r.counted],
    ...(labels ? [labels[r.region]?.label ?? '-'] : []),
  ]);
  const headers = [
    'start',
    'end',
    'server',
    'reads/s',
    'writes/s',
    'requests/s',
    '%',
    'MB',
    'KB/s',
    '',
    ...(labels ? ['through the key'] : []),
  ];
  const name = i => printable(labels?.[iv.regions[i].region]?.label ?? (iv.regions[i].startKey || '(first)'));
  const servers = iv.servers.map(v =>
    v.serverMissing
      ? [`${v.server} (no dump)`, v.regions, '-', '-', '-']
      : [v.server, v.regions, rate(v.readsPerSec), rate(v.writesPerSec), pctOf(v.share)],
  );
  return [
    head,
    table(rows, headers, [0, 1, 2, 9, 10]),
    `busiest: ${iv.top.map(name).join(', ') || '-'}`,
    ...(servers.length > 1 ? [table(servers, ['server', 'regions', 'reads/s', 'writes/s', '%'], [0])] : []),
  ];
}

/** The series through the design: the composition the page's worker makes too
 * (../../pkg/shared/observe-through.js), the analysis on worker threads. */
async function throughDesign(s, design, opt) {
  try {
    return await observeThrough(api, s, design, d => runAnalysis(d, opt));
  } catch (e) {
    throw engineError(e);
  }
}

const pctOrDash = x => (x === null || x === undefined ? '-' : pctOf(x));

/** The against-design table and the diagnosis, as text. */
function againstLines(o) {
  const a = o.against;
  if (!a) return o.notes.map(n => `* ${printable(n)}`);
  return [
    `${time(a.fromMs)} → ${time(a.toMs)} (the last interval with rates) against the design${a.predictedWrites === null ? '' : ` (${a.predictedWrites} writes of its workload on the same regions)`}:`,
    table(
      a.regions.map(x => [
        x.startKey === '' ? '(first)' : (x.startKey ?? '-'),
        x.decoded ?? '-',
        x.server ?? '-',
        pctOrDash(x.measuredShare),
        pctOrDash(x.predictedShare),
        x.ratio === null ? '-' : `${x.ratio.toFixed(2)}×`,
      ]),
      ['start', 'through the key', 'server', `% of ${a.measure} now`, '% of writes, this design', 'ratio'],
      [0, 1, 2],
    ),
    ...(a.servers.length > 1
      ? [
          table(
            a.servers.map(v => [
              v.server,
              v.regions,
              pctOf(v.regionShare),
              pctOf(v.measuredShare),
              pctOrDash(v.predictedShare),
            ]),
            ['server', 'regions', '% of regions', `% of ${a.measure} now`, '% of writes, this design'],
            [0],
          ),
        ]
      : []),
    ...o.notes.map(n => `* ${printable(n)}`),
    ...(o.diagnosis.length ? ['', 'diagnosis:', ...o.diagnosis.map(d => `- ${printable(d)}`)] : []),
  ];
}

export async function observe(pos, opt) {
  if (pos.length === 0)
    throw new CliError(EXIT.USAGE, 'missing DIR or FILE... (RegionServer /jmx dumps, list_regions, status output)');
  const { files, design: designArg } = split(pos);
  const s = await loadSeries(files, opt.table);
  const design = designArg === undefined ? undefined : await loadDesign(designArg);
  const vs = design ? await throughDesign(s, design, opt) : undefined;
  const labels = vs?.starts;
  const json = { ...s, ...(vs ? { observed: vs } : {}) };
  if (opt.html !== undefined) {
    try {
      writeFileSync(opt.html, observeHtml(s, vs, eventLines(s)));
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${opt.html}: cannot write the report (${e.code ?? e.message})`);
    }
  }
  out(opt, json, () => {
    const first = s.snapshots[0];
    const last = s.snapshots.at(-1);
    return [
      `table ${printable(s.table)}: ${s.snapshots.length} snapshots from ${time(first.timeMs)} to ${time(last.timeMs)}, ${s.files.length} files, ${s.regions.length} regions`,
      ...s.notes.map(n => `* ${printable(n)}`),
      ...s.snapshots
        .filter(x => x.missingServers.length)
        .map(x => `* ${time(x.timeMs)}: no dump of ${x.missingServers.map(printable).join(', ')}`),
      ...(s.events.length ? ['', ...eventLines(s)] : []),
      ...s.intervals.flatMap(iv => ['', ...intervalLines(s, iv, labels)]),
      ...(vs ? ['', ...againstLines(vs)] : []),
    ].join('\n');
  });
}
