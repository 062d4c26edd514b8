// observe --html: a self-contained report of a live table (inline CSS and SVG, no script, no
// network): the regions × intervals heatmaps as SVG, the busiest regions of each interval, the
// servers, and the design's prediction and diagnosis beside them. It only draws what the engine
// gave (readSeries, againstDesign); every text is escaped.

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** `text` safe in HTML text and attribute values. */
export const esc = text => String(text).replace(/[&<>"']/g, c => ESC[c]);

const time = ms => new Date(ms).toISOString().replace('.000Z', 'Z');
const clock = ms => new Date(ms).toISOString().slice(11, 19);
const pct = x => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)} %`);
const num = x => (x === null || x === undefined ? '-' : x.toFixed(2));

/** The heatmap's measures: what a cell shows and its unit. */
export const MEASURES = [
  { id: 'writes', label: 'writes/s', of: r => r.writesPerSec },
  { id: 'reads', label: 'reads/s', of: r => r.readsPerSec },
  { id: 'size', label: 'size, MB', of: r => (r.sizeBytes === null ? null : r.sizeBytes / 2 ** 20) },
];

/** The rows: the engine's key order with a design, else the last interval's regions (in key
 * order) and then the others as the series lists them. */
function rowsOf(s, o) {
  if (o) return o.rows;
  const seen = new Set(s.intervals.at(-1)?.regions.map(r => r.region) ?? []);
  return [...seen, ...s.regions.map((_, i) => i).filter(i => !seen.has(i))];
}

/** A row's label, the engine's: through the design's key (`observed.labels`), else the series'
 * own (`labels`: the start key's text). */
const rowLabel = (s, o, i) => (o ?? s).labels[i];

/** One measure's heatmap: a rect per region and interval, darker for more, a <title> each. */
function heatmapSvg(s, o, m) {
  const rows = rowsOf(s, o);
  const cell = { w: Math.max(18, Math.min(60, Math.floor(640 / Math.max(1, s.intervals.length)))), h: 18 };
  const left = 170;
  const top = 8;
  const width = left + cell.w * s.intervals.length + 10;
  const height = top + cell.h * rows.length + 40;
  const values = s.intervals.map(iv => new Map(iv.regions.map(r => [r.region, m.of(r)])));
  const max = Math.max(0, ...values.flatMap(v => [...v.values()].filter(x => x !== null && x !== undefined)));
  const parts = [];
  for (const [y, i] of rows.entries()) {
    const label = rowLabel(s, o, i);
    parts.push(
      `<text x="${left - 6}" y="${top + y * cell.h + 13}" text-anchor="end">${esc(label.length > 26 ? `${label.slice(0, 25)}…` : label)}<title>${esc(label)}</title></text>`,
    );
    for (const [x, v] of values.entries()) {
      const value = v.get(i);
      const known = value !== null && value !== undefined;
      const t = known && max > 0 ? value / max : 0;
      const fill = !v.has(i) ? 'none' : known ? `hsl(18, 85%, ${Math.round(96 - t * 58)}%)` : '#ddd';
      const tip = `${label}, ${clock(s.intervals[x].fromMs)}–${clock(s.intervals[x].toMs)}: ${known ? num(value) : 'no rate'} ${m.label}`;
      parts.push(
        `<rect x="${left + x * cell.w}" y="${top + y * cell.h}" width="${cell.w - 1}" height="${cell.h - 1}" fill="${fill}"><title>${esc(tip)}</title></rect>`,
      );
    }
  }
  for (const [x, iv] of s.intervals.entries()) {
    if (x % Math.ceil(s.intervals.length / 8) !== 0) continue;
    parts.push(`<text x="${left + x * cell.w}" y="${top + rows.length * cell.h + 16}">${esc(clock(iv.toMs))}</text>`);
  }
  parts.push(
    `<text x="${left}" y="${height - 4}" class="legend">${esc(`${m.label}: white 0, darkest ${num(max)}; grey: no rate`)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" data-measure="${m.id}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`${m.label} per region and interval`)}">${parts.join('')}</svg>`;
}

/** An HTML table of `rows` (arrays of cells) under `head`. */
function htmlTable(head, rows, cls = '') {
  const tr = (cells, tag) => `<tr>${cells.map(c => `<${tag}>${esc(c)}</${tag}>`).join('')}</tr>`;
  return `<table class="${cls}"><thead>${tr(head, 'th')}</thead><tbody>${rows.map(r => tr(r, 'td')).join('')}</tbody></table>`;
}

/** The comparison with the design: per region, per server, the diagnosis. */
function againstHtml(o) {
  const a = o.against;
  const parts = ['<h2>Now against the design</h2>'];
  if (a) {
    parts.push(
      `<p>${esc(`${time(a.fromMs)} → ${time(a.toMs)}, the last interval with rates: % of ${a.measure} measured beside % of writes the design predicts on the same regions.`)}</p>`,
    );
    parts.push(
      htmlTable(
        ['start', 'through the key', 'server', `% of ${a.measure} now`, '% predicted', 'ratio'],
        a.regions.map(r => [
          r.startKey === '' ? '(first)' : (r.startKey ?? '-'),
          r.decoded ?? '-',
          r.server ?? '-',
          pct(r.measuredShare),
          pct(r.predictedShare),
          r.ratio === null ? '-' : `${r.ratio.toFixed(2)}×`,
        ]),
        'against',
      ),
    );
    parts.push(
      htmlTable(
        ['server', 'regions', '% of regions', `% of ${a.measure} now`, '% predicted'],
        a.servers.map(v => [
          v.server,
          String(v.regions),
          pct(v.regionShare),
          pct(v.measuredShare),
          pct(v.predictedShare),
        ]),
        'servers',
      ),
    );
  }
  if (o.diagnosis.length)
    parts.push(`<h3>Diagnosis</h3><ul class="diagnosis">${o.diagnosis.map(d => `<li>${esc(d)}</li>`).join('')}</ul>`);
  if (o.notes.length) parts.push(`<ul class="notes">${o.notes.map(n => `<li>${esc(n)}</li>`).join('')}</ul>`);
  return parts.join('\n');
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px}table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}td:nth-child(n+4){text-align:right}
svg{font:11px system-ui,sans-serif;display:block;margin:8px 0}svg .legend{fill:#555}
.diagnosis li{margin:4px 0}.notes{color:#555}`;

/** The whole report: `s` from readSeries, `o` from againstDesign (absent without a design). */
export function observeHtml(s, o, events) {
  const first = s.snapshots[0];
  const last = s.snapshots.at(-1);
  const tops = s.intervals.map(iv => [
    `${clock(iv.fromMs)} → ${clock(iv.toMs)}`,
    num(iv.requestsPerSec),
    iv.top.map(k => rowLabel(s, o, iv.regions[k].region)).join(', ') || '-',
  ]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(`rowkey-lab observe: ${s.table}`)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${CSS}</style></head>
<body>
<h1>${esc(`Table ${s.table}: ${s.snapshots.length} snapshots, ${time(first.timeMs)} to ${time(last.timeMs)}`)}</h1>
<p>${esc(`${s.files.length} files, ${s.regions.length} regions, ${s.intervals.length} intervals. Rows are regions in key order${o ? ', labelled by their start keys read through the design’s key' : ''}; columns are intervals between snapshots.`)}</p>
${s.notes.length ? `<ul class="notes">${s.notes.map(n => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
${MEASURES.map(m => `<h2>${esc(m.label)}</h2>\n${heatmapSvg(s, o, m)}`).join('\n')}
<h2>Busiest regions of each interval</h2>
${htmlTable(['interval', 'requests/s', 'busiest'], tops, 'tops')}
${events.length ? `<h2>Splits, merges, moves, gaps</h2><ul class="events">${events.map(e => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
${o ? againstHtml(o) : ''}
</body></html>
`;
}
