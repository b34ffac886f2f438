/**
 * What Herald asks of a regular expression in an operator's schema (`pattern`, `patternProperties`) beyond
 * compiling: a bounded length, and no repetition of a group whose content itself varies in length
 * (`(a+)+`, `(\d*)*`, `([a-z]{1,8})+`): such a group can split one input in exponentially many ways, the
 * usual shape of catastrophic backtracking, which would let one payload string hold a publish for seconds.
 * Overlapping alternatives under a repetition (`(a|aa)+`) are not detected; patterns are written by
 * operators, and payload strings are bounded by the payload's size.
 */
import { MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH } from '#config/catalog-limits';

/** Why the pattern is refused, or undefined when it is fine. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH) {
    return `must have at most ${MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH} characters`;
  }
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'must be a regular expression (ECMA-262, with the u flag)';
  }
  if (hasNestedRepetition(pattern)) {
    return 'repeats a group whose content varies in length (like (a+)+ or ([a-z]{1,8})+), which can take exponential time: give the inner part a fixed length, or repeat the group a fixed number of times';
  }
  return undefined;
}

/**
 * Whether a group whose content varies in length (it holds a quantifier other than a fixed count) is itself
 * repeated a varying number of times (by `*`, `+`, `{n,}` or `{n,m}`; `?` and `{n}` are fine). Scans the
 * source once, skipping escapes and character classes.
 */
function hasNestedRepetition(pattern: string): boolean {
  /** Per open group: whether a varying quantifier occurred inside it. */
  const groups: boolean[] = [];
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '[') {
      index = endOfClass(pattern, index);
      continue;
    }
    if (char === '(') {
      groups.push(false);
      index += 1;
      continue;
    }
    if (char === ')') {
      const varies = groups.pop() ?? false;
      const after = quantifierAt(pattern, index + 1);
      if (varies && after?.kind === 'repeat') return true;
      if (groups.length > 0 && (varies || (after !== undefined && after.kind !== 'fixed'))) {
        groups[groups.length - 1] = true;
      }
      index += 1 + (after?.length ?? 0);
      continue;
    }
    const quantifier = quantifierAt(pattern, index);
    if (quantifier !== undefined) {
      if (quantifier.kind !== 'fixed' && groups.length > 0) groups[groups.length - 1] = true;
      index += quantifier.length;
      continue;
    }
    index += 1;
  }
  return false;
}

/**
 * The quantifier starting at `index` (with a lazy `?` after it), if any: `fixed` ({n}), `optional` (?),
 * or `repeat` (any other count).
 */
function quantifierAt(
  pattern: string,
  index: number,
): { kind: 'fixed' | 'optional' | 'repeat'; length: number } | undefined {
  const lazy = (length: number) => (pattern[index + length] === '?' ? length + 1 : length);
  const char = pattern[index];
  if (char === '*' || char === '+') return { kind: 'repeat', length: lazy(1) };
  if (char === '?') return { kind: 'optional', length: lazy(1) };
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
  if (braces === null) return undefined;
  const fixed = braces[2] === undefined || braces[3] === braces[1];
  return { kind: fixed ? 'fixed' : 'repeat', length: lazy(braces[0].length) };
}

/** The index after the character class opening at `start`. */
function endOfClass(pattern: string, start: number): number {
  let index = start + 1;
  while (index < pattern.length && pattern[index] !== ']') index += pattern[index] === '\\' ? 2 : 1;
  return index + 1;
}
