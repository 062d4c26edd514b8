// A worker of adviseDesignParallel (advise.js, through pool.js): evaluates each candidate it is
// sent with its own engine and hands back the figures, or the engine's message as the answer.
import { evaluateCandidate } from './index.js';
import { serveTasks } from './pool.js';

serveTasks(({ design, options, target }) => {
  try {
    return { result: evaluateCandidate(design, options, target) };
  } catch (e) {
    return { result: { error: String(e?.message ?? e) } };
  }
});
