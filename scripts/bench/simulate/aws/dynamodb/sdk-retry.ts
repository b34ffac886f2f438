/**
 * The AWS SDK for JavaScript v3's standard retry strategy as the DynamoDB client Herald bundles applies
 * it (`@aws-sdk/client-dynamodb` 3.1162 with `@smithy/core` 3.41, whose "2026 retries" are on): at most 4
 * attempts; before retry `i` (0-based) a full-jitter wait of `random × min(base × 2^i, 20 s)` with a base
 * of 1,000 ms after throttling and 25 ms after other transient errors; and a retry quota of 500 tokens per
 * client, a retry costing 5 (throttling) or 14 (other) tokens, a success refunding the cost of its last
 * retry (or 1 token when it needed none). Without tokens the error is thrown at once.
 */
import { PUBLISH_WRITE_RETRIES } from '#config/limits';
import type { Random } from '../../engine/random';

/** The strategy's constants. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly throttlingBaseDelayMs: number;
  readonly maxBackoffMs: number;
  readonly quota: number;
  readonly throttlingCost: number;
  readonly transientCost: number;
  readonly noRetryIncrement: number;
}

/** The defaults of the DynamoDB client in Herald's lockfile (see the file comment). */
export const DYNAMODB_SDK_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 25,
  throttlingBaseDelayMs: 1_000,
  maxBackoffMs: 20_000,
  quota: 500,
  throttlingCost: 5,
  transientCost: 14,
  noRetryIncrement: 1,
};

/**
 * The publish path's client (`lambdas/adapters/dynamodb/hot-log-retries.ts`): the same quota and costs,
 * {@link PUBLISH_WRITE_RETRIES}' attempts and short jittered waits, for throttles and other errors alike.
 */
export const PUBLISH_SDK_RETRY: RetryPolicy = {
  ...DYNAMODB_SDK_RETRY,
  maxAttempts: PUBLISH_WRITE_RETRIES.attempts,
  baseDelayMs: PUBLISH_WRITE_RETRIES.firstMs,
  throttlingBaseDelayMs: PUBLISH_WRITE_RETRIES.firstMs,
  maxBackoffMs: PUBLISH_WRITE_RETRIES.capMs,
};

/** Kinds of retryable error. */
export type ErrorType = 'THROTTLING' | 'TRANSIENT';

/** One client's retry state: its quota. */
export class RetryStrategy {
  private tokens: number;

  constructor(
    readonly policy: RetryPolicy,
    private readonly random: Random,
  ) {
    this.tokens = policy.quota;
  }

  /** Tokens left in the quota. */
  get quota(): number {
    return this.tokens;
  }

  /**
   * After failed attempt number `attempt` (1-based): the wait before the next attempt, or undefined when
   * the SDK gives up (attempts used up or quota empty). A granted retry takes its cost from the quota.
   */
  retryAfter(
    attempt: number,
    type: ErrorType,
  ): { readonly delayMs: number; readonly cost: number } | undefined {
    const cost = type === 'THROTTLING' ? this.policy.throttlingCost : this.policy.transientCost;
    if (attempt >= this.policy.maxAttempts || this.tokens < cost) return undefined;
    this.tokens -= cost;
    const base = type === 'THROTTLING' ? this.policy.throttlingBaseDelayMs : this.policy.baseDelayMs;
    const ceiling = Math.min(base * 2 ** (attempt - 1), this.policy.maxBackoffMs);
    return { delayMs: Math.floor(this.random.float() * ceiling), cost };
  }

  /** A call succeeded; `lastRetryCost` is what its last retry cost (0: it succeeded at the first try). */
  succeeded(lastRetryCost: number): void {
    const refund = lastRetryCost > 0 ? lastRetryCost : this.policy.noRetryIncrement;
    this.tokens = Math.min(this.policy.quota, this.tokens + refund);
  }
}
