/**
 * What a CLI command is, and how one follows the operator API's bounded answers to the end: chunked routes
 * until `more: false`, paged listings along their `Link: rel="next"`.
 */
import type { AdminOperation } from '#config/routes';
import { MAX_PER_PAGE } from '#http/paging';
import type { ApiAnswer, ApiCall } from './api-client';
import type { Flags } from './flags';

/**
 * One command: its line of the usage text, the operator route it calls (none: `publish`, which calls
 * `POST /events`), and its run.
 */
export interface Command {
  readonly usage: string;
  readonly route?: AdminOperation;
  readonly run: (call: ApiCall, flags: Flags) => Promise<unknown>;
}

/** A chunked route's answer: what this call did and whether (and where) to go on. */
export interface Step {
  readonly more: boolean;
  readonly cursor?: string;
}

/** The body field that asks a chunked route to go on after `previous` (none for the first call). */
export function cursorOf(previous: Step | undefined): { cursor?: string } {
  return previous?.cursor ? { cursor: previous.cursor } : {};
}

/**
 * Calls a chunked route until it says `more: false` (each call's cost is bounded on the server), and
 * accumulates each `collected` field over the calls (numbers summed, lists joined); `call` builds each
 * call from the previous step.
 */
export async function untilDone<T extends Step>(
  call: (previous: T | undefined) => Promise<ApiAnswer>,
  ...collected: readonly (keyof T)[]
): Promise<T> {
  let step: T | undefined;
  const totals = new Map<keyof T, unknown>();
  do {
    step = (await call(step)).body as T;
    for (const key of collected) {
      const part = step[key];
      const total = totals.get(key);
      totals.set(
        key,
        Array.isArray(part)
          ? [...((total as unknown[] | undefined) ?? []), ...part]
          : Number(total ?? 0) + Number(part),
      );
    }
  } while (step.more);
  return { ...step, ...Object.fromEntries(totals) };
}

/**
 * Calls a paged listing and follows its `Link: rel="next"` to the end (each page's cost is bounded on the
 * server), joining the pages. The next link's query is applied to `path`, so the CLI keeps calling the API
 * it was pointed at, whatever base URL the API writes into its links.
 *
 * @param first - the first page's query: the largest pages by default; `''` for a listing that sizes its
 *   pages itself (the event type catalog)
 */
export async function allPages(
  call: ApiCall,
  path: string,
  first = `?per_page=${MAX_PER_PAGE}`,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let query: string | undefined = first;
  while (query !== undefined) {
    const answer = await call('GET', `${path}${query}`);
    items.push(...(answer.body as unknown[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(answer.link ?? '')?.[1];
    query = next === undefined ? undefined : new URL(next).search;
  }
  return items;
}
