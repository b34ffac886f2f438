/**
 * Test events on demand end to end (issue 31), through the local runtime with its real handlers: a test
 * event reaches a real receiver marked as a test (`Herald-Test: true`, `"test": true`, `sequence` null),
 * its signatures verified by `standardwebhooks` (`v1`) and with the listed Ed25519 key (`v1a`); it is not
 * stored and takes no sequence (the account's next event gets the next one); the answer is the
 * receiver's, as the OpenAPI document says; another organization's account is 404, a `read` key 403, the
 * eleventh in a minute 429; the operator's twin signs as the account's organization; an endpoint with a
 * payload key and a client certificate gets a JWE over mutual TLS.
 */
import { createPublicKey, generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { compactDecrypt } from 'jose';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_EVENTS_PER_WINDOW } from '#config/limits';
import type { TestEventView } from '#http/accounts/test-event-view';
import { testIban } from '../support/delivery-queue-helpers';
import { expectProblem } from '../support/e2e-http';
import { CARD_DECLARATION, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import { type Received, TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { createTestCa } from '../support/test-ca';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const TIMEOUT = { timeout: 90_000 };

interface Org {
  id: string;
  api_key: string;
  webhook_token: string;
}

/** A new organization with one account whose webhook URL is the fixture's receiver. */
async function organization(name: string): Promise<{ org: Org; iban: string }> {
  const created = await op.admin('POST', '/admin/organizations', { name });
  expect(created.status, created.text).toBe(201);
  const org = created.body as Org;
  const iban = testIban();
  const put = await op.admin('PUT', `/admin/accounts/${iban}`, {
    org: org.id,
    webhook_url: `${op.fixture.receiverUrl}/ok`,
  });
  expect(put.status, put.text).toBe(200);
  return { org, iban };
}

function sendTest(org: Org, iban: string, body: unknown = { type: TRANSFER }) {
  return op.api.call(`/accounts/${iban}/test-events`, { method: 'POST', key: org.api_key, body });
}

function arrival(id: string): Promise<Received> {
  return waitFor(() => op.fixture.received.find((r) => r.headers['webhook-id'] === id), {
    timeoutMs: 30_000,
    what: `the webhook ${id}`,
  });
}

async function publish(iban: string): Promise<Received> {
  const id = randomUUID();
  const payload = transferPayload({ transfer_id: `tr_${id}` });
  const published = await op.admin('POST', '/events', { account: iban, type: TRANSFER, payload, id });
  expect(published.status, published.text).toBe(201);
  return arrival(id);
}

const signatureHeaders = (request: Received) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

describe('a test event', () => {
  it(
    'reaches the receiver marked and signed as a webhook, is not stored and takes no sequence',
    TIMEOUT,
    async () => {
      const { org, iban } = await organization('Test events');
      const first = JSON.parse((await publish(iban)).body) as { sequence: number };
      expect(first.sequence).toBe(1);

      const answered = await sendTest(org, iban);
      expect(answered.status, answered.text).toBe(200);
      const sent = answered.body as TestEventView;
      expect(sent).toMatchObject({
        type: TRANSFER,
        version: 1,
        delivery: { response_status: 200, url: `${op.fixture.receiverUrl}/ok` },
      });
      expect(sent.delivery.signing_keys).toEqual([
        expect.stringMatching(/^whk_[0-9a-f]{16}$/),
        expect.stringMatching(/^whak_[0-9a-f]{16}$/),
      ]);
      const request = await arrival(sent.id);
      expect(request.headers['herald-test']).toBe('true');
      const body = JSON.parse(request.body);
      expect(body).toMatchObject({
        id: sent.id,
        type: TRANSFER,
        type_version: 1,
        account: iban,
        sequence: null,
        test: true,
      });
      expect(Object.keys(body)).toEqual([
        'id',
        'type',
        'type_version',
        'account',
        'sequence',
        'triggered_at',
        'payload',
        '_links',
        'test',
      ]);
      // Verified as any webhook: standardwebhooks with the organization's token, v1a with its listed key.
      expect(new Webhook(org.webhook_token).verify(request.body, signatureHeaders(request))).toMatchObject({
        test: true,
      });
      const keys = (await op.api.call('/webhook-keys', { key: org.api_key })).body as {
        public_key: string;
      }[];
      const x = Buffer.from((keys[0]?.public_key ?? '').slice('whpk_'.length), 'base64').toString(
        'base64url',
      );
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
      const v1a = String(request.headers['webhook-signature'])
        .split(' ')
        .find((entry) => entry.startsWith('v1a,'));
      const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
      expect(
        verify(null, Buffer.from(signed), publicKey, Buffer.from((v1a ?? '').slice('v1a,'.length), 'base64')),
      ).toBe(true);

      // Nothing stored: the test's id is no event, the account's next event takes sequence 2.
      expectProblem(await op.api.call(`/events/${sent.id}`, { key: org.api_key }), 404);
      const second = JSON.parse((await publish(iban)).body) as { sequence: number };
      expect(second.sequence).toBe(2);
      const feed = await op.api.call(`/accounts/${iban}/events?after_sequence=0`, { key: org.api_key });
      expect((feed.body as { sequence: number }[]).map((event) => event.sequence)).toEqual([1, 2]);
      const account = await op.api.call(`/accounts/${iban}`, { key: org.api_key });
      expect((account.body as { webhook_health: { state: string } }).webhook_health.state).toBe('healthy');
    },
  );

  it(
    "answers what the receiver answered; refuses another organization's account, a read key and an unknown type",
    TIMEOUT,
    async () => {
      const { org, iban } = await organization('Test answers');
      await op.admin('PUT', `/admin/accounts/${iban}`, {
        org: org.id,
        webhook_url: `${op.fixture.receiverUrl}/broken`,
      });
      const failing = await sendTest(org, iban, { type: 'direct_debit_status_change' });
      expect(failing.status, failing.text).toBe(200);
      expect((failing.body as TestEventView).delivery).toMatchObject({ response_status: 500 });
      const account = await op.api.call(`/accounts/${iban}`, { key: org.api_key });
      expect((account.body as { webhook_health: { state: string } }).webhook_health.state).toBe('healthy');

      const other = await organization('Someone else');
      expectProblem(await sendTest(other.org, iban), 404);
      const readKey = await op.admin('POST', `/admin/organizations/${org.id}/api-keys`, {
        name: 'reader',
        scope: 'read',
      });
      const reader = { ...org, api_key: (readKey.body as { api_key: string }).api_key };
      expectProblem(await sendTest(reader, iban), 403);
      const unknown = expectProblem(await sendTest(org, iban, { type: 'no_such_type' }), 422);
      // The publish's words: one refusal of a type outside the catalog.
      expect(unknown.invalid_params?.[0]).toMatchObject({
        name: 'type',
        reason: expect.stringMatching(
          /^no_such_type is not an event type of the catalog; the known types are .*credit_transfer_status_change/,
        ),
      });
      expectProblem(await sendTest(org, iban, { type: TRANSFER, sequence: 3 }), 400);
    },
  );

  it(
    "sends an operator's type: the latest version's example, or the version asked for",
    TIMEOUT,
    async () => {
      const { org, iban } = await organization('Operator types tested');
      const type = `acme.card_settled_${randomUUID().slice(0, 8)}`;
      const registered = await op.admin('PUT', `/admin/event-types/${type}`, CARD_DECLARATION);
      expect(registered.status, registered.text).toBe(201);
      const first = await sendTest(org, iban, { type });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ type, version: 1, example: 'settled' });
      const v1 = JSON.parse((await arrival((first.body as TestEventView).id)).body);
      expect(v1).toMatchObject({ type, type_version: 1, payload: { amount: '12.50' }, test: true });

      const changed = await op.admin('PUT', `/admin/event-types/${type}`, {
        schema: CARD_V2,
        examples: CARD_V2_EXAMPLES,
      });
      expect(changed.status, changed.text).toBe(200);
      const latest = await sendTest(org, iban, { type });
      expect(latest.body).toMatchObject({ type, version: 2 });
      const v2 = JSON.parse((await arrival((latest.body as TestEventView).id)).body);
      expect(v2).toMatchObject({ type_version: 2, payload: { amount: '12.50', currency: 'EUR' } });
      expect((await sendTest(org, iban, { type, version: 1 })).body).toMatchObject({ version: 1 });
      const missing = expectProblem(await sendTest(org, iban, { type, version: 3 }), 422);
      expect(missing.invalid_params).toEqual([
        { name: 'version', reason: `${type} has no version 3; it has versions 1 to 2` },
      ]);
    },
  );

  it(`takes ${TEST_EVENTS_PER_WINDOW} a minute per account, then 429 with Retry-After`, TIMEOUT, async () => {
    const { org, iban } = await organization('Rate limited');
    // Not across a minute's end, where the count starts again.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 35_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    for (let i = 0; i < TEST_EVENTS_PER_WINDOW; i++) expect((await sendTest(org, iban)).status).toBe(200);
    const refused = await sendTest(org, iban);
    const problem = expectProblem(refused, 429);
    expect(problem.type).toBe('https://herald.dev/problems/rate-limited');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // Another account of the organization has its own.
    const next = testIban();
    await op.admin('PUT', `/admin/accounts/${next}`, {
      org: org.id,
      webhook_url: `${op.fixture.receiverUrl}/ok`,
    });
    expect((await sendTest(org, next)).status).toBe(200);
  });

  it("is sent by the operator's twin as the account's organization", TIMEOUT, async () => {
    const { org, iban } = await organization('Operator test');
    const answered = await op.admin('POST', `/admin/accounts/${iban}/test-events`, {
      type: 'credit_received',
    });
    expect(answered.status, answered.text).toBe(200);
    const sent = answered.body as TestEventView;
    expect(sent.type).toBe('credit_received');
    const request = await arrival(sent.id);
    expect(new Webhook(org.webhook_token).verify(request.body, signatureHeaders(request))).toMatchObject({
      account: iban,
      test: true,
    });
    expectProblem(
      await op.admin('POST', `/admin/accounts/${testIban()}/test-events`, { type: TRANSFER }),
      404,
    );
  });
});

describe('a test event to an endpoint with a payload key and a client certificate', () => {
  const ca = createTestCa();
  const server = ca.issue('127.0.0.1', { server: true });
  const client = ca.issue('herald-test-client');
  const receiverKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const arrived: {
    peer: string;
    contentType: string | undefined;
    herald: string | undefined;
    body: string;
  }[] = [];
  let receiver: Server;
  let url = '';

  beforeAll(async () => {
    receiver = createServer(
      { cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          arrived.push({
            peer: String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''),
            contentType: req.headers['content-type'],
            herald: req.headers['herald-test'] as string | undefined,
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.end('decrypted, thanks');
        });
      },
    );
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => {
    receiver?.close();
    ca.remove();
  });

  it('goes as a JWE over mutual TLS, as a delivery would', TIMEOUT, async () => {
    const { org, iban } = await organization('Secure test events');
    const put = await op.api.call(`/accounts/${iban}`, {
      method: 'PUT',
      key: org.api_key,
      body: {
        webhook_url: url,
        payload_encryption_key: receiverKey.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        tls_client_certificate: client.cert,
        tls_client_key: client.key,
        tls_ca_certificate: ca.cert,
      },
    });
    expect(put.status, put.text).toBe(200);
    const answered = await sendTest(org, iban);
    expect(answered.status, answered.text).toBe(200);
    expect((answered.body as TestEventView).delivery).toMatchObject({
      response_status: 200,
      response_body: 'decrypted, thanks',
    });
    const [got] = arrived;
    expect(arrived).toHaveLength(1);
    expect(got).toMatchObject({
      peer: 'herald-test-client',
      contentType: 'application/jose',
      herald: 'true',
    });
    const { plaintext } = await compactDecrypt(got?.body ?? '', receiverKey.privateKey);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toMatchObject({ account: iban, test: true });
  });
});
