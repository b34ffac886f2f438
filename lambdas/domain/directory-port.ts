/**
 * The port of the directory: organizations, their accounts (with the delivery state kept on them: the
 * order's watermark and epoch, the sequence floor) and the deployment's settings. Re-exported by
 * `ports.ts`.
 */

import type {
  Account,
  AccountTombstone,
  DeliveryOrder,
  Organization,
  PreviousToken,
  SignatureScheme,
} from './model';
import type { AccountPage, AccountPageQuery } from './queries';
import type { PreviousSigningKey, SigningKey } from './signing/signing-keys';
import type { Filter } from './subscriptions/filter-model';

/** How a directory read is made. */
export interface ReadOptions {
  /**
   * A strongly consistent read (twice the read units): sees every write committed before it. The
   * consumer reads so, so that a changed URL, token or owner applies to the very next attempt.
   */
  readonly consistent?: boolean;
}

/**
 * What one account write sets. A field left undefined keeps what is stored (a new account: none, or the
 * default), so a write never removes what it does not name, nor undoes a concurrent change of it.
 */
export interface AccountWrite {
  /** Normalised IBAN. */
  readonly iban: string;
  readonly orgId: string;
  /** A URL replaces the stored one; null removes it (events are then `skipped`); undefined keeps it. */
  readonly webhookUrl?: string | null | undefined;
  /** The id a new account (or one from before ids) takes; an account keeps the id it has. */
  readonly endpointId?: string | undefined;
  /** Undefined keeps the stored order (a new account's is `concurrent`); `ordered` starts a new epoch. */
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /** The default endpoint's event types: a list replaces them, null removes them (every type). */
  readonly eventTypes?: readonly string[] | null | undefined;
  /** The default endpoint's payload filter: a filter replaces it, null removes it (every payload). */
  readonly filter?: Filter | null | undefined;
  /** The default endpoint's description: a text replaces it, null removes it. */
  readonly description?: string | null | undefined;
  /** ISO 8601 UTC: when it is written, and a new account's creation time. */
  readonly updatedAt: string;
}

/** A move of an ordered account's watermark (`settled_through`), as one consumer saw the account. */
export interface WatermarkMove {
  /** The watermark the consumer read (absent: 0). */
  readonly from: number;
  /** The new watermark: every event up to it is settled. */
  readonly to: number;
  /** The order epoch the consumer read (absent: 0); a restart since then refuses the move. */
  readonly epoch: number;
}

/** Organizations, API keys and accounts. */
export interface DirectoryStore {
  getOrganization(id: string, options?: ReadOptions): Promise<Organization | undefined>;
  createOrganization(org: Organization): Promise<void>;
  /**
   * Replaces the webhook token and keeps the replaced one as `previous` (or forgets it when undefined);
   * false when the organization does not exist.
   */
  setWebhookToken(orgId: string, token: string, previous?: PreviousToken): Promise<boolean>;
  /**
   * Replaces the Ed25519 signing key and keeps the replaced one as `previous` (or forgets it when
   * undefined); false when the organization does not exist.
   */
  setSigningKey(orgId: string, key: SigningKey, previous?: PreviousSigningKey): Promise<boolean>;
  /** Sets the signature schemes the organization's webhooks carry; false when it does not exist. */
  setSignatureSchemes(orgId: string, schemes: readonly SignatureScheme[]): Promise<boolean>;
  /**
   * Sets the organization's operational webhook URL (already checked), or removes it (null), changing
   * nothing else of the organization, and resets that webhook's health (failures, open circuit): the old
   * URL's are not the new one's; false when it does not exist.
   */
  setOpsWebhookUrl(orgId: string, url: string | null): Promise<boolean>;
  /** The account; undefined when there is none or it was deleted (a tombstone is never returned). */
  getAccount(iban: string, options?: ReadOptions): Promise<Account | undefined>;
  /**
   * Creates or updates an account, or re-creates the organization's own deleted one. Fails with
   * ConflictError when the IBAN belongs to another organization's account, or still holds another
   * organization's events (its deleted account was not erased), without naming that organization.
   * Sets only the fields the write gives, in one atomic step: a concurrent write of another field stays.
   */
  putAccount(account: AccountWrite): Promise<Account>;
  /**
   * Deletes the organization's account, leaving `tombstone` in its place (the organization's events stay
   * until erased) with its `sequenceFloor`, or the deleted account's own floor when that is higher; the
   * deleted account, or undefined when the organization had no such account.
   */
  deleteAccount(tombstone: AccountTombstone): Promise<Account | undefined>;
  /**
   * Moves an ordered endpoint's watermark as `move` says if it still is `move.from` and its order epoch
   * still is `move.epoch`; false when another consumer moved it or a replay restarted the order meanwhile
   * (or the account or endpoint is gone or another organization's). `extra`: an extra endpoint's id;
   * absent: the account's default endpoint (the account item).
   */
  advanceSettledThrough(iban: string, orgId: string, move: WatermarkMove, extra?: string): Promise<boolean>;
  /**
   * Starts an endpoint's order again after new cycles of its deliveries from `to + 1` on (a replay or a
   * redelivery, whatever its order): lowers the watermark to `to` if it is above, and increments the
   * order epoch in any case, so no gate that read the log before can move the watermark.
   */
  restartOrder(iban: string, orgId: string, to: number, extra?: string): Promise<void>;
  /**
   * Raises an ordered endpoint's watermark to `through` if it is lower (a switch to ordered: the history
   * up to the log's latest sequence then is not gated again); nothing when the endpoint is not ordered.
   */
  startOrder(iban: string, orgId: string, through: number, extra?: string): Promise<void>;
  /**
   * Raises the organization's account's `seq_floor` to `floor` if it is lower (retention deleted the last
   * event of its log), on its tombstone too while the account is deleted (re-created, it continues above
   * it); nothing when the IBAN is another organization's or holds nothing.
   */
  raiseSequenceFloor(iban: string, orgId: string, floor: number): Promise<void>;
  /** The tombstone of an account deleted without erasing its events, if there is one. */
  getAccountTombstone(iban: string): Promise<AccountTombstone | undefined>;
  /**
   * Removes the organization's tombstone once the account's events are erased, so the IBAN may be
   * assigned anew; false when the IBAN has no tombstone of that organization.
   */
  removeAccountTombstone(iban: string, orgId: string): Promise<boolean>;
  /**
   * One page of the organization's accounts by IBAN: reads the index entries up to the page's end (at most
   * `MAX_LIST_DEPTH` + 1) and the page's accounts only.
   */
  listAccounts(orgId: string, query: AccountPageQuery): Promise<AccountPage>;
  /** The deployment's event retention in days (the settings item), undefined when events are kept. */
  getEventRetentionDays(): Promise<number | undefined>;
  /** The usage plan of the organizations' keys (the settings item), undefined when there is none. */
  getUsagePlanId(): Promise<string | undefined>;
}
