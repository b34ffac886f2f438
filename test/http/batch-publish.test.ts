/**
 * `POST /events/batch` as the HTTP layer reads and answers it: what refuses the whole batch, what
 * refuses one entry, and how each refused entry names its index and field.
 */
import { describe, expect, it } from 'vitest';
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import {
  BusyError,
  ConflictError,
  type InvalidParam,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from '#domain/errors';
import type { EventRecord } from '#domain/model';
import { parsePublishBatch } from '#http/events/batch-request';
import { toBatchView } from '#http/events/batch-view';
import { parsePublishRequest } from '#http/events/event-request';
import { invalidParams } from '../domain/catch-error';
import { apiEvent } from '../support/api-event';
import { TRANSFER, transferPayload } from '../support/payloads';

const entry = { account: 'DE89370400440532013000', type: TRANSFER, payload: transferPayload() };

describe('parsePublishBatch', () => {
  it('refuses a body that is not a batch of 1 to 100 events, naming the field', () => {
    const refused = (body: unknown) => {
      try {
        parsePublishBatch(apiEvent({ body }));
      } catch (error) {
        return error instanceof ValidationError ? error.params[0]?.name : error;
      }
      return 'accepted';
    };
    expect(refused([entry])).toBe('body');
    expect(refused({ events: entry })).toBe('events');
    expect(refused({ events: [] })).toBe('events');
    expect(refused({ events: Array.from({ length: PUBLISH_BATCH_LIMIT + 1 }, () => entry) })).toBe('events');
    expect(refused({ events: [entry], extra: 1 })).toBe('extra');
    const big = { events: [{ ...entry, payload: { blob: 'x'.repeat(PUBLISH_BATCH_MAX_BYTES) } }] };
    expect(refused(big)).toBe('body');
    expect(refused({ events: Array.from({ length: PUBLISH_BATCH_LIMIT }, () => entry) })).toBe('accepted');
  });

  it('lets an entry that is not an object, or names an unknown field, refuse itself', () => {
    const entries = parsePublishBatch(
      apiEvent({
        body: { events: [entry, 'no', { ...entry, colour: 'red' }, { ...entry, triggered_at: 'x' }] },
      }),
    );
    expect(entries[0]).toEqual({ ...entry, id: undefined, triggeredAt: undefined, version: undefined });
    expect(entries[1]).toMatchObject({ params: [{ name: 'events[1]' }] });
    expect(entries[2]).toMatchObject({ params: [{ name: 'events[2].colour' }] });
    expect(entries[3]).toMatchObject({ triggeredAt: 'x' });
  });

  it('reads each entry as the body of POST /events is read: the same refusal, named within the batch', () => {
    const malformed = [
      { ...entry, type: 'Not A Type' },
      { account: entry.account, type: entry.type },
    ];
    const entries = parsePublishBatch(apiEvent({ body: { events: [entry, ...malformed] } }));
    expect(entries[0]).toMatchObject({ account: entry.account });
    for (const [index, body] of malformed.entries()) {
      const [param] = invalidParams(() => parsePublishRequest(apiEvent({ body }))) as InvalidParam[];
      expect(entries[index + 1]).toMatchObject({
        params: [{ name: `events[${index + 1}].${param?.name}`, reason: param?.reason }],
      });
    }
    expect(entries.map((e) => (e instanceof ValidationError ? e.params[0]?.name : 'ok'))).toEqual([
      'ok',
      'events[1].type',
      'events[2].payload',
    ]);
  });
});

describe('toBatchView', () => {
  it('answers each entry in order: the listed event with 201 or 200, or its problem naming events[i].field', () => {
    const event = {
      id: '0193a7c4-1d2e-7f00-8a00-000000000001',
      orgId: 'org-1',
      account: entry.account,
      sequence: 7,
      type: entry.type,
      triggeredAt: '2026-11-21T12:00:00.000Z',
      body: '{"payload":{}}',
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      cycles: 1,
      deliveries: [],
    } satisfies EventRecord;
    const view = toBatchView(
      [
        { created: true, event },
        { created: false, event },
        { error: new ValidationError('payload/amount', 'NaN and Infinity are not JSON') },
        { error: new ValidationError('triggeredAt', 'expected a Date or an ISO 8601 timestamp') },
        { error: new NotFoundError('account: no account DE00 is registered.') },
        { error: new ConflictError('id: event x already exists with different content.') },
        { error: new BusyError('id: event x is being published by another request right now.') },
        { error: new Error('socket hang up') },
      ],
      'https://api.example.test/prod',
      'req-1',
    );
    expect(view.results.map((result) => result.status)).toEqual([201, 200, 400, 400, 422, 409, 503, 500]);
    expect(view.results[0]).toMatchObject({ event: { id: event.id, sequence: 7 } });
    expect(JSON.stringify(view.results[0])).not.toContain('payload');
    const problems = view.results.map((result) => ('problem' in result ? result.problem : undefined));
    expect(problems[2]?.invalid_params).toEqual([
      { name: 'events[2].payload/amount', reason: 'NaN and Infinity are not JSON' },
    ]);
    expect(problems[3]?.invalid_params?.[0]?.name).toBe('events[3].triggered_at');
    expect(problems[4]?.invalid_params?.[0]?.name).toBe('events[4].account');
    expect(problems[5]?.detail).toMatch(/^events\[5\]\.id: /);
    expect(problems[6]?.detail).toMatch(/^events\[6\]\.id: /);
    // A failure of the service: a generic 500, its cause not revealed.
    expect(problems[7]).toMatchObject({ status: 500, instance: 'req-1' });
    expect(JSON.stringify(problems[7])).not.toContain('socket');
  });

  it("names each violation of an entry's payload, and an unknown type, within the batch", () => {
    const violations = new ValidationError(
      [
        { name: 'payload/amount', reason: 'is required' },
        { name: 'payload/creditor/iban', reason: 'must be an IBAN' },
      ],
      'payload does not pass credit_transfer_status_change version 1: 2 problems at payload/amount, payload/creditor/iban',
    );
    const view = toBatchView(
      [{ error: violations }, { error: new UnprocessableError('type', 'order.paid is not an event type') }],
      'https://api.example.test/prod',
      'req-1',
    );
    const problems = view.results.map((result) => ('problem' in result ? result.problem : undefined));
    expect(problems[0]).toMatchObject({
      status: 400,
      detail: violations.message,
      invalid_params: [
        { name: 'events[0].payload/amount', reason: 'is required' },
        { name: 'events[0].payload/creditor/iban', reason: 'must be an IBAN' },
      ],
    });
    expect(problems[1]).toMatchObject({
      status: 422,
      invalid_params: [{ name: 'events[1].type', reason: 'order.paid is not an event type' }],
    });
  });
});
