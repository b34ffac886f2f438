/**
 * Publishing through the library (`createPublisher`) against DynamoDB Local: what is stored, idempotent
 * re-publishing, the catalog's checks of type and payload, and that every refused publish stores nothing.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { BusyError, ConflictError, NotFoundError, UnprocessableError, ValidationError } from '#domain/errors';
import { uuidv7 } from '#domain/ids';
import { TenantSeeder } from '#local/tenant-seed';
import { recordEvent } from '#use-cases/events/record-event';
import { createBatchPublisher, createPublisher, type Publisher } from '../../lambdas/publisher';
import { testIban } from '../support/delivery-queue-helpers';
import { publishCatalog } from '../support/event-type-catalog';
import { DEBIT, debitPayload, TRANSFER, transferPayload } from '../support/payloads';
import { type IsolatedResources, isolatedResources } from '../support/resources';

const BASE_URL = 'https://api.example.test/prod';

let resources: IsolatedResources;
let documents: DynamoDBDocumentClient;
let events: DynamoEventStore;
let publish: Publisher;
let orgId: string;
let iban: string;
let seeder: TenantSeeder;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'publish' });
  documents = DynamoDBDocumentClient.from(resources.dynamodb, {
    marshallOptions: { removeUndefinedValues: true },
  });
  events = new DynamoEventStore(documents, resources.tableName);
  publish = createPublisher({ tableName: resources.tableName, baseUrl: `${BASE_URL}/`, client: documents });
  iban = testIban();
  seeder = new TenantSeeder(documents, resources.tableName, 'public-https');
  orgId = (await seeder.tenant('Publisher org', [{ iban, webhookUrl: 'https://hooks.example.test/in' }]))
    .orgId;
});

afterAll(async () => {
  documents?.destroy();
  await resources?.destroy();
});

async function storedIds(): Promise<string[]> {
  const page = await events.listEvents({ orgId, offset: 0, limit: 100 });
  return page.events.map((event) => event.id);
}

/** Runs a publish that must fail, and checks the table holds the same events afterwards. */
async function expectRefused(
  input: Parameters<Publisher>[0],
  error: abstract new (...args: never[]) => Error,
) {
  const before = await storedIds();
  await expect(publish(input)).rejects.toBeInstanceOf(error);
  expect(await storedIds()).toEqual(before);
  if (typeof input.id === 'string') {
    const existing = before.includes(input.id);
    expect((await events.getEvent(input.id, { consistent: true })) !== undefined).toBe(existing);
  }
}

describe('createPublisher', () => {
  it('stores a pending event with its body, unsigned, and the links of the base URL', async () => {
    const id = uuidv7();
    const published = await publish({
      id,
      account: iban.replace(/(.{4})/g, '$1 ').toLowerCase(),
      type: TRANSFER,
      payload: transferPayload(),
      triggeredAt: '2026-11-21T12:00:00+01:00',
    });
    expect(published).toMatchObject({
      id,
      created: true,
      webhookStatus: 'pending',
      triggeredAt: '2026-11-21T11:00:00.000Z',
      typeVersion: 1,
    });
    const record = await events.getEvent(id, { consistent: true });
    // Each attempt signs itself: nothing is signed before the first.
    expect(published.signature).toBeNull();
    expect(record).toMatchObject({
      orgId,
      account: iban,
      signature: undefined,
      webhookRetries: 0,
      typeVersion: 1,
    });
    expect(JSON.parse(record?.body ?? '{}')).toEqual({
      id,
      type: TRANSFER,
      type_version: 1,
      account: iban,
      sequence: 1,
      triggered_at: '2026-11-21 11:00:00',
      payload: transferPayload(),
      _links: { self: `${BASE_URL}/events/${id}`, account: `${BASE_URL}/accounts/${iban}` },
    });
  });

  it('returns the stored event for the same id and content, without storing it twice', async () => {
    const input = { id: uuidv7(), account: iban, type: DEBIT, payload: debitPayload() };
    const first = await publish(input);
    const count = (await storedIds()).length;
    const second = await publish(input);
    expect(second).toEqual({ ...first, created: false });
    expect((await storedIds()).length).toBe(count);
  });

  it('accepts a payload of exactly 64 KiB serialized', async () => {
    // No catalog type's payload reaches 64 KiB (its fields are bounded): the size limit is the point, so a
    // publisher of the transition, which accepts a type outside the catalog with any object, publishes it.
    const transition = createPublisher({
      tableName: resources.tableName,
      baseUrl: BASE_URL,
      client: documents,
      acceptUnknownEventTypes: true,
    });
    const payload = { p: 'x'.repeat(65_536 - '{"p":""}'.length) };
    expect(Buffer.byteLength(JSON.stringify(payload))).toBe(65_536);
    const published = await transition({ account: iban, type: 'large_payload', payload });
    expect(published).toMatchObject({ created: true, typeVersion: null });
    expect(await events.getEvent(published.id, { consistent: true })).toMatchObject({
      typeVersion: undefined,
    });
  });
});

describe('the catalog checks every publish', () => {
  it('a payload without a required field → ValidationError naming it by its pointer, nothing stored', async () => {
    const { amount: _, ...payload } = transferPayload();
    const before = await storedIds();
    const refused = await publish({ id: uuidv7(), account: iban, type: TRANSFER, payload }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ params: [{ name: 'payload/amount', reason: expect.any(String) }] });
    expect(await storedIds()).toEqual(before);
  });

  it('a type outside the catalog → UnprocessableError naming the known types, nothing stored', async () => {
    await expectRefused({ id: uuidv7(), account: iban, type: 'order.paid', payload: {} }, UnprocessableError);
    await expect(publish({ account: iban, type: 'order.paid', payload: {} })).rejects.toThrow(
      /type: order\.paid is not an event type of the catalog; the known types are credit_received, credit_transfer_status_change, direct_debit_status_change$/,
    );
  });

  it('a version the type does not have → UnprocessableError naming version; version 1 is recorded', async () => {
    await expectRefused(
      { id: uuidv7(), account: iban, type: TRANSFER, payload: transferPayload(), version: 2 },
      UnprocessableError,
    );
    const published = await publish({
      account: iban,
      type: TRANSFER,
      payload: transferPayload(),
      version: 1,
    });
    expect(published.typeVersion).toBe(1);
  });
});

describe('a refused publish stores nothing', () => {
  it('unknown account → NotFoundError', async () => {
    await expectRefused(
      { id: uuidv7(), account: testIban(), type: TRANSFER, payload: transferPayload() },
      NotFoundError,
    );
  });

  it('payload over 64 KiB serialized → ValidationError, before its type is looked at', async () => {
    const payload = transferPayload({ remittance_information: 'x'.repeat(65_536) });
    await expectRefused({ id: uuidv7(), account: iban, type: TRANSFER, payload }, ValidationError);
    await expect(publish({ account: iban, type: TRANSFER, payload })).rejects.toMatchObject({
      params: [{ name: 'payload', reason: expect.stringMatching(/the limit is 65536/) }],
    });
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', '{"a":1}'],
    ['null', null],
    ['a Date', new Date()],
  ])('payload that is %s → ValidationError', async (_, payload) => {
    await expectRefused({ id: uuidv7(), account: iban, type: TRANSFER, payload }, ValidationError);
  });

  it.each(['Credit_Transfer', 'credit-transfer', '', 'a..b', `x${'y'.repeat(64)}`, '1st_event'])(
    'type %j → ValidationError',
    async (type) => {
      await expectRefused({ id: uuidv7(), account: iban, type, payload: transferPayload() }, ValidationError);
    },
  );

  it('malformed id or account → ValidationError', async () => {
    const payload = transferPayload();
    await expectRefused({ id: 'not-a-uuid', account: iban, type: TRANSFER, payload }, ValidationError);
    await expectRefused({ account: 'DE00 0000 0000 0000 0000 00', type: TRANSFER, payload }, ValidationError);
  });

  it('a reused id with other content → ConflictError, the stored event unchanged', async () => {
    const id = uuidv7();
    const payload = transferPayload({ transfer_id: 'tr_v1' });
    const first = await publish({ id, account: iban, type: TRANSFER, payload });
    const stored = await events.getEvent(id, { consistent: true });
    await expectRefused(
      { id, account: iban, type: TRANSFER, payload: transferPayload({ transfer_id: 'tr_v2' }) },
      ConflictError,
    );
    await expectRefused({ id, account: iban, type: DEBIT, payload: debitPayload() }, ConflictError);
    await expectRefused(
      { id, account: iban, type: TRANSFER, payload, triggeredAt: '2020-01-01T00:00:00Z' },
      ConflictError,
    );
    expect(await events.getEvent(id, { consistent: true })).toEqual(stored);
    expect(first.signature).toBeNull();
  });
});

describe('concurrent publishes to one account', () => {
  it('stores 24 publishes, each sent twice at once, once each at the sequences 1..24', async () => {
    const account = testIban();
    const tenant = await seeder.tenant('Contention org', [{ iban: account }]);
    const ids = Array.from({ length: 24 }, () => uuidv7());
    // A duplicate answers busy while its twin is still taking a sequence; the client sends it again
    // after 200 ms, doubled, as Herald's client library advises.
    const send = async (id: string, sends = 5): Promise<Awaited<ReturnType<Publisher>>> => {
      try {
        return await publish({ id, account, type: TRANSFER, payload: transferPayload({ transfer_id: id }) });
      } catch (error) {
        if (!(error instanceof BusyError) || sends === 1) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (5 - sends)));
        return send(id, sends - 1);
      }
    };
    const results = await Promise.all([...ids, ...ids].map((id) => send(id)));
    expect(results.filter((result) => result.created)).toHaveLength(ids.length);
    const sequenceOf = new Map<string, number | null>();
    for (const result of results) {
      if (sequenceOf.has(result.id)) expect(result.sequence).toBe(sequenceOf.get(result.id));
      sequenceOf.set(result.id, result.sequence);
    }
    expect([...sequenceOf.values()].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(ids.map((_, i) => i + 1));
    const log = await events.readLog(tenant.orgId, account, { afterSequence: 0, limit: 100 });
    expect(log.events.map((event) => event.id).sort()).toEqual([...ids].sort());
  });

  it('a publish that gives up ends its claim, so the resend of its id is stored at once', async () => {
    const account = testIban();
    await seeder.tenant('Busy org', [{ iban: account }]);
    await publish({ account, type: TRANSFER, payload: transferPayload() });
    const input = {
      id: uuidv7(),
      account,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_2' }),
    };
    // Every sequence this publish tries is taken (another event's put lands first each time).
    const refused = new DynamoEventStore(documents, resources.tableName);
    const deps = {
      events: Object.assign(refused, { insertEvent: async () => ({ created: false, occupant: uuidv7() }) }),
      directory: new DynamoDirectoryStore(documents, resources.tableName),
      baseUrl: BASE_URL,
      retentionDays: async () => undefined,
      catalog: publishCatalog().catalog,
      sleep: async () => undefined,
    };
    await expect(recordEvent(deps, input)).rejects.toBeInstanceOf(BusyError);
    expect(await events.getEvent(input.id, { consistent: true })).toBeUndefined();
    const resent = await publish(input);
    // At the sequence its claim names: the last one the given-up publish was handed.
    const claim = await events.readClaim(input.id);
    expect(resent).toMatchObject({ id: input.id, created: true });
    expect(claim).toMatchObject({ existing: { sequence: resent.sequence } });
  });

  it("publishes a file's lines in batches of 100: in order at consecutive sequences, a bad line refusing only itself, none twice", async () => {
    // Line 7 has a malformed type, line 9 a payload its type refuses: each refuses only itself.
    const account = testIban();
    await seeder.tenant('Batch org', [{ iban: account, webhookUrl: 'https://hooks.example.test/in' }]);
    const many = createBatchPublisher({
      tableName: resources.tableName,
      baseUrl: BASE_URL,
      client: documents,
    });
    const inputs = Array.from({ length: 150 }, (_, n) => ({
      id: uuidv7(),
      account,
      type: n === 7 ? 'Not A Type' : DEBIT,
      payload: debitPayload({ collection_id: `dd_${n}`, ...(n === 9 ? { amount: '1,00' } : {}) }),
    }));
    const results = await many(inputs);
    expect(results[7]).toMatchObject({ error: expect.any(ValidationError) });
    expect(results[9]).toMatchObject({ error: { params: [{ name: 'payload/amount' }] } });
    const stored = results.filter((result) => !('error' in result));
    expect(stored.map((result) => ('sequence' in result ? result.sequence : 0))).toEqual(
      Array.from({ length: 148 }, (_, i) => i + 1),
    );
    // Sent again: every line answers its stored event, nothing is stored twice.
    const again = await many(inputs);
    expect(again.filter((result) => 'created' in result && result.created)).toEqual([]);
    expect(again.map((result) => ('sequence' in result ? result.sequence : 'refused'))).toEqual(
      results.map((result) => ('sequence' in result ? result.sequence : 'refused')),
    );
  });
});
