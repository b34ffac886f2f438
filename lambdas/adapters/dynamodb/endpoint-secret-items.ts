/**
 * The layout of endpoint security: the summary map on the account item (`endpoint_security`) and the
 * endpoint's own item (`ENDPOINT#<iban>` / `ENDPOINT`) with the material.
 */
import type {
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
  return Object.keys(item).length === 0 ? undefined : item;
}

/** The summary of a stored map. */
export function toEndpointSecurity(value: unknown): EndpointSecuritySummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, Record<string, unknown> | undefined>;
  const payload = map.payload_encryption;
  return {
    payloadEncryption: payload ? { keyId: String(payload.key_id), bits: Number(payload.bits) } : undefined,
  };
}

/** Every attribute of the material (an absent one is removed when the item is saved). */
export const MATERIAL_ATTRIBUTES = ['payload_encryption_key'] as const;

/** The endpoint item's attributes of the material. */
export function secretsItem(secrets: EndpointSecrets): Record<string, string> {
  return secrets.payloadEncryptionKey
    ? { payload_encryption_key: JSON.stringify(secrets.payloadEncryptionKey) }
    : {};
}

/** The material of a stored endpoint item. */
export function toEndpointSecrets(item: Record<string, unknown>): EndpointSecrets {
  const key = item.payload_encryption_key;
  return { payloadEncryptionKey: typeof key === 'string' ? (JSON.parse(key) as RsaPublicJwk) : undefined };
}
