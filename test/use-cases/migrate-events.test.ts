/**
 * The upgrade to account logs with the in-memory fakes: events stored before sequences get the next
 * sequences of their accounts in `triggered_at` order, bodies and claims follow, pending ones wait, and
 * repeating the request moves nothing twice.
 */
import { describe, expect, it } from 'vitest';
import { migrateLegacyEvents } from '#use-cases/events/migrate-events';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const body = (id: string) =>
  `{"id":"${id}","type":"t","account":"${IBAN}","triggered_at":"x","payload":{},"_links":{}}`;

describe('migrateLegacyEvents', () => {
  it('moves settled old-layout events after the log, oldest first, and leaves pending ones for later', async () => {
    const events = new InMemoryEventStore();
    // Published after the upgrade: sequence 1.
    events.seed({ id: 'new', account: IBAN, sequence: 1, triggeredAt: '2026-11-22T00:00:00.000Z' });
    events.seed({
      id: 'old-b',
      account: IBAN,
      webhookStatus: 'failed',
      triggeredAt: '2026-11-20T00:00:02.000Z',
      body: body('old-b'),
    });
    events.seed({
      id: 'old-a',
      account: IBAN,
      webhookStatus: 'success',
      triggeredAt: '2026-11-20T00:00:01.000Z',
      body: body('old-a'),
    });
    events.seed({ id: 'old-p', account: IBAN, triggeredAt: '2026-11-20T00:00:03.000Z', body: body('old-p') });
    expect(await migrateLegacyEvents(events, 'org-1')).toEqual({ migrated: 2, pending: 1, more: false });
    expect(events.events.get('old-a')?.sequence).toBe(2);
    expect(events.events.get('old-b')?.sequence).toBe(3);
    expect(JSON.parse(events.events.get('old-a')?.body ?? '{}').sequence).toBe(2);
    expect(events.claims.get('old-b')).toMatchObject({ sequence: 3, account: IBAN });
    expect((await events.getEvent('old-b'))?.sequence).toBe(3);
    expect((await events.readLog('org-1', IBAN, 1, 10)).map((e) => e.id)).toEqual(['old-a', 'old-b']);
    // Again: nothing moves twice; the pending one moves once it settled.
    expect(await migrateLegacyEvents(events, 'org-1')).toEqual({ migrated: 0, pending: 1, more: false });
    const pending = events.events.get('old-p');
    if (pending) events.events.set('old-p', { ...pending, webhookStatus: 'success' });
    expect(await migrateLegacyEvents(events, 'org-1')).toEqual({ migrated: 1, pending: 0, more: false });
    expect(events.events.get('old-p')?.sequence).toBe(4);
  });
});
