// Types of `rowkey-lab/vectors` (pkg/vectors/index.d.ts).

/**
 * The verdict on one golden-vector line. `pending`: a function recorded upstream that the
 * engine does not implement yet (never run, never a pass).
 */
export interface VectorVerdict {
  verdict: 'pass' | 'fail' | 'pending' | 'cannotRun';
  func: string;
  detail: string | null;
}

/** Runs one golden-vector JSON line (`{"fn", "args", "expect"}`) through the engine. */
export function runVector(line: string): VectorVerdict;
