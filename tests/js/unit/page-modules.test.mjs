// The page's pure modules, in Node (no browser): the URL state and old links (url-state.js),
// Recent designs' eviction and stored entries (state/recent-list.js), JSON paths
// (state/json-path.js). The scheduler with fake workers is scheduler.test.mjs's; Chromium is for
// journeys (page-*.test.mjs).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  firstRequest,
  fromBase64Url,
  HEAT_DEFAULTS,
  LINK_MAX,
  linkHash,
  readHash,
  toBase64Url,
  writeHash,
} from '../../../www/engine/url-state.js';
import { getAt, setAt } from '../../../www/state/json-path.js';
import { fromStored, makeRoom, RECENT_MAX } from '../../../www/state/recent-list.js';

const DOC = { v: 1, name: 'Zoë’s ☃ design', fields: [{ name: 'id', type: 'string' }], key: 'id' };

describe('URL state', () => {
  test('a state round-trips through the hash, defaults left out', () => {
    const s = {
      presetId: '',
      windows: 48,
      sampleSize: 500,
      heat: {
        ...HEAT_DEFAULTS,
        scale: 'linear',
        mode: 'absolute',
        capacity: 250,
        zoom: [3, 9],
        keys: [0, 4],
        table: 'BY TIME ☃',
      },
      compare: ['seed000-telecom', 'recent:abc123'],
    };
    const hash = writeHash(s, { text: JSON.stringify(DOC) });
    assert.match(hash, /^#v=1&d=/);
    const back = readHash(hash);
    assert.deepEqual(back.doc, DOC);
    assert.equal(back.windows, 48);
    assert.equal(back.sampleSize, 500);
    assert.deepEqual(back.heat, s.heat);
    assert.deepEqual(back.compare, s.compare);
    assert.equal(back.problem, null);
    // the defaults are not written: options the user did not set are left to the engine
    const plain = writeHash({ presetId: 'p1', heat: HEAT_DEFAULTS, compare: [] });
    assert.equal(plain, '#v=1&p=p1');
    assert.equal(writeHash({ presetId: 'p1', windows: 64 }), '#v=1&p=p1&w=64', 'set by the user, written');
  });

  test('an old link (version 1: d, p, w, s only) opens with every later setting at its default', () => {
    const h = readHash(`#v=1&d=${toBase64Url(JSON.stringify(DOC))}&w=32&s=2000`);
    assert.deepEqual(h.doc, DOC);
    assert.equal(h.windows, 32);
    assert.equal(h.sampleSize, 2000);
    assert.deepEqual(h.heat, HEAT_DEFAULTS);
    assert.deepEqual(h.compare, []);
    assert.equal(h.kept, null);
  });

  test('what a link cannot say is refused with a reason, or kept at its default', () => {
    assert.match(readHash(`#v=2&d=${toBase64Url('{}')}`).problem, /link format v=2; this page reads v=1/);
    assert.match(readHash('#v=1&d=!!!').problem, /could not be read/);
    assert.match(readHash(`#v=1&d=${toBase64Url('[1]')}`).problem, /could not be read/);
    const h = readHash(
      `#v=1&p=x&zoom=9-3&keys=a-b&bright=99&cap=-1&rows=nonsense&cmp=a,,recent:b,c d,e,f&table=${'x'.repeat(257)}`,
    );
    assert.deepEqual(h.heat, { ...HEAT_DEFAULTS, brightness: 6 });
    assert.deepEqual(h.compare, ['a', 'recent:b', 'e']);
    assert.equal(h.presetId, 'x');
  });

  test('the analysis options are read as the link gives them, never clamped: the engine refuses what it cannot take', () => {
    const h = readHash('#v=1&p=x&w=70000&s=0');
    assert.equal(h.windows, 70000);
    assert.equal(h.sampleSize, 0);
    assert.equal(readHash('#v=1&p=x&w=12abc').windows, '12abc');
    assert.equal(readHash('#v=1&p=x&w=').windows, '');
    const none = readHash('#v=1&p=x');
    assert.equal(none.windows, undefined, "absent: the engine's default");
    assert.equal(none.sampleSize, undefined);
    assert.deepEqual(firstRequest('#v=1&p=x&w=70000').options, { windows: 70000, sampleSize: undefined });
    assert.match(writeHash(h), /&w=70000&s=0/, 'written back as given');
  });

  test('a design too long for a link names its Recent designs entry instead (k=)', () => {
    const base = 'http://localhost/';
    const small = linkHash({ presetId: '' }, JSON.stringify(DOC), base, 'e1');
    assert.equal(small.fits, true);
    assert.equal(readHash(small.hash).doc.name, DOC.name);
    const big = JSON.stringify({ ...DOC, notes: 'x'.repeat(LINK_MAX) });
    const l = linkHash({ presetId: '' }, big, base, 'e1');
    assert.equal(l.fits, false);
    assert.ok(l.length > LINK_MAX);
    assert.equal(l.hash, '#v=1&k=e1');
    assert.equal(readHash(l.hash).kept, 'e1');
  });

  test('base64url carries any text', () => {
    for (const t of ['', 'a', 'ab', 'abc', 'Zoë ☃ 𝄞', '\u0000\uffff']) assert.equal(fromBase64Url(toBase64Url(t)), t);
    assert.doesNotMatch(toBase64Url('???>>>'), /[+/=]/);
  });
});

describe('Recent designs', () => {
  const entry = (id, edited, size = 10) => ({ id, label: id, text: 'x'.repeat(size), edited });
  test('over the count, the oldest entry not edited goes first, and no one is named', () => {
    const first = entry('new', true);
    const list = [first, ...Array.from({ length: RECENT_MAX }, (_, i) => entry(`e${i}`, i % 2 === 1))];
    assert.deepEqual(makeRoom(list, first), []);
    assert.equal(list.length, RECENT_MAX);
    assert.ok(!list.some(r => r.id === 'e8'), 'the oldest not edited went');
    assert.ok(
      list.some(r => r.id === 'e9'),
      'the oldest, edited, stayed',
    );
  });
  test('when every other entry was edited, a new one not edited gives way itself', () => {
    const first = entry('preset', false);
    const list = [first, ...Array.from({ length: RECENT_MAX }, (_, i) => entry(`e${i}`, true))];
    assert.deepEqual(makeRoom(list, first), []);
    assert.ok(!list.includes(first));
  });
  test('a new edited one makes room by the oldest edited, which is named', () => {
    const first = entry('mine', true);
    const list = [first, ...Array.from({ length: RECENT_MAX }, (_, i) => entry(`e${i}`, true))];
    assert.deepEqual(
      makeRoom(list, first).map(r => r.id),
      [`e${RECENT_MAX - 1}`],
    );
    assert.equal(list[0], first);
  });
  test('the total size counts too (entries kept in IndexedDB take none of it)', () => {
    const first = entry('new', true, 60);
    const list = [
      first,
      entry('a', true, 30),
      { ...entry('big', true, 0), stored: true, text: undefined },
      entry('b', true, 30),
    ];
    assert.deepEqual(
      makeRoom(list, first, { totalMax: 110 }).map(r => r.id),
      ['b'],
    );
    assert.deepEqual(
      list.map(r => r.id),
      ['new', 'a', 'big'],
    );
  });
  test('stored entries: today’s, an old one without an id, and what cannot be read', () => {
    const today = { id: 'x1', at: 5, presetId: '', label: 'L', text: '{}', draft: false, edited: false };
    assert.deepEqual(fromStored(today), today);
    assert.equal(fromStored({ ...today, edited: undefined }).edited, true, 'no record of edited: the user’s');
    assert.deepEqual(fromStored({ doc: { name: 'old', key: 'k' }, presetId: 'p', at: 7 }), {
      id: 'r7',
      at: 7,
      presetId: 'p',
      label: 'old',
      text: '{"name":"old","key":"k"}',
      draft: false,
      edited: true,
    });
    for (const bad of [
      null,
      3,
      {},
      { label: 'L' },
      { ...today, draft: true },
      { ...today, stored: true, text: undefined },
    ])
      assert.equal(fromStored(bad), null, JSON.stringify(bad));
  });
});

describe('JSON paths', () => {
  const doc = { key: { segments: [{ name: 'a' }, { name: 'b' }] }, workload: { records: 5 } };
  test('read', () => {
    assert.equal(getAt(doc, '/key/segments/1/name'), 'b');
    assert.equal(getAt(doc, '/workload/records'), 5);
    assert.equal(getAt(doc, '/regions/presplit'), undefined);
    assert.equal(getAt(doc, ''), doc);
  });
  test('set in a copy: the document itself unchanged, parents made, items removed', () => {
    const before = structuredClone(doc);
    const a = setAt(doc, '/regions/presplit/regions', 8);
    assert.deepEqual(a.regions, { presplit: { regions: 8 } });
    assert.deepEqual(doc, before);
    const b = setAt(doc, '/key/segments/0', undefined);
    assert.deepEqual(b.key.segments, [{ name: 'b' }]);
    const c = setAt(doc, '/workload/records', undefined);
    assert.deepEqual(c.workload, {});
    assert.equal(setAt(doc, '/nothing/here', undefined), doc, 'removing what is not there');
  });
});
