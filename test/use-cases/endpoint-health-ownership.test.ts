/**
 * Endpoint health is written only onto the account of the organization whose attempt it describes (issue
 * 28, item 7), with fakes: an attempt under way while its account is erased and the IBAN given to another
 * organization records its attempt on its own event and leaves the new owner's health alone, failures,
 * `410` and slots alike.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import type { SendResult } from '#domain/ports';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

const B_URL = 'https://b.example.com/hooks';

/** Org A's account erased (tombstone gone) and the IBAN given to org B: what an erasure and a put do. */
async function giveIbanToB(w: DeliveryWorld): Promise<void> {
  await w.directory.deleteAccount({ iban: w.iban, orgId: 'org-1', deletedAt: w.clock.iso() });
  await w.directory.removeAccountTombstone(w.iban, 'org-1');
  w.directory.addOrganization('org-b');
  w.directory.addAccount({ iban: w.iban, orgId: 'org-b', webhookUrl: B_URL });
}

/** A world whose receiver answers `result` only after the IBAN changed hands. */
function answeredAfterHandover(result: SendResult): DeliveryWorld {
  const w = deliveryWorld({ failureThreshold: 1 });
  w.events.seed({ id: 'a1' });
  w.sender.answer = async () => {
    await giveIbanToB(w);
    return result;
  };
  return w;
}

describe('an attempt under way when its IBAN changes hands', () => {
  it('records its failure on its own event, and writes none of it onto the new owner’s endpoint', async () => {
    const w = answeredAfterHandover(answer(500));
    const outcome = await deliverEvent(w.deps, { id: 'a1' });
    expect(outcome).toMatchObject({ kind: 'retry' });
    // Dropped, not an error: the outcome carries no endpoint failure, and no endpoint report of B's.
    expect(outcome).not.toHaveProperty('endpointError');
    expect(outcome).not.toHaveProperty('endpoint');
    expect(w.events.events.get('a1')).toMatchObject({ webhookRetries: 1, webhookStatus: 'pending' });
    expect(w.health.writes).toContain('record-failure');
    expect(w.health.get(w.iban)).toEqual({ state: 'healthy', consecutiveFailures: 0 });
  });

  it('does not disable the new owner’s endpoint on the old owner’s 410', async () => {
    const w = answeredAfterHandover(answer(410));
    const outcome = await deliverEvent(w.deps, { id: 'a1' });
    expect(outcome).toMatchObject({ kind: 'exhausted' });
    expect(outcome).not.toHaveProperty('endpointError');
    expect(w.events.events.get('a1')).toMatchObject({ webhookRetries: 1, webhookStatus: 'failed' });
    expect(w.health.writes).toContain('disable');
    expect(w.health.get(w.iban).state).toBe('healthy');
  });

  it('takes no slot of the new owner’s degraded endpoint: the event settles skipped, nothing sent', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'a1' });
    w.health.health.set(w.iban, { state: 'degraded', consecutiveFailures: 0, reason: 'slow' });
    // The batch read the account while it was still org A's.
    const read = await w.directory.getAccount(w.iban);
    await giveIbanToB(w);
    w.health.health.set(w.iban, { state: 'degraded', consecutiveFailures: 0, reason: 'slow' });
    w.directory.getAccount = async () => read;

    const outcome = await deliverEvent(w.deps, { id: 'a1' });
    expect(outcome).toEqual({
      kind: 'skipped',
      reason: 'the account was deleted or given to another organization meanwhile; nothing was sent',
    });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('a1')).toMatchObject({ webhookStatus: 'skipped', webhookRetries: 0 });
    expect(w.health.writes).toContain('take-slot');
    expect(w.health.slots.get(w.iban)?.size ?? 0).toBe(0);
  });
});
