// Output: text tables, percentages, the progress bar, and the one printer every command uses
// (JSON with --json, text otherwise), with its form for rows printed as they come.
import { once } from 'node:events';

/** Bytes as lowercase hex. */
export const hex = b => Buffer.from(b).toString('hex');

// What a terminal acts on instead of showing: the C0 controls (ESC opens the sequences that set
// the window title, clear the screen or write the clipboard, OSC 52), DEL and the C1 controls
// (U+009B alone is a CSI), and the bidirectional marks and overrides that show text in another
// order than it has (Trojan Source).
const acted = cp =>
  cp < 0x20 ||
  (cp >= 0x7f && cp <= 0x9f) ||
  cp === 0x61c ||
  cp === 0x200e ||
  cp === 0x200f ||
  (cp >= 0x202a && cp <= 0x202e) ||
  (cp >= 0x2066 && cp <= 0x2069);
/** Every character but printable ASCII: the candidates `acted` decides on. */
const NOT_ASCII_TEXT = /[^ -~]/gu;

/** A character as Bytes.toStringBinary writes a byte it does not print: `\xNN` per UTF-8 byte. */
const escaped = c =>
  Array.from(Buffer.from(c, 'utf8'), b => `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * User- or server-supplied text (a server or host name, a column name, a value, a file name)
 * as the CLI prints it: every character a terminal would act on (`acted`), tabs and line
 * ends too, written `\xNN` per UTF-8 byte, the escapes keys already get from toStringBinary
 * (ESC is `\x1B`, U+009B `\xC2\x9B`). Other text, Unicode included, is printed as it is.
 */
export const printable = s => String(s).replace(NOT_ASCII_TEXT, c => (acted(c.codePointAt(0)) ? escaped(c) : c));

/**
 * The CLI's own text about to reach a terminal, with its tabs and line ends kept: anything
 * else a terminal acts on escaped as `printable` does, so a string a command forgot to pass
 * through `printable` still cannot reach the terminal as a control sequence.
 */
export const terminalText = s =>
  String(s).replace(NOT_ASCII_TEXT, c => (c !== '\n' && c !== '\t' && acted(c.codePointAt(0)) ? escaped(c) : c));

/**
 * A key's toStringBinary text as a cell of the CSV/TSV the CLI writes: a first character that
 * would start a spreadsheet formula (`=`, `+`, `-`, `@`; OWASP's CSV injection list, whose tab
 * and carriage return toStringBinary already writes `\x09`, `\x0D`) written as its `\xNN`
 * escape instead, so a spreadsheet shows text and `decode` or the HBase shell still read the
 * same bytes (a quote prefix would change the key).
 */
export const keyCell = text => (/^[=+\-@]/.test(text) ? `${escaped(text[0])}${text.slice(1)}` : text);

/** A share (0..1) as a percentage with one decimal, without the sign. */
export const pctOf = x => (x * 100).toFixed(1);

/** The index of the largest of `xs` (the first of equals). */
export const argmax = xs => xs.reduce((best, x, i) => (x > xs[best] ? i : best), 0);

/** `n` and `what`, plural unless n is 1: "1 scan", "3 scans". */
export const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * Prints `json` with --json (byte arrays as hex, other typed arrays as arrays), else `text()`:
 * the text is only built when it is printed.
 */
export function out(opt, json, text) {
  const plain = (_key, v) => (v instanceof Uint8Array ? hex(v) : ArrayBuffer.isView(v) ? Array.from(v) : v);
  console.log(opt.json ? JSON.stringify(json, plain, 2) : terminalText(text()));
}

/**
 * Rows printed as they come, for output too large to hold: `await put(rows)` prints each as
 * `text(row)` on a line, or with --json as an element of one JSON array (the text `out` prints
 * for the array), and says whether more can be printed; `await end()` after the last. Waits
 * while stdout takes no more (a slow pipe). When the reader goes away (`| head`), printing
 * stops quietly and `put` says false.
 */
export function rowPrinter(opt, text) {
  let count = 0;
  let gone = false;
  let failed = null;
  const closed = e => {
    if (e.code === 'EPIPE') gone = true;
    else failed = e;
  };
  process.stdout.on('error', closed);
  const write = async s => {
    if (failed) throw failed;
    if (gone) return;
    try {
      if (!process.stdout.write(s)) await once(process.stdout, 'drain');
    } catch (e) {
      closed(e);
      if (failed) throw failed;
    }
  };
  return {
    async put(rows) {
      if (!rows.length) return !gone;
      if (opt.json) {
        const items = rows.map(r => JSON.stringify(r, null, 2).replace(/^/gm, '  '));
        await write(`${count ? ',\n' : '[\n'}${items.join(',\n')}`);
      } else {
        await write(terminalText(`${rows.map(text).join('\n')}\n`));
      }
      count += rows.length;
      return !gone;
    },
    end: () => write(opt.json ? (count ? '\n]\n' : '[]\n') : ''),
  };
}

/** Rows under headers; `text` lists the columns that always align left (row keys such as "240001"). */
export function table(rows, headers, text = []) {
  const cells = [headers, ...rows].map(r => r.map(c => printable(c ?? '')));
  const w = headers.map((_, i) => Math.max(...cells.map(r => r[i].length)));
  // Numbers (and numbers already formatted, like toFixed's) align right.
  const numeric = headers.map(
    (_, i) =>
      !text.includes(i) &&
      rows.length > 0 &&
      rows.every(r => typeof r[i] === 'number' || /^-?\d+(\.\d+)?$/.test(r[i] ?? '')),
  );
  const line = r =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(w[i]) : c.padEnd(w[i])))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), w.map(n => '-'.repeat(n)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Region indexes as runs: [0, 1, 2, 5] -> "0-2, 5". */
export function regionRuns(regions) {
  const runs = [];
  for (const r of regions) {
    const last = runs[runs.length - 1];
    if (last && r === last[1] + 1) last[1] = r;
    else runs.push([r, r]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
}

/** A progress bar on stderr, drawn only when stderr is a terminal: `update(done, total)`, `done()`. */
export function progressBar(label) {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  let last = '';
  return {
    update(done, total) {
      const f = total ? done / total : 1;
      const n = Math.round(f * 30);
      const line = `\r${printable(label)} [${'#'.repeat(n)}${'.'.repeat(30 - n)}] ${(f * 100).toFixed(0)}%`;
      // Chunks finer than 1 % would redraw the same line: write only when it changes.
      if (line !== last) process.stderr.write(line);
      last = line;
    },
    done() {
      process.stderr.write('\r\x1b[K');
    },
  };
}

/** A length of time as a reader takes it in: milliseconds under a second, then seconds,
 * minutes, hours, days (a file of rows over ten years has windows of 57.1 days, not
 * 4929862501 ms); the exact milliseconds are in --json. */
export function duration(ms) {
  const s = ms / 1000;
  if (s < 1) return `${ms} ms`;
  if (s < 120) return `${Number.isInteger(s) ? s : s.toFixed(s < 10 ? 2 : 1)} s`;
  if (s < 7200) return `${(s / 60).toFixed(1)} min`;
  if (s < 172800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86400).toFixed(1)} days`;
}

/** Bytes as people read them: `512 B`, `1.5 MiB`, `10 GiB` (binary units, as HBase's sizes). */
export function bytesText(b) {
  const units = ['TiB', 'GiB', 'MiB', 'KiB'];
  for (const [i, u] of units.entries()) {
    const size = 1024 ** (4 - i);
    if (b >= size) {
      const x = b / size;
      return `${x >= 100 || Number.isInteger(x) ? x.toFixed(0) : x.toFixed(1)} ${u}`;
    }
  }
  return `${b} B`;
}
