/**
 * Replaying an account (`POST /accounts/{iban}/replay`, the operator's route, `herald account replay`):
 * its events after a sequence are sent again whatever their status, in bounded chunks that answer `more`.
 */
import { LOG_READ_MAX_BODY_BYTES, REPLAY_CHUNK } from '#config/limits';
import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, EventLog } from '#domain/ports';
import { orderAgain } from './redeliver-events';
import { startCycles } from './reset-webhooks';

/** What a replay needs. */
export interface ReplayDeps {
  readonly events: EventLog & DeliveryLedger;
  readonly queue: Pick<DeliveryQueue, 'enqueue'>;
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'restartOrder'>;
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
 * delivered in sequence order again.
 *
 * @throws ValidationError for a malformed IBAN; NotFoundError for an account of another organization or none
 */
export async function replayAccount(
  deps: ReplayDeps,
  orgId: string,
  ibanInput: string,
  afterSequence: number,
): Promise<ReplayResult> {
  const iban = parseIban('iban', ibanInput);
  const account = await deps.directory.getAccount(iban);
  if (!account || account.orgId !== orgId) throw new NotFoundError(`No account ${iban}.`);
  const read = await deps.events.readLog(orgId, iban, {
    afterSequence,
    limit: REPLAY_CHUNK,
    maxBodyBytes: LOG_READ_MAX_BODY_BYTES,
  });
  const settled = read.events.filter((event) => event.webhookStatus !== 'pending');
  const queued = await startCycles(deps, orgId, settled, (started) => orderAgain(deps, orgId, started));
  const sent = new Set(queued);
  return {
    queued,
    usedUp: settled.filter((event) => !sent.has(event.id)).map((event) => event.id),
    more: read.more,
    nextAfterSequence: read.nextAfterSequence,
  };
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
): Promise<ReplayResult> {
  const account = await deps.directory.getAccount(parseIban('iban', ibanInput));
  if (!account) throw new NotFoundError(`No account ${ibanInput}.`);
  return replayAccount(deps, account.orgId, account.iban, afterSequence);
}
