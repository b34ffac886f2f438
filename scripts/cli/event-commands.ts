/**
 * The CLI's operator commands on an organization's events: requeue, redeliver, reset, and the one-off
 * upgrades (into account logs, into the status indexes). Each follows its route's chunks until done.
 */
import { adminRoute, bodyOf, org } from './admin-route';
import { type Command, cursorOf, type Step, untilDone } from './command';
import { integer, required } from './flags';

/** The `events …` commands, in the order the usage text lists them. */
export const EVENT_COMMANDS: Readonly<Record<string, Command>> = {
  'events requeue': {
    usage: 'events requeue --org ORG_ID [--older-than MINUTES]   (pending events with no queued delivery)',
    route: 'requeueEvents',
    run: async (call, flags) => {
      const minutes = integer(flags, 'older-than', 'whole minutes (≥ 0)') ?? 15;
      const route = adminRoute('requeueEvents', org(flags));
      // Each call examines a bounded number of events; the cursor goes on where the last one stopped.
      const done = await untilDone<Step & { queued: string[] }>(
        (previous) =>
          call(...route, {
            older_than_minutes: minutes,
            ...cursorOf(previous),
          }),
        'queued',
      );
      return { queued: done.queued };
    },
  },
  'events redeliver': {
    usage: 'events redeliver --org ORG_ID --id EVENT_ID [--endpoint-id EP_ID]   (at that endpoint alone)',
    route: 'redeliverOrganizationEvent',
    run: (call, flags) => {
      const route = adminRoute('redeliverOrganizationEvent', { ...org(flags), id: required(flags, 'id') });
      return bodyOf(
        flags['endpoint-id'] === undefined
          ? call(...route)
          : call(...route, { endpoint_id: required(flags, 'endpoint-id') }),
      );
    },
  },
  'events reset': {
    usage: 'events reset --org ORG_ID',
    route: 'resetOrganizationWebhooks',
    run: async (call, flags) => {
      const route = adminRoute('resetOrganizationWebhooks', org(flags));
      // Each call queues one bounded chunk; the events it tried (queued or with no cycle left) leave the
      // status indexes, so the next call goes on with older ones.
      const done = await untilDone<Step & { queued: string[] }>(() => call(...route), 'queued');
      return { queued: done.queued };
    },
  },
  'events migrate': {
    usage:
      'events migrate --org ORG_ID   (once after upgrading: events stored before sequences into their account logs)',
    route: 'migrateEvents',
    run: async (call, flags) => {
      const route = adminRoute('migrateEvents', org(flags));
      type MigrationStep = Step & { migrated: number; pending: number };
      let pending = 0;
      const done = await untilDone<MigrationStep>(async (previous) => {
        const answer = await call(...route, cursorOf(previous));
        pending += (answer.body as MigrationStep).pending;
        return answer;
      }, 'migrated');
      return { migrated: done.migrated, pending };
    },
  },
  'events index-statuses': {
    usage:
      'events index-statuses --org ORG_ID   (once after upgrading: failed/skipped events into their indexes)',
    route: 'indexEventStatuses',
    run: async (call, flags) => {
      const route = adminRoute('indexEventStatuses', org(flags));
      const done = await untilDone<Step & { indexed: number }>(
        (previous) => call(...route, cursorOf(previous)),
        'indexed',
      );
      return { indexed: done.indexed };
    },
  },
};
