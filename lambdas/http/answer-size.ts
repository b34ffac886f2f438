/**
 * What an answer weighs where it is limited: a function's response is the JSON of its proxy result, so
 * the body travels as a JSON string inside it and is escaped once more there. Answers whose items the
 * stored data sizes (the catch-up feed, the event type catalog) are rendered item by item until the next would take the body
 * past {@link ANSWER_BODY_MAX_BYTES} as carried, whatever the items hold.
 */
import { ANSWER_BODY_MAX_BYTES } from '#config/limits';

/**
 * Bytes a text takes inside a Lambda response, as the body of the proxy result: its UTF-8 bytes with
 * every `"`, `\` and control character escaped (a body's `\u0001`, six bytes, carries seven).
 */
export function carriedBytes(text: string): number {
  // The two quotes that open and close the string are not the text's.
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;
}

/**
 * A JSON array of views as an answer fills it: each call says whether one more view still fits within
 * `budget` bytes carried ({@link carriedBytes} of the array's text) and, if so, counts it. The first view
 * always fits: the limits on what an item holds keep it far below the budget
 * (`test/http/answer-size.test.ts` renders the largest).
 */
export function arrayBudget(budget: number = ANSWER_BODY_MAX_BYTES): (view: unknown) => boolean {
  // The array's brackets; a comma before every element but the first.
  let bytes = 2;
  let count = 0;
  return (view) => {
    const more = carriedBytes(JSON.stringify(view)) + (count > 0 ? 1 : 0);
    if (count > 0 && bytes + more > budget) return false;
    bytes += more;
    count += 1;
    return true;
  };
}

/**
 * The views of `items`, in order, as many as a JSON array of them holds within `budget` bytes carried
 * (see {@link arrayBudget}). Fewer views than items means the answer ended early: the caller says where
 * to go on after the last view.
 */
export function takeWithinBudget<T, V>(
  items: readonly T[],
  render: (item: T) => V,
  budget: number = ANSWER_BODY_MAX_BYTES,
): V[] {
  const fits = arrayBudget(budget);
  const views: V[] = [];
  for (const item of items) {
    const view = render(item);
    if (!fits(view)) break;
    views.push(view);
  }
  return views;
}
