import { toResetView } from '#http/events/redelivery-view';
import { orgIdOf } from '#http/request';
import { json } from '#http/response';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { apiHandler } from './api-handler';
import { redeliveryWiring } from './redelivery-deps';

const { deps } = redeliveryWiring();

/** `POST /management/webhooks/reset`: redeliver the next chunk of the organization's failed or skipped events. */
export const handler = apiHandler(async (event) =>
  json(202, toResetView(await resetWebhooks(deps, orgIdOf(event)))),
);
