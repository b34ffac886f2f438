/**
 * An IBAN belongs to one organization for as long as anything of that organization is attached to it:
 * its account, or, once the account is deleted without erasing, its events (kept by the account's
 * tombstone). The refusals say so without naming the other organization. The directory store and its
 * test fake both answer with these.
 */
import { ConflictError } from './errors';

/** The IBAN is another organization's account. */
export function ibanTakenError(iban: string): ConflictError {
  return new ConflictError(`Account ${iban} belongs to another organization.`);
}

/**
 * The IBAN's account was deleted by another organization without erasing its events: those events (and
 * their retries and redeliveries) must never reach a new owner, so the IBAN is assigned again only after
 * the operator erased them.
 */
export function ibanHoldsEventsError(iban: string): ConflictError {
  return new ConflictError(
    `Account ${iban} still holds another organization's events: erase them first ` +
      `(herald account delete --iban ${iban} --erase, or DELETE /admin/accounts/${iban}?erase=true), ` +
      'then assign the IBAN.',
  );
}
