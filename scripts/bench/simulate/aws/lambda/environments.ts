/**
 * Lambda execution environments: an invocation reuses an idle warm environment or starts a new one (a
 * cold start: the module's init runs once, which is where a handler builds its clients and caches). An
 * environment idle for too long is reclaimed; one whose invocation timed out is discarded.
 */
import { drawLatency, type Latency } from '../../engine/random';
import type { Scheduler } from '../../engine/scheduler';

/** What a handler's module init learns about its environment. */
export interface EnvironmentInfo {
  readonly id: number;
}

interface Environment<H> {
  readonly info: EnvironmentInfo;
  readonly handler: H;
  idleSince: number;
}

/** Options of an {@link EnvironmentPool}. */
export interface EnvironmentOptions<H> {
  /** Module init: runs once per environment and returns its handler. */
  readonly init: (environment: EnvironmentInfo) => H;
  /** Duration of a cold start (platform start plus module init). */
  readonly coldStart: Latency;
  /** An environment idle this long is reclaimed before its next use. */
  readonly idleMs: number;
}

/** Warm and new environments of one function. */
export class EnvironmentPool<H> {
  readonly stats = { coldStarts: 0, initMs: 0, reclaimed: 0, discarded: 0 };
  private readonly idle: Environment<H>[] = [];
  private nextId = 1;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly options: EnvironmentOptions<H>,
  ) {}

  /** A warm environment (the most recently used one) or a new one after its cold start. */
  async acquire(): Promise<Environment<H>> {
    const now = this.scheduler.now();
    for (;;) {
      const warm = this.idle.pop();
      if (warm === undefined) break;
      if (now - warm.idleSince <= this.options.idleMs) return warm;
      this.stats.reclaimed++;
    }
    const initMs = drawLatency(this.options.coldStart, this.scheduler.random);
    this.stats.coldStarts++;
    this.stats.initMs += initMs;
    await this.scheduler.sleep(initMs);
    const info = { id: this.nextId++ };
    return { info, handler: this.options.init(info), idleSince: this.scheduler.now() };
  }

  /** Returns an environment after its invocation. */
  release(environment: Environment<H>): void {
    environment.idleSince = this.scheduler.now();
    this.idle.push(environment);
  }

  /** Drops an environment whose invocation timed out (AWS resets it). */
  discard(_environment: Environment<H>): void {
    this.stats.discarded++;
  }
}
