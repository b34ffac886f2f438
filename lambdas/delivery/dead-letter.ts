/**
 * The dead-letter reconciler: a message SQS moved to the dead-letter queue goes back to the delivery
 * queue while its delivery (the event's own, a fanned-out event's at one endpoint, or a notice's to its
 * organization's operational webhook) has attempts left in its cycle, or the delivery settles `failed`
 * (an event's is announced, as the consumer's last attempt is; a notice's never is: no loop).
 */
import type { DeliveryTarget } from '#domain/delivery-message';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import type { NoticeRef } from '#domain/notices/notice';
import type { NoticeDeliveries, OperationalLog } from '#domain/notices/ports';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, QueueMessage } from '#domain/ports';
import { runBatch } from './deliver-batch';
import { readTarget } from './delivery-deps';
import { announceExhausted } from './operational-notices';
import { afterSettled, isOrdered } from './order';
import { attemptsLeft } from './retry-rule';
import { deliveryView, RoutedLedger, settleRoute } from './routed-ledger';
import { isFannedOut } from './routing';

/** What the dead-letter reconciler needs. */
export interface ReconcileDeps {
  readonly events: DeliveryLedger;
  /** A fanned-out event's deliveries, one per routed endpoint. */
  readonly deliveries: EndpointDeliveries;
  readonly queue: DeliveryQueue;
  /** The event's account: an ordered account's next events go on after a final failure. */
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'advanceSettledThrough'>;
  readonly maxAttempts: number;
  /** Epoch ms. */
  readonly now: () => number;
  /** The notices' deliveries to the operational webhooks; absent: a notice's dead letter is left settled. */
  readonly operational?:
    | { readonly deliveries: Pick<NoticeDeliveries, 'readNotice' | 'settlePending'> }
    | undefined;
  /** Where a delivery settled `failed` here is announced (`event_attempts_exhausted`); none: not announced. */
  readonly notices?: OperationalLog | undefined;
}

/**
 * What happened to one dead-lettered message; `exhausted-ordered`: failed for good in an ordered account,
 * whose next events go on without it (as the consumer's `exhausted` with `ordered`).
 */
export type ReconcileOutcome = 'requeued' | 'exhausted' | 'exhausted-ordered' | 'settled';

/**
 * Decides the fate of a message that SQS moved to the dead-letter queue. Receive counts overcount
 * attempts (throttling, lease conflicts, crashes), so an event with attempts left in its cycle goes back
 * to the delivery queue; one without is marked `failed`. Nothing stays `pending` forever. A final failure
 * of an ordered account's event settles it in order, as the consumer's does: the watermark moves on and
 * the next waiting event is sent.
 */
export async function reconcileDeadLetter(
  deps: ReconcileDeps,
  target: DeliveryTarget,
): Promise<ReconcileOutcome> {
  if (target.notice !== undefined) return reconcileNotice(deps, target.notice);
  if (target.endpointId !== undefined) return reconcileRouted(deps, target, target.endpointId);
  const event = await readTarget(deps.events, target);
  if (event?.webhookStatus !== 'pending') return 'settled';
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    const account = await deps.directory.getAccount(event.account, { consistent: true });
    // A fanned-out event's item counts its deliveries' attempts: its own message only fans out again.
    if (account?.orgId === event.orgId && isFannedOut(event, account)) {
      await deps.queue.enqueue([event]);
      return 'requeued';
    }
    const endpoint = account && defaultEndpoint(account);
    // Announced before the settling: a failed notice write brings the message back while it is pending.
    if (account?.orgId === event.orgId && endpoint?.id !== undefined)
      await announceExhausted(deps.notices, endpoint, endpoint.id, event, deps.now());
    const failed = await deps.events.settlePending(event, 'failed');
    if (account?.orgId !== event.orgId || !endpoint || !isOrdered(endpoint, event)) return 'exhausted';
    await afterSettled(deps, endpoint, { ...event, webhookStatus: 'failed' });
    return failed ? 'exhausted-ordered' : 'exhausted';
  }
  await deps.queue.enqueue([event]);
  return 'requeued';
}

/**
 * A routed endpoint's dead letter: its delivery goes back to the delivery queue while it has attempts
 * left, or settles `failed`; either way a settled delivery tells the event's aggregate, and an ordered
 * endpoint's next delivery goes on.
 */
async function reconcileRouted(
  deps: ReconcileDeps,
  target: DeliveryTarget,
  endpointId: string,
): Promise<ReconcileOutcome> {
  const event = await readTarget(deps.events, target);
  const sequence = event?.sequence;
  if (!event?.routes?.includes(endpointId) || sequence === undefined) return 'settled';
  const ref = {
    id: event.id,
    orgId: event.orgId,
    account: event.account,
    sequence,
    endpointId,
    expiresAt: event.expiresAt,
  };
  const delivery = await deps.deliveries.readDelivery(ref);
  // In an earlier route cycle (the event was redelivered since): its message starts the current one.
  const earlier = (delivery.routeCycle ?? 0) < (event.routeCycle ?? 0);
  if (
    earlier ||
    (delivery.status === 'pending' && attemptsLeft(deliveryView(event, delivery), deps.maxAttempts) > 0)
  ) {
    await deps.queue.enqueue([ref]);
    return 'requeued';
  }
  if (delivery.status !== 'pending') {
    await settleRoute(deps.events, ref, delivery);
    return 'settled';
  }
  const owner = { orgId: event.orgId, iban: event.account };
  await announceExhausted(deps.notices, owner, endpointId, deliveryView(event, delivery), deps.now());
  const ledger = new RoutedLedger(deps.events, deps.deliveries, event, ref, delivery);
  await ledger.settlePending(event, 'failed');
  const account = await deps.directory.getAccount(event.account, { consistent: true });
  // The default endpoint's order goes on at once; an ordered extra endpoint's next delivery finds this one
  // settled at its own gate's next look (the reconciler reads no extra endpoint).
  const endpoint = account && defaultEndpoint(account);
  if (account?.orgId !== event.orgId || !endpoint || endpoint.id !== endpointId) return 'exhausted';
  if (!isOrdered(endpoint, event)) return 'exhausted';
  await afterSettled(deps, endpoint, { ...event, webhookStatus: 'failed' });
  return 'exhausted-ordered';
}

/** A notice's dead letter: queued again while its delivery has attempts left, else settled `failed`. */
async function reconcileNotice(deps: ReconcileDeps, ref: NoticeRef): Promise<ReconcileOutcome> {
  const notices = deps.operational?.deliveries;
  const read = await notices?.readNotice(ref);
  if (read?.delivery.status !== 'pending') return 'settled';
  const { delivery } = read;
  if (
    attemptsLeft({ webhookRetries: delivery.retries, cycleBase: delivery.cycleBase }, deps.maxAttempts) > 0
  ) {
    await deps.queue.enqueue([{ id: ref.id, notice: ref }]);
    return 'requeued';
  }
  await notices?.settlePending(ref, 'failed');
  return 'exhausted';
}

/** What a batch of dead letters needs beyond single reconciliations. */
export interface ReconcileBatchDeps extends ReconcileDeps {
  readonly observe: (id: string, outcome: ReconcileOutcome) => void;
  readonly observeError: (messageId: string, error: unknown) => void;
}

/** Reconciles a batch of dead letters on the consumers' one batch path; returns the messages to keep. */
export function reconcileBatch(
  deps: ReconcileBatchDeps,
  messages: readonly QueueMessage[],
): Promise<string[]> {
  return runBatch(
    messages,
    async (target) => {
      deps.observe(target.id, await reconcileDeadLetter(deps, target));
      return 'done';
    },
    deps.observeError,
  );
}
