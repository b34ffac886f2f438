import { OPERATOR_PAGES_PER_REQUEST } from '#config/limits';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { ConflictError } from '#domain/errors';
import type { EventRef } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, EventUpkeep } from '#domain/ports';
import { getEvent } from './read-events';

/** What a requeue or a reset needs: the operator's walks over the events, their new cycles, the queue. */
export interface RedeliverDeps {
  readonly events: DeliveryLedger & EventUpkeep;
  readonly queue: DeliveryQueue;
}

/**
 * What redelivering one event needs: its delivery state, the queue, the clock a pending event's next
 * attempt is brought forward to, and the account's order (restarted below a redelivered event).
 */
export interface RedeliverEventDeps {
  readonly events: DeliveryLedger;
  readonly queue: DeliveryQueue;
  /** Epoch ms. */
  readonly now: () => number;
  /** The account's orders (restarted below a redelivered event) and its default endpoint's id. */
  readonly directory: Pick<DirectoryStore, 'restartOrder' | 'getAccount'>;
}

/** The events a redelivery queued. */
export interface RedeliveryResult {
  readonly queued: string[];
}

/**
 * Redelivers one event of the organization: a `failed`, `skipped` or `success` one starts a new cycle of
 * up to 20 attempts (earlier attempts stay recorded and counted; an ordered account's later events wait
 * for it again); a `pending` one has its next attempt brought
 * forward to now, within its cycle: one conditional write (only while pending and no consumer holds its
 * lease) and a queue message. The consumer then takes the event's lease as for any scheduled attempt, so
 * this message and the one already queued make one attempt between them, and the cycle never gets a
 * 21st. So does an event with no attempt yet: it may have no message at all (a redelivery or a replay
 * interrupted after its cycle started), and brought forward its first attempt takes the lease too; only
 * a first attempt already under way unleased may then be sent twice (both recorded), as two messages
 * racing for a first attempt may. A new cycle's event is queued even when restarting the order throws
 * (the error is answered all the same): no event is left pending without a message. An endpoint whose
 * circuit is open still waits.
 *
 * @throws NotFoundError for an unknown event or one of another organization; ConflictError when the
 *   event is delivered, has used all its cycles, or an attempt of it is under way right now
 */
export async function redeliverEvent(
  deps: RedeliverEventDeps,
  orgId: string,
  id: string,
): Promise<RedeliveryResult> {
  const event = await getEvent(deps.events, orgId, id, { consistent: true });
  const pending = event.webhookStatus === 'pending';
  const queued = pending
    ? await deps.events.bringForward(event, orgId, deps.now())
    : await deps.events.startCycle(event, orgId);
  if (queued) {
    try {
      if (!pending) await ordersAgain(deps, orgId, [event], await defaultIdOf(deps, orgId, event.account));
    } finally {
      await deps.queue.enqueue([event]);
    }
    return { queued: [id] };
  }
  if (event.webhookStatus === 'pending') {
    throw new ConflictError(
      `An attempt of event ${id} is under way right now; see its result with GET /events/${id}, or ask again once it is recorded.`,
    );
  }
  throw new ConflictError(
    `Event ${id} has used all ${MAX_CYCLES} delivery cycles, or changed state meanwhile.`,
  );
}

/**
 * After new cycles of `events` (ascending) of an account, ordered or not (it may become ordered while they
 * run): its order restarts below the first, so the events after it wait for it again: the order of its
 * default endpoint, or of its extra endpoint `extra` when the cycles are that endpoint's deliveries
 * alone. Called after the cycles started: a gate that read the log before them cannot move the watermark
 * any more (its move is conditioned on the order epoch this increments), and a gate that reads the
 * account after reads them pending.
 */
export async function orderAgain(
  deps: Pick<RedeliverEventDeps, 'directory'>,
  orgId: string,
  events: readonly EventRef[],
  extra?: string,
): Promise<void> {
  const [first] = events;
  if (first?.sequence === undefined) return;
  await deps.directory.restartOrder(first.account, orgId, first.sequence - 1, extra);
}

/**
 * After new cycles of whole events (ascending) of an account whose default endpoint is `defaultId`: the
 * account's order restarts below the first ({@link orderAgain}), and each extra endpoint's below the
 * first of them routed to it (a fanned-out event starts a new cycle at every endpoint it was routed to).
 */
export async function ordersAgain(
  deps: Pick<RedeliverEventDeps, 'directory'>,
  orgId: string,
  events: readonly (EventRef & { readonly routes?: readonly string[] | undefined })[],
  defaultId: string | undefined,
): Promise<void> {
  await orderAgain(deps, orgId, events);
  const firsts = new Map<string, EventRef>();
  for (const event of events) {
    for (const route of event.routes ?? [])
      if (route !== defaultId && !firsts.has(route)) firsts.set(route, event);
  }
  for (const [extra, first] of firsts) await orderAgain(deps, orgId, [first], extra);
}

/** The id of the organization's account's default endpoint (undefined: none, or another's account). */
async function defaultIdOf(
  deps: Pick<RedeliverEventDeps, 'directory'>,
  orgId: string,
  iban: string,
): Promise<string | undefined> {
  const account = await deps.directory.getAccount(iban, { consistent: true });
  return account?.orgId === orgId ? account.endpointId : undefined;
}

/** What one requeue request queued, and where the next one goes on. */
export interface RequeueResult extends RedeliveryResult {
  /** True when older events remain to examine: send the request again with `cursor`. */
  readonly more: boolean;
  readonly cursor?: string;
}

/**
 * Queues pending events again, for the runbook: when the forwarder gave up on stream records (its
 * failure alarm), their events stay `pending` with no message. A second message for an event that is
 * still being delivered is harmless: the consumer's status check and lease drop it. Each call examines
 * at most {@link OPERATOR_PAGES_PER_REQUEST} pages of 100 events, newest first, from `cursor` on.
 *
 * @param until - only events triggered at or before this ISO time (leave recent ones to the pipeline)
 */
export async function requeuePending(
  deps: RedeliverDeps,
  orgId: string,
  until: string,
  cursor?: string,
): Promise<RequeueResult> {
  const queued: string[] = [];
  let next = cursor;
  for (let page = 0; page < OPERATOR_PAGES_PER_REQUEST; page++) {
    const found = await deps.events.pageEventIdsByStatus(orgId, ['pending'], next, until);
    await deps.queue.enqueue(found.events);
    queued.push(...found.events.map((event) => event.id));
    next = found.cursor;
    if (next === undefined) break;
  }
  return next === undefined ? { queued, more: false } : { queued, more: true, cursor: next };
}
