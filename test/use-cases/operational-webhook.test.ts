/**
 * The organization's operational webhook (issue 33) with fakes: absent keeps, null removes, a URL is
 * checked as an endpoint's (named `url`, with the URL policy's own reasons) and a refused one changes
 * nothing; the body is closed; a `read` key reads it, masked, and cannot change it.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { API_ROUTES } from '#config/routes';
import { NotFoundError, ValidationError } from '#domain/errors';
import type { ApiKey, Organization } from '#domain/model';
import { noticeId } from '#domain/notices/notice';
import { checkWebhookUrl } from '#domain/webhook-url';
import { keyPolicy } from '#http/authorizer-policy';
import { parseOperationalWebhook } from '#http/organizations/operational-webhook-request';
import { toOperationalWebhookView } from '#http/organizations/operational-webhook-view';
import { listAnyOperationalEvents } from '#use-cases/organizations/operational-events';
import {
  type OperationalWebhookDeps,
  setOperationalWebhook,
  showOperationalWebhook,
} from '#use-cases/organizations/operational-webhook';
import { apiEvent } from '../support/api-event';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

const ORG: Organization = {
  id: 'org-1',
  name: 'Org',
  webhookToken: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  signatureSchemes: ['v1'],
  createdAt: '2026-11-01T00:00:00.000Z',
};
const ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/GET/accounts';

function setup(checkHost?: (url: URL) => Promise<void>) {
  const directory = new InMemoryDirectoryStore();
  directory.organizations.set(ORG.id, ORG);
  const deps: OperationalWebhookDeps = { directory, checks: { policy: 'public-https', checkHost } };
  const stored = () => directory.organizations.get(ORG.id)?.opsWebhookUrl;
  return { directory, deps, stored };
}

/** The refusal a call ends with (a failed test when it succeeds). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error,
  );
}

describe('the operational webhook setting', () => {
  it('sets a URL (as parsed), keeps it when the write leaves url out, removes it with null', async () => {
    const { deps, stored, directory } = setup();
    expect(await showOperationalWebhook(directory, ORG.id)).toEqual({ url: undefined });
    const set = await setOperationalWebhook(deps, ORG.id, { url: 'https://Ops.Example.com/herald?k=1' });
    expect(set).toEqual({ url: 'https://ops.example.com/herald?k=1' });
    expect(stored()).toBe('https://ops.example.com/herald?k=1');
    // Nothing else of the organization changes.
    expect(directory.organizations.get(ORG.id)).toMatchObject({ ...ORG, opsWebhookUrl: set.url });

    expect(await setOperationalWebhook(deps, ORG.id, {})).toEqual(set);
    expect(stored()).toBe(set.url);
    expect(await showOperationalWebhook(directory, ORG.id)).toEqual(set);

    expect(await setOperationalWebhook(deps, ORG.id, { url: null })).toEqual({ url: undefined });
    expect(stored()).toBeUndefined();
    expect(await showOperationalWebhook(directory, ORG.id)).toEqual({ url: undefined });
  });

  it('refuses a URL the policy or the host check refuses, naming url with the policy’s reason, and keeps the stored one', async () => {
    let resolved = 0;
    const { deps, stored } = setup(async (url) => {
      resolved += 1;
      if (url.hostname === 'internal.example.com') {
        throw new ValidationError('webhook_url', 'host internal.example.com resolves to 10.0.0.7');
      }
    });
    await setOperationalWebhook(deps, ORG.id, { url: 'https://ops.example.com/herald' });
    for (const url of [
      'http://ops.example.com/herald',
      'https://10.0.0.1/herald',
      'https://u:p@ops.example.com/',
    ]) {
      const error = await refusal(setOperationalWebhook(deps, ORG.id, { url }));
      // The wording of every webhook URL's refusal, under the name this body gives the field.
      const expected = await refusal(Promise.resolve().then(() => checkWebhookUrl(url, 'public-https')));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).params).toEqual(
        (expected as ValidationError).params.map((param) => ({ ...param, name: 'url' })),
      );
    }
    const unsafe = await refusal(
      setOperationalWebhook(deps, ORG.id, { url: 'https://internal.example.com/' }),
    );
    expect((unsafe as ValidationError).params).toEqual([
      { name: 'url', reason: 'host internal.example.com resolves to 10.0.0.7' },
    ]);
    expect(resolved).toBe(2);
    expect(stored()).toBe('https://ops.example.com/herald');
  });

  it('answers 404 for an unknown organization, to a read and to a write', async () => {
    const { deps, directory } = setup();
    expect(await refusal(showOperationalWebhook(directory, 'org-x'))).toBeInstanceOf(NotFoundError);
    const write = await refusal(setOperationalWebhook(deps, 'org-x', { url: 'https://ops.example.com/' }));
    expect(write).toBeInstanceOf(NotFoundError);
    expect(directory.organizations.has('org-x')).toBe(false);
  });

  it('reads a closed body: absent url keeps, null removes, another field or a non-URL is refused by name', () => {
    expect(parseOperationalWebhook(apiEvent({ body: {} }))).toEqual({});
    expect(parseOperationalWebhook(apiEvent({ body: { url: null } }))).toEqual({ url: null });
    expect(parseOperationalWebhook(apiEvent({ body: { url: 'https://ops.example.com/' } }))).toEqual({
      url: 'https://ops.example.com/',
    });
    const names = (body: unknown) => {
      try {
        parseOperationalWebhook(apiEvent({ body }));
      } catch (error) {
        if (error instanceof ValidationError) return error.params.map((param) => param.name);
        throw error;
      }
      return [];
    };
    expect(names({ url: 'https://ops.example.com/', webhook_url: 'https://x.example.com/' })).toEqual([
      'webhook_url',
    ]);
    expect(names({ url: '' })).toEqual(['url']);
    expect(names({ url: 42 })).toEqual(['url']);
  });

  it('lets a read key read the setting, its query values masked, and never change it', () => {
    const key: ApiKey = { id: 'k', orgId: ORG.id, name: 'n', scope: 'read', createdAt: '' };
    const allowed = (scope: ApiKey['scope']) =>
      (keyPolicy({ ...key, scope }, ARN).policyDocument.Statement[0] as { Resource: string[] }).Resource;
    const route = (method: string) =>
      `arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/${method}/operational-webhook`;
    expect(allowed('read')).toContain(route('GET'));
    expect(allowed('read')).not.toContain(route('PUT'));
    expect(allowed('manage')).toEqual(expect.arrayContaining([route('GET'), route('PUT')]));
    expect(API_ROUTES.find((r) => r.method === 'PUT' && r.path === '/operational-webhook')?.scope).toBe(
      'manage',
    );

    const setting = { url: 'https://ops.example.com/herald?token=abc&v=2' };
    expect(toOperationalWebhookView(setting, { fullUrl: false })).toEqual({
      url: 'https://ops.example.com/herald?token=***&v=***',
    });
    expect(toOperationalWebhookView(setting, { fullUrl: true })).toEqual(setting);
    expect(toOperationalWebhookView({ url: undefined }, { fullUrl: false })).toEqual({ url: null });
  });
});

describe('the operator’s operational events', () => {
  it('reads an existing organization’s notices only, and answers 404 for an unknown one', async () => {
    const { directory } = setup();
    const log = new InMemoryOperationalLog();
    for (const orgId of [ORG.id, 'org-x']) {
      const key = {
        kind: 'endpoint_failing' as const,
        orgId,
        endpointId: 'ep_0123456789ab',
        epoch: '2026-11-20T10:00:00.000Z',
      };
      await log.record({
        ...key,
        id: noticeId(key),
        account: 'DE89370400440532013000',
        at: key.epoch,
        consecutiveFailures: 4,
      });
    }
    const page = await listAnyOperationalEvents({ directory, log }, ORG.id, { page: 1, perPage: 10 });
    expect(page.notices.map((notice) => notice.orgId)).toEqual([ORG.id]);
    const unknown = await refusal(
      listAnyOperationalEvents({ directory, log }, 'org-x', { page: 1, perPage: 10 }),
    );
    expect(unknown).toBeInstanceOf(NotFoundError);
  });
});
