// The page with large inputs and the user's work (issue 26; issue 37's edges are in
// page-edges.test.mjs): design files and region texts checked for size before they are read, and
// read in a worker (what reads them watched; the main thread's long tasks meanwhile printed as
// figures, not asserted); Recent designs keeping every design edited whatever its run did;
// another link opened in the same tab; a design too large for a link.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { b64, fillKey, launch, openPage, ROOT, serve, TIME_FIRST } from '../helpers.mjs';

let server, browser, dir;
before(async () => {
  server = await serve();
  browser = await launch();
  dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-keep-'));
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const unb64 = s => JSON.parse(Buffer.from(s, 'base64url').toString());
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

/** Record the page's long tasks from its start (PerformanceObserver 'longtask'). */
const watchLongTasks = page =>
  page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver(list => {
      for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
/** Record, from the page's start, what reads a file or a long text: the page's thread reading a
 * Blob (a File is one) and the messages asking a worker to read one (state/io.js readOff). How
 * long the page's tasks are meanwhile is a figure of the machine's load, printed, not asserted. */
const watchReads = page =>
  page.addInitScript(() => {
    window.reads = { main: 0, worker: [] };
    for (const m of ['text', 'arrayBuffer', 'stream', 'bytes']) {
      const f = Blob.prototype[m];
      if (f)
        Blob.prototype[m] = function (...a) {
          window.reads.main++;
          return f.apply(this, a);
        };
    }
    for (const m of ['readAsText', 'readAsArrayBuffer', 'readAsDataURL', 'readAsBinaryString']) {
      const f = FileReader.prototype[m];
      FileReader.prototype[m] = function (...a) {
        window.reads.main++;
        return f.apply(this, a);
      };
    }
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg?.call === 'readDesign' || msg?.call === 'readRegions') window.reads.worker.push(msg.call);
      return post.call(this, msg, ...rest);
    };
  });
const reads = page => page.evaluate(() => window.reads);
const now = page => page.evaluate(() => performance.now());
/** The long tasks (ms) that ended between `t0` and `t1` (page clock). */
const longTasks = (page, t0, t1 = Infinity) =>
  page.evaluate(
    ([a, b]) =>
      window.longTasks.filter(t => t.start + t.duration >= a && t.start <= b).map(t => Math.round(t.duration)),
    [t0, t1],
  );

test('a design file over the size cap is refused before it is read: a message, nothing read, the design kept', async t => {
  const { page, problems } = await openPage(browser, server.url, undefined, CLIPBOARD);
  await watchLongTasks(page);
  await watchReads(page);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  const link = page.url();
  // 1 GiB (a sparse file): reading it would take the tab's memory
  const huge = path.join(dir, 'huge.rowkey.json');
  writeFileSync(huge, '');
  truncateSync(huge, 1024 ** 3);
  const t0 = await now(page);
  await page.setInputFiles('#import-json', huge);
  await page.waitForFunction(() => document.getElementById('io-status').textContent !== '');
  assert.equal(
    await text(page, '#io-status'),
    'Not imported: huge.rowkey.json is 1024.0 MiB; the page opens design files of up to 2.0 MiB.',
  );
  assert.equal(await page.$eval('#io-status', e => e.classList.contains('error')), true);
  await page.locator('.toolbar').screenshot({ path: path.join(ROOT, 'test-results/keep-import-refused.png') });
  // Dropped on the page: the same check (and the browser does not open the file in its place).
  const drop = (name, bytes, body) =>
    page.evaluate(
      ([name, bytes, body]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([body ?? new Uint8Array(bytes)], name, { type: 'application/json' }));
        const e = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
        document.getElementById('key-text').dispatchEvent(e);
        return e.defaultPrevented;
      },
      [name, bytes, body],
    );
  assert.equal(await drop('dropped.json', 3 * 1024 * 1024 + 1), true);
  await page.waitForFunction(() => document.getElementById('io-status').textContent.includes('dropped.json'));
  assert.equal(
    await text(page, '#io-status'),
    'Not imported: dropped.json is 3.0 MiB; the page opens design files of up to 2.0 MiB.',
  );
  const t1 = await now(page);
  assert.equal(page.url(), link, 'the design and its link are as they were');
  assert.equal(await page.inputValue('#key-text'), TIME_FIRST.key);
  t.diagnostic(`long tasks while refusing: ${JSON.stringify(await longTasks(page, t0, t1))} ms`);
  assert.deepEqual(await reads(page), { main: 0, worker: [] }, 'refused from its size alone, unread');
  // A design file under the cap, dropped: read in the worker and opened.
  await drop('salted.json', 0, JSON.stringify({ ...TIME_FIRST, name: 'salted', key: 'salt(id, 8) + long(ts) + id' }));
  await page.waitForFunction(() => document.getElementById('key-text').value.startsWith('salt('));
  assert.equal(await text(page, '#io-status'), 'Imported salted.json.');
  assert.deepEqual(await reads(page), { main: 0, worker: ['readDesign'] }, 'read in a worker');
  await run(page, 'done');
  // Pasted into the JSON editor: longer than a design may be, refused; longer than the editor
  // shows, opened as a design of its own (read in the worker as a file is).
  const paste = async s => {
    await page.evaluate(s => navigator.clipboard.writeText(s), s);
    await page.focus('#doc-json');
    await page.keyboard.press('Control+V');
  };
  await page.click('#json-box summary');
  const before = await page.inputValue('#doc-json');
  await paste(JSON.stringify(hosts(80000)));
  await page.waitForFunction(() => document.getElementById('io-status').textContent.startsWith('Not pasted'));
  assert.equal(
    await text(page, '#io-status'),
    'Not pasted: the text is 2.1 MiB; the page opens designs of up to 2.0 MiB.',
  );
  assert.equal(await page.inputValue('#doc-json'), before);
  // 2,100 hosts: longer than the box as pasted (indented), shorter as the editor holds it
  const pretty = JSON.stringify(hosts(2100), null, 2);
  assert.ok(pretty.length > 64 * 1024 && JSON.stringify(hosts(2100)).length < 64 * 1024);
  await paste(pretty);
  await page.waitForFunction(() => document.getElementById('io-status').textContent.startsWith('Imported'));
  assert.equal(await text(page, '#io-status'), 'Imported the pasted design.');
  assert.equal(await page.inputValue('#doc-json'), pretty);
  await run(page, 'done');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a design near the cap (1.9 MiB) is read in the worker; the editor, the link and Recent designs say what they cannot hold', async t => {
  const { page, problems } = await openPage(browser, server.url);
  await watchLongTasks(page);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  const big = hosts(72000);
  const file = path.join(dir, 'hosts.rowkey.json');
  writeFileSync(file, JSON.stringify(big));
  const t0 = await now(page);
  // The file is read in a worker of its own (state/io.js readOff), not on the page's thread:
  // asserted by that worker's start. How long the page's tasks are while it imports is a
  // figure of the machine's load, printed and not asserted (it passed 200 ms under the full
  // suite on a loaded 2-core machine).
  const readers = [];
  const onWorker = w => readers.push(w.url());
  page.on('worker', onWorker);
  await page.setInputFiles('#import-json', file);
  // the design is on the page and its run started in the same task as this message
  await page.waitForFunction(() => document.getElementById('io-status').textContent.startsWith('Imported'));
  const t1 = await now(page);
  page.off('worker', onWorker);
  await run(page, 'done');
  const importing = await longTasks(page, t0, t1);
  t.diagnostic(
    `long tasks: the import ${JSON.stringify(importing)} ms over ${Math.round(t1 - t0)} ms; the result drawn ${JSON.stringify(await longTasks(page, t1))} ms`,
  );
  assert.ok(
    readers.some(u => /\/worker\.js$/.test(u)),
    `a reading worker (worker.js, no run in its URL) started: ${readers.join(', ')}`,
  );
  assert.equal(await page.textContent('#metrics [data-metric="writes"]'), '20,000');
  // The JSON editor does not take it (the page would stall drawing it); the key stays editable.
  assert.match(
    await text(page, '#json-note'),
    /^This design's JSON is 1\.\d MiB, longer than the editor here shows \(64 KiB\): the page would stall drawing it\. Export the JSON/,
  );
  assert.equal(await page.$eval('#doc-json', e => e.readOnly && e.value === ''), true);
  // Neither does a link: the hash names its Recent designs entry, which holds it (in IndexedDB;
  // page-edges.test.mjs reloads such a design).
  assert.equal(await shown(page, '#link-note'), true);
  assert.equal(hashParam(page, 'd'), null);
  assert.equal(await shown(page, '#keep-note'), false);
  assert.ok((await recentLabels(page)).some(l => l.startsWith('72000 hosts · long(ts) + id — ')));
  // Exported whole.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  assert.deepEqual(JSON.parse(readFileSync(await download.path(), 'utf8')), big);
  await page.locator('.editor').screenshot({ path: path.join(ROOT, 'test-results/keep-large-design.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('region text: a paste too long for the box is read in the worker, a file over the cap refused unread', async t => {
  const { page, problems } = await openPage(browser, server.url, undefined, CLIPBOARD);
  await watchLongTasks(page);
  await watchReads(page);
  await page.goto(server.url);
  await run(page, 'done');
  await page.click('#table-regions summary');
  // A million region start keys, 12.4 MiB.
  const lines = 1_000_000;
  await page.evaluate(
    n =>
      navigator.clipboard.writeText(Array.from({ length: n }, (_, i) => `row${String(i).padStart(9, '0')}`).join('\n')),
    lines,
  );
  await page.focus('#regions-text');
  const t0 = await now(page);
  await page.keyboard.press('Control+V');
  await page.waitForFunction(() => document.getElementById('regions-status').textContent.endsWith('ready to read.'));
  const t1 = await now(page);
  assert.equal(await text(page, '#regions-status'), 'The pasted text, 12.4 MiB: ready to read.');
  assert.equal(await page.inputValue('#regions-text'), '', 'not put in the box');
  assert.match(
    await page.getAttribute('#regions-text', 'placeholder'),
    /too long to show here: “Use these regions” reads it/,
  );
  await page.locator('#table-regions').screenshot({ path: path.join(ROOT, 'test-results/keep-regions-aside.png') });
  const pasting = await longTasks(page, t0, t1);
  await page.click('#regions-apply');
  assert.match(await text(page, '#regions-status'), /^Reading The pasted text \(12\.4 MiB\)… Stop$/);
  await page.waitForFunction(() => !document.getElementById('regions-status').textContent.startsWith('Reading'), null, {
    timeout: 180000,
  });
  const t2 = await now(page);
  // The engine refuses them: more regions than a layout may have (its limit error, shown).
  assert.match(
    await text(page, '#regions-status'),
    /^The pasted text: a table of 1000001 regions is over the limit of 100000 regions: /,
  );
  const reading = await longTasks(page, t1, t2);
  t.diagnostic(
    `long tasks: the paste (the browser's clipboard read) ${JSON.stringify(pasting)} ms; the read ${JSON.stringify(reading)} ms over ${Math.round(t2 - t1)} ms`,
  );
  assert.deepEqual(await reads(page), { main: 0, worker: ['readRegions'] }, 'the paste read in a worker');
  assert.equal(await page.textContent('#metrics [data-metric="regions"]'), '10', 'the design keeps its regions');
  // A file over the cap: refused from its size, before anything is read.
  const huge = path.join(dir, 'meta-scan.txt');
  writeFileSync(huge, '');
  truncateSync(huge, 100 * 1024 * 1024);
  const t3 = await now(page);
  await page.setInputFiles('#regions-file', huge);
  await page.waitForFunction(() => document.getElementById('regions-status').textContent.startsWith('Not read'));
  assert.equal(
    await text(page, '#regions-status'),
    'Not read: meta-scan.txt is 100.0 MiB; the page reads region text of up to 64.0 MiB.',
  );
  t.diagnostic(`long tasks while refusing: ${JSON.stringify(await longTasks(page, t3))} ms`);
  assert.deepEqual(await reads(page), { main: 0, worker: ['readRegions'] }, 'the file refused unread');
  // An error in a file is named with its line, which the box cannot show: a region name edited.
  const edited = path.join(dir, 'regions.txt');
  const bad =
    ' rs2.example.internal,16020,1700000000456 | events,\\x02,1700000000000.e2388f30e27d4b2ce98a8810557b1aba. |';
  writeFileSync(
    edited,
    ` rs1.example.internal,16020,1700000000123 |     events,,1700000000000.b9648a65b8e483aa98e34ec614d0456a. |\n${bad}\n`,
  );
  await page.setInputFiles('#regions-file', edited);
  await page.click('#regions-apply');
  await page.waitForFunction(() => document.getElementById('regions-status').textContent.startsWith('regions.txt'));
  const said = (await text(page, '#regions-status')).split('\n');
  assert.match(
    said[0],
    /^regions\.txt, line 2, column 56: the region name ending `,1700000000000\.e2388f30e27d4b2ce98a8810557b1aba\.` does not check out/,
  );
  assert.equal(said[1], bad);
  // The box takes short texts as before: typed there, the text pasted before is dropped.
  await page.fill('#regions-text', '\\x01\n\\x02\n');
  assert.equal(await page.getAttribute('#regions-text', 'placeholder'), '');
  await page.click('#regions-apply');
  await page.waitForFunction(() => document.querySelector('#metrics [data-metric="regions"]')?.textContent === '3');
  assert.deepEqual(problems, []);
  await page.close();
});

test("Recent designs keep every design edited: a failed run's, a cancelled run's, JSON as typed", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  await run(page, 'done');
  // A run that fails: a key naming no field of the design (it parses; the run says why).
  await fillKey(page, 'salt(nosuch, 4) + phone');
  await run(page, 'error');
  await page.selectOption('#preset', 'seed000-cyclic');
  await run(page, 'done');
  // A run that is cancelled: a long one, the key changed, then Cancel.
  const long = { ...TIME_FIRST, name: 'long run', workload: { records: 50_000_000 } };
  await page.goto(`${server.url}#v=1&d=${b64(long)}`);
  await run(page, 'running');
  await fillKey(page, 'id + long(ts)');
  await run(page, 'running');
  await page.click('#cancel');
  await run(page, 'cancelled');
  // JSON typed that does not parse, over a preset.
  await page.selectOption('#preset', 'seed000-telecom');
  await run(page, 'done');
  const telecomKey = await page.inputValue('#key-text');
  await page.click('#json-box summary');
  const typed = '{\n  "v": 1,\n  "name": "half typed",\n  "key": ';
  await page.fill('#doc-json', typed);
  await run(page, 'error');
  await page.selectOption('#preset', 'seed000-cyclic');
  await run(page, 'done');
  await page.reload(); // kept in localStorage, not in the page
  await run(page, 'done');
  const labels = await recentLabels(page);
  // (the list is drawn again, most recent first, as designs are switched)
  const pick = async re => {
    const now = await recentLabels(page);
    const i = now.findIndex(l => re.test(l));
    assert.ok(i >= 0, `${re} in ${now.join(' | ')}`);
    await page.selectOption('#recent', { index: i + 1 });
  };
  await pick(/^Telecom call records.* · salt\(nosuch, 4\) \+ phone — /);
  await run(page, 'error');
  assert.equal(await page.inputValue('#key-text'), 'salt(nosuch, 4) + phone');
  assert.match(await text(page, '#design-error'), /nosuch/);
  await pick(/^long run · id \+ long\(ts\) — /);
  await run(page, 'running');
  assert.equal(await page.inputValue('#key-text'), 'id + long(ts)');
  await page.click('#cancel');
  await pick(/^Telecom call records.* \(unfinished JSON\) — /);
  assert.equal(await page.inputValue('#doc-json'), typed, 'the text as typed');
  assert.equal(await page.inputValue('#key-text'), telecomKey, 'over the design it was typed over');
  assert.equal(await shown(page, '#design-error'), true);
  assert.equal(await page.getAttribute('#doc-json', 'aria-invalid'), 'true');
  await page.locator('.editor').screenshot({ path: path.join(ROOT, 'test-results/keep-recent-unfinished.png') });
  // Each design is one entry, however often it was changed.
  assert.ok(labels.length <= 10, labels.join(' | '));
  assert.equal(new Set(labels.map(l => l.replace(/ — .*$/, ''))).size, labels.length, labels.join(' | '));
  assert.deepEqual(problems, []);
  await page.close();
});

test('another link opened in the same tab opens in place; the design before goes to Recent designs', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(`${server.url}#v=1&d=${b64(TIME_FIRST)}`);
  await run(page, 'done');
  await fillKey(page, 'salt(id, 4) + long(ts) + id');
  // At once (before the edit would be kept on its own): only the hash changes.
  const other = { ...TIME_FIRST, name: 'the other link', key: 'id + long(ts)' };
  await page.goto(`${server.url}#v=1&d=${b64(other)}`);
  await page.waitForFunction(() => document.getElementById('key-text').value === 'id + long(ts)');
  await run(page, 'done');
  assert.deepEqual(JSON.parse(await page.inputValue('#doc-json')), other);
  assert.deepEqual(unb64(hashParam(page, 'd')), other);
  // The next change is to the link's design, not to the one before it.
  await page.fill('#windows', '32');
  await page.waitForFunction(() => location.hash.includes('w=32'));
  assert.deepEqual(unb64(hashParam(page, 'd')), other);
  const labels = await recentLabels(page);
  const i = labels.findIndex(l => l.startsWith('time first · salt(id, 4) + long(ts) + id — '));
  assert.ok(i >= 0, labels.join(' | '));
  await page.selectOption('#recent', { index: i + 1 });
  await page.waitForFunction(() => document.getElementById('key-text').value === 'salt(id, 4) + long(ts) + id');
  await run(page, 'done');
  // A link that cannot be opened, followed in the tab: it says so, as on a first load.
  await page.goto(`${server.url}#v=1&p=no-such-preset`);
  await page.waitForFunction(() => !document.getElementById('link-notice').hidden);
  assert.match(await text(page, '#link-notice'), /names a preset that does not exist \(no-such-preset\)/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a design too large for a link: the copy-link control says so, the hash names its Recent entry', async () => {
  const { page, problems } = await openPage(browser, server.url, undefined, CLIPBOARD);
  await page.goto(server.url);
  await run(page, 'done');
  assert.equal(await shown(page, '#link-note'), false);
  const big = hosts(2000); // 58 KB of JSON, about 78 KB of link
  const file = path.join(dir, 'hosts-2000.rowkey.json');
  writeFileSync(file, JSON.stringify(big, null, 2));
  await page.setInputFiles('#import-json', file);
  await page.waitForFunction(() => !document.getElementById('link-note').hidden);
  await run(page, 'done');
  assert.equal(await text(page, '#link-note'), 'Too large to share as a link (over 32 KiB): export the JSON.');
  // the button is described by the note, and marked as not doing what its label says
  assert.equal(await page.getAttribute('#copy-link', 'aria-describedby'), 'link-note');
  assert.equal(await page.getAttribute('#copy-link', 'aria-disabled'), 'true');
  assert.equal(hashParam(page, 'd'), null);
  const kept = hashParam(page, 'k');
  assert.match(kept, /^[a-z0-9]+$/);
  assert.ok(page.url().length < 32 * 1024, `${page.url().length}`);
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  // (aria-disabled: a click still reaches it, and says why it copies nothing)
  await page.focus('#copy-link');
  await page.keyboard.press('Enter');
  assert.equal(
    await text(page, '#io-status'),
    'This design is too large to share as a link: export the JSON and share the file.',
  );
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'before', 'no link copied');
  await page.locator('.toolbar').screenshot({ path: path.join(ROOT, 'test-results/keep-too-large-link.png') });
  // A reload opens it from Recent designs.
  await page.reload();
  await run(page, 'done');
  assert.deepEqual(JSON.parse(await page.inputValue('#doc-json')), big);
  assert.equal(hashParam(page, 'k'), kept);
  assert.equal(await shown(page, '#link-notice'), false);
  // In another browser the link says it holds no design.
  const { page: p2, problems: problems2 } = await openPage(browser, server.url);
  await p2.goto(page.url());
  await run(p2, 'done');
  assert.match(
    await text(p2, '#link-notice'),
    /^This link's design was too large for a link, and it is not under Recent designs in this browser: showing the preset/,
  );
  // Small again: the link holds the design again.
  await fillKey(page, 'id + long(ts)');
  await page.click('#json-box summary');
  const small = { ...TIME_FIRST, key: 'id + long(ts)' };
  await page.fill('#doc-json', JSON.stringify(small));
  await page.waitForFunction(() => document.getElementById('link-note').hidden);
  assert.deepEqual(unb64(hashParam(page, 'd')), small);
  assert.equal(await page.getAttribute('#copy-link', 'aria-disabled'), null);
  assert.deepEqual([...problems, ...problems2], []);
  await p2.close();
  await page.close();
});
