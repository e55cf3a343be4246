#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so there is no build step to forget.
import { register } from 'tsx/esm/api';
register();
// V8 settings of every SpaceAct process, set before any of the engine runs (core/v8-flags.ts).
const { applyV8Flags } = await import('../core/v8-flags.ts');
applyV8Flags();
const { main } = await import('../cli/main.ts');
await main(process.argv);
