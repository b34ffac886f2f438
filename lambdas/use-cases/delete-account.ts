import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { DirectoryStore, EventStore } from '#domain/ports';

/** What deleting an account needs. */
export interface DeleteAccountDeps {
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'deleteAccount'>;
  readonly events: Pick<EventStore, 'eraseAccountEvents'>;
}

/** What a deletion did. */
export interface DeletedAccount {
  readonly iban: string;
  readonly deleted: boolean;
  /** Events erased; 0 without `erase`. */
  readonly erased_events: number;
}

/**
 * Deletes an organization's account, and with `erase` every event recorded for it (attempts included:
 * they live in the event item). The account goes first, so no event can be published for it while its
 * events are erased; the erasure runs in bounded chunks and can simply be repeated if interrupted (the
 * account then no longer exists, which `erase` accepts).
 *
 * @throws NotFoundError when the IBAN belongs to no account of the organization (and `erase` is off)
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  orgId: string,
  ibanText: string,
  options: { readonly erase: boolean },
): Promise<DeletedAccount> {
  const iban = parseIban('iban', ibanText);
  const account = await deps.directory.getAccount(iban);
  if (account && account.orgId !== orgId)
    throw new NotFoundError(`No account ${iban} in organization ${orgId}.`);
  if (!account && !options.erase) throw new NotFoundError(`No account ${iban} in organization ${orgId}.`);
  const deleted = account ? await deps.directory.deleteAccount(iban) : false;
  let erased = 0;
  if (options.erase) {
    let cursor: string | undefined;
    do {
      const chunk = await deps.events.eraseAccountEvents(orgId, iban, cursor);
      erased += chunk.erased;
      cursor = chunk.cursor;
    } while (cursor !== undefined);
  }
  return { iban, deleted, erased_events: erased };
}
