/**
 * Scopes of simulated processes that can be killed. A Lambda invocation that times out is frozen and
 * discarded by AWS: none of its code runs again. A promise chain cannot be stopped from outside, so the
 * engine does the next best thing: every wait started inside a killed scope ({@link Scheduler.sleep},
 * {@link Scheduler.guard}) never resumes, and the abandoned chain is garbage.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A process that can be killed; everything awaited under it stops resuming once it is. */
export class Scope {
  private alive = true;

  constructor(readonly name: string) {}

  /** Whether waits started under this scope still resume. */
  get isAlive(): boolean {
    return this.alive;
  }

  /** Freezes every wait started under this scope, now and later. */
  kill(): void {
    this.alive = false;
  }
}

const current = new AsyncLocalStorage<Scope>();

/** Runs `fn` (and everything it awaits) under `scope`. */
export function runInScope<T>(scope: Scope, fn: () => T): T {
  return current.run(scope, fn);
}

/** The scope of the running code, if any. */
export function currentScope(): Scope | undefined {
  return current.getStore();
}
