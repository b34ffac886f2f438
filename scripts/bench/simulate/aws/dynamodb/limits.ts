/**
 * The two shapes of throughput limit in the DynamoDB model, both in virtual time: a one-second sliding
 * window ("at most N units in any second": partitions and on-demand tables) and a token bucket (a
 * provisioned table's units per second plus the burst capacity saved from unused ones).
 */

/** A limit that admits units and charges them. */
export interface Limit {
  /** Whether `units` fit at `now`. */
  has(units: number, now: number): boolean;
  /** Charges `units` at `now` (after-the-fact charges may overdraw). */
  take(units: number, now: number): void;
}

/**
 * At most `limit` units in any window of `windowMs`. A request larger than the limit is admitted only
 * into an empty window (it then holds the window for a second), so no item is refused for ever.
 */
export class SlidingWindow implements Limit {
  private readonly times: number[] = [];
  private readonly units: number[] = [];
  private head = 0;
  private sum = 0;

  constructor(
    private limit: number,
    private readonly windowMs = 1_000,
  ) {}

  /** Units charged in the window ending at `now`. */
  used(now: number): number {
    this.expire(now);
    return this.sum;
  }

  has(units: number, now: number): boolean {
    const used = this.used(now);
    return used + units <= this.limit || used === 0;
  }

  take(units: number, now: number): void {
    this.expire(now);
    this.times.push(now);
    this.units.push(units);
    this.sum += units;
  }

  /** Changes the limit from now on. */
  setLimit(limit: number): void {
    this.limit = limit;
  }

  private expire(now: number): void {
    const from = now - this.windowMs;
    while (this.head < this.times.length && (this.times[this.head] as number) <= from) {
      this.sum -= this.units[this.head] as number;
      this.head++;
    }
    if (this.head > 4_096 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.units.splice(0, this.head);
      this.head = 0;
    }
    if (this.head === this.times.length) this.sum = 0;
  }
}

/** Units that refill at `rate` per second up to `depth`. */
export class TokenBucket implements Limit {
  private tokens: number;
  private updated: number;

  /**
   * @param rate - units per second
   * @param depth - the most units that can accumulate (the burst a quiet bucket allows)
   * @param initial - units available at `now`
   */
  constructor(
    private readonly rate: number,
    private readonly depth: number,
    now: number,
    initial: number,
  ) {
    this.tokens = initial;
    this.updated = now;
  }

  has(units: number, now: number): boolean {
    this.refill(now);
    return this.tokens >= units;
  }

  take(units: number, now: number): void {
    this.refill(now);
    this.tokens -= units;
  }

  private refill(now: number): void {
    if (now <= this.updated) return;
    this.tokens = Math.min(this.depth, this.tokens + ((now - this.updated) / 1000) * this.rate);
    this.updated = now;
  }
}
