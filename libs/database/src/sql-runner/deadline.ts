/** A database call that did not answer in time (counted as "database unavailable": 503). */
export class DatabaseDeadlineError extends Error {
  readonly code = 'DATABASE_DEADLINE';

  /**
   * `settled`: resolves once the call that ran out of time has ended, either way (a write may
   * still commit after its deadline).
   */
  constructor(
    ms: number,
    readonly settled: Promise<void> = Promise.resolve(),
  ) {
    super(`no answer from the database within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

/**
 * Bounds one database call, the wait for a pooled connection included (each query also has its
 * own driver timeout, but a call may queue behind others while the database hangs). Without a
 * deadline (`undefined`, e.g. the admin CLI's long imports) the call is returned as it is.
 * `onLate` runs when the deadline passes first (a read cancels its statement there).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number | undefined,
  onLate?: () => void,
): Promise<T> {
  if (!ms) return work;
  // The late outcome of a call that lost the race is dropped, not left unhandled.
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DatabaseDeadlineError(ms, settled));
      onLate?.();
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
