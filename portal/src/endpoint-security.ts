/**
 * What an endpoint demands beyond HTTPS, on its card: the client certificate (mutual TLS) with its
 * expiry, flagged within 14 days (when the consumer's alarm fires too), the private CA, and whether
 * payloads are encrypted. Write-only material is never shown: the API answers none.
 */
import { h } from './dom';

/** A certificate as the account view shows it. */
interface CertificateView {
  subject: string;
  issuer: string;
  expires_at: string;
}

/** The endpoint-security fields of an account view (see the `Account` schema). */
export interface EndpointSecurityFields {
  payload_encryption?: { key_id: string; bits: number } | null;
  tls_client_certificate?: CertificateView | null;
  tls_ca_certificate?: CertificateView | null;
}

const WARNING_DAYS = 14;

/** Days until an API time (`YYYY-MM-DD HH:MM:SS`, UTC), rounded down. */
function daysUntil(time: string): number {
  return Math.floor((Date.parse(`${time.replace(' ', 'T')}Z`) - Date.now()) / 86_400_000);
}

/** The card's lines about the endpoint's certificate, CA and payload encryption (none when it has none). */
export function securityLines(account: EndpointSecurityFields): HTMLElement[] {
  const lines: HTMLElement[] = [];
  const client = account.tls_client_certificate;
  if (client) {
    const days = daysUntil(client.expires_at);
    lines.push(
      h(
        'p',
        { class: 'muted', 'data-certificate': 'client' },
        days < WARNING_DAYS
          ? h('span', { class: 'badge s-degraded' }, days < 0 ? 'expired' : `expires in ${days} days`)
          : null,
        ` Client certificate ${client.subject} (issued by ${client.issuer}), valid until ${client.expires_at} UTC`,
      ),
    );
  }
  const ca = account.tls_ca_certificate;
  if (ca)
    lines.push(h('p', { class: 'muted' }, `Receiver CA ${ca.subject}, valid until ${ca.expires_at} UTC`));
  const payload = account.payload_encryption;
  if (payload) {
    lines.push(
      h(
        'p',
        { class: 'muted mono' },
        `Payloads encrypted (JWE, RSA ${payload.bits}) to key ${payload.key_id}`,
      ),
    );
  }
  return lines;
}
