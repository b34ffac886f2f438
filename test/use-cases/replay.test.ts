/**
 * Replaying an account with the in-memory fakes: its events after a sequence start new cycles whatever
 * their status, pending ones are left, used-up ones reported, chunks answer `more`, and an ordered
 * account's watermark goes back below the first.
 */
import { describe, expect, it } from 'vitest';
import { LOG_READ_MAX_BODY_BYTES, REPLAY_CHUNK } from '#config/limits';
import { NotFoundError } from '#domain/errors';
import type { DeliveryAttempt } from '#domain/model';
import { replayAccount, replayAnyAccount } from '#use-cases/events/replay';
import { FakeDeliveryQueue } from '../support/fakes/delivery-queue';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventStore } from '../support/fakes/event-store';

const IBAN = 'DE89370400440532013000';
const delivered: DeliveryAttempt = {
  deliveredAt: '2026-11-20T09:00:01.000Z',
  responseStatus: 200,
  responseBody: '',
  responseTimeMs: 5,
};

function world(ordered = false) {
  const events = new InMemoryEventStore();
  const queue = new FakeDeliveryQueue();
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization();
  directory.addAccount({
    iban: IBAN,
    webhookUrl: 'https://hooks.example.com/in',
    ...(ordered ? { deliveryOrder: 'ordered' as const, settledThrough: 5 } : {}),
  });
  return { events, queue, directory, deps: { events, queue, directory } };
}

describe('replayAccount', () => {
  it('starts new cycles for the events after the sequence whatever their status, leaving pending ones', async () => {
    const { events, queue, deps } = world();
    events.seed({ id: 'e1', account: IBAN, sequence: 1, webhookStatus: 'success', webhookRetries: 1 });
    events.seed({ id: 'e2', account: IBAN, sequence: 2, webhookStatus: 'success', webhookRetries: 1 });
    events.seed({ id: 'e3', account: IBAN, sequence: 3, webhookStatus: 'failed', webhookRetries: 20 });
    events.seed({ id: 'e4', account: IBAN, sequence: 4 });
    events.seed({ id: 'e5', account: IBAN, sequence: 5, webhookStatus: 'skipped' });
    events.seed({
      id: 'e6',
      account: IBAN,
      sequence: 6,
      webhookStatus: 'failed',
      webhookRetries: 60,
      cycleBase: 40,
      cycles: 3,
    });
    const result = await replayAccount(deps, 'org-1', IBAN, 1);
    expect(result).toEqual({ queued: ['e2', 'e3', 'e5'], usedUp: ['e6'], more: false, nextAfterSequence: 6 });
    expect(queue.sent.map((m) => m.id)).toEqual(['e2', 'e3', 'e5']);
    expect(events.events.get('e2')).toMatchObject({
      webhookStatus: 'pending',
      cycleBase: 1,
      webhookRetries: 1,
    });
    expect(events.events.get('e1')?.webhookStatus).toBe('success');
    expect(events.events.get('e4')?.webhookStatus).toBe('pending');
    // The messages say where the events are: the consumer reads them without their claims.
    expect(JSON.parse(queue.bodies[0] ?? '{}')).toEqual({ id: 'e2', log: `org-1|${IBAN}`, seq: 2 });
  });

  it('sends delivered events in two more cycles and then lists them in used_up, sending nothing', async () => {
    const { events, queue, deps } = world();
    const seeded = [1, 2].map((n) =>
      events.seed({ id: `e${n}`, account: IBAN, sequence: n, webhookStatus: 'success', webhookRetries: 1 }),
    );
    for (let cycle = 2; cycle <= 3; cycle++) {
      const replayed = await replayAccount(deps, 'org-1', IBAN, 0);
      expect(replayed).toEqual({ queued: ['e1', 'e2'], usedUp: [], more: false, nextAfterSequence: 2 });
      for (const event of seeded) {
        expect(events.events.get(event.id)).toMatchObject({ webhookStatus: 'pending', cycles: cycle });
        await events.recordAttempt(event, delivered, 'success');
      }
    }
    const refused = await replayAccount(deps, 'org-1', IBAN, 0);
    expect(refused).toEqual({ queued: [], usedUp: ['e1', 'e2'], more: false, nextAfterSequence: 2 });
    expect(queue.sent).toHaveLength(4);
    expect(events.events.get('e1')).toMatchObject({ webhookStatus: 'success', webhookRetries: 3 });
  });

  it('answers more in bounded chunks, going on from the last sequence examined', async () => {
    const { events, deps } = world();
    for (let n = 1; n <= REPLAY_CHUNK + 5; n++) {
      events.seed({ id: `e${n}`, account: IBAN, sequence: n, webhookStatus: 'success', webhookRetries: 1 });
    }
    const first = await replayAccount(deps, 'org-1', IBAN, 0);
    expect(first).toMatchObject({ more: true, nextAfterSequence: REPLAY_CHUNK });
    expect(first.queued).toHaveLength(REPLAY_CHUNK);
    const second = await replayAccount(deps, 'org-1', IBAN, first.nextAfterSequence);
    expect(second).toMatchObject({ more: false, nextAfterSequence: REPLAY_CHUNK + 5 });
    expect(second.queued).toHaveLength(5);
  });

  it('ends a chunk early when the bodies of its events would pass the byte budget', async () => {
    const { events, queue, deps } = world();
    const body = `{"payload":"${'x'.repeat(LOG_READ_MAX_BODY_BYTES / 2)}"}`;
    for (let n = 1; n <= 3; n++) {
      events.seed({
        id: `e${n}`,
        account: IBAN,
        sequence: n,
        webhookStatus: 'success',
        webhookRetries: 1,
        body,
      });
    }
    const first = await replayAccount(deps, 'org-1', IBAN, 0);
    expect(first).toEqual({ queued: ['e1'], usedUp: [], more: true, nextAfterSequence: 1 });
    const rest = [];
    for (let after = 1, more = true; more; ) {
      const next = await replayAccount(deps, 'org-1', IBAN, after);
      rest.push(...next.queued);
      ({ more, nextAfterSequence: after } = next);
    }
    expect(rest).toEqual(['e2', 'e3']);
    expect(queue.sent.map((m) => m.id)).toEqual(['e1', 'e2', 'e3']);
  });

  it("puts an ordered account's watermark back below the first replayed event", async () => {
    const { events, directory, deps } = world(true);
    for (let n = 1; n <= 5; n++) {
      events.seed({ id: `e${n}`, account: IBAN, sequence: n, webhookStatus: 'success', webhookRetries: 1 });
    }
    await replayAccount(deps, 'org-1', IBAN, 2);
    expect(directory.accounts.get(IBAN)?.settledThrough).toBe(2);
  });

  it("answers 404 for another organization's account; the operator's route finds the owner", async () => {
    const { events, deps } = world();
    events.seed({ id: 'e1', account: IBAN, sequence: 1, webhookStatus: 'success', webhookRetries: 1 });
    await expect(replayAccount(deps, 'org-2', IBAN, 0)).rejects.toThrow(NotFoundError);
    expect((await replayAnyAccount(deps, IBAN, 0)).queued).toEqual(['e1']);
  });
});
