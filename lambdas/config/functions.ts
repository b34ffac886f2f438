/** Lambda functions of the stack; each has `lambdas/handlers/<entry>.ts` exporting `handler`. */
export const FUNCTIONS = {
  authorizer: 'authorize-request',
  health: 'get-health',
  listEvents: 'list-events',
  getEvent: 'get-event',
  redeliverEvent: 'redeliver-event',
  resetWebhooks: 'reset-webhooks',
  listAccounts: 'list-accounts',
  getAccount: 'get-account',
  getDeliveryStats: 'get-delivery-stats',
  enableEndpoint: 'enable-endpoint',
  sendTestEvent: 'send-test-event',
  manageSettings: 'manage-settings',
  publishEvent: 'publish-event',
  administer: 'administer-herald',
  openapi: 'get-openapi',
  portal: 'get-portal',
  portalSession: 'portal-session',
  eventTypes: 'get-event-types',
  forwarder: 'forward-events',
  consumer: 'deliver-webhooks',
  reconciler: 'reconcile-dead-letters',
  noticeSummary: 'summarise-notices',
} as const;

/** Name of a function in {@link FUNCTIONS}. */
export type FunctionKey = keyof typeof FUNCTIONS;

/**
 * The construct id of a function in the stack (`<Stack>/<id>/Function`): what the synthesized template's
 * `aws:cdk:path` metadata names, so the local runtime can find each function's bundle in a cloud assembly.
 */
export function functionConstructId(key: FunctionKey): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}
