import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '#config/delivery';
import {
  attemptsLeft,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  isSuccessStatus,
  nextStep,
} from '#delivery/retry-rule';

const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;
const maxAttempts = MAX_ATTEMPTS;

describe('nextStep', () => {
  it('succeeds on a good answer, even on the last attempt', () => {
    expect(nextStep({ webhookRetries: 1, cycleBase: 0, outcomeOk: true, schedule, maxAttempts })).toEqual({
      status: 'success',
    });
    expect(nextStep({ webhookRetries: 20, cycleBase: 0, outcomeOk: true, schedule, maxAttempts })).toEqual({
      status: 'success',
    });
  });

  it('retries after the schedule wait while the cycle has attempts left', () => {
    expect(nextStep({ webhookRetries: 1, cycleBase: 0, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'pending',
      retryAfterSeconds: 10,
    });
    expect(nextStep({ webhookRetries: 19, cycleBase: 0, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'pending',
      retryAfterSeconds: 43200,
    });
  });

  it('fails after the 20th attempt of the cycle', () => {
    expect(nextStep({ webhookRetries: 20, cycleBase: 0, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'failed',
    });
  });

  it('counts attempts within the current cycle after a redelivery', () => {
    expect(nextStep({ webhookRetries: 21, cycleBase: 20, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'pending',
      retryAfterSeconds: 10,
    });
    expect(nextStep({ webhookRetries: 40, cycleBase: 20, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'failed',
    });
  });

  it('fails past the cycle end rather than retrying', () => {
    expect(nextStep({ webhookRetries: 23, cycleBase: 0, outcomeOk: false, schedule, maxAttempts })).toEqual({
      status: 'failed',
    });
  });

  it('honours a shorter maxAttempts', () => {
    const input = { cycleBase: 0, outcomeOk: false, schedule, maxAttempts: 3 };
    expect(nextStep({ ...input, webhookRetries: 2 })).toEqual({ status: 'pending', retryAfterSeconds: 30 });
    expect(nextStep({ ...input, webhookRetries: 3 })).toEqual({ status: 'failed' });
  });

  it('throws when no attempt of the cycle was recorded', () => {
    expect(() =>
      nextStep({ webhookRetries: 20, cycleBase: 20, outcomeOk: false, schedule, maxAttempts }),
    ).toThrow(RangeError);
    expect(() =>
      nextStep({ webhookRetries: 0, cycleBase: 0, outcomeOk: true, schedule, maxAttempts }),
    ).toThrow(RangeError);
  });

  it('throws when the schedule is too short for maxAttempts', () => {
    expect(() =>
      nextStep({ webhookRetries: 2, cycleBase: 0, outcomeOk: false, schedule: [10], maxAttempts: 20 }),
    ).toThrow(RangeError);
  });
});

describe('attemptsLeft', () => {
  it('counts down within the cycle and never goes negative', () => {
    expect(attemptsLeft({ webhookRetries: 0, cycleBase: 0 }, MAX_ATTEMPTS)).toBe(20);
    expect(attemptsLeft({ webhookRetries: 19, cycleBase: 0 }, MAX_ATTEMPTS)).toBe(1);
    expect(attemptsLeft({ webhookRetries: 20, cycleBase: 0 }, MAX_ATTEMPTS)).toBe(0);
    expect(attemptsLeft({ webhookRetries: 25, cycleBase: 0 }, MAX_ATTEMPTS)).toBe(0);
    expect(attemptsLeft({ webhookRetries: 20, cycleBase: 20 }, MAX_ATTEMPTS)).toBe(20);
    expect(attemptsLeft({ webhookRetries: 1, cycleBase: 0 }, 3)).toBe(2);
  });
});

describe('isSuccessStatus', () => {
  it.each([
    [200, true],
    [204, true],
    [299, true],
    [199, false],
    [300, false],
    [301, false],
    [0, false],
    [500, false],
    [200.5, false],
  ])('%s → %s', (status, expected) => {
    expect(isSuccessStatus(status)).toBe(expected);
  });
});
