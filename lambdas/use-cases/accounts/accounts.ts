import { NotFoundError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import { newEndpointId } from '#domain/ids';
import type { Account, DeliveryOrder } from '#domain/model';
import type { AccountPage, AccountPageQuery, AccountWrite, DirectoryStore } from '#domain/ports';
import type { Filter } from '#domain/subscriptions/filter-model';
import { type Clock, nowIso, systemClock } from '#domain/time';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { requireOrganization } from '#use-cases/organizations/require-organization';

/** Input of {@link putAccount}: each field absent keeps what is stored. */
export interface AccountInput {
  readonly orgId: string;
  readonly iban: string;
  /**
   * A URL replaces the stored one; null removes it (the account's events are then recorded as `skipped`);
   * absent keeps it (a new account has none).
   */
  readonly webhookUrl?: string | null | undefined;
  /** Absent: the stored order stays (a new account's is `concurrent`). */
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /** The default endpoint's subscription and description (checked): absent keeps, null removes. */
  readonly eventTypes?: readonly string[] | null | undefined;
  readonly filter?: Filter | null | undefined;
  readonly description?: string | null | undefined;
}

/** Options of {@link putAccount}. */
export interface PutAccountOptions {
  /** Refuses hosts that resolve to addresses the policy forbids (DNS resolution). */
  readonly checkHost?: (url: URL) => Promise<void>;
  readonly clock?: Clock;
  /**
   * The account log's latest sequence: a put that makes the account ordered starts its watermark there,
   * so its history is not gated again. Absent (seeding): the watermark starts where it is.
   */
  readonly latestSequence?: (orgId: string, iban: string) => Promise<number>;
}

/**
 * Creates or updates an account, setting only the fields the input gives. The webhook URL is checked
 * against the URL policy, then by `checkHost`.
 *
 * @returns the stored account (the caller renders it)
 * @throws ValidationError naming `webhook_url` for a URL the policy refuses (an empty one included)
 */
export async function putAccount(
  directory: DirectoryStore,
  input: AccountInput,
  policy: UrlPolicy,
  options: PutAccountOptions = {},
): Promise<Account> {
  const iban = parseIban('iban', input.iban);
  await requireOrganization(directory, input.orgId);
  let webhookUrl = input.webhookUrl;
  if (typeof webhookUrl === 'string') {
    const url = checkWebhookUrl(webhookUrl, policy);
    await options.checkHost?.(url);
    webhookUrl = url.toString();
  }
  const write: AccountWrite = {
    iban,
    orgId: input.orgId,
    webhookUrl,
    // A new account gets this endpoint id; an existing one keeps its own (or, from before ids, takes it).
    endpointId: newEndpointId(),
    deliveryOrder: input.deliveryOrder,
    eventTypes: input.eventTypes,
    filter: input.filter,
    description: input.description,
    updatedAt: nowIso((options.clock ?? systemClock)()),
  };
  const latest = await latestIfSwitching(directory, input.orgId, iban, input.deliveryOrder, options);
  const stored = await directory.putAccount(write);
  if (latest === undefined) return stored;
  await directory.startOrder(iban, input.orgId, latest);
  return { ...stored, settledThrough: Math.max(stored.settledThrough ?? 0, latest) };
}

/**
 * The log's latest sequence when this put makes the account ordered (read before the put: every event
 * published after the switch is above it, so gated); undefined otherwise.
 */
async function latestIfSwitching(
  directory: DirectoryStore,
  orgId: string,
  iban: string,
  order: DeliveryOrder | undefined,
  options: PutAccountOptions,
): Promise<number | undefined> {
  if (order !== 'ordered' || options.latestSequence === undefined) return undefined;
  const existing = await directory.getAccount(iban, { consistent: true });
  if (existing?.orgId === orgId && existing.deliveryOrder === 'ordered') return undefined;
  return options.latestSequence(orgId, iban);
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
