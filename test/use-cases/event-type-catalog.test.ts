/**
 * The catalog over an in-memory store with an injected clock: built-in types resolved without a read,
 * operators' types read once and kept (versions for good, heads for the time to live), an unknown type
 * never remembered, a version named above the trusted head read again, the bounded version cache, and
 * the listing read lazily in name order.
 */
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_TYPE_VERSIONS } from '#config/catalog-limits';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import type { Resolution } from '#domain/event-types/catalog-port';
import type { EventTypeVersion } from '#domain/event-types/model';
import { NOTICE_KINDS } from '#domain/notices/notice';
import {
  CATALOG_CACHED_VERSIONS,
  CATALOG_HEAD_TTL_MS,
  createEventTypeCatalog,
} from '#use-cases/event-types/catalog';
import { CARD_V1, CARD_V1_EXAMPLES, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';

const CARD = 'acme.card_settled';
const version = (n: number, schema = CARD_V1, examples = CARD_V1_EXAMPLES): EventTypeVersion => ({
  version: n,
  schema,
  examples,
  deprecated: false,
});

function setup(headTtlMs = CATALOG_HEAD_TTL_MS) {
  const store = new InMemoryEventTypeStore();
  const clock = new FakeClock();
  const catalog = createEventTypeCatalog({ store, now: clock.now, headTtlMs });
  return { store, clock, catalog };
}

async function withCard(store: InMemoryEventTypeStore): Promise<void> {
  const head = { type: CARD, description: 'Card payments.', deprecated: false, latest: 1 };
  expect(await store.createType(head, version(1))).toBe('created');
}

function found(resolution: Resolution): Extract<Resolution, { kind: 'found' }> {
  if (resolution.kind !== 'found') throw new Error(`expected a version, got ${resolution.kind}`);
  return resolution;
}

describe('resolving a built-in type', () => {
  it('checks payloads against its latest version without reading the store', async () => {
    const { store, catalog } = setup();
    for (const definition of BUILT_IN_EVENT_TYPES) {
      const resolved = found(await catalog.resolve(definition.type));
      expect(resolved).toMatchObject({ type: definition.type, version: 1, latest: 1, deprecated: false });
      const example = definition.versions[0]?.examples[0];
      expect(resolved.check(example?.payload)).toEqual({ ok: true, version: 1 });
      const refused = resolved.check({ ...example?.payload, amount: 12.5 });
      expect(refused).toMatchObject({ ok: false, violations: [{ pointer: '/amount' }] });
    }
    expect(store.reads).toEqual({ names: 0, heads: 0, versions: 0 });
  });

  it('answers a version it does not have as unknown, naming the latest', async () => {
    const { catalog } = setup();
    expect(await catalog.resolve('credit_received', 2)).toEqual({
      kind: 'unknown-version',
      type: 'credit_received',
      version: 2,
      latest: 1,
    });
  });
});

describe("resolving an operator's type", () => {
  it('names every known type for an unknown one, and never remembers that it was unknown', async () => {
    const { store, catalog } = setup();
    await withCard(store);
    const unknown = await catalog.resolve('acme.nothing');
    expect(unknown).toEqual({
      kind: 'unknown-type',
      type: 'acme.nothing',
      known: [CARD, ...BUILT_IN_EVENT_TYPES.map((d) => d.type)].sort(),
    });
    const head = { type: 'acme.nothing', description: 'Now it exists.', deprecated: false, latest: 1 };
    await store.createType(head, version(1));
    // No time passed: a type registered a moment ago is accepted at once.
    expect(found(await catalog.resolve('acme.nothing')).version).toBe(1);
  });

  it('reads a head and a version once, then checks from memory within the time to live', async () => {
    const { store, catalog } = setup();
    await withCard(store);
    const first = found(await catalog.resolve(CARD));
    expect(first.check({ amount: '1.00' })).toEqual({ ok: true, version: 1 });
    expect(first.check({})).toMatchObject({ ok: false, violations: [{ pointer: '/amount' }] });
    const reads = { ...store.reads };
    for (let i = 0; i < 5; i++) expect(found(await catalog.resolve(CARD)).version).toBe(1);
    expect(store.reads).toEqual(reads);
  });

  it('takes a new latest version as the default once the head expires, an explicit one at once', async () => {
    const { store, clock, catalog } = setup();
    await withCard(store);
    expect(found(await catalog.resolve(CARD)).version).toBe(1);
    const expected = { type: CARD, description: 'Card payments.', deprecated: false, latest: 1 };
    const change = { expected, description: 'Card payments.', deprecated: true };
    expect(await store.updateType({ ...change, added: version(2, CARD_V2, CARD_V2_EXAMPLES) })).toBe(true);

    clock.advance(CATALOG_HEAD_TTL_MS - 1);
    expect(found(await catalog.resolve(CARD))).toMatchObject({ version: 1, latest: 1, deprecated: false });
    const named = found(await catalog.resolve(CARD, 2));
    expect(named).toMatchObject({ version: 2, latest: 2, deprecated: true });
    expect(named.check({ amount: '1.00' })).toMatchObject({
      ok: false,
      violations: [{ pointer: '/currency' }],
    });

    clock.advance(1);
    const latest = found(await catalog.resolve(CARD));
    expect(latest).toMatchObject({ version: 2, latest: 2, deprecated: true });
    expect(latest.check({ amount: '1.00', currency: 'EUR' })).toEqual({ ok: true, version: 2 });
    // Each version is checked by its own schema.
    expect(found(await catalog.resolve(CARD, 1)).check({ amount: '1.00' })).toEqual({ ok: true, version: 1 });
    expect(await catalog.resolve(CARD, 3)).toEqual({
      kind: 'unknown-version',
      type: CARD,
      version: 3,
      latest: 2,
    });
    expect(await catalog.resolve(CARD, 0)).toMatchObject({ kind: 'unknown-version', version: 0 });
  });

  it('reads the head at every use when its time to live is 0', async () => {
    const { store, catalog } = setup(0);
    await withCard(store);
    await catalog.resolve(CARD);
    await catalog.resolve(CARD);
    expect(store.reads).toMatchObject({ heads: 2, versions: 1 });
  });

  it('keeps the most recently used versions, and lets the least recently used go first', async () => {
    const { store, catalog } = setup();
    const types = Math.ceil((CATALOG_CACHED_VERSIONS + 1) / MAX_EVENT_TYPE_VERSIONS);
    const keys: [string, number][] = [];
    for (let t = 0; t < types; t++) {
      const type = `acme.type_${t}`;
      store.heads.set(type, { type, description: 'x', deprecated: false, latest: MAX_EVENT_TYPE_VERSIONS });
      for (let v = 1; v <= MAX_EVENT_TYPE_VERSIONS; v++) {
        store.versions.set(`${type}#${v}`, version(v));
        keys.push([type, v]);
      }
    }
    const [first, ...rest] = keys.slice(0, CATALOG_CACHED_VERSIONS + 1);
    if (first === undefined) throw new Error('no versions');
    await catalog.resolve(...first);
    for (const key of rest.slice(0, -1)) await catalog.resolve(...key);
    await catalog.resolve(...first);
    const before = store.reads.versions;
    // One more than the cache holds: the oldest unused version (the second) goes, the first stays.
    await catalog.resolve(...(rest.at(-1) as [string, number]));
    await catalog.resolve(...first);
    expect(store.reads.versions).toBe(before + 1);
    await catalog.resolve(...(rest[0] as [string, number]));
    expect(store.reads.versions).toBe(before + 2);
  });

  it('does not keep a read that failed', async () => {
    const { store, catalog } = setup();
    await withCard(store);
    const real = store.version.bind(store);
    let failures = 1;
    store.version = async (type, n) => {
      if (failures-- > 0) throw new Error('throttled');
      return real(type, n);
    };
    await expect(catalog.resolve(CARD)).rejects.toThrow('throttled');
    expect(found(await catalog.resolve(CARD)).version).toBe(1);
  });
});

describe('reading the catalog', () => {
  it('gives a type with every version in order, built-in or not, and nothing for an unknown one', async () => {
    const { store, catalog } = setup();
    await withCard(store);
    await store.updateType({
      expected: { type: CARD, description: 'Card payments.', deprecated: false, latest: 1 },
      description: 'Card payments, with currency.',
      deprecated: false,
      added: version(2, CARD_V2, CARD_V2_EXAMPLES),
    });
    const card = await catalog.get(CARD);
    expect(card?.builtIn).toBe(false);
    expect(card?.definition).toMatchObject({ type: CARD, description: 'Card payments, with currency.' });
    expect(card?.definition.versions.map((v) => [v.version, v.schema])).toEqual([
      [1, CARD_V1],
      [2, CARD_V2],
    ]);
    expect(await catalog.get('credit_received')).toMatchObject({
      builtIn: true,
      definition: { type: 'credit_received' },
    });
    expect(await catalog.get('acme.nothing')).toBeUndefined();
  });

  it('lists every type by name after the one given, reading each only when it is taken', async () => {
    const { store, catalog } = setup(0);
    await withCard(store);
    await store.createType({ type: 'zeta.last', description: 'z', deprecated: false, latest: 1 }, version(1));
    const names = [];
    for await (const entry of catalog.list()) names.push(entry.definition.type);
    const builtIns = [...BUILT_IN_EVENT_TYPES.map((d) => d.type), ...NOTICE_KINDS];
    expect(names).toEqual([CARD, ...builtIns, 'zeta.last'].sort());
    const after = [];
    for await (const entry of catalog.list('credit_received')) after.push(entry.definition.type);
    expect(after).toEqual(names.filter((name) => name > 'credit_received'));

    const reads = { ...store.reads };
    for await (const entry of catalog.list()) {
      expect(entry.definition.type).toBe(CARD);
      break;
    }
    // The first type only: one head and its one version, none of the later ones.
    expect(store.reads.heads - reads.heads).toBe(1);
  });
});
