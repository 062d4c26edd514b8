// The page at its edges (issue 37): a key of a megabyte and a CREATE TABLE of 50,000 columns,
// read off the page's thread; the served page's CSP on forms and <base>; Recent designs that
// presets and links cannot empty of the user's own designs, a design too large for localStorage
// kept across a reload (IndexedDB), damaged entries skipped with a note; advice shown only with
// its design. Each case asserts what the page does, not how long it took.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { b64, fillKey, launch, openPage, ROOT, serve, TIME_FIRST, waitDone } from '../helpers.mjs';

let server, browser, dir;
before(async () => {
  server = await serve();
  browser = await launch();
  dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-edges-'));
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };
/** TIME_FIRST with its ids drawn from a list of `n` host names: about 29 bytes of JSON each. */
const hosts = n => ({
  ...TIME_FIRST,
  name: `${n} hosts`,
  fields: [
    {
      name: 'id',
      type: 'string',
      generator: {
        kind: 'list',
        values: Array.from({ length: n }, (_, i) => `host-${String(i).padStart(7, '0')}.example.com`),
      },
    },
    TIME_FIRST.fields[1],
  ],
});
const run = (page, state, timeout = 60000) =>
  page.waitForSelector(`#lab[data-run="${state}"]`, { state: 'attached', timeout });
const hashParam = (page, k) => new URLSearchParams(new URL(page.url()).hash.slice(1)).get(k);
const text = (page, sel) => page.$eval(sel, e => e.textContent);
const shown = (page, sel) => page.$eval(sel, e => !e.hidden && e.offsetParent !== null);
const recentLabels = page => page.$$eval('#recent option', os => os.slice(1).map(o => o.textContent));
/** The page answers: it draws a frame within `ms` (timed here: a frozen page runs no timer). */
const answers = (page, ms = 30000) =>
  Promise.race([
    page.evaluate(() => new Promise(r => requestAnimationFrame(() => r(true)))),
    new Promise(r => setTimeout(() => r(false), ms)),
  ]);
/** Record the engine calls the page makes of its workers (engine/calls.js: `{ id, call, args }`). */
const watchWorkerKinds = page =>
  page.addInitScript(() => {
    window.posted = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      window.posted.push(msg?.call);
      return post.call(this, msg, ...rest);
    };
  });
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

test('ten presets viewed and links opened after editing a design: the edited design stays under Recent designs', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  await fillKey(page, 'salt(id, 4) + long(ts) + id');
  await run(page, 'done');
  const mine = l => l.startsWith('time first · salt(id, 4) + long(ts) + id — ');
  assert.ok((await recentLabels(page)).some(mine));
  // Ten presets, each as it is, one after the other.
  const presets = (await page.$$eval('#preset option', os => os.map(o => o.value))).filter(Boolean).slice(0, 10);
  assert.equal(presets.length, 10);
  for (const p of presets) {
    await page.selectOption('#preset', p);
    await page.waitForFunction(p => location.hash.includes(`p=${p}`), p);
  }
  await run(page, 'done');
  // A script changing the hash twelve times: twelve links opened as they were.
  await page.evaluate(
    async ([base, n]) => {
      for (let i = 0; i < n; i++) {
        location.hash = `v=1&d=${base}&w=${10 + i}`;
        await new Promise(r => setTimeout(r, 50));
      }
    },
    [b64({ ...TIME_FIRST, name: 'a link' }), 12],
  );
  await page.waitForFunction(() => location.hash.includes('w=21'));
  await run(page, 'done');
  await page.reload();
  await run(page, 'done');
  const labels = await recentLabels(page);
  assert.ok(labels.some(mine), labels.join(' | '));
  assert.ok(labels.length <= 10, labels.join(' | '));
  // nothing of the user's went, so nothing is said
  assert.equal(await shown(page, '#keep-note'), false);
  const i = labels.findIndex(mine);
  await page.selectOption('#recent', { index: i + 1 });
  await page.waitForFunction(() => document.getElementById('key-text').value === 'salt(id, 4) + long(ts) + id');
  await run(page, 'done');
  assert.deepEqual(problems, []);
  await page.close();
});

test('when designs the user edited fill Recent designs, the one that makes room for a new one is named', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await run(page, 'done');
  // ten designs edited earlier, the oldest "edited 0"
  await page.evaluate(d => {
    const list = Array.from({ length: 10 }, (_, i) => ({
      id: `e${i}`,
      at: Date.UTC(2026, 0, 1 + (9 - i), 12),
      presetId: '',
      label: `edited ${9 - i}`,
      edited: true,
      text: JSON.stringify({ ...d, name: `edited ${9 - i}` }),
      draft: false,
    }));
    localStorage.setItem('rowkey-lab:recent', JSON.stringify(list));
  }, TIME_FIRST);
  await page.reload();
  await run(page, 'done');
  // A preset viewed as it is takes no edited design's place: it is not kept.
  await page.selectOption('#preset', 'seed000-cyclic');
  await run(page, 'done');
  let labels = await recentLabels(page);
  assert.equal(labels.length, 10);
  assert.ok(labels.some(l => l.startsWith('edited 0 — ')));
  assert.equal(await shown(page, '#keep-note'), false);
  // A design edited: the oldest edited design goes, and the note names it.
  await fillKey(page, 'url + "-" + time(day, "MM-dd")');
  await page.waitForFunction(() => !document.getElementById('keep-note').hidden, null, { timeout: 30000 });
  assert.match(
    await text(page, '#keep-note'),
    /^Recent designs were full: to keep this design, the oldest one you edited, “edited 0” \(1\/1\/2026, .*\), is no longer among them\. Export a design's JSON to keep it for good\.$/,
  );
  labels = await recentLabels(page);
  assert.equal(labels.length, 10);
  assert.ok(!labels.some(l => l.startsWith('edited 0 — ')));
  assert.ok(labels.some(l => l.startsWith('edited 1 — ')));
  await shotOf(page, '.editor', 'edges-recent-evicted');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a 1.5 MiB design accepted, then the page reloaded: the same design is back (IndexedDB)', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  const big = hosts(58000);
  const json = JSON.stringify(big);
  assert.ok(json.length > 1.4 * 1024 * 1024 && json.length < 1.6 * 1024 * 1024, `${json.length}`);
  const file = path.join(dir, 'hosts-58000.rowkey.json');
  writeFileSync(file, json);
  await page.setInputFiles('#import-json', file);
  await page.waitForFunction(() => document.getElementById('io-status').textContent.startsWith('Imported'));
  await run(page, 'done');
  const kept = hashParam(page, 'k');
  assert.match(kept ?? '', /^[a-z0-9]+$/);
  assert.equal(await shown(page, '#keep-note'), false, 'kept, so nothing to say');
  // in IndexedDB, whole; in localStorage, its entry without the text
  assert.equal(
    await page.evaluate(
      id =>
        new Promise((resolve, reject) => {
          const req = indexedDB.open('rowkey-lab');
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const get = req.result.transaction('recent-designs').objectStore('recent-designs').get(id);
            get.onsuccess = () => resolve(get.result?.text?.length ?? 0);
          };
        }),
      kept,
    ),
    json.length,
  );
  await page.reload();
  await run(page, 'done');
  assert.equal(hashParam(page, 'k'), kept);
  assert.equal(await shown(page, '#link-notice'), false);
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), '20,000');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  assert.deepEqual(JSON.parse(readFileSync(await download.path(), 'utf8')), big);
  // and from the menu too, after another design (on show and run: the preset loads apart)
  await page.selectOption('#preset', 'seed000-cyclic');
  await page.waitForFunction(id => !location.hash.includes(`k=${id}`), kept);
  await run(page, 'done');
  const hosts58000 = async () => (await recentLabels(page)).findIndex(l => l.startsWith('58000 hosts')) + 1;
  await page.selectOption('#recent', { index: await hosts58000() });
  await page.waitForFunction(id => location.hash.includes(`k=${id}`), kept);
  await run(page, 'done');
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), '20,000');
  // Two choices in quick succession, each loading apart (a preset; 1.5 MiB from IndexedDB): the
  // later one is what stays on show, whichever finishes loading last.
  await page.evaluate(
    i => {
      const preset = document.getElementById('preset');
      preset.value = 'seed000-cyclic';
      preset.dispatchEvent(new Event('change'));
      const recent = document.getElementById('recent');
      recent.selectedIndex = i;
      recent.dispatchEvent(new Event('change'));
    },
    await hosts58000(),
  );
  await page.waitForTimeout(500); // a preset loaded late would have replaced it by now
  await run(page, 'done');
  assert.equal(hashParam(page, 'k'), kept);
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), '20,000');
  assert.deepEqual(problems, []);
  await page.close();
});

test('damaged Recent designs entries: skipped with a note; a k= link to one says so and runs a working design', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await run(page, 'done');
  await page.evaluate(d => {
    const entry = (id, label, text, more = {}) => ({
      id,
      at: Date.now(),
      presetId: '',
      label,
      text,
      draft: false,
      ...more,
    });
    localStorage.setItem(
      'rowkey-lab:recent',
      JSON.stringify([
        entry('good1', 'time first · long(ts) + id', JSON.stringify(d), { edited: true }),
        entry('bad1', 'cut short', '{"v":1,"name":"cut sh'),
        { id: 'bad2', at: 5, label: 'no text at all' },
        entry('bad3', 'in IndexedDB, but not there', undefined, { stored: true, size: 300000 }),
      ]),
    );
  }, TIME_FIRST);
  // each entry left out, and kept (a newer page may have written it): the note says so after
  // every reload, until the user forgets them
  for (const id of ['bad1', 'bad3']) {
    // the link opened in a new page (the same page would only see its hash change)
    await page.goto('about:blank');
    await page.goto(`${server.url}#v=1&k=${id}`);
    await run(page, 'done');
    assert.match(
      await text(page, '#link-notice'),
      /^This link's design is under Recent designs in this browser, but its entry there could not be read \(it is damaged\): showing the preset "Telecom call records.*" instead\.$/,
    );
    // a working design: the editor holds its key, and it ran
    assert.match(await page.inputValue('#key-text'), /phone/);
    assert.equal(await page.textContent('#metrics [data-metric="regions"]'), '10');
    // (the entry kept in IndexedDB is found missing there a moment after the page is drawn)
    await page.waitForFunction(() => /^3 designs/.test(document.getElementById('recent-note').textContent));
    assert.equal(
      await text(page, '#recent-note'),
      '3 designs under Recent designs could not be read (damaged in this browser’s storage, or written by another version of the page) and are left out. Forget them',
    );
    const labels = await recentLabels(page);
    assert.ok(labels.some(l => l.startsWith('time first · long(ts) + id')));
    assert.ok(!labels.some(l => /cut short|no text|IndexedDB/.test(l)), labels.join(' | '));
    // reloaded: the design shown instead (its link now) runs again, and the note stays
    await page.reload();
    await run(page, 'done');
    assert.match(await page.inputValue('#key-text'), /phone/);
    await page.waitForFunction(() => /^3 designs/.test(document.getElementById('recent-note').textContent));
  }
  await shotOf(page, '.editor', 'edges-recent-damaged');
  await page.click('#recent-forget');
  assert.equal(await shown(page, '#recent-note'), false);
  await page.reload();
  await run(page, 'done');
  assert.equal(await shown(page, '#recent-note'), false);
  assert.ok((await recentLabels(page)).some(l => l.startsWith('time first · long(ts) + id')));
  // the editor works: a key typed runs
  await fillKey(page, 'phone + "_" + time(ts, "yyyyMMddHHmmss")');
  await run(page, 'done');
  // a list that is not a list at all: said too, and the next design kept
  await page.evaluate(() => localStorage.setItem('rowkey-lab:recent', '[{"id":'));
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  assert.match(
    await text(page, '#recent-note'),
    /^The list of Recent designs in this browser’s storage could not be read: it is set aside, and designs from now on are kept again\. Forget it$/,
  );
  assert.equal(await page.evaluate(() => localStorage.getItem('rowkey-lab:recent:unreadable')), '[{"id":');
  await fillKey(page, 'id + long(ts)');
  await run(page, 'done');
  await page.waitForFunction(() => document.querySelectorAll('#recent option').length > 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a CREATE TABLE of 50,000 columns is read in a worker: the page answers meanwhile, Stop stops it', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 }, CLIPBOARD);
  await watchWorkerKinds(page);
  await page.goto(server.url);
  await waitDone(page);
  const cols = Array.from({ length: 50000 }, (_, i) => `c${i} VARCHAR`).join(', ');
  const sql = `CREATE TABLE wide (k VARCHAR NOT NULL, ${cols} CONSTRAINT pk PRIMARY KEY (k))`;
  await page.click('#phoenix-box summary');
  await page.evaluate(s => navigator.clipboard.writeText(s), sql);
  await page.focus('#phoenix-sql');
  await page.keyboard.press('ControlOrMeta+V');
  await page.waitForFunction(() => document.getElementById('phoenix-status').textContent.endsWith('ready to read.'));
  const size = `${Math.ceil(sql.length / 1024)} KiB`;
  assert.equal(await text(page, '#phoenix-status'), `The pasted statement, ${size}: ready to read.`);
  assert.equal(await page.inputValue('#phoenix-sql'), '', 'kept aside, not laid out in the box');
  await shotOf(page, '#phoenix-box', 'edges-phoenix-aside');
  const key = await page.inputValue('#key-text');
  // Use, then Stop in the same task: the click handler returned before the statement was read.
  const said = await page.evaluate(() => {
    document.getElementById('phoenix-apply').click();
    const reading = document.getElementById('phoenix-status').textContent;
    document.getElementById('phoenix-stop').click();
    return [reading, document.getElementById('phoenix-status').textContent];
  });
  assert.deepEqual(said, [`Reading the pasted statement (${size})… Stop`, 'Stopped: the design on show stays.']);
  assert.equal(await page.inputValue('#key-text'), key);
  // Use: read in a worker; the page draws frames while it is read, and then takes the table.
  const during = await page.evaluate(async () => {
    document.getElementById('phoenix-apply').click();
    const status = () => document.getElementById('phoenix-status').textContent;
    const before = status();
    const framed = await new Promise(r => requestAnimationFrame(() => r(true)));
    return { before, framed, after: status() };
  });
  assert.match(during.before, /^Reading the pasted statement/);
  assert.equal(during.framed, true);
  await page.waitForFunction(() => !document.getElementById('phoenix-status').textContent.startsWith('Reading'), null, {
    timeout: 180000,
  });
  // what was read, and what the engine invented for it (a statement gives the key, not the data)
  assert.match(
    await text(page, '#phoenix-status'),
    /^Phoenix table WIDE \(read from its CREATE TABLE statement\)\..* The statement gives the key, not the data: .*K random \d+-character text/,
  );
  await page.waitForFunction(() => document.getElementById('key-text').value === 'pk(K, VARCHAR)');
  await waitDone(page);
  assert.ok((await page.evaluate(() => window.posted)).includes('parseCreateTable'));
  // its CREATE TABLE, a megabyte of lines, is not laid out on the page: copied on demand
  assert.match(
    await text(page, '#phoenix-unshown'),
    /^This design's CREATE TABLE is too long to show here \(its JSON is 1\.\d MiB\): the button copies it\.$/,
  );
  await page.click('#phoenix-copy');
  await page.waitForFunction(() => document.getElementById('phoenix-status').textContent === 'CREATE TABLE copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^CREATE TABLE WIDE \(/);
  assert.ok(copied.includes('C49999 VARCHAR'));
  // An error in the long statement: the line cut around the spot, the caret under it.
  const bad = sql.replace('c49990 VARCHAR', 'c49990 NOSUCHTYPE');
  await page.evaluate(s => navigator.clipboard.writeText(s), bad);
  await page.focus('#phoenix-sql');
  await page.keyboard.press('ControlOrMeta+V');
  await page.waitForFunction(() => document.getElementById('phoenix-status').textContent.endsWith('ready to read.'));
  await page.click('#phoenix-apply');
  await page.waitForSelector('#phoenix-error:not([hidden])', { timeout: 180000 });
  const lines = (await text(page, '#phoenix-error')).split('\n');
  assert.match(lines[0], /NOSUCHTYPE/);
  assert.match(lines[1], /^line 1, column \d+:$/);
  assert.ok(lines[2].length <= 122, lines[2]);
  assert.equal(lines[3].trim(), '^');
  assert.ok(lines[2].slice(lines[3].indexOf('^')).startsWith('NOSUCHTYPE,'), `${lines[2]}\n${lines[3]}`);
  await shotOf(page, '#phoenix-box', 'edges-phoenix-error');
  assert.deepEqual(problems, []);
  await page.close();
});

test('advice belongs to its design: a switch stops a run, and finished advice is not shown or loaded for another design', async () => {
  const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 900 });
  await page.goto(`${server.url}#p=seed000-telecom-time-first`);
  await waitDone(page);
  // Advise pressed while its view is still loading (held back here), then another design: the
  // press is dropped and said at once, and nothing runs once the view is there.
  let release;
  const held = new Promise(r => {
    release = r;
  });
  await page.route('**/views/advice-view.js', async route => {
    await held;
    await route.continue();
  });
  const loaded = page.waitForEvent('requestfinished', r => r.url().endsWith('/views/advice-view.js'));
  await page.click('#advice-run');
  await page.selectOption('#preset', 'seed000-telecom');
  const switched = 'Stopped: the design changed while the advisor ran. Run it again for the design on show.';
  assert.equal(await text(page, '#advice-status'), switched);
  release();
  await loaded;
  await page.evaluate(() => new Promise(r => setTimeout(r, 100)));
  assert.equal(await text(page, '#advice-status'), switched, 'no run for the design pressed for');
  assert.deepEqual(await page.$$eval('#advice-run, #advice-cancel', bs => bs.map(b => b.disabled)), [false, true]);
  await page.unroute('**/views/advice-view.js');
  await page.selectOption('#preset', 'seed000-telecom-time-first');
  await waitDone(page);
  // A run long enough to be switched away from (20,000 records a candidate took 0.2 s: on a
  // loaded machine the run could end before the switch), then another design before it ends:
  // it stops, and draws nothing.
  await page.fill('#advice-records', '400000');
  await page.click('#advice-run');
  await page.selectOption('#preset', 'seed000-telecom');
  assert.equal(await text(page, '#advice-status'), switched);
  assert.equal(await page.$('#advice .advice-plot'), null);
  // Advice on design A (the time-first preset).
  await page.selectOption('#preset', 'seed000-telecom-time-first');
  await waitDone(page);
  await page.fill('#advice-records', '20000');
  await page.click('#advice-run');
  await page.waitForSelector('#advice .advice-plot', { timeout: 120000 });
  assert.match(await text(page, '#advice-for'), /^Advice for the design on show, “Telecom.*”\.$/);
  // B on show: A's advice is not shown, and nothing of it can be loaded.
  await page.selectOption('#preset', 'seed000-vehicle');
  await waitDone(page);
  assert.equal(await page.$('#advice-load'), null);
  assert.equal(await page.$('#advice .advice-plot'), null);
  assert.match(
    await text(page, '#advice-other'),
    /^The advisor's last answer was for “Telecom.*”, not for the design on show: run it for this design, or open “Telecom.*” again \(Recent designs\) to see that answer\.$/,
  );
  await shotOf(page, '#advice', 'edges-advice-other');
  // A again: its advice is back; a candidate loaded from it keeps it, named as that candidate.
  const labels = await recentLabels(page);
  await page.selectOption('#recent', { index: labels.findIndex(l => l.includes('call time first')) + 1 });
  await waitDone(page);
  await page.waitForSelector('#advice .advice-plot');
  const other = await page.$eval('#advice .advice-plot g[data-index]:not(.current):not(.recommended)', g => [
    g.dataset.index,
    g.querySelector('title').textContent,
  ]);
  await page.focus(`#advice .advice-plot g[data-index="${other[0]}"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(l => document.querySelector('#advice-detail h4')?.textContent.startsWith(l), other[1]);
  await page.click('#advice-load');
  await waitDone(page);
  assert.equal(
    await text(page, '#advice-for'),
    `Advice for “Telecom call records, call time first (seed 000, the hotspot)”; the design on show is its candidate “${other[1]}”, loaded from here.`,
  );
  // the candidate edited: another design, the advice goes
  await fillKey(page, 'phone + "-x-" + time(ts, "yyyyMMddHHmmss")');
  await page.waitForSelector('#advice-other');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a Phoenix design whose option would run a second statement: no CREATE TABLE, the reason at its path', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const preset = JSON.parse(readFileSync(path.join(ROOT, 'presets/seed000-phoenix-telecom.json'), 'utf8'));
  const hostile = {
    ...preset,
    phoenix: { ...preset.phoenix, options: ['TTL=86400 ) ; DROP TABLE CALL_RECORDS; --'] },
  };
  await page.goto(`${server.url}#v=1&d=${b64(hostile)}`);
  await waitDone(page);
  await page.waitForSelector('#phoenix-out:not([hidden])', { state: 'attached' });
  assert.equal(await shown(page, '#phoenix-ddl'), false, 'no statement is shown');
  assert.equal(await shown(page, '#phoenix-copy'), false, 'nothing to copy');
  const note = await text(page, '#phoenix-unshown');
  assert.match(note, /No CREATE TABLE is printed/);
  assert.match(note, /\/phoenix\/options\/0/);
  assert.doesNotMatch(await text(page, '#phoenix-ddl'), /DROP TABLE/);
  // the preset itself prints
  await page.goto(`${server.url}#v=1&d=${b64(preset)}`);
  await waitDone(page);
  await page.waitForFunction(() => /CREATE TABLE/.test(document.querySelector('#phoenix-ddl')?.textContent ?? ''));
  assert.equal(await shown(page, '#phoenix-copy'), true);
  assert.deepEqual(problems, []);
});
