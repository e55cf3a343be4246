import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './package-root.ts';

let cached: string | undefined;

/** The installed package's version, recorded in every log header. */
export function packageVersion(): string {
  if (cached) return cached;
  cached = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
