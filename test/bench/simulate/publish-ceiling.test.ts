/**
 * One organization's publish ceiling through the real `recordEvent`: one index partition (the layout
 * before write sharding) throttles well below 10,000 publishes a second; Herald's sharded index takes
 * 10,000 a second without a throttled request.
 */
import { describe, expect, it } from 'vitest';
import { measurePublishRate } from '../../../scripts/bench/simulate/scenarios/publish-ceiling';

describe('publish ceiling of one organization', () => {
  it('throttles at one index partition above about 1,000 publishes a second', async () => {
    const under = await measurePublishRate({ rate: 800, seconds: 1, accounts: 2_000, indexShards: 1 });
    expect(under).toMatchObject({ throttles: 0, sustained: true });
    const over = await measurePublishRate({ rate: 2_000, seconds: 1, accounts: 2_000, indexShards: 1 });
    expect(over.throttles).toBeGreaterThan(0);
    expect(over.sustained).toBe(false);
  });

  it('sustains 10,000 publishes a second on the write-sharded index', async () => {
    const point = await measurePublishRate({ rate: 10_000, seconds: 1, accounts: 10_000 });
    expect(point).toMatchObject({ throttles: 0, resent: 0, abandoned: 0, sustained: true });
    expect(point.storedPerSecond).toBeGreaterThan(9_000);
  });
});
