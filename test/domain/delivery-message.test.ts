/**
 * The delivery queue's message codec: `{"id"}`, `{"id","log","seq"}`, and `"ep"` for an event's delivery
 * to one of its routed endpoints; what is malformed is refused (dropped by the consumer, never retried);
 * a replaced message keeps its endpoint; an event's messages for two endpoints are two deliveries.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeDeliveryMessage,
  deliveryKey,
  encodeDeliveryMessage,
  targetRef,
} from '#domain/delivery-message';

const AT = { id: 'e1', orgId: 'org-1', account: 'DE89370400440532013000', sequence: 7 };

describe('the delivery message', () => {
  it('names an event, where it is, and the routed endpoint it is for', () => {
    const body = encodeDeliveryMessage({ ...AT, endpointId: 'ep_0000000000a1' });
    expect(JSON.parse(body)).toEqual({
      id: 'e1',
      log: 'org-1|DE89370400440532013000',
      seq: 7,
      ep: 'ep_0000000000a1',
    });
    const target = decodeDeliveryMessage(body);
    expect(target).toEqual({ id: 'e1', at: AT, endpointId: 'ep_0000000000a1' });
    // Replaced, it stays the endpoint's.
    expect(target && encodeDeliveryMessage(targetRef(target))).toBe(body);
    expect(decodeDeliveryMessage(encodeDeliveryMessage(AT))).toEqual({ id: 'e1', at: AT });
  });

  it('refuses an endpoint that is no endpoint id, or comes without the log', () => {
    const log = { id: 'e1', log: 'org-1|DE89370400440532013000', seq: 7 };
    expect(decodeDeliveryMessage(JSON.stringify({ ...log, ep: 'ep_XYZ' }))).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ ...log, ep: 7 }))).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ id: 'e1', ep: 'ep_0000000000a1' }))).toBeUndefined();
  });

  it("tells an event's deliveries apart: the event's own and each endpoint's", () => {
    const own = { id: 'e1', at: AT };
    const keys = [
      own,
      { ...own, endpointId: 'ep_0000000000a1' },
      { ...own, endpointId: 'ep_0000000000a2' },
    ].map(deliveryKey);
    expect(new Set(keys).size).toBe(3);
  });

  it("refuses to write an endpoint's message without the event's sequence, rather than drop the endpoint", () => {
    const endpoint = { id: 'e1', orgId: 'org-1', account: 'DE00', endpointId: 'ep_0000000000a1' };
    expect(() => encodeDeliveryMessage(endpoint)).toThrow(/needs the event's sequence/);
    expect(encodeDeliveryMessage({ id: 'e1', orgId: 'org-1', account: 'DE00' })).toBe('{"id":"e1"}');
  });

  it("names a notice's delivery by its organization and sort key, and refuses one without either", () => {
    const notice = { id: 'ntc_0123', orgId: 'org-1', sortKey: '2026-11-20T10:00:00.000Z#1000#ntc_0123' };
    const body = encodeDeliveryMessage({ id: notice.id, notice });
    expect(JSON.parse(body)).toEqual({ id: notice.id, ops: 'org-1', sk: notice.sortKey });
    const target = decodeDeliveryMessage(body);
    expect(target).toEqual({ id: notice.id, notice });
    // Replaced, it stays the notice's; it is a delivery of its own.
    expect(target && encodeDeliveryMessage(targetRef(target))).toBe(body);
    expect(target && deliveryKey(target)).toBe(notice.id);
    expect(decodeDeliveryMessage(JSON.stringify({ id: notice.id, ops: 'org-1' }))).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ id: notice.id, sk: notice.sortKey }))).toBeUndefined();
    expect(decodeDeliveryMessage(JSON.stringify({ id: notice.id, ops: 7, sk: 'x' }))).toBeUndefined();
  });
});
