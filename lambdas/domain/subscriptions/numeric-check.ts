/**
 * The rule at save for a `numeric` matcher. Its bounds are read as exact decimals, so a range is refused
 * when no number can satisfy it, whatever digits its bounds are written with.
 */
import { MAX_FILTER_STRING_LENGTH } from '#config/limits';
import type { InvalidParam } from '#domain/errors';
import { childPointer } from '#domain/event-types/schema-walk';
import { compareDecimals, type Decimal, decimalOfNumber, parseDecimal, significantDigits } from './decimal';
import { NUMERIC_OPERATORS, type NumericOperator } from './filter-model';

/**
 * Significant digits a JSON number is sure to carry exactly: any decimal of at most 15 reads back from the
 * nearest double as written, whatever its magnitude.
 */
const EXACT_NUMBER_DIGITS = 15;

const LOWER: ReadonlySet<NumericOperator> = new Set(['>', '>=']);
const UPPER: ReadonlySet<NumericOperator> = new Set(['<', '<=']);

/**
 * What is wrong with a `numeric` condition at `path`: its shape (one comparison, or a lower and an upper
 * bound), its operators, its bounds (numbers JSON carries exactly, or decimal strings), and a range no
 * number satisfies. None when it is valid.
 */
export function numericConditionProblems(condition: unknown, path: string): InvalidParam[] {
  const problems: InvalidParam[] = [];
  const problem = (at: string, reason: string) => problems.push({ name: at, reason });
  if (!Array.isArray(condition) || (condition.length !== 2 && condition.length !== 4)) {
    problem(path, 'must be one comparison such as [">", 0] or a range such as [">", 0, "<=", "100.00"]');
    return problems;
  }
  const comparisons: { operator: NumericOperator; bound: Decimal }[] = [];
  for (let index = 0; index < condition.length; index += 2) {
    const operator = operatorOf(condition[index]);
    if (operator === undefined) {
      problem(childPointer(path, String(index)), `must be one of ${NUMERIC_OPERATORS.join(', ')}`);
    }
    const bound = operandOf(condition[index + 1], childPointer(path, String(index + 1)), problems);
    if (operator !== undefined && bound !== undefined) comparisons.push({ operator, bound });
  }
  const [first, second] = comparisons;
  if (problems.length > 0 || first === undefined || second === undefined) return problems;
  const lower = LOWER.has(first.operator) ? first : second;
  const upper = lower === first ? second : first;
  if (!LOWER.has(lower.operator) || !UPPER.has(upper.operator)) {
    problem(path, 'must be a lower bound (> or >=) and an upper bound (< or <=): = stands alone');
    return problems;
  }
  const order = compareDecimals(lower.bound, upper.bound);
  if (order > 0 || (order === 0 && (lower.operator === '>' || upper.operator === '<'))) {
    problem(path, 'can never match: no number lies between its lower and upper bounds');
  }
  return problems;
}

function operatorOf(value: unknown): NumericOperator | undefined {
  return NUMERIC_OPERATORS.find((operator) => operator === value);
}

function operandOf(value: unknown, path: string, problems: InvalidParam[]): Decimal | undefined {
  const reason = (text: string) => {
    problems.push({ name: path, reason: text });
    return undefined;
  };
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (significantDigits(value) > EXACT_NUMBER_DIGITS) {
      return reason(
        `has more than ${EXACT_NUMBER_DIGITS} significant digits, which a JSON number may not carry exactly: write it as a decimal string`,
      );
    }
    return decimalOfNumber(value);
  }
  const decimal =
    typeof value === 'string' && value.length <= MAX_FILTER_STRING_LENGTH ? parseDecimal(value) : undefined;
  return (
    decimal ??
    reason(
      `must be a number or a decimal string such as "1000.00" (digits, optionally a point and decimals, optionally a leading minus; at most ${MAX_FILTER_STRING_LENGTH} characters)`,
    )
  );
}
