/**
 * The event type catalog end to end, through the local API Gateway: `GET /event-types` and
 * `GET /event-types/{type}` with any organization key (the built-in types with their versions, schemas
 * and examples), an operator's type registered and given a second version with SigV4 (both versions
 * listed, for every organization), every problem of a bad declaration named, built-in types refused,
 * and the operator's own listing; an operator's type published through `POST /events`, each version
 * validated. Every answer is checked against the served OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { NOTICE_KINDS } from '#domain/notices/notice';
import { type EventTypeView, toEventTypeView } from '#http/event-types/event-type-view';
import { expectProblem } from '../support/e2e-http';
import {
  CARD_DECLARATION,
  CARD_V1,
  CARD_V1_EXAMPLES,
  CARD_V2,
  CARD_V2_EXAMPLES,
} from '../support/event-type-samples';
import { FR } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const CARD = 'acme.card_settled';
const BUILT_IN_VIEWS = BUILT_IN_EVENT_TYPES.map((definition) =>
  toEventTypeView({ definition, builtIn: true }),
);

/** A `read` key of organization B: any scope, any organization reads the catalog. */
async function readKeyOfB(): Promise<string> {
  const created = await op.admin('POST', `/admin/organizations/${op.fixture.orgB.orgId}/api-keys`, {
    name: 'catalog reader',
    scope: 'read',
  });
  expect(created.status, created.text).toBe(201);
  return (created.body as { api_key: string }).api_key;
}

describe('the catalog for an organization key', () => {
  it('lists the built-in types by name with every version, schema and example', async () => {
    const listed = await op.api.call('/event-types', { key: await readKeyOfB() });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.headers.get('link')).toBeNull();
    const byName = [...BUILT_IN_VIEWS].sort((a, b) => a.type.localeCompare(b.type));
    expect(listed.body).toEqual(expect.arrayContaining(byName));
    const names = (listed.body as EventTypeView[]).map((type) => type.type);
    expect(names).toEqual([...names].sort());
    const after = await op.api.call(`/event-types?after=${byName[0]?.type}`, { key: op.fixture.orgA.apiKey });
    const first = byName[0]?.type ?? '';
    expect((after.body as EventTypeView[]).map((type) => type.type)).toEqual(names.filter((n) => n > first));
  });

  it('shows one type, answers 404 for an unknown one, 400 for a malformed name and 401 without a key', async () => {
    const key = op.fixture.orgA.apiKey;
    const shown = await op.api.call('/event-types/credit_received', { key });
    expect(shown.body).toEqual(BUILT_IN_VIEWS.find((view) => view.type === 'credit_received'));
    // An operational notice's type is shown as such.
    const notice = await op.api.call('/event-types/endpoint_disabled', { key });
    expect(notice.body).toMatchObject({ type: 'endpoint_disabled', built_in: true, operational: true });
    // Named in the words a publish of an unknown type is refused with.
    expect(expectProblem(await op.api.call('/event-types/acme.nothing', { key }), 404).detail).toMatch(
      /^acme\.nothing is not an event type of the catalog; the known types are .*credit_received, credit_transfer_status_change, direct_debit_status_change/,
    );
    expect(
      expectProblem(await op.api.call('/event-types/Not%20A%20Type', { key }), 400).invalid_params,
    ).toEqual([{ name: 'type', reason: expect.stringContaining('snake_case') }]);
    expectProblem(await op.api.call('/event-types?after=x&after=y', { key }), 400);
    expectProblem(await op.api.call('/event-types'), 401);
  });
});

describe("an operator's types", () => {
  it('registers a type with SigV4, adds a second version, and every organization sees both', async () => {
    const created = await op.admin('PUT', `/admin/event-types/${CARD}`, CARD_DECLARATION);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ type: CARD, built_in: false, deprecated: false, latest_version: 1 });

    const again = await op.admin('PUT', `/admin/event-types/${CARD}`, CARD_DECLARATION);
    expect(again.status).toBe(200);
    expect((again.body as EventTypeView).latest_version).toBe(1);

    const second = await op.admin('PUT', `/admin/event-types/${CARD}`, {
      schema: CARD_V2,
      examples: CARD_V2_EXAMPLES,
      deprecated: true,
    });
    expect(second.status, second.text).toBe(200);
    const expected = {
      type: CARD,
      description: CARD_DECLARATION.description,
      built_in: false,
      operational: false,
      deprecated: true,
      latest_version: 2,
      versions: [
        { version: 1, deprecated: false, schema: CARD_V1, examples: CARD_V1_EXAMPLES },
        { version: 2, deprecated: false, schema: CARD_V2, examples: CARD_V2_EXAMPLES },
      ],
    };
    expect(second.body).toEqual(expected);

    for (const key of [op.fixture.orgA.apiKey, await readKeyOfB()]) {
      const listed = (await op.api.call('/event-types', { key })).body as EventTypeView[];
      expect(listed.find((type) => type.type === CARD)).toEqual(expected);
      expect((await op.api.call(`/event-types/${CARD}`, { key })).body).toEqual(expected);
    }
    const operators = (await op.admin('GET', '/admin/event-types')).body as EventTypeView[];
    expect(operators.map((type) => type.type)).toEqual(
      [CARD, ...BUILT_IN_VIEWS.map((v) => v.type), ...NOTICE_KINDS].sort(),
    );
    expect((await op.admin('GET', `/admin/event-types/${CARD}`)).body).toEqual(expected);
  });

  it('names every problem of a declaration, refuses built-in types, API keys and unsigned calls', async () => {
    const bad = await op.admin('PUT', '/admin/event-types/acme.broken', {
      description: 'Broken.',
      schema: { type: 'object', properties: { amount: { type: 'strung' } }, required: ['amount'] },
      examples: [{ name: 'Bad Name', summary: 'x', payload: {} }],
    });
    const problem = expectProblem(bad, 400);
    expect(problem.invalid_params?.map((param) => param.name)).toEqual([
      'schema/properties/amount/type',
      'examples/0/name',
    ]);
    const missing = expectProblem(
      await op.admin('PUT', '/admin/event-types/acme.empty', { deprecated: true }),
      400,
    );
    expect(missing.invalid_params?.map((param) => param.name)).toEqual(['description', 'schema', 'examples']);
    expect(
      expectProblem(
        await op.admin('PUT', '/admin/event-types/acme.extra', { ...CARD_DECLARATION, extra: 1 }),
        400,
      ).invalid_params?.[0]?.name,
    ).toBe('extra');
    const builtIn = expectProblem(
      await op.admin('PUT', '/admin/event-types/credit_received', CARD_DECLARATION),
      409,
    );
    expect(builtIn.detail).toMatch(/built-in type/);
    const path = '/admin/event-types/acme.keyed';
    expectProblem(
      await op.api.call(path, { method: 'PUT', key: op.fixture.orgA.apiKey, body: CARD_DECLARATION }),
      403,
    );
    expectProblem(await op.api.call(path, { method: 'PUT', body: CARD_DECLARATION }), 403);
    expectProblem(await op.admin('GET', '/admin/event-types/acme.broken'), 404);
  });
});

describe("publishing an operator's type", () => {
  const TYPE = 'acme.card_published';
  const publish = (body: Record<string, unknown>) =>
    op.api.call('/events', {
      method: 'POST',
      body: { account: FR, type: TYPE, ...body },
      sign: op.operator,
    });

  it('validates each version, the latest by default, and records the version in the event and its webhook', async () => {
    expect((await op.admin('PUT', `/admin/event-types/${TYPE}`, CARD_DECLARATION)).status).toBe(201);
    const second = await op.admin('PUT', `/admin/event-types/${TYPE}`, {
      schema: CARD_V2,
      examples: CARD_V2_EXAMPLES,
    });
    expect(second.status, second.text).toBe(200);

    // Without a version: the latest (2), which requires the currency.
    const latest = expectProblem(await publish({ payload: { amount: '12.50' } }), 400);
    expect(latest.invalid_params).toEqual([{ name: 'payload/currency', reason: expect.any(String) }]);
    expect(latest.detail).toMatch(/^payload does not pass acme\.card_published version 2: 1 problem at/);
    // Version 1 takes the amount alone, and refuses what its schema refuses.
    const v1 = await publish({ payload: { amount: '12.50' }, version: 1 });
    expect(v1.status, v1.text).toBe(201);
    expect(v1.body).toMatchObject({ type: TYPE, type_version: 1 });
    const badV1 = expectProblem(await publish({ payload: { amount: 12.5 }, version: 1 }), 400);
    expect(badV1.invalid_params?.map((param) => param.name)).toEqual(['payload/amount']);
    // Version 2 with its currency; its webhook carries the version.
    const id = randomUUID();
    const v2 = await publish({ id, payload: { amount: '12.50', currency: 'EUR' } });
    expect(v2.status, v2.text).toBe(201);
    expect(v2.body).toMatchObject({ id, type_version: 2 });
    const delivered = await waitFor(
      () => op.fixture.received.find((request) => request.headers['webhook-id'] === id),
      { timeoutMs: 30_000, what: `the webhook of ${id}` },
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ type: TYPE, type_version: 2 });
    const badV2 = expectProblem(await publish({ payload: { amount: '1', currency: 'euro' } }), 400);
    expect(badV2.invalid_params?.map((param) => param.name)).toEqual(['payload/currency']);
    // A version it does not have: 422, naming the versions it has.
    expect(expectProblem(await publish({ payload: {}, version: 3 }), 422).invalid_params).toEqual([
      { name: 'version', reason: `${TYPE} has no version 3; it has versions 1 to 2` },
    ]);
  });

  it("refuses a type outside the catalog 422, naming the known types, operators' ones among them", async () => {
    const problem = expectProblem(await publish({ type: 'acme.never_registered', payload: {} }), 422);
    expect(problem.invalid_params).toEqual([
      {
        name: 'type',
        reason: expect.stringMatching(
          /^acme\.never_registered is not an event type of the catalog; the known types are .*acme\.card_published, .*credit_transfer_status_change/,
        ),
      },
    ]);
  });
});
