/**
 * Publishing as deployed, in virtual time: `POST /events` runs Herald's real `recordEvent` (validation, the
 * account read, the log's tail read, the id's claim, the event's conditional put at its sequence, a ticket
 * when the log is hot), and `POST /events/batch` its `recordEvents`, in a pool
 * of Lambda environments, each with its own SDK client (its own retry quota), over the metered ports. A
 * client whose publish fails (throttled after the SDK's retries, or busy) sends the same id again after a
 * back-off, as Herald's client library advises. The table's stream feeds the forwarder (`forwarder.ts`).
 */

import { InMemoryEventTypeStore } from '#adapters/memory/event-type-store';
import type { PublishInput } from '#domain/event-input';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { type RecordEventDeps, recordEvent, settingsRetention } from '#use-cases/events/record-event';
import { recordEvents } from '#use-cases/events/record-events';
import type { Scheduler } from '../engine/scheduler';
import type { Deployment } from './deployment';

/** What publishing did. */
export interface PublishStats {
  /** Publishes asked for (each counted once, however often it was sent). */
  requested: number;
  /** Publishes that stored their event. */
  stored: number;
  /** Publishes that needed more than one send. */
  resent: number;
  /** Publishes given up after {@link PublisherOptions.attempts} sends. */
  abandoned: number;
  /** Sends that failed, by error name (`DynamoThrottlingError`, `BusyError`, …). */
  readonly failedSends: Map<string, number>;
  /** Lambda environments the API needed at its peak (one publish at a time each). */
  environments: number;
}

/** How clients publish. */
export interface PublisherOptions {
  /** Sends of one publish before the client gives up (default 5). */
  readonly attempts?: number;
  /** Back-off before the client's next send, ms, doubled per send (default 200). */
  readonly backoffMs?: number;
  /** Round trip of API Gateway and the publish Lambda beyond DynamoDB, ms (default 0). */
  readonly apiOverheadMs?: number;
  /** Waited before each send (the local comparison's shared CPU). */
  readonly beforeSend?: () => Promise<void>;
}

/** Publishes through the real use-case. */
export class Publisher {
  readonly stats: PublishStats = {
    requested: 0,
    stored: 0,
    resent: 0,
    abandoned: 0,
    failedSends: new Map(),
    environments: 0,
  };
  private readonly idle: RecordEventDeps[] = [];
  private owners = 0;

  constructor(
    private readonly engine: Scheduler,
    private readonly deployment: Deployment,
    private readonly options: PublisherOptions = {},
  ) {}

  /**
   * Publishes `input` (with its `id`, so a retry is idempotent); resolves true once stored, false when
   * the client gave up.
   */
  async publish(input: PublishInput & { readonly id: string }): Promise<boolean> {
    this.stats.requested++;
    const attempts = this.options.attempts ?? 5;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt === 1) this.stats.resent++;
      if (attempt > 0) await this.engine.sleep((this.options.backoffMs ?? 200) * 2 ** (attempt - 1));
      const deps = this.idle.pop() ?? this.newEnvironment();
      try {
        if (this.options.apiOverheadMs) await this.engine.sleep(this.options.apiOverheadMs);
        if (this.options.beforeSend) await this.options.beforeSend();
        await recordEvent(deps, input);
        this.stats.stored++;
        return true;
      } catch (error) {
        const name = error instanceof Error ? error.name : 'unknown';
        this.stats.failedSends.set(name, (this.stats.failedSends.get(name) ?? 0) + 1);
      } finally {
        this.idle.push(deps);
      }
    }
    this.stats.abandoned++;
    return false;
  }

  /**
   * Publishes `inputs` (at most a batch's 100, each with its `id`) in one `POST /events/batch` through the
   * real `recordEvents`, sending the entries refused for now (busy, throttled) again with the same ids
   * after a back-off; resolves how many were stored (a resend's duplicate answer counts as stored).
   */
  async publishBatch(inputs: readonly (PublishInput & { readonly id: string })[]): Promise<number> {
    this.stats.requested += inputs.length;
    const attempts = this.options.attempts ?? 5;
    let pending = inputs;
    let stored = 0;
    for (let attempt = 0; attempt < attempts && pending.length > 0; attempt++) {
      if (attempt === 1) this.stats.resent += pending.length;
      if (attempt > 0) await this.engine.sleep((this.options.backoffMs ?? 200) * 2 ** (attempt - 1));
      const deps = this.idle.pop() ?? this.newEnvironment();
      try {
        if (this.options.apiOverheadMs) await this.engine.sleep(this.options.apiOverheadMs);
        const results = await recordEvents(deps, pending);
        const again = pending.filter((_, k) => {
          const result = results[k];
          if (result === undefined || !('error' in result)) return false;
          const name = result.error instanceof Error ? result.error.name : 'unknown';
          this.stats.failedSends.set(name, (this.stats.failedSends.get(name) ?? 0) + 1);
          return true;
        });
        stored += pending.length - again.length;
        pending = again;
      } finally {
        this.idle.push(deps);
      }
    }
    this.stats.stored += stored;
    this.stats.abandoned += pending.length;
    return stored;
  }

  /** Module init of the publish function: its clients, and its cached retention setting. */
  private newEnvironment(): RecordEventDeps {
    this.stats.environments++;
    const ports = this.deployment.ports('api');
    return {
      events: ports.events,
      directory: ports.directory,
      baseUrl: 'https://api.herald.example',
      retentionDays: settingsRetention(ports.directory),
      // The publish function's catalog; the scenario publishes built-in types, which read nothing of it.
      catalog: createEventTypeCatalog({
        store: new InMemoryEventTypeStore(),
        now: this.engine.now,
        headTtlMs: CATALOG_HEAD_TTL_MS,
      }),
      now: () => new Date(this.engine.now()),
      sleep: (ms) => this.engine.sleep(ms),
      newOwner: () => `owner-${++this.owners}`,
    };
  }
}
