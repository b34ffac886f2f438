/**
 * The operator CLI end to end, events and usage: `publish`, `events requeue`, and how the CLI reports a
 * usage error or a missing local runtime. `bin/herald.mjs` runs as a child process, exactly as
 * `npx herald` runs it, against this file's local runtime (see `test/support/cli-fixture.ts`), whose
 * organization already has the accounts DE and GB without webhook URLs; events are read back through the
 * API. Organizations, keys and accounts are in `cli-admin.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CliFixture,
  type CreatedOrg,
  DE,
  type EventDetail,
  failed,
  GB,
  ok,
  PAYLOAD,
  startCliFixture,
  TRANSFER,
  UNREGISTERED,
  UUID,
} from '../support/cli-fixture';
import type { ApiClient } from '../support/e2e-http';
import { useFixture } from '../support/use-fixture';
import { waitFor } from '../support/wait';

let api: ApiClient;
let herald: CliFixture['herald'];
let emptyDir: string;
let org: CreatedOrg;

// Publishing needs registered accounts: DE and GB without webhook URLs, as the administration tests
// (`cli-admin.test.ts`) leave them.
useFixture(
  () => startCliFixture({ accounts: [DE, GB] }),
  (fixture) => {
    ({ api, herald, emptyDir, org } = fixture);
  },
);

describe('publish', () => {
  it('prints the new id, and the event is readable through the API', async () => {
    const published = ok(
      await herald([
        'publish',
        '--account',
        'gb82 west 1234 5698 7654 32',
        '--type',
        TRANSFER,
        '--payload',
        JSON.stringify(PAYLOAD),
      ]),
    ) as { id: string; created: boolean; webhook_status: string };
    expect(published).toEqual({
      id: expect.stringMatching(UUID),
      created: true,
      webhook_status: 'skipped',
      type_version: 1,
    });

    const response = await api.call(`/events/${published.id}`, { key: org.api_key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: published.id,
      account: GB,
      type: TRANSFER,
      type_version: 1,
      payload: PAYLOAD,
      webhook_status: 'skipped',
      webhook_retries: 0,
      webhook_deliveries: [],
    });
    const list = await api.call(`/events?account=${GB}`, { key: org.api_key });
    expect(list.status, list.text).toBe(200);
    expect((list.body as { id: string }[] | undefined)?.map((event) => event.id)).toEqual([published.id]);
  });

  it('is idempotent with --id, and refuses the same id with other content', async () => {
    const id = randomUUID();
    const args = ['publish', '--account', DE, '--type', TRANSFER, '--id', id, '--payload'];
    const first = ok(await herald([...args, JSON.stringify(PAYLOAD)]));
    const again = ok(await herald([...args, JSON.stringify(PAYLOAD)]));
    expect(first).toEqual({ id, created: true, webhook_status: 'skipped', type_version: 1 });
    expect(again).toEqual({ id, created: false, webhook_status: 'skipped', type_version: 1 });
    const other = failed(await herald([...args, JSON.stringify({ ...PAYLOAD, amount: '99.00' })]), 1);
    expect(other).toMatch(/already exists with different content/);
    const stored = (await api.call(`/events/${id}`, { key: org.api_key })).body as EventDetail;
    expect(stored.payload).toEqual(PAYLOAD);
  });

  it('refuses bad input with a clear message', async () => {
    const args = ['publish', '--account', DE, '--type', TRANSFER];
    const valid = JSON.stringify(PAYLOAD);
    const { amount: _, ...withoutAmount } = PAYLOAD;
    const [
      notJson,
      array,
      text,
      badType,
      badTime,
      badId,
      unknownAccount,
      missing,
      invalid,
      unknownType,
      version,
    ] = await Promise.all([
      herald([...args, '--payload', '{not json']),
      herald([...args, '--payload', '[1,2]']),
      herald([...args, '--payload', '"text"']),
      herald(['publish', '--account', DE, '--type', 'Bad Type', '--payload', valid]),
      herald([...args, '--payload', valid, '--triggered-at', 'yesterday']),
      herald([...args, '--payload', valid, '--id', 'not-a-uuid']),
      herald(['publish', '--account', UNREGISTERED, '--type', TRANSFER, '--payload', valid]),
      herald(args),
      herald([...args, '--payload', JSON.stringify(withoutAmount)]),
      herald(['publish', '--account', DE, '--type', 'order.paid', '--payload', valid]),
      herald([...args, '--payload', valid, '--type-version', '2']),
    ]);
    expect(failed(notJson, 2)).toContain('--payload must be JSON');
    expect(failed(array, 1)).toMatch(/^herald: payload: expected a JSON object/);
    expect(failed(text, 1)).toMatch(/^herald: payload: expected a JSON object/);
    expect(failed(badType, 1)).toMatch(/^herald: type: expected lower-case snake_case/);
    expect(failed(badTime, 2)).toContain('--triggered-at must be "YYYY-MM-DD HH:MM:SS" (UTC).');
    expect(failed(badId, 1)).toMatch(/^herald: id: /);
    expect(failed(unknownAccount, 1)).toMatch(/^herald: account: no account CH9300762011623852957/);
    expect(failed(missing, 2)).toContain('--payload is required');
    // The catalog's refusals: each violation by its pointer, the known types, the versions there are.
    expect(failed(invalid, 1)).toMatch(
      /^herald: payload does not pass credit_transfer_status_change version 1: 1 problem at payload\/amount \(payload\/amount: /,
    );
    expect(failed(unknownType, 1)).toMatch(
      /^herald: type: order\.paid is not an event type of the catalog; the known types are credit_received, /,
    );
    expect(failed(version, 1)).toMatch(
      /^herald: version: credit_transfer_status_change has no version 2; it has version 1/,
    );
  });
});

describe('events requeue', () => {
  it('prints what it queued, and refuses a malformed --older-than', async () => {
    const ok = await herald(['events', 'requeue', '--org', org.id, '--older-than', '0']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ queued: expect.any(Array) });
    const bad = await herald(['events', 'requeue', '--org', org.id, '--older-than', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than');
  });
});

describe('events redeliver and reset, account delete', () => {
  it('starts new cycles of skipped events, and deletes an account', async () => {
    const published = ok(
      await herald(['publish', '--account', GB, '--type', TRANSFER, '--payload', JSON.stringify(PAYLOAD)]),
    ) as { id: string };
    const skipped = async () =>
      ((await api.call(`/events/${published.id}`, { key: org.api_key })).body as EventDetail).webhook_status;
    await waitFor(async () => (await skipped()) === 'skipped');
    expect(ok(await herald(['events', 'redeliver', '--org', org.id, '--id', published.id]))).toEqual({
      queued: [published.id],
    });
    await waitFor(async () => (await skipped()) === 'skipped');
    const reset = ok(await herald(['events', 'reset', '--org', org.id])) as { queued: string[] };
    expect(reset.queued).toContain(published.id);
    expect(failed(await herald(['events', 'redeliver', '--org', org.id, '--id', 'nope']), 1)).toMatch(/id/);
    // A replay after sequence 0 sends the account's settled events again, chunk by chunk until done.
    await waitFor(async () => (await skipped()) === 'skipped');
    const replayed = ok(await herald(['account', 'replay', '--iban', GB, '--after-sequence', '0'])) as {
      queued: string[];
    };
    expect(replayed.queued).toContain(published.id);
    expect(failed(await herald(['account', 'replay', '--iban', GB]), 2)).toMatch(/--after-sequence/);
    // The upgrade to account logs finds nothing to move in a new deployment.
    expect(ok(await herald(['events', 'migrate', '--org', org.id]))).toEqual({ migrated: 0, pending: 0 });

    const spare = 'NO9386011117947';
    ok(await herald(['account', 'put', '--org', org.id, '--iban', spare]));
    expect(ok(await herald(['account', 'delete', '--iban', spare]))).toEqual({ deleted: spare });
    expect(failed(await herald(['account', 'delete', '--iban', spare]), 1)).toMatch(/No account/);
  });

  it('only calls the API: no CLI module imports a database or queue client', () => {
    const dir = join(import.meta.dirname, '../../scripts/cli');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/#adapters\/|#use-cases\/|@aws-sdk\/(client|lib)-/);
    }
  });
});

describe('usage', () => {
  it('prints the usage on stderr with exit code 2 for a missing or unknown command or flag', async () => {
    const [none, unknown, partial, missingName] = await Promise.all([
      herald([]),
      herald(['frobnicate']),
      herald(['org']),
      herald(['org', 'create']),
    ]);
    failed(none, 2);
    expect(failed(unknown, 2)).toContain('herald: Unknown command "frobnicate".');
    expect(failed(partial, 2)).toContain('Unknown command "org"');
    expect(failed(missingName, 2)).toContain('--name is required');
  });

  it('treats an unknown flag or a flag without its value as a usage error too', async () => {
    const [unknownFlag, noValue] = await Promise.all([
      herald(['org', 'create', '--name', 'X', '--bogus', 'y']),
      herald(['org', 'create', '--name']),
    ]);
    expect(failed(unknownFlag, 2)).toContain('--bogus');
    expect(failed(noValue, 2)).toContain('--name');
  });

  it('says how to start the local runtime when there is none', async () => {
    const message = failed(await herald(['account', 'list', '--org', org.id], emptyDir), 1);
    expect(message).toContain('.herald/local.json');
    expect(message).toContain('npm start');
  });
});
