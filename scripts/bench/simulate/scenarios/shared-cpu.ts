/**
 * One CPU shared by every function, for comparing with the local runtime only: there the publisher, the
 * API, the stream link, the pollers and the handlers run in one Node event loop that gets a share of a
 * core, and that CPU time bounds its throughput. In AWS each invocation has a CPU of its own and the
 * simulation spends no CPU time at all. Work is served first come, first served, `ms` of CPU taking
 * `ms / share` of virtual time; the share is one figure, or one per window of time as measured.
 */
import type { Scheduler } from '../engine/scheduler';

/** A share of a core that changes over time: `shares[i]` from `i × windowMs` after the start, then `rest`. */
export interface ShareOverTime {
  readonly windowMs: number;
  readonly shares: readonly number[];
  readonly rest: number;
}

/** No window's share below this: a window where the process used almost no CPU must not stall the model. */
const MIN_SHARE = 0.01;

/** The shared CPU. */
export class SharedCpu {
  private freeAt = 0;
  private readonly start: number;

  /** @param share - the fraction of one core the process gets (0–1], or that fraction over time */
  constructor(
    private readonly engine: Scheduler,
    private readonly share: number | ShareOverTime,
  ) {
    this.start = engine.now();
  }

  /** Waits until `ms` of CPU time was served after the work queued before it. */
  async use(ms: number): Promise<void> {
    const now = this.engine.now();
    this.freeAt = this.served(Math.max(now, this.freeAt), ms);
    await this.engine.sleep(this.freeAt - now);
  }

  /** When `ms` of CPU starting at `from` is done. */
  private served(from: number, ms: number): number {
    const share = this.share;
    if (typeof share === 'number') return from + ms / share;
    let at = from;
    let left = ms;
    for (;;) {
      const index = Math.floor((at - this.start) / share.windowMs);
      const current = Math.max(MIN_SHARE, share.shares[index] ?? share.rest);
      if (index >= share.shares.length) return at + left / current;
      const windowEnd = this.start + (index + 1) * share.windowMs;
      const possible = (windowEnd - at) * current;
      if (possible >= left) return at + left / current;
      left -= possible;
      at = windowEnd;
    }
  }
}
