/** Runs `fn` and returns what it threw; fails the test when it returns normally. */
export function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** The `[name, reason]` pairs of a thrown ValidationError-like value, for compact assertions. */
export function invalidParams(fn: () => unknown): unknown {
  const error = catchError(fn);
  return typeof error === 'object' && error !== null && 'params' in error ? error.params : error;
}
