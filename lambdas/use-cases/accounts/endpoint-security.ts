/**
 * An account endpoint's security (issue 18): the fields of `PUT /accounts/{iban}` beyond the URL, checked
 * (and the client key sealed) before anything is written, so bad input loses nothing already stored, then
 * stored beside the account.
 */
import { checkCaCertificate, checkClientCertificate } from '#domain/endpoint-security/client-certificate';
import type {
  CertificateSummary,
  EndpointSecrets,
  EndpointSecurityChange,
  EndpointSecuritySummary,
  PayloadKeySummary,
  RsaPublicJwk,
} from '#domain/endpoint-security/endpoint-security';
import { isEmptyChange } from '#domain/endpoint-security/endpoint-security';
import { parsePayloadKey } from '#domain/endpoint-security/payload-key';
import type { EndpointSecretStore, TlsMaterialCheck } from '#domain/endpoint-security/ports';
import type { EndpointAddress } from '#domain/endpoints/address';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { clientKeyContext, type SecretSealer } from '#domain/signing/secret-sealer';

/** A checked change: per field, unchanged (undefined), removed (null) or the new value. */
export interface PreparedSecurity {
  readonly payload?: { readonly jwk: RsaPublicJwk; readonly summary: PayloadKeySummary } | null;
  readonly tlsClient?: {
    readonly certificate: string;
    readonly sealedKey: string;
    readonly summary: CertificateSummary;
  } | null;
  readonly tlsCa?: { readonly pem: string; readonly summary: CertificateSummary } | null;
}

/**
 * Whose endpoint a change is for, and when: the client key is sealed for that organization, account and
 * (an extra one) endpoint.
 */
export interface PrepareContext extends EndpointAddress {
  readonly nowMs: number;
  /** Seals the client key; a deployment always has one where accounts are written. */
  readonly sealer?: SecretSealer | undefined;
  /** Whether the runtime's TLS can use a certificate (with its key) or a CA; every account writer has one. */
  readonly checkTls?: TlsMaterialCheck | undefined;
}

/**
 * Checks a change before the account is written, and seals a new client key. A certificate, key or CA
 * the sender's TLS could not use is refused here, before the key is sealed: saved, it would fail every
 * attempt.
 *
 * @throws ValidationError naming the field and what it allows
 */
export async function prepareEndpointSecurity(
  change: EndpointSecurityChange,
  context: PrepareContext,
): Promise<PreparedSecurity> {
  const prepared: { -readonly [K in keyof PreparedSecurity]: PreparedSecurity[K] } = {};
  const key = change.payloadEncryptionKey;
  if (key !== undefined) prepared.payload = key === null ? null : parsePayloadKey(key);
  const ca = change.tlsCaCertificate;
  if (ca === null) prepared.tlsCa = null;
  if (typeof ca === 'string') {
    const summary = checkCaCertificate(ca, context.nowMs);
    context.checkTls?.({ ca });
    prepared.tlsCa = { pem: ca, summary };
  }
  const { tlsClientCertificate: certificate, tlsClientKey: clientKey } = change;
  if (
    (certificate === undefined) !== (clientKey === undefined) ||
    (certificate === null) !== (clientKey === null)
  ) {
    const missing =
      certificate === undefined || certificate === null ? 'tls_client_certificate' : 'tls_client_key';
    throw new ValidationError(
      missing,
      'tls_client_certificate and tls_client_key go together: both PEM, or both null',
    );
  }
  if (certificate === null) prepared.tlsClient = null;
  if (typeof certificate === 'string' && typeof clientKey === 'string') {
    const checked = checkClientCertificate(certificate, clientKey, context.nowMs);
    // The key as the sender will get it once opened: PKCS #8 PEM.
    const key = checked.key.export({ format: 'pem', type: 'pkcs8' }).toString();
    context.checkTls?.({ cert: certificate, key });
    if (!context.sealer) throw new Error('no secrets key configured: client keys cannot be stored');
    const pkcs8 = new Uint8Array(checked.key.export({ format: 'der', type: 'pkcs8' }));
    const sealedKey = await context.sealer.seal(
      pkcs8,
      clientKeyContext(context.orgId, context.iban, context.extra),
    );
    pkcs8.fill(0);
    prepared.tlsClient = { certificate, sealedKey, summary: checked.summary };
  }
  return prepared;
}

/** Saves racing this one are retried this often before the request answers 409. */
const SAVE_TRIES = 5;

/**
 * Applies a checked change to the organization's endpoint, keeping every field it does not name: reads
 * the committed material and writes it back changed, with its summary, in one transaction that holds
 * only if no other save came between (else it reads again), so concurrent changes of different fields
 * all stay and the endpoint's summary always names what the material holds.
 *
 * @param endpoint - where the endpoint is, and its summary as read
 * @returns the endpoint's new summary
 * @throws NotFoundError when the endpoint is not the organization's
 * @throws ConflictError when other saves kept winning
 */
export async function saveEndpointSecurity(
  store: Pick<EndpointSecretStore, 'readForUpdate' | 'saveSecurity'>,
  endpoint: EndpointAddress & { readonly security?: EndpointSecuritySummary | undefined },
  prepared: PreparedSecurity,
): Promise<EndpointSecuritySummary | undefined> {
  if (isEmptyChange(prepared)) return endpoint.security;
  const address: EndpointAddress = { iban: endpoint.iban, orgId: endpoint.orgId, extra: endpoint.extra };
  for (let attempt = 1; attempt <= SAVE_TRIES; attempt++) {
    const current = await store.readForUpdate(address);
    const was = current.summary ?? (current.version > 0 ? endpoint.security : undefined);
    const { secrets, summary } = applyChange(prepared, current.secrets, was);
    const outcome = await store.saveSecurity(address, { summary, secrets, version: current.version });
    if (outcome === 'not-found') throw new NotFoundError(`No ${endpointName(address)}.`);
    if (outcome === 'saved') return summary;
  }
  const which = address.extra === undefined ? 'endpoint' : `endpoint ${address.extra}`;
  throw new ConflictError(`The ${which} of ${address.iban} is being changed by other requests; try again.`);
}

/**
 * The material and summary a checked change leaves: each field changed (a value), removed (null) or, left
 * out, as it was.
 */
export function applyChange(
  prepared: PreparedSecurity,
  secrets: EndpointSecrets | undefined,
  summary: EndpointSecuritySummary | undefined,
): { readonly secrets: EndpointSecrets; readonly summary: EndpointSecuritySummary } {
  const pick = <T, U>(change: T | null | undefined, kept: U | undefined, fresh: (value: T) => U) =>
    change === undefined ? kept : change === null ? undefined : fresh(change);
  return {
    secrets: {
      payloadEncryptionKey: pick(prepared.payload, secrets?.payloadEncryptionKey, (p) => p.jwk),
      tlsClient: pick(prepared.tlsClient, secrets?.tlsClient, (t) => ({
        certificate: t.certificate,
        sealedKey: t.sealedKey,
      })),
      tlsCa: pick(prepared.tlsCa, secrets?.tlsCa, (c) => c.pem),
    },
    summary: {
      payloadEncryption: pick(prepared.payload, summary?.payloadEncryption, (p) => p.summary),
      tlsClient: pick(prepared.tlsClient, summary?.tlsClient, (t) => t.summary),
      tlsCa: pick(prepared.tlsCa, summary?.tlsCa, (c) => c.summary),
    },
  };
}

/** How a refusal names an endpoint: an extra one by its id, the default one by its account. */
export function endpointName(endpoint: EndpointAddress): string {
  return endpoint.extra === undefined
    ? `account ${endpoint.iban}`
    : `endpoint ${endpoint.extra} of account ${endpoint.iban}`;
}
