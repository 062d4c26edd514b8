// The one scheduler (www/engine/scheduler.js) and the call interface (www/engine/calls.js), in
// Node. First with fake workers: in-process ports whose handlers count blocks by name (a partial
// is the list of block numbers counted), so stealing, cancel and errors can be seen without an
// engine. Then with the engine (the npm package's build): the same design spread by the scheduler
// over worker_threads (the package's adapter) and over fake workers in this thread (the
// handlers the page's counting workers run, engine/count.js), on 1–4 workers: every report the
// same bytes as analyzeDesign's. The page's Web Worker adapter runs the same scheduler in
// Chromium (page-spread.test.mjs).

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { aborted, client, moved, serve } from '../../../www/engine/calls.js';
import { countHandlers } from '../../../www/engine/count.js';
import { spreadBlocks, spreadTasks } from '../../../www/engine/scheduler.js';
import { ROOT } from '../helpers.mjs';

/** Two ends of a fake worker's channel: messages cloned and delivered a macrotask later, as a
 * worker's are. `ended` says whether the caller ended it. */
function channel() {
  const sides = [[], []];
  const state = { ended: false };
  const port = me => ({
    post(m, transfer) {
      if (state.ended) return;
      const copy = structuredClone(m, { transfer });
      setImmediate(() => {
        if (!state.ended) for (const f of sides[1 - me]) f(copy);
      });
    },
    listen(f) {
      sides[me].push(f);
    },
    end() {
      state.ended = true;
    },
  });
  return { caller: port(0), worker: port(1), state };
}

/** A fake counting worker: blocks are counted one per `slowness` macrotasks; `failAt` a block
 * whose count fails with a located error. */
function fakeCounter({ slowness = 1, failAt = -1, log = [] } = {}) {
  const { caller, worker, state } = channel();
  let counting = null;
  serve(worker, {
    async countBlocks({ first, end }, emit) {
      const me = { next: first, end };
      counting = me;
      const counted = [];
      try {
        while (me.next < me.end) {
          for (let i = 0; i < slowness; i++) await new Promise(r => setImmediate(r));
          const b = me.next++;
          if (b === failAt)
            throw Object.assign(new Error(`block ${b}: bad record`), { path: '/workload/records', line: b + 1 });
          counted.push(b);
          emit('progress', { done: counted.length, total: counted.length + (me.end - me.next) });
        }
        log.push(counted);
        return moved({ partial: Uint8Array.from(counted), done: counted.length }, []);
      } finally {
        counting = null;
      }
    },
    cede() {
      // the second half of the blocks not begun, as the engine's cedeHalf
      if (!counting || counting.end - counting.next < 2) return null;
      const mid = counting.next + Math.ceil((counting.end - counting.next) / 2);
      const given = [mid, counting.end];
      counting.end = mid;
      return given;
    },
  });
  return Object.assign(client(caller), { state });
}

const evenRanges = (blocks, n) =>
  Array.from({ length: n }, (_, i) => [Math.floor((i * blocks) / n), Math.floor(((i + 1) * blocks) / n)]);

describe('the scheduler with fake workers', () => {
  test('every block counted once, in block order, for any number of workers', async () => {
    for (const n of [1, 2, 3, 5]) {
      const workers = Array.from({ length: n }, (_, i) => fakeCounter({ slowness: i + 1 }));
      const seen = [];
      const parts = await spreadBlocks({
        workers,
        ranges: evenRanges(20, n),
        args: {},
        records: 20,
        onProgress: p => seen.push(p),
      });
      assert.deepEqual(
        parts.flatMap(p => [...p]),
        Array.from({ length: 20 }, (_, i) => i),
        `${n} workers`,
      );
      assert.deepEqual(seen.at(-1), { done: 20, total: 20 }, `${n} workers`);
      assert.ok(
        seen.every((p, i) => i === 0 || p.done >= seen[i - 1].done),
        'progress never goes back',
      );
    }
  });

  test('a worker that ends first takes half the unbegun blocks of the busiest (work stealing)', async () => {
    const log = [];
    // worker 0 counts ten times slower than worker 1
    const workers = [fakeCounter({ slowness: 10, log }), fakeCounter({ slowness: 1, log })];
    const parts = await spreadBlocks({
      workers,
      ranges: [
        [0, 10],
        [10, 12],
      ],
      args: {},
      records: 12,
    });
    assert.deepEqual(
      parts.flatMap(p => [...p]),
      Array.from({ length: 12 }, (_, i) => i),
    );
    // worker 0 did not count all of its own ten blocks: some went to worker 1
    assert.ok(parts.length > 2, `${parts.length} runs of blocks`);
    assert.ok(
      log.some(run => run[0] > 0 && run[0] < 10),
      JSON.stringify(log),
    );
  });

  test("the first failure in block order is the run's, with the engine's fields unchanged", async () => {
    // block 6 fails first in time, block 3 first in block order
    const workers = [fakeCounter({ failAt: 3, slowness: 5 }), fakeCounter({ failAt: 6 })];
    await assert.rejects(
      spreadBlocks({
        workers,
        ranges: [
          [0, 5],
          [5, 10],
        ],
        args: {},
        records: 10,
      }),
      e => e.message === 'block 3: bad record' && e.path === '/workload/records' && e.line === 4,
    );
  });

  test('a throwing onProgress fails the run with its own error', async () => {
    const boom = new Error('boom');
    await assert.rejects(
      spreadBlocks({
        workers: [fakeCounter(), fakeCounter()],
        ranges: evenRanges(6, 2),
        args: {},
        records: 6,
        onProgress() {
          throw boom;
        },
      }),
      e => e === boom,
    );
  });

  test('cancel: the run rejects with the abort, and its workers are ended', async () => {
    const workers = [fakeCounter({ slowness: 5 }), fakeCounter({ slowness: 5 })];
    const stop = new AbortController();
    const run = spreadBlocks({
      workers,
      ranges: evenRanges(40, 2),
      args: {},
      records: 40,
      signal: stop.signal,
      onProgress: p => p.done >= 3 && stop.abort(),
    });
    await assert.rejects(run, e => e.name === 'AbortError');
    assert.ok(workers.every(w => w.state.ended));
    await assert.rejects(workers[0].call('cede'), e => e.name === 'AbortError', 'an ended worker takes no calls');
  });

  test('tasks: results in task order whatever the workers; the first failure in task order', async () => {
    const square = () => {
      const { caller, worker } = channel();
      serve(worker, {
        async square({ x }) {
          for (let i = 0; i < x % 3; i++) await new Promise(r => setImmediate(r));
          if (x === 13 || x === 17) throw Object.assign(new Error(`no ${x}`), { path: `/tasks/${x}` });
          return x * x;
        },
      });
      return client(caller);
    };
    const tasks = Array.from({ length: 12 }, (_, i) => i);
    for (const n of [1, 2, 4]) {
      const order = [];
      const r = await spreadTasks({
        workers: Array.from({ length: n }, square),
        tasks,
        call: (w, x) => w.call('square', { x }),
        onResult: i => order.push(i),
      });
      assert.deepEqual(
        r,
        tasks.map(x => x * x),
      );
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        tasks,
      );
    }
    await assert.rejects(
      spreadTasks({
        workers: [square(), square()],
        tasks: Array.from({ length: 20 }, (_, i) => i),
        call: (w, x) => w.call('square', { x }),
      }),
      e => e.message === 'no 13' && e.path === '/tasks/13',
    );
  });
});

describe('the call interface', () => {
  test('events reach `on`; the result and the located error come back as the handler gave them', async () => {
    const { caller, worker } = channel();
    serve(worker, {
      count({ to }, emit) {
        for (let i = 1; i <= to; i++) emit('progress', { done: i });
        return 'counted';
      },
      fail() {
        throw Object.assign(new Error('bad key (line 2, column 5)'), {
          kind: 'keySyntax',
          reason: 'bad key',
          path: '/key',
          line: 2,
          column: 5,
        });
      },
    });
    const c = client(caller);
    const seen = [];
    assert.equal(await c.call('count', { to: 3 }, { on: (e, d) => seen.push([e, d.done]) }), 'counted');
    assert.deepEqual(seen, [
      ['progress', 1],
      ['progress', 2],
      ['progress', 3],
    ]);
    await assert.rejects(c.call('fail'), {
      message: 'bad key (line 2, column 5)',
      kind: 'keySyntax',
      reason: 'bad key',
      path: '/key',
      line: 2,
      column: 5,
    });
    await assert.rejects(c.call('nothing'), { message: 'no engine call named nothing' });
    assert.equal(c.busy(), false);
  });

  test('an abort ends the worker: that call and every other one under way reject', async () => {
    const { caller, worker, state } = channel();
    serve(worker, { wait: () => new Promise(() => {}) });
    const c = client(caller);
    const stop = new AbortController();
    const a = c.call('wait', {}, { signal: stop.signal });
    const b = c.call('wait');
    assert.equal(c.busy(), true);
    stop.abort();
    await assert.rejects(a, e => e.name === 'AbortError');
    await assert.rejects(b, e => e.name === 'AbortError');
    assert.equal(state.ended, true);
    assert.equal(c.busy(), false);
    assert.equal(aborted().name, 'AbortError');
  });
});

// The engine: the npm package's Node build (bash scripts/build-npm.sh).
const NODE_PKG = path.join(ROOT, 'pkg/node/index.js');
describe('the scheduler with the engine, under both adapters', {
  skip: existsSync(NODE_PKG) ? false : 'pkg/ not built',
}, () => {
  test('worker_threads and in-process fake workers: the same bytes as analyzeDesign, on 1–4 workers', async () => {
    const m = await import(NODE_PKG);
    const { withThreads } = await import(path.join(ROOT, 'pkg/node/pool.js'));
    const d = m.getPreset('seed001-log-wide');
    const doc = { ...d, workload: { ...d.workload, records: 300_000 } };
    const options = { windows: 16, sampleSize: 500 };
    const bytes = r => JSON.stringify(r, (_, v) => (ArrayBuffer.isView(v) ? Buffer.from(v.buffer).toString('hex') : v));
    const one = bytes(m.analyzeDesign(doc, options));
    const whole = new m.AnalysisSession(doc, options);
    const blocks = whole.blocks(),
      records = whole.progress().total;
    whole.free();
    assert.ok(blocks >= 4, `${blocks} blocks`);
    const report = async (workers, n) => {
      const parts = await spreadBlocks({ workers, ranges: m.blockRanges(blocks, n), args: { doc, options }, records });
      const s = m.combineAnalyses(doc, options, parts);
      try {
        return bytes(s.finish());
      } finally {
        s.free();
      }
    };
    const fake = () => {
      const { caller, worker } = channel();
      serve(
        worker,
        countHandlers(() => m),
      );
      return client(caller);
    };
    for (const n of [1, 2, 3, 4]) {
      assert.equal(await withThreads(n, w => report(w, n)), one, `${n} worker threads`);
      assert.equal(await report(Array.from({ length: n }, fake), n), one, `${n} fake workers`);
    }
    // Previews: the worker counting from block 0 sends its report so far, which is the report
    // of the workload's first `done` records (one session stepped that far), and no other sends any.
    const previews = [];
    const parts = await spreadBlocks({
      workers: [fake(), fake()],
      ranges: m.blockRanges(blocks, 2),
      args: { doc, options, preview: true, previewAfterMs: 0 },
      records,
      onPreview: p => previews.push(p),
    });
    assert.equal(m.combineAnalyses(doc, options, parts).finish().writes, records);
    assert.ok(previews.length >= 1, 'a preview');
    for (const { report: r, done } of previews) {
      assert.ok(done > 0 && done < records / 2 + 65536, `${done} of ${records}`);
      const s = new m.AnalysisSession(doc, options);
      s.step(done);
      assert.equal(bytes(r), bytes(s.finish()), `the first ${done} records`);
      s.free();
    }
  });
});
