/**
 * Operational notices through deliverEvent with fakes: each transition announced once (failing,
 * recovered, disabled), also under concurrent consumers and after a crash between the health write and
 * the notice; nothing read or written for them on the healthy path.
 */
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import { FAILING_NOTICE_AFTER } from '#domain/notices/notice';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer, ok } from '../support/fakes/webhook-sender';
import { expectNoticesInCatalog } from '../support/notice-schemas';

function seed(w: DeliveryWorld, n: number): string[] {
  return Array.from({ length: n }, (_, i) => w.events.seed({ id: `e${i}` }).id);
}

/** The kinds of the notices stored, in the order they were stored. */
function kinds(w: DeliveryWorld): string[] {
  return w.notices.notices.map((n) => n.kind);
}

describe('operational notices', () => {
  it('stores nothing and writes nothing for them on a healthy endpoint’s deliveries', async () => {
    const w = deliveryWorld();
    for (const id of seed(w, 3)) expect((await deliverEvent(w.deps, { id })).kind).toBe('delivered');
    expect(w.notices.attempts).toEqual([]);
    expect(w.health.writes).toEqual([]);
  });

  it('announces failing at the 4th consecutive failure, then recovered at the first success, once each', async () => {
    const w = deliveryWorld({ failureThreshold: 10 });
    const ids = seed(w, 8);
    w.sender.answer = () => answer(503, undefined, 20);
    for (const id of ids.slice(0, FAILING_NOTICE_AFTER - 1)) await deliverEvent(w.deps, { id });
    expect(kinds(w)).toEqual([]);
    await deliverEvent(w.deps, { id: ids[3] as string });
    await deliverEvent(w.deps, { id: ids[4] as string });
    expect(kinds(w)).toEqual(['endpoint_failing']);
    const [failing] = w.notices.notices;
    expect(failing).toMatchObject({
      orgId: w.health.owners.get(w.iban),
      account: w.iban,
      consecutiveFailures: FAILING_NOTICE_AFTER,
      lastAnswer: { status: 503 },
    });
    expect(failing?.endpointId).toMatch(/^ep_/);

    w.sender.answer = () => ok();
    await deliverEvent(w.deps, { id: ids[5] as string });
    expect(kinds(w)).toEqual(['endpoint_failing', 'endpoint_recovered']);
    expect(w.health.get(w.iban).noticed).toBeUndefined();
    const writes = w.health.writes.length;
    await deliverEvent(w.deps, { id: ids[6] as string });
    await deliverEvent(w.deps, { id: ids[7] as string });
    expect(w.health.writes).toHaveLength(writes);
    expect(kinds(w)).toEqual(['endpoint_failing', 'endpoint_recovered']);
    expectNoticesInCatalog(w.notices.notices);
  });

  it('announces no recovery of a run too short to be announced failing', async () => {
    const w = deliveryWorld();
    const ids = seed(w, 3);
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: ids[0] as string });
    await deliverEvent(w.deps, { id: ids[1] as string });
    w.sender.answer = () => ok();
    await deliverEvent(w.deps, { id: ids[2] as string });
    expect(w.notices.attempts).toEqual([]);
  });

  it('announces a 410’s disabling once, with the answer, and nothing for the events skipped after it', async () => {
    const w = deliveryWorld();
    const ids = seed(w, 3);
    w.sender.answer = () => answer(410);
    await Promise.all(ids.slice(0, 2).map((id) => deliverEvent(w.deps, { id })));
    await deliverEvent(w.deps, { id: ids[2] as string });
    expect(kinds(w)).toEqual(['endpoint_disabled']);
    expect(w.notices.notices[0]).toMatchObject({
      reason: 'receiver answered 410 Gone',
      lastAnswer: { status: 410 },
    });
    expectNoticesInCatalog(w.notices.notices);
  });

  it('stores one failing notice when concurrent consumers all see the run pass the threshold', async () => {
    const w = deliveryWorld({ failureThreshold: 20 });
    const ids = seed(w, 8);
    w.sender.answer = () => answer(500);
    await Promise.all(ids.map((id) => deliverEvent(w.deps, { id })));
    expect(w.health.get(w.iban).consecutiveFailures).toBe(8);
    // Several consumers decided it (each saw a count past the threshold); one stored it.
    expect(w.notices.attempts.length).toBeGreaterThan(1);
    expect(kinds(w)).toEqual(['endpoint_failing']);
    expect(w.health.get(w.iban).noticed).toMatch(/^failing@/);
  });

  it('stores a notice a crash left unstored when the next consumer sees the endpoint', async () => {
    const w = deliveryWorld({ failureThreshold: 10 });
    const ids = seed(w, 8);
    const record = w.notices.record.bind(w.notices);
    let crash = true;
    w.notices.record = async (notice) => {
      if (crash) throw new Error('the consumer died here');
      return record(notice);
    };
    w.sender.answer = () => answer(500);
    for (const id of ids.slice(0, FAILING_NOTICE_AFTER)) await deliverEvent(w.deps, { id });
    expect(kinds(w)).toEqual([]);
    crash = false;
    const next = await deliverEvent(w.deps, { id: ids[4] as string });
    expect(next).not.toHaveProperty('noticeError');
    expect(kinds(w)).toEqual(['endpoint_failing']);

    // The recovery's notice lost the same way is stored by the next success, which writes no health.
    crash = true;
    w.sender.answer = () => ok();
    expect(await deliverEvent(w.deps, { id: ids[5] as string })).toHaveProperty('noticeError');
    crash = false;
    const writes = w.health.writes.filter((op) => op.startsWith('record')).length;
    await deliverEvent(w.deps, { id: ids[6] as string });
    expect(w.health.writes.filter((op) => op.startsWith('record'))).toHaveLength(writes);
    expect(kinds(w)).toEqual(['endpoint_failing', 'endpoint_recovered']);
    await deliverEvent(w.deps, { id: ids[7] as string });
    // One store each, nothing more once both are announced.
    expect(w.notices.attempts).toHaveLength(2);
  });

  it('stores a disabling’s notice a crash left unstored when the next message finds the endpoint disabled', async () => {
    const w = deliveryWorld();
    const ids = seed(w, 3);
    const record = w.notices.record.bind(w.notices);
    let crash = true;
    w.notices.record = async (notice) => {
      if (crash) throw new Error('the consumer died here');
      return record(notice);
    };
    w.sender.answer = () => answer(410);
    expect(await deliverEvent(w.deps, { id: ids[0] as string })).toHaveProperty('noticeError');
    crash = false;
    expect((await deliverEvent(w.deps, { id: ids[1] as string })).kind).toBe('skipped');
    expect(kinds(w)).toEqual(['endpoint_disabled']);
    expect(w.notices.notices[0]?.lastAnswer).toBeUndefined();
    await deliverEvent(w.deps, { id: ids[2] as string });
    expect(w.notices.attempts).toHaveLength(1);
  });

  it('announces nothing about an endpoint that stopped being the organization’s during the attempt', async () => {
    const w = deliveryWorld({ failureThreshold: 10 });
    const [id = ''] = seed(w, 1);
    w.directory.addAccount({
      iban: w.iban,
      webhookUrl: 'https://hooks.example.com/herald',
      endpointId: 'ep_0123456789ab',
    });
    // A run past the threshold whose notice a crash left unstored, as the batch reads it.
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: FAILING_NOTICE_AFTER,
      failingSince: '2026-11-20T10:00:00.000Z',
    });
    w.sender.answer = () => {
      w.health.owners.delete(w.iban);
      return answer(500);
    };
    await deliverEvent(w.deps, { id });
    expect(w.notices.attempts).toEqual([]);
  });
});
