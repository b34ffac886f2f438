/**
 * `node --import tsx local-child.ts <scenario> <out.json>`: one local run in a process of its own, so that
 * every run imports the handlers afresh (they read their table and queues at module scope, one runtime
 * per process) and starts on fresh emulators. Writes the {@link LocalMeasurement} as JSON.
 */
import { writeFileSync } from 'node:fs';
import { measureLocal } from './local-run';
import { SCENARIOS } from './scenarios';

const [name, out] = process.argv.slice(2);
const scenario = SCENARIOS[name as keyof typeof SCENARIOS];
if (!scenario || !out) throw new Error('usage: local-child.ts saturated|paced <out.json>');
writeFileSync(out, JSON.stringify(await measureLocal(scenario)));
