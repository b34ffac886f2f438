/**
 * How many batches an SQS event source processes at once (standard mode, not provisioned pollers): five
 * when messages appear, up to 300 more per minute while messages keep coming, at most `maximumConcurrency`
 * (2–1,000) or the service's own ceiling, and back down to five (two without a maximum) when receives
 * come back empty. The per-second controller below is this model's reading of those rates. Sources in docs/simulation.md (Lambda section).
 */

/** The scaling constants (AWS's documented values by default). */
export interface ScalingConfig {
  /** Concurrent batches when messages first appear. */
  readonly initial: number;
  /** Added per minute at most while messages remain. */
  readonly perMinute: number;
  /** The event source's ceiling without a maximum concurrency. */
  readonly ceiling: number;
  /** The low-traffic floor without a maximum concurrency (it is `initial` with one). */
  readonly floor: number;
  /** How often the target is revised, ms. */
  readonly stepMs: number;
  /**
   * Concurrent batches at the start (default `initial`): a mapping that earlier traffic already scaled
   * up. Not an AWS setting; the scale-down floor stays as documented.
   */
  readonly start?: number;
}

/** AWS Lambda's documented behaviour. */
export const LAMBDA_SQS_SCALING: ScalingConfig = {
  initial: 5,
  perMinute: 300,
  ceiling: 1_000,
  floor: 2,
  stepMs: 1_000,
};

/** The target number of concurrent batches, revised once per step from what the receives saw. */
export class ConcurrencyTarget {
  readonly cap: number;
  readonly floor: number;
  private value: number;
  private sawMessages = false;
  private sawEmpty = false;

  /**
   * @param maximumConcurrency - the event source's `ScalingConfig.MaximumConcurrency` (2–1,000), if set
   */
  constructor(
    readonly config: ScalingConfig,
    maximumConcurrency: number | undefined,
  ) {
    if (maximumConcurrency !== undefined && !(maximumConcurrency >= 2 && maximumConcurrency <= 1_000)) {
      throw new RangeError(`maximumConcurrency must be 2–1000, got ${maximumConcurrency}`);
    }
    this.cap = Math.min(maximumConcurrency ?? config.ceiling, config.ceiling);
    // The scale-in to two batches is not available with a maximum concurrency.
    this.floor = Math.min(this.cap, maximumConcurrency === undefined ? config.floor : config.initial);
    this.value = Math.min(config.start ?? config.initial, this.cap);
  }

  /** The current target. */
  get current(): number {
    return this.value;
  }

  /** Whether the target could still move, so the event source keeps revising it. */
  get settled(): boolean {
    return this.value === this.floor && !this.sawMessages;
  }

  /** Notes what one receive returned. */
  observe(messages: number): void {
    if (messages > 0) this.sawMessages = true;
    else this.sawEmpty = true;
  }

  /**
   * Revises the target from the last step: up while messages remain (no receive came back empty, and
   * receives found messages or the queue has a visible backlog while every poller is busy invoking),
   * down while receives came back empty and found nothing, unchanged otherwise.
   *
   * @param backlog - whether the queue has a visible message now
   */
  step(backlog: boolean): void {
    const delta = Math.max(1, Math.round((this.config.perMinute * this.config.stepMs) / 60_000));
    if (!this.sawEmpty && (this.sawMessages || backlog)) this.value = Math.min(this.cap, this.value + delta);
    else if (!this.sawMessages && this.sawEmpty && !backlog)
      this.value = Math.max(this.floor, this.value - delta);
    this.sawMessages = false;
    this.sawEmpty = false;
  }
}
