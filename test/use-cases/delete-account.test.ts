import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '#domain/errors';
import { toAccountErasureView } from '#http/accounts/account-view';
import { putAccount } from '#use-cases/accounts/accounts';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { createOrganization } from '#use-cases/organizations/organizations';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const OTHER_IBAN = 'GB82WEST12345698765432';

let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let orgId: string;

/** `count` events of `account`, one second apart. */
async function publish(account: string, count: number, from = 0): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`;
    await events.putEvent({
      id,
      orgId,
      account,
      type: 'credit_transfer_status_change',
      triggeredAt: new Date(Date.UTC(2026, 10, 21) + (from + i) * 1000).toISOString(),
      body: '{}',
      signature: 'sha256=00',
      webhookStatus: 'pending',
    });
  }
}

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  events = new InMemoryEventStore();
  orgId = (await createOrganization(directory, new InMemoryApiKeyStore(), 'Acme')).organization.id;
  for (const iban of [IBAN, OTHER_IBAN]) await putAccount(directory, { orgId, iban }, 'public-https');
});

describe('deleteAccount', () => {
  it('without erase deletes the account and keeps its events', async () => {
    await publish(IBAN, 2);
    const result = toAccountErasureView(
      await deleteAccount({ directory, events }, { iban: IBAN, erase: false }),
    );
    expect(result).toEqual({ iban: IBAN, org_id: orgId, deleted: true, erased_events: 0, more: false });
    expect(directory.accounts.has(IBAN)).toBe(false);
    expect(events.events.size).toBe(2);
  });

  it('erases in bounded chunks: the first request deletes the account, the next go on with org and cursor', async () => {
    await publish(IBAN, 600);
    await publish(OTHER_IBAN, 600, 600);
    const deps = { directory, events };
    const first = toAccountErasureView(await deleteAccount(deps, { iban: IBAN, erase: true }));
    expect(first).toMatchObject({ deleted: true, more: true, org_id: orgId });
    expect(first.erased_events).toBeLessThan(600);
    // The account is gone: only its organization and the cursor let the erasure go on.
    await expect(deleteAccount(deps, { iban: IBAN, erase: true, cursor: first.cursor })).rejects.toThrow(
      NotFoundError,
    );
    const second = toAccountErasureView(
      await deleteAccount(deps, { iban: IBAN, erase: true, orgId, cursor: first.cursor }),
    );
    expect(second).toMatchObject({ deleted: false, more: false });
    expect(first.erased_events + second.erased_events).toBe(600);
    expect([...events.events.values()].every((event) => event.account === OTHER_IBAN)).toBe(true);
    expect(events.events.size).toBe(600);
  });

  it('answers 404 for an account of another organization, and for an unknown one without erase', async () => {
    await expect(
      deleteAccount({ directory, events }, { iban: IBAN, orgId: 'another', erase: true }),
    ).rejects.toThrow(NotFoundError);
    expect(directory.accounts.has(IBAN)).toBe(true);
    await deleteAccount({ directory, events }, { iban: IBAN, erase: false });
    await expect(deleteAccount({ directory, events }, { iban: IBAN, orgId, erase: false })).rejects.toThrow(
      /No account/,
    );
  });
});

describe('deleteAccount input', () => {
  it('refuses a cursor while the account exists, deleting nothing', async () => {
    await publish(IBAN, 1);
    await expect(
      deleteAccount({ directory, events }, { iban: IBAN, orgId, erase: true, cursor: '0' }),
    ).rejects.toThrow(/cursor/);
    expect(directory.accounts.has(IBAN)).toBe(true);
    expect(events.events.size).toBe(1);
  });
});
