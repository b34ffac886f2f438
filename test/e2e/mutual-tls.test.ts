/**
 * Mutual TLS per endpoint end to end (issue 18): a real HTTPS receiver on 127.0.0.1 that requires a
 * client certificate from a test CA (made by openssl here). Without the certificate the attempt fails with
 * a clear `response_body`; with the account's `tls_client_certificate`/`tls_client_key` the webhook
 * arrives, presenting that certificate; the views show subject, issuer and expiry, never the key; a key of
 * another certificate, or an RSA key of 1024 bits the sender's TLS refuses, is refused with 400 and loses
 * nothing. A certificate that got in before that check (written to the store here, as an older Herald
 * saved it) makes recorded failed attempts, not a message that loops unrecorded (issue 28).
 */
import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { LocalSecretSealer } from '#adapters/secrets/local-secret-sealer';
import { summarize } from '#domain/endpoint-security/client-certificate';
import type { Account } from '#domain/model';
import { clientKeyContext } from '#domain/signing/secret-sealer';
import { saveEndpointSecurity } from '#use-cases/accounts/endpoint-security';
import { testIban } from '../support/delivery-queue-helpers';
import { expectProblem } from '../support/e2e-http';
import { TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { createTestCa } from '../support/test-ca';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const IBAN = 'PT50000201231234567890154';
const ca = createTestCa();
const server = ca.issue('127.0.0.1', { server: true });
const client = ca.issue('herald-client');
const stranger = ca.issue('not-herald');
const weak = ca.issue('weak-herald', { key: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });
const arrived: { id: string; peer: string; contentType: string | undefined }[] = [];
let receiver: Server;
let url = '';

beforeAll(async () => {
  receiver = createServer(
    { cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '';
      req.resume();
      req.on('end', () => {
        arrived.push({
          id: String(req.headers['webhook-id']),
          peer: String(peer),
          contentType: req.headers['content-type'],
        });
        res.end('ok');
      });
    },
  );
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver?.close();
  ca.remove();
});

async function publish(account = IBAN): Promise<string> {
  const id = randomUUID();
  const published = await op.admin('POST', '/events', {
    account,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: id }),
    id,
  });
  expect(published.status, published.text).toBe(201);
  return id;
}

describe('mutual TLS per endpoint', () => {
  it('fails clearly without the client certificate and delivers with it', { timeout: 90_000 }, async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'mTLS' })).body as {
      id: string;
      api_key: string;
    };
    const put = (body: Record<string, unknown>) =>
      op.api.call(`/accounts/${IBAN}`, {
        method: 'PUT',
        key: org.api_key,
        body: { webhook_url: url, ...body },
      });
    expect((await op.admin('PUT', `/admin/accounts/${IBAN}`, { org: org.id, webhook_url: url })).status).toBe(
      200,
    );
    // The receiver's private CA only: the connection is trusted, but no certificate is presented.
    const withCa = await put({ tls_ca_certificate: ca.cert });
    expect(withCa.status, withCa.text).toBe(200);
    expect((withCa.body as Record<string, unknown>).tls_ca_certificate).toMatchObject({
      subject: 'CN=Herald Test CA',
    });

    const refused = await publish();
    const failed = await waitFor(
      async () => {
        const view = (await op.api.call(`/events/${refused}`, { key: org.api_key })).body as {
          webhook_deliveries: { response_status: number; response_body: string }[];
        };
        return view.webhook_deliveries[0];
      },
      { timeoutMs: 30_000, what: 'the first attempt' },
    );
    expect(failed.response_status).toBe(0);
    expect(failed.response_body).toMatch(/requires a client certificate/);
    expect(arrived.find((a) => a.id === refused)).toBeUndefined();

    const withClient = await put({ tls_client_certificate: client.cert, tls_client_key: client.key });
    expect(withClient.status, withClient.text).toBe(200);
    const shown = withClient.body as Record<string, unknown>;
    expect(shown.tls_client_certificate).toEqual({
      subject: 'CN=herald-client',
      issuer: 'CN=Herald Test CA',
      expires_at: new Date(new X509Certificate(client.cert).validTo)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' '),
    });
    expect(withClient.text).not.toContain('PRIVATE KEY');
    expect(shown.tls_ca_certificate).toMatchObject({ subject: 'CN=Herald Test CA' });

    const delivered = await publish();
    const got = await waitFor(() => arrived.find((a) => a.id === delivered), {
      timeoutMs: 30_000,
      what: 'the webhook',
    });
    expect(got.peer).toBe('herald-client');

    // A key of another certificate: 400 naming the field, and the stored certificate still goes out.
    const bad = await put({ tls_client_certificate: client.cert, tls_client_key: stranger.key });
    expect(expectProblem(bad, 400).invalid_params).toEqual([
      { name: 'tls_client_key', reason: expect.stringContaining('does not match') },
    ]);
    const alone = await put({ tls_client_certificate: client.cert });
    expect(expectProblem(alone, 400).invalid_params?.[0]?.name).toBe('tls_client_key');
    // An RSA key of 1024 bits, which the sender's TLS refuses: 400 saying which keys it takes.
    const tooSmall = await put({ tls_client_certificate: weak.cert, tls_client_key: weak.key });
    expect(expectProblem(tooSmall, 400).invalid_params).toEqual([
      {
        name: 'tls_client_certificate',
        reason: expect.stringMatching(
          /has an RSA key of 1024 bits, which TLS cannot use; allowed: RSA keys of 2048/,
        ),
      },
    ]);
    const again = await publish();
    expect(
      (await waitFor(() => arrived.find((a) => a.id === again), { timeoutMs: 30_000, what: 'the webhook' }))
        .peer,
    ).toBe('herald-client');
  });

  it('records a failed attempt, saying why, for a certificate the sender cannot use that was saved before the check', {
    timeout: 90_000,
  }, async () => {
    const account = testIban();
    const org = (await op.admin('POST', '/admin/organizations', { name: 'weak mTLS' })).body as {
      id: string;
      api_key: string;
    };
    const created = await op.admin('PUT', `/admin/accounts/${account}`, { org: org.id, webhook_url: url });
    expect(created.status, created.text).toBe(200);
    // Written as a Herald without the check would have: the certificate, its key sealed for the account.
    const runtime = op.fixture.runtime;
    const documents = createDocumentClient();
    try {
      const sealer = new LocalSecretSealer(runtime.secretsKeyFile);
      const pkcs8 = createPrivateKey(weak.key).export({ format: 'der', type: 'pkcs8' });
      const sealedKey = await sealer.seal(new Uint8Array(pkcs8), clientKeyContext(org.id, account));
      const summary = summarize(new X509Certificate(weak.cert));
      await saveEndpointSecurity(
        new DynamoEndpointSecretStore(documents, runtime.tableName),
        { iban: account, orgId: org.id } as Account,
        { tlsClient: { certificate: weak.cert, sealedKey, summary } },
      );
    } finally {
      documents.destroy();
    }
    const id = await publish(account);
    const first = await waitFor(
      async () => {
        const view = (await op.api.call(`/events/${id}`, { key: org.api_key })).body as {
          webhook_retries: number;
          webhook_deliveries: { response_status: number; response_body: string }[];
        };
        return view.webhook_deliveries.length > 0 ? view : undefined;
      },
      { timeoutMs: 30_000, what: 'the first attempt recorded' },
    );
    expect(first.webhook_retries).toBe(first.webhook_deliveries.length);
    expect(first.webhook_deliveries[0]).toMatchObject({
      response_status: 0,
      response_body:
        "TLS: this runtime refuses the endpoint's client certificate (ERR_SSL_EE_KEY_TOO_SMALL); save one it accepts",
    });
    expect(arrived.find((a) => a.id === id)).toBeUndefined();
  });
});
