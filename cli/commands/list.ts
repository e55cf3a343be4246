import type { Command } from 'commander';
import { families, leversOf, tiersOf } from '../../tasks/registry.ts';
import { releasedInstances } from '../../tasks/suites.ts';

/** `spaceact list [--json]`: the registered families, their tiers, lever studies and released instances. */
export function register(program: Command): void {
  program
    .command('list')
    .description('list the registered task families, their tiers, lever studies (L5 plus one lever) and released instances')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const rows = families().map((f) => ({
        id: f.id,
        version: f.version,
        category: f.category,
        title: f.title,
        tiers: Object.fromEntries(tiersOf(f).map((t) => [t, f.tiers[t]!])),
        // Single-factor lever studies over L5 (`<ID>-L5+<lever>-sN`), every lever the family supports.
        levers: Object.fromEntries(leversOf(f).map((l) => [l, f.levers![l]])),
        released: releasedInstances(f.id),
      }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      for (const r of rows) {
        process.stdout.write(`${r.id} v${r.version} [${r.category}] ${r.title}\n`);
        for (const [t, info] of Object.entries(r.tiers)) {
          process.stdout.write(`  ${t}${info.levers.length ? ' ' + info.levers.join(' ') : ''}: ${info.description}\n`);
        }
        for (const [lever, info] of Object.entries(r.levers)) process.stdout.write(`  L5${lever} (lever study, e.g. ${r.id}-L5${lever}-s100): ${info.description}\n`);
        process.stdout.write(`  released: ${r.released.join(', ')}\n`);
      }
    });
}
