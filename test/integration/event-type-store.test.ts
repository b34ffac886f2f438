/**
 * The operators' event types in DynamoDB Local: a type's head, versions and name written together, read
 * back whole (the largest version the limits allow included), changes applied only on the head the
 * writer read (latest version, description and deprecation), and the number of types held to `MAX_OPERATOR_EVENT_TYPES` under concurrent
 * registrations.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import {
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_EXAMPLES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
  MAX_OPERATOR_EVENT_TYPES,
} from '#config/catalog-limits';
import type { EventTypeVersion } from '#domain/event-types/model';
import { CARD_V1, CARD_V1_EXAMPLES, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let store: DynamoEventTypeStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'evtypes' });
  store = new DynamoEventTypeStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

const head = (type: string, latest = 1) => ({
  type,
  description: `About ${type}.`,
  deprecated: false,
  latest,
});
const version = (n: number, schema = CARD_V1, examples = CARD_V1_EXAMPLES): EventTypeVersion => ({
  version: n,
  schema,
  examples,
  deprecated: false,
});

/** Text deflate cannot shrink much: random base64. */
const noise = (bytes: number): string =>
  randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes);

describe('DynamoEventTypeStore', () => {
  it('has nothing before the first registration', async () => {
    expect(await store.typeNames()).toEqual([]);
    expect(await store.head('acme.none')).toBeUndefined();
    expect(await store.version('acme.none', 1)).toBeUndefined();
  });

  it('stores a type with its first version and name, once', async () => {
    expect(await store.createType(head('acme.card'), version(1))).toBe('created');
    expect(await store.createType(head('acme.card'), version(1, CARD_V2))).toBe('exists');
    expect(await store.head('acme.card')).toEqual(head('acme.card'));
    expect(await store.version('acme.card', 1)).toEqual(version(1));
    expect(await store.version('acme.card', 2)).toBeUndefined();
    expect(await store.typeNames()).toContain('acme.card');
  });

  it('reads back the largest version the limits allow, in an item far below 400 KB', async () => {
    const filler = MAX_EVENT_TYPE_SCHEMA_BYTES - 200;
    const schema = {
      type: 'object',
      description: noise(filler),
      properties: { text: { type: 'string', description: 'Ünïcödé ✓ "quoted" \\ 𝄞' } },
    };
    expect(Buffer.byteLength(JSON.stringify(schema))).toBeLessThanOrEqual(MAX_EVENT_TYPE_SCHEMA_BYTES);
    const examples = Array.from({ length: MAX_EVENT_TYPE_EXAMPLES }, (_, i) => ({
      name: `example_${i}`,
      summary: 'x'.repeat(200),
      payload: { text: noise(MAX_EVENT_TYPE_EXAMPLE_BYTES - 20) },
    }));
    const large = version(1, schema, examples);
    expect(await store.createType(head('acme.large'), large)).toBe('created');
    expect(await store.version('acme.large', 1)).toEqual(large);
    const item = await resources.documents.send(
      new GetCommand({
        TableName: resources.tableName,
        Key: { pk: 'EVENT_TYPES', sk: 'VERSION#acme.large#0001' },
      }),
    );
    expect((item.Item?.content as Uint8Array | undefined)?.byteLength).toBeLessThan(200_000);
  });

  it('changes the head, or adds a version, only on the latest version the writer read', async () => {
    await store.createType(head('acme.debit'), version(1));
    const change = { expected: head('acme.debit'), description: 'Debits.', deprecated: true };
    expect(await store.updateType(change)).toBe(true);
    const changed = { type: 'acme.debit', description: 'Debits.', deprecated: true, latest: 1 };
    expect(await store.head('acme.debit')).toEqual(changed);
    expect(await store.updateType({ ...change, expected: { ...changed, latest: 2 } })).toBe(false);
    expect(await store.updateType({ ...change, expected: head('acme.unknown') })).toBe(false);
    expect(await store.head('acme.unknown')).toBeUndefined();

    const added = version(2, CARD_V2, CARD_V2_EXAMPLES);
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        store.updateType({ ...change, expected: changed, deprecated: false, added }),
      ),
    );
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await store.head('acme.debit')).toMatchObject({ latest: 2, deprecated: false });
    expect(await store.version('acme.debit', 2)).toEqual(added);
    expect(await store.version('acme.debit', 3)).toBeUndefined();
  });

  it('changes the head only while its description and deprecation are still the ones the writer read', async () => {
    const read = head('acme.refund');
    await store.createType(read, version(1));
    // Another writer deprecated the type since `read`: a description-only change built on `read` would
    // write its stale `deprecated: false` back, with or without a new version.
    const deprecated = { ...read, deprecated: true };
    expect(await store.updateType({ expected: read, description: read.description, deprecated: true })).toBe(
      true,
    );
    const stale = { expected: read, description: 'Refunds.', deprecated: false };
    expect(await store.updateType(stale)).toBe(false);
    expect(await store.updateType({ ...stale, added: version(2, CARD_V2, CARD_V2_EXAMPLES) })).toBe(false);
    expect(await store.head('acme.refund')).toEqual(deprecated);
    expect(await store.version('acme.refund', 2)).toBeUndefined();

    // Likewise a deprecation built on a description changed since.
    const described = { ...deprecated, description: 'Refunds, in full or part.' };
    expect(
      await store.updateType({ expected: deprecated, description: described.description, deprecated: true }),
    ).toBe(true);
    expect(
      await store.updateType({ expected: deprecated, description: read.description, deprecated: false }),
    ).toBe(false);
    expect(await store.head('acme.refund')).toEqual(described);
  });

  it(`never holds more than ${MAX_OPERATOR_EVENT_TYPES} types under concurrent registrations`, async () => {
    const already = (await store.typeNames()).length;
    const names = Array.from({ length: MAX_OPERATOR_EVENT_TYPES + 10 - already }, (_, i) => `bulk.t${i}`);
    const outcomes = await Promise.all(names.map((name) => store.createType(head(name), version(1))));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(MAX_OPERATOR_EVENT_TYPES - already);
    expect(outcomes.filter((o) => o === 'full')).toHaveLength(10);
    const stored = await store.typeNames();
    expect(stored).toHaveLength(MAX_OPERATOR_EVENT_TYPES);
    // Every name in the catalog has its head, and no refused type left one.
    const refused = names.filter((_, i) => outcomes[i] === 'full');
    for (const name of refused) expect(await store.head(name)).toBeUndefined();
    for (const name of stored.slice(0, 5)) expect(await store.head(name)).toBeDefined();
  });
});
