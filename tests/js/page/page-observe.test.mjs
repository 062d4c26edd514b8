// A live table on the page (issue 42): the salted fixture's snapshots (tests/fixtures/observe/
// salted/, written by scripts/observe-fixtures.py, with salted-design.json) opened on the page,
// read in its worker on the rows build, drawn as the live heatmap with the design's prediction and
// diagnosis; every figure the page shows is `rowkey-lab observe --json`'s for the same files. And
// `rowkey-lab watch` against RegionServers played on 127.0.0.1 writes snapshots that the page
// (dropped on its panel) and observe read to the same figures.

import assert from 'node:assert/strict';
import {
  closeSync,
  copyFileSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { b64, cliAsync, launch, openPage, ROOT, serve, shot, waitDone } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';

/** The npm package (Node), loaded only when the package is built. */
const npm = () => import(path.join(ROOT, 'pkg/node/index.js'));

const FIX = path.join(ROOT, 'tests/fixtures/observe');
const SALTED = path.join(FIX, 'salted');
const DESIGN_FILE = path.join(FIX, 'salted-design.json');
const DESIGN = JSON.parse(readFileSync(DESIGN_FILE, 'utf8'));

/** The CLI, asynchronously (the test's servers answer in this process). */
const cli = (args, cwd) => cliAsync(args, cwd);

/** `observe DIR design --json`, parsed. */
async function observeJson(dir) {
  const r = await cli(['observe', dir, DESIGN_FILE, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

let server, browser, dir;
before(async () => {
  server = await serve();
  browser = await launch();
  dir = mkdtempSync(path.join(tmpdir(), 'rowkey-lab-observe-'));
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The page on the salted design, its run done; requests recorded. */
async function openSalted(design = DESIGN) {
  const { page, problems, foreign } = await openPage(browser, server.url, { width: 1400, height: 1000 });
  const requests = [];
  page.on('request', r => requests.push(new URL(r.url()).pathname));
  await page.goto(`${server.url}#v=1&d=${b64(design)}`);
  await waitDone(page);
  return { page, problems, foreign, requests };
}

/** What the page drew: the comparison's figures (data-value), the diagnosis, the busiest
 * regions, the heatmap's size. */
const shown = page =>
  page.evaluate(() => {
    const values = sel =>
      [...document.querySelectorAll(`${sel} tr`)]
        .slice(1)
        .map(tr =>
          [...tr.querySelectorAll('td')].map(td =>
            td.dataset.value === undefined ? td.textContent : Number(td.dataset.value),
          ),
        );
    const map = document.getElementById('observe-map');
    return {
      against: values('#observe-against'),
      servers: values('#observe-servers'),
      tops: values('#observe-tops'),
      diagnosis: [...document.querySelectorAll('#observe-diagnosis li')].map(li => li.textContent),
      map: [map.width, map.height],
      status: document.getElementById('observe-status').textContent,
    };
  });

/** The same figures from observe's JSON. */
function expected(o) {
  const a = o.observed.against;
  const label = i => o.observed.starts[i]?.label ?? o.regions[i].startKey;
  return {
    against: a.regions.map(r => [
      r.startKey === '' ? '(first)' : r.startKey,
      r.decoded,
      r.server,
      r.measuredShare,
      r.predictedShare,
      r.ratio,
    ]),
    servers: a.servers.map(v => [v.server, String(v.regions), v.regionShare, v.measuredShare, v.predictedShare]),
    tops: o.intervals.map(iv => [iv.requestsPerSec, iv.top.map(k => label(iv.regions[k].region)).join(', ')]),
    diagnosis: o.observed.diagnosis,
    map: [o.intervals.length, o.observed.rows.length],
  };
}

/** `shown` in `expected`'s shape (the interval's time text dropped from the busiest table). */
const comparable = s => ({
  against: s.against,
  servers: s.servers,
  tops: s.tops.map(([, rate, names]) => [rate, names]),
  diagnosis: s.diagnosis,
  map: s.map,
});

describe('a live table on the page', { skip: NOT_BUILT }, () => {
  test('snapshot files opened: the live heatmap, the prediction and the diagnosis are observe’s', async () => {
    const { page, problems, foreign, requests } = await openSalted();
    // Nothing of this feature is loaded before it is used.
    assert.ok(!requests.some(r => /observe|pkg\/rows/.test(r)), requests.join(' '));
    await page.click('#observe-open');
    await page.waitForSelector('#observe-files', { state: 'attached' });
    const files = readdirSync(SALTED).map(f => path.join(SALTED, f));
    // In the wrong order on purpose: the page reads them as a folder is read, by name.
    await page.setInputFiles('#observe-files', files.reverse());
    await page.waitForSelector('#observe-against');
    const want = expected(await observeJson(SALTED));
    const got = await shown(page);
    assert.match(
      got.status,
      /^Table metrics: 4 snapshots from 2026-11-26T06:00:00Z to 2026-11-26T06:03:00Z, 9 files, 8 regions\./,
    );
    assert.deepEqual(comparable(got), want);
    // The hand-worked figures the engine's test checks, as the page shows them.
    assert.equal(got.against[3][1], 'salt 03');
    assert.match(got.diagnosis[0], /^salted, but bucket 03 takes 3\.3× the mean \(41 % of writes over 8 regions\)/);
    // The rows build and this view were loaded for it, from the page's own origin only.
    assert.ok(
      requests.some(r => /pkg\/rows\/rowkey_lab_bg\.wasm$/.test(r)),
      requests.join(' '),
    );
    assert.deepEqual(foreign, []);
    // The servers' rows, and reads: the same canvas, redrawn.
    await page.selectOption('#observe-rows', 'servers');
    assert.deepEqual(await page.$eval('#observe-map', c => [c.width, c.height]), [3, 2]);
    await page.selectOption('#observe-rows', 'regions');
    await page.selectOption('#observe-measure', 'reads');
    assert.deepEqual(await page.$eval('#observe-map', c => [c.width, c.height]), [3, 8]);
    await page.selectOption('#observe-measure', 'writes');
    // A hovered cell says its region, interval and rate.
    const box = await page.$eval('#observe-map', c => {
      const b = c.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height };
    });
    await page.mouse.move(box.x + box.w * (2.5 / 3), box.y + box.h * (3.5 / 8));
    const tip = await page.$eval('#observe-box .tooltip', t => t.textContent);
    assert.match(
      tip,
      /^salt 03 \[03, 04\) on rs2\.example\.internal,16020,1700000000456\n06:02:00 → 06:03:00: 70\.00 writes\/s$/,
    );
    await page.$eval('#observe-box', b => b.scrollIntoView());
    await shot(page, 'observe-salted');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the design’s predicted map: the measured map’s rows, clock and unit, the npm library’s cells; zoom and its undoing', async () => {
    // The prediction by the npm library, apart from the page: the series of the same files, the
    // design analyzed on its layout, and againstDesign's predicted map on the measured map's
    // rows (in key order) and intervals, in writes/s.
    const api = await npm();
    const names = readdirSync(SALTED).sort();
    const series = api.readSeries(
      names.map(name => {
        const f = path.join(SALTED, name);
        return { name, text: readFileSync(f, 'utf8'), modifiedMs: Math.floor(statSync(f).mtimeMs) };
      }),
      null,
    );
    const report = api.analyzeDesign(api.onTableRegions(DESIGN, series.layout));
    const o = api.againstDesign(
      series,
      DESIGN,
      report.regions.map(r => r.writes),
    );
    const cols = series.intervals.length;
    const alive = (region, c) => series.intervals[c].regions.find(x => x.region === region);
    const cell = (v, region, c) => (!alive(region, c) ? -Infinity : v === null ? NaN : v);
    const want = o.rows.map((region, r) =>
      Array.from({ length: cols }, (_, c) => cell(o.predictedMap.regions[r * cols + c], region, c)),
    );
    const measuredCells = o.rows.map(region =>
      Array.from({ length: cols }, (_, c) => cell(alive(region, c)?.writesPerSec ?? null, region, c)),
    );
    // Each interval's predicted writes sum to the measured ones (the design's shares of the
    // table's measured rate): the prediction is on the measured clock and unit, by hand.
    for (let c = 0; c < cols; c++) {
      const sum = rows => rows.reduce((t, row) => t + (Number.isFinite(row[c]) ? row[c] : 0), 0);
      assert.ok(Math.abs(sum(want) - sum(measuredCells)) < 1e-6, `interval ${c}`);
    }
    const labels = o.rows.map(i => o.starts[i].label);

    const { page, problems } = await openSalted();
    await page.click('#observe-open');
    await page.waitForSelector('#observe-files', { state: 'attached' });
    await page.setInputFiles(
      '#observe-files',
      names.map(f => path.join(SALTED, f)),
    );
    await page.waitForSelector('#observe-predicted');
    // (the axes are drawn on the frame after the maps)
    const axes = () =>
      page.evaluate(async () => {
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        return [...document.querySelectorAll('#observe-maps figure')].map(f => ({
          title: f.querySelector('figcaption').textContent,
          labels: [...f.querySelectorAll('.klabel')].map(k => [Number(k.dataset.row), k.textContent]),
          size: [f.querySelector('canvas').width, f.querySelector('canvas').height],
          ticks: [...f.querySelectorAll('.tick')].map(t => Number(t.dataset.time)),
        }));
      });
    await page.waitForFunction(() => document.querySelectorAll('#observe-maps .klabel').length === 16);
    const [measured, predicted] = await axes();
    assert.equal(measured.title, 'Measured now: writes/s');
    assert.equal(predicted.title, 'This design predicts: writes/s');
    // The same rows, in the same order, labelled alike: the regions in key order through the key.
    assert.deepEqual(
      predicted.labels,
      labels.map((l, r) => [r, l]),
    );
    assert.deepEqual(measured.labels, predicted.labels);
    assert.deepEqual(predicted.size, [cols, o.rows.length]);
    // One clock: the same time ticks under both maps.
    assert.deepEqual(predicted.ticks, measured.ticks);
    // Its cells are the library's: each hovered cell says its rate, beside the measured one.
    const box = await page.$eval('#observe-predicted', c => {
      c.scrollIntoView({ block: 'center' });
      const b = c.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height };
    });
    for (let r = 0; r < want.length; r++)
      for (let c = 0; c < cols; c++) {
        await page.mouse.move(box.x + box.w * ((c + 0.5) / cols), box.y + box.h * ((r + 0.5) / want.length));
        const tip = await page.$eval('#observe-tip', t => t.textContent);
        assert.ok(tip.startsWith(`${labels[r]} [`), tip);
        assert.match(
          tip,
          new RegExp(
            `: ${want[r][c].toFixed(2).replace('.', '\\.')} writes/s predicted, ${measuredCells[r][c].toFixed(2).replace('.', '\\.')} measured$`,
          ),
        );
      }
    // Every cell: the canvas's pixels are the library's cells through the lab's palette, on the
    // scale both maps share (the larger of their largest cells).
    const { matrixPixels } = await import(path.join(ROOT, 'www/views/heatmap.js'));
    const max = Math.max(...[...want.flat(), ...measuredCells.flat()].filter(Number.isFinite));
    const { px } = matrixPixels(
      { rows: want.length, cols, cells: Float64Array.from(want.flat()) },
      { scale: 'linear', max },
    );
    const drawn = await page.$eval('#observe-predicted', c =>
      Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data),
    );
    assert.deepEqual(drawn, Array.from(px));

    // Zoom, from the keyboard as on the lab's map: + halves the predicted map's time around its
    // cursor, ] halves the rows of both maps, R undoes both.
    await page.focus('#observe-predicted');
    await page.keyboard.press('+');
    let [m1, p1] = await axes();
    assert.deepEqual(p1.size, [Math.ceil(cols / 2), want.length]);
    assert.ok(p1.ticks[0] < predicted.ticks.at(-1) && p1.ticks.at(-1) < predicted.ticks.at(-1), `${p1.ticks}`);
    assert.deepEqual(m1.size, measured.size);
    assert.equal(await page.$eval('#observe-zoom-reset', b => b.disabled), false);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'observe-predicted');
    await page.keyboard.press(']');
    await page.waitForFunction(() => document.querySelectorAll('#observe-maps .klabel').length === 8);
    [m1, p1] = await axes();
    assert.deepEqual(p1.size, [Math.ceil(cols / 2), want.length / 2]);
    assert.deepEqual(m1.size, [measured.size[0], want.length / 2]);
    assert.deepEqual(m1.labels, p1.labels);
    assert.deepEqual(p1.labels, predicted.labels.slice(0, want.length / 2));
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.querySelectorAll('#observe-maps .klabel').length === 16);
    assert.deepEqual(await axes(), [measured, predicted]);
    assert.equal(await page.$eval('#observe-zoom-reset', b => b.disabled), true);
    // A drag across the measured map's first two intervals zooms its time to them; Reset zoom undoes it.
    const mbox = await page.$eval('#observe-map', c => {
      c.scrollIntoView({ block: 'center' });
      const b = c.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height };
    });
    await page.mouse.move(mbox.x + mbox.w * (0.5 / 3), mbox.y + 5);
    await page.mouse.down();
    await page.mouse.move(mbox.x + mbox.w * (1.5 / 3), mbox.y + 6);
    await page.mouse.up();
    [m1, p1] = await axes();
    assert.deepEqual(m1.size, [2, want.length]);
    assert.deepEqual(p1, predicted);
    await page.click('#observe-zoom-reset');
    await page.waitForFunction(() => document.querySelectorAll('#observe-maps .klabel').length === 16);
    assert.deepEqual(await axes(), [measured, predicted]);

    // Servers as rows: each server's predicted writes/s per interval, by name.
    await page.selectOption('#observe-rows', 'servers');
    await page.waitForFunction(() => document.querySelectorAll('#observe-maps .klabel').length === 4);
    const [ms, ps] = await axes();
    const servers = o.predictedMap.servers.map(v => v.server);
    assert.deepEqual(
      ps.labels.map(([, l]) => l),
      servers.map(n => (n.length > 30 ? `${n.slice(0, 14)}…${n.slice(-15)}` : n)),
    );
    assert.deepEqual(ms.labels, ps.labels);
    assert.deepEqual(ps.size, [cols, servers.length]);
    await page.$eval('#observe-box', b => b.scrollIntoView());
    await shot(page, 'observe-predicted');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a design whose analysis splits the table’s regions further: no predicted map, and why', async () => {
    // Auto-split at 64 KiB, 16 KiB flushes: the design's run splits the layout's regions; the library's count.
    const design = {
      ...DESIGN,
      regions: {
        autoSplit: { policy: { type: 'constantSize' }, config: { maxFileSize: '64 KiB', memstoreFlushSize: '16 KiB' } },
      },
    };
    const api = await npm();
    const names = readdirSync(SALTED).sort();
    const series = api.readSeries(
      names.map(name => ({ name, text: readFileSync(path.join(SALTED, name), 'utf8'), modifiedMs: 0 })),
      null,
    );
    const run = api.analyzeDesign(api.onTableRegions(design, series.layout));
    const split = run.regions.length;
    const table = series.layout.regions.length;
    assert.ok(split > table, `${split} regions`);
    // The engine's note on why (what observe prints), read from the library.
    const note = api
      .againstDesign(
        series,
        design,
        run.regions.map(r => r.writes),
      )
      .notes.find(n => n.includes(`ended with ${split} regions, the table has ${table}`));
    assert.ok(note, 'the engine names both counts');
    const { page, problems } = await openSalted(design);
    await page.click('#observe-open');
    await page.waitForSelector('#observe-files', { state: 'attached' });
    await page.setInputFiles(
      '#observe-files',
      names.map(f => path.join(SALTED, f)),
    );
    await page.waitForSelector('#observe-predicted-why');
    assert.equal(await page.textContent('#observe-predicted-why'), `No predicted map: ${note}`);
    assert.equal(await page.$('#observe-predicted'), null);
    assert.deepEqual(await page.$eval('#observe-map', c => [c.width, c.height]), [3, table]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('what happened is drawn: events marked and listed in the engine’s words, gaps grey, a server with no dump kept', async () => {
    // The scenario (scenario.rs): B splits, A moves, B2 reopens, rs2 has no dump at poll 3.
    // Its poll-4 dump of rs2 left out too, so rs2's regions are last read at poll 2.
    const scenario = path.join(FIX, 'scenario');
    const names = readdirSync(scenario)
      .sort()
      .filter(n => n !== '20261126T050400Z-rs2.json');
    const folder = mkdtempSync(path.join(dir, 'scenario-'));
    for (const n of names) copyFileSync(path.join(scenario, n), path.join(folder, n));
    const design = { v: 1, key: 's', fields: [{ name: 's', type: 'string' }] };
    const designFile = path.join(folder, '..', 'scenario-design.json');
    writeFileSync(designFile, JSON.stringify(design));
    const r = await cli(['observe', folder, designFile, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const o = JSON.parse(r.stdout);
    const { page, problems } = await openSalted(design);
    await page.click('#observe-open');
    await page.waitForSelector('#observe-files', { state: 'attached' });
    await page.setInputFiles(
      '#observe-files',
      names.map(n => path.join(folder, n)),
    );
    await page.waitForSelector('#observe-map');
    // The events list: the engine's sentences, one per event, in its order.
    const listed = await page.$$eval('#observe-events li', lis => lis.map(li => [li.dataset.kind, li.textContent]));
    assert.deepEqual(
      listed.map(([kind]) => kind),
      o.events.map(e => e.kind),
    );
    for (const [i, [, text]] of listed.entries()) assert.ok(text.endsWith(o.events[i].text), text);
    assert.ok(o.events.some(e => e.kind === 'split') && o.events.some(e => e.kind === 'move'));
    // Marks on the measured map: one per region an event (but a gap) concerns.
    const marks = o.events.filter(e => e.kind !== 'gap').reduce((n, e) => n + e.regions.length, 0);
    assert.equal(await page.$$eval('#observe-map ~ .observe-marks .observe-mark', m => m.length), marks);
    // rs2's regions after poll 2: kept, grey (no reading), and their tooltip says why.
    const rows = o.observed.rows;
    const last = o.intervals.length - 1;
    const kept = o.intervals[last].regions;
    assert.equal(kept.length, 3);
    assert.ok(kept.every(x => x.serverMissing && x.server?.startsWith('rs2.')));
    const grey = await page.$eval(
      '#observe-map',
      (c, [row, col]) => Array.from(c.getContext('2d').getImageData(col, row, 1, 1).data),
      [rows.indexOf(kept[0].region), last],
    );
    assert.deepEqual(grey, [158, 158, 158, 255]);
    const box = await page.$eval('#observe-map', c => {
      c.scrollIntoView({ block: 'center' });
      const b = c.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height };
    });
    const row = rows.indexOf(kept[0].region);
    await page.mouse.move(
      box.x + box.w * ((last + 0.5) / o.intervals.length),
      box.y + box.h * ((row + 0.5) / rows.length),
    );
    const tip = await page.$eval('#observe-tip', t => t.textContent);
    assert.match(tip, /on rs2\.example\.internal,16020,1700000000456 \(no dump: kept where it was last read\)\n/);
    assert.match(tip, /no reading \(unknown, not 0\)/);
    // The busiest table: no rate for those intervals, not 0.
    const tops = await page.$$eval('#observe-tops tr td:nth-child(2)', tds => tds.map(td => td.textContent));
    assert.equal(tops.at(-1), '–');
    await page.$eval('#observe-box', b => b.scrollIntoView());
    await shot(page, 'observe-events');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a snapshot file past its cap is refused by its size before any file is read, as observe refuses it', async () => {
    // a sparse file: 65 MiB by its size, no disk; its bytes (zeros) would be no dump at all
    const folder = mkdtempSync(path.join(dir, 'big-'));
    const big = path.join(folder, '20261126T050000Z-rs0.json');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 65 * 2 ** 20);
    closeSync(fd);
    const r = await cli(['observe', folder]);
    assert.equal(r.status, 3, r.stderr);
    const said = /a snapshot file of 68157440 bytes is over the limit of 64 MiB/;
    assert.match(r.stderr, said);
    const { page, problems } = await openSalted({ v: 1, key: 's', fields: [{ name: 's', type: 'string' }] });
    await page.click('#observe-open');
    await page.waitForSelector('#observe-files', { state: 'attached' });
    await page.setInputFiles('#observe-files', [big]);
    await page.waitForSelector('#observe-error:not([hidden])');
    const shown = await page.textContent('#observe-error');
    assert.match(shown, /^Not read: 20261126T050000Z-rs0\.json: /);
    assert.match(shown, said);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('watch against local RegionServers: the page and observe read its snapshots to the same figures', async () => {
    // rs1 and rs2 answer the salted fixture's polls 0..3 in turn.
    const polls = ['20261126T060000Z', '20261126T060100Z', '20261126T060200Z', '20261126T060300Z'];
    const servers = [];
    const rs = async who => {
      let n = 0;
      const s = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(readFileSync(path.join(SALTED, `${polls[Math.min(n++, 3)]}-${who}.json`)));
      });
      await new Promise(r => s.listen(0, '127.0.0.1', r));
      servers.push(s);
      return `http://127.0.0.1:${s.address().port}`;
    };
    const out = path.join(dir, 'watched');
    try {
      const urls = [await rs('rs1'), await rs('rs2')];
      const w = await cli(['watch', ...urls, '--out', out, '--every', '300ms', '--count', '4'], dir);
      assert.equal(w.status, 0, w.stderr);
    } finally {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    }
    copyFileSync(path.join(SALTED, 'meta.txt'), path.join(out, 'meta.txt'));
    const o = await observeJson(out);
    assert.equal(o.snapshots.length, 4);
    // The rates are over watch's own clock now, the shares the same as the fixture's.
    const w = [10, 10, 10, 70, 20, 30, 10, 10];
    for (const [b, r] of o.observed.against.regions.entries())
      assert.ok(Math.abs(r.measuredShare - w[b] / 170) < 1e-9, `bucket ${b}: ${r.measuredShare}`);
    const { page, problems } = await openSalted();
    await page.click('#observe-open');
    await page.waitForSelector('#observe-box');
    // Dropped on the panel, as a user drags the files from the folder.
    const dropped = readdirSync(out).map(f => [f, readFileSync(path.join(out, f), 'utf8')]);
    await page.evaluate(list => {
      const dt = new DataTransfer();
      for (const [name, text] of list) dt.items.add(new File([text], name));
      document
        .getElementById('observe-box')
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, dropped);
    await page.waitForSelector('#observe-against');
    assert.deepEqual(comparable(await shown(page)), expected(o));
    // Dropped on the panel, not imported as a design nor opened as rows.
    assert.equal(await page.$('#rows-box:not([hidden])'), null);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
