// The page's half of docs/rekey.md's walkthrough, as a user walks it: the live table's snapshots
// dropped (the hotspot), the exported rows analyzed, the advisor over them, "Move to this design",
// the plan cut into 4 regions by bytes; screenshots of the live table, the advice and the plan.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { b64, launch, openPage, ROOT, serve, waitDone } from '../tests/js/helpers.mjs';

// Usage: node scripts/rekey-walkthrough.mjs DIR (DIR holds old.json and old.parquet, docs/rekey.md's
// walkthrough); the screenshots go to DIR. Needs the built page (scripts/start.sh builds it).
const W = process.argv[2] ?? '/tmp/walk';
const server = await serve();
const browser = await launch();
const { page, problems } = await openPage(browser, server.url, { width: 1400, height: 1000 });
const old = JSON.parse(readFileSync(path.join(W, 'old.json'), 'utf8'));
await page.goto(`${server.url}#v=1&d=${b64(old)}`);
await waitDone(page);
// 1. the live table: the snapshots dropped, read through the design
const dir = path.join(ROOT, 'tests/fixtures/observe/scenario');
await page.click('#observe-open');
await page.waitForSelector('#observe-files', { state: 'attached' });
await page.setInputFiles(
  '#observe-files',
  readdirSync(dir).map(n => path.join(dir, n)),
);
await page.waitForSelector('#observe-against');
await page.$eval('#observe-box', b => b.scrollIntoView());
await (await page.$('#observe-box')).screenshot({ path: `${W}/walk-1-live.png` });
// 2. the exported rows analyzed
await page.click('#rows-open');
await page.setInputFiles('#rows-file', path.join(W, 'old.parquet'));
await page.waitForSelector('#rows-profile table.rows-profile', { timeout: 120000 });
await page.click('#rows-run');
await page.waitForSelector('#rows-banner');
await waitDone(page);
// 3. the advisor over the rows, then "Move to this design"
await page.click('#advice-run');
await page.waitForSelector('#advice .advice-plot', { timeout: 180000 });
await (await page.$('#advice-box, #advice')).screenshot({ path: `${W}/walk-2-advice.png` });
await page.click('#advice-move');
await page.waitForSelector('#rekey #rekey-count', { timeout: 120000 });
await page.fill('#rekey-count', '4');
await page.selectOption('#rekey-by', 'bytes');
await page.click('#rekey .rekey-go');
await page.waitForSelector('#rekey-checklist', { timeout: 120000 });
await page.$eval('#rekey', b => b.scrollIntoView());
await (await page.$('#rekey')).screenshot({ path: `${W}/walk-3-plan.png` });
const create = await page.$eval('#rekey .copy pre', e => e.textContent);
console.log(create);
console.log('problems', problems);
await browser.close();
server.close();
