import { checkFilter } from '#domain/subscriptions/filter-check';
import type { Filter } from '#domain/subscriptions/filter-model';

/** A filter the test knows to be valid, checked as an endpoint's is at save (a refusal fails the test). */
export function accepted(filter: unknown): Filter {
  const check = checkFilter(filter);
  if (!check.ok) throw new Error(`filter refused: ${JSON.stringify(check.problems)}`);
  return check.filter;
}
