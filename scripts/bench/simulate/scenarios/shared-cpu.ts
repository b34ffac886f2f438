/**
 * One CPU shared by every function, for comparing with the local runtime only: there the publisher, the
 * API, the stream link, the pollers and the handlers run in one Node event loop that gets a share of a
 * core, and that CPU time bounds its throughput. In AWS each invocation has a CPU of its own and the
 * simulation spends no CPU time at all. Work is served first come, first served, `ms` of CPU taking
 * `ms / share` of virtual time.
 */
import type { Scheduler } from '../engine/scheduler';

/** The shared CPU. */
export class SharedCpu {
  private freeAt = 0;

  /** @param share - the fraction of one core the process gets (0–1] */
  constructor(
    private readonly engine: Scheduler,
    private readonly share: number,
  ) {}

  /** Waits until `ms` of CPU time was served after the work queued before it. */
  async use(ms: number): Promise<void> {
    const now = this.engine.now();
    this.freeAt = Math.max(now, this.freeAt) + ms / this.share;
    await this.engine.sleep(this.freeAt - now);
  }
}
