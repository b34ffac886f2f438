/**
 * The catch-up feed's answer (`GET /accounts/{iban}/events`): the events of one read of the log, as many
 * as one answer carries, and the `Link: next` that goes on right after the last one returned.
 */
import type { LogPage } from '#domain/ports';
import { takeWithinBudget } from '#http/answer-size';
import { type FeedEventView, toFeedEvent } from '#http/events/event-view';
import type { REPLAY_RESULT } from '#http/openapi/feed';
import type { Static } from '#http/schema';
import { type FeedQuery, feedLinkHeader } from './feed-request';

/** A feed answer: its body and, while more may follow, its `Link` header. */
export interface FeedAnswer {
  readonly events: FeedEventView[];
  readonly link?: string;
}

/**
 * The answer of one read of the log: its events within the answer's budget (`takeWithinBudget`), and a
 * `Link: next` after the last event returned when the budget left some out or the read says more may
 * follow. So a receiver that follows the links gets every event once, in sequence order.
 */
export function toFeedAnswer(page: LogPage, baseUrl: string, iban: string, query: FeedQuery): FeedAnswer {
  const events = takeWithinBudget(page.events, (record) => toFeedEvent(record, baseUrl));
  // Where the next answer goes on: after the last event returned, whichever ended this one.
  let last: number | undefined;
  if (events.length < page.events.length) last = page.events[events.length - 1]?.sequence;
  else if (page.more) last = page.nextAfterSequence;
  const link = feedLinkHeader(baseUrl, iban, query, last);
  return link === undefined ? { events } : { events, link };
}

/** The answer of a replay. */
export type ReplayView = Static<typeof REPLAY_RESULT>;

/** A replay's result as answered. */
export function toReplayView(result: {
  readonly queued: readonly string[];
  readonly usedUp: readonly string[];
  readonly more: boolean;
  readonly nextAfterSequence: number;
}): ReplayView {
  return {
    queued: result.queued,
    used_up: result.usedUp,
    more: result.more,
    next_after_sequence: result.nextAfterSequence,
  };
}
