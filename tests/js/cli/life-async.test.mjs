// Months of life as a promise that stops (issue 73: "a month cannot be interrupted in npm"): the
// Node entry's lifeMonthsAsync runs lifeMonths on a worker thread, gives its answer byte for byte
// (lifeCompare's with a second setting), reports each month, and an AbortSignal ends the run
// mid-month — a month the engine runs to its end on its own thread, which nothing there can
// interrupt. What onMonth throws stops it with that error; bad arguments are refused by name.

import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ROOT } from '../helpers.mjs';
import { NOT_BUILT } from '../npm-helpers.mjs';
import { TIME_LED } from './life-fixture.mjs';

describe('lifeMonthsAsync (npm package, Node)', { skip: NOT_BUILT }, () => {
  let m;
  before(async () => {
    m = await import(path.join(ROOT, 'pkg/node/index.js'));
  });
  const options = { months: 3, ttlSeconds: 30 * 86400, servers: 4 };

  test('the answer is lifeMonths’s, each month reported; with otherOptions, lifeCompare’s', async () => {
    const sync = m.lifeMonths(TIME_LED, options);
    const months = [];
    const got = await m.lifeMonthsAsync(TIME_LED, options, { onMonth: (done, total) => months.push([done, total]) });
    assert.deepEqual(got, sync);
    assert.deepEqual(months, [
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const other = { ...options, ttlSeconds: null };
    const both = await m.lifeMonthsAsync(TIME_LED, options, { otherOptions: other });
    assert.deepEqual(both, m.lifeCompare(TIME_LED, options, other));
  });

  test('an abort ends the run inside its first month: an AbortError, no month reported', async () => {
    // a hashed key growing to thousands of regions, at 5-minute steps: its one month is seconds
    // of the engine's work, and the abort comes as the worker starts it
    const busy = {
      v: 1,
      fields: [{ name: 'id', type: 'string', generator: { kind: 'uuid', compact: true } }],
      key: 'md5Hex(id, 8) + id',
      workload: { records: 1000, writeRate: 20000, valueSize: 1000 },
    };
    const heavy = { months: 1, servers: 20, stepHours: 1 / 12, split: { maxFileSize: 1073741824 } };
    const ac = new AbortController();
    const months = [];
    const run = m.lifeMonthsAsync(busy, heavy, { signal: ac.signal, onMonth: d => months.push(d) });
    setTimeout(() => ac.abort(), 100);
    await assert.rejects(run, e => e.name === 'AbortError');
    assert.deepEqual(months, [], 'stopped before its first month ended');
    // an aborted signal refuses the run before a worker starts
    await assert.rejects(m.lifeMonthsAsync(TIME_LED, options, { signal: ac.signal }), e => e.name === 'AbortError');
  });

  test('what onMonth throws stops the run with it; the engine’s errors keep their fields', async () => {
    const stop = new Error('enough');
    await assert.rejects(
      m.lifeMonthsAsync(TIME_LED, options, {
        onMonth: () => {
          throw stop;
        },
      }),
      e => e === stop,
    );
    await assert.rejects(
      m.lifeMonthsAsync(TIME_LED, { months: -1 }),
      e => e.path === 'months' || /months/.test(e.message),
    );
  });

  test('bad run arguments are refused by name, before any worker starts', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    for (const [run, member] of [
      [7, 'run'],
      [{ onMonth: 'x' }, 'run.onMonth'],
      [{ signal: {} }, 'run.signal'],
      [{ otherOptions: { f: () => 1 } }, 'otherOptions.f'],
      // issue 73: a run whose reading throws was the caller's exception, unnamed; a signal that
      // only inherits from AbortSignal passed, then threw "Illegal invocation" without a kind
      // (a Proxy of a real one reads it through, and works)
      [new Proxy({}, { get: boom }), 'run.otherOptions'],
      [Object.defineProperty({}, 'signal', { get: boom, enumerable: true }), 'run.signal'],
      [{ signal: Object.create(AbortSignal.prototype) }, 'run.signal'],
    ])
      await assert.rejects(
        m.lifeMonthsAsync(TIME_LED, options, run),
        e => e instanceof TypeError && e.kind === 'illegalArgument' && e.path === member,
        member,
      );
  });

  test('otherOptions that are not an object are refused as otherOptions, not options (issue 73)', async () => {
    // before, the engine's "options: life options must be an object": the other argument named
    for (const other of ['x', 7, [1]]) {
      const named = e => e.kind === 'illegalArgument' && e.path === 'otherOptions';
      await assert.rejects(m.lifeMonthsAsync(TIME_LED, options, { otherOptions: other }), named, String(other));
      assert.throws(() => m.lifeCompare(TIME_LED, options, other), named, String(other));
    }
    assert.throws(
      () => m.lifeMonths(TIME_LED, [1]),
      e => e.path === 'options' && /expected an object, got an array/.test(e.message),
    );
  });
});
