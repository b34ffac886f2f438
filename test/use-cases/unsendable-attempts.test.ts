/**
 * Every failure of a send is a recorded attempt (issue 28): a sender that throws (synchronously or not),
 * a client key that does not open, a body that does not encrypt: each becomes a failed attempt with
 * status 0 and a short reason (no secret, no URL), counted in the cycle like an unanswered request, so
 * `webhook_retries` equals the recorded attempts, the cycle ends at 20 and an ordered account's next
 * events go on after it. A store that fails still throws, as before (the message comes back).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '#config/delivery';
import { deliverBatch } from '#delivery/deliver-batch';
import { deliverEvent } from '#delivery/deliver-event';
import type { SendResult, WebhookRequest } from '#domain/ports';
import { SealerUnavailableError } from '#domain/signing/secret-sealer';
import { prepareEndpointSecurity, saveEndpointSecurity } from '#use-cases/accounts/endpoint-security';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { createTestCa } from '../support/test-ca';

/** What OpenSSL throws for a key below its security level; its message quotes a secret URL here. */
const tooSmall = () =>
  Object.assign(new Error('https://hooks.example.com/herald?token=s3cret refused'), {
    code: 'ERR_SSL_EE_KEY_TOO_SMALL',
    reason: 'ee key too small',
  });

/** A sender that throws as `how` says, counting what it was asked to send. */
function throwingSender(how: 'sync' | 'async', error: () => Error = tooSmall) {
  const requests: WebhookRequest[] = [];
  return {
    requests,
    send(request: WebhookRequest): Promise<SendResult> {
      requests.push(request);
      if (how === 'sync') throw error();
      return Promise.reject(error());
    },
  };
}

/** Delivers `id`'s message until its event settles, each time as the queue brings it back. */
async function untilSettled(w: DeliveryWorld, deps: DeliveryWorld['deps'], id: string): Promise<number> {
  let receives = 0;
  while (w.events.events.get(id)?.webhookStatus === 'pending' && receives < 200) {
    receives++;
    const postponed = w.queue.postponed.length;
    await deliverBatch(deps, [message(id, { sentAt: w.clock.now() })]);
    w.clock.advance((w.queue.postponed.at(postponed)?.seconds ?? 0) * 1000);
  }
  return receives;
}

describe('an attempt Herald cannot make', () => {
  it.each(['sync', 'async'] as const)(
    'is recorded as failed when the sender throws (%s), saying why without the message',
    async (how) => {
      const w = deliveryWorld();
      const sender = throwingSender(how);
      w.events.seed({ id: 'e1' });
      const outcome = await deliverEvent({ ...w.deps, sender }, { id: 'e1' });
      expect(outcome).toMatchObject({
        kind: 'retry',
        notSentError: expect.objectContaining({ code: 'ERR_SSL_EE_KEY_TOO_SMALL' }),
      });
      expect(sender.requests).toHaveLength(1);
      const event = w.events.events.get('e1');
      expect(event).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
      expect(event?.deliveries).toEqual([
        expect.objectContaining({
          responseStatus: 0,
          responseBody:
            'not sent: Herald could not make the request (ERR_SSL_EE_KEY_TOO_SMALL: ee key too small)',
          url: 'https://hooks.example.com/herald',
          signingKeys: [],
        }),
      ]);
      expect(JSON.stringify(event)).not.toContain('s3cret');
    },
  );

  it('names a thrown error without a code by its kind only', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    const sender = throwingSender(
      'async',
      () => new TypeError('Invalid URL https://x.example/?token=s3cret'),
    );
    await deliverEvent({ ...w.deps, sender }, { id: 'e1' });
    expect(w.events.events.get('e1')?.deliveries[0]?.responseBody).toBe(
      'not sent: Herald could not make the request (TypeError)',
    );
  });

  it('uses its cycle like any failure: 20 recorded attempts, webhook_retries equal to them, no 21st, nothing escapes', async () => {
    for (const how of ['sync', 'async'] as const) {
      const w = deliveryWorld({ failureThreshold: 100 });
      const deps = { ...w.deps, sender: throwingSender(how) };
      w.events.seed({ id: 'e1' });
      await untilSettled(w, deps, 'e1');
      const event = w.events.events.get('e1');
      expect(event).toMatchObject({ webhookStatus: 'failed', webhookRetries: MAX_ATTEMPTS });
      expect(event?.deliveries).toHaveLength(MAX_ATTEMPTS);
      expect(deps.sender.requests).toHaveLength(MAX_ATTEMPTS);
      // Every message was handled: none was kept by an error for the queue to bring back without end.
      expect(w.errors).toEqual([]);
      expect(w.outcomes.map((o) => o.kind)).toEqual([...Array(MAX_ATTEMPTS - 1).fill('retry'), 'exhausted']);
      // A message that comes again finds the event settled.
      await deliverBatch(deps, [message('e1')]);
      expect(w.events.events.get('e1')?.deliveries).toHaveLength(MAX_ATTEMPTS);
      expect(deps.sender.requests).toHaveLength(MAX_ATTEMPTS);
    }
  });

  it("leaves the endpoint's health alone: no request, nothing learnt about the receiver", async () => {
    const w = deliveryWorld();
    const deps = { ...w.deps, sender: throwingSender('sync') };
    for (let n = 1; n <= 8; n++) {
      w.events.seed({ id: `e${n}` });
      expect(await deliverEvent(deps, { id: `e${n}` })).toMatchObject({ kind: 'retry' });
    }
    // Eight recorded attempts, and the circuit (five failures) never opened.
    expect(w.events.events.get('e8')).toMatchObject({ webhookRetries: 1 });
    expect(w.directory.accounts.get(w.iban)?.health).toBeUndefined();
  });

  it("lets an ordered account's next event go once the cycle is used up", async () => {
    const w = deliveryWorld({ failureThreshold: 100 });
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    w.directory.accounts.set(w.iban, { ...account, deliveryOrder: 'ordered' });
    for (const n of [1, 2]) w.events.seed({ id: `e${n}`, account: w.iban, sequence: n });
    const deps = { ...w.deps, sender: throwingSender('sync') };
    await untilSettled(w, deps, 'e1');
    expect(w.events.events.get('e1')).toMatchObject({
      webhookStatus: 'failed',
      webhookRetries: MAX_ATTEMPTS,
    });
    expect(w.directory.accounts.get(w.iban)?.settledThrough).toBe(1);
  });
});

describe('a request that cannot be prepared', () => {
  const ca = createTestCa();
  afterAll(() => ca.remove());
  const client = ca.issue('unsendable-client');
  const CONTEXT = { orgId: 'org-1', iban: 'DE89370400440532013000', nowMs: Date.now() };

  /** A world whose account presents a client certificate, its key sealed by `sealer`. */
  async function mutualTls(sealer = new FakeSecretSealer()) {
    const w = deliveryWorld();
    const store = new FakeEndpointSecretStore(w.directory);
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    const change = { tlsClientCertificate: client.cert, tlsClientKey: client.key };
    await saveEndpointSecurity(store, account, await prepareEndpointSecurity(change, { ...CONTEXT, sealer }));
    return { ...w, store, deps: { ...w.deps, endpointSecrets: store, sealer } };
  }

  it('is recorded as failed when the client key does not open: nothing is sent', async () => {
    const w = await mutualTls();
    const opening = Object.assign(new Error('KMS: AccessDeniedException for arn:aws:kms:…'), {
      code: 'AccessDeniedException',
    });
    const sealer = { seal: w.deps.sealer.seal.bind(w.deps.sealer), open: () => Promise.reject(opening) };
    w.events.seed({ id: 'e1' });
    const outcome = await deliverEvent({ ...w.deps, sealer }, { id: 'e1' });
    expect(outcome).toMatchObject({ kind: 'retry', notSentError: opening });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('e1')).toMatchObject({
      webhookRetries: 1,
      deliveries: [
        {
          responseStatus: 0,
          responseBody: "not sent: the endpoint's TLS client key could not be opened (AccessDeniedException)",
          signingKeys: [],
        },
      ],
    });
  });

  it('throws when the key service does not answer now: nothing sent, nothing recorded', async () => {
    const w = await mutualTls();
    const busy = new SealerUnavailableError({ cause: new Error('ThrottlingException') });
    const sealer = { seal: w.deps.sealer.seal.bind(w.deps.sealer), open: () => Promise.reject(busy) };
    w.events.seed({ id: 'e1' });
    await expect(deliverEvent({ ...w.deps, sealer }, { id: 'e1' })).rejects.toBe(busy);
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('e1')).toMatchObject({ webhookRetries: 0, deliveries: [] });
    expect(w.directory.accounts.get(w.iban)?.health).toBeUndefined();
  });

  it('is recorded as failed when the body does not encrypt: nothing is sent, plain JSON least of all', async () => {
    const w = deliveryWorld();
    const store = new FakeEndpointSecretStore(w.directory);
    const account = w.directory.accounts.get(w.iban);
    if (!account) throw new Error('no account');
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      format: 'pem',
      type: 'spki',
    });
    await saveEndpointSecurity(
      store,
      account,
      await prepareEndpointSecurity({ payloadEncryptionKey: key.toString() }, CONTEXT),
    );
    const encrypter = { encrypt: () => Promise.reject(new RangeError('bad modulus')) };
    w.events.seed({ id: 'e1' });
    await deliverEvent({ ...w.deps, endpointSecrets: store, encrypter }, { id: 'e1' });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('e1')?.deliveries).toEqual([
      expect.objectContaining({
        responseStatus: 0,
        responseBody: "not sent: the body could not be encrypted to the endpoint's payload key (RangeError)",
      }),
    ]);
  });

  it('delivers with the same material once the key opens again', async () => {
    const w = await mutualTls();
    w.events.seed({ id: 'e1' });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'delivered' });
    expect(w.sender.requests[0]?.tls).toMatchObject({
      cert: client.cert,
      key: expect.stringMatching(/PRIVATE KEY/),
    });
    ca.remove();
  });

  it('still throws when the store cannot be read: that is the consumer’s trouble, not the attempt’s', async () => {
    const w = await mutualTls();
    w.store.getSecrets = () => Promise.reject(new Error('throttled'));
    w.events.seed({ id: 'e1' });
    await expect(deliverEvent(w.deps, { id: 'e1' })).rejects.toThrow(/throttled/);
    expect(w.events.events.get('e1')).toMatchObject({ webhookRetries: 0, deliveries: [] });
  });
});
