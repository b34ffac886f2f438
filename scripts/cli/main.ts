import { parseArgs } from 'node:util';
import { ApiError, apiClient } from './api-client';
import { COMMANDS } from './commands';
import { OPTIONS, UsageError } from './flags';
import { resolveTarget } from './target';

const USAGE = `Usage: herald <command> [flags]
${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}`)
  .join('\n')}
Every command calls Herald's API, signed with AWS SigV4. Target: the local runtime (.herald/local.json)
by default; a deployed stack with --api-url URL (the stack output ApiUrl) [--region R], using the
default AWS credential chain.`;

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // Unknown flags and flags without their value are usage mistakes, not crashes.
    process.stderr.write(`herald: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const { values, positionals } = parseCommandLine();

async function run(): Promise<unknown> {
  const command = positionals.join(' ');
  if (values.help) return USAGE;
  if (command === '') throw new UsageError('');
  // The old spelling of `token rotate`.
  const action = COMMANDS[command === 'org token rotate' ? 'token rotate' : command];
  if (!action) throw new UsageError(`Unknown command "${command}".`);
  const target = await resolveTarget({ apiUrl: values['api-url'], region: values.region });
  return action.run(apiClient(target), values);
}

try {
  const result = await run();
  process.stdout.write(result === USAGE ? `${USAGE}\n` : `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message ? `herald: ${error.message}\n` : ''}${USAGE}\n`);
    process.exitCode = 2;
  } else {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`herald: ${message}\n`);
    process.exitCode = 1;
  }
}
