import { createDocumentClient } from '#adapters/aws-clients';
import { loadEnv } from '#config/env';
import { toResetView } from '#http/events/redelivery-view';
import { orgIdOf } from '#http/request';
import { json } from '#http/response';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { apiHandler } from './api-handler';
import { redeliveryDeps } from './redelivery-deps';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const deps = redeliveryDeps(createDocumentClient(), env);

/** `POST /management/webhooks/reset`: redeliver the next chunk of the organization's failed or skipped events. */
export const handler = apiHandler(async (event) =>
  json(202, toResetView(await resetWebhooks(deps, orgIdOf(event)))),
);
