// `rowkey-lab watch` against RegionServers played by local HTTP servers on 127.0.0.1 serving
// recorded dumps (tests/fixtures/observe/scenario/), one after another as polls come: the
// snapshots it writes are what `observe` reads, to the figures the dumps' counters give over
// the times watch wrote in the file names. A server that hangs, one that errs and a URL with
// nothing listening are each said and skipped. `watch` calls no engine (it writes what the
// servers answer), so its hostile answers run once, whichever engine the package would load.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, constants } from 'node:zlib';
import { cliAsync, ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

const SCENARIO = path.join(ROOT, 'tests/fixtures/observe/scenario');
const dump = name => readFileSync(path.join(SCENARIO, name), 'utf8');

/** The CLI, asynchronously (the test's servers answer in this process). */
const cli = (args, cwd) => cliAsync(args, cwd);

/** A server answering `handler(req, res, n)` for its n-th request; its URL and the requests. */
async function rs(handler) {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.url);
    handler(req, res, seen.length - 1);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  return { server, seen, url: `http://127.0.0.1:${server.address().port}` };
}

describe('rowkey-lab watch', { skip: NOT_BUILT }, () => {
  let dir;
  const servers = [];
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rowkey-watch-'));
  });
  after(() => {
    for (const s of servers) {
      s.server.closeAllConnections();
      s.server.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('polls, writes timestamped dumps, and observe reads them to the same figures', async () => {
    // rs1 and rs2 answer their recorded polls 0, 1, 2 in turn.
    const polls = ['20261126T050000Z', '20261126T050100Z', '20261126T050200Z'];
    const recorded = who => (_req, res, n) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(dump(`${polls[Math.min(n, 2)]}-${who}.json`));
    };
    const rs1 = await rs(recorded('rs1'));
    const rs2 = await rs(recorded('rs2'));
    // One that never answers, one that errs.
    const hangs = await rs(() => {});
    const errs = await rs((_req, res) => {
      res.writeHead(500);
      res.end('oops');
    });
    servers.push(rs1, rs2, hangs, errs);
    const out = path.join(dir, 'snapshots');
    const hostPort = u => u.replace('http://', '');
    const w = await cli(
      [
        'watch',
        rs1.url,
        hostPort(rs2.url),
        hangs.url,
        errs.url,
        '--out',
        out,
        '--every',
        '400ms',
        // Generous: the recorded servers answer from this process, which a loaded machine (the
        // test files run two or three at a time) can keep from answering within a tight timeout;
        // the one that hangs is skipped after two tries either way.
        '--timeout',
        '1500ms',
        '--retries',
        '1',
        '--count',
        '3',
      ],
      dir,
    );
    assert.equal(w.status, 3, 'a failed server makes exit 3');
    assert.match(w.stderr, new RegExp(`${hangs.url}/jmx.*: no answer within 1500 ms \\(2 tries\\): skipped`));
    assert.match(w.stderr, new RegExp(`${errs.url}/jmx.*: HTTP 500 \\(2 tries\\): skipped`));
    // Only the URLs given, with the /jmx query a bare URL gets.
    assert.deepEqual(rs1.seen, Array(3).fill('/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=*'));
    assert.equal(errs.seen.length, 6, '3 polls, 2 tries each');
    const files = readdirSync(out).sort();
    assert.equal(files.length, 6, files.join(' '));
    assert.ok(
      files.every(f => /^\d{8}T\d{6}\.\d{3}Z-127\.0\.0\.1_\d+\.json$/.test(f)),
      files.join(' '),
    );
    // The key ranges come from a scan of hbase:meta beside the dumps.
    copyFileSync(path.join(SCENARIO, 'meta.txt'), path.join(out, 'meta.txt'));
    const o = await cli(['observe', out, '--json'], dir);
    assert.equal(o.status, 0, o.stderr);
    const s = JSON.parse(o.stdout);
    // The times watch wrote, from the file names (one per poll, both servers alike).
    const times = [...new Set(files.map(f => f.slice(0, 19)))].map(t =>
      Date.parse(
        `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 11)}:${t.slice(11, 13)}:${t.slice(13)}Z`,
      ),
    );
    assert.deepEqual(
      s.snapshots.map(x => x.timeMs),
      times,
    );
    const secs = (times[1] - times[0]) / 1000;
    const a = s.intervals[0].regions[0];
    assert.ok(Math.abs(a.readsPerSec - (1600 - 1000) / secs) < 1e-9, `${a.readsPerSec}`);
    assert.ok(Math.abs(a.writesPerSec - (8000 - 5000) / secs) < 1e-9, `${a.writesPerSec}`);
    assert.deepEqual(
      s.events.map(e => e.kind),
      ['split', 'move', 'reopen'],
    );
  });

  test('hostile answers: a brotli bomb and an endless body stop at the cap, a redirect is said (issue 56, item 5)', async () => {
    // 96 MiB of spaces after `{"beans"`, brotli: a few KB on the wire
    const bomb = brotliCompressSync(Buffer.concat([Buffer.from('{"beans": ['), Buffer.alloc(96 * 2 ** 20, 32)]), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 1 },
    });
    assert.ok(bomb.length < 1 << 20, `${bomb.length} bytes`);
    const bombs = await rs((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(bomb);
    });
    const endless = await rs((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 32);
      const more = () => {
        while (res.write(chunk)) {}
        res.once('drain', more);
      };
      res.write('{"beans": [');
      more();
      res.on('close', () => res.removeAllListeners('drain'));
    });
    const redirects = await rs((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.example:16030/jmx' });
      res.end();
    });
    const good = await rs((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(dump('20261126T050000Z-rs1.json'));
    });
    servers.push(bombs, endless, redirects, good);
    const out = path.join(dir, 'hostile');
    const args = [bombs.url, endless.url, redirects.url, good.url, '--out', out, '--timeout', '20s', '--count', '1'];
    const w = await cli(['watch', ...args], dir);
    assert.equal(w.status, 3, w.stderr);
    assert.match(w.stderr, new RegExp(`${bombs.url}/jmx.*: the answer passed 64 MiB \\(decoded\\).*: skipped`));
    assert.match(w.stderr, new RegExp(`${endless.url}/jmx.*: the answer passed 64 MiB \\(decoded\\).*: skipped`));
    assert.match(w.stderr, /HTTP 302: redirected to http:\/\/elsewhere\.example:16030\/jmx, not followed/);
    // the good server's snapshot is written beside the others' failures
    assert.match(w.stderr, /1 of 4 servers/);
    assert.equal(readdirSync(out).length, 1);
  });

  test('the same server twice, and --out an existing file: usage errors, no stack trace', async () => {
    const twice = await cli(['watch', 'rs1:16030', 'http://rs1:16030/jmx', '--out', dir], dir);
    assert.equal(twice.status, 2, twice.stderr);
    assert.match(twice.stderr, /http:\/\/rs1:16030\/jmx: the same server as rs1:16030/);
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    const f = await cli(['watch', 'rs1:16030', '--out', file], dir);
    assert.equal(f.status, 2, f.stderr);
    assert.match(f.stderr, /--out .*a-file: exists and is not a directory/);
    // a path through a file: ENOTDIR from stat, said as a usage error
    const through = await cli(['watch', 'rs1:16030', '--out', path.join(file, 'x')], dir);
    assert.equal(through.status, 2, through.stderr);
    assert.match(through.stderr, /--out .*a-file\/x: cannot be a directory \(ENOTDIR\)/);
    assert.doesNotMatch(through.stderr, /\n\s+at /);
    assert.doesNotMatch(f.stderr, /\n\s+at /);
  });

  test('usage: no --out, a bad duration, a URL that is not http', async () => {
    assert.equal((await cli(['watch', 'rs1:16030'], dir)).status, 2);
    assert.equal((await cli(['watch', 'rs1:16030', '--out', dir, '--every', 'soon'], dir)).status, 2);
    assert.equal((await cli(['watch', 'ftp://rs1', '--out', dir], dir)).status, 2);
  });
});
