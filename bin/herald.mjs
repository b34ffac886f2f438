#!/usr/bin/env node
// The operator CLI (`herald …`): runs the esbuild bundle of scripts/cli/, rebuilt first when a source is
// newer (scripts/cli/bundle.mjs), so no TypeScript compiler loads at run time.
import { freshCliBundle } from '../scripts/cli/bundle.mjs';

await import(await freshCliBundle());
