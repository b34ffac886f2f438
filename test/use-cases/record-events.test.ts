/**
 * A batch publish (`recordEvents`), with the in-memory fakes: each entry checked and answered as a single
 * publish, one bad entry refusing only itself, the entries of one account stored together in order, the
 * batch idempotent by id.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { PUBLISH_BATCH_LIMIT } from '#config/limits';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import type { RecordEventDeps } from '#use-cases/events/record-event';
import { type BatchEntryResult, recordEvents } from '#use-cases/events/record-events';
import { publishCatalog } from '../support/event-type-catalog';
import type { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import { TRANSFER, transferPayload } from '../support/payloads';
import { publishWorld } from '../support/publish-world';

const IBAN = 'DE89370400440532013000';
const OTHER_IBAN = 'GB82WEST12345698765432';
const id = (n: number) => `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`;

let directory: InMemoryDirectoryStore;
let events: InMemoryEventStore;
let deps: RecordEventDeps;

beforeEach(async () => {
  ({ directory, events, deps } = await publishWorld({
    catalog: publishCatalog().catalog,
    accounts: [
      { iban: IBAN, hooked: true },
      { iban: OTHER_IBAN, hooked: true },
    ],
  }));
});

const entry = (n: number, fields: Partial<PublishInput> = {}): PublishInput => ({
  id: id(n),
  account: IBAN,
  type: TRANSFER,
  payload: transferPayload({ transfer_id: `tr_${n}` }),
  ...fields,
});

const sequenceOf = (result: BatchEntryResult | undefined) => {
  if (result === undefined || 'error' in result) throw new Error('refused');
  return result.event.sequence;
};

describe('recordEvents', () => {
  it('stores each account’s entries in the batch’s order at consecutive sequences and answers them in order', async () => {
    const results = await recordEvents(deps, [
      entry(1),
      entry(2, { account: OTHER_IBAN }),
      entry(3),
      entry(4, { account: 'gb82 west 1234 5698 7654 32' }),
      entry(5),
    ]);
    expect(results.map(sequenceOf)).toEqual([1, 1, 2, 2, 3]);
    expect(results.every((result) => 'created' in result && result.created)).toBe(true);
    expect(results[3]).toMatchObject({ event: { id: id(4), account: OTHER_IBAN } });
  });

  it('refuses a bad entry by itself, naming its field, and stores the others', async () => {
    const results = await recordEvents(deps, [
      entry(1),
      entry(2, { payload: [] as unknown as object }),
      entry(3, { account: 'DE00000000000000000000' }),
      entry(4, { type: 'Not A Type' }),
      entry(5, { triggeredAt: 'yesterday' }),
      entry(6),
    ]);
    expect(results.map((result) => ('error' in result ? result.error : undefined))).toMatchObject([
      undefined,
      { params: [{ name: 'payload' }] },
      { params: [{ name: 'account' }] },
      { params: [{ name: 'type' }] },
      { params: [{ name: 'triggeredAt' }] },
      undefined,
    ]);
    expect([results[0], results[5]].map(sequenceOf)).toEqual([1, 2]);
    expect(events.events.size).toBe(2);
  });

  it('refuses the entries of an unknown account, each, and stores nothing for them', async () => {
    const unknown = 'FR7630006000011234567890189';
    const results = await recordEvents(deps, [
      entry(1, { account: unknown }),
      entry(2),
      entry(3, { account: unknown }),
    ]);
    expect(results[0]).toMatchObject({ error: expect.any(NotFoundError) });
    expect(results[2]).toMatchObject({ error: expect.any(NotFoundError) });
    expect(sequenceOf(results[1])).toBe(1);
  });

  it('stores nothing twice when the batch, or part of it, is sent again, and answers a changed entry 409', async () => {
    const first = await recordEvents(deps, [entry(1), entry(2), entry(3)]);
    const again = await recordEvents(deps, [
      entry(2),
      entry(4),
      entry(1),
      entry(3, { payload: transferPayload({ transfer_id: 'tr_changed' }) }),
    ]);
    expect(again[0]).toMatchObject({ created: false, event: { id: id(2), sequence: 2 } });
    expect(again[1]).toMatchObject({ created: true, event: { id: id(4), sequence: 4 } });
    expect(again[2]).toMatchObject({ created: false, event: { id: id(1), sequence: 1 } });
    expect(again[3]).toMatchObject({ error: expect.any(ConflictError) });
    expect(first.map(sequenceOf)).toEqual([1, 2, 3]);
    expect(events.events.size).toBe(4);
  });

  it(`refuses more than ${PUBLISH_BATCH_LIMIT} entries as a whole, reading nothing`, async () => {
    const many = Array.from({ length: PUBLISH_BATCH_LIMIT + 1 }, (_, n) => entry(n));
    await expect(recordEvents(deps, many)).rejects.toThrow(ValidationError);
    expect(directory.reads.getAccount).toBe(0);
    expect(await recordEvents(deps, [])).toEqual([]);
  });
});
