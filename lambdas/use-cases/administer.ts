import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { Account, Organization } from '#domain/model';
import type { ApiKeyStore, DirectoryStore } from '#domain/ports';
import { generateWebhookToken } from '#domain/signing/webhook-token';
import { type Clock, nowIso, renderTimestamp, systemClock } from '#domain/time';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { createApiKey } from './api-keys';
import { requireOrganization } from './require-organization';
import { toTokenView, type WebhookTokenView } from './webhook-tokens';

/** A new organization with its first API key (shown only once). */
export interface CreatedOrganization {
  readonly id: string;
  readonly name: string;
  readonly webhook_token: string;
  readonly api_key: string;
}

/** An organization as the operator sees it, with its webhook token (and the previous one in an overlap). */
export interface OrganizationView extends WebhookTokenView {
  readonly id: string;
  readonly name: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly created_at: string;
}

/** Creates an organization, its webhook token and a first API key (scope `manage`, name `default`). */
export async function createOrganization(
  directory: DirectoryStore,
  apiKeys: ApiKeyStore,
  name: unknown,
  clock: Clock = systemClock,
): Promise<CreatedOrganization> {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw new ValidationError('name', 'must be a string of 1 to 200 characters');
  }
  const org: Organization = {
    id: randomUUID(),
    name: trimmed,
    webhookToken: generateWebhookToken(),
    createdAt: nowIso(clock()),
  };
  await directory.createOrganization(org);
  const { api_key } = await createApiKey(
    directory,
    apiKeys,
    org.id,
    { name: 'default', scope: 'manage' },
    clock().getTime(),
  );
  return { id: org.id, name: org.name, webhook_token: org.webhookToken, api_key };
}

/** One organization; 404 when unknown. */
export async function getOrganization(
  directory: DirectoryStore,
  orgId: string,
  clock: Clock = systemClock,
): Promise<OrganizationView> {
  const org = await requireOrganization(directory, orgId);
  return {
    id: org.id,
    name: org.name,
    created_at: renderTimestamp(org.createdAt),
    ...toTokenView(org, clock().getTime()),
  };
}

/** Input of {@link putAccount}. */
export interface AccountInput {
  readonly orgId: string;
  readonly iban: string;
  /** Absent or empty: the account's events are recorded as `skipped`. */
  readonly webhookUrl?: string | undefined;
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
  const account: Account = { iban, orgId: input.orgId, webhookUrl, createdAt: now, updatedAt: now };
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

/** The organization's accounts. */
export function listAccounts(directory: DirectoryStore, orgId: string): Promise<Account[]> {
  return directory.listAccounts(orgId);
}

/** One account of the organization; another organization's answers like an unknown one. */
export async function getAccount(directory: DirectoryStore, orgId: string, iban: string): Promise<Account> {
  const normalised = parseIban('iban', iban);
  const account = await directory.getAccount(normalised);
  if (!account || account.orgId !== orgId) throw new NotFoundError(`No account ${normalised}.`);
  return account;
}
