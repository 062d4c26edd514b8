// A worker of adviseDesignParallel (advise.js): evaluates each candidate it is sent with its own
// engine and posts the figures back, or the error's message.
import { parentPort } from 'node:worker_threads';
import { evaluateCandidate } from './index.js';

parentPort.on('message', ({ i, design, options, target }) => {
  try {
    parentPort.postMessage({ i, metrics: evaluateCandidate(design, options, target) });
  } catch (e) {
    parentPort.postMessage({ i, error: String(e?.message ?? e) });
  }
});
