import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { renderTimestamp } from '#domain/time';
import { parseTimestampParam } from '#http/timestamp-param';
import { catchError } from '../domain/catch-error';

describe('parseTimestampParam', () => {
  it('reads the rendered form', () => {
    expect(parseTimestampParam('since', '2026-11-21 12:00:00')).toBe('2026-11-21T12:00:00.000Z');
  });

  it('reads ISO with Z and a plus for the space', () => {
    expect(parseTimestampParam('since', '2026-11-21T12:00:00Z')).toBe('2026-11-21T12:00:00.000Z');
    expect(parseTimestampParam('since', '2026-11-21+12:00:00')).toBe('2026-11-21T12:00:00.000Z');
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseTimestampParam('since', '2024-02-29 00:00:00')).toBe('2024-02-29T00:00:00.000Z');
    expect(parseTimestampParam('since', '2000-02-29 00:00:00')).toBe('2000-02-29T00:00:00.000Z');
    expect(() => parseTimestampParam('since', '2026-02-29 00:00:00')).toThrow(ValidationError);
    expect(() => parseTimestampParam('since', '1900-02-29 00:00:00')).toThrow(ValidationError);
  });

  it.each([
    '2026-02-30 00:00:00',
    '2026-04-31 00:00:00',
    '2026-13-01 00:00:00',
    '2026-00-10 00:00:00',
    '2026-01-00 00:00:00',
    '2026-01-01 24:00:00',
    '2026-01-01 23:60:00',
    '2026-01-01 23:59:60',
    '2026-01-01T12:00:00',
    '2026-01-01T12:00:00.000Z',
    '2026-01-01T12:00:00+01:00',
    '2026-01-01 12:00',
    '2026-01-01',
    ' 2026-01-01 12:00:00',
    '2026-1-01 12:00:00',
    '',
  ])('rejects %j naming the parameter', (text) => {
    const error = catchError(() => parseTimestampParam('until', text));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params).toEqual([
      { name: 'until', reason: 'expected "YYYY-MM-DD HH:MM:SS" (UTC)' },
    ]);
  });

  it('round-trips with renderTimestamp for every second of years 0000 to 9999', () => {
    // 0000-01-01 00:00:00 to 9999-12-31 23:59:59
    const seconds = fc.integer({ min: -62_167_219_200, max: 253_402_300_799 });
    fc.assert(
      fc.property(seconds, (second) => {
        const iso = new Date(second * 1000).toISOString();
        expect(parseTimestampParam('since', renderTimestamp(iso))).toBe(iso);
      }),
    );
  });
});
