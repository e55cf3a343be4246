#!/usr/bin/env node
// From a checkout, the CLI is TypeScript run through tsx's loader, so there is no build step to
// forget; an installed package has no sources, only the compiled dist/ (`npm run build`).
import { existsSync } from 'node:fs';

const fromSources = existsSync(new URL('../cli/main.ts', import.meta.url));
if (fromSources) {
  const { register } = await import('tsx/esm/api');
  register();
}
const code = fromSources ? '..' : '../dist';
// V8 settings of every SpaceAct process, set before any of the engine runs (core/v8-flags.ts).
const { applyV8Flags } = await import(`${code}/core/v8-flags.${fromSources ? 'ts' : 'js'}`);
applyV8Flags();
const { main } = await import(`${code}/cli/main.${fromSources ? 'ts' : 'js'}`);
await main(process.argv);
