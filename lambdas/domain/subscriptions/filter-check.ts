/**
 * The rule at save: a filter is accepted only when it is a pattern of {@link Filter}'s shape, within the
 * bounds of `config/limits.ts`, and every numeric range can match something. Each problem is named by where
 * it is (`filter/creditor/iban/0/prefix`) and says what is allowed there; reasons never quote the filter's
 * values, which may be account numbers.
 */

import { MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import {
  MAX_FILTER_ALTERNATIVES,
  MAX_FILTER_BYTES,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING_LENGTH,
} from '#config/limits';
import type { InvalidParam } from '#domain/errors';
import { childPointer } from '#domain/event-types/schema-walk';
import { type Filter, MATCHER_KEYWORDS, OR } from './filter-model';
import { numericConditionProblems } from './numeric-check';

/** What a check found: the filter, typed, or its problems. */
export type FilterCheck =
  | { readonly ok: true; readonly filter: Filter }
  | {
      readonly ok: false;
      /** At most {@link MAX_VIOLATIONS_REPORTED}, in the filter's order. */
      readonly problems: readonly InvalidParam[];
      /** How many more there were. */
      readonly omitted: number;
    };

const MATCHERS = MATCHER_KEYWORDS.join(', ');

/** What one walk of a filter collects. */
interface Walk {
  readonly problems: InvalidParam[];
  alternatives: number;
}

/**
 * Checks a filter as received (JSON data). `name` is where the filter sits in the request, the first
 * segment of every problem's name.
 */
export function checkFilter(value: unknown, name = 'filter'): FilterCheck {
  const problems = filterProblems(value, name);
  if (problems.length === 0) return { ok: true, filter: value as Filter };
  return {
    ok: false,
    problems: problems.slice(0, MAX_VIOLATIONS_REPORTED),
    omitted: Math.max(0, problems.length - MAX_VIOLATIONS_REPORTED),
  };
}

function filterProblems(value: unknown, name: string): InvalidParam[] {
  if (!isObject(value)) {
    return [{ name, reason: 'must be an object mirroring the payload, e.g. {"status": ["returned"]}' }];
  }
  const bytes = jsonBytes(value);
  if (bytes === undefined) return [{ name, reason: 'must be JSON data' }];
  if (bytes > MAX_FILTER_BYTES) {
    return [{ name, reason: `has ${bytes} bytes as JSON, at most ${MAX_FILTER_BYTES} are allowed` }];
  }
  const walk: Walk = { problems: [], alternatives: 0 };
  checkPattern(value, name, 1, walk);
  if (walk.alternatives > MAX_FILTER_ALTERNATIVES) {
    walk.problems.push({
      name,
      reason: `has ${walk.alternatives} alternatives in all, at most ${MAX_FILTER_ALTERNATIVES} are allowed (each value or matcher of a field's list counts one, an anything-but list one per value)`,
    });
  }
  return walk.problems;
}

function checkPattern(
  pattern: Readonly<Record<string, unknown>>,
  path: string,
  depth: number,
  walk: Walk,
): void {
  const problem = (at: string, reason: string) => walk.problems.push({ name: at, reason });
  if (depth > MAX_FILTER_DEPTH) {
    problem(
      path,
      `nests patterns more than ${MAX_FILTER_DEPTH} deep (the filter, each object inside it and each ${OR} branch count one)`,
    );
    return;
  }
  const fields = Object.keys(pattern);
  if (fields.length === 0) {
    problem(path, 'must name at least one field: a pattern without fields would match every payload');
  }
  for (const field of fields) {
    const at = childPointer(path, field);
    const spec = pattern[field];
    if (field === OR) checkOr(spec, at, depth, walk);
    else if (field.startsWith('$')) {
      problem(
        at,
        `is not an operator: ${OR} is the only one (a payload field whose name starts with $ cannot be matched)`,
      );
    } else if (field.length > MAX_FILTER_STRING_LENGTH) {
      problem(at, `is a field name longer than ${MAX_FILTER_STRING_LENGTH} characters`);
    } else if (Array.isArray(spec)) checkAlternatives(spec, at, walk);
    else if (isObject(spec)) checkPattern(spec, at, depth + 1, walk);
    else {
      problem(
        at,
        'must be a list of alternatives, e.g. ["settled"], or a pattern of the object inside the field',
      );
    }
  }
}

function checkOr(branches: unknown, path: string, depth: number, walk: Walk): void {
  if (!Array.isArray(branches) || branches.length === 0) {
    walk.problems.push({
      name: path,
      reason: 'must be a non-empty list of patterns, any of which may match',
    });
    return;
  }
  branches.forEach((branch, index) => {
    const at = childPointer(path, String(index));
    if (isObject(branch)) checkPattern(branch, at, depth + 1, walk);
    else walk.problems.push({ name: at, reason: 'must be a pattern: an object mirroring the payload' });
  });
}

function checkAlternatives(alternatives: readonly unknown[], path: string, walk: Walk): void {
  if (alternatives.length === 0) {
    walk.problems.push({
      name: path,
      reason: 'must list at least one alternative (to match a field that is absent: [{"exists": false}])',
    });
  }
  alternatives.forEach((alternative, index) => {
    const at = childPointer(path, String(index));
    if (isObject(alternative)) {
      checkMatcher(alternative, at, walk);
      return;
    }
    walk.alternatives += 1;
    if (Array.isArray(alternative)) {
      walk.problems.push({ name: at, reason: 'must be a value or a matcher object, not a list' });
    } else if (typeof alternative === 'string') checkLength(alternative, at, walk);
    else if (!isScalar(alternative)) {
      walk.problems.push({
        name: at,
        reason: 'must be a string, a number, true, false, null or a matcher object',
      });
    }
  });
}

function checkMatcher(matcher: Readonly<Record<string, unknown>>, path: string, walk: Walk): void {
  const keys = Object.keys(matcher);
  const [keyword] = keys;
  if (keyword === undefined || keys.length > 1) {
    walk.alternatives += 1;
    walk.problems.push({
      name: path,
      reason: `must hold exactly one matcher (${MATCHERS}): list several side by side as alternatives`,
    });
    return;
  }
  const at = childPointer(path, keyword);
  const operand = matcher[keyword];
  if (keyword !== 'anything-but') walk.alternatives += 1;
  switch (keyword) {
    case 'prefix':
    case 'suffix':
      checkStringEnd(operand, at, walk);
      return;
    case 'exists':
      if (typeof operand !== 'boolean') walk.problems.push({ name: at, reason: 'must be true or false' });
      return;
    case 'numeric':
      walk.problems.push(...numericConditionProblems(operand, at));
      return;
    case 'anything-but':
      checkAnythingBut(operand, at, walk);
      return;
    default:
      walk.problems.push({
        name: at,
        reason: `is not a matcher (${MATCHERS}); to match the fields of an object inside the payload, give it a pattern instead of a list`,
      });
  }
}

function checkStringEnd(operand: unknown, path: string, walk: Walk): void {
  if (typeof operand !== 'string' || operand === '' || operand.length > MAX_FILTER_STRING_LENGTH) {
    walk.problems.push({
      name: path,
      reason: `must be a string of 1 to ${MAX_FILTER_STRING_LENGTH} characters`,
    });
  }
}

function checkAnythingBut(operand: unknown, path: string, walk: Walk): void {
  const problem = (at: string, reason: string) => walk.problems.push({ name: at, reason });
  if (Array.isArray(operand)) {
    walk.alternatives += Math.max(1, operand.length);
    if (operand.length === 0) problem(path, 'must list at least one value');
    operand.forEach((value, index) => {
      const at = childPointer(path, String(index));
      if (typeof value === 'string') checkLength(value, at, walk);
      else if (!Number.isFinite(value)) problem(at, 'must be a string or a number');
    });
    return;
  }
  walk.alternatives += 1;
  if (typeof operand === 'string') checkLength(operand, path, walk);
  else if (isObject(operand)) {
    const keys = Object.keys(operand);
    const [keyword] = keys;
    if (keys.length !== 1 || (keyword !== 'prefix' && keyword !== 'suffix')) {
      problem(path, 'must be {"prefix": "…"} or {"suffix": "…"} when it is an object');
    } else checkStringEnd(operand[keyword], childPointer(path, keyword), walk);
  } else if (!Number.isFinite(operand)) {
    problem(
      path,
      'must be a string, a number, a non-empty list of strings and numbers, {"prefix": "…"} or {"suffix": "…"}',
    );
  }
}

function checkLength(text: string, path: string, walk: Walk): void {
  if (text.length > MAX_FILTER_STRING_LENGTH) {
    walk.problems.push({ name: path, reason: `must have at most ${MAX_FILTER_STRING_LENGTH} characters` });
  }
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON scalar: JavaScript's NaN and infinities are none (JSON would write them as null). */
function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'boolean' || typeof value === 'string' || Number.isFinite(value);
}

/** UTF-8 bytes of the value's JSON, or undefined when it has none (a cycle, a bigint, a function). */
function jsonBytes(value: unknown): number | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return json === undefined ? undefined : Buffer.byteLength(json, 'utf8');
}
