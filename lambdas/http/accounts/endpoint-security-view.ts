/**
 * The endpoint-security part of an account's view: only what identifies the material, never the material
 * (write-only fields).
 */
import type { EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';

/** The fields an account view adds. */
export interface EndpointSecurityView {
  /** Webhook bodies are JWE-encrypted to this key; null: sent as plain JSON. */
  readonly payload_encryption: { readonly key_id: string; readonly bits: number } | null;
}

/** The view of an account's summary (null fields when it has none). */
export function toEndpointSecurityView(summary: EndpointSecuritySummary | undefined): EndpointSecurityView {
  const payload = summary?.payloadEncryption;
  return { payload_encryption: payload ? { key_id: payload.keyId, bits: payload.bits } : null };
}
