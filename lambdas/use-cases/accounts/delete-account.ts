import { NotFoundError, ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { DirectoryStore, EventStore } from '#domain/ports';

/** What deleting an account needs. */
export interface DeleteAccountDeps {
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'deleteAccount'>;
  readonly events: Pick<EventStore, 'eraseAccountEvents'>;
}

/** What to delete: an account, optionally with its events, from where an earlier erasure left off. */
export interface DeleteAccountRequest {
  readonly iban: string;
  /** The account's organization: optional for a deletion, needed to go on erasing once it is gone. */
  readonly orgId?: string | undefined;
  /** Also erase the account's events (attempts included: they live in the event item). */
  readonly erase: boolean;
  /** Where the previous erasure step stopped. */
  readonly cursor?: string | undefined;
}

/** What one deletion request did. */
export interface DeletedAccount {
  readonly iban: string;
  readonly orgId: string;
  /** False when the account was already gone (an erasure going on). */
  readonly deleted: boolean;
  /** Events erased by this request; 0 without `erase`. */
  readonly erasedEvents: number;
  /** True when events remain to examine: send the request again with `org` and `cursor`. */
  readonly more: boolean;
  readonly cursor?: string;
}

/**
 * Deletes an account and, with `erase`, one bounded chunk of its events (at most 1,000 of the
 * organization's events examined per request). The account goes first, so no event can be published
 * for it while its events are erased; the following requests name the organization and the cursor, and
 * an interrupted erasure can simply be repeated.
 *
 * @throws NotFoundError when the IBAN belongs to no account (of `orgId`, when given), unless an erasure
 *   names the organization; ValidationError for a cursor while the account still exists
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  request: DeleteAccountRequest,
): Promise<DeletedAccount> {
  const iban = parseIban('iban', request.iban);
  const account = await deps.directory.getAccount(iban);
  const orgId = account?.orgId ?? request.orgId;
  const mismatch = account !== undefined && request.orgId !== undefined && account.orgId !== request.orgId;
  if (mismatch || orgId === undefined || (!account && !request.erase)) {
    const scope = request.orgId === undefined ? '' : ` in organization ${request.orgId}`;
    const hint =
      request.erase && request.orgId === undefined ? ' (to go on erasing its events, name its org)' : '';
    throw new NotFoundError(`No account ${iban}${scope}${hint}.`);
  }
  // A cursor comes from an earlier request, which deleted the account: checked before anything is deleted.
  if (account && request.cursor !== undefined) {
    throw new ValidationError(
      'cursor',
      'continues an erasure whose account is already deleted; leave it out to start one',
    );
  }
  const deleted = account ? (await deps.directory.deleteAccount(iban)) !== undefined : false;
  if (!request.erase) return { iban, orgId, deleted, erasedEvents: 0, more: false };
  const chunk = await deps.events.eraseAccountEvents(orgId, iban, request.cursor);
  const done = { iban, orgId, deleted, erasedEvents: chunk.erased };
  return chunk.cursor === undefined
    ? { ...done, more: false }
    : { ...done, more: true, cursor: chunk.cursor };
}
