/**
 * The operator's routes are declared once, in `ADMIN_ROUTES`: the `administer` handler's dispatch map is
 * typed to cover exactly the operations it serves (a missing or extra handler does not compile; a route
 * naming another function is that function's), and these tests hold the stack's routes, the OpenAPI
 * document and the CLI to the same table.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, API_ROUTES } from '#config/routes';
import { buildOpenApiDocument } from '#http/openapi/document';
import { adminRoute, COMMANDS } from '../../scripts/cli/commands';

const table = Object.entries(ADMIN_ROUTES);
const doc = buildOpenApiDocument('https://api.example.test');

describe('the admin route table', () => {
  it('is exactly what the administer function serves, but for the routes that name their own function', () => {
    const served = API_ROUTES.filter((route) => route.fn === 'administer').map(
      (route) => `${route.method} ${route.path}`,
    );
    const administered = table.filter(([, route]) => !('fn' in route));
    expect(served.sort()).toEqual(administered.map(([, route]) => `${route.method} ${route.path}`).sort());
    // Every operator route, whichever function serves it, is an IAM route of that function.
    for (const [name, route] of table) {
      const fn = 'fn' in route ? route.fn : 'administer';
      expect(
        API_ROUTES.filter((shape) => shape.method === route.method && shape.path === route.path),
        name,
      ).toEqual([expect.objectContaining({ fn, auth: 'iam' })]);
    }
    expect(table.filter(([, route]) => 'fn' in route).map(([name]) => name)).toEqual(['adminSendTestEvent']);
  });

  it('is what the OpenAPI document describes: one operation per entry, named as the entry', () => {
    for (const [name, { method, path }] of table) {
      const operation = doc.paths[path]?.[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'];
      expect(operation?.operationId, `${method} ${path}`).toBe(name);
    }
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      path.startsWith('/admin/') ? Object.keys(item) : [],
    );
    expect(documented).toHaveLength(table.length);
  });

  it('is what the CLI calls: every route has a command, and every command names a route of the table', () => {
    const called = Object.values(COMMANDS).flatMap((command) => (command.route ? [command.route] : []));
    expect(new Set(called)).toEqual(new Set(Object.keys(ADMIN_ROUTES)));
  });

  it('gives the CLI each route with its path parameters filled in, percent-encoded', () => {
    expect(adminRoute('revokeApiKey', { org: 'o/1', key_id: 'k 1' })).toEqual([
      'DELETE',
      '/admin/organizations/o%2F1/api-keys/k%201',
    ]);
    expect(adminRoute('createOrganization')).toEqual(['POST', '/admin/organizations']);
    expect(() => adminRoute('getOrganization')).toThrow(/org/);
  });
});
