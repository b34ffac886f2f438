import type { TestEventAllowance } from '#delivery/test-event-port';
import type { RemoveEndpointSecrets } from '#domain/endpoint-security/ports';
import { NotFoundError, ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { Account } from '#domain/model';
import type { OperationalLog } from '#domain/notices/ports';
import type { DirectoryStore, EndpointStore, EventLog, EventUpkeep } from '#domain/ports';
import type { DeletedAccount } from '#domain/queries';

/** What deleting an account needs. */
export interface DeleteAccountDeps {
  readonly directory: Pick<
    DirectoryStore,
    'getAccount' | 'deleteAccount' | 'getAccountTombstone' | 'removeAccountTombstone'
  >;
  readonly events: EventUpkeep & Pick<EventLog, 'latestSequence'>;
  /** Epoch ms; stamps the tombstone. */
  readonly now: () => number;
  /** Removes the deleted account's endpoint material (payload key, client certificate and key). */
  readonly removeEndpointSecrets?: RemoveEndpointSecrets;
  /** Removes the deleted account's counter of test events (its key names the IBAN). */
  readonly testEvents?: Pick<TestEventAllowance, 'forget'>;
  /** Removes the deleted account's extra endpoints with their material (required: none may be left). */
  readonly endpoints: Pick<EndpointStore, 'removeEndpoints'>;
  /** Erases the account's operational notices, which name its IBAN (required: an erasure leaves none). */
  readonly notices: Pick<OperationalLog, 'eraseAccountNotices'>;
}

/** What to delete: an account, optionally with its events, from where an earlier erasure left off. */
export interface DeleteAccountRequest {
  readonly iban: string;
  /** The account's organization: optional; an erasure of an account deleted before tombstones needs it. */
  readonly orgId?: string | undefined;
  /**
   * Also erase the account's events with their attempts: in the event item, and a fanned-out event's
   * in its delivery items at the endpoints it was routed to, which the erasure removes with it; then its
   * organization's operational notices about the account, with their deliveries.
   */
  readonly erase: boolean;
  /** Where the previous erasure step stopped. */
  readonly cursor?: string | undefined;
}

/**
 * An erasure's cursor in its second phase, the notices (the notice log's own cursor follows it). The
 * event store's cursors never contain `:`, so any other cursor, whichever release handed it out, goes on
 * with the events.
 */
const NOTICES_PHASE = 'notices:';

/**
 * Deletes an account and, with `erase`, one bounded chunk of its events (`ERASE_CHUNK` items read); from
 * the request that erases their last chunk on, one bounded chunk per request of its organization's
 * operational notices naming it (`NOTICE_ERASE_CHUNK` notices read), with their deliveries: a request
 * reads at most one chunk of each. The account goes first, so no event can be published
 * for it while its events are erased. It leaves a tombstone that keeps the IBAN with its organization
 * for as long as that organization's events or notices of it remain, so no other organization can take
 * the IBAN over and receive them; the erasure's last chunk removes it. The following requests find the
 * organization on the tombstone (or name it, for an account deleted before tombstones) and go on from the
 * cursor; an interrupted erasure can simply be repeated.
 *
 * @throws NotFoundError when the IBAN belongs to no account (of `orgId`, when given) and has no erasure
 *   to go on with; ValidationError for a cursor while the account still exists
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  request: DeleteAccountRequest,
): Promise<DeletedAccount> {
  const iban = parseIban('iban', request.iban);
  const account = await deps.directory.getAccount(iban);
  const tombstone = account ? undefined : await deps.directory.getAccountTombstone(iban);
  const owner = account?.orgId ?? tombstone?.orgId;
  const orgId = owner ?? request.orgId;
  const mismatch = owner !== undefined && request.orgId !== undefined && owner !== request.orgId;
  if (mismatch || orgId === undefined || (!account && !request.erase)) {
    // A retry after the account went (its material's removal may have failed): the tombstone's owner
    // removes it again, every time, before hearing that the account is gone.
    if (tombstone && !mismatch) await removeEndpoint(deps, iban, tombstone.orgId);
    throw new NotFoundError(notFound(iban, request, tombstone !== undefined && !mismatch));
  }
  // A cursor comes from an earlier request, which deleted the account: checked before anything is deleted.
  if (account && request.cursor !== undefined) {
    throw new ValidationError(
      'cursor',
      'continues an erasure whose account is already deleted; leave it out to start one',
    );
  }
  const deletedAt = new Date(deps.now()).toISOString();
  // Extra endpoints go before the account: a request stopped after the tombstone (a timeout) must not
  // leave any for the organization to find again when it re-creates the account (outside its count,
  // unreachable to the consumer). After it, they go once more (one added meanwhile, or a retry).
  if (account) await deps.endpoints.removeEndpoints(iban, orgId);
  const deleted = account
    ? (await deps.directory.deleteAccount({
        iban,
        orgId,
        deletedAt,
        sequenceFloor: await floorAtDeletion(deps, account),
      })) !== undefined
    : false;
  // The endpoint goes with its account: its client key must not outlive it, nor bind a later owner. Not
  // only when this request deleted the account: a retry (the removal failed after the tombstone was
  // written) removes it too; the removal is conditioned on the organization, so it is idempotent.
  if (deleted || tombstone) await removeEndpoint(deps, iban, orgId);
  if (!request.erase) return { iban, orgId, deleted, erasedEvents: 0, erasedNotices: 0, more: false };
  const noticesFrom = request.cursor?.startsWith(NOTICES_PHASE)
    ? request.cursor.slice(NOTICES_PHASE.length)
    : undefined;
  let erasedEvents = 0;
  if (noticesFrom === undefined) {
    const chunk = await deps.events.eraseAccountEvents(orgId, iban, request.cursor);
    erasedEvents = chunk.erased;
    if (chunk.cursor !== undefined) {
      return { iban, orgId, deleted, erasedEvents, erasedNotices: 0, more: true, cursor: chunk.cursor };
    }
  }
  // The events are gone; the notices naming the IBAN go next (the tombstone stays until they have).
  const notices = await deps.notices.eraseAccountNotices(orgId, iban, noticesFrom);
  const done = { iban, orgId, deleted, erasedEvents, erasedNotices: notices.erased };
  if (notices.cursor !== undefined) {
    return { ...done, more: true, cursor: `${NOTICES_PHASE}${notices.cursor}` };
  }
  // The organization's last events and notices of the IBAN are gone: nothing of it can reach a new owner.
  await deps.directory.removeAccountTombstone(iban, orgId);
  return { ...done, more: false };
}

/**
 * Removes what the organization's deleted account kept of its endpoints: its extra endpoints and every
 * endpoint's material, and its counter of test events, whose key names the IBAN (an erasure must leave
 * none behind). All are idempotent.
 */
async function removeEndpoint(deps: DeleteAccountDeps, iban: string, orgId: string): Promise<void> {
  await deps.endpoints.removeEndpoints(iban, orgId);
  await deps.removeEndpointSecrets?.(iban, orgId);
  await deps.testEvents?.forget(orgId, iban);
}

/**
 * What the tombstone keeps of the log's sequences: the higher of the account's floor and the log's latest
 * sequence (one consistent read of one key). Sequences never go back for an IBAN within its organization:
 * re-created, the account continues above it, even once retention has emptied its log meanwhile (its
 * deletions after this raise the tombstone's floor further). Erasure's last chunk removes the tombstone
 * with it, so a log that was erased starts again at 1.
 */
async function floorAtDeletion(deps: DeleteAccountDeps, account: Account): Promise<number> {
  const latest = await deps.events.latestSequence(account.orgId, account.iban, { consistent: true });
  return Math.max(latest, account.sequenceFloor ?? 0);
}

/** Why there is nothing to delete, with the next step when the account was deleted already. */
function notFound(iban: string, request: DeleteAccountRequest, deletedBefore: boolean): string {
  if (deletedBefore) {
    return `No account ${iban}: it was deleted, and its events remain until erased (erase=true, herald account delete --erase).`;
  }
  const scope = request.orgId === undefined ? '' : ` in organization ${request.orgId}`;
  const hint =
    request.erase && request.orgId === undefined ? ' (to go on erasing its events, name its org)' : '';
  return `No account ${iban}${scope}${hint}.`;
}
