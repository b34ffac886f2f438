/**
 * The platform team's summary of operational notices: each run (every minute) covers the complete minutes
 * since the last one covered, every organization together, in one message at most.
 */
import { addMinutes, latestSettledMinute, minutesBetween } from '#domain/notices/notice-minute';
import { renderSummary, SUMMARY_LINES } from '#domain/notices/notice-summary';
import type { NoticeHead, NoticeIndex, SummaryCursor, SummaryPublisher } from '#domain/notices/ports';
import type { Clock } from '#domain/time';

/**
 * Minutes one run covers at most. A run after an outage covers the oldest missed hour, the next run the
 * next hour: one message a minute however long the outage.
 */
export const SUMMARY_MAX_MINUTES = 60;

/**
 * Notices one run counts at most (index entries read). A minute that holds more is covered with the count
 * it reached, the message says so, and its other notices stay listed per organization; the minutes after
 * it are left to the next run.
 */
export const SUMMARY_MAX_COUNTED = 10_000;

/** What the summary needs. */
export interface NoticeSummaryDeps {
  readonly index: NoticeIndex;
  readonly cursor: SummaryCursor;
  readonly publisher: SummaryPublisher;
  readonly clock: Clock;
}

/** What a run did. */
export type SummaryOutcome =
  /** Nothing complete since the last minute covered (a retry, or a second run in the same minute). */
  | { readonly kind: 'up-to-date' }
  /** The minutes held no notice: covered, nothing sent. */
  | { readonly kind: 'quiet'; readonly from: string; readonly to: string }
  | { readonly kind: 'sent'; readonly from: string; readonly to: string; readonly notices: number }
  /** A concurrent run covered these minutes first: nothing sent by this one. */
  | { readonly kind: 'taken'; readonly from: string; readonly to: string };

/**
 * Covers the complete minutes after the cursor (the latest complete one only, on the first run) and sends
 * one message when they hold notices.
 *
 * The cursor moves before the message is sent, conditioned on the value read: of two runs (a retry, a
 * duplicate schedule event) only one moves it, and only that one sends. A publish that fails moves it
 * back, so the next run sends the minutes again; a run that dies between the move and the publish loses
 * that message (at most once: never a duplicate e-mail; the notices stay listed per organization).
 */
export async function summariseNotices(deps: NoticeSummaryDeps): Promise<SummaryOutcome> {
  const settled = latestSettledMinute(deps.clock());
  const last = await deps.cursor.last();
  // The first run starts at the latest complete minute: nothing from before the summary existed.
  const from = last === undefined ? settled : addMinutes(last, 1);
  if (from > settled) return { kind: 'up-to-date' };
  const capEnd = addMinutes(from, SUMMARY_MAX_MINUTES - 1);
  const counted = await countMinutes(deps.index, minutesBetween(from, capEnd < settled ? capEnd : settled));
  const to = counted.through;
  if (counted.total === 0) {
    await deps.cursor.move(last, to);
    return { kind: 'quiet', from, to };
  }
  const first = await deps.index.read(counted.first);
  if (!(await deps.cursor.move(last, to))) return { kind: 'taken', from, to };
  try {
    await deps.publisher.publish(
      renderSummary({
        from,
        to,
        counts: counted.counts,
        capped: counted.capped,
        organizations: counted.organizations,
        first,
      }),
    );
  } catch (error) {
    await deps.cursor.move(to, last ?? addMinutes(from, -1));
    throw error;
  }
  return { kind: 'sent', from, to, notices: counted.total };
}

interface Counted {
  /** The last minute read: the last one asked for, or the one where the count reached its cap. */
  readonly through: string;
  readonly counts: Map<string, number>;
  readonly organizations: string[];
  readonly first: NoticeHead[];
  readonly total: number;
  readonly capped: boolean;
}

/** Counts the minutes' notices by kind, up to {@link SUMMARY_MAX_COUNTED}, keeping the first heads. */
async function countMinutes(index: NoticeIndex, minutes: readonly string[]): Promise<Counted> {
  const counts = new Map<string, number>();
  const organizations = new Set<string>();
  const first: NoticeHead[] = [];
  let total = 0;
  let through = '';
  let capped = false;
  for (const minute of minutes) {
    through = minute;
    const { heads, more } = await index.minute(minute, SUMMARY_MAX_COUNTED - total);
    for (const head of heads) {
      counts.set(head.kind, (counts.get(head.kind) ?? 0) + 1);
      organizations.add(head.orgId);
      if (first.length < SUMMARY_LINES) first.push(head);
    }
    total += heads.length;
    capped = more;
    if (capped || total === SUMMARY_MAX_COUNTED) break;
  }
  return { through, counts, organizations: [...organizations], first, total, capped };
}
