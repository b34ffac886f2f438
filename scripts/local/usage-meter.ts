/**
 * The local stand-in for API Gateway's usage plan: per usage identifier key (the organization id the
 * authorizer names), a token bucket (`rateLimit` per second, `burstLimit` deep) and a daily quota that
 * renews at 00:00 UTC, as the stack's plan does.
 */
import type { OrganizationUsage } from '#config/limits';

/** What the plan says about one more request. */
export type UsageVerdict = 'allowed' | 'THROTTLED' | 'QUOTA_EXCEEDED';

/** Meters requests per key. */
export interface UsageMeter {
  take(key: string): UsageVerdict;
}

interface KeyState {
  tokens: number;
  refilledAt: number;
  day: string;
  used: number;
}

/** A meter with `usage`'s limits; `now` is injectable for tests. */
export function createUsageMeter(usage: OrganizationUsage, now: () => number = Date.now): UsageMeter {
  const states = new Map<string, KeyState>();
  return {
    take(key) {
      const at = now();
      const day = new Date(at).toISOString().slice(0, 10);
      const state = states.get(key) ?? { tokens: usage.burstLimit, refilledAt: at, day, used: 0 };
      states.set(key, state);
      state.tokens = Math.min(
        usage.burstLimit,
        state.tokens + ((at - state.refilledAt) / 1000) * usage.rateLimit,
      );
      state.refilledAt = at;
      if (state.day !== day) {
        state.day = day;
        state.used = 0;
      }
      if (state.used >= usage.quotaPerDay) return 'QUOTA_EXCEEDED';
      if (state.tokens < 1) return 'THROTTLED';
      state.tokens -= 1;
      state.used += 1;
      return 'allowed';
    },
  };
}
