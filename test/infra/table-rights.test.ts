/**
 * Each function's item-level rights on the events table (`FUNCTION_ACCESS` in lib/bindings.ts): item
 * actions per item kind under `dynamodb:LeadingKeys`, Query on named indexes only, key grants only
 * through the service, and the admin function's usage-plan rights.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { FUNCTION_ACCESS } from '#lib/function-access';
import { actionsOf, allows, type Json, synth } from './fixture';

const byDefault = synth();
const customerManaged = synth({ encryption: { kind: 'customer-managed' } });
const KEYS = Object.keys(FUNCTIONS) as FunctionKey[];

type LeadingKeysCondition = {
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': string[] };
  Null: { 'dynamodb:LeadingKeys': 'false' };
};
const leadingKeys = (prefixes: string[]): LeadingKeysCondition => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes },
  Null: { 'dynamodb:LeadingKeys': 'false' },
});
/** The function's statements with item actions on the table (not Query, not the stream). */
const tableStatements = (key: FunctionKey) =>
  byDefault
    .statements(key)
    .filter((s) =>
      actionsOf(s).some((a) =>
        [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:UpdateItem',
          'dynamodb:PutItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
        ].includes(a),
      ),
    );

describe('table rights', () => {
  it('functions that read one item get GetItem only, on their item kinds', () => {
    const expected: [FunctionKey, string[]][] = [
      ['authorizer', ['APIKEY#*']],
      // The catalog: the operators' event types (names, heads, versions) and nothing else.
      ['eventTypes', ['EVENT_TYPES*']],
    ];
    for (const [key, prefixes] of expected) {
      const table = tableStatements(key);
      expect(table.map(actionsOf), key).toEqual([['dynamodb:GetItem']]);
      expect(table[0]?.Condition, key).toEqual(leadingKeys(prefixes));
    }
    // An account (its extra endpoints: one Query of their own partition, asserted with the queries).
    const account = tableStatements('getAccount');
    expect(account.map(actionsOf), 'getAccount').toEqual([['dynamodb:GetItem']]);
    expect(account[0]?.Condition, 'getAccount').toEqual(leadingKeys(['ACCOUNT#*']));
  });

  it('the single event view reads its event, its account and, in one batch, its deliveries only', () => {
    const statements = tableStatements('getEvent');
    expect(statements.map(actionsOf)).toEqual([['dynamodb:GetItem'], ['dynamodb:BatchGetItem']]);
    expect(statements[0]?.Condition).toEqual(leadingKeys(['EVENT#*', 'LOG#*', 'ACCOUNT#*']));
    expect(statements[1]?.Condition).toEqual(leadingKeys(['DLV#*']));
  });

  it('each function reaches only the item kinds it uses; API readers cannot read ORG# items', () => {
    const prefixes = (key: FunctionKey, action?: string) =>
      tableStatements(key)
        .filter((s) => action === undefined || actionsOf(s).includes(action))
        .flatMap(
          (s) =>
            (s.Condition as LeadingKeysCondition | undefined)?.['ForAllValues:StringLike'][
              'dynamodb:LeadingKeys'
            ] ?? [],
        );
    expect([...new Set(prefixes('listEvents'))]).toEqual(['EVENT#*', 'LOG#*', 'ACCOUNT#*']);
    // The feed writes nothing but voids in account logs; its account reads are for `seq_floor`.
    expect(prefixes('listEvents', 'dynamodb:UpdateItem')).toEqual(['LOG#*']);
    expect(prefixes('listEvents', 'dynamodb:GetItem')).toEqual(['ACCOUNT#*', 'LOG#*']);
    expect(prefixes('listAccounts')).toEqual(['ACCOUNT#*']);
    // …and an endpoint's payload key, when its account says it has one.
    expect(prefixes('consumer', 'dynamodb:GetItem')).toEqual([
      'EVENT#*',
      'LOG#*',
      'ACCOUNT#*',
      'ORG#*',
      'ENDPOINT#*',
      'DLV#*',
      'OPS#*',
    ]);
    // The consumer records attempts and its endpoints' health and slots (on the account item, an extra
    // endpoint's on its own), a fanned-out event's deliveries (one item per routed endpoint), and creates
    // operational notices.
    expect(prefixes('consumer', 'dynamodb:UpdateItem')).toEqual([
      'EVENT#*',
      'LOG#*',
      'ACCOUNT#*',
      'EP#*',
      'DLV#*',
      'OPS#*',
    ]);
    // Only the consumer, the reconciler (an event's attempts exhausted) and the enablings (the
    // organization's, the account route's, the operator's) write operational notices, with UpdateItem
    // only: never PutItem or DeleteItem; only the operator's erasure of an account deletes them (its
    // notices, BatchWriteItem).
    const noticeWriters = KEYS.filter((key) => prefixes(key, 'dynamodb:UpdateItem').includes('OPS#*'));
    expect(noticeWriters).toEqual([
      'enableEndpoint',
      'manageSettings',
      'administer',
      'consumer',
      'reconciler',
    ]);
    for (const key of noticeWriters) expect(prefixes(key, 'dynamodb:UpdateItem'), key).toContain('OPS#*');
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem'])
      expect(
        KEYS.filter((key) => prefixes(key, action).includes('OPS#*')),
        action,
      ).toEqual([]);
    expect(KEYS.filter((key) => prefixes(key, 'dynamodb:BatchWriteItem').includes('OPS#*'))).toEqual([
      'administer',
    ]);
    // Besides, only the platform team's summary reads notices item by item (the ones it shows, in one
    // batch); it writes nothing but its cursor, which nothing else reaches.
    expect(KEYS.filter((key) => prefixes(key).includes('OPS#*'))).toEqual([
      ...noticeWriters,
      'noticeSummary',
    ]);
    expect(prefixes('noticeSummary', 'dynamodb:BatchGetItem')).toEqual(['OPS#*']);
    expect(prefixes('noticeSummary', 'dynamodb:GetItem')).toEqual(['NOTICE_SUMMARY*']);
    expect(prefixes('noticeSummary', 'dynamodb:UpdateItem')).toEqual(['NOTICE_SUMMARY*']);
    expect(tableStatements('noticeSummary').flatMap(actionsOf).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
    expect(KEYS.filter((key) => prefixes(key).includes('NOTICE_SUMMARY*'))).toEqual(['noticeSummary']);
    expect(prefixes('consumer', 'dynamodb:PutItem')).toEqual([]);
    // Only the consumer, the reconciler and the redeliveries write deliveries (the API's event readers
    // read them); none creates one with PutItem; only an account's erasure (the operator's) deletes them.
    expect(KEYS.filter((key) => prefixes(key).includes('DLV#*'))).toEqual([
      'getEvent',
      'redeliverEvent',
      'administer',
      'consumer',
      'reconciler',
    ]);
    // A redelivery at one endpoint (the organization's route and the operator's) restarts its delivery.
    for (const key of ['redeliverEvent', 'administer'] as const) {
      expect(prefixes(key, 'dynamodb:UpdateItem'), key).toContain('DLV#*');
      expect(prefixes(key, 'dynamodb:GetItem'), key).toContain('DLV#*');
    }
    // The operator's erasure deletes an account's deliveries in batches; nothing deletes one by one.
    expect(prefixes('administer', 'dynamodb:BatchWriteItem')).toContain('DLV#*');
    expect(KEYS.filter((key) => prefixes(key, 'dynamodb:DeleteItem').includes('DLV#*'))).toEqual([]);
    // Re-enabling an endpoint clears the account's health, announces it (a notice created by UpdateItem)
    // and, with recover_since, restarts its events.
    const enabling = ['ACCOUNT#*', 'EVENT#*', 'LOG#*', 'OPS#*'];
    expect(prefixes('enableEndpoint')).toEqual(enabling);
    expect(prefixes('enableEndpoint', 'dynamodb:UpdateItem')).toEqual(enabling);
    expect([...new Set(prefixes('resetWebhooks'))]).toEqual(['EVENT#*', 'LOG#*']);
    // The reconciler settles an ordered account's final failure in order (its watermark, its log) and a
    // routed endpoint's delivery, and announces the final failure; it settles a dead-lettered notice's delivery.
    expect([...new Set(prefixes('reconciler'))]).toEqual(['EVENT#*', 'LOG#*', 'ACCOUNT#*', 'DLV#*', 'OPS#*']);
    // Redelivery and replay also read the account and put an ordered account's watermark back, and an
    // ordered extra endpoint's on its own item.
    expect([...new Set(prefixes('redeliverEvent'))]).toEqual([
      'EVENT#*',
      'LOG#*',
      'ACCOUNT#*',
      'DLV#*',
      'EP#*',
    ]);
    expect(prefixes('redeliverEvent', 'dynamodb:UpdateItem')).toContain('EP#*');
    // The publish route reads the settings, the account and the catalog's operator types, claims ids and
    // appends events to account logs; it signs nothing, so it cannot read an organization's webhook token.
    expect(prefixes('publishEvent', 'dynamodb:PutItem')).toEqual(['EVENT#*', 'LOG#*']);
    // Its log heads' tickets and removal: log items only, never an id's claim or an old-layout event.
    expect(prefixes('publishEvent', 'dynamodb:UpdateItem')).toEqual(['LOG#*']);
    expect(prefixes('publishEvent', 'dynamodb:DeleteItem')).toEqual(['LOG#*']);
    expect(prefixes('publishEvent', 'dynamodb:GetItem')).toEqual([
      'SETTINGS*',
      'ACCOUNT#*',
      'EVENT#*',
      'LOG#*',
      'EVENT_TYPES*',
    ]);
    // An organization's own `manage` routes: its accounts' webhook URLs, its token and its operational
    // webhook's URL (an UpdateItem of the organization item; no PutItem, see below); an enabling's notice.
    expect(prefixes('manageSettings', 'dynamodb:UpdateItem')).toEqual([
      'ACCOUNT#*',
      'EP#*',
      'ORG#*',
      'ENDPOINT#*',
      'OPS#*',
    ]);
    // Endpoint material (payload keys): only the webhook senders and the two account writers; no API reader.
    const endpoints = KEYS.filter((key) => prefixes(key).includes('ENDPOINT#*'));
    expect(endpoints).toEqual(['sendTestEvent', 'manageSettings', 'administer', 'consumer']);
    const readsOrgs = KEYS.filter((key) => prefixes(key).includes('ORG#*'));
    expect(readsOrgs).toEqual(['sendTestEvent', 'manageSettings', 'administer', 'portalSession', 'consumer']);
    // The test event sender reads what an attempt reads and the operators' types, and writes its counter
    // only: no account, event, organization or endpoint write, no delete, no put.
    expect(prefixes('sendTestEvent', 'dynamodb:GetItem')).toEqual([
      'ACCOUNT#*',
      'ORG#*',
      'ENDPOINT#*',
      'EVENT_TYPES*',
    ]);
    expect(prefixes('sendTestEvent', 'dynamodb:UpdateItem')).toEqual(['TESTS#*']);
    expect(tableStatements('sendTestEvent').flatMap(actionsOf).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
    const counters = KEYS.filter((key) => prefixes(key).includes('TESTS#*'));
    expect(counters).toEqual(['sendTestEvent', 'administer']);
    const apiKeys = KEYS.filter((key) => prefixes(key).includes('APIKEY#*'));
    expect(apiKeys).toEqual(['authorizer', 'administer', 'portalSession']);
    // The operators' event types: written by the admin function only; read (GetItem only) by it, the
    // catalog's readers, the publish route (validation), the test event sender (examples) and the
    // organization's settings (the type names an endpoint may subscribe to).
    const eventTypes = KEYS.filter((key) => prefixes(key).includes('EVENT_TYPES*'));
    expect(eventTypes).toEqual([
      'sendTestEvent',
      'manageSettings',
      'publishEvent',
      'administer',
      'eventTypes',
    ]);
    expect(prefixes('manageSettings', 'dynamodb:UpdateItem')).not.toContain('EVENT_TYPES*');
    // An organization removes its accounts' extra endpoints with their material, and can delete no
    // account item: neither an account nor the tombstone that keeps a deleted one's IBAN.
    expect(prefixes('manageSettings', 'dynamodb:DeleteItem')).toEqual(['EP#*', 'ENDPOINT#*']);
    expect(prefixes('manageSettings', 'dynamodb:DeleteItem')).not.toContain('ACCOUNT#*');
    expect(KEYS.filter((key) => prefixes(key, 'dynamodb:DeleteItem').includes('ACCOUNT#*'))).toEqual([
      'administer',
    ]);
    expect(prefixes('administer', 'dynamodb:UpdateItem')).toContain('EVENT_TYPES*');
    for (const reader of ['eventTypes', 'publishEvent', 'sendTestEvent', 'manageSettings'] as const) {
      const actions = tableStatements(reader)
        .filter((statement) => JSON.stringify(statement).includes('EVENT_TYPES'))
        .flatMap(actionsOf);
      expect(actions, reader).toEqual(['dynamodb:GetItem']);
    }
    const portalLinks = KEYS.filter((key) => prefixes(key).includes('PORTAL#*'));
    expect(portalLinks).toEqual(['administer', 'portalSession']);
    for (const key of KEYS) {
      const statements = tableStatements(key);
      // Item actions only under a LeadingKeys condition that also requires keys to be named.
      for (const statement of statements) {
        expect(statement.Condition, key).toMatchObject({ Null: { 'dynamodb:LeadingKeys': 'false' } });
        expect(JSON.stringify(statement.Resource), key).not.toContain('/index/');
      }
      // Only the admin path and the portal's session function create or delete API keys, only the admin
      // path creates organizations (UpdateItem creates items too, so it counts as a write); only they
      // (the key count) and the organization's token route update ORG#.
      for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem']) {
        const issuer = key === 'administer' || key === 'portalSession';
        if (!issuer) expect(prefixes(key, action), `${key} ${action}`).not.toContain('APIKEY#*');
        if (key !== 'administer' && action !== 'dynamodb:UpdateItem') {
          expect(prefixes(key, action), `${key} ${action}`).not.toContain('ORG#*');
        }
      }
      if (!['administer', 'manageSettings', 'portalSession'].includes(key)) {
        expect(prefixes(key, 'dynamodb:UpdateItem'), key).not.toContain('ORG#*');
      }
      // Queries on named indexes, or on the table only within one account's partitions (next test).
      for (const statement of byDefault
        .statements(key)
        .filter((s) => actionsOf(s).includes('dynamodb:Query'))) {
        // CDK merges item actions of the very same condition into the Query's statement: only the
        // Query's own kinds.
        const items = FUNCTION_ACCESS[key].table?.items as Record<string, readonly string[]> | undefined;
        const merged = actionsOf(statement).filter((action) => action !== 'dynamodb:Query');
        for (const action of merged) {
          expect(items?.[action.slice('dynamodb:'.length)], `${key} ${action}`).toEqual(items?.Query);
        }
      }
    }
    // A deleted account's tombstone replaces the account item whole.
    // The upgrade to account logs writes `LOG#` items and turns old `EVENT#` items into claims.
    // An operator's event type: its head and versions.
    expect(prefixes('administer', 'dynamodb:PutItem')).toEqual([
      'ORG#*',
      'APIKEY#*',
      'PORTAL#*',
      'ACCOUNT#*',
      'EVENT#*',
      'LOG#*',
      'EVENT_TYPES*',
    ]);
    // Portal sign-in: takes (deletes) its link, creates a session key, deletes expired session keys;
    // sign-out deletes its own key; each with the organization's key count.
    expect(prefixes('portalSession', 'dynamodb:PutItem')).toEqual(['APIKEY#*']);
    expect(prefixes('portalSession', 'dynamodb:DeleteItem')).toEqual(['PORTAL#*', 'APIKEY#*']);
    expect(prefixes('portalSession', 'dynamodb:UpdateItem')).toEqual(['ORG#*', 'APIKEY#*']);
    // An account's deletion removes its endpoint's material and its counter of test events.
    expect(prefixes('administer', 'dynamodb:DeleteItem')).toEqual([
      'APIKEY#*',
      'ACCOUNT#*',
      'EP#*',
      'ENDPOINT#*',
      'TESTS#*',
    ]);
    // Erasing an account: batch deletes of its log items, their id claims, a fanned-out event's
    // deliveries and the operational notices naming it only.
    expect(prefixes('administer', 'dynamodb:BatchWriteItem')).toEqual(['EVENT#*', 'LOG#*', 'DLV#*', 'OPS#*']);
  });

  it('query the table itself only within account logs, account partitions and operational logs, and only the functions that read them', () => {
    const tableQueries = (key: FunctionKey) =>
      byDefault
        .statements(key)
        .filter(
          (s) => actionsOf(s).includes('dynamodb:Query') && !JSON.stringify(s.Resource).includes('/index/'),
        );
    const queriers = KEYS.filter((key) => tableQueries(key).length > 0);
    // The feed (list-events), replay (redeliver-event and the operator's), the publish's latest sequence,
    // the consumer's order gate and chain, the reconciler's chain after a final failure, a switch to
    // ordered (the latest sequence); an account's extra endpoints (their own partition) for the endpoint
    // routes (the organization's reader and writer, the operator's), a test event to an extra endpoint,
    // the consumer's routing and an endpoint's events (list-events: the account's extra endpoints, an
    // extra endpoint's partition of deliveries); an organization's operational notices
    // (`GET /operational-events`, served beside the delivery summary, and the operator's twin).
    const expected: [FunctionKey, string[]][] = [
      ['listEvents', ['LOG#*', 'EP#*', 'DLV#*']],
      ['redeliverEvent', ['LOG#*', 'EP#*']],
      ['getAccount', ['EP#*']],
      ['getDeliveryStats', ['OPS#*']],
      ['sendTestEvent', ['EP#*']],
      ['manageSettings', ['LOG#*', 'EP#*']],
      ['publishEvent', ['LOG#*']],
      ['administer', ['LOG#*', 'EP#*', 'OPS#*']],
      ['consumer', ['LOG#*', 'EP#*']],
      ['reconciler', ['LOG#*']],
    ];
    expect(queriers).toEqual(expected.map(([key]) => key));
    for (const [key, prefixes] of expected) {
      expect(
        tableQueries(key).map((s) => s.Condition),
        key,
      ).toEqual([leadingKeys(prefixes)]);
    }
  });

  it("the admin function may register keys in the stack's usage plan only, reading no API key, and learns the plan from the settings item", () => {
    const apigateway = byDefault
      .statements('administer')
      .filter((s) => actionsOf(s).some((a) => a.startsWith('apigateway:')));
    // Import (create or overwrite) a key, add it to this plan: no GET, which would read every key value.
    const joined = (arn: Json): string =>
      (arn['Fn::Join'][1] as Json[])
        .map((part) => (typeof part === 'string' ? part : `{${part.Ref}}`))
        .join('');
    expect(apigateway).toEqual([{ Effect: 'Allow', Action: 'apigateway:POST', Resource: expect.any(Array) }]);
    const prefix = 'arn:{AWS::Partition}:apigateway:{AWS::Region}::';
    expect(((apigateway[0]?.Resource ?? []) as Json[]).map(joined)).toEqual([
      `${prefix}/apikeys`,
      `${prefix}/usageplans/{${byDefault.logicalId(byDefault.stack.api.usagePlan)}}/keys`,
    ]);
    for (const key of KEYS.filter((other) => other !== 'administer')) {
      expect(JSON.stringify(byDefault.statements(key)), key).not.toContain('apigateway:');
    }
    expect(JSON.stringify(byDefault.template.findResources('Custom::AWS'))).toMatch(
      /usage_plan_id.*OrganizationPlan/,
    );
  });

  it('key grants hold only through DynamoDB, SQS and SNS (kms:ViaService), but for CDK event-source grants', () => {
    // CDK's own grants: the SQS event sources' pollers and the forwarder's failure destination.
    const cdkGrants: FunctionKey[] = ['consumer', 'reconciler', 'forwarder'];
    for (const key of KEYS) {
      // The secrets key's grants have their own conditions (test/infra/secrets-key.test.ts).
      const kms = customerManaged
        .statements(key)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')))
        .filter((s) => !JSON.stringify(s.Condition ?? {}).includes('kms:EncryptionContext:herald:kind'));
      const viaService = kms.filter((s) =>
        /"kms:ViaService":.*(dynamodb|sqs|sns)\./.test(JSON.stringify(s.Condition)),
      );
      const unconditioned = kms.filter((s) => !viaService.includes(s));
      if (!cdkGrants.includes(key)) expect(unconditioned, key).toEqual([]);
      const access = FUNCTION_ACCESS[key];
      if (access.table || access.queue || access.noticeTopic) {
        expect(viaService.length, key).toBeGreaterThan(0);
      }
    }
  });

  it('only publish, administer and portal sign-in create items with PutItem; few delete; none scans', () => {
    const creators: Record<string, FunctionKey[]> = {
      'dynamodb:PutItem': ['publishEvent', 'administer', 'portalSession'],
      // The publish route deletes only its log heads, the organization's settings only its accounts' extra
      // endpoints with their material (asserted above).
      'dynamodb:DeleteItem': ['manageSettings', 'publishEvent', 'administer', 'portalSession'],
      'dynamodb:BatchWriteItem': ['administer'],
      'dynamodb:Scan': [],
      'dynamodb:*': [],
    };
    for (const [action, allowed] of Object.entries(creators)) {
      expect(
        KEYS.filter((key) => allows(byDefault.statements(key), action)),
        action,
      ).toEqual(allowed);
    }
    const session = byDefault.statements('portalSession');
    expect(allows(session, 'dynamodb:BatchWriteItem')).toBe(false);
    expect(JSON.stringify(session)).not.toMatch(/sqs:/);
  });
});
