import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { loadEnv } from '#config/env';
import { NotFoundError, UnprocessableError, ValidationError } from '#domain/errors';
import { toEventDetail } from '#http/event-view';
import { baseUrlOf, json, jsonBody } from '#http/request';
import { publishEvent } from '#use-cases/publish-event';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL', 'EVENT_RETENTION_DAYS']);
const client = createDocumentClient();
const events = new DynamoEventStore(client, env.TABLE_NAME);
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
const retentionDays = env.EVENT_RETENTION_DAYS === undefined ? undefined : Number(env.EVENT_RETENTION_DAYS);

const FIELDS = ['account', 'type', 'payload', 'id', 'triggered_at'];

/**
 * `POST /events` (AWS IAM): records an event with the same rules as `createPublisher`. 201 with the
 * event when created, 200 with the stored one when the id was published with the same content, 409 for
 * the same id with other content, 422 for an unknown account, 400 for bad fields.
 */
export const handler = apiHandler(async (event) => {
  const body = jsonBody(event, FIELDS);
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  try {
    const result = await publishEvent(
      { events, directory, baseUrl, retentionDays },
      {
        account: body.account as string,
        type: body.type as string,
        payload: body.payload,
        id: body.id as string | undefined,
        triggeredAt: body.triggered_at as string | undefined,
      },
    );
    const view = toEventDetail(result.event, baseUrl);
    return json(result.created ? 201 : 200, view, { Location: view._links.self });
  } catch (error) {
    // The library's names are camelCase; the API's field is `triggered_at`.
    if (error instanceof ValidationError && error.params[0]?.name === 'triggeredAt') {
      throw new ValidationError('triggered_at', error.params[0].reason);
    }
    // The account is a field of the body, not the resource of the URL: 422, not 404.
    if (error instanceof NotFoundError) {
      throw new UnprocessableError('account', error.message.replace(/^account: /, ''));
    }
    throw error;
  }
});
