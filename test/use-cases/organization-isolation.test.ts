/**
 * An event is only ever delivered to, signed for and answered into the organization that published it
 * (issue 16, item 1), with fakes: the consumer refuses an account another organization holds, an IBAN
 * that still holds an organization's events cannot be assigned to another one, and erasing releases it.
 */

import { describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { deliverBatch } from '#delivery/deliver-batch';
import { ConflictError } from '#domain/errors';
import { putAccount } from '#use-cases/accounts/accounts';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';

const A_URL = 'https://a.example.com/hooks';
const B_URL = 'https://b.example.com/hooks';

/** Org A (`org-1`, the world's) with an event that failed once and waits for its retry; org B beside it. */
function arrange() {
  const w = deliveryWorld();
  w.directory.addOrganization('org-b');
  w.directory.addAccount({ iban: w.iban, webhookUrl: A_URL });
  w.events.seed({
    id: 'a1',
    webhookRetries: 1,
    deliveries: [failure()],
    nextAttemptAt: w.clock.now() + 10_000,
  });
  const deps = {
    directory: w.directory,
    events: w.events,
    now: w.clock.now,
    endpoints: new InMemoryEndpointStore(w.directory),
    notices: w.notices,
  };
  return { w, deps };
}

function failure() {
  return {
    deliveredAt: '2026-11-20T09:59:50.000Z',
    responseStatus: 500,
    responseBody: '',
    responseTimeMs: 5,
  };
}

describe('delivery stays with the publishing organization', () => {
  it('refuses an account another organization holds now: nothing sent, no attempt, the event settles skipped', async () => {
    const { w } = arrange();
    // Old data: the IBAN was given to org B anyway (written past the store's rules).
    w.directory.addAccount({ iban: w.iban, orgId: 'org-b', webhookUrl: B_URL });
    w.clock.advance(10_000);
    expect(await deliverBatch(w.deps, [message('a1')])).toEqual([]);
    expect(w.outcomes).toEqual([
      { kind: 'refused', reason: 'the account belongs to another organization now; nothing was sent' },
    ]);
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('a1')).toMatchObject({ webhookStatus: 'skipped', webhookRetries: 1 });
    expect(w.events.events.get('a1')?.deliveries).toHaveLength(1);
    // Org B's token was never even read.
    expect(w.directory.reads.getOrganization).toBe(0);

    // A redelivery org A asks for meets the same refusal.
    expect(await redeliverEvent({ ...w.deps, directory: w.directory }, 'org-1', 'a1')).toEqual({
      queued: ['a1'],
    });
    await deliverBatch(w.deps, [message('a1')]);
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('a1')).toMatchObject({ webhookStatus: 'skipped', webhookRetries: 1 });
  });

  it('refuses to assign an IBAN that still holds another organization’s events (409), without naming it', async () => {
    const { w, deps } = arrange();
    await deleteAccount(deps, { iban: w.iban, erase: false });
    const assign = putAccount(
      w.directory,
      { orgId: 'org-b', iban: w.iban, webhookUrl: B_URL },
      'public-https',
    );
    await expect(assign).rejects.toBeInstanceOf(ConflictError);
    const detail = await assign.catch((error: Error) => error.message);
    expect(detail).toBe(
      `Account ${w.iban} still holds another organization's events: erase them first ` +
        `(herald account delete --iban ${w.iban} --erase, or DELETE /admin/accounts/${w.iban}?erase=true), then assign the IBAN.`,
    );
    expect(detail).not.toContain('org-1');
    expect(detail).not.toContain('Acme');
    // The retry that was due goes nowhere: the account is deleted.
    w.clock.advance(10_000);
    await deliverBatch(w.deps, [message('a1')]);
    expect(w.sender.requests).toHaveLength(0);
    expect(w.outcomes.at(-1)).toMatchObject({ kind: 'skipped', reason: 'account deleted' });
  });

  it('lets the same organization re-create its deleted account, back in its listing', async () => {
    const { w, deps } = arrange();
    await deleteAccount(deps, { iban: w.iban, erase: false });
    expect((await w.directory.listAccounts('org-1', { page: 1, perPage: 100 })).accounts).toEqual([]);
    await putAccount(w.directory, { orgId: 'org-1', iban: w.iban, webhookUrl: A_URL }, 'public-https');
    expect((await w.directory.listAccounts('org-1', { page: 1, perPage: 100 })).accounts).toEqual([
      expect.objectContaining({ iban: w.iban }),
    ]);
    expect(await w.directory.getAccountTombstone(w.iban)).toBeUndefined();
  });

  it('assigns the IBAN to another organization once the first one’s events are erased', async () => {
    const { w, deps } = arrange();
    await deleteAccount(deps, { iban: w.iban, erase: false });
    const erased = await deleteAccount(deps, { iban: w.iban, erase: true });
    expect(erased).toMatchObject({ orgId: 'org-1', erasedEvents: 1, more: false });
    const taken = await putAccount(
      w.directory,
      { orgId: 'org-b', iban: w.iban, webhookUrl: B_URL },
      'public-https',
    );
    expect(taken.orgId).toBe('org-b');
    expect(w.events.events.size).toBe(0);
  });

  it('still refuses an IBAN another organization’s live account holds', async () => {
    const { w } = arrange();
    const assign = putAccount(w.directory, { orgId: 'org-b', iban: w.iban }, 'public-https');
    await expect(assign).rejects.toThrow(`Account ${w.iban} belongs to another organization.`);
  });
});
