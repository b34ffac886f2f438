/**
 * Encrypted payloads end to end (issue 18): an organization key sets its receiver's RSA key on an account;
 * the real receiver gets `application/jose`, whose HMAC covers the bytes sent and which the Node
 * (`jose`) and Python (`cryptography` only) snippets of `docs/receiver-security.md` decrypt to the
 * event's JSON; the API keeps showing the plain event; a bad key answers 400 naming the field and
 * changes nothing; null turns encryption off.
 */
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/e2e-http';
import { type Received, TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { runNodeSnippet, runPythonSnippet, type SnippetCall } from '../support/receiver-snippets';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const IBAN = 'IT60X0542811101000000123456';
const receiverKey = generateKeyPairSync('rsa', { modulusLength: 3072 });
const PUBLIC_PEM = receiverKey.publicKey.export({ format: 'pem', type: 'spki' }).toString();
const PRIVATE_PEM = receiverKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

async function publishAndReceive(
  payload: Record<string, unknown>,
): Promise<{ id: string; request: Received }> {
  const id = randomUUID();
  const published = await op.admin('POST', '/events', { account: IBAN, type: TRANSFER, payload, id });
  expect(published.status, published.text).toBe(201);
  const request = await waitFor(() => op.fixture.received.find((r) => r.headers['webhook-id'] === id), {
    timeoutMs: 30_000,
    what: `the webhook of ${id}`,
  });
  return { id, request };
}

describe('encrypted payloads', () => {
  it('reach the receiver as JWE that the documented snippets decrypt; the API shows the plain event', {
    timeout: 90_000,
  }, async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'JWE' })).body as {
      id: string;
      api_key: string;
      webhook_token: string;
    };
    const url = `${op.fixture.receiverUrl}/ok`;
    expect((await op.admin('PUT', `/admin/accounts/${IBAN}`, { org: org.id, webhook_url: url })).status).toBe(
      200,
    );
    const put = await op.api.call(`/accounts/${IBAN}`, {
      method: 'PUT',
      key: org.api_key,
      body: { webhook_url: url, payload_encryption_key: PUBLIC_PEM },
    });
    expect(put.status, put.text).toBe(200);
    const view = put.body as { payload_encryption: { key_id: string; bits: number } };
    expect(view.payload_encryption).toMatchObject({
      bits: 3072,
      key_id: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(put.text).not.toContain(PUBLIC_PEM.split('\n')[1]);

    const payload = transferPayload({
      remittance_information: 'Rechnung für Müller, 12 €',
      creditor: { name: 'Jürgen Groß', iban: 'DE89370400440532013000' },
    });
    const { id, request } = await publishAndReceive(payload);
    expect(request.headers['content-type']).toBe('application/jose');
    const key = Buffer.from(org.webhook_token.slice('whsec_'.length), 'base64');
    const signed = `${id}.${request.headers['webhook-timestamp']}.${request.body}`;
    expect(String(request.headers['webhook-signature'])).toContain(
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
    );
    const event = (await op.api.call(`/events/${id}`, { key: org.api_key })).body as Record<string, unknown>;
    expect(event.payload).toEqual(payload);
    const call: SnippetCall = {
      args: [PRIVATE_PEM, Buffer.from(request.body).toString('base64')],
      bodyArg: 1,
    };
    const [fromNode] = await runNodeSnippet('jwe-receiver', 'decryptWebhook', [call]);
    const [fromPython] = runPythonSnippet('jwe-receiver', 'decrypt_webhook', [call]);
    for (const decrypted of [fromNode, fromPython]) {
      expect(decrypted).toMatchObject({ id, type: TRANSFER, account: IBAN, payload });
    }

    // A bad key: 400 naming the field, and the stored key still encrypts.
    const bad = await op.api.call(`/accounts/${IBAN}`, {
      method: 'PUT',
      key: org.api_key,
      body: {
        webhook_url: url,
        payload_encryption_key: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
      },
    });
    expect(expectProblem(bad, 400).invalid_params).toEqual([
      { name: 'payload_encryption_key', reason: expect.stringContaining('2048 to 8192 bits') },
    ]);
    const still = (await op.api.call(`/accounts/${IBAN}`, { key: org.api_key })).body as typeof view;
    expect(still.payload_encryption).toEqual(view.payload_encryption);

    // The operator turns it off with null: plain JSON again.
    const off = await op.admin('PUT', `/admin/accounts/${IBAN}`, {
      org: org.id,
      webhook_url: url,
      payload_encryption_key: null,
    });
    expect((off.body as typeof view).payload_encryption).toBeNull();
    const plain = await publishAndReceive(transferPayload({ transfer_id: 'tr_plain' }));
    expect(plain.request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(plain.request.body)).toMatchObject({
      id: plain.id,
      payload: { transfer_id: 'tr_plain' },
    });
  });
});
