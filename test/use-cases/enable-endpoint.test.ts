/** Re-enabling an endpoint with fakes: health cleared, optional recovery of the account's events since a time. */
import { describe, expect, it } from 'vitest';
import { OPERATOR_PAGES_PER_REQUEST, RESET_CHUNK } from '#config/limits';
import { NotFoundError, ValidationError } from '#domain/errors';
import { parseEnableRequest } from '#http/accounts/account-request';
import { enableAnyEndpoint, enableEndpoint } from '#use-cases/accounts/enable-endpoint';
import { apiEvent } from '../support/api-event';
import { deliveryWorld } from '../support/fakes/delivery-deps';

/** `recover_since` as the enable routes read it from their body: ISO, or a ValidationError. */
const since = (text: string): string | undefined =>
  parseEnableRequest(apiEvent({ body: { recover_since: text } })).recoverSince;

describe('enableEndpoint', () => {
  it('makes a disabled endpoint healthy without redelivering anything by default', async () => {
    const w = deliveryWorld();
    w.health.health.set(w.iban, {
      state: 'disabled',
      consecutiveFailures: 40,
      reason: 'receiver answered 410 Gone',
    });
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    expect(await enableEndpoint(deps, 'org-1', 'de89 3704 0044 0532 0130 00')).toEqual({
      iban: w.iban,
      queued: [],
    });
    expect(w.health.get(w.iban)).toMatchObject({
      state: 'healthy',
      consecutiveFailures: 0,
      since: w.clock.iso(),
    });
    expect(w.queue.sent).toEqual([]);
  });

  it('with recover_since, redelivers the account’s failed and skipped events since then, and only those', async () => {
    const w = deliveryWorld();
    w.health.health.set(w.iban, { state: 'disabled', consecutiveFailures: 3 });
    const at = (hour: number) => `2026-11-20T${String(hour).padStart(2, '0')}:00:00.000Z`;
    w.events.seed({ id: 'before', webhookStatus: 'skipped', triggeredAt: at(7) });
    w.events.seed({ id: 'skipped', webhookStatus: 'skipped', triggeredAt: at(8) });
    w.events.seed({ id: 'failed', webhookStatus: 'failed', webhookRetries: 20, triggeredAt: at(9) });
    w.events.seed({ id: 'done', webhookStatus: 'success', triggeredAt: at(9) });
    w.events.seed({
      id: 'other',
      webhookStatus: 'skipped',
      triggeredAt: at(9),
      account: 'DE02120300000000202051',
    });
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    const result = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 08:00:00'));
    expect(result.queued.sort()).toEqual(['failed', 'skipped']);
    expect(w.events.events.get('failed')).toMatchObject({ webhookStatus: 'pending', cycleBase: 20 });
    expect(w.events.events.get('before')?.webhookStatus).toBe('skipped');
  });

  it('recovers a bounded number of events per request; enabling again takes the rest', async () => {
    const w = deliveryWorld();
    w.health.health.set(w.iban, { state: 'disabled', consecutiveFailures: 3 });
    const bound = OPERATOR_PAGES_PER_REQUEST * RESET_CHUNK;
    for (let i = 0; i < bound + 7; i++) {
      w.events.seed({ id: `e${String(i).padStart(4, '0')}`, webhookStatus: 'failed', webhookRetries: 20 });
    }
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    const first = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00'));
    expect(first.queued).toHaveLength(bound);
    const second = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00'));
    expect(second.queued).toHaveLength(7);
    expect(new Set([...first.queued, ...second.queued]).size).toBe(bound + 7);
  });

  it('recovers older events behind a chunk of events with no cycle left', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'older', webhookStatus: 'skipped', triggeredAt: '2026-11-20T08:00:00.000Z' });
    for (let i = 0; i < RESET_CHUNK; i++) {
      w.events.seed({ id: `full${i}`, webhookStatus: 'failed', webhookRetries: 60 });
    }
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    expect((await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00'))).queued).toEqual([
      'older',
    ]);
  });

  it('refuses another organization’s account, a bad IBAN and a bad time, changing nothing', async () => {
    const w = deliveryWorld();
    w.health.health.set(w.iban, { state: 'disabled', consecutiveFailures: 3 });
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    await expect(enableEndpoint(deps, 'org-2', w.iban)).rejects.toThrow(NotFoundError);
    await expect(enableEndpoint(deps, 'org-1', 'DE00370400440532013000')).rejects.toThrow(ValidationError);
    await expect(async () => enableEndpoint(deps, 'org-1', w.iban, since('yesterday'))).rejects.toThrow(
      ValidationError,
    );
    expect(w.health.get(w.iban).state).toBe('disabled');
  });
});

describe('enableAnyEndpoint (operator)', () => {
  it('enables the account for whichever organization owns it, and refuses an unknown account', async () => {
    const w = deliveryWorld();
    w.directory.addOrganization('org-2');
    const other = 'GB82WEST12345698765432';
    w.directory.addAccount({ iban: other, orgId: 'org-2', webhookUrl: 'https://hooks.example.com/b' });
    w.health.health.set(other, { state: 'disabled', consecutiveFailures: 5 });
    w.events.seed({ id: 'theirs', orgId: 'org-2', account: other, webhookStatus: 'skipped' });
    const deps = {
      health: w.health,
      events: w.events,
      queue: w.queue,
      directory: w.directory,
      now: w.clock.now,
    };
    expect(
      await enableAnyEndpoint(deps, 'gb82 west 1234 5698 7654 32', since('2026-11-20 00:00:00')),
    ).toEqual({
      iban: other,
      queued: ['theirs'],
    });
    expect(w.health.get(other).state).toBe('healthy');
    await expect(enableAnyEndpoint(deps, 'CH9300762011623852957')).rejects.toThrow(NotFoundError);
    await expect(enableAnyEndpoint(deps, 'not an iban')).rejects.toThrow(ValidationError);
  });
});
