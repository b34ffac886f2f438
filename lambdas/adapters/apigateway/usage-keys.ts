/**
 * The organizations' keys in the stack's usage plan. The authorizer names the organization id as the
 * usage identifier key, and API Gateway only meters (and lets through) a request whose key is an API key
 * of the plan, so every organization needs one whose value is its id. The admin path registers it.
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import type { UsageKeys } from '#domain/ports';

/** {@link UsageKeys} in an API Gateway usage plan. */
export class ApiGatewayUsageKeys implements UsageKeys {
  /**
   * @param usagePlanId - reads the plan's id (the stack writes it into the settings item: an environment
   *   variable would make the function depend on the plan, which depends on the API, which depends on the
   *   function); undefined where there is none (the local runtime meters every organization by itself)
   */
  constructor(
    private readonly client: APIGatewayClient,
    private readonly usagePlanId: () => Promise<string | undefined>,
  ) {}

  async register(orgId: string): Promise<string | undefined> {
    const usagePlanId = await this.usagePlanId();
    if (usagePlanId === undefined) return undefined;
    const name = `herald-org-${orgId}`;
    let keyId: string | undefined;
    try {
      keyId = (await this.client.send(new CreateApiKeyCommand({ name, value: orgId, enabled: true }))).id;
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      // Registered before (a repeated command): find it by its name.
      const found = await this.client.send(new GetApiKeysCommand({ nameQuery: name, limit: 5 }));
      keyId = found.items?.find((key) => key.name === name)?.id;
    }
    if (!keyId) throw new Error(`API Gateway returned no API key for organization ${orgId}`);
    try {
      await this.client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: 'API_KEY' }));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
    return usagePlanId;
  }
}
