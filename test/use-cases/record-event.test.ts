import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { CREDIT_TRANSFER_STATUS_CHANGE } from '#domain/event-types/credit-transfer-status-change';
import { type RecordEventDeps, recordEvent } from '#use-cases/events/record-event';
import { publishCatalog } from '../support/event-type-catalog';
import type { FakeClock } from '../support/fakes/clock';
import type { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import { TRANSFER, transferPayload } from '../support/payloads';
import { PUBLISH_BASE_URL, publishWorld } from '../support/publish-world';

const IBAN = 'DE89370400440532013000';
const SILENT_IBAN = 'GB82WEST12345698765432';
const ID = '0193a7c4-1d2e-7f00-8a00-0000000000aa';
const PAYLOAD = transferPayload();
/** A type of its own name with the transfer's schema: an event that differs from another by its type only. */
const TWIN = 'credit_transfer_status_change_twin';
const { catalog } = publishCatalog([{ ...CREDIT_TRANSFER_STATUS_CHANGE, type: TWIN }]);

let clock: FakeClock;
let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let deps: RecordEventDeps;
let orgId: string;

beforeEach(async () => {
  ({ clock, directory, events, deps, orgId } = await publishWorld({
    catalog,
    accounts: [
      { iban: IBAN, hooked: true },
      { iban: SILENT_IBAN, hooked: false },
    ],
  }));
});

describe('recordEvent', () => {
  it('creates a pending event with the body fixed now, unsigned, without reading the organization', async () => {
    const orgReads = directory.reads.getOrganization;
    const result = await recordEvent(deps, {
      account: 'de89 3704 0044 0532 0130 00',
      type: 'credit_transfer_status_change',
      payload: PAYLOAD,
      id: ID,
    });
    expect(result.created).toBe(true);
    expect(result.event).toMatchObject({
      id: ID,
      orgId,
      account: IBAN,
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-21T12:00:00.000Z',
      webhookStatus: 'pending',
      webhookRetries: 0,
      deliveries: [],
    });
    expect(JSON.parse(result.event.body)).toEqual({
      id: ID,
      type: 'credit_transfer_status_change',
      type_version: 1,
      account: IBAN,
      sequence: 1,
      triggered_at: '2026-11-21 12:00:00',
      payload: PAYLOAD,
      _links: { self: `${PUBLISH_BASE_URL}/events/${ID}`, account: `${PUBLISH_BASE_URL}/accounts/${IBAN}` },
    });
    // Every attempt signs itself: nothing is signed, and no token is read, at publish.
    expect(result.event.signature).toBeUndefined();
    expect(directory.reads.getOrganization).toBe(orgReads);
    expect(events.events.get(ID)).toEqual(result.event);
    expect(events.expiresAt.get(ID)).toBeUndefined();
  });

  it('records an event of an account without a webhook URL as skipped', async () => {
    const result = await recordEvent(deps, { account: SILENT_IBAN, type: TRANSFER, payload: PAYLOAD });
    expect(result.event.webhookStatus).toBe('skipped');
  });

  it('generates a UUID v7 carrying the injected time when no id is given', async () => {
    const result = await recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD });
    expect(result.event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(Number.parseInt(result.event.id.replaceAll('-', '').slice(0, 12), 16)).toBe(clock.epochMs());
  });

  it("sets the expiry from the settings item's retention and the injected clock", async () => {
    directory.settings.eventRetentionDays = 30;
    await recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD, id: ID });
    expect(events.expiresAt.get(ID)).toBe(clock.epochMs() / 1000 + 30 * 86_400);
  });

  it('returns the stored event for the same id and content (created: false), even later', async () => {
    const first = await recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD, id: ID });
    clock.advance(60_000);
    const again = await recordEvent(deps, { account: IBAN, type: TRANSFER, payload: { ...PAYLOAD }, id: ID });
    expect(again).toEqual({ created: false, event: first.event });
    expect(events.events.size).toBe(1);
  });

  it('treats an explicit, equal triggeredAt as the same content', async () => {
    const input = {
      account: IBAN,
      type: TRANSFER,
      payload: PAYLOAD,
      id: ID,
      triggeredAt: '2026-01-01T00:00:00Z',
    };
    await recordEvent(deps, input);
    expect((await recordEvent(deps, input)).created).toBe(false);
  });

  it.each([
    ['payload', { payload: { ...PAYLOAD, amount: '99.00' } }],
    ['type', { type: TWIN }],
    ['account', { account: SILENT_IBAN }],
    ['triggeredAt', { triggeredAt: '2026-01-01T00:00:00Z' }],
  ])(
    'refuses the same id with another %s as a conflict and keeps the stored event',
    async (_field, change) => {
      const first = await recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD, id: ID });
      const again = recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD, id: ID, ...change });
      await expect(again).rejects.toBeInstanceOf(ConflictError);
      expect(events.events.get(ID)).toEqual(first.event);
    },
  );

  it('refuses an unknown account and stores nothing', async () => {
    const attempt = recordEvent(deps, { account: 'NL91ABNA0417164300', type: TRANSFER, payload: PAYLOAD });
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    await expect(attempt).rejects.toThrow(/account: no account NL91ABNA0417164300/);
    expect(events.events.size).toBe(0);
  });

  it('refuses a deleted account (its tombstone is no account) and stores nothing', async () => {
    await directory.deleteAccount({ iban: IBAN, orgId, deletedAt: clock.iso() });
    const attempt = recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD });
    await expect(attempt).rejects.toThrow(/account: no account DE89370400440532013000/);
    expect(events.events.size).toBe(0);
  });

  it.each([
    ['account', { account: 'DE00370400440532013000' }],
    ['type', { type: 'Not-Snake' }],
    ['payload', { payload: [1, 2] }],
    ['id', { id: 'not-a-uuid' }],
    ['triggeredAt', { triggeredAt: '2026-01-01 00:00:00' }],
    ['version', { version: 0 }],
    ['version', { version: 1.5 }],
  ])('refuses a bad %s before any read or write', async (field, change) => {
    const attempt = recordEvent(deps, { account: IBAN, type: TRANSFER, payload: PAYLOAD, ...change });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ params: [{ name: field }] });
    expect(directory.reads.getAccount).toBe(0);
    expect(events.events.size).toBe(0);
  });

  it('applies the configured payload limit', async () => {
    const attempt = recordEvent(
      { ...deps, maxPayloadBytes: 10 },
      { account: IBAN, type: TRANSFER, payload: PAYLOAD },
    );
    await expect(attempt).rejects.toMatchObject({ params: [{ name: 'payload' }] });
  });
});
