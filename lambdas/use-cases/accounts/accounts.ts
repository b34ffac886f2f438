import type { DeliveryOrder } from '#domain/delivery/order-gate';
import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import { newEndpointId } from '#domain/ids';
import type { Account } from '#domain/model';
import type { AccountPage, AccountPageQuery, DirectoryStore } from '#domain/ports';
import { type Clock, nowIso, systemClock } from '#domain/time';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { requireOrganization } from '#use-cases/organizations/require-organization';

/** Input of {@link putAccount}. */
export interface AccountInput {
  readonly orgId: string;
  readonly iban: string;
  /** Absent or empty: the account's events are recorded as `skipped`. */
  readonly webhookUrl?: string | undefined;
  /** Absent: the stored order stays (a new account's is `concurrent`). */
  readonly deliveryOrder?: DeliveryOrder | undefined;
}

/** Options of {@link putAccount}. */
export interface PutAccountOptions {
  /** Refuses hosts that resolve to addresses the policy forbids (DNS resolution). */
  readonly checkHost?: (url: URL) => Promise<void>;
  readonly clock?: Clock;
}

/**
 * Creates or updates an account. The webhook URL is checked against the URL policy, then by `checkHost`.
 *
 * @returns the stored account (the caller renders it)
 */
export async function putAccount(
  directory: DirectoryStore,
  input: AccountInput,
  policy: UrlPolicy,
  options: PutAccountOptions = {},
): Promise<Account> {
  const iban = parseIban('iban', input.iban);
  await requireOrganization(directory, input.orgId);
  let webhookUrl: string | undefined;
  if (input.webhookUrl) {
    const url = checkWebhookUrl(input.webhookUrl, policy);
    await options.checkHost?.(url);
    webhookUrl = url.toString();
  }
  const now = nowIso((options.clock ?? systemClock)());
  // A new account gets this endpoint id; an existing one keeps its own (or, from before ids, takes it).
  const endpointId = newEndpointId();
  const account: Account = {
    iban,
    orgId: input.orgId,
    webhookUrl,
    endpointId,
    ...(input.deliveryOrder === undefined ? {} : { deliveryOrder: input.deliveryOrder }),
    createdAt: now,
    updatedAt: now,
  };
  return directory.putAccount(account);
}

/**
 * Sets the webhook URL of an existing account of the organization (an org key's `PUT /accounts/{iban}`);
 * another organization's account answers like an unknown one.
 */
export async function setOwnWebhookUrl(
  directory: DirectoryStore,
  input: AccountInput,
  policy: UrlPolicy,
  options: PutAccountOptions = {},
): Promise<Account> {
  await getAccount(directory, input.orgId, input.iban);
  return putAccount(directory, input, policy, options);
}

/** One page of the organization's accounts, by IBAN; each request reads what its page needs only. */
export function listAccounts(
  directory: Pick<DirectoryStore, 'listAccounts'>,
  orgId: string,
  query: AccountPageQuery,
): Promise<AccountPage> {
  return directory.listAccounts(orgId, query);
}

/** One account of the organization; another organization's answers like an unknown one. */
export async function getAccount(
  directory: Pick<DirectoryStore, 'getAccount'>,
  orgId: string,
  iban: string,
): Promise<Account> {
  const normalised = parseIban('iban', iban);
  const account = await directory.getAccount(normalised);
  if (!account || account.orgId !== orgId) throw new NotFoundError(`No account ${normalised}.`);
  return account;
}
