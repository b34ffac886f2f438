/**
 * Which operational notices an endpoint's health calls for, decided from the health alone (the state a
 * health write returned, or the one the batch read with the account): pure, no I/O. An endpoint's health
 * carries a mark of the last notice announced for it (`noticed`, e.g. `failing@<failing since>`), so a
 * notice is due when the health has reached a level its mark has not: a consumer that crashed after the
 * health write, before the notice, leaves the mark behind, and the next consumer to see the endpoint
 * announces it. A healthy endpoint with no mark calls for nothing (the common path decides that from
 * what it already holds).
 */
import { DISABLING_SOON_PERCENTS, FAILING_NOTICE_AFTER, type NoticeKind } from '#domain/notices/notice';
import type { EndpointHealth } from './endpoint-health-port';
import type { HealthPolicy } from './endpoint-health-rule';

/** The levels of a failing endpoint, in the order it reaches them. */
const LEVELS = ['failing', ...DISABLING_SOON_PERCENTS.map((p) => `soon${p}`), 'disabled'] as const;

/** What an endpoint's mark says: the highest level announced, and of which run (or disabling). */
export interface NoticeMark {
  readonly level: string;
  readonly epoch: string;
}

/** A notice the health calls for. */
export interface DueNotice {
  readonly kind: NoticeKind;
  readonly epoch: string;
  readonly percent?: number;
}

/** The notices due, in order, and the mark to store once they are: undefined to remove it. */
export interface NoticeDecision {
  readonly due: readonly DueNotice[];
  readonly mark: string | undefined;
}

/** The stored form of a mark: `<level>@<epoch>`. */
export function formatMark(mark: NoticeMark): string {
  return `${mark.level}@${mark.epoch}`;
}

/** A stored mark, or undefined when absent or not one. */
export function parseMark(text: string | undefined): NoticeMark | undefined {
  const at = text?.indexOf('@') ?? -1;
  if (text === undefined || at < 1) return undefined;
  const level = text.slice(0, at);
  return LEVELS.includes(level as (typeof LEVELS)[number]) ? { level, epoch: text.slice(at + 1) } : undefined;
}

/**
 * The notices `health` calls for at `now` (epoch ms) beyond those its mark says were announced; undefined
 * when none (nothing to write).
 */
export function dueNotices(
  health: EndpointHealth,
  now: number,
  policy: HealthPolicy,
): NoticeDecision | undefined {
  const mark = parseMark(health.noticed);
  if (health.state === 'disabled') {
    const epoch = health.since;
    // A disabling without its time (a legacy or hand-edited item) names no notice: one stored with no
    // epoch could not be shown, and would fail every page of the organization's listing that holds it.
    if (epoch === undefined || Number.isNaN(Date.parse(epoch))) return undefined;
    if (mark?.level === 'disabled' && mark.epoch === epoch) return undefined;
    return { due: [{ kind: 'endpoint_disabled', epoch }], mark: formatMark({ level: 'disabled', epoch }) };
  }
  const due: DueNotice[] = [];
  // A run announced and over (the endpoint answered 2xx since, or a new run began): it recovered. An
  // endpoint enabled again after a disabling announces no recovery: the enabling is an operator's act.
  const run = health.failingSince;
  let announced = mark?.level === 'disabled' ? undefined : mark;
  if (announced && announced.epoch !== run) {
    due.push({ kind: 'endpoint_recovered', epoch: announced.epoch });
    announced = undefined;
  }
  let level = announced?.level;
  if (run !== undefined && health.consecutiveFailures >= FAILING_NOTICE_AFTER) {
    for (const reached of reachedLevels(run, now, policy)) {
      if (level !== undefined && LEVELS.indexOf(reached.level) <= LEVELS.indexOf(level as never)) continue;
      due.push(reached.notice);
      level = reached.level;
    }
  }
  const next = level === undefined || run === undefined ? undefined : formatMark({ level, epoch: run });
  // Nothing new; a disabling's mark left on an endpoint enabled again stays until its next run replaces it.
  if (due.length === 0 && (next === health.noticed || next === undefined)) return undefined;
  return { due, mark: next };
}

/** The levels a failing run (failing since `run`, announced failing) has reached at `now`. */
function reachedLevels(
  run: string,
  now: number,
  policy: HealthPolicy,
): { readonly level: string; readonly notice: DueNotice }[] {
  const reached = [{ level: 'failing', notice: { kind: 'endpoint_failing', epoch: run } as DueNotice }];
  const elapsed = now - Date.parse(run);
  for (const percent of DISABLING_SOON_PERCENTS) {
    if (elapsed * 100 < policy.autoDisableAfterMs * percent) break;
    reached.push({
      level: `soon${percent}`,
      notice: { kind: 'endpoint_disabling_soon', epoch: run, percent },
    });
  }
  return reached;
}
