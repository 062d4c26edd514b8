// observe: a live table's regions over time, from snapshots of what HBase prints (RegionServer
// /jmx dumps, list_regions, status 'detailed'), as rates per interval (the engine's readSeries);
// with a design, the design's share of writes on the same regions beside the measured share.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../../pkg/node/index.js';
import { onRegions, runAnalysis } from '../lib/analysis.mjs';
import { CliError, EXIT, engine } from '../lib/errors.mjs';
import { out, pctOf, table } from '../lib/format.mjs';
import { LIMITS, readText } from '../lib/input.mjs';
import { loadDesign } from '../lib/io.mjs';

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
  const files = paths.flatMap(p => {
    if (!existsSync(p)) throw new CliError(EXIT.INPUT, `${p}: no such file or folder`);
    if (!statSync(p).isDirectory()) return [p];
    return readdirSync(p)
      .filter(n => !n.startsWith('.'))
      .sort()
      .map(n => join(p, n))
      .filter(f => statSync(f).isFile());
  });
  return { files, design: designLast ? last : undefined };
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

/** One line per event, naming regions by their start keys. */
function eventLines(s) {
  const key = i => {
    const k = s.regions[i]?.startKey;
    return k === null || k === undefined ? s.regions[i]?.encoded : k === '' ? '(first)' : k;
  };
  const at = e => time(s.snapshots[e.snapshot].timeMs);
  return s.events.map(e => {
    switch (e.kind) {
      case 'split':
        return `${at(e)} split: ${key(e.parent)} into ${e.daughters.map(key).join(', ')}`;
      case 'merge':
        return `${at(e)} merge: ${e.parents.map(key).join(', ')} into ${key(e.merged)}`;
      case 'move':
        return `${at(e)} move: ${key(e.region)} from ${e.from} to ${e.to} (counters restart)`;
      case 'reopen':
        return `${at(e)} reopen: ${key(e.region)} (a counter went down, or its server restarted)`;
      case 'gap':
        return `${at(e)} gap: ${key(e.region)} not read${e.missingServer ? ` (no dump of ${e.missingServer})` : ''}`;
      default:
        return `${at(e)} gone: ${key(e.region)}`;
    }
  });
}

/** Each region's start key read through the design's key (null without a start key). */
function decodeStarts(s, design) {
  const keyed = [];
  for (const [i, r] of s.regions.entries()) if (r.startKey !== null) keyed.push(i);
  const keys = keyed.map(i => api.toBytesBinary(s.regions[i].startKey));
  const bounds = engine(() => api.decodeBoundaries(design, keys));
  const out = s.regions.map(() => null);
  for (const [j, i] of keyed.entries()) out[i] = bounds[j];
  return out;
}

function intervalLines(s, iv, labels) {
  const head = `${time(iv.fromMs)} → ${time(iv.toMs)}: ${rate(iv.requestsPerSec)} requests/s`;
  const rows = iv.regions.map(r => [
    r.startKey === '' ? '(first)' : (r.startKey ?? s.regions[r.region].encoded),
    r.endKey === '' ? '(last)' : (r.endKey ?? '-'),
    r.server ?? '-',
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
  const name = i => labels?.[iv.regions[i].region]?.label ?? (iv.regions[i].startKey || '(first)');
  const servers = iv.servers.map(v => [v.server, v.regions, rate(v.readsPerSec), rate(v.writesPerSec), pctOf(v.share)]);
  return [
    head,
    table(rows, headers, [0, 1, 2, 9, 10]),
    `busiest: ${iv.top.map(name).join(', ') || '-'}`,
    ...(servers.length > 1 ? [table(servers, ['server', 'regions', 'reads/s', 'writes/s', '%'], [0])] : []),
  ];
}

/** The design on the regions of the last interval with rates, its share of writes beside the
 * share measured in that interval. */
async function againstDesign(s, design, opt, labels) {
  const layout = s.layout;
  // The interval that ends at the layout's snapshot: the last with rates.
  const last = layout && s.intervals[layout.snapshot - 1];
  if (!last) return { lines: ['(no comparison with the design: see the notes)'] };
  const r = await runAnalysis(onRegions(design, layout), opt);
  if (r.regions.length !== layout.regions.length) {
    return { lines: ['(no comparison: the design split the regions further as it ran)'] };
  }
  const measured = last.regions.map(x => x.writesPerSec ?? x.requestsPerSec);
  const total = measured.reduce((a, x) => a + (x ?? 0), 0);
  const rows = last.regions.map((x, i) => ({
    startKey: x.startKey,
    decoded: labels[x.region]?.label ?? null,
    server: x.server,
    measuredShare: total > 0 && measured[i] !== null ? measured[i] / total : null,
    designShare: r.writes ? r.regions[i].writes / r.writes : 0,
  }));
  const what = last.regions.some(x => x.writesPerSec !== null) ? 'writes' : 'requests';
  return {
    rows,
    lines: [
      `${time(last.fromMs)} → ${time(last.toMs)} (the last interval with rates) against the design (${r.writes} writes of its workload on the same regions):`,
      table(
        rows.map(x => [
          x.startKey || '(first)',
          x.decoded ?? '-',
          x.server ?? '-',
          x.measuredShare === null ? '-' : pctOf(x.measuredShare),
          pctOf(x.designShare),
        ]),
        ['start', 'through the key', 'server', `% of ${what} now`, '% of writes, this design'],
        [0, 1, 2],
      ),
    ],
  };
}

export async function observe(pos, opt) {
  if (pos.length === 0)
    throw new CliError(EXIT.USAGE, 'missing DIR or FILE... (RegionServer /jmx dumps, list_regions, status output)');
  const { files, design: designArg } = split(pos);
  const input = [];
  for (const f of files) {
    input.push({ name: f, text: await readText(f, LIMITS.regions), modifiedMs: Math.floor(statSync(f).mtimeMs) });
  }
  let s;
  try {
    s = api.readSeries(input, opt.table);
  } catch (e) {
    throw seriesError(e);
  }
  const design = designArg === undefined ? undefined : await loadDesign(designArg);
  const labels = design ? decodeStarts(s, design) : undefined;
  const vs = design ? await againstDesign(s, design, opt, labels) : undefined;
  const json = { ...s, ...(labels ? { decodedStarts: labels } : {}), ...(vs?.rows ? { againstDesign: vs.rows } : {}) };
  out(opt, json, () => {
    const first = s.snapshots[0];
    const last = s.snapshots.at(-1);
    return [
      `table ${s.table}: ${s.snapshots.length} snapshots from ${time(first.timeMs)} to ${time(last.timeMs)}, ${s.files.length} files, ${s.regions.length} regions`,
      ...s.notes.map(n => `* ${n}`),
      ...s.snapshots
        .filter(x => x.missingServers.length)
        .map(x => `* ${time(x.timeMs)}: no dump of ${x.missingServers.join(', ')}`),
      ...(s.events.length ? ['', ...eventLines(s)] : []),
      ...s.intervals.flatMap(iv => ['', ...intervalLines(s, iv, labels)]),
      ...(vs ? ['', ...vs.lines] : []),
    ].join('\n');
  });
}
