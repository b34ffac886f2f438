/**
 * The consumer's fresh reads (issue 16, item 2), with fakes: each batch reads every account and
 * organization of its events once, strongly consistently, and keeps nothing for the next batch, so a
 * changed webhook URL or a rotated token applies to the very next attempt.
 */
import { describe, expect, it } from 'vitest';
import { deliverBatch } from '#delivery/deliver-batch';
import { webhookTokenId } from '#domain/signing/webhook-token';
import { rotateWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { answer } from '../support/fakes/webhook-sender';

const OTHER_IBAN = 'GB82WEST12345698765432';

describe('delivery context', () => {
  it('reads each account and organization of a batch once, strongly consistent, shared by its messages', async () => {
    const w = deliveryWorld();
    w.directory.addOrganization('org-2');
    w.directory.addAccount({ iban: OTHER_IBAN, orgId: 'org-2', webhookUrl: 'https://two.example.com/' });
    for (const id of ['a1', 'a2', 'a3']) w.events.seed({ id });
    for (const id of ['b1', 'b2']) w.events.seed({ id, orgId: 'org-2', account: OTHER_IBAN });
    await deliverBatch(
      w.deps,
      ['a1', 'a2', 'a3', 'b1', 'b2'].map((id) => message(id)),
    );
    expect(w.sender.requests).toHaveLength(5);
    expect(w.directory.reads).toEqual({ getAccount: 2, getOrganization: 2, listedEntries: 0 });
    expect(w.directory.consistentReads).toEqual({ getAccount: 2, getOrganization: 2 });
    // The healthy path writes nothing more than the attempts.
    expect(w.events.writes).toEqual(Array.from({ length: 5 }, () => 'RecordAttempt'));
  });

  it('keeps nothing across batches: a URL changed right before is used by the next new event and retry', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'old' });
    w.sender.answer = () => answer(500);
    await deliverBatch(w.deps, [message('old')]);
    expect(w.sender.requests.map((r) => r.url)).toEqual(['https://hooks.example.com/herald']);

    w.directory.addAccount({ iban: w.iban, webhookUrl: 'https://new.example.com/herald' });
    w.sender.answer = () => answer(200);
    w.events.seed({ id: 'new' });
    w.clock.advance(10_000);
    await deliverBatch(w.deps, [message('new'), message('old')]);
    expect(w.sender.requests.slice(1).map((r) => r.url)).toEqual([
      'https://new.example.com/herald',
      'https://new.example.com/herald',
    ]);
    // Each attempt records where it went: the old one's first attempt keeps the old URL.
    expect(w.events.events.get('old')?.deliveries.map((d) => d.url)).toEqual([
      'https://hooks.example.com/herald',
      'https://new.example.com/herald',
    ]);
    expect(w.directory.consistentReads.getAccount).toBe(2);
  });

  it('signs the very next batch with a token rotated right before it', async () => {
    const w = deliveryWorld();
    const before = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    w.events.seed({ id: 'e1' });
    await deliverBatch(w.deps, [message('e1')]);
    const rotated = await rotateWebhookToken(w.directory, 'org-1', 0, w.clock.now());
    w.events.seed({ id: 'e2' });
    await deliverBatch(w.deps, [message('e2')]);
    expect(w.events.events.get('e1')?.deliveries[0]?.signingKeys).toEqual([webhookTokenId(before)]);
    expect(w.events.events.get('e2')?.deliveries[0]?.signingKeys).toEqual([
      webhookTokenId(rotated.webhookToken),
    ]);
  });
});
