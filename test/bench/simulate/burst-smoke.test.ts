/**
 * The month-end burst in small (2,000 events over 100 accounts, concurrency 20): the table the bench
 * prints at 100,000 events comes from these same rows.
 */
import { describe, expect, it } from 'vitest';
import { runBurst } from '../../../scripts/bench/simulate/burst';

describe('month-end burst (smoke)', () => {
  it('drains the healthy accounts with both receiver mixes and reports every figure', async () => {
    const rows = await runBurst({ events: 2_000, accounts: 100, concurrencies: [20], publishOverMs: 5_000 });
    expect(rows.map((row) => row.mix)).toEqual(['all fast', '1 % hanging, 1 % slow']);
    const [fast, mixed] = rows;
    // All fast: every event delivered; mixed: all but the hanging account's 20.
    expect(fast?.delivered).toBe(2_000);
    expect(mixed?.delivered).toBe(1_980);
    for (const row of rows) {
      expect(row.fastP50Ms).toBeGreaterThan(0);
      expect(row.fastP99Ms).toBeGreaterThanOrEqual(row.fastP50Ms);
      expect(row.drainS).toBeGreaterThanOrEqual(row.fastDrainS);
      expect(row.fastDrainS).toBeGreaterThan(5);
      // Batches of 10 would make 200; a held invocation also takes messages of its own.
      expect(row.invocations).toBeGreaterThanOrEqual(100);
      // The floor is 4 (docs/simulation.md); the run stops at the last 2xx, before its attempt is written.
      expect(row.writeUnitsPerDelivered).toBeGreaterThan(3.99);
      expect(row.readUnitsPerDelivered).toBeGreaterThan(2);
    }
    // A 3 s receiver is slower to drain than the fast ones.
    expect(mixed?.drainS).toBeGreaterThan(mixed?.fastDrainS ?? Number.POSITIVE_INFINITY);
  });
});
