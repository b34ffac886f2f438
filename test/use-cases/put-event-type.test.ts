/**
 * An operator's registration of event types over an in-memory store: a new type with its first version,
 * every problem named at once, a changed schema or examples as a new version (each version checking its
 * own payloads), the head changed in place, built-in types refused, the bounds on types and versions
 * held under concurrent writes, and a write that lost a race applied on top of the winner (a version, or
 * a description or deprecation it left out).
 */
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_TYPE_VERSIONS, MAX_OPERATOR_EVENT_TYPES } from '#config/catalog-limits';
import { ConflictError, ValidationError } from '#domain/errors';
import type { EventTypeWrite } from '#domain/event-types/event-type-checks';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { putEventType } from '#use-cases/event-types/put-event-type';
import {
  CARD_DECLARATION,
  CARD_V1,
  CARD_V1_EXAMPLES,
  CARD_V2,
  CARD_V2_EXAMPLES,
} from '../support/event-type-samples';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';

const CARD = 'acme.card_settled';

function setup() {
  const store = new InMemoryEventTypeStore();
  const catalog = createEventTypeCatalog({ store, now: new FakeClock().now });
  const put = (write: Omit<EventTypeWrite, 'type'>, type = CARD) => putEventType(store, { type, ...write });
  return { store, catalog, put };
}

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('registering a new type', () => {
  it('stores it with version 1, which the catalog then checks payloads against', async () => {
    const { store, catalog, put } = setup();
    const done = await put({ ...CARD_DECLARATION, description: '  A card payment settled.  ' });
    expect(done).toEqual({
      created: true,
      head: { type: CARD, description: 'A card payment settled.', deprecated: false, latest: 1 },
    });
    expect(await store.version(CARD, 1)).toEqual({
      version: 1,
      schema: CARD_V1,
      examples: CARD_V1_EXAMPLES,
      deprecated: false,
    });
    const resolved = await catalog.resolve(CARD);
    expect(resolved.kind === 'found' && resolved.check({ amount: '3.00' })).toEqual({ ok: true, version: 1 });
  });

  it('names every field a new type lacks', async () => {
    const { put } = setup();
    expect((await refusal(put({ deprecated: true }))).params).toEqual([
      { name: 'description', reason: 'is required to register a new type' },
      { name: 'schema', reason: 'is required to register a new type' },
      { name: 'examples', reason: 'is required to register a new type' },
    ]);
  });

  it('names every problem of the type at once, by where it is', async () => {
    const { store, put } = setup();
    const error = await refusal(
      put(
        {
          description: ' ',
          schema: { ...CARD_V1, properties: { amount: { type: 'strung' } } },
          examples: [{ name: 'Bad Name', summary: 'x', payload: { amount: '1' } }],
        },
        'Acme.Card',
      ),
    );
    expect(error.params.map((param) => param.name)).toEqual([
      'type',
      'description',
      'schema/properties/amount/type',
      'examples/0/name',
    ]);
    expect(error.message).toContain('description: must have 1 to');
    expect(store.heads.size).toBe(0);
  });

  it('refuses a built-in type, whose versions are Herald’s', async () => {
    const { store, put } = setup();
    await expect(put(CARD_DECLARATION, 'credit_received')).rejects.toThrow(ConflictError);
    await expect(put({ deprecated: true }, 'credit_transfer_status_change')).rejects.toThrow(
      /built-in type.*acme\.credit_transfer_status_change/,
    );
    expect(store.heads.size).toBe(0);
  });

  it(`holds the catalog to ${MAX_OPERATOR_EVENT_TYPES} types, also when the last places are raced for`, async () => {
    const { store, put } = setup();
    for (let i = 0; i < MAX_OPERATOR_EVENT_TYPES - 1; i++) {
      store.heads.set(`acme.t${i}`, { type: `acme.t${i}`, description: 'x', deprecated: false, latest: 1 });
    }
    const outcomes = await Promise.allSettled([
      put(CARD_DECLARATION, 'acme.a'),
      put(CARD_DECLARATION, 'acme.b'),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((o) => o.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(ConflictError);
    expect(store.heads.size).toBe(MAX_OPERATOR_EVENT_TYPES);
    await expect(put(CARD_DECLARATION, 'acme.c')).rejects.toThrow(/holds 100 types/);
  });
});

describe('changing a type', () => {
  it('adds a version for a changed schema; each version checks its own payloads', async () => {
    const { catalog, put } = setup();
    await put(CARD_DECLARATION);
    const done = await put({ schema: CARD_V2, examples: CARD_V2_EXAMPLES });
    expect(done).toEqual({ created: false, head: expect.objectContaining({ latest: 2 }) });
    const card = await catalog.get(CARD);
    expect(card?.definition.versions.map((v) => [v.version, v.schema, v.examples])).toEqual([
      [1, CARD_V1, CARD_V1_EXAMPLES],
      [2, CARD_V2, CARD_V2_EXAMPLES],
    ]);
    const v1 = await catalog.resolve(CARD, 1);
    const v2 = await catalog.resolve(CARD);
    const payload = { amount: '1.00' };
    expect(v1.kind === 'found' && v1.check(payload)).toEqual({ ok: true, version: 1 });
    expect(v2.kind === 'found' && v2.check(payload).ok).toBe(false);
  });

  it('checks the kept examples against a new schema sent without examples', async () => {
    const { store, put } = setup();
    await put(CARD_DECLARATION);
    const error = await refusal(put({ schema: CARD_V2 }));
    expect(error.params).toEqual([{ name: 'examples/0/payload/currency', reason: 'is required' }]);
    expect(store.heads.get(CARD)?.latest).toBe(1);
  });

  it('adds a version for changed examples too: a stored version never changes', async () => {
    const { store, put } = setup();
    await put(CARD_DECLARATION);
    const examples = [{ name: 'small', summary: 'A small one.', payload: { amount: '0.10' } }];
    expect((await put({ examples })).head.latest).toBe(2);
    expect((await store.version(CARD, 1))?.examples).toEqual(CARD_V1_EXAMPLES);
    expect((await store.version(CARD, 2))?.examples).toEqual(examples);
  });

  it('changes the description and the deprecation in place, and keeps what a write leaves out', async () => {
    const { store, catalog, put } = setup();
    await put(CARD_DECLARATION);
    // The same declaration again: nothing to change, nothing written.
    const again = await put(CARD_DECLARATION);
    expect(again).toEqual({ created: false, head: expect.objectContaining({ latest: 1 }) });
    expect((await put({ deprecated: true })).head).toEqual({
      type: CARD,
      description: CARD_DECLARATION.description,
      deprecated: true,
      latest: 1,
    });
    expect((await put({ description: 'Settled card payments.' })).head).toMatchObject({
      description: 'Settled card payments.',
      deprecated: true,
      latest: 1,
    });
    expect(store.versions.size).toBe(1);
    expect(await catalog.resolve(CARD)).toMatchObject({ kind: 'found', deprecated: true });
    expect((await put({ deprecated: false })).head.deprecated).toBe(false);
  });

  it('keeps both of two concurrent writes that leave out different fields', async () => {
    const { store, put } = setup();
    await put(CARD_DECLARATION);
    // Both read the same head; each keeps the field it leaves out as it read it.
    const [deprecating, describing] = await Promise.all([
      put({ deprecated: true }),
      put({ description: 'Settled card payments.' }),
    ]);
    const both = { type: CARD, description: 'Settled card payments.', deprecated: true, latest: 1 };
    expect(store.heads.get(CARD)).toEqual(both);
    // The write that lost the race answers the head it stored, with the winner's change in it.
    expect([deprecating.head, describing.head]).toContainEqual(both);

    // A description change beside a new version (whose write carries the description it read).
    await Promise.all([put({ description: 'Card.' }), put({ schema: CARD_V2, examples: CARD_V2_EXAMPLES })]);
    expect(store.heads.get(CARD)).toEqual({ ...both, description: 'Card.', latest: 2 });
  });

  it(`stops at ${MAX_EVENT_TYPE_VERSIONS} versions, while the head can still change`, async () => {
    const { store, put } = setup();
    await put(CARD_DECLARATION);
    const head = store.heads.get(CARD);
    if (head === undefined) throw new Error('not stored');
    store.heads.set(CARD, { ...head, latest: MAX_EVENT_TYPE_VERSIONS });
    store.versions.set(`${CARD}#${MAX_EVENT_TYPE_VERSIONS}`, {
      version: MAX_EVENT_TYPE_VERSIONS,
      schema: CARD_V1,
      examples: CARD_V1_EXAMPLES,
      deprecated: false,
    });
    await expect(put({ schema: CARD_V2, examples: CARD_V2_EXAMPLES })).rejects.toThrow(/20 versions/);
    expect((await put({ deprecated: true })).head).toMatchObject({ deprecated: true, latest: 20 });
  });

  it('applies a write that lost a race on top of the winner, so no version is lost', async () => {
    const { store, put } = setup();
    await put(CARD_DECLARATION);
    const v3 = { ...CARD_V2, description: 'With currency, described.' };
    await Promise.all([
      put({ schema: CARD_V2, examples: CARD_V2_EXAMPLES }),
      put({ schema: v3, examples: CARD_V2_EXAMPLES }),
    ]);
    expect(store.heads.get(CARD)?.latest).toBe(3);
    const schemas = [2, 3].map((n) => store.versions.get(`${CARD}#${n}`)?.schema);
    expect(schemas).toEqual(expect.arrayContaining([CARD_V2, v3]));
  });
});
