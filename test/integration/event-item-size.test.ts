/**
 * What one event item holds in DynamoDB Local (400 KB): a payload at the highest limit a publisher may set
 * beside every attempt the event may ever make, each at its largest; and an attempt an item cannot hold
 * (an event stored before that bound) refused as `EventItemFullError`, with nothing written.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { MAX_ATTEMPTS } from '#config/delivery';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { MAX_PAYLOAD_BYTES_CEILING } from '#domain/event-input';
import type { DeliveryAttempt } from '#domain/model';
import { EventItemFullError } from '#domain/ports';
import { answerBesideUrl, RESPONSE_BODY_LIMIT_BYTES } from '#domain/truncate';
import { testIban } from '../support/delivery-queue-helpers';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];
let read: EventStoreFixture['read'];

useFixture(
  () => startEventStoreFixture('event-item-size'),
  (fixture) => {
    ({ store, stored, read } = fixture);
  },
);

/** JSON-safe printable text that deflate can hardly shorten. */
function randomText(length: number): string {
  const alphabet =
    '!#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~';
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** An event whose payload has `payloadBytes` serialised, stored on a log of its own. */
async function eventWithPayload(payloadBytes: number) {
  const id = randomUUID();
  const payload = `{"blob":"${randomText(payloadBytes - '{"blob":""}'.length)}"}`;
  const body = `{"id":"${id}","type":"credit_transfer_status_change","account":"${testIban()}","triggered_at":"2026-11-20T09:00:00.000Z","sequence":1,"payload":${payload}}`;
  return stored(newEvent({ id, orgId: randomUUID(), account: testIban(), body }));
}

/** An attempt at its largest: a long URL and the answer beside it, two tokens and two keys. */
function largestAttempt(): DeliveryAttempt {
  const url = `https://hooks.example.com/${'p'.repeat(1_000)}`;
  return {
    deliveredAt: new Date().toISOString(),
    responseStatus: 503,
    responseBody: answerBesideUrl('\u00e9'.repeat(RESPONSE_BODY_LIMIT_BYTES), url),
    responseTimeMs: 10_000,
    url,
    signingKeys: [
      'whk_0123456789abcdef',
      'whk_123456789abcdef0',
      'whak_0123456789abcdef',
      'whak_123456789abcdef0',
    ],
    signature: `t=1790000000,sha256=${'a'.repeat(64)},sha256=${'b'.repeat(64)}`,
  };
}

describe('an event item', () => {
  it('holds every attempt an event may make beside a payload at the highest limit', async () => {
    const event = await eventWithPayload(MAX_PAYLOAD_BYTES_CEILING);
    for (let n = 0; n < MAX_CYCLES * MAX_ATTEMPTS; n++) {
      await store.recordAttempt(event, largestAttempt(), 'pending', Date.now());
    }
    expect((await read(event.id)).deliveries).toHaveLength(MAX_CYCLES * MAX_ATTEMPTS);
  }, 60_000);

  it('refuses an attempt it cannot hold as EventItemFullError, and writes nothing', async () => {
    // Stored under the old, higher bound: the body alone takes most of the item.
    const event = await eventWithPayload(390_000);
    let refused: unknown;
    let recorded = 0;
    while (refused === undefined && recorded < 40) {
      refused = await store.recordAttempt(event, largestAttempt(), 'pending').then(
        () => void recorded++,
        (error: unknown) => error,
      );
    }
    expect(refused).toBeInstanceOf(EventItemFullError);
    const after = await read(event.id);
    expect(after).toMatchObject({ webhookStatus: 'pending', webhookRetries: recorded });
    // The short attempt the consumer records instead still fits.
    const { url: _url, ...short } = largestAttempt();
    await store.recordAttempt(event, { ...short, responseBody: 'short' }, 'failed');
    expect((await read(event.id)).deliveries).toHaveLength(after.deliveries.length + 1);
  });
});
