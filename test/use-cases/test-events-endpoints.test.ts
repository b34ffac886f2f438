/**
 * A test event to one of an account's endpoints (issue 32), with fakes: `endpoint_id` names the endpoint
 * the example goes to (its URL, as a delivery to it would); absent, the account's default endpoint; an id
 * the account has no endpoint of is not found, and nothing is sent or counted.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { sendTestEvent, type TestEventDeps } from '#delivery/test-event';
import { NotFoundError } from '#domain/errors';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { fakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeTestEventAllowance } from '../support/fakes/test-event-allowance';
import { FakeWebhookSender } from '../support/fakes/webhook-sender';

const IBAN = 'DE89370400440532013000';

async function world() {
  const clock = fakeClock();
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization('org-1');
  directory.addAccount({
    iban: IBAN,
    webhookUrl: 'https://orders.example.com/h',
    endpointId: 'ep_00000000000d',
  });
  const endpoints = new InMemoryEndpointStore(directory);
  await endpoints.addEndpoint({
    iban: IBAN,
    orgId: 'org-1',
    id: 'ep_0000000000a1',
    url: 'https://books.example.com/h',
    createdAt: '2026-11-27T09:00:00.000Z',
  });
  const sender = new FakeWebhookSender(() => ({ status: 202, body: 'accepted', elapsedMs: 5 }));
  const allowance = new FakeTestEventAllowance();
  const deps: TestEventDeps = {
    directory,
    endpointStore: endpoints,
    sender,
    urlPolicy: 'public-https',
    allowance,
    catalog: createEventTypeCatalog({ store: new InMemoryEventTypeStore(), now: clock.now }),
    now: clock.now,
  };
  return { deps, sender, allowance };
}

const request = { orgId: 'org-1', iban: IBAN, type: 'credit_received', baseUrl: 'https://api.example.test' };

describe('a test event to one of the account’s endpoints', () => {
  it('goes to the endpoint named, or to the default one', async () => {
    const w = await world();
    await sendTestEvent(w.deps, { ...request, endpointId: 'ep_0000000000a1' });
    await sendTestEvent(w.deps, request);
    await sendTestEvent(w.deps, { ...request, endpointId: 'ep_00000000000d' });
    expect(w.sender.requests.map((sent) => sent.url)).toEqual([
      'https://books.example.com/h',
      'https://orders.example.com/h',
      'https://orders.example.com/h',
    ]);
  });

  it('is not found for an id the account has no endpoint of: nothing sent, nothing counted', async () => {
    const w = await world();
    await expect(sendTestEvent(w.deps, { ...request, endpointId: 'ep_0000000000ff' })).rejects.toThrow(
      NotFoundError,
    );
    expect(w.sender.requests).toHaveLength(0);
    expect(w.allowance.writes).toBe(0);
  });
});
