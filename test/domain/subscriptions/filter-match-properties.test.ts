/**
 * `matches` on generated filters and payloads: an exact filter built from a payload matches it, anything-but
 * is exactly the complement of an exact value, numeric ranges agree with a BigInt oracle (and a range
 * refused at save is one no number satisfies), and an evaluation's steps, counted through the injected
 * counter, never pass twice the product of the filter's and the payload's sizes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFilter } from '#domain/subscriptions/filter-check';
import { matches } from '#domain/subscriptions/filter-match';
import type { Filter, NumericOperator } from '#domain/subscriptions/filter-model';
import { accepted } from './accepted-filter';
import { decimalText, oracleCompare, shortDecimal } from './decimal-oracle';

/** Steps one evaluation takes, and its answer. */
function stepsOf(filter: Filter, payload: unknown): { matched: boolean; steps: number } {
  let steps = 0;
  const matched = matches(filter, payload, () => {
    steps += 1;
  });
  return { matched, steps };
}

/** JSON values in a document: each object, array and scalar counts one. */
function nodes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + nodes(child), 0);
}

/** Few field names, so generated filters meet generated payloads' fields. */
const name = fc.constantFrom('a', 'b', 'c', 'amount');
const text = fc.oneof(
  fc.constantFrom('', 'NL91', '12.50', '1000.00', '-3', '0.10'),
  fc.string({ maxLength: 8 }),
);
const scalar = fc.oneof(
  text,
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const json = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof({ maxDepth: 2 }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(name, tie('value'), { maxKeys: 3 }),
}));
const payload = json.object;

/** A filter of exact values that the payload satisfies: each field's value, or an element of its list. */
function exactFilterOf(value: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).map(([field, child]) => [field, exactSpecOf(child)] as const);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function exactSpecOf(value: unknown): unknown {
  const elements = Array.isArray(value) ? value.flat(Number.POSITIVE_INFINITY) : [value];
  if (elements.length === 0) return [{ exists: true }];
  const [element] = elements;
  if (typeof element !== 'object' || element === null) return [element];
  return exactFilterOf(element as Record<string, unknown>) ?? [{ exists: true }];
}

const operator = fc.constantFrom<NumericOperator>('=', '<', '<=', '>', '>=');
const lower = fc.constantFrom<NumericOperator>('>', '>=');
const upper = fc.constantFrom<NumericOperator>('<', '<=');
/**
 * A bound as the oracle reads it, and as the filter writes it: a text, or the number it denotes when it has
 * at most 15 significant digits.
 */
const bound = fc.oneof(
  fc.tuple(shortDecimal, fc.boolean()).map(([written, asNumber]) => ({
    written,
    operand: asNumber ? Number(written) : written,
  })),
  decimalText.map((written) => ({ written, operand: written })),
);

const alternative = fc.oneof(
  scalar.filter((value) => typeof value !== 'number' || Number.isFinite(value)),
  fc.record({ prefix: fc.string({ minLength: 1, maxLength: 3 }) }),
  fc.record({ suffix: fc.string({ minLength: 1, maxLength: 3 }) }),
  fc.record({
    'anything-but': fc.oneof(
      text,
      fc.integer(),
      fc.array(fc.oneof(text, fc.integer()), { minLength: 1, maxLength: 3 }),
      fc.record({ prefix: fc.string({ minLength: 1, maxLength: 3 }) }),
    ),
  }),
  fc.record({
    numeric: fc.oneof(
      fc.tuple(operator, bound).map(([op, b]) => [op, b.operand]),
      fc.tuple(lower, bound, upper, bound).map(([l, a, u, b]) => [l, a.operand, u, b.operand]),
    ),
  }),
  fc.record({ exists: fc.boolean() }),
);
const alternatives = fc.array(alternative, { minLength: 1, maxLength: 3 });

/** Patterns nesting at most `depth` deep, `$or` branches included. */
function patternOf(depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth === 1) return fc.dictionary(name, alternatives, { minKeys: 1, maxKeys: 3 });
  const inner = patternOf(depth - 1);
  return fc
    .tuple(
      fc.dictionary(name, fc.oneof(alternatives, inner), { minKeys: 1, maxKeys: 3 }),
      fc.option(fc.array(inner, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    )
    .map(([fields, or]) => (or === undefined ? fields : { ...fields, $or: or }));
}

const filter = patternOf(3).filter((candidate) => checkFilter(candidate).ok) as fc.Arbitrary<Filter>;

describe('matches, on generated filters and payloads', () => {
  it('matches a payload with the exact filter built from it', () => {
    fc.assert(
      fc.property(payload, (value) => {
        const exact = exactFilterOf(value);
        fc.pre(exact !== undefined);
        expect(matches(accepted(exact), value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('matches anything-but of a string or number exactly when the exact value does not', () => {
    const refused = fc.oneof(text, fc.integer({ min: -5, max: 5 }));
    const present = fc.oneof(refused, fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(refused, present, fc.array(refused, { maxLength: 3 }), (value, other, more) => {
        expect(matches(accepted({ f: [{ 'anything-but': value }] }), { f: value })).toBe(false);
        expect(matches(accepted({ f: [{ 'anything-but': [...more, value] }] }), { f: value })).toBe(false);
        expect(matches(accepted({ f: [{ 'anything-but': value }] }), { f: [value, value] })).toBe(false);
        expect(matches(accepted({ f: [{ 'anything-but': value }] }), { f: other })).toBe(
          !matches(accepted({ f: [value] }), { f: other }),
        );
      }),
    );
  });

  it('agrees with a BigInt oracle on numeric ranges, and refuses only ranges no number satisfies', () => {
    const comparisons = fc.oneof(
      fc.tuple(operator, bound).map(([op, b]) => [{ op, b }]),
      fc.tuple(lower, bound, upper, bound, fc.boolean()).map(([l, a, u, b, swap]) =>
        swap
          ? [
              { op: u, b },
              { op: l, b: a },
            ]
          : [
              { op: l, b: a },
              { op: u, b },
            ],
      ),
    );
    const free = bound.map(({ written, operand }) => ({ written, value: operand }));
    /** An amount at a bound, or a digit beyond its precision away from it: where a float would round. */
    const near = (bounds: readonly { b: { written: string } }[]) =>
      fc
        .tuple(fc.constantFrom(...bounds), fc.constantFrom('0', '000000000000000001', '999999999999999999'))
        .map(([{ b }, digits]) => {
          const written = `${b.written}${b.written.includes('.') ? '' : '.'}${digits}`;
          return { written, value: written };
        });
    const cases = comparisons.chain((range) => fc.tuple(fc.constant(range), fc.oneof(free, near(range))));
    fc.assert(
      fc.property(cases, ([range, { written, value }]) => {
        const numeric = range.flatMap(({ op, b }) => [op, b.operand]);
        const check = checkFilter({ amount: [{ numeric }] });
        const holds = (op: NumericOperator, order: number) =>
          ({ '=': order === 0, '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0 })[op];
        if (!check.ok) {
          const low = range.find(({ op }) => op.startsWith('>'));
          const high = range.find(({ op }) => op.startsWith('<'));
          expect(check.problems).toEqual([
            { name: 'filter/amount/0/numeric', reason: expect.stringMatching(/can never match/) },
          ]);
          // Between two bounds of the real numbers lies a number unless they cross, or meet without both including.
          const order = oracleCompare(low?.b.written ?? '', high?.b.written ?? '');
          expect(order > 0 || (order === 0 && (low?.op === '>' || high?.op === '<'))).toBe(true);
          return;
        }
        const expected = range.every(({ op, b }) => holds(op, oracleCompare(written, b.written)));
        expect(matches(check.filter, { amount: value })).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes at most two steps per pair of a filter node and a payload node', () => {
    fc.assert(
      fc.property(filter, payload, (generated, value) => {
        const { steps } = stepsOf(generated, value);
        expect(steps).toBeLessThanOrEqual(2 * nodes(generated) * nodes(value));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('the work of an evaluation', () => {
  /** Alternatives that never match the payload below, 100 in all: the most a filter may hold. */
  const widest = accepted({
    items: {
      $or: [
        { a: Array.from({ length: 50 }, (_, i) => `no ${i}`) },
        { b: { c: Array.from({ length: 50 }, (_, i) => ({ prefix: `no ${i}` })) } },
      ],
    },
  });
  const itemsOf = (count: number) => ({
    items: Array.from({ length: count }, () => ({ a: ['x', 'y', 'z'], b: { c: ['p', ['q', 'r']] } })),
  });

  it('grows in proportion to the payload when nothing matches', () => {
    const small = stepsOf(widest, itemsOf(20));
    const large = stepsOf(widest, itemsOf(40));
    expect(small.matched || large.matched).toBe(false);
    expect(large.steps).toBeLessThanOrEqual(2 * small.steps);
    expect(large.steps).toBeLessThanOrEqual(2 * nodes(widest) * nodes(itemsOf(40)));
  });

  it('does not multiply across nested lists and $or branches', () => {
    let deepest: unknown = { v: [{ numeric: ['>', '1000000'] }, { 'anything-but': ['1', '2', '3'] }] };
    // Each level is a $or branch and an object inside it: two levels reach the deepest nesting allowed.
    for (let level = 0; level < 2; level++) deepest = { $or: [{ n: deepest }, { m: deepest }] };
    const filter = accepted(deepest);
    let tree: unknown = { v: ['1', '2', '3'] };
    for (let level = 0; level < 2; level++) tree = { n: [tree, [tree], tree], m: [[tree], tree, [[tree]]] };
    const { matched, steps } = stepsOf(filter, tree);
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual(2 * nodes(filter) * nodes(tree));
  });
});
