import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  delayAfterAttempt,
  parseRetrySchedule,
  RETRY_SCHEDULE_LENGTH,
  RetryScheduleError,
} from '#delivery/retry-rule';
import { catchError } from '../catch-error';

const defaultText = DEFAULT_RETRY_SCHEDULE_SECONDS.join(',');

describe('DEFAULT_RETRY_SCHEDULE_SECONDS', () => {
  it('has 19 increasing waits from 10 s to 12 h, about 54 hours in total', () => {
    expect(RETRY_SCHEDULE_LENGTH).toBe(19);
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([
      10, 30, 60, 120, 300, 600, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 14400, 18000, 21600, 28800, 36000,
      43200,
    ]);
    const total = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3600).toBeCloseTo(54.4, 1);
  });

  it('is a valid schedule', () => {
    expect(parseRetrySchedule(defaultText)).toEqual(DEFAULT_RETRY_SCHEDULE_SECONDS);
  });
});

describe('parseRetrySchedule', () => {
  it('allows blanks around items, zeros and equal neighbours', () => {
    const text = ` 0, 0 ,${Array.from({ length: 17 }, () => ' 43200').join(',')} `;
    expect(parseRetrySchedule(text)).toEqual([0, 0, ...Array<number>(17).fill(43200)]);
  });

  it.each([
    ['', 'Invalid retry schedule: expected 19 comma-separated delays in seconds, got 1'],
    [
      DEFAULT_RETRY_SCHEDULE_SECONDS.slice(1).join(','),
      'expected 19 comma-separated delays in seconds, got 18',
    ],
    [`${defaultText},50000`, 'got 20'],
    [`${defaultText},`, 'got 20'],
    [defaultText.replace('30,', '30.5,'), 'delay 2 ("30.5") is not a whole number of seconds'],
    [defaultText.replace('30,', '-30,'), 'delay 2 ("-30") is not a whole number of seconds'],
    [defaultText.replace('30,', ','), 'delay 2 ("") is not a whole number of seconds'],
    [defaultText.replace('30,', '3e1,'), 'delay 2 ("3e1") is not a whole number of seconds'],
    [defaultText.replace('60,', '20,'), 'delay 3 (20 s) is shorter than delay 2 (30 s)'],
    [
      defaultText.replace(/43200$/, '43201'),
      'delay 19 (43201 s) exceeds 43200 s, the longest SQS visibility timeout',
    ],
  ])('rejects %j', (text, message) => {
    const error = catchError(() => parseRetrySchedule(text));
    expect(error).toBeInstanceOf(RetryScheduleError);
    expect((error as Error).message).toContain(message);
  });
});

describe('delayAfterAttempt', () => {
  it('gives the wait after attempts 1 to 19', () => {
    expect(delayAfterAttempt(DEFAULT_RETRY_SCHEDULE_SECONDS, 1)).toBe(10);
    expect(delayAfterAttempt(DEFAULT_RETRY_SCHEDULE_SECONDS, 19)).toBe(43200);
  });

  it.each([0, 20, -1, 1.5, Number.NaN])('throws after attempt %s', (attempt) => {
    expect(() => delayAfterAttempt(DEFAULT_RETRY_SCHEDULE_SECONDS, attempt)).toThrow(RangeError);
  });
});
