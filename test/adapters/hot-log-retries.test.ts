/**
 * The publish path's DynamoDB retry strategy (`hotLogRetries`): throttles and other failures retried
 * after short jittered waits, up to PUBLISH_WRITE_RETRIES.attempts, within the standard strategy's quota;
 * a client error (a refused condition) never.
 */
import { describe, expect, it } from 'vitest';
import { hotLogRetries } from '#adapters/dynamodb/hot-log-retries';
import { PUBLISH_WRITE_RETRIES } from '#config/limits';

const throttled = { errorType: 'THROTTLING' as const };

describe('hotLogRetries', () => {
  it('retries a throttle after a wait below a window doubling from firstMs to capMs, attempts bounded', async () => {
    const strategy = hotLogRetries(() => 0.999_999);
    let token = await strategy.acquireInitialRetryToken('');
    const waits: number[] = [];
    for (;;) {
      try {
        token = await strategy.refreshRetryTokenForRetry(token, throttled);
      } catch {
        break;
      }
      waits.push(token.getRetryDelay());
    }
    expect(waits).toHaveLength(PUBLISH_WRITE_RETRIES.attempts - 1);
    expect(waits.slice(0, 3)).toEqual([24, 49, 99]);
    expect(Math.max(...waits)).toBe(PUBLISH_WRITE_RETRIES.capMs - 1);
    // Far below the SDK default's first throttle wait (up to 1 s, then 2 s, 4 s).
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(8_000);
  });

  it('never retries a client error, and stops when its quota is spent until successes refill it', async () => {
    const strategy = hotLogRetries(() => 0);
    const first = await strategy.acquireInitialRetryToken('');
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: 'CLIENT_ERROR' })).rejects.toThrow();
    let granted = 0;
    for (let i = 0; i < 200; i++) {
      try {
        await strategy.refreshRetryTokenForRetry(first, throttled);
        granted++;
      } catch {
        break;
      }
    }
    expect(granted).toBe(100);
    const retried = { getRetryCount: () => 1, getRetryDelay: () => 0, getRetryCost: () => 5 };
    strategy.recordSuccess(retried);
    await expect(strategy.refreshRetryTokenForRetry(first, throttled)).resolves.toBeDefined();
  });
});
