/**
 * Test events on demand (issue 31) with fakes and an injected clock: a type's example goes to the
 * account's URL through the delivery's own request steps, signed (`v1` verified by `standardwebhooks`,
 * `v1a` with the listed public key), encrypted and over mutual TLS as the endpoint asks, marked as a test
 * in a header and in the signed body (`sequence` null), answered with the receiver's answer; nothing is
 * stored but the account's counter; ten a minute per account; another organization's account is not
 * found; the URL policy refuses as at delivery.
 */

import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { compactDecrypt } from 'jose';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { JosePayloadEncrypter } from '#adapters/crypto/jose-payload-encrypter';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { TEST_EVENTS_PER_WINDOW } from '#config/limits';
import { sendTestEvent, type TestEventDeps } from '#delivery/test-event';
import { BusyError, NotFoundError, RateLimitedError, UnprocessableError } from '#domain/errors';
import { BUILT_IN_EVENT_TYPES, builtInEventType } from '#domain/event-types/catalog';
import { unknownEventType } from '#domain/event-types/unknown-names';
import type { WebhookRequest } from '#domain/ports';
import { SealerUnavailableError } from '#domain/signing/secret-sealer';
import { webhookBody } from '#domain/webhook-body';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { prepareEndpointSecurity, saveEndpointSecurity } from '#use-cases/accounts/endpoint-security';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { putEventType } from '#use-cases/event-types/put-event-type';
import { rotateSigningKey } from '#use-cases/organizations/signing-keys';
import { CARD_DECLARATION, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import { type FakeClock, fakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { FakeTestEventAllowance } from '../support/fakes/test-event-allowance';
import { answer, FakeWebhookSender } from '../support/fakes/webhook-sender';
import { createTestCa } from '../support/test-ca';

const IBAN = 'DE89370400440532013000';
const OTHER_IBAN = 'GB82WEST12345698765432';
const BASE = 'https://api.example.test/v1';
const TYPE = 'credit_transfer_status_change';
const CARD = 'acme.card_settled';

interface World {
  readonly deps: TestEventDeps;
  readonly clock: FakeClock;
  readonly directory: InMemoryDirectoryStore;
  readonly sender: FakeWebhookSender;
  readonly allowance: FakeTestEventAllowance;
  readonly sealer: FakeSecretSealer;
  readonly secrets: FakeEndpointSecretStore;
  readonly eventTypes: InMemoryEventTypeStore;
}

/**
 * Half a minute into the next minute: mid-window, and near enough to the real time for standardwebhooks'
 * timestamp check and for certificates issued now.
 */
const START = (Math.floor(Date.now() / 60_000) + 1) * 60_000 + 30_000;

/** Two organizations, each with an account whose URL is set; the clock mid-minute. */
function world(): World {
  const clock = fakeClock(START);
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization('org-1');
  directory.addOrganization('org-2');
  directory.addAccount({ iban: IBAN, webhookUrl: 'https://hooks.example.com/herald?token=s3cret' });
  directory.addAccount({ iban: OTHER_IBAN, orgId: 'org-2', webhookUrl: 'https://other.example.com/' });
  const sender = new FakeWebhookSender(() => ({ status: 202, body: 'accepted', elapsedMs: 31 }));
  const allowance = new FakeTestEventAllowance();
  const sealer = new FakeSecretSealer();
  const secrets = new FakeEndpointSecretStore(directory);
  const eventTypes = new InMemoryEventTypeStore();
  const deps: TestEventDeps = {
    directory,
    sealer,
    endpointSecrets: secrets,
    encrypter: new JosePayloadEncrypter(),
    sender,
    urlPolicy: 'public-https',
    allowance,
    catalog: createEventTypeCatalog({ store: eventTypes, now: clock.now }),
    now: clock.now,
  };
  return { deps, clock, directory, sender, allowance, sealer, secrets, eventTypes };
}

const request = (overrides: Partial<Parameters<typeof sendTestEvent>[1]> = {}) => ({
  orgId: 'org-1',
  iban: IBAN,
  type: TYPE,
  baseUrl: BASE,
  ...overrides,
});

function only(sender: FakeWebhookSender): WebhookRequest {
  expect(sender.requests).toHaveLength(1);
  const [sent] = sender.requests;
  if (!sent) throw new Error('nothing sent');
  return sent;
}

describe('a test event', () => {
  it("sends the latest version's first example, signed, marked in a header and in the body, and answers what the receiver answered", async () => {
    const w = world();
    const [key] = await rotateSigningKey(
      { directory: w.directory, sealer: w.sealer },
      'org-1',
      0,
      w.clock.now(),
    );
    const sent = await sendTestEvent(w.deps, request());
    const http = only(w.sender);
    const definition = builtInEventType(TYPE);
    const latest = definition?.versions.at(-1);
    expect(sent).toMatchObject({ type: TYPE, version: latest?.version, example: latest?.examples[0]?.name });
    // The account as parsed: what the handler logs (masked), not the caller's spelling.
    const spelled = await sendTestEvent(w.deps, request({ iban: 'de89 3704 0044 0532 0130 00' }));
    expect(spelled.account).toBe('DE89370400440532013000');
    expect(sent.attempt).toMatchObject({
      responseStatus: 202,
      responseBody: 'accepted',
      responseTimeMs: 31,
      url: 'https://hooks.example.com/herald?token=***',
    });
    expect(sent.attempt.signingKeys).toHaveLength(2);
    expect(sent.attempt.signingKeys).toContain(key?.id);
    // Marked: the header, and the signed body.
    expect(http.headers['Herald-Test']).toBe('true');
    const body = JSON.parse(http.body);
    expect(body).toMatchObject({
      id: sent.id,
      type: TYPE,
      type_version: latest?.version,
      account: IBAN,
      sequence: null,
      test: true,
    });
    expect(body.payload).toEqual(latest?.examples[0]?.payload);
    // Otherwise exactly a real webhook's body: the same fields in the same order, then `test`.
    const real = JSON.parse(
      webhookBody({
        ...body,
        typeVersion: body.type_version,
        sequence: 1,
        triggeredAt: w.clock.iso(),
        payloadJson: '{}',
        baseUrl: BASE,
      }),
    );
    expect(Object.keys(body)).toEqual([...Object.keys(real), 'test']);
    expect(body._links).toEqual(real._links);
    // Signed as any webhook: the organization's token (`v1`, what standardwebhooks checks) and key (`v1a`).
    const token = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    const headers = {
      'webhook-id': http.headers['webhook-id'] ?? '',
      'webhook-timestamp': http.headers['webhook-timestamp'] ?? '',
      'webhook-signature': http.headers['webhook-signature'] ?? '',
    };
    expect(headers['webhook-id']).toBe(sent.id);
    expect(new Webhook(token).verify(http.body, headers)).toMatchObject({ test: true });
    expect(() =>
      new Webhook(token).verify(http.body.replace('"test":true', '"test":false'), headers),
    ).toThrow();
    const v1a = headers['webhook-signature'].split(' ').find((entry) => entry.startsWith('v1a,')) ?? '';
    const x = Buffer.from((key?.publicKey ?? '').slice('whpk_'.length), 'base64').toString('base64url');
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
    const signed = Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${http.body}`);
    expect(verify(null, signed, publicKey, Buffer.from(v1a.slice('v1a,'.length), 'base64'))).toBe(true);
    expect(http.headers['X-Signature']).toMatch(/^t=\d+,sha256=[0-9a-f]{64}$/);
  });

  it('sends the version and example asked for; an unknown type, version or example is 422 naming what the catalog has', async () => {
    const w = world();
    const definition = builtInEventType('direct_debit_status_change');
    const version = definition?.versions[0];
    const example = version?.examples.at(-1);
    const sent = await sendTestEvent(
      w.deps,
      request({ type: 'direct_debit_status_change', version: version?.version, example: example?.name }),
    );
    expect(sent).toMatchObject({ version: version?.version, example: example?.name });
    expect(JSON.parse(only(w.sender).body).payload).toEqual(example?.payload);
    const names = BUILT_IN_EVENT_TYPES.map((known) => known.type).sort();
    // The publish's wording: one refusal of an unknown type and of an unknown version.
    await expect(sendTestEvent(w.deps, request({ type: 'no_such_type' }))).rejects.toEqual(
      unknownEventType('no_such_type', names),
    );
    await expect(sendTestEvent(w.deps, request({ type: 'no_such_type' }))).rejects.toMatchObject({
      kind: 'unprocessable',
      params: [
        {
          name: 'type',
          reason: `no_such_type is not an event type of the catalog; the known types are ${names.join(', ')}`,
        },
      ],
    });
    await expect(sendTestEvent(w.deps, request({ version: 9 }))).rejects.toMatchObject({
      params: [{ name: 'version', reason: `${TYPE} has no version 9; it has version 1` }],
    });
    await expect(sendTestEvent(w.deps, request({ example: 'nope' }))).rejects.toThrow(UnprocessableError);
    // Refused before the counter: a typo uses none of the account's test events.
    expect(w.allowance.counters.get(`org-1#${IBAN}`)?.sent).toBe(1);
    expect(w.sender.requests).toHaveLength(1);
  });

  it("refuses an operational notice's type (400 naming type): Herald sends those; nothing sent or counted", async () => {
    const w = world();
    await expect(sendTestEvent(w.deps, request({ type: 'endpoint_disabled' }))).rejects.toMatchObject({
      kind: 'invalid',
      params: [
        {
          name: 'type',
          reason: expect.stringMatching(/^endpoint_disabled is reserved for Herald's operational notices/),
        },
      ],
    });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.allowance.counters.size).toBe(0);
  });

  it("sends an operator's type: its latest version's example, or the version asked for, registered a moment ago", async () => {
    const w = world();
    await putEventType(w.eventTypes, { type: CARD, ...CARD_DECLARATION });
    const first = await sendTestEvent(w.deps, request({ type: CARD }));
    expect(first).toMatchObject({ type: CARD, version: 1, example: 'settled' });
    expect(JSON.parse(w.sender.requests[0]?.body ?? '')).toMatchObject({
      type: CARD,
      type_version: 1,
      payload: { amount: '12.50' },
      test: true,
    });
    // A second version: the latest at once (test events trust no cached head), version 1 on request.
    await putEventType(w.eventTypes, { type: CARD, schema: CARD_V2, examples: CARD_V2_EXAMPLES });
    expect(await sendTestEvent(w.deps, request({ type: CARD }))).toMatchObject({ version: 2 });
    expect(JSON.parse(w.sender.requests[1]?.body ?? '').payload).toEqual({
      amount: '12.50',
      currency: 'EUR',
    });
    expect(await sendTestEvent(w.deps, request({ type: CARD, version: 1 }))).toMatchObject({ version: 1 });
    await expect(sendTestEvent(w.deps, request({ type: CARD, version: 3 }))).rejects.toMatchObject({
      params: [{ name: 'version', reason: `${CARD} has no version 3; it has versions 1 to 2` }],
    });
  });

  it('stores nothing but the counter: the account and its endpoint health stay as they were, whatever the receiver answers', async () => {
    const w = world();
    w.sender.answer = () => answer(500);
    const before = structuredClone(w.directory.accounts.get(IBAN));
    const sent = await sendTestEvent(w.deps, request());
    expect(sent.attempt).toMatchObject({ responseStatus: 500, responseBody: 'status 500' });
    expect(w.directory.accounts.get(IBAN)).toEqual(before);
    // The deps hold no event store, queue or health store: nothing else can be written.
    expect(Object.keys(w.deps).sort()).toEqual(
      [
        'allowance',
        'catalog',
        'directory',
        'encrypter',
        'endpointSecrets',
        'now',
        'sealer',
        'sender',
        'urlPolicy',
      ].sort(),
    );
    expect([...w.allowance.counters.keys()]).toEqual([`org-1#${IBAN}`]);
    // Sent even to a disabled endpoint: a test checks a receiver before it is enabled again.
    w.directory.addAccount({
      ...w.directory.accounts.get(IBAN),
      iban: IBAN,
      health: { state: 'disabled', consecutiveFailures: 40, reason: 'answered 410 Gone' },
    });
    w.sender.answer = () => answer(204);
    expect((await sendTestEvent(w.deps, request())).attempt.responseStatus).toBe(204);
  });

  it(`takes at most ${TEST_EVENTS_PER_WINDOW} a minute per account, then 429 with the seconds to the next minute`, async () => {
    const w = world();
    for (let i = 0; i < TEST_EVENTS_PER_WINDOW; i++) await sendTestEvent(w.deps, request());
    const refused = await sendTestEvent(w.deps, request()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ retryAfterSeconds: 30 });
    expect(w.sender.requests).toHaveLength(TEST_EVENTS_PER_WINDOW);
    // Another account's budget is its own.
    w.directory.addAccount({
      iban: 'FR1420041010050500013M02606',
      webhookUrl: 'https://hooks.example.com/b',
    });
    await sendTestEvent(w.deps, request({ iban: 'FR1420041010050500013M02606' }));
    // The next minute starts again.
    w.clock.advance(30_000);
    await sendTestEvent(w.deps, request());
    expect(w.sender.requests).toHaveLength(TEST_EVENTS_PER_WINDOW + 2);
  });

  it('leaves no counter behind for an account deleted while the test was under way (nothing sent)', async () => {
    const w = world();
    const take = w.allowance.take.bind(w.allowance);
    w.allowance.take = async (orgId, iban, window) => {
      // The deletion runs between the account's read and the counter's write, and removes the counter first.
      w.directory.accounts.delete(IBAN);
      await w.allowance.forget(orgId, iban);
      return take(orgId, iban, window);
    };
    await expect(sendTestEvent(w.deps, request())).rejects.toThrow(NotFoundError);
    expect(w.allowance.counters.size).toBe(0);
    expect(w.sender.requests).toHaveLength(0);
  });

  it('is busy (503, nothing sent) when the key service does not answer now', async () => {
    const w = world();
    await rotateSigningKey({ directory: w.directory, sealer: w.sealer }, 'org-1', 0, w.clock.now());
    w.sealer.open = () => Promise.reject(new SealerUnavailableError());
    await expect(sendTestEvent(w.deps, request())).rejects.toThrow(BusyError);
    expect(w.sender.requests).toHaveLength(0);
  });

  it("is not found for another organization's account (nothing sent, nothing counted); an operator tests any account as its organization", async () => {
    const w = world();
    await expect(sendTestEvent(w.deps, request({ iban: OTHER_IBAN }))).rejects.toThrow(NotFoundError);
    await expect(sendTestEvent(w.deps, request({ iban: 'NL91ABNA0417164300' }))).rejects.toThrow(
      NotFoundError,
    );
    expect(w.sender.requests).toHaveLength(0);
    expect(w.allowance.counters.size).toBe(0);
    await sendTestEvent(w.deps, request({ orgId: undefined, iban: OTHER_IBAN }));
    const token = w.directory.organizations.get('org-2')?.webhookToken ?? '';
    const http = only(w.sender);
    expect(
      new Webhook(token).verify(http.body, {
        'webhook-id': http.headers['webhook-id'] ?? '',
        'webhook-timestamp': http.headers['webhook-timestamp'] ?? '',
        'webhook-signature': http.headers['webhook-signature'] ?? '',
      }),
    ).toMatchObject({ account: OTHER_IBAN });
    expect([...w.allowance.counters.keys()]).toEqual([`org-2#${OTHER_IBAN}`]);
  });

  it('is refused by the URL policy as a delivery is: status 0 and why, nothing sent', async () => {
    const w = world();
    w.directory.addAccount({ iban: IBAN, webhookUrl: 'http://hooks.example.com/plain' });
    const sent = await sendTestEvent(w.deps, request());
    expect(sent.attempt).toMatchObject({ responseStatus: 0, signingKeys: [] });
    expect(sent.attempt.responseBody).toMatch(/^refused: /);
    expect(w.sender.requests).toHaveLength(0);
  });

  it('is a conflict for an account without a URL', async () => {
    const w = world();
    w.directory.addAccount({ iban: IBAN });
    await expect(sendTestEvent(w.deps, request())).rejects.toMatchObject({ kind: 'conflict' });
    expect(w.allowance.counters.size).toBe(0);
  });

  it('leaves no counter behind once its account is deleted', async () => {
    const w = world();
    await sendTestEvent(w.deps, request());
    const events = { latestSequence: async () => 0 } as never;
    await deleteAccount(
      {
        directory: w.directory,
        events,
        now: w.clock.now,
        testEvents: w.allowance,
        endpoints: new InMemoryEndpointStore(w.directory),
        notices: new InMemoryOperationalLog(),
      },
      { iban: IBAN, erase: false },
    );
    expect(w.allowance.counters.size).toBe(0);
  });
});

describe('a test event to an endpoint with security material', () => {
  const ca = createTestCa();
  afterAll(() => ca.remove());
  const client = ca.issue('test-event-client');
  const receiver = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const context = (w: World) => ({ orgId: 'org-1', iban: IBAN, nowMs: w.clock.now(), sealer: w.sealer });

  it("is encrypted to the endpoint's payload key and sent over its client certificate and CA", async () => {
    const w = world();
    const account = w.directory.accounts.get(IBAN);
    if (!account) throw new Error('no account');
    const change = {
      payloadEncryptionKey: receiver.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      tlsClientCertificate: client.cert,
      tlsClientKey: client.key,
      tlsCaCertificate: ca.cert,
    };
    await saveEndpointSecurity(w.secrets, account, await prepareEndpointSecurity(change, context(w)));
    await sendTestEvent(w.deps, request());
    const http = only(w.sender);
    expect(http.headers['Content-Type']).toBe('application/jose');
    expect(http.headers['Herald-Test']).toBe('true');
    const { plaintext } = await compactDecrypt(http.body, receiver.privateKey);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toMatchObject({ test: true, sequence: null });
    expect(http.tls).toMatchObject({ cert: client.cert, ca: ca.cert });
    expect(http.tls?.key).toContain('PRIVATE KEY');
  });
});
