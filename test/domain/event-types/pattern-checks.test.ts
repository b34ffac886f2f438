/**
 * The patterns Herald accepts in an operator's schema: bounded, compilable with the `u` flag, and free of
 * the nested unbounded repetition that backtracks exponentially.
 */
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH } from '#config/catalog-limits';
import * as conventions from '#domain/event-types/conventions';
import { patternProblem } from '#domain/event-types/pattern-checks';

describe('patternProblem', () => {
  it.each([
    '^(a+)+$',
    '(\\d*)*',
    '([a-z]+){2,}',
    '^([a-z]{1,8})+$',
    '(a?){3,}',
    '((ab)+c)*',
    '(?:a|b+)+',
    '(a+?)+?',
  ])('refuses %s: a repeated group whose content varies in length', (pattern) => {
    expect(patternProblem(pattern)).toMatch(/^repeats a group whose content varies in length/);
  });

  it.each([
    '^[A-Z]{3}$',
    '^(a+)?$',
    '^(ab){1,5}$',
    '^(x+){2}$',
    '^([0-9]{2})+$',
    '^[(+*)]+$',
    '^\\(a+\\)+$',
    '^(a|b)c+$',
    '^(?<word>[a-z]+) [0-9]{2,}$',
  ])('accepts %s', (pattern) => {
    expect(patternProblem(pattern)).toBeUndefined();
  });

  it('accepts every pattern of the built-in conventions', () => {
    const patterns = Object.entries(conventions).filter(([name]) => name.endsWith('_PATTERN'));
    expect(patterns.length).toBeGreaterThan(8);
    for (const [name, pattern] of patterns) expect(patternProblem(pattern as string), name).toBeUndefined();
  });

  it('refuses a pattern that does not compile with the u flag, or is too long', () => {
    expect(patternProblem('\\p{Nope}')).toBe('must be a regular expression (ECMA-262, with the u flag)');
    expect(patternProblem('a'.repeat(MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH))).toBeUndefined();
    expect(patternProblem('a'.repeat(MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH + 1))).toBe(
      `must have at most ${MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH} characters`,
    );
  });
});
