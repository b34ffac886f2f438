import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { NotFoundError } from '#domain/errors';
import { toAccountErasureView } from '#http/accounts/account-view';
import { putAccount } from '#use-cases/accounts/accounts';
import { type DeleteAccountDeps, deleteAccount } from '#use-cases/accounts/delete-account';
import { createOrganization } from '#use-cases/organizations/organizations';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const OTHER_IBAN = 'GB82WEST12345698765432';

let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let deps: DeleteAccountDeps;
let orgId: string;

/** `count` events of `account`, one second apart. */
async function publish(account: string, count: number, from = 0): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`;
    await events.insertEvent({
      id,
      orgId,
      account,
      sequence: (await events.latestSequence(orgId, account)) + 1,
      type: 'credit_transfer_status_change',
      triggeredAt: new Date(Date.UTC(2026, 10, 21) + (from + i) * 1000).toISOString(),
      body: '{}',
      webhookStatus: 'pending',
    });
  }
}

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  events = new InMemoryEventStore();
  deps = { directory, events, now: new FakeClock().now, endpoints: new InMemoryEndpointStore(directory) };
  orgId = (await createOrganization(directory, new InMemoryApiKeyStore(), 'Acme')).organization.id;
  for (const iban of [IBAN, OTHER_IBAN]) await putAccount(directory, { orgId, iban }, 'public-https');
});

describe('deleteAccount', () => {
  it('without erase deletes the account, keeps its events and leaves a tombstone of its organization', async () => {
    await publish(IBAN, 2);
    const result = toAccountErasureView(await deleteAccount(deps, { iban: IBAN, erase: false }));
    expect(result).toEqual({ iban: IBAN, org_id: orgId, deleted: true, erased_events: 0, more: false });
    expect(await directory.getAccount(IBAN)).toBeUndefined();
    expect((await directory.listAccounts(orgId, { page: 1, perPage: 100 })).accounts).toEqual([
      expect.objectContaining({ iban: OTHER_IBAN }),
    ]);
    // The tombstone keeps the log's latest sequence: the account, created again, continues above it.
    expect(await directory.getAccountTombstone(IBAN)).toEqual({
      iban: IBAN,
      orgId,
      deletedAt: '2026-11-21T12:00:00.000Z',
      sequenceFloor: 2,
    });
    expect(events.events.size).toBe(2);
  });

  it('erases in bounded chunks: the first request deletes the account, the last releases the IBAN', async () => {
    await publish(IBAN, 600);
    await publish(OTHER_IBAN, 600, 600);
    const first = toAccountErasureView(await deleteAccount(deps, { iban: IBAN, erase: true }));
    expect(first).toMatchObject({ deleted: true, more: true, org_id: orgId });
    expect(first.erased_events).toBeLessThan(600);
    expect(await directory.getAccountTombstone(IBAN)).toMatchObject({ orgId });
    // The tombstone names the organization, so the cursor alone goes on (the CLI sends `org` too).
    const second = toAccountErasureView(
      await deleteAccount(deps, { iban: IBAN, erase: true, cursor: first.cursor }),
    );
    expect(second).toMatchObject({ deleted: false, more: false, org_id: orgId });
    expect(first.erased_events + second.erased_events).toBe(600);
    expect([...events.events.values()].every((event) => event.account === OTHER_IBAN)).toBe(true);
    expect(events.events.size).toBe(600);
    expect(await directory.getAccountTombstone(IBAN)).toBeUndefined();
  });

  it('goes on erasing, with org and cursor, an account deleted before IBANs were reserved', async () => {
    await publish(IBAN, 3);
    directory.accounts.delete(IBAN);
    await expect(deleteAccount(deps, { iban: IBAN, erase: true })).rejects.toThrow(/name its org/);
    const done = await deleteAccount(deps, { iban: IBAN, erase: true, orgId });
    expect(done).toMatchObject({ deleted: false, erasedEvents: 3, more: false });
  });

  it('answers 404 for an account of another organization, and for an unknown one without erase', async () => {
    await expect(deleteAccount(deps, { iban: IBAN, orgId: 'another', erase: true })).rejects.toThrow(
      NotFoundError,
    );
    expect(directory.accounts.has(IBAN)).toBe(true);
    await deleteAccount(deps, { iban: IBAN, erase: false });
    await expect(deleteAccount(deps, { iban: IBAN, orgId, erase: false })).rejects.toThrow(
      /No account .*: it was deleted, and its events remain until erased/,
    );
    await expect(deleteAccount(deps, { iban: IBAN, orgId: 'another', erase: true })).rejects.toThrow(
      NotFoundError,
    );
    expect(await directory.getAccountTombstone(IBAN)).toMatchObject({ orgId });
  });
});

describe('deleteAccount input', () => {
  it('refuses a cursor while the account exists, deleting nothing', async () => {
    await publish(IBAN, 1);
    await expect(deleteAccount(deps, { iban: IBAN, orgId, erase: true, cursor: '0' })).rejects.toThrow(
      /cursor/,
    );
    expect(directory.accounts.has(IBAN)).toBe(true);
    expect(events.events.size).toBe(1);
  });
});
