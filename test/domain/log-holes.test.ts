import { describe, expect, it } from 'vitest';
import { HOLE_WAIT_MS } from '#config/limits';
import { holeVerdict, walkLog } from '#domain/log-holes';

const NOW = 1_800_000_000_000;
const ticketed = (sequence: number, age: number) => ({ sequence, ticketedAt: NOW - age });
const quiet = (sequence: number) => ({ sequence });
const voided = (sequence: number) => ({ sequence, voided: true as const });

describe('holeVerdict', () => {
  it('waits below an event ticketed less than HOLE_WAIT_MS ago, and closes below an older one', () => {
    expect(holeVerdict(4, ticketed(5, HOLE_WAIT_MS - 1), 0, NOW)).toBe('wait');
    expect(holeVerdict(4, ticketed(5, HOLE_WAIT_MS), 0, NOW)).toBe('close');
  });

  it('passes a missing sequence below an event stored without a ticket, or at or below the floor', () => {
    expect(holeVerdict(4, quiet(5), 0, NOW)).toBe('final');
    expect(holeVerdict(4, ticketed(5, 0), 4, NOW)).toBe('final');
  });

  it('closes a missing sequence below a void: only a void write makes passing it exact', () => {
    expect(holeVerdict(4, voided(5), 0, NOW)).toBe('close');
  });

  it('waits below a sequence given back (a void with its ticket time) as below a ticketed event', () => {
    const givenBack = (sequence: number, age: number) => ({
      ...ticketed(sequence, age),
      voided: true as const,
    });
    expect(holeVerdict(4, givenBack(5, 0), 0, NOW)).toBe('wait');
    expect(holeVerdict(4, givenBack(5, HOLE_WAIT_MS - 1), 0, NOW)).toBe('wait');
    expect(holeVerdict(4, givenBack(5, HOLE_WAIT_MS), 0, NOW)).toBe('close');
    expect(holeVerdict(4, givenBack(5, 0), 4, NOW)).toBe('final');
  });

  it('closes below a ticket time further ahead of the reader than HOLE_WAIT_MS (a publisher clock ahead)', () => {
    expect(holeVerdict(4, ticketed(5, -HOLE_WAIT_MS), 0, NOW)).toBe('wait');
    expect(holeVerdict(4, ticketed(5, -HOLE_WAIT_MS - 1), 0, NOW)).toBe('close');
    expect(holeVerdict(4, ticketed(5, -30 * 60_000), 0, NOW)).toBe('close');
  });
});

describe('walkLog', () => {
  it('passes a read without missing sequences whole', () => {
    expect(walkLog(3, [quiet(4), quiet(5), voided(6), ticketed(7, 0)], 0, NOW, 10)).toEqual({
      through: 7,
      close: [],
    });
  });

  it('stops below the first sequence to wait for, after listing the older ones to close', () => {
    const items = [ticketed(2, HOLE_WAIT_MS), ticketed(5, HOLE_WAIT_MS), ticketed(8, 0)];
    expect(walkLog(0, items, 0, NOW, 10)).toEqual({ through: 5, close: [1, 3, 4], waitFor: 6 });
  });

  it('decides a gap across the floor: final below it, by the event above it above', () => {
    expect(walkLog(0, [ticketed(6, HOLE_WAIT_MS)], 3, NOW, 10)).toEqual({ through: 6, close: [4, 5] });
    // A large retention gap below the floor costs nothing.
    expect(walkLog(0, [ticketed(1_000_001, 0)], 1_000_000, NOW, 10)).toEqual({
      through: 1_000_001,
      close: [],
    });
  });

  it('closes at most maxClose sequences per walk, and stops below the next', () => {
    expect(walkLog(0, [ticketed(10, HOLE_WAIT_MS)], 0, NOW, 3)).toEqual({ through: 3, close: [1, 2, 3] });
    expect(walkLog(0, [ticketed(10, HOLE_WAIT_MS)], 0, NOW, 0)).toEqual({ through: 0, close: [] });
  });

  it('passes a given-back void but waits below it for the sequences live tickets hold', () => {
    expect(walkLog(0, [{ sequence: 4, voided: true, ticketedAt: NOW }], 0, NOW, 100)).toEqual({
      through: 0,
      close: [],
      waitFor: 1,
    });
    expect(walkLog(3, [{ sequence: 4, voided: true, ticketedAt: NOW }, ticketed(5, 0)], 0, NOW, 100)).toEqual(
      {
        through: 5,
        close: [],
      },
    );
  });

  it('ignores items at or below the read start, in any order', () => {
    expect(walkLog(5, [quiet(7), quiet(3), quiet(6)], 0, NOW, 10)).toEqual({ through: 7, close: [] });
  });
});
