// `rowkey-lab watch` against RegionServers played by local HTTP servers on 127.0.0.1 serving
// recorded dumps (tests/fixtures/observe/scenario/), one after another as polls come: the
// snapshots it writes are what `observe` reads, to the figures the dumps' counters give over
// the times watch wrote in the file names. A server that hangs, one that errs and a URL with
// nothing listening are each said and skipped.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliAsync, ROOT } from './helpers.mjs';
import { NOT_BUILT } from './npm-helpers.mjs';

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

  test('usage: no --out, a bad duration, a URL that is not http', async () => {
    assert.equal((await cli(['watch', 'rs1:16030'], dir)).status, 2);
    assert.equal((await cli(['watch', 'rs1:16030', '--out', dir, '--every', 'soon'], dir)).status, 2);
    assert.equal((await cli(['watch', 'ftp://rs1', '--out', dir], dir)).status, 2);
  });
});
