// State in and out of the page: copy-link, recent designs (localStorage), design JSON import and
// export, heatmap PNG and metrics CSV downloads. No network: files go through Blob URLs.

const RECENT_KEY = 'rowkey-lab:recent';
const RECENT_MAX = 8;

/** Offer `blob` as a download named `name`. */
export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

export function recentList() {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter(r => r && typeof r.doc === 'object') : [];
  } catch {
    return [];
  }
}

/** Remember a design (most recent first, duplicates dropped). */
export function remember(doc, presetId) {
  try {
    const text = JSON.stringify(doc);
    const list = recentList().filter(r => JSON.stringify(r.doc) !== text);
    list.unshift({ doc, presetId, at: Date.now() });
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_MAX)));
  } catch {
    /* storage full or disabled: recent designs are a convenience */
  }
}

/** Copy `text` to the clipboard; false when the browser refuses. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Read a File as JSON. */
export async function readJsonFile(file) {
  // File.text() keeps a UTF-8 byte order mark (some Windows editors write one); JSON.parse refuses it.
  return JSON.parse((await file.text()).replace(/^\uFEFF/, ''));
}

/** A PNG of a pixel canvas scaled up by whole pixels (no smoothing), at least ~`min` px wide. */
export function canvasPng(src, min = 768) {
  const kx = Math.max(1, Math.ceil(min / src.width)),
    ky = Math.max(1, Math.ceil(min / 2 / src.height));
  const c = document.createElement('canvas');
  c.width = src.width * kx;
  c.height = src.height * ky;
  const ctx = c.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(src, 0, 0, c.width, c.height);
  return new Promise((resolve, reject) =>
    c.toBlob(b => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

const csvCell = v => {
  const s = v == null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const csvLine = cells => cells.map(csvCell).join(',');

/** The metrics of a report as CSV: summary metrics, then one line per time window. */
export function metricsCsv(report, summary) {
  const lines = [csvLine(['metric', 'value', 'meaning'])];
  for (const [name, value, meaning] of summary) lines.push(csvLine([name, value, meaning]));
  lines.push('');
  const cols = [
    'window',
    'startTime',
    'total',
    'max',
    'busiestRegion',
    'hotspotFactor',
    'busiestShare',
    'activeRegions',
    'emptyRegions',
    'gini',
    'coefficientOfVariation',
    'effectiveParallelism',
  ];
  lines.push(csvLine(cols));
  report.metrics.perWindow.forEach((w, i) => {
    lines.push(
      csvLine([i, new Date(report.startTimeMs + i * report.windowMs).toISOString(), ...cols.slice(2).map(k => w[k])]),
    );
  });
  return `${lines.join('\n')}\n`;
}
