import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import {
  DEFAULT_MAX_PAYLOAD_BYTES,
  isEventType,
  MAX_PAYLOAD_BYTES_CEILING,
  MAX_PAYLOAD_DEPTH,
  type PublishInput,
  validatePublishInput,
} from '#domain/event-input';
import { catchError, invalidParams } from './catch-error';

const base: PublishInput = {
  account: 'de89 3704 0044 0532 0130 00',
  type: 'credit_transfer_status_change',
  payload: { transfer_id: 't-1', status: 'booked', amount: { value: '12.50', currency: 'EUR' } },
};
const fixedNow = (): Date => new Date('2026-11-21T12:00:00.000Z');

/** The names of the invalid params of a rejected input. */
function rejectedNames(input: unknown, maxPayloadBytes?: number): string[] {
  const error = catchError(() =>
    validatePublishInput(input as PublishInput, maxPayloadBytes === undefined ? {} : { maxPayloadBytes }),
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).params.map((param) => param.name);
}

describe('validatePublishInput', () => {
  it('normalises and fills defaults', () => {
    const result = validatePublishInput(base, { now: fixedNow });
    expect(result).toMatchObject({
      account: 'DE89370400440532013000',
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-21T12:00:00.000Z',
      payloadJson: '{"transfer_id":"t-1","status":"booked","amount":{"value":"12.50","currency":"EUR"}}',
    });
    expect(result.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(result.payload).toBe(base.payload);
  });

  it('keeps a given v4 or v7 id and normalises triggeredAt to UTC with milliseconds', () => {
    const result = validatePublishInput({
      ...base,
      id: '9b2f6c1e-8d4a-4f3b-a1c2-0d9e8f7a6b5c',
      triggeredAt: '2026-11-21T13:00:00+01:00',
    });
    expect(result.id).toBe('9b2f6c1e-8d4a-4f3b-a1c2-0d9e8f7a6b5c');
    expect(result.triggeredAt).toBe('2026-11-21T12:00:00.000Z');
    expect(validatePublishInput({ ...base, triggeredAt: new Date(0) }).triggeredAt).toBe(
      '1970-01-01T00:00:00.000Z',
    );
  });

  it.each([
    ['account', { account: 'DE00370400440532013000' }],
    ['account', { account: 42 }],
    ['type', { type: 'Credit_Transfer' }],
    ['type', { type: 'credit..transfer' }],
    ['type', { type: `a${'b'.repeat(64)}` }],
    ['id', { id: '9B2F6C1E-8D4A-4F3B-A1C2-0D9E8F7A6B5C' }],
    ['id', { id: '9b2f6c1e-8d4a-1f3b-a1c2-0d9e8f7a6b5c' }],
    ['triggeredAt', { triggeredAt: '2026-11-21 12:00:00' }],
    ['triggeredAt', { triggeredAt: '2026-11-21T12:00:00' }],
    ['triggeredAt', { triggeredAt: new Date(Number.NaN) }],
    ['triggeredAt', { triggeredAt: new Date('+010000-01-01T00:00:00Z') }],
    ['triggeredAt', { triggeredAt: 1_700_000_000_000 }],
    ['payload', { payload: [1, 2] }],
    ['payload', { payload: null }],
    ['payload', { payload: 'text' }],
    ['payload', { payload: new Map() }],
    ['payload', { payload: undefined }],
  ])('rejects a bad %s', (name, patch) => {
    expect(rejectedNames({ ...base, ...patch })).toEqual([name]);
  });

  it.each([[0], [-1], [1.5], ['1'], [Number.NaN], [2 ** 53]])('rejects a version of %s', (version) => {
    expect(rejectedNames({ ...base, version })).toEqual(['version']);
  });

  it("keeps a version the publish names, undefined for the type's latest", () => {
    expect(validatePublishInput({ ...base, version: 3 }).version).toBe(3);
    expect(validatePublishInput(base).version).toBeUndefined();
  });

  it('rejects a non-object input', () => {
    expect(rejectedNames(null)).toEqual(['input']);
  });

  it.each([
    ['payload/a', { a: Number.NaN }],
    ['payload/a', { a: Number.POSITIVE_INFINITY }],
    ['payload/a', { a: () => 1 }],
    ['payload/a', { a: 10n }],
    ['payload/a', { a: Symbol('s') }],
    ['payload/a', { a: new Date(0) }],
    ['payload/a/1', { a: [1, undefined] }],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ['payload/a/0', { a: [, 1] }],
    ['payload/a/b', { a: { b: new (class Point {})() } }],
    // Named by its JSON pointer (RFC 6901): `/` and `~` in a field's name are escaped.
    ['payload/x~1y~0z', { 'x/y~z': Number.NaN }],
  ])('rejects %s that JSON cannot carry faithfully', (name, payload) => {
    expect(rejectedNames({ ...base, payload })).toEqual([name]);
  });

  it('omits undefined properties like JSON.stringify', () => {
    expect(validatePublishInput({ ...base, payload: { a: 1, b: undefined } }).payloadJson).toBe('{"a":1}');
  });

  it('accepts null-prototype objects and shared (non-circular) references', () => {
    const shared = { x: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: shared, b: shared });
    expect(validatePublishInput({ ...base, payload: bare }).payloadJson).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('rejects circular references and excessive depth', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(rejectedNames({ ...base, payload: cyclic })).toEqual(['payload/self']);
    let deep: unknown = {};
    for (let level = 0; level < MAX_PAYLOAD_DEPTH; level++) deep = { d: deep };
    expect(rejectedNames({ ...base, payload: deep })[0]).toMatch(/^payload(\/d)+$/);
    let allowed: unknown = {};
    for (let level = 0; level < MAX_PAYLOAD_DEPTH - 1; level++) allowed = { d: allowed };
    expect(() => validatePublishInput({ ...base, payload: allowed })).not.toThrow();
  });

  it('measures the payload limit in UTF-8 bytes, inclusive', () => {
    // {"s":"…"} is 8 bytes of JSON plus the string; é is 2 bytes, so 5 characters are 10 bytes.
    const payload = { s: 'ééééé' };
    expect(() => validatePublishInput({ ...base, payload }, { maxPayloadBytes: 18 })).not.toThrow();
    expect(invalidParams(() => validatePublishInput({ ...base, payload }, { maxPayloadBytes: 17 }))).toEqual([
      { name: 'payload', reason: 'serialised payload has 18 bytes, the limit is 17' },
    ]);
  });

  it('defaults the limit to 64 KiB', () => {
    expect(DEFAULT_MAX_PAYLOAD_BYTES).toBe(65_536);
    const fits = { s: 'x'.repeat(65_536 - 8) };
    expect(() => validatePublishInput({ ...base, payload: fits })).not.toThrow();
    expect(rejectedNames({ ...base, payload: { s: 'x'.repeat(65_536 - 7) } })).toEqual(['payload']);
  });

  it('escapes lone surrogates so the JSON is valid UTF-8', () => {
    expect(validatePublishInput({ ...base, payload: { s: '\ud800' } }).payloadJson).toBe('{"s":"\\ud800"}');
  });

  it('refuses a nonsensical limit, and one above what an event item holds beside its attempts (128 KiB)', () => {
    expect(MAX_PAYLOAD_BYTES_CEILING).toBe(131_072);
    expect(() => validatePublishInput(base, { maxPayloadBytes: 0 })).toThrow(RangeError);
    expect(() => validatePublishInput(base, { maxPayloadBytes: MAX_PAYLOAD_BYTES_CEILING })).not.toThrow();
    expect(() => validatePublishInput(base, { maxPayloadBytes: MAX_PAYLOAD_BYTES_CEILING + 1 })).toThrow(
      /to 131072/,
    );
  });
});

describe('isEventType', () => {
  it.each([
    ['credit_transfer_status_change', true],
    ['sepa.direct_debit.failed', true],
    ['a', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['_a', false],
    ['a.', false],
    ['.a', false],
    ['a.1b', false],
    ['a-b', false],
    ['A', false],
    ['', false],
  ])('%s → %s', (text, expected) => {
    expect(isEventType(text)).toBe(expected);
  });
});
