/**
 * The operator CLI end to end: `bin/herald.mjs` run as a child process, exactly as `npx herald` runs it,
 * in a directory whose `.herald/local.json` points at this file's local runtime. What the CLI writes is
 * then read back through the API (every answer checked against the served OpenAPI document).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookBody } from '../../lambdas/domain/event-view';
import { signBody, webhookKey } from '../../lambdas/domain/signing';
import { writeLocalInfo } from '../../scripts/cli/target';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi } from '../support/e2e-http';
import { testEndpoints, uniquePrefix } from '../support/resources';

const ROOT = resolve(import.meta.dirname, '../..');
/** The project's Node 24, as `npx herald` would use it. */
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const HERALD = join(ROOT, 'bin', 'herald.mjs');

const GB = 'GB82WEST12345698765432';
const DE = 'DE89370400440532013000';
const UNREGISTERED = 'CH9300762011623852957';
const TRANSFER = 'credit_transfer_status_change';
const PAYLOAD = { transfer_id: 'tr_1', status: 'settled', amount: '100.00', currency: 'EUR' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^herald_[A-Za-z0-9_-]{43}$/;
const WEBHOOK_TOKEN = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** A V8 stack frame, which an error message for an operator must not carry. */
const STACK_FRAME = /^\s+at .+[:(]/m;

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface CreatedOrg {
  readonly id: string;
  readonly name: string;
  readonly webhook_token: string;
  readonly api_key: string;
}

interface AccountView {
  readonly iban: string;
  readonly webhook_url: string | null;
  readonly _links: { readonly self: string; readonly events: string };
}

interface EventDetail {
  readonly id: string;
  readonly account: string;
  readonly type: string;
  readonly triggered_at: string;
  readonly payload: unknown;
  readonly signature: string;
  readonly webhook_status: string;
}

let runtime: LocalRuntime;
let api: ApiClient;
let base: string;
let workDir: string;
let emptyDir: string;
/** The child's environment: no SDK endpoints, so only `.herald/local.json` can point it at the emulators. */
let cliEnv: NodeJS.ProcessEnv;
let createdRaw: CliResult;
let org: CreatedOrg;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('cli'),
    authorizerCacheTtlSeconds: 0,
  });
  base = runtime.baseUrl;
  workDir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
  emptyDir = mkdtempSync(join(tmpdir(), 'herald-cli-empty-'));
  // What `npm start` writes (scripts/local/main.ts).
  writeLocalInfo(workDir, runtime);
  cliEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'NODE_OPTIONS'),
  );
  api = await connectApi(base);
  createdRaw = await herald(['org', 'create', '--name', '  Acme CLI  ']);
  org = ok(createdRaw) as CreatedOrg;
});

afterAll(async () => {
  await runtime?.stop();
  for (const dir of [workDir, emptyDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI; never rejects, the exit code is part of the result. */
function herald(args: readonly string[], cwd: string = workDir): Promise<CliResult> {
  return new Promise((done) => {
    execFile(NODE, [HERALD, ...args], { cwd, env: cliEnv, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, stdout, stderr });
    });
  });
}

/** A successful run: exit 0, nothing on stderr, and stdout one JSON document. */
function ok(result: CliResult): unknown {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.endsWith('\n')).toBe(true);
  return JSON.parse(result.stdout);
}

/** A failed run: this exit code, nothing on stdout, a `herald:` message on stderr and no stack trace. */
function failed(result: CliResult, code: 1 | 2): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(STACK_FRAME);
  if (code === 2) expect(result.stderr).toContain('Usage: herald <command> [flags]');
  return result.stderr;
}

describe('org and keys', () => {
  it('org create prints id, name, webhook_token and api_key as JSON', () => {
    expect(Object.keys(org).sort()).toEqual(['api_key', 'id', 'name', 'webhook_token']);
    expect(org.id).toMatch(UUID);
    expect(org.name).toBe('Acme CLI');
    expect(org.webhook_token).toMatch(WEBHOOK_TOKEN);
    expect(Buffer.from(org.webhook_token.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(org.api_key).toMatch(API_KEY);
    // Pretty-printed JSON, so an operator can read it and a script can parse it.
    expect(createdRaw.stdout).toBe(`${JSON.stringify(org, null, 2)}\n`);
  });

  it('the printed api key works against the API, and only for its own organization', async () => {
    const events = await api.call('/events', { key: org.api_key });
    expect(events.status).toBe(200);
    expect(events.body).toEqual([]);
    expect((await api.call('/accounts', { key: org.api_key })).body).toEqual([]);
    expect((await api.call('/events', { key: `${org.api_key.slice(0, -1)}x` })).status).toBe(401);
  });

  it('refuses an empty organization name', async () => {
    expect(failed(await herald(['org', 'create', '--name', '   ']), 1)).toMatch(/name: must be 1 to 200/);
  });

  it('api-key create issues another key that works too', async () => {
    const created = ok(await herald(['api-key', 'create', '--org', org.id])) as { api_key: string };
    expect(Object.keys(created)).toEqual(['api_key']);
    expect(created.api_key).toMatch(API_KEY);
    expect(created.api_key).not.toBe(org.api_key);
    expect((await api.call('/accounts', { key: created.api_key })).status).toBe(200);
    expect((await api.call('/accounts', { key: org.api_key })).status).toBe(200);

    const [unknown, missing] = await Promise.all([
      herald(['api-key', 'create', '--org', randomUUID()]),
      herald(['api-key', 'create']),
    ]);
    expect(failed(unknown, 1)).toMatch(/no organization/);
    expect(failed(missing, 2)).toContain('--org is required');
  });

  it('org token rotate replaces the token, and new events are signed with the new one', async () => {
    const rotated = ok(await herald(['org', 'token', 'rotate', '--org', org.id])) as {
      id: string;
      webhook_token: string;
    };
    expect(Object.keys(rotated).sort()).toEqual(['id', 'webhook_token']);
    expect(rotated.id).toBe(org.id);
    expect(rotated.webhook_token).toMatch(WEBHOOK_TOKEN);
    expect(rotated.webhook_token).not.toBe(org.webhook_token);

    ok(await herald(['account', 'put', '--org', org.id, '--iban', DE]));
    const triggeredAt = '2026-05-01T10:00:00.000Z';
    const published = ok(
      await herald([
        'publish',
        '--account',
        DE,
        '--type',
        TRANSFER,
        '--payload',
        JSON.stringify(PAYLOAD),
        '--triggered-at',
        triggeredAt,
      ]),
    ) as { id: string };
    const event = (await api.call(`/events/${published.id}`, { key: org.api_key })).body as EventDetail;
    const body = webhookBody({
      id: published.id,
      type: TRANSFER,
      account: DE,
      triggeredAt,
      payloadJson: JSON.stringify(PAYLOAD),
      baseUrl: base,
    });
    expect(event.signature).toBe(signBody(webhookKey(rotated.webhook_token), body));
    expect(event.signature).not.toBe(signBody(webhookKey(org.webhook_token), body));

    expect(failed(await herald(['org', 'token', 'rotate', '--org', randomUUID()]), 1)).toMatch(
      /no organization/,
    );
  });
});

describe('accounts', () => {
  it('account put normalises a spaced, lower-case IBAN and stores the webhook URL', async () => {
    const put = ok(
      await herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        'gb82 west 1234 5698 7654 32',
        '--webhook-url',
        'http://127.0.0.1:9/hooks',
      ]),
    );
    const expected: AccountView = {
      iban: GB,
      webhook_url: 'http://127.0.0.1:9/hooks',
      _links: { self: `${base}/accounts/${GB}`, events: `${base}/events?account=${GB}` },
    };
    expect(put).toEqual(expected);
    expect((await api.call(`/accounts/${GB}`, { key: org.api_key })).body).toEqual(expected);

    // Putting it again without a URL removes the URL: its events will be `skipped`.
    const cleared = ok(await herald(['account', 'put', '--org', org.id, '--iban', GB]));
    expect(cleared).toEqual({ ...expected, webhook_url: null });
  });

  it('account put refuses a bad IBAN or webhook URL with a message and stores nothing', async () => {
    const results = await Promise.all([
      herald(['account', 'put', '--org', org.id, '--iban', 'DE89370400440532013001']),
      herald(['account', 'put', '--org', org.id, '--iban', 'not an iban']),
      herald(['account', 'put', '--org', org.id, '--iban', UNREGISTERED, '--webhook-url', '/hooks']),
      herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        UNREGISTERED,
        '--webhook-url',
        'ftp://127.0.0.1/x',
      ]),
      herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        UNREGISTERED,
        '--webhook-url',
        'http://user:secret@127.0.0.1/x',
      ]),
      herald(['account', 'put', '--org', randomUUID(), '--iban', UNREGISTERED]),
    ]);
    const messages = results.map((result) => failed(result, 1));
    expect(messages[0]).toMatch(/^herald: iban: the check digits do not match/);
    expect(messages[1]).toMatch(/^herald: iban: expected an IBAN/);
    expect(messages[2]).toMatch(/^herald: webhook_url: must be an absolute URL/);
    expect(messages[3]).toMatch(/^herald: webhook_url: must use https: or http:/);
    expect(messages[4]).toMatch(/^herald: webhook_url: must not contain credentials/);
    expect(messages[4]).not.toContain('secret');
    expect(messages[5]).toMatch(/no organization/);
    expect((await api.call(`/accounts/${UNREGISTERED}`, { key: org.api_key })).status).toBe(404);

    expect(failed(await herald(['account', 'put', '--org', org.id]), 2)).toContain('--iban is required');
  });

  it('account list prints what GET /accounts shows', async () => {
    const listed = ok(await herald(['account', 'list', '--org', org.id])) as AccountView[];
    expect(listed.map((account) => account.iban)).toEqual([DE, GB]);
    expect((await api.call('/accounts', { key: org.api_key })).body).toEqual(listed);
    expect(ok(await herald(['account', 'list', '--org', randomUUID()]))).toEqual([]);
  });
});

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
    expect(published).toEqual({ id: expect.stringMatching(UUID), created: true, webhook_status: 'skipped' });

    const response = await api.call(`/events/${published.id}`, { key: org.api_key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: published.id,
      account: GB,
      type: TRANSFER,
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
    expect(first).toEqual({ id, created: true, webhook_status: 'skipped' });
    expect(again).toEqual({ id, created: false, webhook_status: 'skipped' });
    const other = failed(await herald([...args, JSON.stringify({ ...PAYLOAD, status: 'rejected' })]), 1);
    expect(other).toMatch(/already exists with different content/);
    const stored = (await api.call(`/events/${id}`, { key: org.api_key })).body as EventDetail;
    expect(stored.payload).toEqual(PAYLOAD);
  });

  it('refuses bad input with a clear message', async () => {
    const args = ['publish', '--account', DE, '--type', TRANSFER];
    const [notJson, array, text, badType, badTime, badId, unknownAccount, missing] = await Promise.all([
      herald([...args, '--payload', '{not json']),
      herald([...args, '--payload', '[1,2]']),
      herald([...args, '--payload', '"text"']),
      herald(['publish', '--account', DE, '--type', 'Bad Type', '--payload', '{}']),
      herald([...args, '--payload', '{}', '--triggered-at', 'yesterday']),
      herald([...args, '--payload', '{}', '--id', 'not-a-uuid']),
      herald(['publish', '--account', UNREGISTERED, '--type', TRANSFER, '--payload', '{}']),
      herald(args),
    ]);
    expect(failed(notJson, 2)).toContain('--payload must be JSON');
    expect(failed(array, 1)).toMatch(/^herald: payload: expected a JSON object/);
    expect(failed(text, 1)).toMatch(/^herald: payload: expected a JSON object/);
    expect(failed(badType, 1)).toMatch(/^herald: type: expected lower-case snake_case/);
    expect(failed(badTime, 1)).toMatch(/^herald: triggeredAt: /);
    expect(failed(badId, 1)).toMatch(/^herald: id: /);
    expect(failed(unknownAccount, 1)).toMatch(/^herald: account: no account CH9300762011623852957/);
    expect(failed(missing, 2)).toContain('--payload is required');
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
