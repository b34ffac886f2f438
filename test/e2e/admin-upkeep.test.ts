/**
 * The operator's upkeep routes end to end through the local API Gateway (AWS IAM): deleting an account
 * with its events in bounded, resumable requests, registering an organization's usage key (the local
 * runtime has no plan to register with, and meters every organization itself), the one-off status-index
 * upgrade and the chunked reset. Every answer is checked against the served OpenAPI document.
 */
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/e2e-http';
import { useOperatorFixture } from '../support/operator-fixture';
import { TRANSFER, transferPayload } from '../support/payloads';

const op = useOperatorFixture();

/** An IBAN nobody registered in the fixture. */
const ES = 'ES9121000418450200051332';

describe('DELETE /admin/accounts/{iban}?erase=true', () => {
  it('deletes the account and erases its events and notices, and says how to go on', async () => {
    const org = op.fixture.orgB;
    const created = await op.admin('PUT', `/admin/accounts/${ES}`, {
      org: org.orgId,
      webhook_url: 'http://127.0.0.1:9/erased',
    });
    expect(created.status, created.text).toBe(200);
    // The operator disables its endpoint: an `endpoint_disabled` notice names the account.
    const endpointId = (created.body as { endpoint_id: string }).endpoint_id;
    const endpointPath = `/admin/accounts/${ES}/endpoints/${endpointId}`;
    const disabled = await op.admin('PUT', endpointPath, { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    const noticesOfAccount = async () => {
      const listed = await op.admin(
        'GET',
        `/admin/organizations/${org.orgId}/operational-events?per_page=100`,
      );
      expect(listed.status, listed.text).toBe(200);
      return (listed.body as unknown[]).filter((notice) => JSON.stringify(notice).includes(endpointId));
    };
    expect(await noticesOfAccount()).toEqual([expect.objectContaining({ type: 'endpoint_disabled' })]);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const published = await op.admin('POST', '/events', {
        account: ES,
        type: TRANSFER,
        payload: transferPayload({ transfer_id: `tr_erase_${i}` }),
      });
      expect(published.status, published.text).toBe(201);
      ids.push((published.body as { id: string }).id);
    }
    const erased = await op.admin('DELETE', `/admin/accounts/${ES}?erase=true`);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toEqual({
      iban: ES,
      org_id: org.orgId,
      deleted: true,
      erased_events: 2,
      erased_notices: 1,
      more: false,
    });
    for (const id of ids) expectProblem(await op.api.call(`/events/${id}`, { key: org.apiKey }), 404);
    expect(await noticesOfAccount()).toEqual([]);

    // The account is gone: going on needs its organization, and then finds nothing more.
    expectProblem(await op.admin('DELETE', `/admin/accounts/${ES}?erase=true`), 404);
    const again = await op.admin('DELETE', `/admin/accounts/${ES}?erase=true&org=${org.orgId}`);
    expect(again.body).toEqual({
      iban: ES,
      org_id: org.orgId,
      deleted: false,
      erased_events: 0,
      erased_notices: 0,
      more: false,
    });
  });

  it('names a bad parameter and leaves the account alone', async () => {
    const iban = 'NL91ABNA0417164300';
    const problems: [string, string][] = [
      ['erase=maybe', 'erase'],
      ['erase=true&bogus=1', 'bogus'],
      ['erase=true&erase=false', 'erase'],
      [`erase=true&org=${op.fixture.orgB.orgId}&cursor=not-a-cursor`, 'cursor'],
    ];
    for (const [query, name] of problems) {
      const problem = expectProblem(await op.admin('DELETE', `/admin/accounts/${iban}?${query}`), 400);
      expect(problem.invalid_params?.[0]?.name, query).toBe(name);
    }
    // Another organization named: as unknown.
    expectProblem(await op.admin('DELETE', `/admin/accounts/${iban}?org=${op.fixture.orgA.orgId}`), 404);
    expect((await op.api.call(`/accounts/${iban}`, { key: op.fixture.orgB.apiKey })).status).toBe(200);
  });
});

describe('organization upkeep', () => {
  it('registers a usage key (locally there is no plan to name) and 404s an unknown organization', async () => {
    const registered = await op.admin('POST', `/admin/organizations/${op.fixture.orgA.orgId}/usage-key`);
    expect(registered.status, registered.text).toBe(200);
    expect(registered.body).toEqual({ org_id: op.fixture.orgA.orgId, usage_plan_id: null });
    expectProblem(await op.admin('POST', '/admin/organizations/no-such-org/usage-key'), 404);
  });

  it('upgrades the status indexes in bounded steps and refuses a cursor it did not hand out', async () => {
    const step = await op.admin(
      'POST',
      `/admin/organizations/${op.fixture.orgA.orgId}/events/index-statuses`,
    );
    expect(step.status, step.text).toBe(200);
    expect(step.body).toEqual({ indexed: 0, more: false });
    const bad = await op.admin(
      'POST',
      `/admin/organizations/${op.fixture.orgA.orgId}/events/index-statuses`,
      {
        cursor: 5,
      },
    );
    expect(expectProblem(bad, 400).invalid_params?.[0]?.name).toBe('cursor');
  });

  it('resets in chunks, answering what it queued and whether more remain', async () => {
    const reset = await op.admin('POST', `/admin/organizations/${op.fixture.orgB.orgId}/webhooks/reset`);
    expect(reset.status, reset.text).toBe(202);
    expect(reset.body).toEqual({ queued: [], more: false });
  });
});
