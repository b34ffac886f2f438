/**
 * The platform team's message about a stretch of minutes' notices, all organizations together: counts by
 * kind, the first lines, and the command that lists every notice. One message however many notices, so a
 * thousand failing endpoints make one e-mail, not a thousand.
 */
import { maskIban } from '#domain/iban';
import { renderTimestamp } from '#domain/time';
import type { Notice } from './notice';

/** Notices shown line by line in a summary; the rest are counted. */
export const SUMMARY_LINES = 20;

/** Organizations whose listing command a summary names; the rest are counted. */
export const SUMMARY_ORGANIZATIONS = 10;

/** What a summary says, gathered from the minute index (`counts`) and the first notices read whole. */
export interface SummaryContent {
  /** The first and last minute covered (`yyyy-mm-ddThh:mm`, UTC). */
  readonly from: string;
  readonly to: string;
  /** Notices counted, by kind (any kind: the catalog may add some). */
  readonly counts: ReadonlyMap<string, number>;
  /** True when the counting stopped at its cap: more notices exist than counted. */
  readonly capped: boolean;
  /** The organizations of the counted notices, in order of their first notice. */
  readonly organizations: readonly string[];
  /** The first notices, whole, in time order (at most {@link SUMMARY_LINES}). */
  readonly first: readonly Notice[];
}

/** An SNS message: a subject (one line, under 100 characters) and a plain-text body. */
export interface SummaryMessage {
  readonly subject: string;
  readonly body: string;
}

/**
 * The message for `content`. Accounts are masked (`maskIban`): the message leaves for e-mail inboxes of
 * people who are not the account's organization. No URL, no answer body: only the last status.
 */
export function renderSummary(content: SummaryContent): SummaryMessage {
  const total = [...content.counts.values()].reduce((sum, count) => sum + count, 0);
  const many = content.capped ? `${total}+` : String(total);
  const when =
    content.from === content.to
      ? `${minuteText(content.from)} UTC`
      : `${minuteText(content.from)} to ${minuteText(content.to)} UTC`;
  const body: string[] = [
    `Herald operational notices, ${when}: ${many} notice${total === 1 ? '' : 's'} from ${plural(content.organizations.length, 'organization')}.`,
    '',
    'By kind:',
    ...[...content.counts].map(([kind, count]) => `  ${kind}: ${count}`),
  ];
  if (content.capped) {
    body.push(`  (counting stopped at ${total}: more notices exist; list them with the commands below)`);
  }
  body.push(
    '',
    `The first ${content.first.length} (time UTC, organization, account, endpoint, kind, last status):`,
  );
  for (const notice of content.first) body.push(`  ${line(notice)}`);
  const rest = total - content.first.length;
  if (rest > 0) body.push(`  … and ${content.capped ? 'more than ' : ''}${rest} more`);
  body.push('', 'List an organization’s notices (newest first):');
  const named = content.organizations.slice(0, SUMMARY_ORGANIZATIONS);
  for (const org of named) body.push(`  herald operational-events list --org ${org}`);
  const others = content.organizations.length - named.length;
  if (others > 0) body.push(`  … and ${plural(others, 'more organization')}`);
  return {
    subject: `Herald: ${many} operational notice${total === 1 ? '' : 's'}, ${when}`,
    body: body.join('\n'),
  };
}

function line(notice: Notice): string {
  const status = notice.lastAnswer === undefined ? '-' : statusText(notice.lastAnswer.status);
  return [
    renderTimestamp(notice.at),
    notice.orgId,
    maskIban(notice.account),
    notice.endpointId,
    notice.kind + (notice.percent === undefined ? '' : ` (${notice.percent} %)`),
    status,
  ].join('  ');
}

/** Status 0 means no HTTP answer (a timeout, a refused connection). */
function statusText(status: number): string {
  return status === 0 ? 'no answer' : String(status);
}

function minuteText(minute: string): string {
  return minute.replace('T', ' ');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
