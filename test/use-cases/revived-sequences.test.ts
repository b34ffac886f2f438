/**
 * Sequences never go back for an IBAN within its organization (issue 28, item 7), with fakes: an account
 * deleted without erasure keeps its log's floor on the tombstone, retention's deletions after it raise that
 * floor, and the account created again continues above it, also once retention emptied its log; erasure
 * ends the log, so an account created after it starts at 1.
 */

import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { putAccount } from '#use-cases/accounts/accounts';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { recordEvent } from '#use-cases/events/record-event';
import { keepFloorAfterExpiry } from '#use-cases/events/sequence-floor';
import { publishCatalog } from '../support/event-type-catalog';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';
import { TRANSFER, transferPayload } from '../support/payloads';

const IBAN = 'DE89370400440532013000';
const ORG = 'org-1';

let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let published = 0;

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  events = new InMemoryEventStore();
  published = 0;
  directory.addOrganization(ORG);
  await putAccount(
    directory,
    { orgId: ORG, iban: IBAN, webhookUrl: 'https://a.example.com/h' },
    'public-https',
  );
});

/** Publishes one event of the account as `POST /events` does; its sequence. */
async function publish(): Promise<number | undefined> {
  published += 1;
  const recorded = await recordEvent(
    {
      events,
      directory,
      baseUrl: 'https://api.example.com',
      retentionDays: async () => undefined,
      catalog: publishCatalog().catalog,
    },
    {
      id: `00000000-0000-4000-8000-${String(published).padStart(12, '0')}`,
      account: IBAN,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: `tr_${published}` }),
    },
  );
  return recorded.event.sequence;
}

/** Retention deletes every event of the log, and the forwarder hears each deletion. */
async function expireAll(): Promise<void> {
  const expired = [...events.events.values()].map(({ id, orgId, account, sequence }) => ({
    id,
    orgId,
    account,
    sequence,
  }));
  for (const { id } of expired) events.events.delete(id);
  await keepFloorAfterExpiry({ directory }, expired);
}

const deps = () => ({
  directory,
  events,
  now: new FakeClock().now,
  endpoints: new InMemoryEndpointStore(directory),
  notices: new InMemoryOperationalLog(),
});
const recreate = () =>
  putAccount(directory, { orgId: ORG, iban: IBAN, webhookUrl: 'https://a2.example.com/h' }, 'public-https');

describe('an account deleted without erasure and created again', () => {
  it('continues after its log’s latest sequence once retention emptied the log', async () => {
    expect([await publish(), await publish(), await publish()]).toEqual([1, 2, 3]);
    await deleteAccount(deps(), { iban: IBAN, erase: false });
    expect((await directory.getAccountTombstone(IBAN))?.sequenceFloor).toBe(3);
    await expireAll();
    expect(events.events.size).toBe(0);

    await recreate();
    expect(await publish()).toBe(4);
  });

  it('keeps a floor retention had raised before the deletion, and raises it on the tombstone after', async () => {
    await publish();
    await publish();
    await expireAll();
    expect(directory.accounts.get(IBAN)?.sequenceFloor).toBe(2);
    await deleteAccount(deps(), { iban: IBAN, erase: false });
    expect((await directory.getAccountTombstone(IBAN))?.sequenceFloor).toBe(2);
    // A publish that read the account before its deletion stores its event after it; retention then takes it.
    await events.insertEvent({
      id: '00000000-0000-4000-8000-000000000099',
      orgId: ORG,
      account: IBAN,
      sequence: 3,
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-21T00:00:00.000Z',
      body: '{}',
      webhookStatus: 'pending',
    });
    await expireAll();
    expect((await directory.getAccountTombstone(IBAN))?.sequenceFloor).toBe(3);

    expect((await recreate()).sequenceFloor).toBe(3);
    expect(await publish()).toBe(4);
  });

  it('starts at 1 after an erasure, which ends the log (documented)', async () => {
    await publish();
    await publish();
    const erased = await deleteAccount(deps(), { iban: IBAN, erase: true });
    expect(erased).toMatchObject({ erasedEvents: 2, more: false });
    expect(await directory.getAccountTombstone(IBAN)).toBeUndefined();
    await recreate();
    expect(await publish()).toBe(1);
  });
});
