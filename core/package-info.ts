import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The installed package's version, recorded in every log header. */
export function packageVersion(): string {
  if (cached) return cached;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  cached = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
