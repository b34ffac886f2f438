/**
 * The local runtime's URL policy (`local`) through the emulated API Gateway: loopback receivers are
 * allowed (they are how the local runtime is tried), but no key, not even the operator's, can point a
 * webhook at a link-local address such as the instance metadata service, whose answer would then be
 * readable as the attempt's response body.
 */
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/e2e-http';
import { DE, FR } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';

const op = useOperatorFixture();

const METADATA_URLS = [
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[fe80::1]/hooks',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
];

describe('webhook URLs under the local policy', () => {
  it.each(METADATA_URLS)('a manage key cannot point its account at %s', async (url) => {
    const key = op.fixture.orgA.apiKey;
    const before = (await op.api.call(`/accounts/${FR}`, { key })).body as { webhook_url: string };
    const refused = expectProblem(
      await op.api.call(`/accounts/${FR}`, { method: 'PUT', key, body: { webhook_url: url } }),
      400,
    );
    expect(refused.invalid_params).toEqual([
      {
        name: 'webhook_url',
        reason: expect.stringMatching(/is a link-local address, which URL policy local does not allow$/),
      },
    ]);
    const after = (await op.api.call(`/accounts/${FR}`, { key })).body as { webhook_url: string };
    expect(after.webhook_url).toBe(before.webhook_url);
  });

  it('the operator cannot either', async () => {
    const refused = expectProblem(
      await op.admin('PUT', `/admin/accounts/${DE}`, {
        org: op.fixture.orgA.orgId,
        webhook_url: 'http://169.254.169.254/latest/meta-data/',
      }),
      400,
    );
    expect(refused.invalid_params?.[0]?.reason).toMatch(/link-local/);
  });

  it('a loopback receiver stays allowed', async () => {
    const url = `${op.fixture.receiverUrl}/ok`;
    const set = await op.api.call(`/accounts/${DE}`, {
      method: 'PUT',
      key: op.fixture.orgA.apiKey,
      body: { webhook_url: url },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ iban: DE, webhook_url: url });
  });
});
