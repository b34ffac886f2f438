import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { Account, Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { generateApiKey, generateWebhookToken, hashApiKey } from '#domain/signing';
import { type Clock, nowIso, systemClock } from '#domain/time';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';

/** A new organization with its first API key (shown only once). */
export interface CreatedOrganization {
  readonly id: string;
  readonly name: string;
  readonly webhook_token: string;
  readonly api_key: string;
}

/** Creates an organization, its webhook token and a first API key. */
export async function createOrganization(
  directory: DirectoryStore,
  name: string,
  clock: Clock = systemClock,
): Promise<CreatedOrganization> {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw new ValidationError('name', 'must be 1 to 200 characters');
  }
  const org: Organization = {
    id: randomUUID(),
    name: trimmed,
    webhookToken: generateWebhookToken(),
    createdAt: nowIso(clock()),
  };
  await directory.createOrganization(org);
  const { api_key } = await createApiKey(directory, org.id, clock);
  return { id: org.id, name: org.name, webhook_token: org.webhookToken, api_key };
}

/** Issues another API key; only its SHA-256 hash is stored. */
export async function createApiKey(
  directory: DirectoryStore,
  orgId: string,
  clock: Clock = systemClock,
): Promise<{ api_key: string }> {
  await requireOrganization(directory, orgId);
  const key = generateApiKey();
  await directory.createApiKey(hashApiKey(key), orgId, nowIso(clock()));
  return { api_key: key };
}

/** Replaces the organization's webhook token (webhooks sent from now on are signed with the new one). */
export async function rotateWebhookToken(
  directory: DirectoryStore,
  orgId: string,
): Promise<{ id: string; webhook_token: string }> {
  const token = generateWebhookToken();
  if (!(await directory.setWebhookToken(orgId, token)))
    throw new NotFoundError(`org: no organization ${orgId}.`);
  return { id: orgId, webhook_token: token };
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
  /** Refuses hosts that resolve to addresses the policy forbids (DNS resolution in the CLI). */
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

async function requireOrganization(directory: DirectoryStore, orgId: string): Promise<Organization> {
  const org = await directory.getOrganization(orgId);
  if (!org) throw new NotFoundError(`org: no organization ${orgId}.`);
  return org;
}
