/**
 * Messages for an event's routed endpoints (`"ep"`, issue 32) on the consumers' batch path: an event's
 * messages for two endpoints in one batch are two deliveries (neither dropped as the other's copy), and
 * neither is taken for the event's own message: one for an endpoint the event was not routed to sends
 * nothing, and the reconciler never requeues one as the event's own.
 */
import { describe, expect, it } from 'vitest';
import { reconcileBatch } from '#delivery/dead-letter';
import { deliverBatch } from '#delivery/deliver-batch';
import { encodeDeliveryMessage } from '#domain/delivery-message';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';

describe("messages for an event's routed endpoints", () => {
  it('are each their own delivery, and send nothing for an endpoint the event was not routed to', async () => {
    const w = deliveryWorld();
    const event = w.events.seed({ id: 'e1', sequence: 1 });
    const forEndpoint = (ep: string) => ({
      ...message(event, { messageId: `m-${ep}` }),
      body: encodeDeliveryMessage({ ...event, endpointId: ep }),
    });
    const kept = await deliverBatch(w.deps, [forEndpoint('ep_0000000000a1'), forEndpoint('ep_0000000000a2')]);
    expect(kept).toEqual([]);
    expect(w.outcomes).toEqual([
      { kind: 'dropped', reason: 'event not routed to ep_0000000000a1' },
      { kind: 'dropped', reason: 'event not routed to ep_0000000000a2' },
    ]);
    expect(w.sender.requests).toEqual([]);
    expect(w.events.events.get('e1')?.webhookStatus).toBe('pending');
  });

  it("are never requeued by the reconciler as the event's own message", async () => {
    const w = deliveryWorld();
    const event = w.events.seed({ id: 'e1', sequence: 1, webhookRetries: 3 });
    const seen: [string, string][] = [];
    const deadLetter = {
      ...message(event),
      body: encodeDeliveryMessage({ ...event, endpointId: 'ep_0000000000a1' }),
    };
    const keep = await reconcileBatch(
      { ...w.deps, observe: (id, outcome) => seen.push([id, outcome]), observeError: () => undefined },
      [deadLetter],
    );
    expect(keep).toEqual([]);
    expect(seen).toEqual([['e1', 'settled']]);
    expect(w.queue.sent).toEqual([]);
  });
});
