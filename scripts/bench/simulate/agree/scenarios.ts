/**
 * The two scenarios the model and the local runtime both run, and how close their figures must be. Both
 * use the same accounts: 20 fast ones and, for every 21st event, account 0, whose receiver hangs.
 */

/** Fast accounts; account 0 (every 21st event) hangs. */
export const FAST_ACCOUNTS = 20;
export const ACCOUNTS = FAST_ACCOUNTS + 1;

/** Whether the `index`-th account's latencies count (every account but the hanging one). */
export const isFast = (accountIndex: number): boolean => accountIndex !== 0;

/** How a scenario publishes. */
export type PublishPlan =
  /** Groups of `concurrency` publishes, each group awaited before the next (as fast as the runtime takes them). */
  | { readonly kind: 'groups'; readonly concurrency: number }
  /** One publish every `1000 / perSecond` ms, open loop (none waits for another). */
  | { readonly kind: 'rate'; readonly perSecond: number };

/** The figures compared, from either side. */
export interface AgreementFigures {
  /** First publish → last fast event delivered. */
  readonly drainMs: number;
  readonly fastP50Ms: number;
  readonly fastP90Ms: number;
  readonly fastP99Ms: number;
  readonly delivered: number;
}

/** A scenario both run. */
export interface AgreementScenario {
  readonly name: 'saturated' | 'paced';
  readonly events: number;
  readonly publish: PublishPlan;
}

/**
 * 2,000 fast events and 100 hanging ones, published 20 at a time: the local runtime is CPU-bound, so its
 * figures are mostly the wait in its backlog. Compared: drain time (fast p50 printed).
 */
export const SATURATED: AgreementScenario = {
  name: 'saturated',
  events: 2_100,
  publish: { kind: 'groups', concurrency: 20 },
};

/**
 * 300 fast events and 15 hanging ones at 5 events/s, well below the runtime's capacity (the saturated
 * runs deliver several times as many a second, even on a loaded machine): both measure the pipeline's
 * latency. Compared: fast p50 and p90.
 */
export const PACED: AgreementScenario = {
  name: 'paced',
  events: 315,
  publish: { kind: 'rate', perSecond: 5 },
};

export const SCENARIOS = { saturated: SATURATED, paced: PACED } as const;

/**
 * How close the two must be, relative to the local figure. Saturated scenario (2,100 events published 20
 * at a time, the local runtime CPU-bound): drain time within 25 %. Its fast p50 is printed, not judged:
 * it is the wait in the local backlog, which forms in the delivery queue behind a client that publishes
 * 20 at a time and waits, while the model publishes on the local run's average pace and queues work at
 * one averaged CPU (docs/simulation.md). Paced scenario (published at a fixed rate well below the
 * runtime's capacity, so both measure pipeline latency): fast p50 within 35 % and fast p90 within 50 %,
 * fixed here, and committed, before the paced scenario first ran; none is to be widened after results.
 */
export const TOLERANCE = {
  saturated: { drain: 0.25 },
  paced: { p50: 0.35, p90: 0.5 },
} as const;
