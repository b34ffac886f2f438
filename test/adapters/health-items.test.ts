/**
 * Endpoint health read off an account item, including items written before `wh_recovered_at` had its name.
 */
import { describe, expect, it } from 'vitest';
import { toEndpointHealth } from '#adapters/dynamodb/health-items';
import { toEndpointHealthView } from '#http/accounts/account-view';

describe('toEndpointHealth', () => {
  it('reads the recovery an older item kept as wh_last_success, and the view shows it under both names', () => {
    const health = toEndpointHealth({ wh_last_success: '2026-11-20T08:00:00.000Z' });
    expect(health.recoveredAt).toBe('2026-11-20T08:00:00.000Z');
    expect(toEndpointHealthView(health)).toMatchObject({
      recovered_at: '2026-11-20 08:00:00',
      last_success_at: '2026-11-20 08:00:00',
    });
  });

  it('prefers wh_recovered_at when an item holds both', () => {
    const health = toEndpointHealth({
      wh_last_success: '2026-11-20T08:00:00.000Z',
      wh_recovered_at: '2026-11-21T09:30:00.000Z',
    });
    expect(health.recoveredAt).toBe('2026-11-21T09:30:00.000Z');
  });
});
