/**
 * A DynamoDB client as a Lambda environment holds one: each attempt travels to the table (half a round
 * trip), is admitted or throttled there (an admitted request is applied at that moment), and its answer
 * travels back; a throttled attempt is retried by the SDK's standard strategy (`sdk-retry.ts`) until it
 * gives up and the caller sees the throttling error.
 */
import { drawLatency, type Latency } from '../../engine/random';
import type { Scheduler } from '../../engine/scheduler';
import { type Charge, drawsOf } from './capacity';
import { DynamoMeter } from './meter';
import { DYNAMODB_SDK_RETRY, type RetryPolicy, RetryStrategy } from './sdk-retry';
import type { DynamoTable, Throttle } from './table';

/** A throttling error as the SDK throws it once it stops retrying. */
export class DynamoThrottlingError extends Error {
  constructor(
    readonly throttle: Throttle,
    readonly attempts: number,
  ) {
    super(`${throttle.reason} on ${throttle.resource} after ${attempts} attempt(s)`);
    // On-demand quotas answer ThrottlingException; partition and provisioned limits the older exception.
    this.name = /AccountLimit|MaxOnDemand/.test(throttle.reason)
      ? 'ThrottlingException'
      : 'ProvisionedThroughputExceededException';
  }
}

/** Options of a {@link DynamoClient}. */
export interface DynamoClientOptions {
  /** Round trip of one attempt. Default: median 6 ms, p99 25 ms. */
  readonly latency?: Latency;
  readonly retry?: RetryPolicy;
  /** Shared by the clients whose usage is reported together. */
  readonly meter?: DynamoMeter;
}

/** One SDK client of the table. */
export class DynamoClient {
  readonly meter: DynamoMeter;
  readonly retry: RetryStrategy;
  private readonly latency: Latency;

  constructor(
    private readonly scheduler: Scheduler,
    readonly table: DynamoTable,
    options: DynamoClientOptions = {},
  ) {
    this.meter = options.meter ?? new DynamoMeter();
    this.latency = options.latency ?? { medianMs: 6, p99Ms: 25 };
    this.retry = new RetryStrategy(options.retry ?? DYNAMODB_SDK_RETRY, scheduler.random);
  }

  /**
   * Sends one request charging `charges`; `apply` runs when the table admits it (it performs the
   * in-memory operation) and its result comes back after the answer's half of the round trip.
   */
  async call<R>(operation: string, charges: readonly Charge[], apply: () => R | Promise<R>): Promise<R> {
    const counts = this.meter.of(operation);
    const draws = drawsOf(charges);
    const started = this.scheduler.now();
    counts.calls++;
    let lastRetryCost = 0;
    for (let attempt = 1; ; attempt++) {
      counts.attempts++;
      const half = drawLatency(this.latency, this.scheduler.random) / 2;
      await this.scheduler.sleep(half);
      const throttle = this.table.request(draws);
      if (throttle === undefined) {
        this.meter.consumed(counts, draws);
        let result: R;
        try {
          result = await apply();
        } finally {
          await this.scheduler.sleep(half);
          counts.latencyMs += this.scheduler.now() - started;
        }
        this.retry.succeeded(lastRetryCost);
        return result;
      }
      this.meter.throttled(counts, throttle.reason);
      await this.scheduler.sleep(half);
      const retry = this.retry.retryAfter(attempt, 'THROTTLING');
      if (retry === undefined) {
        counts.failures++;
        counts.latencyMs += this.scheduler.now() - started;
        throw new DynamoThrottlingError(throttle, attempt);
      }
      counts.retries++;
      lastRetryCost = retry.cost;
      await this.scheduler.sleep(retry.delayMs);
    }
  }

  /**
   * Charges capacity known only from an operation's result (a Query's items): metered and drawn from the
   * table's limits, never throttled.
   */
  chargeAfter(operation: string, charges: readonly Charge[]): void {
    const draws = drawsOf(charges);
    this.table.charge(draws);
    this.meter.consumed(this.meter.of(operation), draws);
  }
}
