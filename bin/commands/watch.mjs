// watch: poll RegionServers' /jmx (the URLs the user gives, nothing else) every interval and
// write each answer as a timestamped snapshot file that `observe` reads. A server that times
// out, errs or answers something that is not a /jmx dump is retried, then said and skipped:
// its snapshot is missing, which observe reports as such. An answer is read no further than
// observe's cap on a snapshot file (LIMITS.regions, counted on the decoded bytes: a small
// compressed answer may expand to gigabytes), and a redirect is said, not followed.
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, EXIT } from '../lib/errors.mjs';
import { printable } from '../lib/format.mjs';
import { LIMITS, mib } from '../lib/input.mjs';

/** The region counters and the server's name (bean sub=Server's tag.serverName). */
const QUERY = 'qry=Hadoop:service=HBase,name=RegionServer,sub=*';

/** `60s`, `5m`, `1h`, `500ms` or a number of seconds, in ms. */
export function duration(text, flag) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(text));
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] ?? 's'] : Number.NaN;
  if (!(ms >= 1)) throw new CliError(EXIT.USAGE, `--${flag} must be a duration such as 60s, 5m or 500ms, not ${text}`);
  return ms;
}

/** The URL to poll: a bare `host:port` or a URL without a path gets `/jmx?qry=…`. */
function target(arg) {
  let url;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(arg) ? arg : `http://${arg}`);
  } catch {
    throw new CliError(EXIT.USAGE, `${arg}: not a URL (http://rs1:16030, or rs1:16030)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(EXIT.USAGE, `${arg}: only http and https URLs are polled`);
  if (url.pathname === '/' && !url.search) url = new URL(`/jmx?${QUERY}`, url);
  return url;
}

/** `20261126T053600.123Z`: UTC, no colons (a file name on every system), read back by observe. */
const stamp = ms => new Date(ms).toISOString().replace(/[-:]/g, '');

/**
 * The body of `res` as text, read no further than `max` decoded bytes: past them the read is
 * cancelled and an Error says so (a `Content-Encoding: br` answer of 3 KB expands to 2 GiB).
 */
async function bodyText(res, max) {
  const chunks = [];
  let total = 0;
  const reader = res.body?.getReader();
  if (!reader) return '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return new Error(`the answer passed ${mib(max)} (decoded), more than a snapshot file observe reads`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, total));
}

/** The body of `url` when it is a /jmx dump, else an Error saying why; `tries` attempts. */
async function poll(url, { timeout, tries }) {
  let why;
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeout), redirect: 'manual' });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => {});
        const to = res.headers.get('location');
        // not retried: the server will say the same
        return new Error(
          `HTTP ${res.status}: redirected${to ? ` to ${to}` : ''}, not followed (watch polls only the URLs given)`,
        );
      }
      const body = await bodyText(res, LIMITS.regions.bytes);
      if (body instanceof Error) return body;
      if (!res.ok) why = `HTTP ${res.status}`;
      else if (!/^\s*\{\s*"beans"/.test(body)) why = 'the answer is not a /jmx dump';
      else return body;
    } catch (e) {
      why = e.name === 'TimeoutError' ? `no answer within ${timeout} ms` : (e.cause?.code ?? e.message);
    }
  }
  return new Error(`${why} (${tries} ${tries === 1 ? 'try' : 'tries'})`);
}

/** The snapshot file name's server part of `url`: `host_port`. */
const serverOf = url => `${url.hostname}_${url.port || (url.protocol === 'https:' ? 443 : 80)}`;

const sleep = ms => new Promise(r => setTimeout(r, ms));

export async function watch(pos, opt) {
  if (pos.length === 0) throw new CliError(EXIT.USAGE, 'missing URL... (RegionServers: http://rs1:16030 or rs1:16030)');
  if (opt.out === undefined) throw new CliError(EXIT.USAGE, 'missing --out DIR (where the snapshots go)');
  const urls = pos.map(target);
  // Each server's snapshots go to files named after its host and port: two URLs of one server
  // would write one file a poll and say two.
  const seen = new Map();
  for (const [i, u] of urls.entries()) {
    const other = seen.get(serverOf(u));
    if (other !== undefined)
      throw new CliError(
        EXIT.USAGE,
        `${printable(pos[i])}: the same server as ${printable(pos[other])} (its snapshots would overwrite each other)`,
      );
    seen.set(serverOf(u), i);
  }
  const every = duration(opt.every ?? '60s', 'every');
  const timeout = duration(opt.timeout ?? '10s', 'timeout');
  const tries = 1 + (opt.retries === undefined ? 2 : Number(opt.retries));
  const count = opt.count === undefined ? Infinity : Number(opt.count);
  if (!Number.isInteger(tries) || tries < 1 || !(count >= 1))
    throw new CliError(EXIT.USAGE, '--retries and --count must be whole numbers (--count at least 1)');
  // a path through a file (/dev/null/x) is ENOTDIR here, not a missing entry
  let outStat;
  try {
    outStat = statSync(opt.out, { throwIfNoEntry: false });
  } catch (e) {
    throw new CliError(EXIT.USAGE, `--out ${printable(opt.out)}: cannot be a directory (${e.code ?? e.message})`);
  }
  if (outStat && !outStat.isDirectory())
    throw new CliError(EXIT.USAGE, `--out ${printable(opt.out)}: exists and is not a directory`);
  try {
    mkdirSync(opt.out, { recursive: true });
  } catch (e) {
    throw new CliError(EXIT.INPUT, `--out ${printable(opt.out)}: cannot make the directory (${e.code ?? e.message})`);
  }
  const start = Date.now();
  let failed = 0;
  for (let k = 0; k < count; k++) {
    await sleep(Math.max(0, start + k * every - Date.now()));
    const at = Date.now();
    const answers = await Promise.all(urls.map(u => poll(u, { timeout, tries })));
    for (const [i, body] of answers.entries()) {
      const server = serverOf(urls[i]);
      if (body instanceof Error) {
        failed++;
        console.error(`rowkey-lab: ${printable(urls[i])}: ${printable(body.message)}: skipped at ${stamp(at)}`);
        continue;
      }
      // Written whole, then renamed: observe never reads half a file (it skips dot files).
      const name = `${stamp(at)}-${server}.json`;
      const tmp = join(opt.out, `.${name}.tmp`);
      try {
        writeFileSync(tmp, body);
        renameSync(tmp, join(opt.out, name));
      } catch (e) {
        // the directory removed, the disk full: said, never a stack trace
        throw new CliError(EXIT.INPUT, `--out ${printable(opt.out)}: cannot write ${name} (${e.code ?? e.message})`);
      }
    }
    if (!opt.json)
      console.error(`${stamp(at)}: ${answers.filter(a => !(a instanceof Error)).length} of ${urls.length} servers`);
  }
  return failed ? EXIT.INPUT : EXIT.OK;
}
