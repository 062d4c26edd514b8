// --records FILE: your own rows, JSON Lines (one {field: value} object per line) or one JSON
// array of them, read as a stream and handed over in chunks of CHUNK records, never the whole
// file: lines one by one, the array element by element (@streamparser/json). Each record keeps
// its place in the file (file:line, or records[i] of the array) for error messages; one record
// longer than LIMITS.record is refused. The analysis reads the rows more than once (their count,
// a sample, then all of them): `openRecords` counts them, and copies stdin to a temporary file.
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSONParser } from '@streamparser/json';
import { CliError, EXIT } from './errors.mjs';
import { checkedChunks, inputName, LIMITS, mib } from './input.mjs';

/** Records handed to the engine at a time. */
export const CHUNK = 10000;

/**
 * The records of `file` in chunks `{records, at, where, bytes}` of up to CHUNK: `at` the index
 * of the first in the file, `where(i)` the place of `records[i]` in the file, `bytes` how much
 * of the file is read. With `every` > 1 only the records at 0, every, 2 every, ... are parsed
 * and handed over (a sample). `name`: the file's name in messages.
 */
export async function* recordChunks(file, { every = 1, name = inputName(file) } = {}) {
  let chunk = { records: [], places: [], at: 0 };
  let index = 0;
  let form;
  const full = bytes => {
    const { records, places, at } = chunk;
    const where = form === 'array' ? i => `${name}: records[${places[i]}]` : i => `${name}:${places[i]}`;
    chunk = { records: [], places: [], at: index };
    return { records, at, where, bytes };
  };
  let read = 0;
  for await (const { items, bytes, reader } of recordItems(file, name)) {
    form = reader.form;
    read = bytes;
    for (const item of items) {
      if (index % every === 0) {
        chunk.records.push(reader.record(item));
        chunk.places.push(reader.place(item, index));
      }
      index++;
      if (chunk.records.length === CHUNK) yield full(bytes);
    }
  }
  if (chunk.records.length) yield full(read);
}

/**
 * `--records FILE` for a command that reads the rows more than once: `{name, count, chunks(opt),
 * close()}`, `chunks` as `recordChunks` gives them. Counting reads the file once and parses
 * every record, so a line that is not JSON (`yes |`) fails before any analysis; stdin is copied
 * to a temporary file meanwhile, removed by `close()` (or when the process is interrupted).
 * No records is an input error.
 */
export async function openRecords(file) {
  const name = inputName(file);
  const spool = file === '-' ? new Spool() : null;
  let count = 0;
  try {
    for await (const { items, reader } of recordItems(file, name, spool?.copy)) {
      for (const item of items) reader.record(item);
      count += items.length;
    }
    await spool?.finish();
    if (count === 0) throw new CliError(EXIT.INPUT, `${name}: no records`);
  } catch (e) {
    spool?.remove();
    throw e;
  }
  const source = spool?.file ?? file;
  return {
    name,
    count,
    chunks: opt => recordChunks(source, { ...opt, name }),
    close: () => spool?.remove(),
  };
}

/**
 * The records of `file` as they complete, per chunk read: `{items, bytes, reader}`, an item
 * being a line's text (`JsonLines`) or an element's value (`JsonArray`). The first character
 * that is not white space says which: `[` is one JSON array, anything else JSON Lines.
 */
async function* recordItems(file, name, copy) {
  let reader = null;
  let read = 0;
  let blank = 0; // the lines before the first character, when chunks of white space come first
  for await (const c of checkedChunks(file, { name, copy })) {
    let { bytes } = c;
    if (c.offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    if (!reader) {
      const first = bytes.findIndex(b => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
      if (first < 0) {
        for (const b of bytes) if (b === 0x0a) blank++;
        continue;
      }
      const base = c.offset + c.bytes.length - bytes.length; // the file's offset of bytes[0]
      reader = bytes[first] === 0x5b ? new JsonArray(name, base) : new JsonLines(name, blank + 1);
    }
    read = c.offset + c.bytes.length;
    yield { items: reader.push(bytes), bytes: read, reader };
  }
  if (reader) yield { items: reader.end(), bytes: read, reader };
}

/** JSON Lines: the text of each line that is not blank, with its line number. */
class JsonLines {
  form = 'lines';
  constructor(name, line) {
    this.name = name;
    this.line = line; // the number of the line `carry` starts
    this.carry = null; // the line read so far, without its end
  }

  /** The lines `bytes` complete: `[text, line]` each. */
  push(bytes) {
    const last = bytes.lastIndexOf(0x0a);
    if (last < 0) {
      this.carry = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
      this.fits(this.carry.length);
      return [];
    }
    const head = bytes.indexOf(0x0a);
    this.fits((this.carry?.length ?? 0) + head);
    const text = (this.carry ? this.carry.toString('utf8') : '') + bytes.toString('utf8', 0, last);
    this.carry = last + 1 < bytes.length ? bytes.subarray(last + 1) : null;
    // A chunk larger than a record may be can hold a line too long within it.
    if (last - head - 1 > LIMITS.record.bytes) this.eachFits(bytes.subarray(head + 1, last));
    return this.lines(text);
  }

  /** The last line, when the file does not end with a line end. */
  end() {
    return this.carry ? this.lines(this.carry.toString('utf8')) : [];
  }

  lines(text) {
    const out = [];
    for (const l of text.split('\n')) {
      if (l.trim()) out.push([l, this.line]);
      this.line++;
    }
    return out;
  }

  /** Refuse a line of `length` bytes (the one at `this.line`) beyond the cap of one record. */
  fits(length, line = this.line) {
    if (length > LIMITS.record.bytes) {
      throw new CliError(
        EXIT.INPUT,
        `${this.name}:${line}: a line of more than ${mib(LIMITS.record.bytes)}, larger than one record may be (JSON Lines: one record per line; see docs/limits.md)`,
      );
    }
  }

  /** `fits` for every line of `bytes`, which are the lines after the one at `this.line`. */
  eachFits(bytes) {
    let line = this.line + 1;
    for (let at = 0; at <= bytes.length; line++) {
      const end = bytes.indexOf(0x0a, at);
      this.fits((end < 0 ? bytes.length : end) - at, line);
      if (end < 0) break;
      at = end + 1;
    }
  }

  record([text, line]) {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${this.name}:${line}: ${e.message}`);
    }
  }

  place([, line]) {
    return line;
  }
}

/** One JSON array: its elements' values, by a streaming parser that keeps none of them. */
class JsonArray {
  form = 'array';
  constructor(name, base) {
    this.name = name;
    this.base = base; // the file's offset of the first byte given to the parser
    this.values = [];
    this.count = 0; // elements so far
    this.since = 0; // bytes given to the parser since the last element ended
    this.parser = new JSONParser({ paths: ['$.*'], keepStack: false });
    this.parser.onValue = ({ value }) => {
      this.values.push(value);
      this.count++;
      this.since = 0;
    };
  }

  /** The elements `bytes` complete. */
  push(bytes) {
    // Pieces of 64 KiB, so that an element beyond the cap is refused within 64 KiB of it.
    for (let at = 0; at < bytes.length; at += 65536) {
      const piece = bytes.subarray(at, at + 65536);
      this.write(piece);
      this.since += piece.length;
      if (this.since > LIMITS.record.bytes) {
        throw new CliError(
          EXIT.INPUT,
          `${this.name}: records[${this.count}]: more than ${mib(LIMITS.record.bytes)}, larger than one record may be (see docs/limits.md)`,
        );
      }
    }
    const done = this.values;
    this.values = [];
    return done;
  }

  /** The last elements; an array not closed is an error. */
  end() {
    if (!this.parser.isEnded) this.write(null);
    return this.push(Buffer.alloc(0));
  }

  /** The parser's errors, said at the element they are in (and the byte, when it says). */
  write(piece) {
    try {
      if (piece) this.parser.write(piece);
      else this.parser.end();
    } catch (e) {
      if (!piece) {
        throw new CliError(
          EXIT.INPUT,
          `${this.name}: the file ends inside records[${this.count}] (the array is not closed)`,
        );
      }
      const why = e.message
        .replace(/at chunk position "\d+" \(absolute position "(\d+)"\)/, (_, n) => `at byte ${this.base + Number(n)}`)
        .replace(/ in state \w+$/, '');
      const at = this.parser.isEnded ? 'after the array' : `records[${this.count}]`;
      throw new CliError(EXIT.INPUT, `${this.name}: ${at}: not JSON: ${why}`);
    }
  }

  record(value) {
    return value;
  }

  place(_value, index) {
    return index;
  }
}

/** A temporary copy of stdin: `copy(chunk)` appends, `finish()` closes, `remove()` deletes. */
/** stdin copied whole to a temporary file: `{file, remove()}` (removed on an interruption too). */
export async function spoolStdin() {
  const spool = new Spool();
  try {
    for await (const chunk of process.stdin) await spool.copy(chunk);
    await spool.finish();
  } catch (e) {
    spool.remove();
    throw new CliError(EXIT.INPUT, `stdin: ${e.message}`);
  }
  return spool;
}

export class Spool {
  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-records-'));
    this.file = path.join(this.dir, 'stdin');
    this.out = createWriteStream(this.file);
    // A write that failed (the disk full) is said at the next copy, or at the end.
    this.out.on('error', e => {
      this.failed = e;
    });
    // An interrupted run removes its copy, then ends as the signal would have ended it.
    this.onSignal = signal => {
      this.remove();
      process.kill(process.pid, signal);
    };
    process.once('SIGINT', this.onSignal).once('SIGTERM', this.onSignal);
    this.copy = async chunk => {
      if (this.failed) throw this.failed;
      if (!this.out.write(chunk)) await once(this.out, 'drain');
    };
  }

  /** The chunks of `stream`, each copied here as it passes; the copy finished at its end. */
  async *tee(stream) {
    for await (const chunk of stream) {
      await this.copy(chunk);
      yield chunk;
    }
    await this.finish();
  }

  async finish() {
    if (this.failed) throw this.failed;
    this.out.end();
    await once(this.out, 'finish');
  }

  remove() {
    process.off('SIGINT', this.onSignal).off('SIGTERM', this.onSignal);
    this.out.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
