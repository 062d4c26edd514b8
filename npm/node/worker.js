// The engine worker of the Node entry's parallel calls (pool.js): a table of handlers served
// through the call interface (../shared/calls.js), each with this thread's own engine. The
// counting calls are the ones the page's counting workers answer (../shared/count.js).
import { parentPort } from 'node:worker_threads';
import { adviceCalls } from '../shared/advice-calls.js';
import { moved, serve } from '../shared/calls.js';
import { countHandlers } from '../shared/count.js';
import { lifeCalls } from '../shared/life-calls.js';
import { readChunk } from '../shared/rows.js';
import * as engine from './index.js';
import { nodePort } from './pool.js';
import { rowsHandlers } from './rows.js';

serve(nodePort(parentPort), {
  ...countHandlers(() => engine),
  ...rowsHandlers(engine, readChunk, moved),
  // the advisor's: evaluate (one candidate's figures, an engine error its answer), as the page's
  ...adviceCalls(() => engine),
  // the months (lifeMonthsAsync: ./life.js), the Months view's call
  ...lifeCalls(() => engine),
});
