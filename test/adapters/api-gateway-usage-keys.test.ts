/**
 * Registering an organization's key in the usage plan against a fake API Gateway control plane that
 * allows only what the admin function's role allows (POST on `/apikeys`, POST on the plan's keys) and
 * behaves as API Gateway documents: a key is identified by its value, an import overwrites it.
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateUsagePlanKeyCommand,
  ImportApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import { describe, expect, it } from 'vitest';
import { ApiGatewayUsageKeys } from '#adapters/apigateway/usage-keys';

const PLAN = 'plan123';
const ORG = '0b7c6a52-3f1e-4d7a-9a59-6d1f1c2b8e11';

/** API Gateway as far as registration goes; every other command is refused as IAM would refuse it. */
function fakeApiGateway(options: { warnings?: string[]; dropImports?: boolean } = {}) {
  const keys = new Map<string, { id: string; name: string; enabled: boolean }>();
  const planKeys = new Set<string>();
  const sent: string[] = [];
  let failPlanKeyOnce: Error | undefined;
  const send = async (command: unknown) => {
    sent.push((command as object).constructor.name);
    if (command instanceof ImportApiKeysCommand) {
      expect(command.input.format).toBe('csv');
      const [header, ...rows] = new TextDecoder()
        .decode(command.input.body as Uint8Array)
        .trim()
        .split('\n');
      expect(header).toBe('Name,Key,Enabled');
      if (options.dropImports) return { ids: [], warnings: options.warnings };
      const ids = rows.map((row) => {
        const [name = '', value = '', enabled] = row.split(',');
        const id = keys.get(value)?.id ?? `key-${keys.size + 1}`;
        keys.set(value, { id, name, enabled: enabled === 'true' });
        return id;
      });
      return { ids, warnings: options.warnings };
    }
    if (command instanceof CreateUsagePlanKeyCommand) {
      const { usagePlanId, keyId, keyType } = command.input;
      expect([usagePlanId, keyType]).toEqual([PLAN, 'API_KEY']);
      if (failPlanKeyOnce) {
        const error = failPlanKeyOnce;
        failPlanKeyOnce = undefined;
        throw error;
      }
      if (planKeys.has(keyId ?? '')) {
        throw new ConflictException({ message: 'Usage Plan Key already exists', $metadata: {} });
      }
      planKeys.add(keyId ?? '');
      return {};
    }
    throw new Error(`AccessDeniedException: not allowed to send ${sent.at(-1)}`);
  };
  return {
    client: { send } as unknown as APIGatewayClient,
    keys,
    planKeys,
    sent,
    failNextPlanKey: (error: Error) => {
      failPlanKeyOnce = error;
    },
  };
}

const registrar = (client: APIGatewayClient) => new ApiGatewayUsageKeys(client, async () => PLAN);

describe('ApiGatewayUsageKeys', () => {
  it('creates the key (value = organization id) and adds it to the plan, reading no key', async () => {
    const api = fakeApiGateway();
    expect(await registrar(api.client).register(ORG)).toBe(PLAN);
    expect(api.keys.get(ORG)).toEqual({ id: 'key-1', name: `herald-org-${ORG}`, enabled: true });
    expect([...api.planKeys]).toEqual(['key-1']);
    expect(api.sent).toEqual(['ImportApiKeysCommand', 'CreateUsagePlanKeyCommand']);
  });

  it('is idempotent: a repeated registration finds the same key without listing keys', async () => {
    const api = fakeApiGateway();
    await registrar(api.client).register(ORG);
    expect(await registrar(api.client).register(ORG)).toBe(PLAN);
    expect(api.keys.size).toBe(1);
    expect([...api.planKeys]).toEqual(['key-1']);
    expect(api.sent.filter((name) => !/^(Import|CreateUsagePlanKey)/.test(name))).toEqual([]);
  });

  it('completes a registration that stopped after creating the key, before adding it to the plan', async () => {
    const api = fakeApiGateway();
    api.failNextPlanKey(new Error('TooManyRequestsException'));
    await expect(registrar(api.client).register(ORG)).rejects.toThrow('TooManyRequestsException');
    expect(api.keys.has(ORG)).toBe(true);
    expect(api.planKeys.size).toBe(0);
    expect(await registrar(api.client).register(ORG)).toBe(PLAN);
    expect([...api.planKeys]).toEqual(['key-1']);
  });

  it('registers nothing where there is no plan (the local runtime)', async () => {
    const api = fakeApiGateway();
    const withoutPlan = new ApiGatewayUsageKeys(api.client, async () => undefined);
    expect(await withoutPlan.register(ORG)).toBeUndefined();
    expect(api.sent).toEqual([]);
  });

  it('puts nothing but an organization id into the imported file', async () => {
    const api = fakeApiGateway();
    for (const bad of [`${ORG}\nevil,key-of-someone-else-00000,true`, `${ORG},false`, 'short']) {
      await expect(registrar(api.client).register(bad)).rejects.toThrow(/Not an organization id/);
    }
    expect(api.sent).toEqual([]);
  });

  it('fails with API Gateway’s warnings when the import created no key', async () => {
    const api = fakeApiGateway({ dropImports: true, warnings: ['Invalid key value at line 2'] });
    await expect(registrar(api.client).register(ORG)).rejects.toThrow(
      /imported 0 keys for organization .*: Invalid key value at line 2/,
    );
    expect(api.planKeys.size).toBe(0);
  });
});
