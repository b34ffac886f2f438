/**
 * `PUT /accounts/{iban}` (an organization's key) and the operator's `PUT /admin/accounts/{iban}`: the
 * webhook URL, the delivery order and the endpoint's security together, each changed only when the
 * request names it (absent keeps what is stored, `null` removes it). The order keeps each failure safe:
 *
 * 1. ownership first: another organization's IBAN costs no KMS call and writes nothing;
 * 2. the URL and the security change are checked (the client key sealed) before any write;
 * 3. the security is written (material and summary in one transaction), then the URL. A new URL
 *    therefore never receives plain JSON that the same request asked to encrypt, nor an attempt without
 *    the client certificate it asked for. If the URL write fails after the security write, the request
 *    answers an error and the security change stands on the old URL; the same request sent again is
 *    idempotent and completes it. An operator's new account is created without a URL first (its events
 *    would be recorded `skipped` for the few milliseconds until the URL write).
 */

import { ibanHoldsEventsError, ibanTakenError } from '#domain/account-ownership';
import type {
  EndpointSecurityChange,
  EndpointSecuritySummary,
} from '#domain/endpoint-security/endpoint-security';
import { isEmptyChange } from '#domain/endpoint-security/endpoint-security';
import type { EndpointSecretStore, TlsMaterialCheck } from '#domain/endpoint-security/ports';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import { ValidationError } from '#domain/errors';
import { parseIban } from '#domain/iban';
import type { Account } from '#domain/model';
import type { DirectoryStore, EventLog } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import { requireOrganization } from '#use-cases/organizations/require-organization';
import { type AccountInput, getAccount, type PutAccountOptions, putAccount } from './accounts';
import { type PreparedSecurity, prepareEndpointSecurity, saveEndpointSecurity } from './endpoint-security';

/** What putting an endpoint needs. */
export interface PutEndpointDeps {
  readonly directory: DirectoryStore;
  /** The account's log: a switch to ordered starts the watermark at its latest sequence. */
  readonly events: Pick<EventLog, 'latestSequence'>;
  readonly endpointSecrets: Pick<EndpointSecretStore, 'readForUpdate' | 'saveSecurity'>;
  readonly sealer?: SecretSealer | undefined;
  readonly policy: UrlPolicy;
  /** Refuses hosts that resolve to addresses the policy forbids (DNS resolution). */
  readonly checkHost?: (url: URL) => Promise<void>;
  /** Refuses a certificate, key or CA the sender's TLS could not use, in this runtime. */
  readonly checkTls: TlsMaterialCheck;
  readonly now: () => number;
}

/**
 * The request: the account's URL, order and security change (each absent keeps what is stored, `null`
 * removes it), and whether it may create the account.
 */
export interface PutEndpointInput extends AccountInput {
  readonly security: EndpointSecurityChange;
  /** The operator's route creates the account; an organization's key only changes its own. */
  readonly mayCreate: boolean;
}

/**
 * Sets the account's URL and endpoint security.
 *
 * @returns the stored account
 * @throws NotFoundError for another organization's account (an organization's key) or an unknown one
 * @throws ConflictError for another organization's IBAN (operator)
 * @throws ValidationError naming the field at fault; nothing is written then
 */
export async function putEndpoint(deps: PutEndpointDeps, input: PutEndpointInput): Promise<Account> {
  const iban = parseIban('iban', input.iban);
  const request = {
    orgId: input.orgId,
    iban,
    webhookUrl: input.webhookUrl,
    ...(input.deliveryOrder === undefined ? {} : { deliveryOrder: input.deliveryOrder }),
    eventTypes: input.eventTypes,
    filter: input.filter,
    description: input.description,
  };
  const existing = input.mayCreate
    ? await ownOrFree(deps.directory, input.orgId, iban)
    : await getAccount(deps.directory, input.orgId, iban);
  const url =
    typeof input.webhookUrl === 'string' ? checkWebhookUrl(input.webhookUrl, deps.policy) : undefined;
  if (url) await deps.checkHost?.(url);
  let prepared: PreparedSecurity = {};
  if (!isEmptyChange(input.security)) {
    const context = {
      orgId: input.orgId,
      iban,
      nowMs: deps.now(),
      sealer: deps.sealer,
      checkTls: deps.checkTls,
    };
    prepared = await prepareEndpointSecurity(input.security, context);
  }
  requireHttpsForClientCertificate(
    targetUrl(input.webhookUrl, url, existing?.webhookUrl),
    prepared,
    existing?.security,
  );
  // The host was checked above: the writes below check the URL's form only.
  if (isEmptyChange(prepared)) return putAccount(deps.directory, request, deps.policy, orderStart(deps));
  const account = existing ?? (await putAccount(deps.directory, { orgId: input.orgId, iban }, deps.policy));
  await saveEndpointSecurity(deps.endpointSecrets, defaultEndpoint(account), prepared);
  return putAccount(deps.directory, request, deps.policy, orderStart(deps));
}

/** The organization's account of the IBAN, undefined when the IBAN is free (or its own tombstone's). */
async function ownOrFree(
  directory: DirectoryStore,
  orgId: string,
  iban: string,
): Promise<Account | undefined> {
  await requireOrganization(directory, orgId);
  const account = await directory.getAccount(iban, { consistent: true });
  if (account && account.orgId !== orgId) throw ibanTakenError(iban);
  if (account) return account;
  const tombstone = await directory.getAccountTombstone(iban);
  if (tombstone && tombstone.orgId !== orgId) throw ibanHoldsEventsError(iban);
  return undefined;
}

/** The URL an endpoint has after the write: the one given, none when removed, else the one stored. */
export function targetUrl(
  given: string | null | undefined,
  checked: URL | undefined,
  stored: string | undefined,
): URL | undefined {
  if (given !== undefined) return checked;
  return stored === undefined ? undefined : (URL.parse(stored) ?? undefined);
}

/**
 * A client certificate is presented only in a TLS handshake: an `http:` URL would silently send the
 * webhook without it, so the combination is refused (this request's or the one stored).
 */
export function requireHttpsForClientCertificate(
  url: URL | undefined,
  prepared: PreparedSecurity,
  stored: EndpointSecuritySummary | undefined,
): void {
  const certificate = prepared.tlsClient === undefined ? stored?.tlsClient : prepared.tlsClient;
  if (url?.protocol === 'http:' && certificate) {
    throw new ValidationError(
      'tls_client_certificate',
      'is presented only over https: the webhook_url must be https for a client certificate',
    );
  }
}

/** What a put that makes the account ordered needs: the log's latest sequence, read consistently. */
export function orderStart(deps: Pick<PutEndpointDeps, 'events'>): PutAccountOptions {
  return { latestSequence: (orgId, iban) => deps.events.latestSequence(orgId, iban, { consistent: true }) };
}
