/**
 * `POST /events/batch` end to end, SigV4-signed through the local API Gateway: one invalid entry refuses
 * only itself (a payload its type's schema refuses named by its pointer within the batch, a type outside
 * the catalog with the known ones), a batch sent twice stores each event once, and batch and single publishers racing on one
 * account leave its sequences 1..N with no gap and no duplicate, which the feed returns in order.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testIban } from '../support/delivery-queue-helpers';
import { expectProblem } from '../support/e2e-http';
import { DE, TRANSFER, UNREGISTERED } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';

const op = useOperatorFixture();

interface Result {
  status: number;
  event?: { id: string; sequence: number; account: string };
  problem?: { status: number; detail: string; invalid_params?: { name: string; reason: string }[] };
}

const batch = async (events: unknown[]) => {
  const response = await op.api.call('/events/batch', {
    method: 'POST',
    body: { events },
    sign: op.operator,
  });
  expect(response.status, response.text).toBe(200);
  return (response.body as { results: Result[] }).results;
};

/** A new account of organization A, without a webhook URL (its events are recorded, not delivered). */
async function newAccount(): Promise<string> {
  const iban = testIban();
  const put = await op.admin('PUT', `/admin/accounts/${iban}`, { org: op.fixture.orgA.orgId });
  expect(put.status, put.text).toBeLessThan(300);
  return iban;
}

/** Every event of the account's feed, following `Link: next`. */
async function feedOf(iban: string): Promise<{ id: string; sequence: number; payload: unknown }[]> {
  const events: { id: string; sequence: number; payload: unknown }[] = [];
  let after = 0;
  for (;;) {
    const answer = await op.api.call(`/accounts/${iban}/events?after_sequence=${after}`, {
      key: op.fixture.orgA.apiKey,
    });
    expect(answer.status, answer.text).toBe(200);
    const page = answer.body as { id: string; sequence: number; payload: unknown }[];
    events.push(...page);
    const next = /after_sequence=(\d+)[^>]*>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    if (next === undefined) return events;
    after = Number(next);
  }
}

describe('POST /events/batch', () => {
  it('stores the valid entries of a batch with one invalid entry, and names the bad one by index and field', async () => {
    const iban = await newAccount();
    const payload = (n: number) => transferPayload({ transfer_id: `tr_${n}` });
    const entry = (n: number) => ({ id: randomUUID(), account: iban, type: TRANSFER, payload: payload(n) });
    const { amount: _, ...withoutAmount } = payload(6);
    const results = await batch([
      entry(0),
      { ...entry(1), payload: 'not an object' },
      entry(2),
      { ...entry(3), account: UNREGISTERED },
      { ...entry(4), colour: 'red' },
      entry(5),
      { ...entry(6), payload: { ...withoutAmount, currency: 'euro' } },
      { ...entry(7), type: 'order.paid' },
      { ...entry(8), version: 2 },
    ]);
    expect(results.map((result) => result.status)).toEqual([201, 400, 201, 422, 400, 201, 400, 422, 422]);
    expect(results.filter((result) => result.event).map((result) => result.event?.sequence)).toEqual([
      1, 2, 3,
    ]);
    expect(results[1]?.problem?.invalid_params?.[0]?.name).toBe('events[1].payload');
    expect(results[3]?.problem?.invalid_params?.[0]?.name).toBe('events[3].account');
    expect(results[4]?.problem?.invalid_params?.[0]?.name).toBe('events[4].colour');
    // A payload its type's schema refuses: each violation by its pointer, within the batch.
    expect(results[6]?.problem?.invalid_params?.map((param) => param.name).sort()).toEqual([
      'events[6].payload/amount',
      'events[6].payload/currency',
    ]);
    expect(results[7]?.problem?.invalid_params).toEqual([
      {
        name: 'events[7].type',
        reason:
          'order.paid is not an event type of the catalog; the known types are credit_received, credit_transfer_status_change, direct_debit_status_change',
      },
    ]);
    expect(results[8]?.problem?.invalid_params?.[0]?.name).toBe('events[8].version');
    expect((await feedOf(iban)).map((event) => event.payload)).toEqual([payload(0), payload(2), payload(5)]);
    // A body that is no batch is refused whole.
    const whole = await op.api.call('/events/batch', {
      method: 'POST',
      body: { events: [] },
      sign: op.operator,
    });
    expect(expectProblem(whole, 400).invalid_params?.[0]?.name).toBe('events');
  });

  it('stores each event once when the same batch is sent twice', async () => {
    const iban = await newAccount();
    const events = Array.from({ length: 20 }, (_, n) => ({
      id: randomUUID(),
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: `tr_${n}` }),
    }));
    const first = await batch(events);
    const again = await batch(events);
    expect(first.every((result) => result.status === 201)).toBe(true);
    expect(again.every((result) => result.status === 200)).toBe(true);
    expect(again.map((result) => result.event)).toEqual(first.map((result) => result.event));
    const feed = await feedOf(iban);
    expect(feed.map((event) => event.id)).toEqual(events.map((event) => event.id));
  });

  it('leaves sequences 1..N with no gap and no duplicate under 8 batch and 8 single publishers of one account, the feed in order', async () => {
    const iban = await newAccount();
    const batches = Array.from({ length: 8 }, (_, b) =>
      Array.from({ length: 25 }, (_, n) => ({
        id: randomUUID(),
        account: iban,
        type: TRANSFER,
        payload: transferPayload({ transfer_id: `tr_${b}_${n}` }),
      })),
    );
    const singles = Array.from({ length: 8 }, (_, s) => ({
      id: randomUUID(),
      account: iban,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: `tr_single_${s}` }),
    }));
    // As the docs tell a publisher: an entry or a publish answered 503 busy (its time ran out, as it may
    // on a loaded machine) is sent again with the same id. Its sequence was given back (a void).
    let busy = 0;
    /** The batch's results, and whether an entry had to be sent again (it then has a later sequence). */
    const resendingBatch = async (events: (typeof batches)[number]) => {
      const results = await batch(events);
      let resent = false;
      for (let send = 1; send < 5; send++) {
        const again = results.flatMap((result, k) => (result.status === 503 ? [k] : []));
        if (again.length === 0) break;
        busy += again.length;
        resent = true;
        const answers = await batch(again.map((k) => events[k]));
        for (const [j, k] of again.entries()) {
          const answer = answers[j];
          if (answer) results[k] = answer;
        }
      }
      return { results, resent };
    };
    const resendingSingle = async (event: (typeof singles)[number]) => {
      for (let send = 1; ; send++) {
        const response = await op.api.call('/events', { method: 'POST', body: event, sign: op.operator });
        if (response.status !== 503 || send === 5) return response;
        busy += 1;
      }
    };
    const [batched, single] = await Promise.all([
      Promise.all(batches.map((events) => resendingBatch(events))),
      Promise.all(singles.map((event) => resendingSingle(event))),
    ]);
    for (const response of single) expect(response.status, response.text).toBe(201);
    for (const { results } of batched) expect(results.every((result) => result.status === 201)).toBe(true);
    const total = 8 * 25 + 8;
    const feed = await feedOf(iban);
    const sequences = feed.map((event) => event.sequence);
    expect(new Set(feed.map((event) => event.id)).size).toBe(total);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    // Gap-free: 1..N exactly, but for the sequences busy publishes gave back (voids the feed passes).
    if (busy === 0) expect(sequences).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    else expect(sequences.at(-1)).toBeLessThanOrEqual(total + busy);
    // Each batch's events in its order (consecutive but where a racing publish took its first sequence).
    for (const { results } of batched.filter((sent) => !sent.resent)) {
      const ordered = results.map((result) => result.event?.sequence ?? 0);
      expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
    }
    // A DE event published singly meanwhile is not in this account's log.
    expect(feed.some((event) => (event as { account?: string }).account === DE)).toBe(false);
  });
});
