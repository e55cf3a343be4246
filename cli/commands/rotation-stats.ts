import type { Command } from 'commander';
import { printRunStatistics } from './stats.ts';

/** `spaceact rotation-stats DIR [--json]`: an alias of `spaceact stats DIR --family V6`. */
export function register(program: Command): void {
  program.command('rotation-stats').description('alias of: stats DIR --family V6').argument('<dir>').option('--json', 'print JSON').action((dir: string, opts: { json?: boolean }) => printRunStatistics(dir, { ...opts, family: 'V6' }));
}
