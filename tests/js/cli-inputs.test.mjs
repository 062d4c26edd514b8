// The CLI against large and hostile inputs, run as a user runs it (a child process): endless
// streams (/dev/zero, an endless stdin) end with exit 3 and a message; binary data and text that
// is not UTF-8 are refused at their byte offset; inputs beyond their cap are refused. The caps:
// docs/limits.md, "CLI inputs".

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ROOT } from './helpers.mjs';
import { NOT_BUILT } from './npm-helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');
const MiB = 1024 * 1024;
const LINUX = existsSync('/dev/zero') && existsSync('/proc/self/status');

/** A telecom call record (the seed000-telecom preset's fields), row `i`. */
const row = i => JSON.stringify({ phone: String(13400000000 + ((i * 7919) % 99999999)), ts: 1630972800000 + i * 100 });

describe('rowkey-lab CLI on large and hostile inputs', { skip: NOT_BUILT }, () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-inputs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The CLI on `args` in `dir`, stopped after 60 s so that a run that never ends fails. */
  const run = (args, node = []) =>
    spawnSync(process.execPath, [...node, BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60000 });

  /** The CLI on `args` with `chunk` written to its stdin again and again, never ending. */
  const fedForever = (args, chunk, head = '') =>
    new Promise(resolve => {
      const started = Date.now();
      const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
      const input = Readable.from(
        (function* () {
          if (head) yield head;
          for (;;) yield chunk;
        })(),
      );
      input.pipe(child.stdin);
      child.stdin.on('error', () => {}); // EPIPE: the CLI stopped reading, as it should
      let stderr = '';
      child.stderr.on('data', d => {
        stderr += d;
      });
      const timer = setTimeout(() => child.kill(), 60000);
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        input.destroy();
        resolve({ status, signal, stderr, ms: Date.now() - started });
      });
    });

  test('/dev/zero as --records, as region text and as a design: exit 3 at its first byte', { skip: !LINUX }, () => {
    for (const args of [
      ['analyze', 'seed000-telecom', '--records', '/dev/zero'],
      ['encode', 'seed000-telecom', '--records', '/dev/zero'],
      ['regions', '/dev/zero'],
      ['lint', '/dev/zero'],
    ]) {
      const r = run(args);
      assert.equal(r.status, 3, `${args.join(' ')}: ${r.signal ?? ''} ${r.stderr}`);
      assert.match(r.stderr, /^rowkey-lab: \/dev\/zero: binary data, not text: a NUL byte at byte 0$/m, args.join(' '));
    }
  });

  test('an endless stdin of region text (`yes | rowkey-lab regions -`) ends with exit 3 at its cap', async () => {
    const r = await fedForever(['regions', '-'], 'y\n'.repeat(32768));
    assert.equal(r.status, 3, `${r.signal ?? ''} ${r.stderr}`);
    assert.match(r.stderr, /^rowkey-lab: stdin: more than 64 MiB, larger than a table's region text may be/m);
    assert.ok(r.ms < 30000, `${r.ms} ms`);
  });

  test('binary files are refused at their first NUL byte or the first byte that is not UTF-8', () => {
    // A SPLITS_FILE saved as UTF-16 ("30 00 31 00 0a 00"): NUL at byte 1.
    writeFileSync(path.join(dir, 'splits-utf16.txt'), Buffer.from('01\n02\n03\n', 'utf16le'));
    const utf16 = run(['regions', 'splits-utf16.txt']);
    assert.equal(utf16.status, 3, utf16.stdout);
    assert.match(utf16.stderr, /^rowkey-lab: splits-utf16\.txt: binary data, not text: a NUL byte at byte 1$/m);
    // A gzipped one (1f 8b 08 00 ...): 0x8b is no UTF-8 byte, and comes before the NUL at byte 3.
    writeFileSync(path.join(dir, 'splits.gz'), gzipSync('01\n02\n03\n'.repeat(100)));
    const gz = run(['regions', 'splits.gz']);
    assert.equal(gz.status, 3, gz.stdout);
    assert.match(gz.stderr, /^rowkey-lab: splits\.gz: invalid UTF-8 at byte 1 \(0x8b\)/m);
    // Binary without a NUL byte: every byte 0x80..0xff after a line of text.
    const bytes = Buffer.concat([Buffer.from("'a'\n"), Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i))]);
    writeFileSync(path.join(dir, 'high.bin'), bytes);
    const high = run(['regions', 'high.bin']);
    assert.equal(high.status, 3, high.stdout);
    assert.match(high.stderr, /^rowkey-lab: high\.bin: invalid UTF-8 at byte 4 \(0x80\)/m);
    assert.equal(high.stdout, '', 'nothing read as regions');
  });

  test('text that is not UTF-8 is refused at its byte offset, never read as U+FFFD', () => {
    // A design saved as Latin-1: "café" with é as the one byte 0xe9.
    const doc = JSON.stringify({ v: 1, name: 'café', fields: [{ name: 'id', type: 'string' }], key: 'id' });
    const at = Buffer.from(doc).indexOf(0xc3);
    writeFileSync(path.join(dir, 'latin1.json'), Buffer.from(doc, 'latin1'));
    const latin1 = run(['lint', 'latin1.json']);
    assert.equal(latin1.status, 3, latin1.stdout);
    assert.match(latin1.stderr, new RegExp(`^rowkey-lab: latin1\\.json: invalid UTF-8 at byte ${at} \\(0xe9\\)`, 'm'));
    // Records: the bad byte past the first 64 KiB read, in a JSON Lines file and in an array.
    const lines = Array.from({ length: 3000 }, (_, i) => row(i));
    const text = `${lines.join('\n')}\n`;
    const bad = Buffer.from(text).length - 20;
    const withBad = Buffer.from(text);
    withBad[bad] = 0xff;
    writeFileSync(path.join(dir, 'bad.jsonl'), withBad);
    const jsonl = run(['analyze', 'seed000-telecom', '--records', 'bad.jsonl']);
    assert.equal(jsonl.status, 3, jsonl.stdout);
    assert.match(jsonl.stderr, new RegExp(`^rowkey-lab: bad\\.jsonl: invalid UTF-8 at byte ${bad} \\(0xff\\)`, 'm'));
    const array = Buffer.from(`[${lines.join(',\n')}]`);
    const badInArray = 70000;
    array[badInArray] = 0xc0; // never a UTF-8 byte
    writeFileSync(path.join(dir, 'bad.json'), array);
    const json = run(['encode', 'seed000-telecom', '--records', 'bad.json']);
    assert.equal(json.status, 3);
    assert.match(
      json.stderr,
      new RegExp(`^rowkey-lab: bad\\.json: invalid UTF-8 at byte ${badInArray} \\(0xc0\\)`, 'm'),
    );
    // A file that ends inside a character.
    writeFileSync(path.join(dir, 'cut.txt'), Buffer.from([0x30, 0x31, 0x0a, 0xe2, 0x82]));
    const cut = run(['regions', 'cut.txt']);
    assert.equal(cut.status, 3);
    assert.match(cut.stderr, /^rowkey-lab: cut\.txt: invalid UTF-8 at byte 3: the input ends inside a character/m);
  });

  test('a character cut by the end of a read is read whole, not refused', () => {
    // One key per line in key order, a "€" (e2 82 ac) starting 1 or 2 bytes before each of the
    // first 64 KiB boundaries (a read of a file ends there).
    const keys = [];
    let size = 0;
    let cut = 0;
    for (let i = 0; size < 4 * 65536; i++) {
      const gap = 65536 - (size % 65536);
      const back = gap > 12 ? 1 + (cut % 2) : 0;
      const key =
        gap > 12 && gap < 40
          ? `k${String(i).padStart(8, '0')}${'x'.repeat(gap - 9 - back)}€`
          : `k${String(i).padStart(8, '0')}`;
      if (key.endsWith('€')) cut++;
      keys.push(key);
      size += Buffer.byteLength(key) + 1;
    }
    assert.equal(cut, 4);
    writeFileSync(path.join(dir, 'euro.txt'), `${keys.join('\n')}\n`);
    const r = run(['regions', 'euro.txt', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const list = JSON.parse(r.stdout);
    assert.equal(list.regions, keys.length + 1);
    // The engine reads a key as the HBase shell does (Bytes.toBytesBinary keeps a character's
    // low byte): U+20AC is \xAC, where U+FFFD (a character refused and replaced) would be \xFD.
    const euros = list.presplit.keys.filter(k => k.includes('\\x'));
    assert.equal(euros.length, 4, JSON.stringify(euros));
    for (const k of euros) assert.match(k, /^k\d{8}x*\\xAC$/);
  });

  test('a design beyond 16 MiB is refused before more of it is read', () => {
    const file = path.join(dir, 'huge.json');
    const fd = openSync(file, 'w');
    writeSync(fd, '{"v": 1, "name": "');
    for (let i = 0; i < 17; i++) writeSync(fd, 'x'.repeat(MiB));
    writeSync(fd, '"}');
    closeSync(fd);
    const r = run(['lint', 'huge.json']);
    assert.equal(r.status, 3, r.stdout);
    assert.match(r.stderr, /^rowkey-lab: huge\.json: more than 16 MiB, larger than a design document may be/m);
  });
});
