/**
 * Re-enabling an endpoint with fakes: health cleared, optional recovery of the account's events since a
 * time, a bounded step per request that always goes on past what earlier steps examined.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INDEX_ENTRIES_READ, RECOVERY_LIMIT, RESET_CHUNK } from '#config/limits';
import { NotFoundError, ValidationError } from '#domain/errors';
import { parseEnableRequest } from '#http/accounts/account-request';
import { enableAnyEndpoint, enableEndpoint } from '#use-cases/accounts/enable-endpoint';
import { apiEvent } from '../support/api-event';
import { deliveryWorld } from '../support/fakes/delivery-deps';

/** A recovery as the enable routes read it from their body (ISO `since`), or a ValidationError. */
const since = (text: string, cursor?: string) =>
  parseEnableRequest(apiEvent({ body: { recover_since: text, ...(cursor === undefined ? {} : { cursor }) } }))
    .recovery;

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
      more: false,
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

  it('recovers a bounded number of events per request; enabling again with the cursor takes the rest', async () => {
    const w = deliveryWorld();
    w.health.health.set(w.iban, { state: 'disabled', consecutiveFailures: 3 });
    for (let i = 0; i < RECOVERY_LIMIT + 7; i++) {
      w.events.seed({ id: `e${String(i).padStart(4, '0')}`, webhookStatus: 'failed', webhookRetries: 20 });
    }
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    const first = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00'));
    expect(first).toMatchObject({ more: true, cursor: expect.any(String) });
    expect(first.queued).toHaveLength(RECOVERY_LIMIT);
    const second = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00', first.cursor));
    expect(second.queued).toHaveLength(7);
    expect(second.more).toBe(false);
    expect(new Set([...first.queued, ...second.queued]).size).toBe(RECOVERY_LIMIT + 7);
  });

  it('completes a backlog behind other accounts’ events in several requests, never examining an entry twice', async () => {
    const w = deliveryWorld();
    const at = (i: number) => new Date(Date.UTC(2026, 10, 20) + i * 1000).toISOString();
    const other = 'DE02120300000000202051';
    // 5,000 skipped events of another account (more than two requests' read bound), our 600 among them,
    // and 50 of ours with no cycle left: a request that re-read them would make no progress.
    const ours: string[] = [];
    for (let i = 0; i < 5_650; i++) {
      const mine = i % 9 === 0 && ours.length < 650;
      const full = mine && ours.length < 50;
      const id = `e${String(i).padStart(5, '0')}`;
      w.events.seed({
        id,
        webhookStatus: 'skipped',
        triggeredAt: at(i),
        account: mine ? w.iban : other,
        ...(full ? { webhookRetries: 60, cycleBase: 40, cycles: 3 } : {}),
      });
      if (mine) ours.push(id);
    }
    const deps = { health: w.health, events: w.events, queue: w.queue, now: w.clock.now };
    const queued: string[] = [];
    let cursor: string | undefined;
    let requests = 0;
    do {
      const before = w.events.recoveryExamined.length;
      const step = await enableEndpoint(deps, 'org-1', w.iban, since('2026-11-20 00:00:00', cursor));
      expect(w.events.recoveryExamined.length - before).toBeLessThanOrEqual(MAX_INDEX_ENTRIES_READ);
      queued.push(...step.queued);
      cursor = step.cursor;
      requests++;
    } while (cursor !== undefined && requests < 20);
    expect(cursor).toBeUndefined();
    expect(requests).toBeGreaterThan(2);
    expect(queued.sort()).toEqual(ours.slice(50).sort());
    // Every entry of the window examined exactly once over all requests.
    expect(w.events.recoveryExamined).toHaveLength(5_650);
    expect(new Set(w.events.recoveryExamined).size).toBe(5_650);
  });

  it('recovers older events behind a chunk of events with no cycle left', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'older', webhookStatus: 'skipped', triggeredAt: '2026-11-20T08:00:00.000Z' });
    for (let i = 0; i < RESET_CHUNK; i++) {
      w.events.seed({
        id: `full${i}`,
        webhookStatus: 'failed',
        webhookRetries: 60,
        cycleBase: 40,
        cycles: 3,
      });
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
      more: false,
    });
    expect(w.health.get(other).state).toBe('healthy');
    await expect(enableAnyEndpoint(deps, 'CH9300762011623852957')).rejects.toThrow(NotFoundError);
    await expect(enableAnyEndpoint(deps, 'not an iban')).rejects.toThrow(ValidationError);
  });
});
