// Exit codes, the usage/input error the CLI reports, and the wrapper that turns an engine error
// into one.

/** The documented exit codes (`rowkey-lab --help`). */
export const EXIT = { OK: 0, BUDGET: 1, USAGE: 2, INPUT: 3 };

/** An error the CLI reports as `rowkey-lab: <message>`, exiting with `code`. */
export class CliError extends Error {
  constructor(code, msg) {
    super(msg);
    this.code = code;
  }
}

/** `fn()`, an engine error in it reported as an input error that says where, once. */
export function engine(fn) {
  try {
    return fn();
  } catch (e) {
    throw engineError(e);
  }
}

/** An engine error as the CLI's input error that says where, once (a CliError stays as it is). */
export function engineError(e) {
  if (e instanceof CliError) return e;
  // `reason` is the engine's message without its location (`message` repeats it): the
  // location is said once, here.
  const where = [
    e.path && `at ${e.path}`,
    e.line && `line ${e.line}:${e.column}`,
    e.offset !== undefined && !String(e.reason).includes(`byte ${e.offset}`) && `at byte ${e.offset}`,
  ]
    .filter(Boolean)
    .join(', ');
  return new CliError(EXIT.INPUT, `${e.reason ?? e.message}${where ? ` (${where})` : ''}`);
}
