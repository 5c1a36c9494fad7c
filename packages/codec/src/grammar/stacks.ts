/**
 * Errors that describe bytes rather than report a failure to a caller.
 */

/**
 * Runs `f` taking no stack trace for the errors made meanwhile: for an error that is returned as a
 * description of bytes (an annotated tree's malformed item, a dissected record's error), not thrown
 * to a caller, whose stack would only name the codec's own frames. Taking one was a third of
 * dissecting a flood of malformed datagrams. Where `Error.stackTraceLimit` is no number (not V8),
 * `f` runs as it is.
 */
export function withoutStacks<T>(f: () => T): T {
  const limit = (Error as { stackTraceLimit?: unknown }).stackTraceLimit;
  if (typeof limit !== 'number') return f();
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
