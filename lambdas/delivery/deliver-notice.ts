/**
 * An operational notice's delivery to its organization's operational webhook (`ops_webhook_url`): the
 * notice's message is admitted here (the notice pending with attempts left, its payload passing its catalog
 * type's schema, its organization there to sign, a URL to send to), then goes through the attempt phases every webhook goes through
 * (`attempt-phases.ts`: the circuit, the prepared and signed request, the lease, the send with the same
 * timeouts, the record, the retry schedule), with three differences:
 *
 * - its state is the notice's item (`NoticeDeliveries`), and every attempt takes its lease (the stream
 *   may forward a creation twice);
 * - its destination's health is the organization's own (`operational` address, on the organization's
 *   item), never an account's endpoint's, and it has no notice hook: nothing is ever announced about the
 *   operational webhook, so a notice can never cause another (no loop);
 * - it is never disabled: disabling it would silence every later notice with no channel left to say so.
 *   A `410` counts as a failure, and the failing window never ends; its circuit bounds what a dead
 *   operational webhook costs (one probe per open period), and each notice settles `failed` after its
 *   attempts, as the listing shows.
 */
import type { Endpoint } from '#domain/endpoints/endpoint';
import { NOTICE_EVENT_TYPES } from '#domain/event-types/operational-notices';
import {
  type CompiledEventType,
  checkPayload,
  compileEventType,
} from '#domain/event-types/payload-validation';
import type { EventRecord, WebhookStatus } from '#domain/model';
import type { Notice, NoticeRef } from '#domain/notices/notice';
import { noticePayload } from '#domain/notices/notice-payload';
import type { NoticeDeliveries } from '#domain/notices/ports';
import type { LeaseClaim } from '#domain/ports';
import { noticeWebhookBody } from '#domain/webhook-body';
import { type AttemptDeps, type AttemptLedger, attemptDelivery } from './attempt-phases';
import type { DeliveryContext } from './delivery-context';
import type { DeliveryDeps } from './delivery-deps';
import type { DeliveryOutcome, Thrown } from './delivery-outcome';
import type { EndpointHealthStore, HealthWrite } from './endpoint-health-port';
import type { HealthPolicy } from './endpoint-health-rule';
import type { HeldUrls } from './held-invocation';
import { attemptsLeft } from './retry-rule';
import { deliveryView } from './routed-ledger';

/** The id the operational webhook goes by in the consumer's logs and metrics (it has no `ep_…` id). */
export const OPERATIONAL_ENDPOINT_ID = 'operational-webhook';

/**
 * Delivers the notice a message names to its organization's operational webhook; a delivery that throws
 * is answered as {@link Thrown}. Without `deps.operational` (a consumer that sends no notices) the message
 * is dropped.
 */
export async function deliverNotice(
  deps: DeliveryDeps,
  ref: NoticeRef,
  receiveCount: number,
  context: DeliveryContext,
  held?: HeldUrls,
): Promise<DeliveryOutcome | Thrown> {
  const sending = deps.operational;
  if (sending === undefined) return { kind: 'dropped', reason: 'this consumer sends no notices' };
  let admitted: Parameters<typeof attemptDelivery>[1];
  let ledger: NoticeLedger;
  try {
    const read = await sending.deliveries.readNotice(ref);
    if (read === undefined) return { kind: 'dropped', reason: 'notice not found' };
    const { notice, delivery } = read;
    if (delivery.status !== 'pending') return { kind: 'dropped', reason: `notice is ${delivery.status}` };
    const checked = catalogCheck(notice);
    const body = checked.ok ? noticeWebhookBody(notice, checked.version, sending.baseUrl) : '';
    const event = deliveryView(noticeRecord(notice, body), delivery);
    ledger = new NoticeLedger(sending.deliveries, ref, event);
    if (!checked.ok) {
      // Herald's own payload that its own catalog refuses: never sent, never retried (it cannot change).
      await ledger.settlePending(event, 'failed');
      return {
        kind: 'dropped',
        reason: `notice ${notice.kind} does not pass its catalog type: ${checked.why}`,
      };
    }
    if (attemptsLeft(event, deps.maxAttempts) === 0) {
      await ledger.settlePending(event, 'failed');
      return { kind: 'exhausted', event };
    }
    const org = await context.organization(notice.orgId);
    if (org === undefined) {
      await ledger.settlePending(event, 'failed');
      return { kind: 'dropped', reason: 'organization not found; notice marked failed' };
    }
    const url = org.opsWebhookUrl;
    if (url === undefined) {
      await ledger.settlePending(event, 'skipped');
      return { kind: 'skipped', reason: 'the organization has no operational webhook' };
    }
    const health = await context.operationalHealth(org.id, (id) => sending.health.operationalHealth(id));
    admitted = { event, endpoint: operationalEndpoint(org.id, url, health), url, org };
  } catch (error) {
    return { kind: 'thrown', error, left: {} };
  }
  const operational: AttemptDeps = {
    ...deps,
    events: ledger,
    health: new NeverDisabled(deps.health),
    healthPolicy: neverDisabling(deps.healthPolicy),
    // No notice hook: nothing is announced about the operational webhook (no loop).
    notices: undefined,
  };
  return attemptDelivery(operational, admitted, {
    receiveCount,
    context,
    held,
    // Every attempt is leased: a notice's creation may be forwarded twice.
    routed: true,
    settle: async (outcome) => outcome,
  });
}

/** The notices' catalog types, compiled once per container, when the first notice is sent. */
let noticeTypes: ReadonlyMap<string, CompiledEventType> | undefined;

/**
 * The notice's payload checked against the latest version of its catalog type (the schema its readers
 * were given): the version it passed, or why not.
 */
function catalogCheck(
  notice: Notice,
): { readonly ok: true; readonly version: number } | { readonly ok: false; readonly why: string } {
  noticeTypes ??= new Map(
    NOTICE_EVENT_TYPES.map((definition) => [definition.type, compileEventType(definition)]),
  );
  const type = noticeTypes.get(notice.kind);
  const latest = type?.versions.get(type.latest);
  if (type === undefined || latest === undefined) return { ok: false, why: 'no such type in the catalog' };
  // The payload as its receiver parses it (JSON), not as the object that renders it.
  const check = checkPayload(latest.schema, type.latest, JSON.parse(JSON.stringify(noticePayload(notice))));
  if (check.ok) return check;
  return { ok: false, why: check.violations.map((v) => `payload${v.pointer}: ${v.reason}`).join('; ') };
}

/** The notice as the attempt phases read a delivery: an event of its kind, with its webhook's body. */
function noticeRecord(
  notice: { id: string; orgId: string; account: string; kind: string; at: string },
  body: string,
): EventRecord {
  return {
    id: notice.id,
    orgId: notice.orgId,
    account: notice.account,
    type: notice.kind,
    triggeredAt: notice.at,
    body,
    webhookStatus: 'pending',
    webhookRetries: 0,
    cycleBase: 0,
    cycles: 1,
    deliveries: [],
  };
}

/**
 * The organization's operational webhook as an endpoint: the `operational` address (its health on the
 * organization's item), no subscription, order or security of an account's endpoint.
 */
export function operationalEndpoint(orgId: string, url: string, health: Endpoint['health']): Endpoint {
  return {
    iban: '',
    orgId,
    operational: true,
    id: OPERATIONAL_ENDPOINT_ID,
    url,
    health,
    createdAt: '',
    updatedAt: '',
  };
}

/** The circuit breaker's policy with no failing window: the operational webhook is never disabled. */
function neverDisabling(policy: HealthPolicy): HealthPolicy {
  return { ...policy, autoDisableAfterMs: Number.POSITIVE_INFINITY };
}

/** The health store, a `410` written as a failure: the operational webhook is never disabled. */
class NeverDisabled implements EndpointHealthStore {
  constructor(private readonly store: EndpointHealthStore) {}

  recordAttempt: EndpointHealthStore['recordAttempt'] = (endpoint, update, lease) =>
    this.store.recordAttempt(endpoint, update.kind === 'disable' ? asFailure(update) : update, lease);
  openCircuit: EndpointHealthStore['openCircuit'] = (endpoint, opening) =>
    this.store.openCircuit(endpoint, opening);
  // Not reached: the policy has no failing window and a 410 is a failure; a disabling is refused all the same.
  disable: EndpointHealthStore['disable'] = async () => undefined;
  takeSlot: EndpointHealthStore['takeSlot'] = (endpoint, slot, until, now) =>
    this.store.takeSlot(endpoint, slot, until, now);
  releaseSlot: EndpointHealthStore['releaseSlot'] = (endpoint, lease) =>
    this.store.releaseSlot(endpoint, lease);
  // No notice is ever about the operational webhook: its marks are never moved.
  markNoticed: EndpointHealthStore['markNoticed'] = async () => undefined;
  markCertificateNoticed: EndpointHealthStore['markCertificateNoticed'] = async () => undefined;
  enable: EndpointHealthStore['enable'] = (endpoint, at) => this.store.enable(endpoint, at);
  endpointId: EndpointHealthStore['endpointId'] = async () => OPERATIONAL_ENDPOINT_ID;
}

function asFailure(update: Extract<HealthWrite, { kind: 'disable' }>): HealthWrite {
  return { kind: 'failure', at: update.at, latencyMs: 0, reason: 'failing: answered 410' };
}

/** The notice's delivery, bound to it: `ref` arguments are the notice as an event. */
class NoticeLedger implements AttemptLedger {
  constructor(
    private readonly deliveries: NoticeDeliveries,
    private readonly ref: NoticeRef,
    private readonly event: EventRecord,
  ) {}

  takeLease(_event: unknown, claim: LeaseClaim): Promise<boolean> {
    return this.deliveries.takeLease(this.ref, claim);
  }

  async recordAttempt(
    _event: unknown,
    attempt: Parameters<AttemptLedger['recordAttempt']>[1],
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    const delivery = await this.deliveries.recordAttempt(this.ref, attempt, status, nextAttemptAt);
    return deliveryView(this.event, delivery);
  }

  settlePending(_event: unknown, status: 'skipped' | 'failed'): Promise<boolean> {
    return this.deliveries.settlePending(this.ref, status);
  }
}
