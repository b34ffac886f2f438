/**
 * The layout of endpoint security: the summary map on the account item (`endpoint_security`) and the
 * endpoint's own item (`ENDPOINT#<iban>` / `ENDPOINT`) with the material.
 */
import type {
  CertificateSummary,
  EndpointSecrets,
  EndpointSecuritySummary,
  RsaPublicJwk,
} from '#domain/endpoint-security/endpoint-security';

/** The account item's attribute holding the summary. */
export const ENDPOINT_SECURITY = 'endpoint_security';

/** The stored summary map, or undefined when there is nothing to summarise. */
export function endpointSecurityItem(summary: EndpointSecuritySummary): Record<string, unknown> | undefined {
  const item: Record<string, unknown> = {};
  if (summary.payloadEncryption) {
    item.payload_encryption = {
      key_id: summary.payloadEncryption.keyId,
      bits: summary.payloadEncryption.bits,
    };
  }
  if (summary.tlsClient) item.tls_client = certificateItem(summary.tlsClient);
  if (summary.tlsCa) item.tls_ca = certificateItem(summary.tlsCa);
  return Object.keys(item).length === 0 ? undefined : item;
}

/** The summary of a stored map. */
export function toEndpointSecurity(value: unknown): EndpointSecuritySummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, Record<string, unknown> | undefined>;
  const payload = map.payload_encryption;
  return {
    payloadEncryption: payload ? { keyId: String(payload.key_id), bits: Number(payload.bits) } : undefined,
    tlsClient: toCertificate(map.tls_client),
    tlsCa: toCertificate(map.tls_ca),
  };
}

function certificateItem(summary: CertificateSummary): Record<string, string> {
  return { subject: summary.subject, issuer: summary.issuer, expires_at: summary.expiresAt };
}

function toCertificate(map: Record<string, unknown> | undefined): CertificateSummary | undefined {
  return map
    ? { subject: String(map.subject), issuer: String(map.issuer), expiresAt: String(map.expires_at) }
    : undefined;
}

/** Every attribute of the material (an absent one is removed when the item is saved). */
export const MATERIAL_ATTRIBUTES = [
  'payload_encryption_key',
  'tls_client_certificate',
  'tls_client_key_sealed',
  'tls_ca_certificate',
] as const;

/** The endpoint item's attributes of the material. */
export function secretsItem(secrets: EndpointSecrets): Record<string, string> {
  const item: Record<string, string> = {};
  if (secrets.payloadEncryptionKey)
    item.payload_encryption_key = JSON.stringify(secrets.payloadEncryptionKey);
  if (secrets.tlsClient) {
    item.tls_client_certificate = secrets.tlsClient.certificate;
    item.tls_client_key_sealed = secrets.tlsClient.sealedKey;
  }
  if (secrets.tlsCa) item.tls_ca_certificate = secrets.tlsCa;
  return item;
}

/** The material of a stored endpoint item. */
export function toEndpointSecrets(item: Record<string, unknown>): EndpointSecrets {
  const key = item.payload_encryption_key;
  const {
    tls_client_certificate: certificate,
    tls_client_key_sealed: sealedKey,
    tls_ca_certificate: ca,
  } = item;
  return {
    payloadEncryptionKey: typeof key === 'string' ? (JSON.parse(key) as RsaPublicJwk) : undefined,
    tlsClient:
      typeof certificate === 'string' && typeof sealedKey === 'string'
        ? { certificate, sealedKey }
        : undefined,
    tlsCa: typeof ca === 'string' ? ca : undefined,
  };
}
