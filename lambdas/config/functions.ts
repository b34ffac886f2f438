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
  manageSettings: 'manage-settings',
  publishEvent: 'publish-event',
  administer: 'administer-herald',
  openapi: 'get-openapi',
  portal: 'get-portal',
  portalSession: 'portal-session',
  forwarder: 'forward-events',
  consumer: 'deliver-webhooks',
  reconciler: 'reconcile-dead-letters',
} as const;

/** Name of a function in {@link FUNCTIONS}. */
export type FunctionKey = keyof typeof FUNCTIONS;
