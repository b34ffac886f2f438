import { RECOVERY_LIMIT } from '#config/limits';
import type { EndpointHealthStore } from '#delivery/endpoint-health-port';
import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { OperationalLog } from '#domain/notices/ports';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, EventUpkeep } from '#domain/ports';
import { startCycles } from '#use-cases/events/reset-webhooks';
import { announceEnabling } from './announce-enabling';

/** What re-enabling an endpoint needs. */
export interface EnableDeps {
  readonly health: Pick<EndpointHealthStore, 'enable'>;
  /** Where an enabling of a disabled endpoint is announced (`endpoint_enabled`); without one, it is not. */
  readonly notices?: OperationalLog | undefined;
  readonly events: EventUpkeep & DeliveryLedger;
  readonly queue: DeliveryQueue;
  readonly now: () => number;
}

/** A recovery: redeliver what the endpoint missed since a time, going on from a cursor. */
export interface Recovery {
  /** ISO 8601 UTC (the request parser reads the API's `YYYY-MM-DD HH:MM:SS`). */
  readonly since: string;
  /** The `cursor` of the previous answer, to go on where it stopped. */
  readonly cursor?: string | undefined;
}

/** What re-enabling did: the endpoint is healthy now. */
export interface EnableResult {
  /** Normalised IBAN. */
  readonly iban: string;
  /** Events that start a new delivery cycle (only with a recovery). */
  readonly queued: string[];
  /** The recovery has more of the window to examine: enable again with `cursor`. */
  readonly more: boolean;
  readonly cursor?: string | undefined;
}

/**
 * Makes an account's webhook endpoint healthy again (from `disabled` or `degraded`: the failure count,
 * the open circuit and the reason are cleared; from `disabled`, announced as `endpoint_enabled`) and, with a recovery, starts a new delivery cycle for the
 * `failed` and `skipped` events of that account triggered since then: one step of a walk through the
 * sparse status indexes, at most {@link RECOVERY_LIMIT} events and the read bound of index entries per
 * request. The answer's cursor goes on past every entry this request examined, so a backlog of any size
 * is recovered by repeating the request with it, each request making progress.
 *
 * @throws ValidationError for a malformed IBAN or cursor; NotFoundError for an account of another
 *   organization or none
 */
export async function enableEndpoint(
  deps: EnableDeps,
  orgId: string,
  ibanInput: string,
  recovery?: Recovery,
): Promise<EnableResult> {
  const iban = parseIban('iban', ibanInput);
  const at = new Date(deps.now()).toISOString();
  const enabling = await deps.health.enable({ iban, orgId }, at);
  if (!enabling) throw new NotFoundError(`No account ${iban}.`);
  await announceEnabling(deps.notices, { iban, orgId }, enabling, at);
  if (recovery === undefined) return { iban, queued: [], more: false };
  const filter = { account: iban, since: recovery.since };
  const step = await deps.events.recoveryChunk(orgId, filter, RECOVERY_LIMIT, recovery.cursor);
  const queued = await startCycles(deps, orgId, step.events);
  return step.cursor === undefined
    ? { iban, queued, more: false }
    : { iban, queued, more: true, cursor: step.cursor };
}

/**
 * The operator's enable (`POST /admin/accounts/{iban}/enable`): the same as {@link enableEndpoint} for
 * whichever organization owns the account.
 *
 * @throws ValidationError for a malformed IBAN or cursor; NotFoundError when no organization has the account
 */
export async function enableAnyEndpoint(
  deps: EnableDeps & { readonly directory: Pick<DirectoryStore, 'getAccount'> },
  ibanInput: string,
  recovery?: Recovery,
): Promise<EnableResult> {
  const account = await deps.directory.getAccount(parseIban('iban', ibanInput));
  if (!account) throw new NotFoundError(`No account ${ibanInput}.`);
  return enableEndpoint(deps, account.orgId, account.iban, recovery);
}
