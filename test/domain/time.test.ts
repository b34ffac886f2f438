import { describe, expect, it } from 'vitest';
import { nowIso, renderTimestamp } from '#domain/time';

describe('renderTimestamp', () => {
  it('renders UTC without milliseconds', () => {
    expect(renderTimestamp('2026-11-21T12:34:56.789Z')).toBe('2026-11-21 12:34:56');
  });

  it('converts an offset to UTC', () => {
    expect(renderTimestamp('2026-11-21T00:30:00+01:00')).toBe('2026-11-20 23:30:00');
  });

  it('cuts milliseconds instead of rounding into the next second', () => {
    expect(renderTimestamp('2026-12-31T23:59:59.999Z')).toBe('2026-12-31 23:59:59');
  });

  it('rejects text that is no timestamp', () => {
    expect(() => renderTimestamp('yesterday')).toThrow(RangeError);
  });
});

describe('nowIso', () => {
  it('is ISO UTC with milliseconds', () => {
    expect(nowIso()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(nowIso(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
