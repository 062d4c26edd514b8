// A reader of a file of rows, nested in the engine worker (rows-calls.js analyzeRows): it reads
// the chunks the scheduler hands it (a run of a Parquet row group's rows, a run of a CSV's
// lines) with the engine's rows build and hands back each one's first pass as bytes; the
// engine worker adds them up. Ended with the engine worker (Cancel ends that one).
import { serve } from './calls.js';
import { readRowsChunk, rowsEngine } from './rows-calls.js';
import { webPort } from './web-workers.js';

serve(webPort(self), {
  readRowsChunk,
  /** The rows build loaded and compiled before the first chunk comes. */
  async warm() {
    await rowsEngine();
    return null;
  },
});
