/**
 * How a command calls an operator route: its method and path from `ADMIN_ROUTES`, its parameters
 * filled in, and the answer's body.
 */
import { ADMIN_ROUTES, type AdminOperation } from '#config/routes';
import type { ApiAnswer } from './api-client';
import { type Flags, integer, required } from './flags';

/**
 * The method and path of an operator route, its `{parameters}` filled in (percent-encoded), as the
 * arguments of an {@link ApiCall}.
 */
export function adminRoute(
  name: AdminOperation,
  params: Readonly<Record<string, string>> = {},
): [method: string, path: string] {
  const { method, path } = ADMIN_ROUTES[name];
  const filled = path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const value = params[param];
    if (value === undefined) throw new Error(`${name} needs its path parameter ${param}`);
    return encodeURIComponent(value);
  });
  return [method, filled];
}

/** The body of a successful answer: what most commands print. */
export async function bodyOf(answer: Promise<ApiAnswer>): Promise<unknown> {
  return (await answer).body;
}

/** The body of a rotation (token or keys): `--overlap-hours`, the server's default when absent. */
export function overlapBody(flags: Flags): { overlap_hours?: number } {
  const hours = integer(flags, 'overlap-hours', 'whole hours from 0 to 168');
  return hours === undefined ? {} : { overlap_hours: hours };
}

/** The `{org}` parameter from `--org`. */
export const org = (flags: Flags) => ({ org: required(flags, 'org') });
