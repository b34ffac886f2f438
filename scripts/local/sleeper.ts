/** Pauses that `wakeAll` ends early, so a link's `stop()` need not wait out a poll interval or a backoff. */
export class Sleeper {
  private readonly waking = new Set<() => void>();

  /** Resolves after `ms`, or at once on {@link wakeAll}. */
  sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waking.delete(wake);
        done();
      };
      const timer = setTimeout(wake, ms);
      this.waking.add(wake);
    });
  }

  /** Ends every pause in progress. */
  wakeAll(): void {
    for (const wake of [...this.waking]) wake();
  }
}
