/**
 * The organizations' keys in the stack's usage plan. The authorizer names the organization id as the
 * usage identifier key, and API Gateway only meters (and lets through) a request whose key is an API key
 * of the plan, so every organization needs one whose value is its id. The admin path registers it.
 *
 * Registration never reads API keys: finding an existing key by name would need `apigateway:GET` on
 * `/apikeys`, which also returns every key value in the region (`includeValues`), other applications'
 * secrets included. Instead the key is imported (`ImportApiKeys`, a POST on `/apikeys`): an import
 * creates the key or overwrites the one with the same value, and answers its id either way, so a
 * repeated registration (or one retried after a crash between its two calls) needs no lookup.
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateUsagePlanKeyCommand,
  ImportApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import type { UsageKeys } from '#domain/ports';

/**
 * What may stand in an imported key file's value and name without quoting, and API Gateway's length
 * bounds of a key value; organization ids are UUIDs.
 */
const ORG_ID_AS_KEY = /^[A-Za-z0-9-]{20,128}$/;

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
    // The id goes into a CSV file: anything but the expected characters could add rows or columns.
    if (!ORG_ID_AS_KEY.test(orgId)) throw new Error(`Not an organization id: ${JSON.stringify(orgId)}`);
    const imported = await this.client.send(
      new ImportApiKeysCommand({
        format: 'csv',
        // A warning must not undo an import that did happen; one that did not shows as a missing id.
        failOnWarnings: false,
        body: new TextEncoder().encode(`Name,Key,Enabled\nherald-org-${orgId},${orgId},true\n`),
      }),
    );
    const [keyId, ...others] = imported.ids ?? [];
    if (keyId === undefined || others.length > 0) {
      throw new Error(
        `API Gateway imported ${imported.ids?.length ?? 0} keys for organization ${orgId}, expected one` +
          (imported.warnings?.length ? `: ${imported.warnings.join('; ')}` : ''),
      );
    }
    try {
      await this.client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: 'API_KEY' }));
    } catch (error) {
      // Already in the plan: registered before.
      if (!(error instanceof ConflictException)) throw error;
    }
    return usagePlanId;
  }
}
