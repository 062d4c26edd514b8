// The hostile files the CLI's tests build, one builder each, so that the tests
// (tests/js/cli/cli-inputs.test.mjs, cli-verify-cells.test.mjs, cli-rekey.test.mjs) and
// scripts/hostile-costs.mjs (what each costs the CLI on each engine, written into
// docs/limits.md) build the very same files. Each builder writes into `dir` and returns what a
// test asserts on (the file's name, the byte a refusal must point at, the rows written). The
// files of rows a Rust generator writes (the Parquet and Arrow IPC bombs of
// tests/fixtures/rows/, tests/engine/rows_bombs.rs; the readers' fuzzer's finds,
// tests/fixtures/fuzz/found-*) are files in the repository, not built here.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const MiB = 1024 * 1024;

/** A telecom call record (the seed000-telecom preset's fields), row `i`. */
export const row = i =>
  JSON.stringify({ phone: String(13400000000 + ((i * 7919) % 99999999)), ts: 1630972800000 + i * 100 });

/**
 * `mib` MiB of rows as JSON Lines (`form` 'lines') or as one JSON array ('array') at
 * `dir/file`, written piecewise; the row count. The rows repeat 50,000 row keys: fed rows are
 * counted row by row while they fit the exact counts' cap (`analyze::MAX_EXACT_ROWS`,
 * docs/limits.md), memory that grows with the distinct rows up to that bound whatever the
 * file's size; so what could grow with a larger file is what its text would add.
 */
export function rowsFile(dir, file, mib, form) {
  const fd = openSync(path.join(dir, file), 'w');
  let size = 0;
  let n = 0;
  if (form === 'array') writeSync(fd, '[');
  while (size < mib * MiB) {
    const piece = [];
    for (let k = 0; k < 10000; k++, n++) piece.push(row(n % 50000));
    const text = form === 'array' ? `${n > 10000 ? ',\n' : ''}${piece.join(',\n')}` : `${piece.join('\n')}\n`;
    size += writeSync(fd, text);
  }
  if (form === 'array') writeSync(fd, ']\n');
  closeSync(fd);
  return n;
}

/** 3,000 records as JSON Lines, one byte 0xff 20 bytes before the end (past the first 64 KiB read). */
export function badUtf8Lines(dir, file = 'bad.jsonl') {
  const text = `${Array.from({ length: 3000 }, (_, i) => row(i)).join('\n')}\n`;
  const at = Buffer.from(text).length - 20;
  const bytes = Buffer.from(text);
  bytes[at] = 0xff;
  writeFileSync(path.join(dir, file), bytes);
  return { file, at, byte: 0xff };
}

/** The same records as one JSON array, byte 70,000 made 0xc0 (never a UTF-8 byte). */
export function badUtf8Array(dir, file = 'bad.json') {
  const bytes = Buffer.from(`[${Array.from({ length: 3000 }, (_, i) => row(i)).join(',\n')}]`);
  const at = 70000;
  bytes[at] = 0xc0;
  writeFileSync(path.join(dir, file), bytes);
  return { file, at, byte: 0xc0 };
}

/** JSON Lines whose first record is 2 MiB long: past the 1 MiB a row may hold (limits::MAX_ROW_TEXT). */
export function longLine(dir, file = 'long-line.jsonl') {
  const fd = openSync(path.join(dir, file), 'w');
  writeSync(fd, '{"phone": "');
  for (let i = 0; i < 2; i++) writeSync(fd, '1'.repeat(MiB));
  writeSync(fd, `", "ts": 1630972800000}\n${row(1)}\n`);
  closeSync(fd);
  return { file };
}

/** A design document of more than 16 MiB (a 17 MiB name). */
export function hugeDesign(dir, file = 'huge.json') {
  const fd = openSync(path.join(dir, file), 'w');
  writeSync(fd, '{"v": 1, "name": "');
  for (let i = 0; i < 17; i++) writeSync(fd, 'x'.repeat(MiB));
  writeSync(fd, '"}');
  closeSync(fd);
  return { file };
}

/** A design saved as Latin-1: "café" with é as the one byte 0xe9, at the byte UTF-8's é starts. */
export function latin1Design(dir, file = 'latin1.json') {
  const doc = JSON.stringify({ v: 1, name: 'café', fields: [{ name: 'id', type: 'string' }], key: 'id' });
  writeFileSync(path.join(dir, file), Buffer.from(doc, 'latin1'));
  return { file, at: Buffer.from(doc).indexOf(0xc3), byte: 0xe9 };
}

/** A SPLITS_FILE saved as UTF-16 ("30 00 31 00 0a 00"): a NUL at byte 1. */
export function utf16Splits(dir, file = 'splits-utf16.txt') {
  writeFileSync(path.join(dir, file), Buffer.from('01\n02\n03\n', 'utf16le'));
  return { file, at: 1 };
}

/** A gzipped SPLITS_FILE (1f 8b 08 00 ...): 0x8b at byte 1 is no UTF-8 byte, before the NUL at byte 3. */
export function gzSplits(dir, file = 'splits.gz') {
  writeFileSync(path.join(dir, file), gzipSync('01\n02\n03\n'.repeat(100)));
  return { file, at: 1, byte: 0x8b };
}

/** Binary without a NUL byte: a line of text, then every byte 0x80..0xff. */
export function highBytes(dir, file = 'high.bin') {
  const bytes = Buffer.concat([Buffer.from("'a'\n"), Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i))]);
  writeFileSync(path.join(dir, file), bytes);
  return { file, at: 4, byte: 0x80 };
}

/** A text file that ends inside a character (e2 82, the start of "€"). */
export function cutCharacter(dir, file = 'cut.txt') {
  writeFileSync(path.join(dir, file), Buffer.from([0x30, 0x31, 0x0a, 0xe2, 0x82]));
  return { file, at: 3 };
}

/** A FIFO that no process writes to (`mkfifo`): its path, or null where none can be made. */
export function fifo(dir, file = 'rows.fifo') {
  const p = path.join(dir, file);
  return spawnSync('mkfifo', [p]).status === 0 ? p : null;
}

/** What Spark writes: a folder of part files (`part-00000.csv` holding `csv`), not a file. */
export function partsFolder(dir, csv, folder = 'new-export') {
  const p = path.join(dir, folder);
  mkdirSync(p, { recursive: true });
  writeFileSync(path.join(p, 'part-00000.csv'), csv);
  return p;
}

/**
 * What an endless stdin repeats: region text (`yes | rowkey-lab regions -`), and one line that
 * never ends (`yes | tr -d '\n'`).
 */
export const ENDLESS = { lines: 'y\n'.repeat(32768), line: 'y'.repeat(65536) };
