import { HERALD_VERSION } from '#config/version';
import type { HEALTH } from '#http/openapi/document';
import { json } from '#http/response';
import type { Static } from '#http/schema';
import { apiHandler } from './api-handler';

/** `GET /health`: unauthenticated liveness answer; touches no data store. */
export const handler = apiHandler(async () =>
  json(200, { status: 'ok', version: HERALD_VERSION } satisfies Static<typeof HEALTH>),
);
