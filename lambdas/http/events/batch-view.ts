/**
 * The answer of `POST /events/batch`: one result per entry, in order: the event as listed (no payload,
 * no attempts, so 100 results stay small) with `201` (recorded now) or `200` (its id was published before
 * with the same content), or the RFC 9457 problem that refused the entry, its fields named
 * `events[<index>].<field>`.
 */
import { BusyError, ConflictError, UnprocessableError, ValidationError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { PUBLISH_BATCH_ANSWER, PUBLISH_BATCH_RESULT } from '#http/openapi/events-batch';
import { errorProblem } from '#http/problem/render';
import type { Static } from '#http/schema';
import { publishError } from './event-request';
import { toEventSummary } from './event-view';

/** One entry's result. */
export type BatchResultView = Static<typeof PUBLISH_BATCH_RESULT>;

/** The answer's body. */
export type BatchView = Static<typeof PUBLISH_BATCH_ANSWER>;

/** What became of one entry: recorded (now or before), or refused. */
export type BatchOutcome =
  | { readonly created: boolean; readonly event: EventRecord }
  | { readonly error: unknown };

/** The answer for the outcomes of a batch, in entry order; `instance` is the request id of its problems. */
export function toBatchView(outcomes: readonly BatchOutcome[], baseUrl: string, instance: string): BatchView {
  return {
    results: outcomes.map((outcome, index) => {
      if ('error' in outcome) {
        const problem = errorProblem(entryError(outcome.error, index), instance);
        return { status: problem.status, problem };
      }
      return { status: outcome.created ? 201 : 200, event: toEventSummary(outcome.event, baseUrl) };
    }),
  };
}

/**
 * An entry's refusal as the publish route answers it (`publishError`), its fields named within the
 * batch: `payload` of the fourth entry is `events[3].payload`, a violation of its type's schema
 * `events[3].payload/amount`.
 */
function entryError(error: unknown, index: number): unknown {
  const named = publishError(error);
  const at = `events[${index}]`;
  const within = (name: string) => (name.startsWith(at) ? name : `${at}.${name}`);
  if (named instanceof ValidationError) return named.renamed(within);
  if (named instanceof UnprocessableError) {
    const [param] = named.params;
    return param === undefined ? named : new UnprocessableError(within(param.name), param.reason);
  }
  if (named instanceof ConflictError) return new ConflictError(within(named.message));
  if (named instanceof BusyError) return new BusyError(within(named.message));
  return named;
}
