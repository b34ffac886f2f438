/**
 * `POST /events` end to end: the gateway publishes over HTTP with an AWS identity, SigV4-signed (by the
 * AWS SDK's signer), through the local API Gateway, which verifies the signature like API Gateway's IAM
 * authorization. Created, idempotent and conflicting publishes, every refused input (nothing stored), the
 * catalog's checks (a payload its type's schema refuses, a type outside the catalog, the version recorded),
 * unsigned and wrongly signed requests and org API keys (403), and the published event's delivery.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AwsKey } from '#cli/target';
import { GATEWAY_PROBLEMS } from '#http/problem/problem-types';
import { expectProblem, sigv4Headers } from '../support/e2e-http';
import { DE, FR, TRANSFER, UNREGISTERED } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();

const publish = (body: unknown, sign: AwsKey = op.operator) =>
  op.api.call('/events', { method: 'POST', body, sign });

describe('POST /events', () => {
  it('answers 201 with the unsigned event, whose attempt then shows the signature it was sent with', async () => {
    const id = randomUUID();
    const payload = transferPayload({ transfer_id: 'tr_api' });
    const response = await publish({
      account: 'fr14 2004 1010 0505 0001 3m02 606',
      type: TRANSFER,
      payload,
      id,
    });
    expect(response.status, response.text).toBe(201);
    const event = response.body as { id: string; signature: string | null; _links: { self: string } };
    expect(event).toMatchObject({
      id,
      account: FR,
      type: TRANSFER,
      type_version: 1,
      payload,
      webhook_status: 'pending',
      signature: null,
    });
    expect(response.headers.get('location')).toBe(event._links.self);

    const delivered = await waitFor(
      () => op.fixture.received.find((request) => request.headers['webhook-id'] === id),
      { timeoutMs: 30_000, what: `the webhook of ${id}` },
    );
    // The body carries the version its payload passed, after the type.
    expect(JSON.parse(delivered.body)).toMatchObject({ id, type: TRANSFER, type_version: 1, payload });
    expect(delivered.body).toContain(`"type":"${TRANSFER}","type_version":1,"account":`);
    const read = await waitFor(async () => {
      const answer = await op.api.call(`/events/${id}`, { key: op.fixture.orgA.apiKey });
      const shown = answer.body as { webhook_status: string; signature: string | null };
      return shown.webhook_status === 'success' && shown;
    });
    expect(read.signature).toBe(delivered.headers['x-signature']);
  });

  it('answers 200 with the stored event for the same id and content, and 409 for other content', async () => {
    const body = {
      account: DE,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_n1' }),
      id: randomUUID(),
      triggered_at: '2026-11-20T10:00:00Z',
    };
    const first = await publish(body);
    expect(first.status, first.text).toBe(201);
    const again = await publish(body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = expectProblem(
      await publish({ ...body, payload: transferPayload({ transfer_id: 'tr_n2' }) }),
      409,
    );
    expect(other.detail).toMatch(/already exists with different content/);
    const read = await op.api.call(`/events/${body.id}`, { key: op.fixture.orgA.apiKey });
    expect((read.body as { payload: unknown }).payload).toEqual(body.payload);
  });

  it('names the field of every refused input and stores nothing', async () => {
    const valid = { account: DE, type: TRANSFER, payload: transferPayload() };
    const { amount: _, ...withoutAmount } = transferPayload();
    const cases: [unknown, number, string][] = [
      [{ ...valid, account: UNREGISTERED }, 422, 'account'],
      [{ ...valid, account: 'DE00370400440532013000' }, 400, 'account'],
      [{ ...valid, account: undefined }, 400, 'account'],
      [{ ...valid, type: 'Credit Transfer' }, 400, 'type'],
      [{ ...valid, type: 'x'.repeat(65) }, 400, 'type'],
      [{ ...valid, payload: [1, 2] }, 400, 'payload'],
      [{ ...valid, payload: 'text' }, 400, 'payload'],
      [
        { ...valid, payload: transferPayload({ remittance_information: 'x'.repeat(70_000) }) },
        400,
        'payload',
      ],
      [{ ...valid, payload: withoutAmount }, 400, 'payload/amount'],
      [{ ...valid, type: 'order.paid' }, 422, 'type'],
      [{ ...valid, version: 2 }, 422, 'version'],
      [{ ...valid, version: 0 }, 400, 'version'],
      [{ ...valid, id: 'not-a-uuid' }, 400, 'id'],
      [{ ...valid, id: randomUUID().toUpperCase() }, 400, 'id'],
      [{ ...valid, triggered_at: '2026-11-20 10:00:00' }, 400, 'triggered_at'],
      [{ ...valid, triggered_at: 1_700_000_000 }, 400, 'triggered_at'],
      [{ ...valid, extra: 1 }, 400, 'extra'],
      [[valid], 400, 'body'],
    ];
    for (const [body, status, field] of cases) {
      const problem = expectProblem(await publish(body), status);
      expect(problem.invalid_params?.[0]?.name, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    const notJson = expectProblem(
      await op.api.call('/events', { method: 'POST', rawBody: '{"account":', sign: op.operator }),
      400,
    );
    expect(notJson.invalid_params?.[0]?.name).toBe('body');

    const listed = await op.api.call(`/events?account=${DE}&per_page=100`, { key: op.fixture.orgA.apiKey });
    // Only the one event the idempotency test published for DE.
    expect((listed.body as { id: string }[]).length).toBe(1);
  });

  it('answers 403 to an unsigned request, an org API key, a wrong secret or a changed body', async () => {
    const body = { account: DE, type: TRANSFER, payload: transferPayload(), id: randomUUID() };
    const unsigned = expectProblem(await op.api.call('/events', { method: 'POST', body }), 403);
    expect(unsigned.type).toBe('https://herald.dev/problems/signature-required');
    expect(unsigned.detail).toBe(GATEWAY_PROBLEMS.MISSING_AUTHENTICATION_TOKEN.detail);
    const withKey = expectProblem(
      await op.api.call('/events', { method: 'POST', body, key: op.fixture.orgA.apiKey }),
      403,
    );
    expect(withKey.type).toBe('https://herald.dev/problems/signature-required');
    expect(withKey.detail).toBe(GATEWAY_PROBLEMS.INCOMPLETE_SIGNATURE.detail);
    const wrongSecret = expectProblem(
      await publish(body, { ...op.operator, secretAccessKey: 'x'.repeat(40) }),
      403,
    );
    expect(wrongSecret.type).toBe('https://herald.dev/problems/invalid-signature');
    const unknownKey = expectProblem(
      await publish(body, { ...op.operator, accessKeyId: 'AKIAUNKNOWN000000000' }),
      403,
    );
    expect(unknownKey.type).toBe('https://herald.dev/problems/invalid-signature');

    // Signed for one body, sent with another: the payload hash no longer matches.
    const url = new URL('/events', op.api.baseUrl);
    const headers = await sigv4Headers(
      op.operator,
      'POST',
      url,
      { 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    const tampered = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, payload: transferPayload({ transfer_id: 'tr_tampered' }) }),
    });
    expect(tampered.status).toBe(403);

    const read = await op.api.call(`/events/${body.id}`, { key: op.fixture.orgA.apiKey });
    expectProblem(read, 404);
  });
});

describe('POST /events checks the type and the payload against the catalog', () => {
  it('answers 400 for a payload its schema refuses: one invalid_params entry per violation, by its pointer', async () => {
    const { amount: _, ...payload } = transferPayload({
      currency: 'euro',
      creditor: { name: 'Erika Mustermann', iban: 'not an iban' },
    });
    const problem = expectProblem(await publish({ account: DE, type: TRANSFER, payload }), 400);
    expect(problem.invalid_params?.map((param) => param.name).sort()).toEqual([
      'payload/amount',
      'payload/creditor/iban',
      'payload/currency',
    ]);
    expect(problem.invalid_params?.every((param) => param.reason.length > 0)).toBe(true);
    expect(problem.detail).toMatch(
      /^payload does not pass credit_transfer_status_change version 1: 3 problems at /,
    );
    // The reasons never repeat the payload's values (they may be personal data, and answers are logged).
    expect(JSON.stringify(problem)).not.toContain('not an iban');
  });

  it('names at most 10 violations, and says how many there were', async () => {
    const extra = Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`extra_${n}`, n]));
    const problem = expectProblem(
      await publish({ account: DE, type: TRANSFER, payload: transferPayload(extra) }),
      400,
    );
    expect(problem.invalid_params).toHaveLength(10);
    expect(problem.detail).toMatch(/: 12 problems, the first 10 at /);
  });

  it('answers 422 for a type outside the catalog, naming the known types', async () => {
    const problem = expectProblem(
      await publish({ account: DE, type: 'order.paid', payload: transferPayload() }),
      422,
    );
    expect(problem.invalid_params).toEqual([
      {
        name: 'type',
        reason:
          'order.paid is not an event type of the catalog; the known types are credit_received, credit_transfer_status_change, direct_debit_status_change',
      },
    ]);
  });

  it('records the version the publish names, and shows it in the listing as in the event', async () => {
    const id = randomUUID();
    const created = await publish({
      account: FR,
      type: TRANSFER,
      payload: transferPayload(),
      id,
      version: 1,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id, type_version: 1 });
    const listed = await op.api.call(`/events?account=${FR}&per_page=100`, { key: op.fixture.orgA.apiKey });
    expect(
      (listed.body as { id: string; type_version: number }[]).find((event) => event.id === id),
    ).toMatchObject({ type_version: 1 });
    const feed = await op.api.call(`/accounts/${FR}/events?after_sequence=0`, {
      key: op.fixture.orgA.apiKey,
    });
    expect((feed.body as { id: string }[]).find((event) => event.id === id)).toMatchObject({
      type_version: 1,
    });
  });
});
