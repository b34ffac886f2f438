/**
 * The retry strategy of the publish path's DynamoDB client (see {@link PUBLISH_WRITE_RETRIES} for why):
 * the SDK's standard strategy in shape (a token per retry from a quota, the quota refilled by successes,
 * no retry of a client error such as a refused condition), with short jittered waits.
 */
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { PUBLISH_WRITE_RETRIES } from '#config/limits';

/** What the SDK's retry middleware needs of a strategy (its `RetryStrategyV2`). */
type RetryStrategyV2 = Extract<
  NonNullable<DynamoDBClientConfig['retryStrategy']>,
  { recordSuccess: unknown }
>;

/** The retry token's shape: how many retries so far, the wait before the next, what it cost. */
interface Token {
  getRetryCount(): number;
  getRetryDelay(): number;
  getRetryCost(): number | undefined;
}

/** The standard strategy's quota: tokens per client, and what each kind of retry costs. */
const QUOTA = 500;
const THROTTLE_COST = 5;
const OTHER_COST = 14;

const token = (count: number, delay: number, cost: number | undefined): Token => ({
  getRetryCount: () => count,
  getRetryDelay: () => delay,
  getRetryCost: () => cost,
});

/**
 * A strategy for one client (each client has its own quota). `random` is the jitter's source; tests fix
 * it.
 */
export function hotLogRetries(random: () => number = Math.random): RetryStrategyV2 {
  let tokens = QUOTA;
  return {
    acquireInitialRetryToken: async () => token(0, 0, undefined),
    refreshRetryTokenForRetry: async (previous, info) => {
      const retries = previous.getRetryCount();
      const cost = info.errorType === 'THROTTLING' ? THROTTLE_COST : OTHER_COST;
      const retryable = info.errorType !== 'CLIENT_ERROR';
      if (!retryable || retries + 1 >= PUBLISH_WRITE_RETRIES.attempts || tokens < cost) {
        throw new Error('no retry');
      }
      tokens -= cost;
      const window = Math.min(PUBLISH_WRITE_RETRIES.firstMs * 2 ** retries, PUBLISH_WRITE_RETRIES.capMs);
      return token(retries + 1, Math.floor(random() * window), cost);
    },
    recordSuccess: (used) => {
      tokens = Math.min(QUOTA, tokens + ((used as Token).getRetryCost() ?? 1));
    },
  };
}
