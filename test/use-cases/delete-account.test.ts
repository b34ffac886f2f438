import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { NOTICE_ERASE_CHUNK } from '#config/limits';
import { NotFoundError, ValidationError } from '#domain/errors';
import { makeNotice } from '#domain/notices/notice';
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
let notices: InMemoryOperationalLog;
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

/** `count` operational notices of `account` in `org`, a failing run a minute apart from `from`. */
async function notify(org: string, account: string, count: number, from = 0): Promise<void> {
  for (let i = 0; i < count; i++) {
    const epoch = new Date(Date.UTC(2026, 10, 21) + (from + i) * 60_000).toISOString();
    const key = { kind: 'endpoint_failing' as const, orgId: org, endpointId: `ep_${account}`, epoch };
    await notices.record(makeNotice(key, { account, at: epoch, consecutiveFailures: 4 }));
  }
}

/** The accounts the stored notices of `org` name, each with how many. */
function noticesOf(org: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const notice of notices.notices.filter((n) => n.orgId === org)) {
    counts[notice.account] = (counts[notice.account] ?? 0) + 1;
  }
  return counts;
}

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  events = new InMemoryEventStore();
  notices = new InMemoryOperationalLog();
  const endpoints = new InMemoryEndpointStore(directory);
  deps = { directory, events, now: new FakeClock().now, endpoints, notices };
  orgId = (await createOrganization(directory, new InMemoryApiKeyStore(), 'Acme')).organization.id;
  for (const iban of [IBAN, OTHER_IBAN]) await putAccount(directory, { orgId, iban }, 'public-https');
});

describe('deleteAccount', () => {
  it('without erase deletes the account, keeps its events and leaves a tombstone of its organization', async () => {
    await publish(IBAN, 2);
    const result = toAccountErasureView(await deleteAccount(deps, { iban: IBAN, erase: false }));
    expect(result).toEqual({
      iban: IBAN,
      org_id: orgId,
      deleted: true,
      erased_events: 0,
      erased_notices: 0,
      more: false,
    });
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

  it("erases the organization's notices of the account in bounded chunks, then releases the IBAN", async () => {
    await publish(IBAN, 2);
    // The account's notices interleaved with another account's, beyond one chunk's reach; the same
    // IBAN's notices in another organization (it held the IBAN before) are that organization's.
    for (let run = 0; run < 3; run++) {
      await notify(orgId, IBAN, NOTICE_ERASE_CHUNK / 2, run * NOTICE_ERASE_CHUNK);
      await notify(
        orgId,
        OTHER_IBAN,
        NOTICE_ERASE_CHUNK / 2,
        run * NOTICE_ERASE_CHUNK + NOTICE_ERASE_CHUNK / 2,
      );
    }
    await notify('org-before', IBAN, 3);
    const steps = [];
    let step = await deleteAccount(deps, { iban: IBAN, erase: true });
    steps.push(step);
    while (step.more) {
      // The IBAN stays reserved while notices naming it remain.
      expect(await directory.getAccountTombstone(IBAN)).toMatchObject({ orgId });
      step = await deleteAccount(deps, { iban: IBAN, erase: true, cursor: step.cursor });
      steps.push(step);
    }
    // The events went with the first request; each request read one chunk of the notice log (three full
    // ones: as a Query's `Limit` does, a full chunk cannot tell it was the last).
    expect(steps.map((s) => s.erasedEvents)).toEqual([2, 0, 0, 0]);
    const half = NOTICE_ERASE_CHUNK / 2;
    expect(steps.map((s) => s.erasedNotices)).toEqual([half, half, half, 0]);
    expect(steps.map((s) => s.more)).toEqual([true, true, true, false]);
    expect(noticesOf(orgId)).toEqual({ [OTHER_IBAN]: (3 * NOTICE_ERASE_CHUNK) / 2 });
    expect(noticesOf('org-before')).toEqual({ [IBAN]: 3 });
    expect((await notices.page(orgId, 0, 10)).notices.every((n) => n.account === OTHER_IBAN)).toBe(true);
    expect(await directory.getAccountTombstone(IBAN)).toBeUndefined();
  });

  it('refuses a notices cursor it did not hand out, naming cursor, and keeps the notices', async () => {
    await notify(orgId, IBAN, 1);
    await deleteAccount(deps, { iban: IBAN, erase: false });
    for (const cursor of ['notices:', 'notices:bogus']) {
      const error = await deleteAccount(deps, { iban: IBAN, erase: true, cursor }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).params.map((p) => p.name)).toEqual(['cursor']);
    }
    expect(noticesOf(orgId)).toEqual({ [IBAN]: 1 });
    expect(await directory.getAccountTombstone(IBAN)).toMatchObject({ orgId });
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
