// Months (issue 58, item 5): a preset's table simulated month by month in an engine worker and
// drawn; a long run stopped; two settings side by side. The page's figures are the npm library's
// lifeMonths / lifeCompare on the same design and settings (the same engine, built for Node):
// the summary's counts, the bars (one per size bin a month holds), the map's size and a hovered
// cell's region, the servers' bars, the comparison's verdict and figures. No console errors; axe
// finds no serious or critical violation in the view.

import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { b64, openPage, pageRig, pasteTable, ROOT, shot, waitDone } from '../helpers.mjs';
import { ORDERS_SQL } from '../orders-indexes.mjs';

const rig = pageRig();
let m;
before(async () => {
  m = await import(path.join(ROOT, 'pkg/node/index.js'));
});

/** A time-led key writing about 1 GiB an hour: 120 months on 20 servers take many seconds. */
const TIME_LED = {
  v: 1,
  name: 'time-led, 1 GiB an hour',
  fields: [
    { name: 'id', type: 'string', generator: { kind: 'uuid', compact: true } },
    { name: 't', type: 'timestamp', generator: { kind: 'clock' } },
  ],
  key: 'time(t, "yyMMddHHmmss") + ":" + id',
  workload: { records: 20000, writeRate: 300, valueSize: 1000 },
};

const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');
const count = n => n.toLocaleString('en-US');

async function openMonths(page, hash) {
  await page.goto(`${rig.server.url}#${hash}`);
  await waitDone(page);
  await page.click('#months-open');
  await page.waitForSelector('#months-run');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'months-run');
}
const status = page => page.$eval('#months-status', s => s.textContent);

test('a preset’s months drawn: the library’s figures, the map, the servers of a chosen month', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await openMonths(page, 'p=seed002-salt-byte');
  await page.fill('#months-a-months', '3');
  await page.selectOption('#months-a-policy', 'increasingToUpperBound');
  await page.click('#months-run');
  await page.waitForSelector('#months-side-a #months-keymap-a', { timeout: 60000 });
  const want = m.lifeMonths(m.getPreset('seed002-salt-byte'), {
    months: 3,
    policy: { type: 'increasingToUpperBound' },
  });
  const last = want.report.months[2];
  assert.equal(await status(page), '3 months simulated.');
  const summary = await page.$eval('#months-side-a .months-summary', p => p.textContent);
  assert.ok(
    summary.startsWith(`After month 3: ${count(last.regions)} regions (${count(last.emptyRegions)} empty)`),
    summary,
  );
  assert.match(
    await page.$eval('#months-side-a h4', h => h.textContent),
    /^3 months: \d+ servers?, IncreasingToUpperBoundRegionSplitPolicy, split size /,
  );
  // one bar segment per non-empty size bin of each month
  const segments = want.report.months.flatMap(x => x.sizeHistogram).filter(c => c > 0).length;
  assert.equal(await page.$$eval('#months-regions-a svg rect', r => r.length), segments);
  // the map: one pixel per month and key-space stretch; a hovered cell names its region's server
  assert.deepEqual(await page.$eval('#months-map-a', c => [c.width, c.height]), [want.map.cols, want.map.rows]);
  const box = await page.$eval('#months-map-a', c => {
    c.scrollIntoView({ block: 'center' });
    const b = c.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  });
  for (const [r, c] of [
    [10, 0],
    [200, 2],
  ]) {
    await page.mouse.move(box.x + box.w * ((c + 0.5) / want.map.cols), box.y + box.h * ((r + 0.5) / want.map.rows));
    const tip = await page.$eval('#months-tip', t => (t.hidden ? '' : t.textContent));
    const i = r * want.map.cols + c;
    assert.match(tip, new RegExp(`^Month ${c + 1}, `));
    assert.ok(tip.includes(`on server ${want.map.server[i]}\n`), tip);
  }
  // the servers at the end of the last month, then of month 1 (three bars each)
  const servers = last.servers.length;
  assert.equal(await page.$$eval('#months-servers-a rect', r => r.length), servers * 3);
  assert.match(await page.$eval('#months-servers-a figcaption', f => f.textContent), /end of month 3:/);
  await page.selectOption('#months-month', '1');
  assert.match(await page.$eval('#months-servers-a figcaption', f => f.textContent), /end of month 1:/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'months-month');
  // the events: two strips of days, three of months, and the engine's busy days
  assert.equal(
    await page.$$eval(
      '#months-events-a svg text',
      t => t.filter(x => /a day|compactions|merges|moves|TTL|busy days/.test(x.textContent)).length,
    ),
    6,
  );
  const busy = want.report.months.flatMap(x => x.busyByDay).filter(Boolean).length;
  assert.equal(
    busy,
    want.report.months.reduce((n, x) => n + x.busyDays, 0),
  );
  assert.equal(await page.$$eval('#months-events-a rect.months-ev-5', r => r.length), busy);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the link carries Months’ settings: opened, the page simulates them again; the map zooms as the heatmap does', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await openMonths(page, 'p=seed002-salt-byte');
  await page.fill('#months-a-months', '3');
  await page.selectOption('#months-a-policy', 'increasingToUpperBound');
  await page.waitForFunction(() => /[#&]life=/.test(location.hash));
  const link = await page.evaluate(() => location.href);
  await page.close();
  // the link in a new page: Months open, its settings in the form, simulated without a click
  const { page: again, problems: more } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await again.goto(link);
  await again.waitForSelector('#months-side-a #months-keymap-a', { timeout: 60000 });
  assert.equal(await again.inputValue('#months-a-months'), '3');
  assert.equal(await again.inputValue('#months-a-policy'), 'increasingToUpperBound');
  assert.equal(await status(again), '3 months simulated.');
  const want = m.lifeMonths(m.getPreset('seed002-salt-byte'), {
    months: 3,
    policy: { type: 'increasingToUpperBound' },
  });
  const size = () => again.$eval('#months-map-a', c => [c.width, c.height]);
  assert.deepEqual(await size(), [want.map.cols, want.map.rows]);
  // the keyboard: + halves the months around the cursor, ] the key space, R resets
  await again.focus('#months-map-a');
  await again.keyboard.press('+');
  assert.deepEqual(await size(), [Math.ceil(want.map.cols / 2), want.map.rows]);
  await again.keyboard.press(']');
  assert.deepEqual(await size(), [Math.ceil(want.map.cols / 2), Math.ceil(want.map.rows / 2)]);
  assert.equal(await again.evaluate(() => document.activeElement.id), 'months-map-a');
  await again.keyboard.press('r');
  assert.deepEqual(await size(), [want.map.cols, want.map.rows]);
  // a drag across the top quarter of the map, over its first two months: those months and rows
  const box = await again.$eval('#months-map-a', c => {
    c.scrollIntoView({ block: 'center' });
    const b = c.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  });
  const at = (c, r) => [box.x + box.w * ((c + 0.5) / want.map.cols), box.y + box.h * ((r + 0.5) / want.map.rows)];
  const quarter = Math.floor(want.map.rows / 4);
  await again.mouse.move(...at(0, 0));
  await again.mouse.down();
  await again.mouse.move(...at(1, quarter - 1), { steps: 4 });
  await again.mouse.up();
  // (a pointer lands on whole pixels, and a row of the map is under a pixel high: within a row)
  const [cols, rows] = await size();
  assert.equal(cols, 2);
  assert.ok(Math.abs(rows - quarter) <= 1, `${rows} rows shown, about ${quarter} dragged over`);
  // the tooltip names the cell of the whole map: month 2, and the stretch's region
  const zoomed = await again.$eval('#months-map-a', c => {
    const b = c.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  });
  await again.mouse.move(zoomed.x + zoomed.w * 0.75, zoomed.y + 2);
  const tip = await again.$eval('#months-tip', t => (t.hidden ? '' : t.textContent));
  assert.match(tip, /^Month 2, /);
  assert.ok(tip.includes(`on server ${want.map.server[1]}\n`), tip);
  assert.deepEqual([...problems, ...more], []);
  await again.close();
});

test('a long run stops at Stop; two settings side by side, compared by the engine', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await openMonths(page, `v=1&d=${b64(TIME_LED)}`);
  await page.fill('#months-a-months', '120');
  await page.fill('#months-a-servers', '20');
  await page.click('#months-run');
  await page.waitForFunction(
    () => /^Month \d+ of 120/.test(document.getElementById('months-status').textContent),
    null,
    {
      timeout: 60000,
    },
  );
  assert.equal(await page.$eval('#months-run', b => b.disabled), true);
  await page.click('#months-stop');
  await page.waitForFunction(() => document.getElementById('months-box').dataset.run === 'done');
  assert.match(await status(page), /^Stopped after month \d+ of 120\.$/);
  assert.deepEqual(
    await page.evaluate(() => [
      document.getElementById('months-stop').disabled,
      document.getElementById('months-run').disabled,
      document.getElementById('months-out').childElementCount,
    ]),
    [true, false, 0],
  );
  // A against B: B splits by IncreasingToUpperBound; both two months, TTL 30 days
  await page.fill('#months-a-months', '2');
  await page.fill('#months-a-servers', '');
  await page.fill('#months-a-ttlDays', '30');
  await page.check('#months-compare');
  await page.fill('#months-b-months', '2');
  await page.fill('#months-b-ttlDays', '30');
  await page.selectOption('#months-b-policy', 'increasingToUpperBound');
  await page.click('#months-run');
  await page.waitForSelector('#months-verdict', { timeout: 60000 });
  const want = m.lifeCompare(
    TIME_LED,
    { months: 2, ttlSeconds: 30 * 86400 },
    { months: 2, ttlSeconds: 30 * 86400, policy: { type: 'increasingToUpperBound' } },
  );
  const got = await page.evaluate(() => ({
    head: document.querySelector('#months-verdict p').textContent,
    lines: [...document.querySelectorAll('#months-verdict li')].map(li => li.textContent),
    figures: [...document.querySelectorAll('#months-verdict tr')]
      .slice(1)
      .map(tr => [
        tr.firstChild.textContent,
        tr.querySelector('td.better') ? (tr.children[1].classList.contains('better') ? 'a' : 'b') : null,
      ]),
    sides: [...document.querySelectorAll('.months-sides.two .months-side h4')].map(h => h.textContent),
    maps: document.querySelectorAll('#months-map-a, #months-map-b').length,
  }));
  assert.deepEqual([got.head, ...got.lines], want.verdict);
  assert.deepEqual(
    got.figures,
    want.figures.map(f => [f.figure, f.better]),
  );
  assert.equal(got.maps, 2);
  // each side with what it ran with, the engine's line (split and flush sizes, TTL, …)
  assert.ok(got.sides[0].startsWith(`A: 2 months: ${want.a.report.ranWith},`), got.sides[0]);
  assert.ok(got.sides[1].startsWith(`B: 2 months: ${want.b.report.ranWith},`), got.sides[1]);
  assert.match(want.a.report.ranWith, /split size [\d.]+ GiB .*flush size \d+ MiB, TTL 2592000 s \(30 days\)/);
  assert.notEqual(want.a.report.policy, want.b.report.policy);
  assert.equal(await status(page), '2 months and 2 months simulated.');
  // a setting out of range: the engine's error, at B's control
  await page.fill('#months-b-months', '500');
  await page.click('#months-run');
  await page.waitForSelector('#months-error:not([hidden])');
  assert.match(await page.$eval('#months-error', e => e.textContent), /500 is out of range.*\(setting B\)/);
  assert.equal(await page.$eval('#months-b-months', i => i.getAttribute('aria-invalid')), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'months-b-months');
  await page.fill('#months-b-months', '2');
  await page.click('#months-run');
  await page.waitForSelector('#months-error', { state: 'hidden' });
  await page.waitForSelector('#months-verdict');
  await page.$eval('#months-h', h => h.scrollIntoView());
  await shot(page, 'months-compare');
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe: the Months view, two settings drawn, has no serious or critical violation', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await rig.browser.newPage({ bypassCSP: true, viewport: { width: 1400, height: 900 }, colorScheme });
    await openMonths(page, 'p=seed003-time-first');
    await page.fill('#months-a-months', '2');
    await page.check('#months-compare');
    await page.fill('#months-b-months', '2');
    await page.selectOption('#months-b-normalizer', 'on');
    await page.click('#months-run');
    await page.waitForSelector('#months-verdict', { timeout: 60000 });
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const r = await globalThis.axe.run('#months');
      return r.violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(
          v =>
            `${v.id} (${v.impact}): ${v.nodes
              .map(n => n.target.join(' '))
              .slice(0, 5)
              .join(', ')}`,
        );
    });
    assert.deepEqual(violations, [], colorScheme);
    await page.close();
  }
});

test('the view says what the months mean: the engine’s headline and findings, with their checked fixes, above the charts', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await openMonths(page, `v=1&d=${b64(TIME_LED)}`);
  await page.fill('#months-a-months', '3');
  await page.fill('#months-a-servers', '2');
  await page.fill('#months-a-ttlDays', '30');
  await page.click('#months-run');
  await page.waitForSelector('#months-side-a .months-diagnosis', { timeout: 60000 });
  const want = m.lifeMonths(TIME_LED, { months: 3, servers: 2, ttlSeconds: 30 * 86400 }).report.diagnosis;
  // the TTL empties the regions the time-led key left behind (none in month 1): the worst finding
  assert.equal(want.findings[0].kind, 'emptyRegions');
  const got = await page.evaluate(() => {
    const box = document.querySelector('#months-side-a .months-diagnosis');
    return {
      head: box.querySelector('.months-headline').textContent,
      items: [...box.querySelectorAll('.months-findings > li')].map(li => [
        li.querySelector('strong').textContent,
        li.querySelector('.months-fix')?.textContent ?? null,
      ]),
      // above the charts: the list comes before the regions chart
      before: !!(
        box.compareDocumentPosition(document.getElementById('months-regions-a')) & Node.DOCUMENT_POSITION_FOLLOWING
      ),
    };
  });
  assert.equal(got.head, want.headline);
  assert.deepEqual(
    got.items,
    want.findings.map(f => [f.figure, f.fix ? `Fix: ${f.fix.change}${f.fix.checked}` : null]),
  );
  assert.ok(got.before);
  assert.deepEqual(problems, []);
  await page.close();
});

test('months of the design before a change are said as such, and the Table choices follow the design’s indexes', async () => {
  const { page, problems } = await openPage(rig.browser, rig.server.url, { width: 1400, height: 1000 });
  await openMonths(page, 'p=seed002-salt-byte');
  await page.fill('#months-a-months', '2');
  await page.click('#months-run');
  await page.waitForSelector('#months-side-a .months-summary', { timeout: 60000 });
  assert.equal(await page.$('#months-stale'), null, 'the months are the design on show’s');
  assert.equal(await page.$('#months-a-index'), null, 'no index: no Table choice');
  // a change of the design (a Phoenix table with two global indexes pasted): the months on show
  // are the design before's
  await pasteTable(page, ORDERS_SQL);
  const stale = await page.waitForSelector('#months-stale', { timeout: 60000 });
  assert.match(await stale.textContent(), /design before your last change/);
  assert.ok(await page.$eval('#months-out', o => o.classList.contains('months-stale')));
  // the index's table is offered now
  assert.deepEqual(await page.$$eval('#months-a-index option', os => os.map(o => o.textContent)), [
    'the data table',
    'index BY_TIME',
    'index BY_CUSTOMER',
  ]);
  // simulated again: the note goes
  await page.click('#months-run');
  await page.waitForFunction(() => !document.querySelector('#months-stale'), null, { timeout: 60000 });
  assert.ok(!(await page.$eval('#months-out', o => o.classList.contains('months-stale'))));
  assert.deepEqual(problems, []);
  await page.close();
});
