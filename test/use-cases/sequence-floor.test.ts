/**
 * Sequences under retention with the in-memory fakes: when the TTL deleted the last event of a log, the
 * account's floor rises to it and the next publish continues above it; a deletion below the log's latest
 * event changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { keepFloorAfterExpiry } from '#use-cases/events/sequence-floor';
import { storeInLog } from '#use-cases/events/store-in-log';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';

describe('keepFloorAfterExpiry', () => {
  it('raises the floor when a log emptied, so a sequence is never given twice', async () => {
    const events = new InMemoryEventStore();
    const directory = new InMemoryDirectoryStore();
    directory.addOrganization();
    directory.addAccount({ iban: IBAN });
    events.seed({ id: 'e3', account: IBAN, sequence: 3 });
    // Sequence 2 expired while 3 remains: nothing to do.
    await keepFloorAfterExpiry({ events, directory }, [
      { id: '', orgId: 'org-1', account: IBAN, sequence: 2 },
    ]);
    expect(directory.accounts.get(IBAN)?.sequenceFloor).toBeUndefined();
    // Then 3, the last one, expired too.
    events.events.delete('e3');
    await keepFloorAfterExpiry({ events, directory }, [
      { id: '', orgId: 'org-1', account: IBAN, sequence: 3 },
    ]);
    expect(directory.accounts.get(IBAN)?.sequenceFloor).toBe(3);
    const draft = {
      id: '0193a7c4-1d2e-7f00-8a00-000000000001',
      orgId: 'org-1',
      account: IBAN,
      type: 't',
      triggeredAt: '2026-11-21T00:00:00.000Z',
      webhookStatus: 'pending' as const,
      sequenceFloor: directory.accounts.get(IBAN)?.sequenceFloor ?? 0,
    };
    const next = await storeInLog({ events, now: () => 0 }, draft, () => '{}');
    expect(next.created && next.event.sequence).toBe(4);
    // Another organization's account is not touched.
    await keepFloorAfterExpiry({ events, directory }, [
      { id: '', orgId: 'org-2', account: IBAN, sequence: 9 },
    ]);
    expect(directory.accounts.get(IBAN)?.sequenceFloor).toBe(3);
  });
});
