// The page's modules as docs/ARCHITECTURE.md draws them (issue 57, item 4), read from the
// sources (no browser): the engine's modules (www/engine/) import neither views nor the page's
// state; no module imports itself back through others (no circle at file level); and the page's
// one state is written only by its own modules (www/state/: lab-state.js's hash and history,
// store.js's named changes), never by a view, app.js or the engine.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers.mjs';

const WWW = path.join(ROOT, 'www');
/** Every hand-written module of the page, relative to www/ (the glue in pkg/ is generated). */
function modules(dir = WWW, out = []) {
  for (const n of readdirSync(dir)) {
    const f = path.join(dir, n);
    if (path.relative(WWW, f).startsWith('pkg')) continue;
    if (statSync(f).isDirectory()) modules(f, out);
    else if (n.endsWith('.js')) out.push(path.relative(WWW, f));
  }
  return out;
}
/** What `file` imports of the page's modules, static and dynamic, relative to www/. */
function imports(file) {
  const text = readFileSync(path.join(WWW, file), 'utf8');
  const re =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  return [...text.matchAll(re)]
    .map(m => path.normalize(path.join(path.dirname(file), m[1] ?? m[2])))
    .filter(d => d.endsWith('.js') && !d.startsWith('pkg'));
}
const graph = new Map(modules().map(f => [f, imports(f)]));

test('the engine modules import no view and no page state', () => {
  const wrong = [...graph]
    .filter(([f]) => f.startsWith('engine/'))
    .flatMap(([f, ds]) => ds.filter(d => d.startsWith('views/') || d.startsWith('state/')).map(d => `${f} -> ${d}`));
  assert.deepEqual(wrong, []);
});

test('no circle of imports between the page’s files', () => {
  const color = new Map();
  const circles = [];
  const visit = (u, stack) => {
    color.set(u, 'open');
    stack.push(u);
    for (const v of graph.get(u) ?? []) {
      if (color.get(v) === 'open') circles.push([...stack.slice(stack.indexOf(v)), v].join(' -> '));
      else if (!color.has(v)) visit(v, stack);
    }
    stack.pop();
    color.set(u, 'done');
  };
  for (const f of graph.keys()) if (!color.has(f)) visit(f, []);
  assert.deepEqual(circles, []);
  // the test sees imports: the page's entry reaches the views through them
  assert.ok(
    (graph.get('app.js') ?? []).some(d => d.startsWith('views/')),
    'app.js imports views',
  );
});

/** The writes of the page's state in a module's `text`, each `[line, text]`: an assignment to a
 * member of `state`, an `Object.assign(state…)`, a mutating array method on a member of it, and
 * the same through a name the module gives a part of the state (`const r = state.rows; r.step =
 * …`). */
function stateWrites(text) {
  const assign = name => new RegExp(`\\b${name}\\.[A-Za-z_$][\\w$.]*\\s*(?:=(?!=)|\\+=|-=|\\+\\+|--)`);
  const mutate = name =>
    new RegExp(`\\b${name}(?:\\.[A-Za-z_$][\\w$]*)*\\.(?:push|pop|shift|unshift|splice|sort|reverse)\\(`);
  const aliases = [
    ...text.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*state\.[A-Za-z_$][\w$.]*\s*[;,]/g),
  ].map(m => m[1]);
  const tests = ['state', ...aliases].flatMap(n => [assign(n), mutate(n)]);
  tests.push(/Object\.assign\(\s*state\b/);
  for (const n of aliases) tests.push(new RegExp(`Object\\.assign\\(\\s*${n}\\b`));
  return text
    .split('\n')
    .map((line, i) => [i + 1, line.replace(/\/\/.*$/, '')])
    .filter(([, line]) => tests.some(t => t.test(line)));
}

test('the page’s state is written only by www/state/', () => {
  const wrong = [];
  for (const f of graph.keys()) {
    if (f.startsWith('state/')) continue;
    for (const [i, line] of stateWrites(readFileSync(path.join(WWW, f), 'utf8')))
      wrong.push(`${f}:${i}: ${line.trim()}`);
  }
  assert.deepEqual(wrong, []);
  // the patterns find a write where there is one, through the state or a name for a part of it
  const found = t => stateWrites(t).length > 0;
  assert.ok(found('  state.doc = d;') && found('Object.assign(state, x)') && !found('if (state.doc === d)'));
  assert.ok(found('const r = state.rows;\nr.step = "done";') && found('state.summary.push([a, b]);'));
  assert.ok(
    found('const mine = state.rows;\nObject.assign(mine, x);') &&
      !found('const r = state.rows;\nif (r.step === 1) f(r.x);'),
  );
});

test('workers are started only by the engine’s modules, in the sets of worker-sets.js or the run’s one worker', () => {
  // ARCHITECTURE.md: the page has one call interface to its workers and one pool; a view draws
  const starts = /\bnew (?:Shared)?Worker\(|\b(?:engineWorker|startWorker)\(/;
  const wrong = [...graph.keys()]
    .filter(f => !f.startsWith('engine/') && f !== 'boot.js')
    .filter(f => starts.test(readFileSync(path.join(WWW, f), 'utf8')));
  assert.deepEqual(wrong, []);
  // the sets' caps live in one table: no other module caps the cores on its own
  const capping = [...graph.keys()]
    .filter(f => f !== 'engine/worker-sets.js')
    .filter(f => /hardwareConcurrency/.test(readFileSync(path.join(WWW, f), 'utf8')));
  assert.deepEqual(capping, []);
});
