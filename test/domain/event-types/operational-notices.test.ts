/**
 * The operational notices' catalog types: one per kind, declared from the one list of kinds (which the
 * OpenAPI enum also uses); each example passes; each kind's schema pins which fields carry a value; the
 * catalog lists them as operational, and neither names them to a publisher nor lets an operator take
 * their names.
 */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '#domain/errors';
import { NOTICE_EVENT_TYPES, noticeEventType } from '#domain/event-types/operational-notices';
import { compileEventType } from '#domain/event-types/payload-validation';
import { checkPayloadType } from '#domain/event-types/publish-check';
import { NOTICE_KINDS, type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { noticePayload } from '#domain/notices/notice-payload';
import { toEventTypeView } from '#http/event-types/event-type-view';
import { OPERATIONAL_EVENT } from '#http/openapi/operational-events';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { putEventType } from '#use-cases/event-types/put-event-type';
import { CARD_V1, CARD_V1_EXAMPLES } from '../../support/event-type-samples';
import { FakeClock } from '../../support/fakes/clock';
import { InMemoryEventTypeStore } from '../../support/fakes/event-type-store';
import { expectNoticesInCatalog } from '../../support/notice-schemas';
import { checkVersion } from '../../support/payload-check';

const compiled = (kind: NoticeKind) =>
  compileEventType(noticeEventType(kind) as NonNullable<ReturnType<typeof noticeEventType>>);

/** A notice of `kind` carrying every field a kind may carry. */
function full(kind: NoticeKind, fields: Partial<Notice> = {}): Notice {
  const key = { kind, orgId: 'org-1', endpointId: 'ep_0123456789ab', epoch: '2026-11-21T09:00:00.000Z' };
  return {
    ...key,
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at: '2026-11-21T09:30:00.000Z',
    consecutiveFailures: 4,
    ...fields,
  };
}

describe('the notice types of the catalog', () => {
  it('declares one type per kind, in the kinds’ order, and the listing’s enum is the same list', () => {
    expect(NOTICE_EVENT_TYPES.map((definition) => definition.type)).toEqual([...NOTICE_KINDS]);
    expect((OPERATIONAL_EVENT as { properties: { type: { enum: unknown } } }).properties.type.enum).toEqual([
      ...NOTICE_KINDS,
    ]);
  });

  it('has examples that pass their schemas, each a noticePayload with every field', () => {
    for (const definition of NOTICE_EVENT_TYPES) {
      const type = compileEventType(definition);
      for (const example of definition.versions[0]?.examples ?? []) {
        expect(checkVersion(type, 1, example.payload), example.name).toMatchObject({ ok: true });
        expect(Object.keys(example.payload)).toEqual(
          Object.keys(noticePayload(full(definition.type as NoticeKind))),
        );
      }
    }
  });

  it("refuses a payload missing what its kind must say, or saying another kind's fields", () => {
    const refused = (kind: NoticeKind, notice: Notice) =>
      checkVersion(compiled(kind), 1, JSON.parse(JSON.stringify(noticePayload(notice))));
    // A failing notice says when the endpoint would be disabled; no other kind's fields.
    expect(refused('endpoint_failing', full('endpoint_failing'))).toMatchObject({
      ok: false,
      violations: [{ pointer: '/disable_at' }],
    });
    const failing = { disableAt: '2026-11-26T09:00:00.000Z' };
    expect(refused('endpoint_failing', full('endpoint_failing', failing))).toMatchObject({ ok: true });
    expect(
      refused(
        'endpoint_failing',
        full('endpoint_failing', { ...failing, expiresAt: '2026-12-01T00:00:00.000Z' }),
      ),
    ).toMatchObject({ ok: false, violations: [{ pointer: '/expires_at' }] });
    // An exhausted event names the event and its type; a certificate its expiry.
    expect(refused('event_attempts_exhausted', full('event_attempts_exhausted'))).toMatchObject({
      ok: false,
    });
    const exhausted = full('event_attempts_exhausted', { eventId: 'evt_1', eventType: 'credit_received' });
    expect(refused('event_attempts_exhausted', exhausted)).toMatchObject({ ok: true });
    expect(refused('client_certificate_expiring', full('client_certificate_expiring'))).toMatchObject({
      ok: false,
      violations: [{ pointer: '/expires_at' }],
    });
    expectNoticesInCatalog([
      full('client_certificate_expiring', { expiresAt: '2026-12-01T00:00:00.000Z' }),
      full('endpoint_disabling_soon', { ...failing, percent: 50 }),
      full('endpoint_enabled', { reason: 'receiver answered 410 Gone' }),
    ]);
  });

  it('is listed (built in, operational) but reserved: a publish is 400 naming type, and no name is given to publishers', async () => {
    const catalog = createEventTypeCatalog({ store: new InMemoryEventTypeStore(), now: new FakeClock().now });
    const listed = [];
    for await (const entry of catalog.list()) listed.push(toEventTypeView(entry));
    const notices = listed.filter((view) => view.operational);
    expect(notices.map((view) => view.type)).toEqual([...NOTICE_KINDS].sort());
    expect(notices.every((view) => view.built_in)).toBe(true);
    expect(listed.find((view) => view.type === 'credit_received')?.operational).toBe(false);
    expect(await catalog.names()).not.toContain('endpoint_failing');

    for (const kind of NOTICE_KINDS) {
      const resolution = await catalog.resolve(kind);
      expect(resolution).toEqual({ kind: 'reserved', type: kind });
      const publish = { type: kind, version: undefined, payload: {} };
      for (const accept of [false, true]) {
        expect(() => checkPayloadType(resolution, publish, accept)).toThrow(
          expect.objectContaining({
            kind: 'invalid',
            params: [{ name: 'type', reason: expect.stringContaining('reserved') }],
          }),
        );
      }
    }
  });

  it('cannot be registered or changed by an operator', async () => {
    const store = new InMemoryEventTypeStore();
    const write = {
      type: 'endpoint_recovered',
      description: 'mine',
      schema: CARD_V1,
      examples: CARD_V1_EXAMPLES,
    };
    await expect(putEventType(store, write)).rejects.toThrow(ConflictError);
    expect(await store.typeNames()).toEqual([]);
  });
});
