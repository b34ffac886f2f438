import { describe, expect, it } from 'vitest';
import { createUsageMeter } from '#local/usage-meter';

describe('usage meter (the local usage plan)', () => {
  it('renews the quota at 00:00 UTC and refills the bucket at the rate', () => {
    let now = Date.parse('2026-11-22T23:59:59.000Z');
    const meter = createUsageMeter({ rateLimit: 1, burstLimit: 1, quotaPerDay: 2 }, () => now);
    expect(meter.take('org')).toBe('allowed');
    expect(meter.take('org')).toBe('THROTTLED');
    // 00:00:00 UTC: a new day, so two more although the day before already used one.
    now += 1000;
    expect(meter.take('org')).toBe('allowed');
    now += 1000;
    expect(meter.take('org')).toBe('allowed');
    now += 1000;
    expect(meter.take('org')).toBe('QUOTA_EXCEEDED');
  });
});
