/**
 * The endpoint-security part of an account's view: only what identifies the material, never the material
 * (write-only fields).
 */
import type {
  CertificateSummary,
  EndpointSecuritySummary,
} from '#domain/endpoint-security/endpoint-security';
import { renderTimestamp } from '#domain/time';
import type { ENDPOINT_SECURITY_VIEW } from '#http/openapi/endpoint-security';
import type { ObjectOf } from '#http/schema';

/** A certificate as the views show it. */
type CertificateView = NonNullable<EndpointSecurityView['tls_client_certificate']>;

/** The fields an account view adds. */
export type EndpointSecurityView = ObjectOf<typeof ENDPOINT_SECURITY_VIEW>;

/** The view of an account's summary (null fields when it has none). */
export function toEndpointSecurityView(summary: EndpointSecuritySummary | undefined): EndpointSecurityView {
  const payload = summary?.payloadEncryption;
  return {
    payload_encryption: payload ? { key_id: payload.keyId, bits: payload.bits } : null,
    tls_client_certificate: certificateView(summary?.tlsClient),
    tls_ca_certificate: certificateView(summary?.tlsCa),
  };
}

function certificateView(summary: CertificateSummary | undefined): CertificateView | null {
  return summary
    ? { subject: summary.subject, issuer: summary.issuer, expires_at: renderTimestamp(summary.expiresAt) }
    : null;
}
