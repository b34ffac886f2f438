/**
 * Publishing checked against the event type catalog (`recordEvent`, `recordEvents`), with the in-memory
 * fakes and the publish path's catalog (built-in types and operators' types from an in-memory store, heads
 * kept for their time to live): the version recorded, a refused payload named field by field, an
 * operator's type and its versions, an unknown type named with the known ones, the transition's unknown
 * types, and idempotency across a catalog that changed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_KNOWN_TYPES_NAMED, MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import { ConflictError, UnprocessableError, ValidationError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { CREDIT_TRANSFER_STATUS_CHANGE } from '#domain/event-types/credit-transfer-status-change';
import type { EventTypeDefinition, JsonSchemaObject } from '#domain/event-types/model';
import { noticeEventType } from '#domain/event-types/operational-notices';
import { CATALOG_HEAD_TTL_MS } from '#use-cases/event-types/catalog';
import { type RecordEventDeps, recordEvent } from '#use-cases/events/record-event';
import { recordEvents } from '#use-cases/events/record-events';
import { publishCatalog, storeType } from '../support/event-type-catalog';
import { FakeClock } from '../support/fakes/clock';
import type { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import type { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { CREDIT, DEBIT, TRANSFER, transferPayload } from '../support/payloads';
import { publishWorld } from '../support/publish-world';

const IBAN = 'DE89370400440532013000';
const ID = '0193a7c4-1d2e-7f00-8a00-0000000000aa';
const id = (n: number) => `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`;

/** A transfer without remittance information: valid for version 1, refused by the test's version 2. */
const { remittance_information: _, ...WITHOUT_REMITTANCE } = transferPayload();

/** An operator's type: the transfer's schema under a name of its own, version 1. */
const OPERATOR = 'acme.transfer_status_change';
const v1 = CREDIT_TRANSFER_STATUS_CHANGE.versions[0] as EventTypeDefinition['versions'][number];
const ONE_VERSION: EventTypeDefinition = { ...CREDIT_TRANSFER_STATUS_CHANGE, type: OPERATOR };
/** The operator's type with a version 2 that also requires `remittance_information`. */
const TWO_VERSIONS: EventTypeDefinition = {
  ...ONE_VERSION,
  versions: [
    v1,
    {
      ...v1,
      version: 2,
      schema: { ...v1.schema, required: [...(v1.schema.required as string[]), 'remittance_information'] },
    },
  ],
};

let clock: FakeClock;
let store: InMemoryEventTypeStore;
let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let deps: RecordEventDeps;

beforeEach(async () => {
  clock = new FakeClock('2026-11-21T12:00:00.000Z');
  const published = publishCatalog([], clock.now);
  store = published.store;
  ({ directory, events, deps } = await publishWorld({
    catalog: published.catalog,
    accounts: [{ iban: IBAN, hooked: true }],
    clock,
  }));
});

const publish = (fields: Partial<PublishInput> = {}): PublishInput => ({
  id: ID,
  account: IBAN,
  type: TRANSFER,
  payload: transferPayload(),
  ...fields,
});

/** An operator adds version 2 of {@link OPERATOR}; the publish path sees it once its kept head expires. */
function addVersionTwo(): void {
  storeType(store, TWO_VERSIONS);
  clock.advance(CATALOG_HEAD_TTL_MS);
}

/** A refusal before anything was read or stored. */
async function refusedBeforeAnyRead(attempt: Promise<unknown>): Promise<unknown> {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(directory.reads.getAccount).toBe(0);
  expect(events.events.size).toBe(0);
  return error;
}

describe('publishing checks the type and the payload against the catalog', () => {
  it('records the version its payload passed, in the event and in its webhook body after the type', async () => {
    const { event } = await recordEvent(deps, publish());
    expect(event.typeVersion).toBe(1);
    expect(events.events.get(ID)?.typeVersion).toBe(1);
    expect(event.body.startsWith(`{"id":"${ID}","type":"${TRANSFER}","type_version":1,"account":`)).toBe(
      true,
    );
  });

  it("checks an operator's type against the version the publish names, the latest otherwise", async () => {
    storeType(store, TWO_VERSIONS);
    const latest = recordEvent(deps, publish({ type: OPERATOR, payload: WITHOUT_REMITTANCE }));
    expect(await refusedBeforeAnyRead(latest)).toMatchObject({
      params: [{ name: 'payload/remittance_information' }],
      message: expect.stringMatching(/does not pass acme\.transfer_status_change version 2/),
    });
    const named = await recordEvent(
      deps,
      publish({ type: OPERATOR, payload: WITHOUT_REMITTANCE, version: 1 }),
    );
    expect(named.event.typeVersion).toBe(1);
    expect(JSON.parse(named.event.body)).toMatchObject({ type: OPERATOR, type_version: 1 });
    const full = await recordEvent(deps, publish({ id: id(2), type: OPERATOR }));
    expect(full.event.typeVersion).toBe(2);
    // Each version refuses what its schema refuses, named by pointer.
    const { amount: _amount, ...withoutAmount } = transferPayload();
    for (const version of [1, 2]) {
      const refused = recordEvent(
        deps,
        publish({ id: id(3), type: OPERATOR, payload: withoutAmount, version }),
      );
      await expect(refused).rejects.toMatchObject({
        params: expect.arrayContaining([{ name: 'payload/amount', reason: expect.any(String) }]),
      });
    }
  });

  it("applies an operator's new version as the default once the kept head expires, and at once when named", async () => {
    storeType(store, ONE_VERSION);
    expect(
      (await recordEvent(deps, publish({ type: OPERATOR, payload: WITHOUT_REMITTANCE }))).event.typeVersion,
    ).toBe(1);
    storeType(store, TWO_VERSIONS);
    // Within the head's time to live the latest is still version 1; version 2 named is looked up again.
    const kept = await recordEvent(deps, publish({ id: id(2), type: OPERATOR, payload: WITHOUT_REMITTANCE }));
    expect(kept.event.typeVersion).toBe(1);
    expect(
      (await recordEvent(deps, publish({ id: id(3), type: OPERATOR, version: 2 }))).event.typeVersion,
    ).toBe(2);
    clock.advance(CATALOG_HEAD_TTL_MS);
    const latest = recordEvent(deps, publish({ id: id(4), type: OPERATOR, payload: WITHOUT_REMITTANCE }));
    await expect(latest).rejects.toMatchObject({ params: [{ name: 'payload/remittance_information' }] });
  });

  it("reads nothing of the store for a built-in type, and an operator's type once per time to live", async () => {
    storeType(store, ONE_VERSION);
    await recordEvent(deps, publish({ id: id(1) }));
    expect(store.reads).toEqual({ names: 0, heads: 0, versions: 0 });
    await recordEvent(deps, publish({ id: id(2), type: OPERATOR }));
    await recordEvent(deps, publish({ id: id(3), type: OPERATOR }));
    expect(store.reads).toEqual({ names: 0, heads: 1, versions: 1 });
  });

  it('refuses a version the type does not have 422, naming version and the versions it has, before any read', async () => {
    const error = await refusedBeforeAnyRead(recordEvent(deps, publish({ version: 2 })));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error).toMatchObject({
      params: [{ name: 'version', reason: `${TRANSFER} has no version 2; it has version 1` }],
    });
    storeType(store, TWO_VERSIONS);
    await expect(recordEvent(deps, publish({ type: OPERATOR, version: 3 }))).rejects.toMatchObject({
      params: [{ name: 'version', reason: `${OPERATOR} has no version 3; it has versions 1 to 2` }],
    });
  });

  it('refuses a payload without a required field 400, naming its JSON pointer under payload', async () => {
    const { amount: _amount, ...payload } = transferPayload();
    const error = await refusedBeforeAnyRead(recordEvent(deps, publish({ payload })));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params).toEqual([
      { name: 'payload/amount', reason: expect.stringMatching(/required/) },
    ]);
  });

  it('names a nested field by its pointer, escaped as RFC 6901 says', async () => {
    const payload = transferPayload({ creditor: { name: 'Erika', iban: 'not an iban' }, 'a/b~c': 1 });
    const error = (await refusedBeforeAnyRead(recordEvent(deps, publish({ payload })))) as ValidationError;
    expect(error.params.map((param) => param.name).sort()).toEqual([
      'payload/a~1b~0c',
      'payload/creditor/iban',
    ]);
  });

  it(`names every violation, at most ${MAX_VIOLATIONS_REPORTED}, and says how many there were`, async () => {
    const extra = Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`extra_${n}`, n]));
    const error = (await refusedBeforeAnyRead(
      recordEvent(deps, publish({ payload: transferPayload(extra) })),
    )) as ValidationError;
    expect(error.params).toHaveLength(MAX_VIOLATIONS_REPORTED);
    expect(error.params[0]).toEqual({ name: 'payload/extra_0', reason: expect.any(String) });
    expect(error.message).toMatch(/12 problems, the first 10 at payload\/extra_0, payload\/extra_1/);
  });

  it("refuses a type outside the catalog 422, naming the known types (operators' too), before any read", async () => {
    const error = await refusedBeforeAnyRead(recordEvent(deps, publish({ type: 'order.paid' })));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error).toMatchObject({
      params: [
        {
          name: 'type',
          reason: `order.paid is not an event type of the catalog; the known types are ${[CREDIT, TRANSFER, DEBIT].join(', ')}`,
        },
      ],
    });
    storeType(store, ONE_VERSION);
    await expect(recordEvent(deps, publish({ type: 'order.paid' }))).rejects.toMatchObject({
      params: [{ name: 'type', reason: expect.stringMatching(`known types are ${OPERATOR}, ${CREDIT}, `) }],
    });
  });

  it(`names at most ${MAX_KNOWN_TYPES_NAMED} known types, and how many more there are`, async () => {
    const schema: JsonSchemaObject = { type: 'object' };
    const example = { name: 'any', summary: 'Any object.', payload: {} };
    for (let n = 0; n < MAX_KNOWN_TYPES_NAMED + 5; n++) {
      storeType(store, {
        type: `acme.type_${String(n).padStart(2, '0')}`,
        description: 'A test type.',
        deprecated: false,
        versions: [{ version: 1, schema, examples: [example], deprecated: false }],
      });
    }
    const error = (await refusedBeforeAnyRead(
      recordEvent(deps, publish({ type: 'order.paid' })),
    )) as UnprocessableError;
    const reason = error.params[0]?.reason ?? '';
    expect(reason).toContain(`acme.type_${MAX_KNOWN_TYPES_NAMED - 1}`);
    expect(reason).not.toContain(`acme.type_${MAX_KNOWN_TYPES_NAMED},`);
    // The built-in three sort after the operators' `acme.` ones: eight more in all.
    expect(reason).toMatch(/, and 8 more \(GET \/event-types lists them all\)$/);
  });
});

describe('a transition: a deployment that accepts types outside the catalog', () => {
  beforeEach(() => {
    deps = { ...deps, acceptUnknownTypes: true };
  });

  it('stores an unknown type with any object payload and no version, its body without type_version', async () => {
    const { event } = await recordEvent(deps, publish({ type: 'order.paid', payload: { order: 77812 } }));
    expect(event.typeVersion).toBeUndefined();
    expect(JSON.parse(event.body)).not.toHaveProperty('type_version');
    expect(JSON.parse(event.body)).toMatchObject({ type: 'order.paid', payload: { order: 77812 } });
  });

  it('still checks the types of the catalog, and refuses a version for an unknown type', async () => {
    const { amount: _amount, ...payload } = transferPayload();
    await expect(recordEvent(deps, publish({ payload }))).rejects.toMatchObject({
      params: [{ name: 'payload/amount' }],
    });
    await expect(recordEvent(deps, publish({ type: 'order.paid', version: 1 }))).rejects.toMatchObject({
      params: [{ name: 'version' }],
    });
    expect(events.events.size).toBe(0);
  });
});

describe('a publish of a stored id is answered with its event, whatever the catalog says now', () => {
  it('answers the stored event after a new version made its payload invalid', async () => {
    storeType(store, ONE_VERSION);
    const operator = (fields: Partial<PublishInput>) => publish({ type: OPERATOR, ...fields });
    const first = await recordEvent(deps, operator({ payload: WITHOUT_REMITTANCE }));
    addVersionTwo();
    const again = await recordEvent(deps, operator({ payload: { ...WITHOUT_REMITTANCE } }));
    expect(again).toEqual({ created: false, event: first.event });
    // Other content under the id: the refusal, as for any publish the catalog refuses.
    const other = recordEvent(deps, operator({ payload: { ...WITHOUT_REMITTANCE, amount: '1.00' } }));
    await expect(other).rejects.toBeInstanceOf(ValidationError);
    // Without an id nothing can be the same event: refused.
    await expect(recordEvent(deps, operator({ id: undefined, payload: WITHOUT_REMITTANCE }))).rejects.toThrow(
      ValidationError,
    );
    expect(events.events.size).toBe(1);
  });

  it('answers an event a transition accepted once the transition ended', async () => {
    const input = publish({ type: 'order.paid', payload: { order: 1 } });
    const first = await recordEvent({ ...deps, acceptUnknownTypes: true }, input);
    expect(await recordEvent(deps, input)).toEqual({ created: false, event: first.event });
  });

  it('compares the version when the publish names one', async () => {
    storeType(store, TWO_VERSIONS);
    await recordEvent(deps, publish({ type: OPERATOR, version: 1 }));
    expect((await recordEvent(deps, publish({ type: OPERATOR }))).created).toBe(false);
    expect((await recordEvent(deps, publish({ type: OPERATOR, version: 1 }))).created).toBe(false);
    await expect(recordEvent(deps, publish({ type: OPERATOR, version: 2 }))).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe("the operational notices' types are Herald's own", () => {
  const NOTICE = 'endpoint_failing';
  const reserved = {
    kind: 'invalid',
    params: [
      {
        name: 'type',
        reason: expect.stringMatching(/^endpoint_failing is reserved for Herald's operational notices/),
      },
    ],
  };

  it('refuses a publish of one (400 naming type), whatever its payload, also during a transition, before any read', async () => {
    const example = noticeEventType(NOTICE)?.versions[0]?.examples[0]?.payload;
    expect(example).toBeDefined();
    for (const payload of [example, transferPayload()]) {
      const refused = recordEvent(deps, publish({ type: NOTICE, payload }));
      expect(await refusedBeforeAnyRead(refused)).toMatchObject(reserved);
      const transition = recordEvent(
        { ...deps, acceptUnknownTypes: true },
        publish({ type: NOTICE, payload }),
      );
      expect(await refusedBeforeAnyRead(transition)).toMatchObject(reserved);
    }
  });

  it('refuses it in a batch entry by entry, the others stored', async () => {
    const results = await recordEvents(deps, [
      publish({ id: id(1) }),
      publish({ id: id(2), type: 'event_attempts_exhausted' }),
    ]);
    expect(results[0]).toMatchObject({ created: true });
    expect(results[1]).toMatchObject({
      error: { kind: 'invalid', params: [{ name: 'type', reason: expect.stringMatching(/reserved/) }] },
    });
    expect(events.events.size).toBe(1);
  });
});

describe('a batch checks each entry as a single publish', () => {
  it('stores the valid entries with their version and refuses each other one by itself', async () => {
    storeType(store, TWO_VERSIONS);
    const { amount: _amount, ...withoutAmount } = transferPayload();
    const results = await recordEvents(deps, [
      publish({ id: id(1) }),
      publish({ id: id(2), payload: withoutAmount }),
      publish({ id: id(3), type: 'order.paid' }),
      publish({ id: id(4), version: 7 }),
      publish({ id: id(5), type: DEBIT, payload: transferPayload() }),
      publish({ id: id(6), type: OPERATOR, payload: WITHOUT_REMITTANCE, version: 1 }),
      publish({ id: id(7), type: OPERATOR, payload: WITHOUT_REMITTANCE }),
    ]);
    expect(results[0]).toMatchObject({ created: true, event: { typeVersion: 1, sequence: 1 } });
    expect(results.slice(1)).toMatchObject([
      { error: { params: [{ name: 'payload/amount' }] } },
      { error: expect.any(UnprocessableError) },
      { error: { kind: 'unprocessable', params: [{ name: 'version' }] } },
      { error: expect.any(ValidationError) },
      { created: true, event: { type: OPERATOR, typeVersion: 1, sequence: 2 } },
      { error: { params: [{ name: 'payload/remittance_information' }] } },
    ]);
    expect(events.events.size).toBe(2);
  });

  it('answers an entry whose id is stored with the same content, though the catalog refuses it now', async () => {
    storeType(store, ONE_VERSION);
    await recordEvent(deps, publish({ id: id(1), type: OPERATOR, payload: WITHOUT_REMITTANCE }));
    addVersionTwo();
    const results = await recordEvents(deps, [
      publish({ id: id(1), type: OPERATOR, payload: WITHOUT_REMITTANCE }),
      publish({ id: id(2), type: OPERATOR, payload: WITHOUT_REMITTANCE }),
    ]);
    expect(results[0]).toMatchObject({ created: false, event: { id: id(1), typeVersion: 1 } });
    expect(results[1]).toMatchObject({ error: { params: [{ name: 'payload/remittance_information' }] } });
  });
});
