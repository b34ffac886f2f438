/**
 * The answers of the API's handlers that are not problems (errors are rendered once, in `problem/`).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';

/** A JSON response. */
export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** An empty answer (204). */
export function noContent(): APIGatewayProxyResult {
  return { statusCode: 204, headers: { 'Cache-Control': 'no-store' }, body: '' };
}
