import type { Command } from 'commander';
import { listOption } from '../../core/options.ts';
import { formatRunStatistics, runStatistics } from '../../report/run-stats.ts';

/** Prints the run statistics of `dir` (text, or JSON with `--json`), limited to `families` when given. */
export function printRunStatistics(dir: string, opts: { json?: boolean; family?: string }): void {
  const fams = listOption(opts, 'family');
  const report = runStatistics(dir, fams ? { families: fams } : {});
  process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatRunStatistics(report));
}

/** `spaceact stats DIR [--family IDS] [--json]`: the figures families offer over a run (e.g. V6's per-type accuracy). */
export function register(program: Command): void {
  program
    .command('stats')
    .description("figures the run's families offer over their episodes, e.g. V6's accuracy per question type with Macro-8 and Micro-8 per tier")
    .argument('<dir>', 'run folder (spaceact run --out)')
    .option('--family <ids>', 'only these families (comma-separated); each must offer run statistics')
    .option('--json', 'print the figures as JSON')
    .action((dir: string, opts: { json?: boolean; family?: string }) => printRunStatistics(dir, opts));
}
