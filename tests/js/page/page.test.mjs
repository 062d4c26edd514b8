// The page in headless Chromium: loads the wasm, checks one value end to end against
// independent oracles (Node's own MD5 and a hand-computed Java hash code), no console noise,
// no foreign requests.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { launch, openPage, serve, shot } from '../helpers.mjs';

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

function javaHash(s) {
  let h = 0;
  for (const c of s) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

test('bytes inspector: a string value end to end', async () => {
  const { page, problems, foreign } = await openPage(browser, server.url);
  await page.goto(server.url);
  // (the inspector is closed until asked for: one Tab stop on the keyboard's way, issue 72)
  await page.click('#inspector-box summary');
  await page.waitForSelector('#result:not([hidden])');
  await page.fill('#value', 'row1');
  await page.selectOption('#type', 'string');
  await page.fill('#regions', '16');
  await page.waitForFunction(() => document.querySelector('#out-hex')?.textContent === '726f7731');
  assert.equal(await page.textContent('#out-binary'), 'row1');
  assert.equal(await page.textContent('#out-md5'), createHash('md5').update('row1').digest('hex'));
  assert.equal(await page.textContent('#out-hash'), String(javaHash('row1')));
  // HexStringSplit with 16 regions: split keys 10000000 … f0000000; 'r' (0x72) sorts after
  // 'f' (0x66), so the row lands in the last region.
  const hex = page.locator('[data-algorithm="HexStringSplit"]');
  assert.equal(await hex.locator('tbody tr').count(), 16);
  assert.equal(await hex.locator('tr.hit td').first().textContent(), '16');
  assert.match(await hex.locator('tbody tr').nth(1).textContent(), /10000000/);
  // UniformSplit's 16 regions start every 0x10 of the first byte: region 3 starts at 0x20, which
  // toStringBinary prints as a space. It must stay in the text (first character) and be marked.
  const uniform = page.locator('[data-algorithm="UniformSplit"] tbody tr');
  const third = uniform.nth(2).locator('td').nth(1);
  assert.equal(await third.textContent(), ` ${'\\x00'.repeat(7)}`);
  assert.equal(await third.locator('.sp').count(), 1);
  const rendered = await third.evaluate(
    td => td.getBoundingClientRect().width > 0 && getComputedStyle(td.querySelector('.sp')).whiteSpace,
  );
  assert.equal(rendered, 'pre');
  await shot(page, 'inspector');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign, []);
});

test('bytes inspector: a long, and bad input is reported, not crashed', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.goto(server.url);
  // (the inspector is closed until asked for: one Tab stop on the keyboard's way, issue 72)
  await page.click('#inspector-box summary');
  await page.waitForSelector('#result:not([hidden])');
  await page.selectOption('#type', 'long');
  await page.fill('#value', '-1');
  await page.waitForFunction(() => document.querySelector('#out-hex')?.textContent === 'ffffffffffffffff');
  await page.fill('#value', '12x');
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /long/i);
  await page.fill('#value', '256');
  await page.waitForFunction(() => document.querySelector('#out-hex')?.textContent === '0000000000000100');
  assert.deepEqual(problems, []);
});
