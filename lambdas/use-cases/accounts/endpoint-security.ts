/**
 * An account endpoint's security (issue 18): the fields of `PUT /accounts/{iban}` beyond the URL, checked
 * before anything is written (so bad input loses nothing already stored), then stored beside the account.
 */

import type {
  EndpointSecrets,
  EndpointSecurityChange,
  EndpointSecuritySummary,
  PayloadKeySummary,
  RsaPublicJwk,
} from '#domain/endpoint-security/endpoint-security';
import { isEmptyChange } from '#domain/endpoint-security/endpoint-security';
import { parsePayloadKey } from '#domain/endpoint-security/payload-key';
import type { EndpointSecretStore } from '#domain/endpoint-security/ports';
import { NotFoundError } from '#domain/errors';
import type { Account } from '#domain/model';

/** A checked change: per field, unchanged (undefined), removed (null) or the new value. */
export interface PreparedSecurity {
  readonly payload?: { readonly jwk: RsaPublicJwk; readonly summary: PayloadKeySummary } | null;
}

/**
 * Checks a change before the account is written.
 *
 * @throws ValidationError naming the field and what it allows
 */
export function prepareEndpointSecurity(change: EndpointSecurityChange): PreparedSecurity {
  const key = change.payloadEncryptionKey;
  return key === undefined ? {} : { payload: key === null ? null : parsePayloadKey(key) };
}

/**
 * Applies a checked change to the organization's account, keeping every field it does not name.
 *
 * @returns the account with its new summary
 * @throws NotFoundError when the account is not the organization's
 */
export async function saveEndpointSecurity(
  store: EndpointSecretStore,
  account: Account,
  prepared: PreparedSecurity,
): Promise<Account> {
  if (isEmptyChange(prepared)) return account;
  const current = account.endpointSecurity
    ? await store.getSecrets(account.iban, { consistent: true })
    : undefined;
  const keep = prepared.payload === undefined;
  const secrets: EndpointSecrets = {
    payloadEncryptionKey: keep ? current?.payloadEncryptionKey : (prepared.payload?.jwk ?? undefined),
  };
  const summary: EndpointSecuritySummary = {
    payloadEncryption: keep
      ? account.endpointSecurity?.payloadEncryption
      : (prepared.payload?.summary ?? undefined),
  };
  if (!(await store.saveSecurity(account.iban, account.orgId, summary, secrets))) {
    throw new NotFoundError(`No account ${account.iban}.`);
  }
  return { ...account, endpointSecurity: summary };
}
