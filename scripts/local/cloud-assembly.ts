/**
 * The handler bundles of a synthesized cloud assembly (`cdk synth`'s output, `cdk.out` by default): what
 * `cdk deploy` uploads, so the local runtime can run exactly those instead of the TypeScript sources.
 * Each function is found by its construct path (`<stack>/<id>/Function/Resource`) in the template's
 * metadata, and its code by the asset directory the same resource names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTIONS, type FunctionKey, functionConstructId } from '#config/functions';

/** Where a runtime finds the bundles: the assembly directory and the stack in it. */
export interface CloudAssemblySource {
  readonly dir: string;
  /** Default `Herald`, the app's default stack name. */
  readonly stackName?: string;
}

interface TemplateResource {
  readonly Type: string;
  readonly Metadata?: Record<string, unknown>;
  readonly Properties?: { readonly Handler?: string };
}

/**
 * The absolute path of every function's bundled module (`<asset>/index.mjs`), by function key.
 *
 * @throws Error when the template lacks a function, names another handler than `index.handler`, or an
 *   asset directory has no `index.mjs` (bundling skipped, or an assembly of another version)
 */
export function bundledHandlerFiles(source: CloudAssemblySource): Record<FunctionKey, string> {
  const stackName = source.stackName ?? 'Herald';
  const templateFile = join(source.dir, `${stackName}.template.json`);
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as {
    Resources: Record<string, TemplateResource>;
  };
  const byPath = new Map<string, TemplateResource>();
  for (const resource of Object.values(template.Resources)) {
    const path = resource.Metadata?.['aws:cdk:path'];
    if (resource.Type === 'AWS::Lambda::Function' && typeof path === 'string') byPath.set(path, resource);
  }
  const files = {} as Record<FunctionKey, string>;
  for (const key of Object.keys(FUNCTIONS) as FunctionKey[]) {
    const path = `${stackName}/${functionConstructId(key)}/Function/Resource`;
    const resource = byPath.get(path);
    const asset = resource?.Metadata?.['aws:asset:path'];
    if (!resource || typeof asset !== 'string') throw new Error(`${templateFile} has no function ${path}`);
    if (resource.Properties?.Handler !== 'index.handler') {
      throw new Error(`${path} runs ${resource.Properties?.Handler}, not index.handler`);
    }
    const file = join(source.dir, asset, 'index.mjs');
    if (!existsSync(file)) throw new Error(`${path}: ${file} is missing (was bundling skipped?)`);
    files[key] = file;
  }
  return files;
}
