import { OPERATOR_PAGES_PER_REQUEST } from '#config/limits';
import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { DeliveryQueue, DirectoryStore, EndpointHealthStore, EventStore } from '#domain/ports';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';

/** What re-enabling an endpoint needs. */
export interface EnableDeps {
  readonly health: Pick<EndpointHealthStore, 'enable'>;
  readonly events: EventStore;
  readonly queue: DeliveryQueue;
  readonly now: () => number;
}

/** What re-enabling did: the endpoint is healthy now. */
export interface EnableResult {
  /** Normalised IBAN. */
  readonly iban: string;
  /** Events that start a new delivery cycle (only with `recover_since`). */
  readonly queued: string[];
}

/**
 * Makes an account's webhook endpoint healthy again (from `disabled` or `degraded`: the failure count,
 * the open circuit and the reason are cleared) and, with `recoverSince`, starts a new delivery cycle for
 * the `failed` and `skipped` events of that account triggered since then, read from the sparse status
 * indexes: at most {@link OPERATOR_PAGES_PER_REQUEST} chunks of `RESET_CHUNK` events; a larger backlog is taken by
 * enabling again with the same `recover_since` (the recovered events have left the indexes).
 *
 * @param recoverSince - ISO 8601 UTC (the request parser reads the API's `YYYY-MM-DD HH:MM:SS`)
 * @throws ValidationError for a malformed IBAN; NotFoundError for an account of another organization or
 *   none
 */
export async function enableEndpoint(
  deps: EnableDeps,
  orgId: string,
  ibanInput: string,
  recoverSince?: string,
): Promise<EnableResult> {
  const iban = parseIban('iban', ibanInput);
  if (!(await deps.health.enable(iban, orgId, new Date(deps.now()).toISOString()))) {
    throw new NotFoundError(`No account ${iban}.`);
  }
  if (recoverSince === undefined) return { iban, queued: [] };
  const queued: string[] = [];
  for (let chunk = 0; chunk < OPERATOR_PAGES_PER_REQUEST; chunk++) {
    const step = await resetWebhooks(deps, orgId, { account: iban, since: recoverSince });
    queued.push(...step.queued);
    if (!step.more) break;
  }
  return { iban, queued };
}

/**
 * The operator's enable (`POST /admin/accounts/{iban}/enable`): the same as {@link enableEndpoint} for
 * whichever organization owns the account.
 *
 * @throws ValidationError for a malformed IBAN; NotFoundError when no organization has the account
 */
export async function enableAnyEndpoint(
  deps: EnableDeps & { readonly directory: Pick<DirectoryStore, 'getAccount'> },
  ibanInput: string,
  recoverSince?: string,
): Promise<EnableResult> {
  const account = await deps.directory.getAccount(parseIban('iban', ibanInput));
  if (!account) throw new NotFoundError(`No account ${ibanInput}.`);
  return enableEndpoint(deps, account.orgId, account.iban, recoverSince);
}
