/**
 * Replaying an account (`POST /accounts/{iban}/replay`, the operator's route, `herald account replay`):
 * its events after a sequence are sent again whatever their status, in bounded chunks that answer `more`.
 */
import { LOG_READ_MAX_BODY_BYTES, REPLAY_CHUNK } from '#config/limits';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { EndpointStore } from '#domain/endpoints/ports';
import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { Account, EventRecord } from '#domain/model';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, EventLog } from '#domain/ports';
import { fannedOut, restartAtEndpoint, toDefault } from './redeliver-endpoint';
import { orderAgain, ordersAgain } from './redeliver-events';
import { startCycles } from './reset-webhooks';

/** What a replay needs. */
export interface ReplayDeps {
  readonly events: EventLog & DeliveryLedger;
  readonly queue: Pick<DeliveryQueue, 'enqueue'>;
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'restartOrder'>;
}

/** What a replay at one endpoint needs besides: the account's extra endpoints and their deliveries. */
export interface EndpointReplayDeps extends ReplayDeps {
  readonly endpoints: Pick<EndpointStore, 'listEndpoints'>;
  readonly deliveries: Pick<EndpointDeliveries, 'readDelivery' | 'startOwnCycle'>;
}

/** At one endpoint: which, and what a replay there reads. */
export interface ReplayEndpoint {
  readonly id: string;
  readonly deps: EndpointReplayDeps;
}

/** What one replay request did, and where the next one goes on. */
export interface ReplayResult {
  /** Ids of the events that start a new cycle, in sequence order. */
  readonly queued: string[];
  /** Ids of the events that have used all their cycles: reported, not sent. */
  readonly usedUp: string[];
  /** More events may follow: send the request again with `nextAfterSequence`. */
  readonly more: boolean;
  /** The last sequence this request examined (the `after_sequence` of the next). */
  readonly nextAfterSequence: number;
}

/**
 * Sends the organization's account's events after `afterSequence` again: up to {@link REPLAY_CHUNK} of
 * its log in sequence order (fewer when their bodies are large), each `success`, `failed` or `skipped` one starting a new cycle
 * within the cap on cycles (a used-up one is reported instead); `pending` ones are already on their way
 * and are left as they are. The account's order restarts below the first (`restartOrder`), so they are
 * delivered in sequence order again. At `endpoint`, only the events routed to that endpoint, there alone
 * (see {@link replayAt}).
 *
 * @throws ValidationError for a malformed IBAN; NotFoundError for an account of another organization or
 *   none, or an endpoint the account does not have
 */
export async function replayAccount(
  deps: ReplayDeps,
  orgId: string,
  ibanInput: string,
  afterSequence: number,
  endpoint?: ReplayEndpoint,
): Promise<ReplayResult> {
  const iban = parseIban('iban', ibanInput);
  const account = await deps.directory.getAccount(iban);
  if (!account || account.orgId !== orgId) throw new NotFoundError(`No account ${iban}.`);
  if (endpoint !== undefined) await ownEndpoint(endpoint.deps, account, endpoint.id);
  const read = await deps.events.readLog(orgId, iban, {
    afterSequence,
    limit: REPLAY_CHUNK,
    maxBodyBytes: LOG_READ_MAX_BODY_BYTES,
  });
  const chunk = { more: read.more, nextAfterSequence: read.nextAfterSequence };
  if (endpoint !== undefined) {
    return { ...(await replayAt(endpoint.deps, account, read.events, endpoint.id)), ...chunk };
  }
  const settled = read.events.filter((event) => event.webhookStatus !== 'pending');
  const queued = await startCycles(deps, orgId, settled, (started) => {
    const ids = new Set(started.map((event) => event.id));
    const records = settled.filter((event) => ids.has(event.id));
    return ordersAgain(deps, orgId, records, account.endpointId);
  });
  const sent = new Set(queued);
  return {
    queued,
    usedUp: settled.filter((event) => !sent.has(event.id)).map((event) => event.id),
    ...chunk,
  };
}

/**
 * A replay's chunk at one endpoint: the events routed there start a new cycle there alone. A fanned-out
 * event's delivery at it restarts (`restartAtEndpoint`; a pending one is left, a used-up one reported);
 * an event not fanned out is the default endpoint's, and starts a new cycle as in any replay; an event
 * not routed to it is passed.
 */
async function replayAt(
  deps: EndpointReplayDeps,
  account: Account,
  events: readonly EventRecord[],
  endpointId: string,
): Promise<Pick<ReplayResult, 'queued' | 'usedUp'>> {
  const defaultId = account.endpointId;
  const queued: string[] = [];
  const usedUp: string[] = [];
  const own: EventRecord[] = [];
  for (const event of events) {
    if (fannedOut(event, defaultId)) {
      if (!event.routes.includes(endpointId)) continue;
      const restarted = await restartAtEndpoint(deps, event, endpointId);
      if (restarted === 'started') queued.push(event.id);
      if (restarted === 'used-up') usedUp.push(event.id);
    } else if (endpointId === defaultId && toDefault(event, defaultId) && event.webhookStatus !== 'pending') {
      own.push(event);
    }
  }
  const started = new Set(await startCycles(deps, account.orgId, own));
  usedUp.push(...own.filter((event) => !started.has(event.id)).map((event) => event.id));
  queued.push(...started);
  const first = events.find((event) => queued.includes(event.id));
  const extra = endpointId === defaultId ? undefined : endpointId;
  if (first !== undefined) await orderAgain(deps, account.orgId, [first], extra);
  return { queued: events.filter((event) => queued.includes(event.id)).map((event) => event.id), usedUp };
}

/** @throws NotFoundError naming `endpoint_id` when the account has no such endpoint */
async function ownEndpoint(deps: EndpointReplayDeps, account: Account, endpointId: string): Promise<void> {
  if (account.endpointId === endpointId) return;
  const extras = await deps.endpoints.listEndpoints(account.iban, account.orgId);
  if (!extras.some((endpoint) => endpoint.id === endpointId)) {
    throw new NotFoundError(`endpoint_id: account ${account.iban} has no endpoint ${endpointId}.`);
  }
}

/**
 * The operator's replay: {@link replayAccount} for whichever organization owns the account.
 *
 * @throws ValidationError for a malformed IBAN; NotFoundError when no organization has the account
 */
export async function replayAnyAccount(
  deps: ReplayDeps,
  ibanInput: string,
  afterSequence: number,
  endpoint?: ReplayEndpoint,
): Promise<ReplayResult> {
  const account = await deps.directory.getAccount(parseIban('iban', ibanInput));
  if (!account) throw new NotFoundError(`No account ${ibanInput}.`);
  return replayAccount(deps, account.orgId, account.iban, afterSequence, endpoint);
}
