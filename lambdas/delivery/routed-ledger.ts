/**
 * A fanned-out event's delivery at one routed endpoint, as the attempt phases read and write it: its own
 * item (`EndpointDeliveries`), seen as the event with that delivery's state, and the event's aggregate
 * (`DeliveryLedger.settleRoute`) told once the delivery settles.
 */
import type { DeliveryRef, EndpointDeliveries, EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import type { DeliveryLedger, LeaseClaim } from '#domain/ports';
import type { AttemptLedger } from './attempt-phases';

/** The event as one of its deliveries sees it: the delivery's status, attempts, cycle, lease and wait. */
export function deliveryView(event: EventRecord, delivery: EndpointDelivery): EventRecord {
  return {
    ...event,
    webhookStatus: delivery.status,
    webhookRetries: delivery.retries,
    cycleBase: delivery.cycleBase,
    deliveries: delivery.deliveries,
    leaseUntil: delivery.leaseUntil,
    nextAttemptAt: delivery.nextAttemptAt,
  };
}

/**
 * Tells the event's aggregate that a delivery settled, with the attempts of its cycle; idempotent (the
 * aggregate counts each endpoint once), so a message that finds its delivery settled tells it again: a
 * crash between the delivery's settlement and this write then leaves nothing pending. Answers the
 * event's status after it (undefined: the event is gone or not routed).
 */
export function settleRoute(
  events: Pick<DeliveryLedger, 'settleRoute'>,
  ref: DeliveryRef,
  delivery: EndpointDelivery,
): Promise<WebhookStatus | undefined> {
  const { status } = delivery;
  if (status === 'pending') return Promise.resolve(undefined);
  return events.settleRoute(ref, ref.endpointId, status, delivery.retries - delivery.cycleBase);
}

/** One routed endpoint's delivery of an event, bound to it: `ref` arguments are the event's. */
export class RoutedLedger implements AttemptLedger {
  constructor(
    private readonly events: Pick<DeliveryLedger, 'settleRoute'>,
    private readonly deliveries: EndpointDeliveries,
    private readonly event: EventRecord,
    readonly ref: DeliveryRef,
    /** The delivery as the message's admission read it. */
    private readonly read: EndpointDelivery,
  ) {}

  takeLease(_event: unknown, claim: LeaseClaim): Promise<boolean> {
    return this.deliveries.takeLease(this.ref, claim);
  }

  async recordAttempt(
    _event: unknown,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    const delivery = await this.deliveries.recordAttempt(this.ref, attempt, status, nextAttemptAt);
    await this.settled(delivery);
    return deliveryView(this.event, delivery);
  }

  async settlePending(_event: unknown, status: 'skipped' | 'failed'): Promise<boolean> {
    const moved = await this.deliveries.settlePending(this.ref, status);
    // Moved or not, the delivery is settled now: its aggregate is told (again, harmlessly, if not moved).
    await this.settled(moved ? { ...this.read, status } : await this.deliveries.readDelivery(this.ref));
    return moved;
  }

  private async settled(delivery: EndpointDelivery): Promise<void> {
    await settleRoute(this.events, this.ref, delivery);
  }
}
