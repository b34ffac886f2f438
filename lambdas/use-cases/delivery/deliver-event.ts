import { HERALD_VERSION } from '#config/version';
import { attemptsLeft, isSuccessStatus, nextStep } from '#domain/delivery/policy';
import { dueBy, parseRetryAfter, retryWaitSeconds, secondsUntilDue } from '#domain/delivery/postponement';
import type { Account, DeliveryAttempt, EventRecord, Organization } from '#domain/model';
import type { EventStore, SlotLease, WebhookSender } from '#domain/ports';
import { webhookSignatureHeader } from '#domain/signing/signatures';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { admit, type EndpointDeps, type EndpointReport, observeAttempt, release } from './deliver-endpoint';

/** Reads accounts and organizations (the consumer passes a short-lived cache). */
export interface DeliveryDirectory {
  getAccount(iban: string): Promise<Account | undefined>;
  /** The account without a cached copy older than a moment (absent: `getAccount` is never cached). */
  refreshAccount?(iban: string): Promise<Account | undefined>;
  getOrganization(id: string): Promise<Organization | undefined>;
}

/** What delivering one event needs. */
export interface DeliveryDeps extends EndpointDeps {
  readonly events: EventStore;
  readonly directory: DeliveryDirectory;
  readonly sender: WebhookSender;
  readonly schedule: readonly number[];
  readonly maxAttempts: number;
  readonly urlPolicy: UrlPolicy;
}

/** An attempt's outcome carries the endpoint's health when the attempt changed (wrote) it. */
interface Attempted {
  readonly event: EventRecord;
  readonly attempt: DeliveryAttempt;
  readonly endpoint?: EndpointReport;
  /** The endpoint's health write failed (the attempt is recorded all the same): for the logs. */
  readonly endpointError?: unknown;
}

/** What happened to one delivery message. */
export type DeliveryOutcome =
  | ({ readonly kind: 'delivered' } & Attempted)
  | ({ readonly kind: 'retry'; readonly retryAfterSeconds: number } & Attempted)
  | ({ readonly kind: 'exhausted' } & Partial<Attempted> & { readonly event: EventRecord })
  /** A duplicate message that came before the scheduled retry: it waits for it instead. */
  | { readonly kind: 'not-due'; readonly retryAfterSeconds: number }
  /** The endpoint's circuit is open or its slots are taken: no attempt made, none recorded. */
  | { readonly kind: 'deferred'; readonly retryAfterSeconds: number; readonly reason: string }
  | { readonly kind: 'skipped' | 'dropped' | 'duplicate'; readonly reason: string };

/**
 * Makes the next delivery attempt of an event, if one is due, and records it.
 *
 * The attempt count lives in DynamoDB (SQS receive counts overcount), and the first attempt of an event
 * goes out without a lease: that keeps the common case at one write, and at worst two duplicate messages
 * racing for the very first attempt both send it and both are recorded. Every later attempt first takes
 * a lease conditioned on the recorded count, so duplicates can neither repeat it nor exceed the cycle.
 */
export async function deliverEvent(
  deps: DeliveryDeps,
  id: string,
  receiveCount = 1,
): Promise<DeliveryOutcome> {
  const now = deps.now;
  const event = await deps.events.getEvent(id, { consistent: true });
  if (!event) return { kind: 'dropped', reason: 'event not found' };
  if (event.webhookStatus !== 'pending')
    return { kind: 'dropped', reason: `event is ${event.webhookStatus}` };
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    await deps.events.settlePending(id, 'failed');
    return { kind: 'exhausted', event };
  }
  const account = await deps.directory.getAccount(event.account);
  if (!account?.webhookUrl) {
    await deps.events.settlePending(id, 'skipped');
    return { kind: 'skipped', reason: 'account has no webhook_url' };
  }
  const org = await deps.directory.getOrganization(account.orgId);
  if (!org) {
    // Nothing can sign the webhook any more: settle rather than leave the event pending forever.
    await deps.events.settlePending(id, 'failed');
    return { kind: 'dropped', reason: 'organization not found; event marked failed' };
  }
  const notDueFor = secondsUntilDue(event.nextAttemptAt, now());
  if (notDueFor !== undefined) return { kind: 'not-due', retryAfterSeconds: notDueFor };
  // The endpoint's slot before the event's lease: a deferred message must find the event unleased later.
  let endpoint = account;
  let url = account.webhookUrl;
  let admission = await admit(deps, endpoint, receiveCount);
  if (admission.kind === 'disabled' && deps.directory.refreshAccount) {
    // Disabled by a cached read: confirm it, so an operator's enable takes effect at once.
    const fresh = await deps.directory.refreshAccount(account.iban);
    if (fresh?.webhookUrl) {
      endpoint = fresh;
      url = fresh.webhookUrl;
      admission = await admit(deps, endpoint, receiveCount);
    }
  }
  if (admission.kind === 'disabled') {
    await deps.events.settlePending(id, 'skipped');
    return { kind: 'skipped', reason: `endpoint disabled: ${admission.reason}` };
  }
  if (admission.kind === 'defer') {
    return { kind: 'deferred', retryAfterSeconds: admission.seconds, reason: admission.reason };
  }
  if (event.webhookRetries > 0) {
    const at = now();
    const leased = await deps.events.takeLease(id, event.webhookRetries, at + deps.leaseMs, at, dueBy(at));
    if (!leased) {
      await release(deps, endpoint.iban, admission.lease);
      return { kind: 'duplicate', reason: 'another consumer holds or made this attempt' };
    }
  }

  // The endpoint that was admitted: a fresh read that confirmed it may also carry a changed URL.
  const { attempt, retryAfter } = await attemptDelivery(deps, event, url, org);
  const receiverWait = parseRetryAfter(attempt.responseStatus, retryAfter, now());
  const step = nextStep({
    webhookRetries: event.webhookRetries + 1,
    cycleBase: event.cycleBase,
    outcomeOk: isSuccessStatus(attempt.responseStatus),
    // 410 Gone: the endpoint is disabled and this event settles with the attempt that showed it.
    gone: attempt.responseStatus === 410,
    schedule: deps.schedule,
    maxAttempts: deps.maxAttempts,
  });
  const retryAfterSeconds =
    step.status === 'pending' ? retryWaitSeconds(step.retryAfterSeconds, receiverWait) : 0;
  const signal = {
    status: attempt.responseStatus,
    latencyMs: attempt.responseTimeMs,
    at: attempt.deliveredAt,
    retryAfterSeconds: receiverWait,
  };
  // The attempt was sent, so it is recorded first: the attempt count must never miss a real send. The
  // endpoint's health follows even when recording throws (it releases the slot), and its failure
  // (account deleted meanwhile, throttling) is reported, not thrown: health is advisory.
  let report: EndpointNote = {};
  let recorded: EventRecord;
  try {
    recorded = await deps.events.recordAttempt(
      id,
      attempt,
      step.status,
      step.status === 'pending' ? now() + retryAfterSeconds * 1000 : undefined,
    );
  } finally {
    report = await noteEndpoint(deps, endpoint, signal, admission.lease);
  }
  if (step.status === 'success') return { kind: 'delivered', event: recorded, attempt, ...report };
  // A concurrent first attempt succeeded meanwhile: this attempt is recorded, the event is done.
  if (recorded.webhookStatus === 'success')
    return { kind: 'dropped', reason: 'a concurrent attempt succeeded' };
  if (step.status === 'failed') return { kind: 'exhausted', event: recorded, attempt, ...report };
  return { kind: 'retry', event: recorded, attempt, retryAfterSeconds, ...report };
}

/** The endpoint's part of an attempt's outcome. */
type EndpointNote = Pick<Attempted, 'endpoint' | 'endpointError'>;

/** {@link observeAttempt}, whose failure becomes part of the outcome instead of an error. */
async function noteEndpoint(
  deps: DeliveryDeps,
  endpoint: Account,
  signal: Parameters<typeof observeAttempt>[2],
  lease: SlotLease | undefined,
): Promise<EndpointNote> {
  try {
    const health = await observeAttempt(deps, endpoint, signal, lease);
    return health === undefined ? {} : { endpoint: health };
  } catch (endpointError) {
    return { endpointError };
  }
}

/** Signs and sends one POST; a URL the policy refuses becomes a failed attempt with the reason. */
async function attemptDelivery(
  deps: DeliveryDeps,
  event: EventRecord,
  url: string,
  org: Organization,
): Promise<{ attempt: DeliveryAttempt; retryAfter?: string | undefined }> {
  const started = deps.now();
  const deliveredAt = new Date(started).toISOString();
  try {
    checkWebhookUrl(url, deps.urlPolicy);
  } catch (error) {
    return {
      attempt: {
        deliveredAt,
        responseStatus: 0,
        responseBody: `refused: ${(error as Error).message}`,
        responseTimeMs: 0,
      },
    };
  }
  const timestamp = Math.floor(started / 1000);
  const result = await deps.sender.send({
    url,
    body: event.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': `Herald/${HERALD_VERSION}`,
      // Fixed at publish time: it is the event's `signature` field, identical on every attempt.
      'X-Signature': event.signature,
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      // Token rotation: during the overlap the previous token signs too (see webhookSignatureHeader).
      'webhook-signature': webhookSignatureHeader(org, event.id, timestamp, event.body, started),
    },
  });
  return {
    attempt: {
      deliveredAt,
      responseStatus: result.status,
      responseBody: result.body,
      responseTimeMs: result.elapsedMs,
    },
    retryAfter: result.retryAfter,
  };
}
