import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';

/*
 * aws-cdk-lib implements some optional interface members (`member?: T`) as getters typed `T | undefined`,
 * which `exactOptionalPropertyTypes` refuses: to the compiler a `Vpc` is not an `IVpc` (aws/aws-cdk#37995)
 * nor a `Table` an `ITable`, though each is exactly that at run time. Each view below leaves out only the
 * member in dispute, so the compiler still checks every other member; delete them once aws-cdk-lib's
 * declarations agree with themselves.
 */

/** The events table as the `ITable` that event sources and grants take (`tableStreamArn` is in dispute). */
export function tableInterface(table: dynamodb.Table): dynamodb.ITable {
  const agreeing: Omit<dynamodb.Table, 'tableStreamArn'> = table;
  return agreeing;
}

/** A VPC as the `IVpc` that security groups and functions take (`vpnGatewayId` is in dispute). */
export function vpcInterface(vpc: ec2.Vpc): ec2.IVpc {
  const agreeing: Omit<ec2.Vpc, 'vpnGatewayId'> = vpc;
  return agreeing;
}
