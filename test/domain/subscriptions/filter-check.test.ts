/**
 * `checkFilter`, the rule at save: every construct of the language is accepted, and every refusal names
 * where the problem is (`filter/…`) and what is allowed there, within the bounds of `config/limits.ts`.
 */
import { describe, expect, it } from 'vitest';
import { MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import {
  MAX_FILTER_ALTERNATIVES,
  MAX_FILTER_BYTES,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING_LENGTH,
} from '#config/limits';
import { checkFilter } from '#domain/subscriptions/filter-check';

/** The problems of a filter, or [] when it is accepted. */
function problems(filter: unknown) {
  const check = checkFilter(filter);
  return check.ok ? [] : check.problems;
}

/** The one problem of a filter. */
function problem(filter: unknown) {
  const found = problems(filter);
  expect(found).toHaveLength(1);
  return found[0];
}

/** A pattern nesting `levels` objects, the innermost holding a list. */
function nested(levels: number): unknown {
  let pattern: unknown = { leaf: ['x'] };
  for (let level = 1; level < levels; level++) pattern = { inner: pattern };
  return pattern;
}

describe('checkFilter accepts', () => {
  it.each([
    [
      'exact values of every JSON type',
      { status: ['returned', 'rejected'], count: [3, 0.5], flag: [true], note: [null] },
    ],
    ['an empty string', { remittance_information: [''] }],
    [
      'prefix and suffix',
      { creditor: { iban: [{ prefix: 'NL91ABNA' }] }, end_to_end_id: [{ suffix: '-77' }] },
    ],
    [
      'anything-but of a value, a list, a prefix and a suffix',
      {
        a: [{ 'anything-but': 'settled' }],
        b: [{ 'anything-but': [1, 'x'] }],
        c: [{ 'anything-but': { prefix: 'DE' } }],
        d: [{ 'anything-but': { suffix: 'XXX' } }],
      },
    ],
    [
      'numeric comparisons and ranges, with numbers and decimal strings',
      {
        a: [{ numeric: ['>', '1000.00'] }],
        b: [{ numeric: ['=', 12.5] }],
        c: [{ numeric: ['>=', 0, '<', '100'] }],
        d: [{ numeric: ['<=', '100', '>', 0] }],
        e: [{ numeric: ['>=', '5', '<=', '5.00'] }],
        f: [{ numeric: ['<', '-0.01'] }],
      },
    ],
    [
      'exists true and false, beside values',
      { reason_code: ['AM04', { exists: false }], debtor: { iban: [{ exists: true }] } },
    ],
    [
      '$or of patterns, nested objects inside',
      { $or: [{ amount: [{ numeric: ['>', 10000] }] }, { debtor: { iban: [{ prefix: 'FR' }] } }] },
    ],
    [`${MAX_FILTER_DEPTH} nested patterns`, nested(MAX_FILTER_DEPTH)],
    [
      `${MAX_FILTER_ALTERNATIVES} alternatives`,
      { n: Array.from({ length: MAX_FILTER_ALTERNATIVES }, (_, i) => i) },
    ],
    ['a string of the longest length', { s: ['x'.repeat(MAX_FILTER_STRING_LENGTH)] }],
    ['a payload field named like an object property', { __proto__: ['x'], constructor: ['y'] }],
  ])('%s', (_, filter) => {
    const parsed = JSON.parse(JSON.stringify(filter));
    expect(checkFilter(parsed)).toEqual({ ok: true, filter: parsed });
  });
});

describe('checkFilter refuses, naming the path and the rule', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['a filter that is no object', ['x'], 'filter', /must be an object mirroring the payload/],
    ['an empty filter', {}, 'filter', /must name at least one field/],
    ['an empty nested pattern', { debtor: {} }, 'filter/debtor', /must name at least one field/],
    [
      'a bare value instead of a list',
      { status: 'settled' },
      'filter/status',
      /must be a list of alternatives/,
    ],
    ['an empty list', { status: [] }, 'filter/status', /at least one alternative .*"exists": false/],
    ['a list inside a list', { status: [['a']] }, 'filter/status/0', /not a list/],
    [
      'an unknown matcher',
      { amount: [{ gt: 5 }] },
      'filter/amount/0/gt',
      /is not a matcher \(prefix, suffix, anything-but, numeric, exists\)/,
    ],
    [
      'fields written as a list of a pattern',
      { debtor: [{ iban: ['x'] }] },
      'filter/debtor/0/iban',
      /give it a pattern instead of a list/,
    ],
    [
      'two matchers in one object',
      { s: [{ prefix: 'a', suffix: 'b' }] },
      'filter/s/0',
      /exactly one matcher/,
    ],
    ['an empty matcher object', { s: [{}] }, 'filter/s/0', /exactly one matcher/],
    ['an empty prefix', { iban: [{ prefix: '' }] }, 'filter/iban/0/prefix', /string of 1 to 256 characters/],
    ['a prefix that is no string', { iban: [{ prefix: 5 }] }, 'filter/iban/0/prefix', /string of 1 to/],
    ['a suffix too long', { s: [{ suffix: 'x'.repeat(257) }] }, 'filter/s/0/suffix', /string of 1 to 256/],
    ['exists that is no boolean', { s: [{ exists: 'yes' }] }, 'filter/s/0/exists', /true or false/],
    [
      'anything-but of an empty list',
      { s: [{ 'anything-but': [] }] },
      'filter/s/0/anything-but',
      /at least one value/,
    ],
    [
      'anything-but of null',
      { s: [{ 'anything-but': null }] },
      'filter/s/0/anything-but',
      /a string, a number, a non-empty list/,
    ],
    [
      'anything-but listing a boolean',
      { s: [{ 'anything-but': ['a', true] }] },
      'filter/s/0/anything-but/1',
      /a string or a number/,
    ],
    [
      'anything-but of an unknown object',
      { s: [{ 'anything-but': { numeric: ['>', 1] } }] },
      'filter/s/0/anything-but',
      /\{"prefix": "…"\} or \{"suffix": "…"\}/,
    ],
    [
      'anything-but of an empty prefix',
      { s: [{ 'anything-but': { prefix: '' } }] },
      'filter/s/0/anything-but/prefix',
      /1 to 256/,
    ],
    [
      'numeric that is no list',
      { a: [{ numeric: '>5' }] },
      'filter/a/0/numeric',
      /one comparison such as \[">", 0\] or a range/,
    ],
    ['numeric of three items', { a: [{ numeric: ['>', 1, '<'] }] }, 'filter/a/0/numeric', /one comparison/],
    [
      'an unknown comparison',
      { a: [{ numeric: ['==', 1] }] },
      'filter/a/0/numeric/0',
      /one of =, <, <=, >, >=/,
    ],
    [
      'an operand that is no number',
      { a: [{ numeric: ['>', 'ten'] }] },
      'filter/a/0/numeric/1',
      /a number or a decimal string such as "1000.00"/,
    ],
    [
      'an operand with an exponent',
      { a: [{ numeric: ['>', '1e3'] }] },
      'filter/a/0/numeric/1',
      /decimal string/,
    ],
    [
      'an operand with more digits than a JSON number carries',
      { a: [{ numeric: ['>', 0.1 + 0.2] }] },
      'filter/a/0/numeric/1',
      /more than 15 significant digits.*decimal string/,
    ],
    [
      'two lower bounds',
      { a: [{ numeric: ['>', 1, '>=', 2] }] },
      'filter/a/0/numeric',
      /a lower bound .* and an upper bound/,
    ],
    ['= in a range', { a: [{ numeric: ['=', 1, '<', 2] }] }, 'filter/a/0/numeric', /= stands alone/],
    [
      'a range that can never match',
      { a: [{ numeric: ['>', 5, '<', 1] }] },
      'filter/a/0/numeric',
      /can never match/,
    ],
    [
      'an empty range between equal bounds',
      { a: [{ numeric: ['>=', '5.0', '<', 5] }] },
      'filter/a/0/numeric',
      /can never match/,
    ],
    ['an operator other than $or', { $and: [{ a: [1] }] }, 'filter/$and', /\$or is the only one/],
    ['$or of nothing', { $or: [] }, 'filter/$or', /non-empty list of patterns/],
    ['$or of a list', { $or: [['a']] }, 'filter/$or/0', /must be a pattern/],
    [
      'a field name too long',
      { ['f'.repeat(257)]: ['x'] },
      `filter/${'f'.repeat(257)}`,
      /field name longer than 256/,
    ],
    ['a value too long', { s: ['x'.repeat(257)] }, 'filter/s/0', /at most 256 characters/],
    [
      'a number JSON cannot write',
      { s: [Number.POSITIVE_INFINITY] },
      'filter/s/0',
      /a string, a number, true, false, null or a matcher/,
    ],
    [
      'patterns nested too deep',
      nested(MAX_FILTER_DEPTH + 1),
      `filter${'/inner'.repeat(MAX_FILTER_DEPTH)}`,
      /nests patterns more than 5 deep/,
    ],
    [
      '$or branches nested too deep',
      { $or: [{ $or: [{ $or: [{ $or: [{ $or: [{ a: [1] }] }] }] }] }] },
      'filter/$or/0/$or/0/$or/0/$or/0/$or/0',
      /more than 5 deep/,
    ],
  ])('%s', (_, filter, name, reason) => {
    const found = problem(filter);
    expect(found?.name).toBe(name);
    expect(found?.reason).toMatch(reason);
  });

  it('escapes / and ~ in field names as JSON pointers do', () => {
    expect(problem({ 'a/b': { 'c~d': 'x' } })?.name).toBe('filter/a~1b/c~0d');
  });

  it('names the problems where the request put the filter', () => {
    expect(checkFilter({ status: [] }, 'endpoints/0/filter')).toMatchObject({
      ok: false,
      problems: [{ name: 'endpoints/0/filter/status' }],
    });
  });

  it(`refuses more than ${MAX_FILTER_ALTERNATIVES} alternatives in all, anything-but lists counting each value`, () => {
    const half = Array.from({ length: MAX_FILTER_ALTERNATIVES / 2 }, (_, i) => `v${i}`);
    expect(problems({ a: half, b: [{ 'anything-but': half }] })).toEqual([]);
    expect(problem({ a: half, b: [{ 'anything-but': half }], c: ['one more'] })).toEqual({
      name: 'filter',
      reason: expect.stringMatching(/has 101 alternatives in all, at most 100 are allowed/),
    });
  });

  it(`refuses a filter over ${MAX_FILTER_BYTES} bytes before reading it further`, () => {
    const big = { s: Array.from({ length: 20 }, () => 'é'.repeat(110)), t: [] };
    expect(problems(big)).toEqual([
      {
        name: 'filter',
        reason: expect.stringMatching(/^has 4[0-9]{3} bytes as JSON, at most 4096 are allowed$/),
      },
    ]);
  });

  it('refuses what is no JSON data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(problem(cyclic)).toEqual({ name: 'filter', reason: 'must be JSON data' });
  });

  it(`lists at most ${MAX_VIOLATIONS_REPORTED} problems and counts the others`, () => {
    const filter = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`f${i}`, []]));
    const check = checkFilter(filter);
    expect(check).toMatchObject({ ok: false, omitted: 5 });
    expect(check.ok ? [] : check.problems.map((found) => found.name)).toEqual(
      Array.from({ length: MAX_VIOLATIONS_REPORTED }, (_, i) => `filter/f${i}`),
    );
  });

  it("never quotes the filter's values", () => {
    const secret = 'DE89370400440532013000';
    const found = problems({
      a: [{ prefix: secret, suffix: secret }],
      b: [{ numeric: ['>', secret, '<', 1] }],
      c: [{ [secret]: 1 }],
    });
    expect(found.length).toBeGreaterThan(0);
    for (const { reason } of found) expect(reason).not.toContain(secret);
  });
});
