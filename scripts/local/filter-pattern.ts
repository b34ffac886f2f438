/**
 * A matcher for the subset of Lambda event-filter patterns Herald uses, so the local stream link drops
 * exactly the records the event source mapping in AWS drops.
 *
 * Semantics follow Lambda (EventBridge pattern syntax): every key of the pattern must match; a leaf is an
 * array of alternatives; a value that is itself an array matches when any element matches; `null`
 * matches only an explicit null; `{ exists: false }` matches an absent field. Unsupported operators throw
 * instead of silently matching nothing.
 */

/** Exact value or operator inside a leaf array. */
export type FilterLeaf =
  | string
  | number
  | boolean
  | null
  | { readonly prefix: string }
  | { readonly exists: boolean };

/** A filter pattern: nested objects whose leaves are arrays of alternatives. */
export interface FilterPattern {
  readonly [field: string]: FilterPattern | readonly FilterLeaf[];
}

/** Whether `value` (a JSON-like object, e.g. a Lambda stream record) matches `pattern`. */
export function matchesFilterPattern(pattern: FilterPattern, value: unknown): boolean {
  const object = isPlainObject(value) ? value : undefined;
  for (const [field, expected] of Object.entries(pattern)) {
    const actual = object ? object[field] : undefined;
    const matched = Array.isArray(expected)
      ? matchesLeaf(expected as readonly FilterLeaf[], actual, object !== undefined && field in object)
      : matchesFilterPattern(expected as FilterPattern, actual);
    if (!matched) return false;
  }
  return true;
}

function matchesLeaf(alternatives: readonly FilterLeaf[], actual: unknown, present: boolean): boolean {
  return alternatives.some((alternative) => {
    if (isPlainObject(alternative)) return matchesOperator(alternative, actual, present);
    if (!present) return false;
    // A JSON array in the event matches when any of its elements does.
    const candidates = Array.isArray(actual) ? actual : [actual];
    return candidates.some((candidate) => equalsExact(alternative, candidate));
  });
}

function matchesOperator(operator: Record<string, unknown>, actual: unknown, present: boolean): boolean {
  const keys = Object.keys(operator);
  if (keys.length !== 1) throw new Error(`Unsupported filter operator ${JSON.stringify(operator)}`);
  if ('exists' in operator) {
    // Lambda's `exists` applies to leaf values: an object-valued field does not count as present.
    const isLeaf = present && !isPlainObject(actual);
    return operator.exists === true ? isLeaf : !present;
  }
  if ('prefix' in operator && typeof operator.prefix === 'string') {
    const prefix = operator.prefix;
    const candidates = Array.isArray(actual) ? actual : [actual];
    return (
      present && candidates.some((candidate) => typeof candidate === 'string' && candidate.startsWith(prefix))
    );
  }
  throw new Error(`Unsupported filter operator ${JSON.stringify(operator)}`);
}

function equalsExact(expected: FilterLeaf, actual: unknown): boolean {
  // Numbers compare by value (1 matches 1.0), everything else strictly.
  if (typeof expected === 'number') return typeof actual === 'number' && actual === expected;
  return actual === expected;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
