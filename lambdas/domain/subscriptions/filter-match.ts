/**
 * Evaluating a filter on a payload: a walk of the filter's data beside the payload's, with no code made
 * from either (no `eval`, no regular expression built from a filter). Each step pairs a node of the filter
 * with a node of the payload (or with a field the payload lacks), and a walk meets each such pair at most
 * once, so it takes at most two steps per pair of a filter node and a payload node: the work is bounded by
 * the filter's size times the payload's, whatever their shapes. The meaning of each construct is
 * `docs/subscriptions.md`'s.
 */
import { compareDecimals, type Decimal, decimalOfNumber, parseDecimal } from './decimal';
import type {
  Alternative,
  AnythingBut,
  Filter,
  FilterPattern,
  NumericCondition,
  NumericOperator,
} from './filter-model';
import { OR } from './filter-model';

/** Called once per step of an evaluation: how tests count the work, without timing it. */
export type StepCounter = () => void;

const uncounted: StepCounter = () => {};

/**
 * Whether `payload` (JSON data: objects, arrays, strings, finite numbers, booleans, null) matches a filter
 * that `checkFilter` accepted. `onStep` is told of each step of the evaluation.
 */
export function matches(filter: Filter, payload: unknown, onStep: StepCounter = uncounted): boolean {
  return matchPattern(filter, payload, onStep);
}

/**
 * A pattern against a field's value. An array matches when one of its elements (nested arrays opened)
 * matches the whole pattern on its own; an empty one, like anything that is not an object, has no fields.
 */
function matchPattern(pattern: FilterPattern, value: unknown, step: StepCounter): boolean {
  step();
  if (!Array.isArray(value)) return matchFields(pattern, value, step);
  let elements = 0;
  const found = someElement(
    value,
    (element) => {
      elements += 1;
      return matchFields(pattern, element, step);
    },
    step,
  );
  return found || (elements === 0 && matchFields(pattern, undefined, step));
}

/** Every field of the pattern (and one of its `$or` branches) against a value that is not an array. */
function matchFields(pattern: FilterPattern, value: unknown, step: StepCounter): boolean {
  const fields = isObject(value) ? value : undefined;
  for (const [field, spec] of Object.entries(pattern)) {
    step();
    if (field === OR) {
      const branches = spec as readonly FilterPattern[];
      if (!branches.some((branch) => matchFields(branch, value, step))) return false;
      continue;
    }
    const child = fields !== undefined && Object.hasOwn(fields, field) ? fields[field] : undefined;
    const ok = isAlternatives(spec)
      ? matchAlternatives(spec, child, step)
      : matchPattern(spec as FilterPattern, child, step);
    if (!ok) return false;
  }
  return true;
}

/** A field's list of alternatives against its value; `undefined` is a field the payload does not have. */
function matchAlternatives(alternatives: readonly Alternative[], value: unknown, step: StepCounter): boolean {
  return alternatives.some((alternative) => {
    step();
    if (isMatcher(alternative) && 'exists' in alternative)
      return alternative.exists === (value !== undefined);
    if (value === undefined) return false;
    if (!Array.isArray(value)) return matchValue(alternative, value, step);
    return someElement(value, (element) => matchValue(alternative, element, step), step);
  });
}

/** A value or a matcher other than `exists` against one present value that is not an array. */
function matchValue(alternative: Alternative, value: unknown, step: StepCounter): boolean {
  if (!isMatcher(alternative)) return value === alternative;
  if ('prefix' in alternative) return typeof value === 'string' && value.startsWith(alternative.prefix);
  if ('suffix' in alternative) return typeof value === 'string' && value.endsWith(alternative.suffix);
  if ('numeric' in alternative) return matchNumeric(alternative.numeric, value);
  if ('anything-but' in alternative) return matchAnythingBut(alternative['anything-but'], value, step);
  return false;
}

/** Any value but those listed: a string, number, boolean or null; an object is no value here. */
function matchAnythingBut(refused: AnythingBut, value: unknown, step: StepCounter): boolean {
  if (isObject(value)) return false;
  if (typeof refused !== 'object') return refused !== value;
  if ('prefix' in refused) return typeof value === 'string' && !value.startsWith(refused.prefix);
  if ('suffix' in refused) return typeof value === 'string' && !value.endsWith(refused.suffix);
  return refused.every((other) => {
    step();
    return other !== value;
  });
}

/** A number, or a string that is a decimal number, against every comparison of the condition. */
function matchNumeric(condition: NumericCondition, value: unknown): boolean {
  const number = numberOf(value);
  if (number === undefined) return false;
  for (let index = 0; index + 1 < condition.length; index += 2) {
    const bound = numberOf(condition[index + 1]);
    const operator = condition[index] as NumericOperator;
    if (bound === undefined || !holds(operator, compareDecimals(number, bound))) return false;
  }
  return true;
}

/** The decimal of a finite number, or of a string that writes one; undefined for anything else. */
function numberOf(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? decimalOfNumber(value) : undefined;
  return typeof value === 'string' ? parseDecimal(value) : undefined;
}

function holds(operator: NumericOperator, order: -1 | 0 | 1): boolean {
  switch (operator) {
    case '=':
      return order === 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/**
 * Whether `test` holds for an element of the array, nested arrays opened in place (`[["a"], "b"]` has the
 * elements "a" and "b"). Iterative: a payload may nest arrays deeper than a call stack is comfortable with.
 */
function someElement(
  array: readonly unknown[],
  test: (element: unknown) => boolean,
  step: StepCounter,
): boolean {
  const stack: { readonly items: readonly unknown[]; next: number }[] = [{ items: array, next: 0 }];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if (frame.next === frame.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.items[frame.next];
    frame.next += 1;
    step();
    if (Array.isArray(item)) stack.push({ items: item, next: 0 });
    else if (test(item)) return true;
  }
  return false;
}

function isAlternatives(spec: FilterPattern[string]): spec is readonly Alternative[] {
  return Array.isArray(spec);
}

function isMatcher(
  alternative: Alternative,
): alternative is Exclude<Alternative, string | number | boolean | null> {
  return typeof alternative === 'object' && alternative !== null;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
