#!/usr/bin/env node
// The operator CLI (`npx herald …`): runs the TypeScript entry through tsx, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../scripts/cli/main.ts');
