import { describe, expect, it } from 'vitest';
import { EVENT_ID_PATTERN, isEventId, uuidv7 } from '#domain/ids';

describe('uuidv7', () => {
  it('has version 7, the RFC 9562 variant and canonical lower-case form', () => {
    const id = uuidv7();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isEventId(id)).toBe(true);
  });

  it('embeds the timestamp in the first 48 bits', () => {
    const ms = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const id = uuidv7(ms);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('sorts by time across milliseconds and differs within one', () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect(uuidv7(1_700_000_000_000) < uuidv7(1_700_000_000_001)).toBe(true);
  });

  it('refuses timestamps that do not fit 48 bits', () => {
    expect(() => uuidv7(-1)).toThrow(RangeError);
    expect(() => uuidv7(2 ** 48)).toThrow(RangeError);
    expect(() => uuidv7(1.5)).toThrow(RangeError);
    expect(uuidv7(0).startsWith('00000000-0000-7')).toBe(true);
  });
});

describe('isEventId', () => {
  it.each([
    ['0190f4e8-3c1a-7b2e-9f00-123456789abc', true],
    ['9b2f6c1e-8d4a-4f3b-a1c2-0d9e8f7a6b5c', true],
    ['9B2F6C1E-8D4A-4F3B-A1C2-0D9E8F7A6B5C', false],
    ['9b2f6c1e-8d4a-1f3b-a1c2-0d9e8f7a6b5c', false],
    ['9b2f6c1e-8d4a-4f3b-c1c2-0d9e8f7a6b5c', false],
    ['{9b2f6c1e-8d4a-4f3b-a1c2-0d9e8f7a6b5c}', false],
    ['9b2f6c1e8d4a4f3ba1c20d9e8f7a6b5c', false],
    ['00000000-0000-0000-0000-000000000000', false],
    ['', false],
  ])('%s → %s', (text, expected) => {
    expect(isEventId(text)).toBe(expected);
    expect(EVENT_ID_PATTERN.test(text)).toBe(expected);
  });
});
