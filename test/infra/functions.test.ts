import { Match } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { actionsOf, allows, synth } from './fixture';

const byDefault = synth();
const configured = synth({
  retrySchedule: [
    5, 10, 20, 40, 60, 120, 300, 600, 900, 1800, 3600, 3600, 7200, 7200, 14400, 14400, 28800, 28800, 43200,
  ],
  webhookUrlPolicy: 'allow-private',
  acceptUnknownEventTypes: true,
  endpointHealth: { concurrency: 4, autoDisableAfterSeconds: 86_400 },
  eventRetentionDays: 90,
  logLevel: 'DEBUG',
  logRetention: RetentionDays.ONE_YEAR,
  customDomain: {
    domainName: 'events.example.com',
    certificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/x',
  },
});
const KEYS = Object.keys(FUNCTIONS) as FunctionKey[];

const { stack } = byDefault;
const tableId = byDefault.logicalId(stack.table);
const queueId = byDefault.logicalId(stack.queues.queue);
const dlqId = byDefault.logicalId(stack.queues.deadLetterQueue);
/** Functions that only read (`listEvents` also closes missing sequences of logs: asserted on its own). */
const READERS: FunctionKey[] = [
  'authorizer',
  'getEvent',
  'listAccounts',
  'getAccount',
  'getDeliveryStats',
  'eventTypes',
];
const API_FUNCTIONS: FunctionKey[] = [
  'health',
  'openapi',
  'listEvents',
  'getEvent',
  'redeliverEvent',
  'resetWebhooks',
  'listAccounts',
  'getAccount',
  'getDeliveryStats',
  'enableEndpoint',
  'sendTestEvent',
  'portal',
  'portalSession',
  'eventTypes',
  'manageSettings',
  'publishEvent',
  'administer',
];
/** The portal's sign-in functions: they create and delete credential items, and nothing else. */

describe('every function', () => {
  it.each(KEYS)('%s runs Node 24 on arm64 with JSON logs into its own log group', (key) => {
    const { Properties: p } = byDefault.fn(key);
    expect(p).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      LoggingConfig: {
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
        LogGroup: { Ref: expect.stringMatching(/Logs/) },
      },
    });
    expect(p.Description).toEqual(expect.any(String));
    expect(byDefault.env(key)).toMatchObject({
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'herald',
      POWERTOOLS_METRICS_NAMESPACE: 'Herald',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
  });

  it('log groups keep logs three months by default', () => {
    byDefault.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('roles use no managed policy and write only to their own log group', () => {
    byDefault.template.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
    for (const key of KEYS) {
      const logGroup = (byDefault.fn(key).Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup
        .Ref;
      const logs = byDefault.statements(key).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logs).toHaveLength(1);
      expect(JSON.stringify(logs[0]?.Resource)).toContain(`"${logGroup}"`);
    }
  });

  it('the log level and retention follow the props', () => {
    expect(configured.fn('consumer').Properties.LoggingConfig).toMatchObject({
      ApplicationLogLevel: 'DEBUG',
    });
    expect(configured.env('consumer').POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
    configured.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 365 });
  });
});

describe('data rights', () => {
  it('readers read the table and their indexes, and can neither write nor touch a queue; the feed writes only voids', () => {
    for (const key of READERS) {
      const statements = byDefault.statements(key);
      for (const action of [
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:Scan',
      ]) {
        expect(allows(statements, action), `${key} ${action}`).toBe(false);
      }
      expect(JSON.stringify(statements)).not.toMatch(/sqs:/);
      expect(byDefault.env(key)).toMatchObject({ TABLE_NAME: { Ref: tableId } });
      expect(byDefault.env(key).QUEUE_URL).toBeUndefined();
    }
    expect(JSON.stringify(byDefault.statements('listEvents'))).toContain('/index/by-org');
    // The feed's function writes only voids into account logs (a missing sequence closed): no put, no
    // delete, no queue (`test/infra/table-rights.test.ts` holds its UpdateItem to `LOG#` items).
    const feed = byDefault.statements('listEvents');
    for (const action of [
      'dynamodb:PutItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:Scan',
    ]) {
      expect(allows(feed, action), `listEvents ${action}`).toBe(false);
    }
    expect(JSON.stringify(feed)).not.toMatch(/sqs:/);
    expect(JSON.stringify(byDefault.statements('listAccounts'))).toContain('/index/by-org');
  });

  it('health, openapi and the portal page reach no data at all', () => {
    for (const key of ['health', 'openapi', 'portal'] as const) {
      expect(byDefault.statements(key).every((s) => actionsOf(s).every((a) => a.startsWith('logs:')))).toBe(
        true,
      );
      expect(byDefault.env(key).TABLE_NAME).toBeUndefined();
      expect(byDefault.env(key).QUEUE_URL).toBeUndefined();
    }
  });

  it('redeliver, reset and enable update the table and send to the delivery queue', () => {
    for (const key of ['redeliverEvent', 'resetWebhooks', 'enableEndpoint'] as const) {
      const statements = byDefault.statements(key);
      expect(allows(statements, 'dynamodb:UpdateItem', tableId)).toBe(true);
      expect(allows(statements, 'sqs:SendMessage', queueId)).toBe(true);
      expect(allows(statements, 'sqs:ReceiveMessage')).toBe(false);
      expect(byDefault.env(key)).toMatchObject({ TABLE_NAME: { Ref: tableId }, QUEUE_URL: { Ref: queueId } });
    }
  });

  it('the forwarder sends to the delivery queue and reads only the stream', () => {
    const statements = byDefault.statements('forwarder');
    expect(allows(statements, 'sqs:SendMessage', queueId)).toBe(true);
    expect(allows(statements, 'dynamodb:GetRecords', tableId)).toBe(true);
    expect(allows(statements, 'dynamodb:GetItem')).toBe(false);
    expect(allows(statements, 'dynamodb:PutItem')).toBe(false);
    expect(byDefault.env('forwarder')).toMatchObject({ QUEUE_URL: { Ref: queueId } });
  });

  it('the consumer updates the table, consumes and sends to the delivery queue, nothing on the DLQ', () => {
    const statements = byDefault.statements('consumer');
    expect(allows(statements, 'dynamodb:UpdateItem', tableId)).toBe(true);
    // It replaces a long-deferred message by a fresh one (SendMessage) before the redrive limit.
    expect(allows(statements, 'sqs:SendMessage', queueId)).toBe(true);
    expect(allows(statements, 'sqs:ChangeMessageVisibility', queueId)).toBe(true);
    expect(allows(statements, 'sqs:DeleteMessage', queueId)).toBe(true);
    // A held invocation pulls more messages itself (ReceiveMessage) and deletes the done ones.
    expect(allows(statements, 'sqs:ReceiveMessage', queueId)).toBe(true);
    expect(JSON.stringify(statements)).not.toContain(`"${dlqId}"`);
    expect(byDefault.env('consumer')).toMatchObject({
      TABLE_NAME: { Ref: tableId },
      QUEUE_URL: { Ref: queueId },
    });
  });

  it('the test event sender reads and writes its counter, opens keys, and reaches no queue', () => {
    const statements = byDefault.statements('sendTestEvent');
    const actions = statements.flatMap(actionsOf).sort();
    // Its table rights (the item kinds: table-rights.test.ts; Query: an account's extra endpoints), its
    // log group, the secrets key's Decrypt.
    expect(actions.filter((action) => !action.startsWith('logs:'))).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'kms:Decrypt',
    ]);
    expect(JSON.stringify(statements)).not.toContain(`"${queueId}"`);
    expect(JSON.stringify(statements)).not.toContain(`"${dlqId}"`);
    expect(Object.keys(byDefault.env('sendTestEvent')).sort()).toEqual(
      expect.arrayContaining(['SECRETS_KEY_ARN', 'TABLE_NAME', 'WEBHOOK_URL_POLICY']),
    );
    expect(byDefault.env('sendTestEvent').QUEUE_URL).toBeUndefined();
  });

  it('only the consumer may change message visibility on the delivery queue', () => {
    const allowed = KEYS.filter((key) =>
      allows(byDefault.statements(key), 'sqs:ChangeMessageVisibility', queueId),
    );
    expect(allowed).toEqual(['consumer']);
  });

  it('the reconciler consumes the DLQ, sends to the delivery queue and updates the table', () => {
    const statements = byDefault.statements('reconciler');
    expect(allows(statements, 'sqs:ReceiveMessage', dlqId)).toBe(true);
    expect(allows(statements, 'sqs:DeleteMessage', dlqId)).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueId)).toBe(true);
    expect(allows(statements, 'sqs:ReceiveMessage', queueId)).toBe(false);
    expect(allows(statements, 'dynamodb:UpdateItem', tableId)).toBe(true);
  });

  it('only the reconciler reaches the DLQ, only the forwarder mapping the failure queue', () => {
    const failuresId = byDefault.logicalId(stack.queues.forwarderFailures);
    const touching = (id: string) =>
      KEYS.filter((key) => JSON.stringify(byDefault.statements(key)).includes(`"${id}"`));
    expect(touching(dlqId)).toEqual(['reconciler']);
    // The stream mapping's on-failure destination is written with the forwarder's role.
    expect(touching(failuresId)).toEqual(['forwarder']);
    expect(allows(byDefault.statements('forwarder'), 'sqs:ReceiveMessage', failuresId)).toBe(false);
  });
});

describe('environment from props', () => {
  it('RETRY_SCHEDULE is set for the consumer only, and only when a schedule is given', () => {
    const expected = '5,10,20,40,60,120,300,600,900,1800,3600,3600,7200,7200,14400,14400,28800,28800,43200';
    expect(configured.env('consumer').RETRY_SCHEDULE).toBe(expected);
    expect(KEYS.filter((key) => configured.env(key).RETRY_SCHEDULE)).toEqual(['consumer']);
    expect(KEYS.filter((key) => byDefault.env(key).RETRY_SCHEDULE)).toEqual([]);
  });

  it('ENDPOINT_HEALTH reaches the consumer only when given, and a bad setting fails the synth', () => {
    expect(JSON.parse(configured.env('consumer').ENDPOINT_HEALTH ?? '')).toEqual({
      concurrency: 4,
      autoDisableAfterSeconds: 86_400,
    });
    expect(KEYS.filter((key) => configured.env(key).ENDPOINT_HEALTH)).toEqual(['consumer']);
    expect(KEYS.filter((key) => byDefault.env(key).ENDPOINT_HEALTH)).toEqual([]);
    expect(() => synth({ endpointHealth: { concurrency: 0 } })).toThrow(/concurrency must be an integer/);
  });

  it('WEBHOOK_URL_POLICY is public-https by default and reaches the webhook senders and the functions saving URLs', () => {
    expect(byDefault.env('consumer').WEBHOOK_URL_POLICY).toBe('public-https');
    expect(configured.env('consumer').WEBHOOK_URL_POLICY).toBe('allow-private');
    expect(configured.env('sendTestEvent').WEBHOOK_URL_POLICY).toBe('allow-private');
    expect(configured.env('administer').WEBHOOK_URL_POLICY).toBe('allow-private');
    expect(KEYS.filter((key) => byDefault.env(key).WEBHOOK_URL_POLICY)).toEqual([
      'sendTestEvent',
      'manageSettings',
      'administer',
      'consumer',
    ]);
  });

  it('ACCEPT_UNKNOWN_EVENT_TYPES is off by default, and the transition turns it on for the publish function only', () => {
    expect(KEYS.filter((key) => byDefault.env(key).ACCEPT_UNKNOWN_EVENT_TYPES !== undefined)).toEqual([]);
    expect(KEYS.filter((key) => configured.env(key).ACCEPT_UNKNOWN_EVENT_TYPES !== undefined)).toEqual([
      'publishEvent',
    ]);
    expect(configured.env('publishEvent').ACCEPT_UNKNOWN_EVENT_TYPES).toBe('true');
  });

  it('retention is written into the table for every publisher, not a function variable', () => {
    configured.template.hasOutput('EventRetentionDays', { Value: '90' });
    expect(byDefault.template.findOutputs('EventRetentionDays')).toEqual({});
    expect(KEYS.filter((key) => configured.env(key).EVENT_RETENTION_DAYS)).toEqual([]);
    // The settings item, put at every deployment (with the retention, or without it to switch it off).
    const writes = (synthesized: typeof configured) =>
      JSON.stringify(synthesized.template.findResources('Custom::AWS'));
    expect(writes(configured)).toMatch(/putItem.*SETTINGS.*event_retention_days.*\\"N\\":\\"90\\"/);
    expect(writes(byDefault)).toMatch(/putItem.*SETTINGS/);
    expect(writes(byDefault)).not.toContain('event_retention_days');
  });

  it('PUBLIC_BASE_URL is the custom domain, for the API functions and the consumer (a notice links to the API)', () => {
    expect(
      KEYS.filter((key) => configured.env(key).PUBLIC_BASE_URL === 'https://events.example.com'),
    ).toEqual(KEYS.filter((key) => API_FUNCTIONS.includes(key) || key === 'consumer'));
    // Without one, the API functions read it from the request; the consumer, which serves none, gets the
    // stage's URL.
    expect(KEYS.filter((key) => byDefault.env(key).PUBLIC_BASE_URL)).toEqual(['consumer']);
  });
});
