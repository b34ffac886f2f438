import type { SlotLease } from '#delivery/endpoint-health-port';
import type { ErroredHandling } from '#delivery/postponement-rule';
import {
  attemptsLeft,
  dueBy,
  isSuccessStatus,
  nextStep,
  parseRetryAfter,
  retryWaitSeconds,
  secondsUntilDue,
} from '#delivery/retry-rule';
import type { DeliveryTarget } from '#domain/delivery-message';
import type { EndpointSecretStore, PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Account, DeliveryAttempt, EventRecord } from '#domain/model';
import type { DeliveryLedger } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { admit, type EndpointDeps, type EndpointReport, observeAttempt, release } from './deliver-endpoint';
import { DeliveryContext, type DeliveryDirectory } from './delivery-context';
import { afterSettled, isOrdered, type OrderDeps, passGate } from './delivery-order';
import { type PreparedRequest, prepareRequest } from './endpoint-request';
import { readTarget } from './queue-batch';
import { notSent, type SendDeps, type SentAttempt, sendAttempt } from './send-attempt';

/** What delivering one event needs. */
export interface DeliveryDeps extends EndpointDeps, SendDeps, OrderDeps {
  readonly events: DeliveryLedger;
  /** Read through each batch's {@link DeliveryContext}, never cached across batches. */
  readonly directory: DeliveryDirectory;
  /**
   * Opens the organizations' Ed25519 keys (`v1a`; without a sealer, webhooks carry the HMAC signatures
   * only) and the endpoints' TLS client keys.
   */
  readonly sealer?: SecretSealer;
  /** The endpoints' material (payload key, TLS client certificate and key, CA), read per batch for accounts that have some. */
  readonly endpointSecrets?: Pick<EndpointSecretStore, 'getSecrets'>;
  /** Encrypts bodies for endpoints with a payload key. */
  readonly encrypter?: PayloadEncrypter;
  readonly schedule: readonly number[];
  readonly maxAttempts: number;
  /**
   * For a message a held invocation pulled: seconds it waits because its endpoint already has a slow
   * attempt in flight in this invocation (`heldEndpointDeferSeconds`), or undefined to go on.
   */
  readonly heldEndpoint?: (url: string, receiveCount: number) => number | undefined;
}

/** An attempt's outcome carries the endpoint's health when the attempt changed (wrote) it. */
interface Attempted {
  readonly event: EventRecord;
  readonly attempt: DeliveryAttempt;
  readonly endpoint?: EndpointReport;
  /** The endpoint's health write failed (the attempt is recorded all the same): for the logs. */
  readonly endpointError?: unknown;
  /** When the client certificate the attempt presented expires (ISO 8601), for the expiry metric. */
  readonly clientCertificateExpiresAt?: string | undefined;
  /** What kept Herald from making the request (recorded as a failed attempt saying why), for the logs. */
  readonly notSentError?: unknown;
}

/** What happened to one delivery message. */
export type DeliveryOutcome =
  | ({ readonly kind: 'delivered' } & Attempted)
  | ({ readonly kind: 'retry'; readonly retryAfterSeconds: number } & Attempted)
  | ({ readonly kind: 'exhausted' } & Partial<Attempted> & {
        readonly event: EventRecord;
        /** The event's account delivers in order: the events after it go on without it. */
        readonly ordered?: boolean;
      })
  /** A duplicate message that came before the scheduled retry: it waits for it instead. */
  | { readonly kind: 'not-due'; readonly retryAfterSeconds: number }
  /** The endpoint's circuit is open or its slots are taken: no attempt made, none recorded. */
  | { readonly kind: 'deferred'; readonly retryAfterSeconds: number; readonly reason: string }
  /** An ordered account's event waits for an earlier one to settle: no attempt made, none recorded. */
  | { readonly kind: 'waiting'; readonly retryAfterSeconds: number; readonly reason: string }
  | { readonly kind: 'skipped' | 'dropped' | 'duplicate'; readonly reason: string }
  /**
   * The event's account belongs to another organization now: nothing is sent, signed or recorded, and the
   * event settles `skipped`. Kept apart from `skipped` because it means data was about to cross organizations.
   */
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Makes the next delivery attempt of an event, if one is due, and records it.
 *
 * The event goes only to an account of the organization that published it, signed with that
 * organization's tokens, read in this batch's `context`: an account that another organization holds now
 * gets nothing. The attempt count lives in DynamoDB (SQS receive counts overcount), and the first attempt
 * of an event goes out without a lease: that keeps the common case at one write, and at worst two
 * duplicate messages racing for the very first attempt both send it and both are recorded. Every later
 * attempt, and a first one that was scheduled (brought forward on request), first takes a lease
 * conditioned on the recorded count, so duplicates can neither repeat it nor exceed the cycle.
 *
 * @param context - the batch's accounts and organizations; a single delivery gets its own
 * @param taken - learns the end of the event's lease once this delivery took it, and when a request went
 *   out until its attempt is recorded: if the delivery then throws, its message must not come back
 *   before the lease ends (it would find the event leased and drop itself) nor soon after an unrecorded
 *   send (it would send the webhook again at once; `errorReturnNotBefore`)
 */
export async function deliverEvent(
  deps: DeliveryDeps,
  target: DeliveryTarget,
  receiveCount = 1,
  context = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets),
  taken: ErroredHandling = {},
): Promise<DeliveryOutcome> {
  const event = await readTarget(deps.events, target);
  if (!event) return { kind: 'dropped', reason: 'event not found' };
  const order: { settledThrough?: number } = {};
  const outcome = await deliverRead(deps, event, receiveCount, context, order, taken);
  // An ordered account's settled event lets the next one go: the watermark moves, the next is sent.
  const account = await context.account(event.account);
  if (account?.orgId === event.orgId && isOrdered(account, event) && settles(outcome)) {
    await afterSettled(deps, account, { ...event, webhookStatus: 'success' }, order.settledThrough);
    if (outcome.kind === 'exhausted') return { ...outcome, ordered: true };
  }
  return outcome;
}

/** Whether an outcome leaves its event settled (delivered, failed, skipped, or found so). */
function settles(outcome: DeliveryOutcome): boolean {
  return ['delivered', 'exhausted', 'skipped', 'refused', 'dropped'].includes(outcome.kind);
}

/**
 * {@link deliverEvent} once the event is read; `order` learns the watermark the gate left, `taken` the
 * lease this delivery took and its send not yet recorded.
 */
async function deliverRead(
  deps: DeliveryDeps,
  event: EventRecord,
  receiveCount: number,
  context: DeliveryContext,
  order: { settledThrough?: number },
  taken: ErroredHandling,
): Promise<DeliveryOutcome> {
  const now = deps.now;
  if (event.webhookStatus !== 'pending')
    return { kind: 'dropped', reason: `event is ${event.webhookStatus}` };
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    await deps.events.settlePending(event, 'failed');
    return { kind: 'exhausted', event };
  }
  const account = await context.account(event.account);
  if (account && account.orgId !== event.orgId) {
    // By construction, not by trust in the account's current owner: the event stays with its organization.
    await deps.events.settlePending(event, 'skipped');
    return { kind: 'refused', reason: 'the account belongs to another organization now; nothing was sent' };
  }
  if (!account?.webhookUrl) {
    await deps.events.settlePending(event, 'skipped');
    return { kind: 'skipped', reason: account ? 'account has no webhook_url' : 'account deleted' };
  }
  const org = await context.organization(event.orgId);
  if (!org) {
    // Nothing can sign the webhook any more: settle rather than leave the event pending forever.
    await deps.events.settlePending(event, 'failed');
    return { kind: 'dropped', reason: 'organization not found; event marked failed' };
  }
  const notDueFor = secondsUntilDue(event.nextAttemptAt, now());
  if (notDueFor !== undefined) return { kind: 'not-due', retryAfterSeconds: notDueFor };
  // Ordered: not before every earlier event of the account is settled (before the slot: a waiting event
  // holds none).
  const gate = isOrdered(account, event)
    ? await passGate(deps, account, event, receiveCount)
    : { go: true as const, leased: false, settledThrough: undefined };
  if (!gate.go) return { kind: 'waiting', retryAfterSeconds: gate.seconds, reason: gate.reason };
  order.settledThrough = gate.settledThrough;
  // The keys opened, the material read and the body encrypted once the circuit lets the attempt through,
  // before any slot or lease is taken: a not-due or deferred message does no KMS or crypto work, and
  // nothing goes out in plain JSON to an endpoint that asked for JWE. A step that fails (a key that does
  // not open, missing material) is the attempt's failure, recorded below like an unanswered request.
  let prepared: PreparedRequest | undefined;
  const prepare = async (): Promise<void> => {
    prepared = await prepareRequest(context, deps, event, account, org, now());
  };
  // A pulled message whose receiver is already not answering here waits, like a busy endpoint's: no attempt.
  const held = deps.heldEndpoint?.(account.webhookUrl, receiveCount);
  if (held !== undefined) {
    return {
      kind: 'deferred',
      retryAfterSeconds: held,
      reason: 'endpoint has a slow attempt in flight here',
    };
  }
  // The endpoint's slot before the event's lease: a deferred message must find the event unleased later.
  const endpointDeps = { ...deps, remember: context.remember.bind(context) };
  // The account is this batch's fresh read, so a `disabled` verdict needs no confirming read.
  const admission = await admit(endpointDeps, account, receiveCount, prepare);
  if (admission.kind === 'disabled') {
    await deps.events.settlePending(event, 'skipped');
    return { kind: 'skipped', reason: `endpoint disabled: ${admission.reason}` };
  }
  if (admission.kind === 'gone') {
    await deps.events.settlePending(event, 'skipped');
    return { kind: 'skipped', reason: admission.reason };
  }
  if (admission.kind === 'defer') {
    return { kind: 'deferred', retryAfterSeconds: admission.seconds, reason: admission.reason };
  }
  if (event.webhookRetries > 0 || event.nextAttemptAt !== undefined || gate.leased) {
    const at = now();
    // Noted before the request: one that throws may have taken the lease all the same.
    taken.leaseUntil = at + deps.leaseMs;
    const leased = await deps.events.takeLease(event, event.webhookRetries, at + deps.leaseMs, at, dueBy(at));
    if (!leased) {
      await release(deps, account, admission.lease);
      return { kind: 'duplicate', reason: 'another consumer holds or made this attempt' };
    }
  }

  if (!prepared) throw new Error('the attempt was admitted without its request prepared');
  let sent: SentAttempt;
  if (prepared.ready) {
    taken.unrecordedSendAt = now();
    const { keys, outgoing, tls } = prepared;
    sent = await sendAttempt(deps, event, account.webhookUrl, org, keys, outgoing, tls);
  } else {
    sent = notSent(new Date(now()).toISOString(), account.webhookUrl, prepared.reason, prepared.error);
  }
  const { attempt, retryAfter } = sent;
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
  // The attempt was made, so it is recorded first: the attempt count must never miss a real send. The
  // endpoint's health follows even when recording throws (it releases the slot), and its failure
  // (account deleted meanwhile, throttling) is reported, not thrown: health is advisory.
  let report: EndpointNote = {};
  let recorded: EventRecord;
  try {
    recorded = await deps.events.recordAttempt(
      event,
      attempt,
      step.status,
      step.status === 'pending' ? now() + retryAfterSeconds * 1000 : undefined,
    );
    // Recorded: the event's own state (settled, or its next attempt due later) now keeps a quick return
    // from sending again.
    taken.unrecordedSendAt = undefined;
  } finally {
    report = await noteEndpoint(endpointDeps, account, signal, admission.lease);
    const certificate = account.endpointSecurity?.tlsClient;
    if (certificate) report = { ...report, clientCertificateExpiresAt: certificate.expiresAt };
    if (sent.error !== undefined) report = { ...report, notSentError: sent.error };
  }
  if (step.status === 'success') return { kind: 'delivered', event: recorded, attempt, ...report };
  // A concurrent first attempt succeeded meanwhile: this attempt is recorded, the event is done.
  if (recorded.webhookStatus === 'success')
    return { kind: 'dropped', reason: 'a concurrent attempt succeeded' };
  if (step.status === 'failed') return { kind: 'exhausted', event: recorded, attempt, ...report };
  return { kind: 'retry', event: recorded, attempt, retryAfterSeconds, ...report };
}

/** The endpoint's part of an attempt's outcome, and what kept Herald from making it. */
type EndpointNote = Pick<
  Attempted,
  'endpoint' | 'endpointError' | 'clientCertificateExpiresAt' | 'notSentError'
>;

/** {@link observeAttempt}, whose failure becomes part of the outcome instead of an error. */
async function noteEndpoint(
  deps: EndpointDeps,
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
