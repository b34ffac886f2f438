/**
 * A delivery world whose consumer invocation is held by a hanging receiver, for the held invocation's
 * use-case tests: the pull's dependencies on the injected clock, and the checks they share.
 */
import { expect } from 'vitest';
import { PULL_WHEN_HELD } from '#config/delivery';
import type { BatchDeps } from '#delivery/deliver-batch';
import { pullSettings } from '#delivery/held-invocation-rule';
import type { SendResult } from '#domain/ports';
import { type DeliveryWorld, deliveryWorld } from './fakes/delivery-deps';
import { answer, ok } from './fakes/webhook-sender';

/** The receiver that does not answer until a test releases it, and its account. */
export const HANGING = 'https://hanging.example.com/hook';
export const HANGING_IBAN = 'DE02120300000000202051';
/** The sender's attempt timeout in these tests. */
export const TIMEOUT_MS = 10_000;

/** A world whose second account's receiver does not answer until the test releases it. */
export function heldWorld(remainingAtStart = 120_000) {
  const w = deliveryWorld();
  w.directory.addAccount({ iban: HANGING_IBAN, webhookUrl: HANGING });
  const pending: ((result: SendResult) => void)[] = [];
  w.sender.answer = (request) =>
    request.url === HANGING ? new Promise<SendResult>((resolve) => pending.push(resolve)) : ok();
  const deadline = w.clock.now() + remainingAtStart;
  const receivedAt: number[] = [];
  const pullDeps: NonNullable<BatchDeps['pull']> = {
    queue: {
      receive: (max, waitSeconds) => {
        receivedAt.push(w.clock.now());
        return w.queue.receive(max, waitSeconds);
      },
      delete: (handles) => w.queue.delete(handles),
    },
    settings: pullSettings(PULL_WHEN_HELD, TIMEOUT_MS),
    pollMs: PULL_WHEN_HELD.pollMs,
    // Virtual time: each wait moves the clock, then lets the other promises run.
    sleep: async (ms) => {
      w.clock.advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
    remainingMs: () => deadline - w.clock.now(),
  };
  const deps: BatchDeps = { ...w.deps, pull: pullDeps };
  /** Answers every hanging request so far as timed out, after the clock reaches the timeout. */
  const timeOut = () => {
    for (const resolve of pending.splice(0)) resolve(answer(0, undefined, TIMEOUT_MS));
  };
  return { w, deps, pending, timeOut, receivedAt, deadline };
}

/** Lets the promises run until `check` holds (fails the test if it never does). */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

/** Every event's `webhook_retries` equals its recorded attempts, never beyond 20. */
export function expectInvariants(w: DeliveryWorld): void {
  for (const record of w.events.events.values()) {
    expect(record.webhookRetries).toBe(record.deliveries.length);
    expect(record.webhookRetries).toBeLessThanOrEqual(20);
  }
}

/** Whether the event was delivered. */
export const delivered = (w: DeliveryWorld, id: string) =>
  w.events.events.get(id)?.webhookStatus === 'success';
