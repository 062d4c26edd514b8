// Shared test helpers: a static server for the built page (dist/www, what users get) on loopback
// and Debian's Chromium via playwright-core (never a downloaded browser).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = path.join(ROOT, 'test-results');

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Modification times of every file under `dir`. */
const mtimes = dir =>
  readdirSync(dir, { recursive: true })
    .map(f => statSync(path.join(dir, f)))
    .filter(s => s.isFile())
    .map(s => s.mtimeMs);

/**
 * dist/www, the page as scripts/build-page.mjs builds it from www/; throws when it is missing or
 * older than a file of www/ (the tests would check a stale page).
 */
export function builtPage() {
  const dist = path.join(ROOT, 'dist/www'),
    www = path.join(ROOT, 'www');
  const why = !existsSync(path.join(dist, 'index.html'))
    ? 'is missing'
    : Math.max(...mtimes(www)) > Math.min(...mtimes(dist))
      ? 'is older than www/'
      : null;
  if (why)
    throw new Error(`dist/www ${why}: run \`node scripts/build-page.mjs\` (after \`bash scripts/build-wasm.sh\`)`);
  return dist;
}

/** Serve `dir` (default: the built page) with sirv on a free loopback port; resolves to { url, close }. */
export async function serve(dir = builtPage()) {
  const port = await freePort();
  const bin = path.join(ROOT, 'node_modules/.bin/sirv');
  const child = spawn(bin, [dir, '--port', String(port), '--host', '127.0.0.1', '--quiet'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise(r => setTimeout(r, 100));
  }
  return { url, close: () => child.kill() };
}

/** Launch headless Debian Chromium. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that records console errors/warnings, page errors and requests leaving `origin`. */
export async function openPage(browser, origin, viewport = { width: 1280, height: 800 }, context = {}) {
  const page = await browser.newPage({ viewport, ...context });
  const problems = [];
  const foreign = [];
  page.on('console', m => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', e => problems.push(`pageerror: ${e.message}`));
  page.on('request', r => {
    const u = r.url();
    if (origin && !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
  });
  // (not problems: a cancelled run ends its workers, and their loads fail by design; kept to say
  // why a wait timed out)
  const failed = [];
  failedLoads.set(page, failed);
  page.on('requestfailed', r => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
  return { page, problems, foreign };
}
const failedLoads = new WeakMap();

/** The rows panel's mapping offered for the file just opened (the engine read its columns: the
 * null policies offered are the engine's), then `nulls` chosen. When the columns do not come,
 * fails with what the page said meanwhile: the panel's status and error, the loads that failed. */
export async function chooseNulls(page, nulls = 'skip') {
  try {
    await page.waitForSelector(`#rows-nulls option[value="${nulls}"]`, { state: 'attached' });
  } catch (e) {
    const said = await page.evaluate(() =>
      Object.fromEntries(
        ['rows-status', 'rows-error', 'run-status'].map(id => [id, document.getElementById(id)?.textContent]),
      ),
    );
    throw new Error(
      `the columns of the file opened were not offered: ${JSON.stringify({ ...said, failedLoads: failedLoads.get(page) })}`,
      { cause: e },
    );
  }
  await page.selectOption('#rows-nulls', nulls);
}

/** Save a screenshot under test-results/ and return its path. */
export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const p = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: p, fullPage: true });
  return p;
}

/** Types `text` as the row key, replacing it, in the key editor (CodeMirror, mounted after the
 * first run; the key textarea is hidden then, and keeps the text the editor writes to it). */
export async function fillKey(page, text) {
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  // Select all and insert, as a paste or an input method does (page.fill's editing command
  // would copy inline styles into the editor, which the page's CSP refuses).
  await page.click('#key-cm .cm-content');
  await page.keyboard.press('ControlOrMeta+A');
  if (text) await page.keyboard.insertText(text);
  else await page.keyboard.press('Delete');
}

/** Waits for the page's run to end with its result drawn (`#lab[data-run="done"]`). */
/** A served page (`serve(dir)`) and a browser for a test file's tests: started before them,
 * closed after; `rig.server` and `rig.browser` once started. */
export function pageRig(dir) {
  const rig = { server: null, browser: null };
  before(async () => {
    rig.server = await serve(dir);
    rig.browser = await launch();
  });
  after(async () => {
    await rig.browser?.close();
    rig.server?.close();
  });
  return rig;
}

/** Waits for a run to end drawn; on a timeout, the error says what the page shows instead. */
export async function waitDone(page) {
  try {
    await page.waitForSelector('#lab[data-run="done"]', { state: 'attached', timeout: 60000 });
  } catch (e) {
    // what the page shows instead, so a run that never ends says where it stopped
    const seen = await page
      .evaluate(() => ({
        run: document.querySelector('#lab')?.dataset.run,
        status: document.querySelector('#run-status')?.textContent,
        error: document.querySelector('#design-error')?.textContent,
        key: document.querySelector('#key-text')?.value,
      }))
      .catch(() => null);
    e.message += ` (the page: ${JSON.stringify(seen)})`;
    throw e;
  }
}

/** `sql` (a Phoenix CREATE TABLE and its CREATE INDEX statements) pasted into the page's Phoenix
 * box and used, as a user does; returns once its run is drawn with its indexes' section. */
export async function pasteTable(page, sql) {
  await page.click('#phoenix-box summary');
  await page.fill('#phoenix-sql', sql);
  await page.click('#phoenix-apply');
  await page.waitForSelector('#indexes table', { timeout: 60000 });
  await waitDone(page);
}

/** A design document in a link's `d=` form (base64url of its JSON). */
/**
 * The CLI (`bin/rowkey-lab.mjs`) run asynchronously, for tests whose own servers answer it in
 * this process (spawnSync would block them): `{ status, stdout, stderr }`; killed after
 * `timeoutMs`.
 */
export const cliAsync = (args, cwd = ROOT, timeoutMs = 120000) =>
  new Promise(resolve => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/rowkey-lab.mjs'), ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => {
      stdout += d;
    });
    child.stderr.on('data', d => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on('close', status => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });

/**
 * A largest row's writes, cells and bytes as the page's text shows them: the number, or for a
 * sketch's estimate `≈n` and under it `≤ n + bound` (the report's `writesError`, `bytesError`).
 */
export function largestRowFigures(report, w) {
  const n = x => x.toLocaleString('en-US');
  const upTo = (x, bound) => (report.largestRowsExact || !bound ? n(x) : `≈${n(x)}≤ ${n(x + bound)}`);
  return [upTo(w.writes, w.writesError), upTo(w.cells, w.writesError), upTo(w.bytes, w.bytesError)];
}

export const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');

/** A key led by time over 8 uniform regions and 3 servers: one region takes each window's writes. */
export const TIME_FIRST = {
  v: 1,
  name: 'time first',
  fields: [
    { name: 'id', type: 'string', cardinality: 1000 },
    { name: 'ts', type: 'timestamp' },
  ],
  key: 'long(ts) + id',
  workload: { records: 20000 },
  regions: { presplit: { kind: 'uniform', regions: 8 }, regionServers: 3 },
};
