/**
 * An attempt whose event's stored item is full (an event stored before payloads were bounded by what the
 * item holds beside its attempts; DynamoDB refuses an item over 400 KB), with the in-memory fakes: the
 * attempt that was sent is recorded short as the event's last and the event settles, or, when not even
 * that fits, the event settles without it. It is never left pending to be sent again unrecorded.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import { ITEM_FULL_ANSWER } from '#delivery/record-attempt';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

/** A world whose one event (`e1`) takes all but `room` bytes of its item's limit; the receiver answers 500. */
function fullWorld(room: number): DeliveryWorld {
  const w = deliveryWorld();
  const event = w.events.seed({ id: 'e1', account: w.iban, sequence: 1 });
  w.events.itemBytesLimit = Buffer.byteLength(JSON.stringify(event)) + room;
  w.sender.answer = () => ({ ...answer(500), body: 'x'.repeat(2_000) });
  return w;
}

const deliver = (w: DeliveryWorld) =>
  deliverEvent(w.deps, { id: 'e1', at: { id: 'e1', orgId: 'org-1', account: w.iban, sequence: 1 } });

describe('an attempt of an event whose stored item is full', () => {
  it('is recorded short, as the last, and the event settles failed', async () => {
    const w = fullWorld(1_000);
    expect(await deliver(w)).toMatchObject({ kind: 'exhausted' });
    const event = w.events.events.get('e1');
    expect(event).toMatchObject({ webhookStatus: 'failed', webhookRetries: 1 });
    expect(event?.deliveries.map((d) => [d.responseStatus, d.responseBody])).toEqual([
      [500, ITEM_FULL_ANSWER],
    ]);
    // A repeat of the message sends nothing more.
    expect(await deliver(w)).toMatchObject({ kind: 'dropped' });
    expect(w.sender.requests).toHaveLength(1);
  });

  it('keeps a success as a success', async () => {
    const w = fullWorld(1_000);
    w.sender.answer = () => ({ ...answer(200), body: 'x'.repeat(2_000) });
    expect(await deliver(w)).toMatchObject({ kind: 'delivered' });
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 1 });
  });

  it('settles the event failed when not even a short attempt fits', async () => {
    const w = fullWorld(0);
    expect(await deliver(w)).toMatchObject({ kind: 'exhausted' });
    expect(w.events.events.get('e1')).toMatchObject({ webhookStatus: 'failed', webhookRetries: 0 });
    expect(await deliver(w)).toMatchObject({ kind: 'dropped' });
    expect(w.sender.requests).toHaveLength(1);
  });
});
