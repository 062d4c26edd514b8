// The engine worker of the Node entry's parallel calls (pool.js): a table of handlers served
// through the call interface (../shared/calls.js), each with this thread's own engine. The
// counting calls are the ones the page's counting workers answer (../shared/count.js).
import { parentPort } from 'node:worker_threads';
import { moved, serve } from '../shared/calls.js';
import { countHandlers } from '../shared/count.js';
import { readChunk } from '../shared/rows.js';
import * as engine from './index.js';
import { nodePort } from './pool.js';
import { rowsHandlers } from './rows.js';

serve(nodePort(parentPort), {
  ...countHandlers(() => engine),
  ...rowsHandlers(engine, readChunk, moved),
  /** One candidate's figures; the engine's error on it is its answer (`{ error }`), not a failure. */
  evaluate({ design, options, target, rows }) {
    try {
      return engine.evaluateCandidate(design, options, target, rows);
    } catch (e) {
      return { error: String(e?.message ?? e) };
    }
  },
});
