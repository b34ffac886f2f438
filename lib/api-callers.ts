import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ADMIN_ROUTES, API_ROUTES, type RouteShape } from '#config/routes';

/**
 * Who may call the API's IAM (SigV4) routes: IAM principal ARNs, `*` and `?` allowed in the name
 * (`arn:aws:iam::111122223333:role/gateway-*`), matched against the caller's `aws:PrincipalArn` (a role
 * session's is its role's ARN). A principal of another account also needs `execute-api:Invoke` in its
 * own account's IAM policy.
 */
export interface ApiCallers {
  /**
   * Who may publish (`POST /events`, `POST /events/batch`). @default - a `Publisher` role Herald creates
   * (output `PublisherRoleArn`), which principals of this account may assume if their IAM policy lets them
   */
  readonly publishers?: readonly string[];
  /**
   * Who may operate (every `/admin/…` route, the `herald` CLI). @default - an `Operator` role Herald
   * creates (output `OperatorRoleArn`), assumable as the `Publisher` role is
   */
  readonly operators?: readonly string[];
}

/** A principal ARN `aws:PrincipalArn` can be: the account's root, a user or a role. */
const PRINCIPAL_ARN = /^arn:aws[a-z-]*:iam::(\d{12}|\*):(root|(user|role)\/[\w+=,.@/*?-]+)$/;

/** The operator's routes, whichever function serves them. */
const OPERATOR_ROUTES = new Set(Object.values(ADMIN_ROUTES).map((route) => `${route.method} ${route.path}`));

/** Which caller list admits each IAM route: publishing and the operator's routes, nothing else. */
function callerKind(route: RouteShape): keyof ApiCallers {
  if (route.fn === 'publishEvent') return 'publishers';
  if (OPERATOR_ROUTES.has(`${route.method} ${route.path}`)) return 'operators';
  throw new Error(
    `${route.method} ${route.path} is an IAM route that no caller list (publishers, operators) covers`,
  );
}

/** The route as a resource of the API's own resource policy (path parameters as `*`, any stage). */
function resourceOf(route: RouteShape): string {
  return `execute-api:/*/${route.method}${route.path.replace(/\{\w+\}/g, '*')}`;
}

/** Checks every ARN of a caller list (they may come from the CDK context as text). */
export function checkCallers(name: keyof ApiCallers, arns: readonly string[]): readonly string[] {
  if (arns.length === 0) throw new Error(`${name}: name at least one principal, or leave it unset`);
  for (const arn of arns) {
    if (arn.includes(':assumed-role/')) {
      throw new Error(
        `${name}: ${arn} is a role session; name its role (arn:aws:iam::<account>:role/<name>), which is what aws:PrincipalArn holds`,
      );
    }
    if (!PRINCIPAL_ARN.test(arn)) {
      throw new Error(
        `${name}: ${arn} is not an IAM principal ARN (arn:aws:iam::<account>:root, …:user/<name> or …:role/<name>; * and ? allowed in the name)`,
      );
    }
  }
  return arns;
}

/** Properties of {@link IamCallers}. */
export interface IamCallersProps {
  readonly api: apigw.RestApi;
  readonly callers: ApiCallers;
}

/**
 * The API's resource policy. Without one, any principal of the account whose IAM policy allows
 * `execute-api:Invoke` on `*` (e.g. the managed `AmazonAPIGatewayInvokeFullAccess`, or an administrator) is a
 * full operator. With it: every route stays reachable and decided by its own authorization (a public
 * route or one whose API key the authorizer checks needs an explicit allow once a policy exists), and
 * each IAM route is denied to every principal but the publishers or operators named; nothing named, the
 * roles created here. The account's IAM alone then decides nothing: who may assume a role does.
 */
export class IamCallers extends Construct {
  /** The roles created because no principals of that kind were named. */
  readonly roles: Partial<Record<keyof ApiCallers, iam.Role>> = {};

  constructor(scope: Construct, id: string, props: IamCallersProps) {
    super(scope, id);
    const admitted = {
      publishers: this.admitted('publishers', 'Publisher', props.callers.publishers),
      operators: this.admitted('operators', 'Operator', props.callers.operators),
    };
    props.api.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'EveryRouteDecidedByItsOwnAuthorization',
        principals: [new iam.AnyPrincipal()],
        actions: ['execute-api:Invoke'],
        resources: ['execute-api:/*'],
      }),
    );
    for (const kind of ['publishers', 'operators'] as const) {
      const routes = API_ROUTES.filter((route) => route.auth === 'iam' && callerKind(route) === kind);
      props.api.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: kind === 'publishers' ? 'OnlyPublishersPublish' : 'OnlyOperatorsOperate',
          effect: iam.Effect.DENY,
          principals: [new iam.AnyPrincipal()],
          actions: ['execute-api:Invoke'],
          resources: routes.map(resourceOf).sort(),
          conditions: { ArnNotLike: { 'aws:PrincipalArn': admitted[kind] } },
        }),
      );
    }
  }

  /** The named principals, or the ARN of a role created for them (trusted by the account, no policy). */
  private admitted(kind: keyof ApiCallers, name: string, named: readonly string[] | undefined): string[] {
    if (named !== undefined) return [...checkCallers(kind, named)];
    const role = new iam.Role(this, name, {
      assumedBy: new iam.AccountRootPrincipal(),
      description: `Herald: the API's ${kind} (its resource policy admits this role; assuming it is the account's IAM decision)`,
    });
    this.roles[kind] = role;
    return [role.roleArn];
  }
}
