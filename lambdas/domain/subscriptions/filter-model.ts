/**
 * What a payload filter is: a JSON object mirroring the payload's shape, in the style of EventBridge's
 * event patterns. `docs/subscriptions.md` is the language's description for users; `checkFilter`
 * (`filter-check.ts`) accepts exactly the filters these types describe, and `matches` (`filter-match.ts`)
 * evaluates them.
 */

/** A value matched exactly: same JSON type and equal (numbers as numbers, strings character for character). */
export type ExactValue = string | number | boolean | null;

/** The comparisons of a numeric range. */
export const NUMERIC_OPERATORS = ['=', '<', '<=', '>', '>='] as const;

/** One of {@link NUMERIC_OPERATORS}. */
export type NumericOperator = (typeof NUMERIC_OPERATORS)[number];

/** A bound of a numeric range: a JSON number, or a decimal string compared exactly (`"1000.00"`). */
export type NumericOperand = number | string;

/**
 * One comparison (`[">", 0]`, `["=", "12.50"]`), or a lower and an upper bound in either order
 * (`[">", 0, "<=", "100"]`). A value matches when it holds for every comparison.
 */
export type NumericCondition =
  | readonly [NumericOperator, NumericOperand]
  | readonly [NumericOperator, NumericOperand, NumericOperator, NumericOperand];

/** A string's start or end that `anything-but` refuses. */
export type StringEnd = { readonly prefix: string } | { readonly suffix: string };

/** What `anything-but` refuses: one value, a list of values, or strings with a given start or end. */
export type AnythingBut = string | number | readonly (string | number)[] | StringEnd;

/** A matcher: an object with exactly one of these keys. */
export type Matcher =
  | { readonly prefix: string }
  | { readonly suffix: string }
  | { readonly 'anything-but': AnythingBut }
  | { readonly numeric: NumericCondition }
  | { readonly exists: boolean };

/** The matcher keywords, in the order refusals list them. */
export const MATCHER_KEYWORDS = ['prefix', 'suffix', 'anything-but', 'numeric', 'exists'] as const;

/** One alternative of a field's list. */
export type Alternative = ExactValue | Matcher;

/** The key whose value is a list of patterns, any of which may match (`{"$or": [{…}, {…}]}`). */
export const OR = '$or';

/**
 * A pattern: each field names a payload field, and holds either a non-empty list of alternatives (the
 * field matches when any alternative does) or a pattern of the object inside it; `$or` holds a non-empty
 * list of patterns. A payload matches when every field of the pattern (and `$or`, when present) does.
 */
export interface FilterPattern {
  readonly [field: string]: readonly Alternative[] | FilterPattern | readonly FilterPattern[];
}

/** A subscription's payload filter: a pattern of the payload as a whole. */
export type Filter = FilterPattern;
