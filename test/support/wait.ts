/** Polling helpers for asynchronous pipelines (streams, queues) in tests. */

/** Options of {@link waitFor}. */
export interface WaitOptions {
  /** Default 15 s: a stream record can take a few polls to arrive on a busy two-core machine. */
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** Says what was awaited, for the timeout message. */
  readonly what?: string;
}

/** Calls `probe` until it returns something other than `undefined`/`false`, and returns that. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${options.timeoutMs ?? 15_000} ms waiting for ${options.what ?? 'a condition'}`,
      );
    }
    await sleep(options.intervalMs ?? 100);
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
