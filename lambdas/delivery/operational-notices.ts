/**
 * Operational notices applied (`operational-notice-rule.ts` decides them): after an attempt's health
 * write, the notices the endpoint's health calls for are stored in its organization's operational log,
 * each once (its id deterministic, its write conditional), then the endpoint's mark moves past them. A
 * crash between the health write and the notices leaves the mark behind, so the next consumer that sees
 * the endpoint stores them. An endpoint whose health calls for nothing costs nothing: the decision is made
 * from the health the batch already holds.
 */
import { CERTIFICATE_WARNING_DAYS, daysLeft } from '#domain/endpoint-security/client-certificate';
import { addressOf, type Endpoint } from '#domain/endpoints/endpoint';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import { lastAnswerOf, makeNotice, type Notice } from '#domain/notices/notice';
import type { OperationalLog } from '#domain/notices/ports';
import type { EndpointHealth, EndpointHealthStore } from './endpoint-health-port';
import type { HealthPolicy } from './endpoint-health-rule';
import { type DueNotice, dueNotices } from './operational-notice-rule';

/** What announcing needs. */
export interface NoticeDeps {
  readonly health: EndpointHealthStore;
  readonly healthPolicy: HealthPolicy;
  /** The operational log; without one (a deployment or test that keeps none) nothing is announced. */
  readonly notices?: OperationalLog | undefined;
  readonly now: () => number;
}

/**
 * Stores the notices `health` (the endpoint's, after `attempt`; none: seen at the gate, no attempt made)
 * calls for and moves the endpoint's mark past them; the notices this call stored (none when another
 * observer had).
 */
export async function announce(
  deps: NoticeDeps,
  endpoint: Endpoint,
  health: EndpointHealth,
  attempt?: DeliveryAttempt,
): Promise<readonly Notice[]> {
  if (deps.notices === undefined) return [];
  const now = deps.now();
  const decision = dueNotices(health, now, deps.healthPolicy);
  if (decision === undefined) return [];
  const address = addressOf(endpoint);
  // An account from before endpoint ids gets one now (once, on this rare path).
  const endpointId = endpoint.id ?? (await deps.health.endpointId(endpoint.iban, endpoint.orgId));
  if (endpointId === undefined) return [];
  const stored: Notice[] = [];
  for (const due of decision.due) {
    const notice = noticeOf(due, endpoint, endpointId, health, attempt, now, deps.healthPolicy);
    if (await deps.notices.record(notice)) stored.push(notice);
  }
  await deps.health.markNoticed(address, health.noticed, decision.mark);
  return stored;
}

/**
 * Stores `event_attempts_exhausted` for an event whose delivery cycle at an endpoint just settled
 * `failed`: one per event, endpoint and cycle, whoever settles it (the consumer's last attempt, the
 * dead-letter reconciler), its epoch the cycle's first attempt. Costs one conditional write, on a path
 * that already failed every attempt of a cycle.
 *
 * @param event - the event (or its delivery at a routed endpoint) as settled, with the cycle's attempts
 * @returns the notice stored, if this call stored it
 */
export async function announceExhausted(
  notices: OperationalLog | undefined,
  endpoint: Pick<Endpoint, 'orgId' | 'iban'>,
  endpointId: string,
  event: EventRecord,
  now: number,
): Promise<Notice | undefined> {
  if (notices === undefined) return undefined;
  const cycle = event.deliveries.slice(event.cycleBase);
  const last = cycle.at(-1);
  const key = {
    kind: 'event_attempts_exhausted' as const,
    orgId: endpoint.orgId,
    endpointId,
    epoch: cycle[0]?.deliveredAt ?? event.triggeredAt,
    eventId: event.id,
  };
  const notice = makeNotice(key, {
    account: endpoint.iban,
    at: new Date(now).toISOString(),
    consecutiveFailures: cycle.length,
    lastAnswer: last && lastAnswerOf(last.responseStatus, last.responseBody),
    eventType: event.type,
    sequence: event.sequence,
  });
  return (await notices.record(notice)) ? notice : undefined;
}

/**
 * Stores `client_certificate_expiring` once per certificate when fewer than
 * {@link CERTIFICATE_WARNING_DAYS} days are left of the one `endpoint` presents, then marks it on the
 * endpoint's item. The mark is read with the endpoint, so once it is there a delivery decides from what
 * the batch holds and writes nothing: the window's deliveries cost what they did.
 *
 * @returns the notice stored, if this call stored it
 */
export async function announceCertificate(deps: NoticeDeps, endpoint: Endpoint): Promise<Notice | undefined> {
  const expiresAt = endpoint.security?.tlsClient?.expiresAt;
  if (deps.notices === undefined || expiresAt === undefined) return undefined;
  if (endpoint.health?.certificateNoticed === expiresAt) return undefined;
  const now = deps.now();
  if (daysLeft(expiresAt, now) >= CERTIFICATE_WARNING_DAYS) return undefined;
  const endpointId = endpoint.id ?? (await deps.health.endpointId(endpoint.iban, endpoint.orgId));
  if (endpointId === undefined) return undefined;
  // The epoch is when the last days began, the same for every observer: the notice sorts among the
  // transitions by when it became due, not by the expiry still ahead.
  const epoch = new Date(Date.parse(expiresAt) - CERTIFICATE_WARNING_DAYS * DAY_MS).toISOString();
  const key = { kind: 'client_certificate_expiring' as const, orgId: endpoint.orgId, endpointId, epoch };
  const notice = makeNotice(key, {
    account: endpoint.iban,
    at: new Date(now).toISOString(),
    consecutiveFailures: endpoint.health?.consecutiveFailures ?? 0,
    expiresAt,
  });
  const stored = await deps.notices.record(notice);
  await deps.health.markCertificateNoticed(addressOf(endpoint), expiresAt);
  return stored ? notice : undefined;
}

const DAY_MS = 86_400_000;

function noticeOf(
  due: DueNotice,
  endpoint: Endpoint,
  endpointId: string,
  health: EndpointHealth,
  attempt: DeliveryAttempt | undefined,
  now: number,
  policy: HealthPolicy,
): Notice {
  const failing = due.kind === 'endpoint_failing' || due.kind === 'endpoint_disabling_soon';
  const key = { kind: due.kind, orgId: endpoint.orgId, endpointId, epoch: due.epoch, percent: due.percent };
  return makeNotice(key, {
    account: endpoint.iban,
    at: new Date(now).toISOString(),
    consecutiveFailures: health.consecutiveFailures,
    disableAt: failing
      ? new Date(Date.parse(due.epoch) + policy.autoDisableAfterMs).toISOString()
      : undefined,
    reason: health.reason,
    lastAnswer: attempt && lastAnswerOf(attempt.responseStatus, attempt.responseBody),
  });
}
