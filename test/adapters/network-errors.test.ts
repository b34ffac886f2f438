import { describe, expect, it } from 'vitest';
import { describeNetworkError } from '#adapters/http/http-webhook-sender';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe("an attempt's TLS failure", () => {
  it('says the receiver requires a client certificate only when its alert says so', () => {
    expect(describeNetworkError(failure('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'))).toMatch(
      /requires a client certificate it accepts/,
    );
  });

  it('names both causes of a generic handshake failure', () => {
    const text = describeNetworkError(failure('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'));
    expect(text).not.toMatch(/requires a client certificate/);
    expect(text).toMatch(/no client certificate it accepts, or no TLS version or cipher in common/);
  });
});
