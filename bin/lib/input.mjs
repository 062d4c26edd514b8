// Reading what the user names as a stream of checked bytes: text only (a NUL byte is binary data,
// bytes that are not UTF-8 are refused, never turned into U+FFFD), each refusal saying at which
// byte; a document read whole only up to its size cap. The caps and their reasons:
// docs/limits.md, "CLI inputs". FILE - is stdin.
import { isUtf8 } from 'node:buffer';
import { createReadStream, statSync } from 'node:fs';
import { CliError, EXIT } from './errors.mjs';

const MiB = 1024 * 1024;

/** The most bytes of each kind of input the CLI reads (docs/limits.md says why). */
export const LIMITS = {
  /** A design document (`<design>`). */
  design: { bytes: 16 * MiB, what: 'a design document' },
  /** A table's regions as HBase prints them (`regions FILE`, `--regions FILE`). */
  regions: { bytes: 64 * MiB, what: "a table's region text" },
  /** One record of `--records`: a JSON Lines line or an element of the JSON array. */
  record: { bytes: 1 * MiB, what: 'one record' },
};

/** `FILE`'s name in messages (stdin for -). */
export const inputName = file => (file === '-' ? 'stdin' : file);

/** The size of `file` when it is a regular file (0: not known, as for stdin or a device). */
export function sizeOf(file) {
  const stat = file === '-' ? undefined : statSync(file, { throwIfNoEntry: false });
  return stat?.isFile() ? stat.size : 0;
}

/** `n` bytes in MiB, for messages. */
export const mib = n => `${n / MiB} MiB`;

/**
 * The bytes of `file` as chunks `{bytes, offset}` that end on a character boundary (a UTF-8
 * sequence cut by the chunk's end goes with the next chunk), each checked: a NUL byte (no text
 * has one; /dev/zero is nothing else) is binary data, a byte sequence that is not UTF-8 is
 * refused; both at their byte offset in the file, called `name` in messages. `copy(chunk)`,
 * when given, gets every chunk as read (to keep a copy of stdin). Read errors (no such file, a
 * directory) are input errors.
 */
export async function* checkedChunks(file, { name = inputName(file), copy } = {}) {
  const stream = file === '-' ? process.stdin : createReadStream(file);
  let carry = null;
  let offset = 0;
  try {
    for await (const chunk of stream) {
      if (copy) await copy(chunk);
      const all = carry ? Buffer.concat([carry, chunk]) : chunk;
      const whole = wholeCharacters(all);
      const bytes = all.subarray(0, whole);
      check(bytes, name, offset);
      carry = whole < all.length ? all.subarray(whole) : null;
      yield { bytes, offset };
      offset += whole;
    }
  } catch (e) {
    throw e instanceof CliError ? e : new CliError(EXIT.INPUT, `${name}: ${e.message}`);
  } finally {
    // Stop reading stdin (an endless `yes |`) once refused, so the process can exit.
    if (file === '-') stream.destroy();
  }
  if (carry)
    throw new CliError(EXIT.INPUT, `${name}: invalid UTF-8 at byte ${offset}: the input ends inside a character`);
}

/**
 * `file` whole as text, refused beyond `limit` (a `LIMITS` member) before reading further: an
 * endless stream ends there. A UTF-8 byte order mark first is dropped.
 */
export async function readText(file, limit) {
  const parts = [];
  let size = 0;
  for await (const { bytes } of checkedChunks(file)) {
    size += bytes.length;
    if (size > limit.bytes) {
      throw new CliError(
        EXIT.INPUT,
        `${inputName(file)}: more than ${mib(limit.bytes)}, larger than ${limit.what} may be (see docs/limits.md)`,
      );
    }
    parts.push(bytes);
  }
  // Checked already; decoded as strictly all the same (the decoder drops a byte order mark).
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts));
}

/** Refuse `bytes` (at `offset` of the file `name`) when they hold a NUL byte or are not UTF-8. */
function check(bytes, name, offset) {
  const nul = bytes.indexOf(0);
  const bad = isUtf8(bytes) ? -1 : firstInvalid(bytes);
  if (nul >= 0 && (bad < 0 || nul < bad)) {
    throw new CliError(EXIT.INPUT, `${name}: binary data, not text: a NUL byte at byte ${offset + nul}`);
  }
  if (bad >= 0) {
    const b = bytes[bad].toString(16).padStart(2, '0');
    throw new CliError(
      EXIT.INPUT,
      `${name}: invalid UTF-8 at byte ${offset + bad} (0x${b}): not UTF-8 text (binary data, or another encoding such as Latin-1)`,
    );
  }
}

/**
 * How many of `bytes` end on a character boundary: when the last lead byte (within the last 3
 * bytes) announces more continuation bytes than follow it, the sequence is cut and starts the
 * next chunk. A malformed sequence is left whole to `check`.
 */
function wholeCharacters(bytes) {
  const n = bytes.length;
  for (let i = n - 1; i >= Math.max(0, n - 3); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + length > n ? i : n;
  }
  return n;
}

/**
 * The offset of the first byte sequence of `bytes` that is not UTF-8 (`bytes` holds one). The
 * shortest prefix a streaming decoder refuses ends inside it (or, when none is refused, the
 * input ends inside it); it starts at the last character boundary before that end: the longest
 * prefix that decodes whole.
 */
function firstInvalid(bytes) {
  const refused = (n, stream) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream });
      return false;
    } catch {
      return true;
    }
  };
  let end = bytes.length + 1;
  if (refused(bytes.length, true)) {
    let lo = 0;
    end = bytes.length;
    while (lo + 1 < end) {
      const mid = (lo + end) >>> 1;
      if (refused(mid, true)) end = mid;
      else lo = mid;
    }
  }
  let start = Math.min(end - 1, bytes.length);
  while (start > 0 && refused(start, false)) start--;
  return start;
}
