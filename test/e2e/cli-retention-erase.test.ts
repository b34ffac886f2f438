/**
 * Retention applies to every event however it is published (the CLI and the library pass no number:
 * both read the deployment's setting), and `herald account delete --erase` removes an account with
 * every event recorded for it, leaving the organization's other accounts alone; the upkeep commands call
 * their admin routes.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createPublisher } from '#lambdas/publisher';
import {
  type CliFixture,
  type CreatedOrg,
  DE,
  failed,
  GB,
  ok,
  PAYLOAD,
  startCliFixture,
  TRANSFER,
} from '../support/cli-fixture';
import type { ApiClient } from '../support/e2e-http';
import { useFixture } from '../support/use-fixture';

const RETENTION_DAYS = 30;
let api: ApiClient;
let herald: CliFixture['herald'];
let org: CreatedOrg;
let runtime: CliFixture['runtime'];
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));

useFixture(
  () => startCliFixture({ accounts: [DE, GB], eventRetentionDays: RETENTION_DAYS }),
  (fixture) => {
    ({ api, herald, org, runtime } = fixture);
  },
);

afterAll(() => {
  documents.destroy();
});

async function expiresAt(id: string): Promise<unknown> {
  const out = await documents.send(
    new GetCommand({ TableName: runtime.tableName, Key: { pk: `EVENT#${id}`, sk: 'EVENT' } }),
  );
  return out.Item?.expires_at;
}

async function publishWithCli(account: string): Promise<string> {
  const published = ok(
    await herald(['publish', '--account', account, '--type', TRANSFER, '--payload', JSON.stringify(PAYLOAD)]),
  ) as { id: string };
  return published.id;
}

describe('event retention', () => {
  it('stamps expires_at on events published by the CLI and by the library, neither passing a number', async () => {
    const expected = Math.floor(Date.now() / 1000) + RETENTION_DAYS * 86_400;
    const fromCli = await publishWithCli(DE);
    const publish = createPublisher({
      tableName: runtime.tableName,
      baseUrl: runtime.baseUrl,
      client: documents,
    });
    const fromLibrary = (await publish({ account: GB, type: TRANSFER, payload: PAYLOAD })).id;
    for (const id of [fromCli, fromLibrary]) {
      const stamped = await expiresAt(id);
      expect(typeof stamped, id).toBe('number');
      expect(Math.abs((stamped as number) - expected), id).toBeLessThan(120);
    }
  });
});

describe('herald account delete --erase', () => {
  it('deletes the account and every event of it, and nothing of the other accounts', async () => {
    const doomed = [await publishWithCli(DE), await publishWithCli(DE)];
    const kept = await publishWithCli(GB);
    const result = ok(await herald(['account', 'delete', '--org', org.id, '--iban', DE, '--erase'])) as {
      iban: string;
      deleted: boolean;
      erased_events: number;
    };
    expect(result).toMatchObject({ iban: DE, deleted: true });
    // Two here plus the one of the retention test.
    expect(result.erased_events).toBe(3);
    for (const id of doomed) {
      expect((await api.call(`/events/${id}`, { key: org.api_key })).status).toBe(404);
      expect(await expiresAt(id)).toBeUndefined();
    }
    expect((await api.call(`/events/${kept}`, { key: org.api_key })).status).toBe(200);
    const accounts = ok(await herald(['account', 'list', '--org', org.id])) as { iban: string }[];
    expect(accounts.map((account) => account.iban)).toEqual([GB]);
    const refused = await herald([
      'publish',
      '--account',
      DE,
      '--type',
      TRANSFER,
      '--payload',
      JSON.stringify(PAYLOAD),
    ]);
    expect(failed(refused, 1)).toMatch(/no account/);
  });

  it('refuses an account of no organization without --erase, and repeating an erase is harmless', async () => {
    expect(failed(await herald(['account', 'delete', '--org', org.id, '--iban', DE]), 1)).toMatch(
      /No account/,
    );
    const again = ok(await herald(['account', 'delete', '--org', org.id, '--iban', DE, '--erase']));
    expect(again).toEqual({ iban: DE, deleted: false, erased_events: 0, erased_notices: 0 });
  });
});

describe('herald upkeep commands (admin routes)', () => {
  it('org usage-key and events index-statuses call their routes and print what was done', async () => {
    // The local runtime has no usage plan to name: it meters every organization by itself.
    expect(ok(await herald(['org', 'usage-key', '--org', org.id]))).toEqual({
      org_id: org.id,
      usage_plan_id: null,
    });
    expect(ok(await herald(['events', 'index-statuses', '--org', org.id]))).toEqual({ indexed: 0 });
    expect(failed(await herald(['org', 'usage-key', '--org', 'no-such-org']), 1)).toMatch(/no organization/);
  });
});
