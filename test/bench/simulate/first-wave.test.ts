import { describe, expect, it } from 'vitest';
import { runFirstWave } from '../../../scripts/bench/simulate/first-wave';

describe('first wave behind a receiver that starts hanging (virtual time, seeded)', () => {
  it('the deployed consumer keeps the fast accounts near their baseline; the consumer without the pull does not', async () => {
    const rows = await runFirstWave([20]);
    expect(rows).toHaveLength(6);
    const row = (backlog: string, pull: boolean) => {
      const found = rows.find((r) => r.backlog.endsWith(backlog) && r.pull === pull);
      if (!found) throw new Error(`no row ${backlog} ${pull}`);
      return found;
    };
    for (const pull of [true, false]) expect(row('fast (baseline)', pull).ratio).toBe(1);
    // The same code and seed give the same run: these are the model's answers, not timings of this machine.
    expect(row('hanging', true).ratio).toBeLessThan(2);
    expect(row('slow (3 s)', true).ratio).toBeLessThan(2);
    expect(row('hanging', false).ratio).toBeGreaterThan(2);
  }, 120_000);
});
