/**
 * `herald endpoint add|list|show|update|remove` end to end (issue 32): `bin/herald.mjs` as a child
 * process against this file's local runtime; what it writes is read back through the organization's API.
 */
import { describe, expect, it } from 'vitest';
import { type CliFixture, type CreatedOrg, failed, ok, startCliFixture } from '../support/cli-fixture';
import { testIban } from '../support/delivery-queue-helpers';
import type { ApiClient } from '../support/e2e-http';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let herald: CliFixture['herald'];
let org: CreatedOrg;

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, herald, org } = fixture);
  },
);

interface Shown {
  endpoint_id: string;
  default: boolean;
  url: string;
  event_types: string[] | null;
  filter: unknown;
  description: string | null;
  enabled: boolean;
}

describe('herald endpoint', () => {
  it('adds, lists, shows, changes (absent keeps, none removes) and removes an endpoint', async () => {
    const iban = testIban();
    ok(
      await herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        iban,
        '--webhook-url',
        'http://127.0.0.1:9/a',
      ]),
    );
    const added = ok(
      await herald([
        'endpoint',
        'add',
        '--iban',
        iban,
        '--url',
        'http://127.0.0.1:9/books',
        '--event-types',
        'credit_received, direct_debit_status_change',
        '--filter',
        '{"currency": ["EUR"]}',
        '--description',
        'Books',
      ]),
    ) as Shown;
    expect(added).toMatchObject({
      default: false,
      event_types: ['credit_received', 'direct_debit_status_change'],
      filter: { currency: ['EUR'] },
      description: 'Books',
    });
    const id = added.endpoint_id;
    const listed = ok(await herald(['endpoint', 'list', '--iban', iban])) as Shown[];
    expect(listed.map((endpoint) => endpoint.default)).toEqual([true, false]);

    const changed = ok(
      await herald([
        'endpoint',
        'update',
        '--iban',
        iban,
        '--endpoint-id',
        id,
        '--filter',
        'none',
        '--enabled',
        'false',
      ]),
    ) as Shown;
    expect(changed).toMatchObject({ filter: null, description: 'Books', enabled: false });
    const shown = ok(await herald(['endpoint', 'show', '--iban', iban, '--endpoint-id', id])) as Shown;
    expect(shown).toEqual(changed);
    const read = await api.call(`/accounts/${iban}/endpoints/${id}`, { key: org.api_key });
    expect(read.body).toMatchObject({ filter: null, enabled: false });

    expect(
      failed(await herald(['endpoint', 'update', '--iban', iban, '--endpoint-id', id, '--filter', '{x']), 2),
    ).toContain('--filter must be JSON');
    expect(
      failed(
        await herald([
          'endpoint',
          'add',
          '--iban',
          iban,
          '--url',
          'http://127.0.0.1:9/x',
          '--event-types',
          'nope',
        ]),
        1,
      ),
    ).toContain('event_types/0');

    expect(ok(await herald(['endpoint', 'remove', '--iban', iban, '--endpoint-id', id]))).toEqual({
      removed: id,
    });
    expect((await api.call(`/accounts/${iban}/endpoints/${id}`, { key: org.api_key })).status).toBe(404);
  });
});
