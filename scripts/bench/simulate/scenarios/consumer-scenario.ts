/**
 * What a consumer scenario (`consumer.ts`) is made of: its events, accounts and their endpoints and
 * receivers, the event source's and the forwarder's settings, and when the run ends; and the names its
 * accounts, endpoints and events take (the other scenarios and the agreement check name them the same).
 */
import { ibanWithCheckDigits } from '#domain/iban';
import type { Latency } from '../engine/random';
import type { Receiver } from '../receivers/receivers';
import type { DeploymentOptions } from './deployment';
import type { LocalStreamPoll } from './forwarder';
import type { PublisherOptions } from './publisher';
import type { ShareOverTime } from './shared-cpu';

/** A scenario. */
export interface ConsumerScenario extends DeploymentOptions {
  readonly seed?: number;
  readonly events: number;
  /** Accounts, each with its own endpoint; events go round-robin over them unless `accountOf` says. */
  readonly accounts: number;
  /** The account index of the `i`-th event (default `i % accounts`). */
  readonly accountOf?: (eventIndex: number) => number;
  readonly accountsPerOrganization?: number;
  /** The receiver behind endpoint `index` (default: a fast one for every endpoint). */
  readonly receiver?: (index: number) => Receiver;
  /**
   * Extra endpoints of every account (default none), subscribed to every event, so each event fans out
   * to all of the account's endpoints. Extra endpoint `j` of account `i` is endpoint
   * `accounts + i × extraEndpoints + j`, with its own URL and receiver.
   */
  readonly extraEndpoints?: number;
  /**
   * The endpoint (webhook URL and its receiver) of account `index` (default `index`: every account its
   * own). Accounts that share one keep their own endpoint health, as Herald keys it by account.
   */
  readonly endpointOf?: (accountIndex: number) => number;
  /**
   * Concurrent batches the event source starts with (default Lambda's 5): a mapping that earlier traffic
   * already scaled up. It still scales down when receives come back empty.
   */
  readonly startConcurrency?: number;
  /** The event source's maximum concurrency (the stack's `consumerMaxConcurrency`, default 20). */
  readonly maximumConcurrency?: number;
  /** Publishes are spread evenly over this long (default 1 s). */
  readonly publishOverMs?: number;
  readonly publisher?: PublisherOptions;
  /** Shards of the table's stream (default 4). */
  readonly streamShards?: number;
  /** The forwarder's batching window, ms (default the stack's). */
  readonly forwarderWindowMs?: number;
  /** For the comparison with the local runtime: the stream read by its local link's polls instead. */
  readonly forwarderPoll?: LocalStreamPoll;
  readonly coldStart?: Latency;
  /** Poller overhead before each invocation (default the event source model's). */
  readonly invokeOverhead?: Latency;
  /**
   * For the comparison with the local runtime only: one CPU for every function, `msPerEvent` of CPU per
   * event (half spent by its publish, half by its delivery, **assumption**) at `share` of a core.
   */
  readonly localCpu?: { readonly msPerEvent: number; readonly share: number | ShareOverTime };
  /**
   * Whether an invocation held by slow attempts pulls more messages itself, as the deployed consumer does
   * (`deliver-webhooks.ts`; default true). False shows the consumer before that change.
   */
  readonly pullWhenHeld?: boolean;
  /**
   * When the run ends: once every event settled and the queue is empty (default), or once every event of
   * the accounts this selects was delivered (what is still pending elsewhere is reported as such).
   */
  readonly stopAtDeliveryOf?: (accountIndex: number) => boolean;
  /**
   * With `stopAtDeliveryOf`, the endpoints whose delivery it waits for, by endpoint index (default:
   * the first 2xx of each event at any endpoint).
   */
  readonly awaitEndpoint?: (endpointIndex: number) => boolean;
  /** Safety stop in virtual time (default 10 days). */
  readonly maxVirtualMs?: number;
}

/** The valid German IBAN of scenario account `index` (IBANs sort by index). */
export function scenarioIban(index: number): string {
  return ibanWithCheckDigits('DE', `37040044${String(index).padStart(10, '0')}`);
}

/** The webhook URL of scenario endpoint `index` (each endpoint its own receiver). */
export function scenarioEndpointUrl(index: number): string {
  return `https://receiver-${index}.example.com/herald`;
}

/** The id of scenario endpoint `index`, in the API's form (`ep_` and 12 hex digits). */
export function scenarioEndpointId(index: number): string {
  return `ep_${index.toString(16).padStart(12, '0')}`;
}

/** The `i`-th event's id: a canonical UUID v4, unique per index. */
export function scenarioEventId(i: number): string {
  return `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}
