/**
 * The endpoint-security part of an account's view: only what identifies the material, never the material
 * (write-only fields).
 */
import type {
  CertificateSummary,
  EndpointSecuritySummary,
} from '#domain/endpoint-security/endpoint-security';
import { renderTimestamp } from '#domain/time';

/** A certificate as the views show it. */
export interface CertificateView {
  readonly subject: string;
  readonly issuer: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly expires_at: string;
}

/** The fields an account view adds. */
export interface EndpointSecurityView {
  /** Webhook bodies are JWE-encrypted to this key; null: sent as plain JSON. */
  readonly payload_encryption: { readonly key_id: string; readonly bits: number } | null;
  /** The client certificate every attempt presents; null: none. */
  readonly tls_client_certificate: CertificateView | null;
  /** The CA trusted for the receiver; null: the public roots. */
  readonly tls_ca_certificate: CertificateView | null;
}

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
